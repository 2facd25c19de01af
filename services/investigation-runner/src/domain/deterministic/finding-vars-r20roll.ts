/**
 * The template variables of the rules on rollouts and scaling (cause-catalog.data.ts, its
 * "rollouts and scaling (round20, r20roll)" block): what the last `kubectl apply` asked for
 * spec.replicas and how the autoscaler climbed back, which pods carry a workload's load, the
 * health check path an Ingress gives the load balancer, the fsGroup a pod sets, and the release
 * record a failing helm upgrade reads.
 */
import type { FindingContext } from './finding-vars';
import { autoscalersOf } from './diagnose-rollouts';
import { jsonField, type ClusterModel } from './model';
import type { ObjectView } from './observe/views';
import { clip } from './text';

type Vars = Record<string, string>;

const iso = (t?: number) => (t === undefined ? '' : new Date(t).toISOString());

/** the deploy that reset the replicas: what its manifest said, and the autoscaler's climb after */
function replicasReset({ f, model }: FindingContext): Vars {
  const ns = f.object?.namespace;
  const d = model.get('deployment', f.workload, ns);
  const to = f.groups['to'] ?? '';
  const said = d?.fields['appliedReplicas'];
  const applied =
    said === 'none'
      ? ': its kubectl.kubernetes.io/last-applied-configuration has no replicas field, so the last kubectl apply removed spec.replicas and the API defaulted it to 1'
      : said
        ? `: its kubectl.kubernetes.io/last-applied-configuration sets "replicas":${said}, the number the last kubectl apply wrote over the autoscaler's`
        : ' by the deploy (an applied manifest that sets replicas, or one that omits it and lets it default to 1)';
  const hpa = autoscalersOf(model, f.workload, ns)[0];
  const sizes = model.events
    .filter(
      (e) =>
        /^HorizontalPodAutoscaler$/i.test(e.object?.kind ?? '') &&
        (e.object?.name === hpa?.name || e.object?.name === f.workload) &&
        (f.at === undefined || (e.last ?? e.first ?? 0) >= f.at),
    )
    .sort((a, b) => (a.last ?? a.first ?? 0) - (b.last ?? b.first ?? 0))
    .map((e) => /New size: (\d+)/.exec(e.message)?.[1])
    .filter((x): x is string => !!x);
  const limited = hpa?.conditions.find(
    (c) =>
      c.type === 'ScalingLimited' && c.status === 'True' && /ScaleUpLimit/.test(c.reason ?? ''),
  );
  const climb = sizes.length
    ? ` (since then it set ${[...new Set(sizes)].join(', ')}${limited ? `, held back by its own scale-up policy: ScalingLimited ${limited.reason}` : ''}${hpa?.fields['maxReplicas'] ? `; its maxReplicas ${hpa.fields['maxReplicas']} is not the limit` : ''})`
    : '';
  return {
    reset_at: f.at !== undefined ? ` at ${iso(f.at)}` : '',
    applied: to ? applied : '',
    hpa_climb: climb,
  };
}

/** the Service in front of the pinned pods: a plain ClusterIP, its port's protocol */
function pinnedLoad({ f, model }: FindingContext): Vars {
  const ns = f.object?.namespace;
  const svc = model
    .list('service', ns)
    .find((s) => s.name === f.workload || s.name.startsWith(`${f.workload}-`));
  const ports = svc?.fields['ports'] ?? '';
  const h2 = /h2c|grpc|http2/i.test(ports);
  const hpa = autoscalersOf(model, f.workload, ns)[0];
  const atMax = hpa?.conditions.some(
    (c) =>
      c.type === 'ScalingLimited' && c.status === 'True' && /TooManyReplicas/.test(c.reason ?? ''),
  );
  const parts = [
    svc
      ? `Service ${svc.name} is a ${svc.fields['type'] ?? 'ClusterIP'} Service${h2 ? ' whose port speaks HTTP/2 (gRPC)' : ''}`
      : '',
    hpa
      ? `its HorizontalPodAutoscaler averages the busy and the idle pods${atMax ? ` and stopped at maxReplicas ${hpa.fields['maxReplicas'] ?? ''} (TooManyReplicas)` : ''}`
      : '',
  ].filter(Boolean);
  return { pinned_detail: parts.length ? `; ${parts.join('; ')}` : '' };
}

/** an Ingress of the AWS Load Balancer Controller in front of the workload, with its annotations */
function albIngress(model: ClusterModel, workload: string, ns?: string) {
  return model
    .list('ingress', ns)
    .map((i) => ({ i, a: jsonField(i, 'annotations') }))
    .filter(({ a }) => Object.keys(a).some((k) => k.startsWith('alb.ingress.kubernetes.io/')))
    .sort(
      (x, y) =>
        Number(y.i.name === workload || (y.i.fields['backends'] ?? '').includes(workload)) -
        Number(x.i.name === workload || (x.i.fields['backends'] ?? '').includes(workload)),
    )[0];
}

/** a line of the health checker's request: its path and status code */
const CHECKER_LINE =
  /(?=[^\n]*ELB-HealthChecker)(?:[^\n]*?"(?:GET|HEAD) (\/[^\s"?]*)[^"\n]*" ([1-5]\d\d)\b|[^\n]*?"url"\s*:\s*"(\/[^"?]*)[^\n]*?"status(?:Code)?"\s*:\s*([1-5]\d\d)\b)/;

/** what the load balancer's health check asks and what the pods of the workload answer */
function lbHealthCheck({ f, model, pods }: FindingContext): Vars {
  const ns = f.object?.namespace;
  const ing = albIngress(model, f.workload, ns);
  const path = ing?.a['alb.ingress.kubernetes.io/healthcheck-path'];
  const codes = ing?.a['alb.ingress.kubernetes.io/success-codes'];
  const failing = pods.filter((p) =>
    p.conditions.some((c) => /^target-health\./.test(c.type) && c.status === 'False'),
  );
  const names = new Set((failing.length ? failing : pods).map((p) => p.name));
  const answered = model.logs
    .filter((l) => l.pod && names.has(l.pod))
    .flatMap((l) => l.lines.map((x) => x.text))
    .map((t) => CHECKER_LINE.exec(t))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ path: m[1] ?? m[3] ?? '', code: m[2] ?? m[4] ?? '' }))
    .filter((x) => /^[45]/.test(x.code))
    .pop();
  const hcPath = path ?? answered?.path ?? f.groups['hc_path'] ?? f.groups['hc_path2'];
  const check = [
    ing && path
      ? `the Ingress ${ing.i.name} sets alb.ingress.kubernetes.io/healthcheck-path: ${path}${codes ? ` (success-codes ${codes})` : ''}`
      : '',
    answered && f.entry.id !== 'lb_health_check_path_failing'
      ? `the pods answer the load balancer's health checker (ELB-HealthChecker) ${answered.code} on ${answered.path}`
      : '',
  ].filter(Boolean);
  const probes = (pods[0]?.containers ?? [])
    .flatMap((c) => c.probes)
    .find((p) => /^readiness/i.test(p));
  const probePath = probes ? /https?:\/\/[^/\s]*(\/[^\s]*)/.exec(probes)?.[1] : undefined;
  return {
    lb_check: check.length ? `: ${check.join(', and ')}` : '',
    lb_path_note: hcPath
      ? `: the pods no longer serve ${hcPath} the way the health check expects${probePath && probePath !== hcPath ? `, while their own readiness probe checks ${probePath} and passes` : ''}`
      : '',
    lb_gate_note: failing.length
      ? ` and the controller holds their readiness gate False, so they never turn Ready and the rollout stalls`
      : '',
    lb_fix: `Make the load balancer's health check path of ${f.workload} one the new version serves${hcPath ? ` (the alb.ingress.kubernetes.io/healthcheck-path annotation${ing ? ` of Ingress ${ing.i.name}` : ''} is ${hcPath}${probePath && probePath !== hcPath ? `: set it to ${probePath}` : ''})` : ''}, or serve ${hcPath ?? 'that path'} again in the app; the gate turns True once the target is healthy and the rollout continues.`,
  };
}

/** the volume whose ownership the kubelet changes, and the fsGroup the pod sets */
function ownershipChange({ f, model, pod }: FindingContext): Vars {
  const pv = /kubernetes\.io~[\w-]+\/(pvc-[\w-]+)\//.exec(f.fact)?.[1];
  const claim = pv ? model.get('persistentvolume', pv)?.fields['claim'] : undefined;
  const holder =
    pod ?? (f.object ? model.get(f.object.kind, f.object.name, f.object.namespace) : undefined);
  const owner: ObjectView | undefined =
    holder?.fields['fsGroup'] !== undefined
      ? holder
      : model.get('deployment', f.workload, f.object?.namespace);
  const group = owner?.fields['fsGroup'];
  const policy = owner?.fields['fsGroupChangePolicy'];
  return {
    owned_volume: pv ? ` ${pv}${claim ? ` (claim ${claim.split('/').pop()})` : ''}` : '',
    fs_group: group
      ? ` (securityContext.fsGroup: ${group}${policy ? `, fsGroupChangePolicy: ${policy}` : ', no fsGroupChangePolicy'})`
      : '',
  };
}

/** Kubernetes releases that stopped serving an API version (the deprecated API migration guide) */
const REMOVED_IN: [RegExp, string][] = [
  [/^(?:extensions\/v1beta1|apps\/v1beta[12])$/, '1.16 (apps) / 1.22 (extensions Ingress)'],
  [
    /^(?:networking\.k8s\.io|rbac\.authorization\.k8s\.io|admissionregistration\.k8s\.io|apiextensions\.k8s\.io|scheduling\.k8s\.io|certificates\.k8s\.io|coordination\.k8s\.io|apiregistration\.k8s\.io|authentication\.k8s\.io|authorization\.k8s\.io)\/v1beta1$/,
    '1.22',
  ],
  [
    /^(?:policy|batch|discovery\.k8s\.io|events\.k8s\.io|node\.k8s\.io)\/v1beta1$|^autoscaling\/v2beta1$/,
    '1.25',
  ],
  [/^autoscaling\/v2beta2$|^flowcontrol\.apiserver\.k8s\.io\/v1beta1$/, '1.26'],
  [/^storage\.k8s\.io\/v1beta1$/, '1.27'],
  [/^flowcontrol\.apiserver\.k8s\.io\/v1beta2$/, '1.29'],
];

/** the release helm upgrades, its current release record and the cluster's version */
function releaseManifest({ f, model, pod }: FindingContext): Vars {
  const lines = pod
    ? model.logs.filter((l) => l.pod === pod.name).flatMap((l) => l.lines.map((x) => x.text))
    : [];
  const release = lines
    .map(
      (t) =>
        /\bhelm (?:upgrade|install)(?: --install)?(?: -{1,2}[\w-]+(?:[ =][^\s-]\S*)?)* ([a-z0-9][\w.-]*)/.exec(
          t,
        )?.[1],
    )
    .find(Boolean);
  const records = model
    .list('secret')
    .map((s) => ({ s, m: /^sh\.helm\.release\.v1\.(.+)\.v(\d+)$/.exec(s.name) }))
    .filter((x) => x.m && (!release || x.m[1] === release))
    .sort((a, b) => Number(b.m![2]) - Number(a.m![2]));
  const current =
    records.find((r) => r.s.labels['status'] === 'deployed') ??
    (records.length && records.every((r) => !r.s.labels['status']) ? records[0] : undefined);
  const name = release ?? current?.m?.[1];
  const apiver = f.groups['apiver'] ?? '';
  const removed = REMOVED_IN.find(([re]) => re.test(apiver))?.[1];
  const versions = model
    .list('node')
    .map((n) => n.fields['kubeletVersion'] ?? n.fields['version'] ?? n.fields['VERSION'])
    .filter((v): v is string => !!v && /^v?\d+\.\d+/.test(v));
  return {
    helm_release_name: name ? ` ${name}` : '',
    helm_current: current
      ? `: ${current.s.name}, revision ${current.m![2]}${current.s.created ? ` of ${iso(current.s.created).slice(0, 10)}` : ''}`
      : '',
    removed_in: removed ? ` (removed in Kubernetes ${removed})` : '',
    k8s_version: versions[0] ? `; the nodes run ${clip(versions[0], 20)}` : '',
  };
}

/** the IAM role of the NodeClass the unregistered NodeClaims use, and whether aws-auth maps it */
function nodeRole({ f, model }: FindingContext): Vars {
  const classes = model.list('ec2nodeclass');
  const cls =
    classes.find((c) => c.name === f.groups['node_class']) ??
    (classes.length === 1 ? classes[0] : undefined);
  const role = cls?.fields['role'];
  const auth = model.get('configmap', 'aws-auth', 'kube-system');
  const mapRoles = jsonField(auth, 'data')['mapRoles'];
  // a value cut short may hide the role further down
  const mapped =
    mapRoles && mapRoles.length < 4000
      ? [...mapRoles.matchAll(/rolearn:\s*(\S+)/g)].map((m) => m[1]!)
      : undefined;
  const missing = role && mapped ? !mapped.some((a) => a.endsWith(`/${role}`)) : undefined;
  const cycle = [
    f.groups['gone']
      ? `; the pods were nominated before to NodeClaims that are gone (${f.groups['gone']})`
      : '',
    f.groups['ttl']
      ? '; Karpenter deletes them at its registration TTL ("terminating due to registration ttl") and launches new ones, again and again'
      : '',
  ].join('');
  const joinWay =
    'mapped in the aws-auth ConfigMap (mapRoles, groups system:bootstrappers and system:nodes) or given an EKS access entry of type EC2_LINUX';
  return {
    claim_cycle: cycle,
    node_role: role
      ? missing
        ? `. The EC2NodeClass ${cls!.name} gives its nodes the IAM role ${role}, but kube-system/aws-auth's mapRoles maps only ${mapped!.map((a) => a.split('/').pop()).join(', ')}: the kubelets of the new instances cannot authenticate to the API server, so they never join`
        : `. The EC2NodeClass ${cls!.name} gives its nodes the IAM role ${role}: unless that role is ${joinWay}, their kubelets cannot authenticate to the API server and never join`
      : '. A node that boots and never joins cannot authenticate to the API server (its IAM role not in aws-auth or an access entry) or reach it',
    node_role_fix: role
      ? `Add the role ${role} to kube-system/aws-auth mapRoles (username system:node:{{EC2PrivateDNSName}}, groups system:bootstrappers and system:nodes) or create an EKS access entry of type EC2_LINUX for it, or point the EC2NodeClass${cls ? ` ${cls.name}` : ''} back at a role that is mapped; the next NodeClaims then register and the pods of ${f.workload} schedule.`
      : `Find why the nodes of the NodeClaims do not join: their IAM role must be in aws-auth (or an EKS access entry), and the instances must reach the API server (the console output of one instance shows the kubelet's error).`,
  };
}

export const R20ROLL_VARS: Record<string, (x: FindingContext) => Vars> = {
  replicas_reset_under_hpa: replicasReset,
  load_pinned_to_old_pods: pinnedLoad,
  lb_target_health_gate_failing: lbHealthCheck,
  lb_health_check_path_failing: lbHealthCheck,
  volume_ownership_change_slow: ownershipChange,
  helm_release_manifest_removed_api: releaseManifest,
  karpenter_nodes_never_register: nodeRole,
};
