/**
 * The template variables of the rules on failures a workload's own configuration explains
 * (cause-catalog.data.ts, its "failures their own lines name" block): what the cluster says beside
 * the line that matched — the limit a log states, the profile files
 * a ConfigMap holds, a ServiceAccount's token audience, a mounted script's line endings, the node
 * a pending pod may run on, a Helm release's pending revision and the deploy that left it.
 */
import type { FindingContext } from './finding-vars';
import { configMapNamesOf, jsonField, servicePorts, type ClusterModel } from './model';
import type { ObjectView } from './observe/views';
import { clip, hostOf } from './text';

type Vars = Record<string, string>;

/** the lines of one pod's logs (current and previous); none for no pod */
export const linesOf = (model: ClusterModel, pod: string | undefined, ns?: string): string[] =>
  pod
    ? model.logs
        .filter((l) => l.pod === pod && (!ns || !l.namespace || l.namespace === ns))
        .flatMap((l) => l.lines.map((x) => x.text))
    : [];

/** the ConfigMaps a pod mounts as volumes or loads its environment from, as read */
function mountedConfigMaps(model: ClusterModel, pod: ObjectView | undefined): ObjectView[] {
  if (!pod) return [];
  return configMapNamesOf(pod)
    .map((n) => model.get('configmap', n, pod.namespace))
    .filter((x): x is ObjectView => !!x);
}

/** a ConfigMap's keys: its data's, else the key list a listing gave */
const keysOf = (cm: ObjectView): string[] => {
  const data = Object.keys(jsonField(cm, 'data'));
  return data.length ? data : (cm.fields['keys'] ?? '').split(',').filter(Boolean);
};

/** the pod a finding is about, when it is one pod of several of its workload */
function onePod({ f, model }: FindingContext): string {
  return f.object?.kind === 'pod' &&
    model.podsOf('deployment', f.workload, f.object.namespace).length > 1
    ? ` (pod ${f.object.name})`
    : '';
}

/** Elasticsearch's memlock: the pod that fails and the RLIMIT_MEMLOCK its log states */
function memlock(x: FindingContext): Vars {
  const { f, model } = x;
  const pod = f.object?.kind === 'pod' ? f.object.name : x.pod?.name;
  const said = pod
    ? linesOf(model, pod, f.object?.namespace)
        .map((t) => /RLIMIT_MEMLOCK, soft limit: (\d+), hard limit: (\d+)/.exec(t))
        .find(Boolean)
    : undefined;
  return {
    memlock_pod: onePod(x),
    memlock_limit: said ? ` is ${said[1]} bytes (soft) / ${said[2]} bytes (hard), as it logs` : '',
  };
}

/** the Spring profiles a log says are active */
const ACTIVE_PROFILES =
  /the profiles ([\w,. -]+?) are currently active|The following (?:\d+ )?profiles? (?:is|are) active: "?([^"\n]+)"?/;

/**
 * Spring Boot without a DataSource URL: the active profile (its log, else SPRING_PROFILES_ACTIVE)
 * against the application-<profile> files of the ConfigMaps it mounts, and the profile the
 * workload's healthy pods run.
 */
function springProfiles(x: FindingContext): Vars {
  const { f, model, pods, container } = x;
  const podName = f.object?.kind === 'pod' ? f.object.name : x.pod?.name;
  const pod = podName ? model.get('pod', podName, f.object?.namespace) : x.pod;
  const logged = (name: string) =>
    linesOf(model, name, pod?.namespace)
      .map((t) => ACTIVE_PROFILES.exec(t))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => (m[1] ?? m[2] ?? '').trim())
      .pop();
  const envVar = container?.env['SPRING_PROFILES_ACTIVE'];
  const active = (podName && logged(podName)) || envVar;
  const generic: Vars = {
    spring_profiles: '',
    spring_fix:
      'Give {subject} its spring.datasource.url: check which profile is active (SPRING_PROFILES_ACTIVE) and that an application-<profile>.yml for it is loaded (a mounted ConfigMap, spring.config.additional-location); then roll it out again.',
  };
  if (!active) return generic;
  const profiles = active.split(/\s*,\s*/).filter(Boolean);
  const files = mountedConfigMaps(model, pod).flatMap((cm) =>
    keysOf(cm)
      .map((k) => /^application-([\w-]+)\.(?:ya?ml|properties)$/.exec(k))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => ({ cm: cm.name, key: m[0], profile: m[1]! })),
  );
  const source = envVar && profiles.join(',') === envVar ? ' (SPRING_PROFILES_ACTIVE)' : '';
  const names = profiles.map((p) => `"${p}"`).join(', ');
  if (!files.length || files.some((x) => profiles.includes(x.profile)))
    return {
      spring_profiles: `; the active profile is ${names}${source}`,
      spring_fix: generic['spring_fix']!,
    };
  // the profile the healthy pods of the same workload run, else a file's profile the active one
  // begins with or abbreviates ("prod" for "production")
  const healthy = pods
    .filter((p) => p.name !== podName && p.status === 'Running')
    .map((p) => logged(p.name))
    .find((p): p is string => !!p && !profiles.includes(p));
  const near =
    files.find((x) => x.profile === healthy) ??
    files.find((x) => profiles.some((p) => p.startsWith(x.profile) || x.profile.startsWith(p)));
  const maps = [...new Set(files.map((x) => x.cm))].join(', ');
  return {
    spring_profiles: `: the active profile is ${names}${source}, but the ConfigMap ${maps} it mounts has only ${files.map((x) => x.key).join(', ')}, no application-${profiles[0]} file, so nothing sets the URL${healthy ? `. Its running pods use the profile "${healthy}"` : ''}${near ? ` (the profile was renamed from \`${near.profile}\` to \`${profiles[0]}\`?)` : ''}`,
    spring_fix: near
      ? `Set SPRING_PROFILES_ACTIVE of {subject} back to "${near.profile}" (the profile ${near.key} is for), or rename ${near.key} in ConfigMap ${near.cm} to application-${profiles[0]}${/\.\w+$/.exec(near.key)?.[0] ?? '.yml'}; then roll {subject} out again.`
      : `Add application-${profiles[0]}.yml with spring.datasource.url to ConfigMap ${maps}, or activate a profile it has a file for; then roll {subject} out again.`,
  };
}

/** IRSA's token audience: the ServiceAccount annotation the pod identity webhook applies */
function tokenAudience({ model, pod, f }: FindingContext): Vars {
  const sa = pod?.fields['serviceAccount'];
  const account = sa ? model.get('serviceaccount', sa, pod?.namespace) : undefined;
  const audience = jsonField(account, 'annotations')['eks.amazonaws.com/audience'];
  if (!sa || !audience || audience === 'sts.amazonaws.com')
    return {
      token_audience:
        '. The audience comes from the eks.amazonaws.com/audience annotation of its ServiceAccount (sts.amazonaws.com when absent), applied when its pods are created',
      token_audience_fix: `Make the ServiceAccount ${sa ? `${sa} ` : ''}of {subject} use the audience sts.amazonaws.com (remove its eks.amazonaws.com/audience annotation, or add the audience to the IAM OIDC provider), then restart the pods of {subject}.`,
    };
  return {
    token_audience: `. Its ServiceAccount ${sa} is annotated eks.amazonaws.com/audience: ${audience}, so the pod identity webhook gives the pods created since a token for the audience "${audience}" instead of sts.amazonaws.com${f.workload ? '' : ''}`,
    token_audience_fix: `Remove the eks.amazonaws.com/audience: ${audience} annotation from ServiceAccount ${sa} (give what needs a "${audience}" token its own projected serviceAccountToken volume with that audience), then restart the pods of {subject}: the webhook sets the token's audience only when a pod is created.`,
  };
}

/** exec's ENOENT: a mounted script with CRLF line endings, else what the error can mean */
function execNoSuchFile({ f, model, pod }: FindingContext): Vars {
  const script = f.groups['script'] ?? '';
  const base = script.split('/').pop() ?? '';
  const crlf = mountedConfigMaps(model, pod)
    .map((cm) => ({ cm: cm.name, value: jsonField(cm, 'data')[base] }))
    .find((x) => x.value !== undefined && /\r\n|\r$/m.test(x.value));
  if (crlf) {
    const first = crlf.value!.split('\n')[0]!.replace(/\r/g, '\\r');
    return {
      exec_cause: `The script comes from ConfigMap ${crlf.cm} (key ${base}) and has Windows (CRLF) line endings: its first line is "${clip(first, 60)}", so the kernel looks for an interpreter whose name ends in a carriage return (\\r), which does not exist, although the file is there`,
      exec_fix: `Convert ${base} in ConfigMap ${crlf.cm} to LF line endings (dos2unix; \`*.sh text eol=lf\` in .gitattributes), regenerate the ConfigMap and roll {subject} out again.`,
    };
  }
  return {
    exec_cause:
      'The kernel finds no file to run: the file is missing (a volume or image that lacks it), or the interpreter its first line (#!) names does not exist in the image (a script with Windows CRLF line endings names "/bin/sh\\r"), or the binary needs a loader the image lacks',
    exec_fix:
      'Check that {script} exists in the container and that its #! line names an interpreter the image has, with LF line endings (dos2unix); or roll back to the last version that started.',
  };
}

/**
 * A pod pending where only some nodes are allowed: the node its affinity names (a DaemonSet pod
 * is pinned to one), its requested share of that node, and a DaemonSet's priority.
 */
function allowedNode({ f, model, pod }: FindingContext): Vars {
  const target =
    f.object?.kind === 'pod' ? model.get('pod', f.object.name, f.object.namespace) : pod;
  const pinned = /"metadata\.name"[^\]]*?"values":\["([^"]+)"/.exec(
    target?.fields['affinity'] ?? '',
  )?.[1];
  const owner = target ? model.workloadOf(target) : undefined;
  const isDaemon = target?.owner?.kind === 'daemonset' || owner?.kind === 'daemonset';
  let node = pinned;
  if (!node && isDaemon && target) {
    const covered = new Set(
      model
        .list('pod', target.namespace)
        .filter((p) => p.node && model.workloadOf(p).name === owner?.name)
        .map((p) => p.node),
    );
    const bare = model.list('node').filter((n) => !covered.has(n.name));
    if (bare.length === 1) node = bare[0]!.name;
  }
  const n = node ? model.get('node', node) : undefined;
  const allocated = n?.fields['allocatedCpu'] ?? n?.fields['Allocated cpu'];
  return {
    allowed_node: node
      ? `node ${node}, the only node it may run on,`
      : 'the node its affinity allows',
    owner_pin: isDaemon
      ? `: a DaemonSet pod is pinned to its own node${owner ? `, so ${owner.name}'s rolling update waits for it` : ''}`
      : '',
    node_load: allocated ? `; ${node} already has ${allocated} cpu requested` : '',
    priority_fix: isDaemon
      ? ', or give the DaemonSet a PriorityClass high enough to preempt (system-node-critical for a node agent)'
      : '',
  };
}

/** the release Secrets of helm (storage driver secret): sh.helm.release.v1.<release>.v<N> */
const RELEASE_SECRET = /^sh\.helm\.release\.v1\.(.+)\.v(\d+)$/;

/** the release a helm log or command names */
export function helmReleaseOf(model: ClusterModel, pod?: ObjectView): string | undefined {
  if (!pod) return undefined;
  const logged = linesOf(model, pod.name, pod.namespace)
    .map((t) => /\brelease "?([a-z0-9][\w.-]*)"?/.exec(t)?.[1])
    .find(Boolean);
  if (logged) return logged;
  const cmd = pod.containers.map((c) => Object.values(c.env).join(' ')).join(' ');
  return /helm (?:upgrade|install)(?: --install)?(?: -\S+)* ([a-z0-9][\w.-]*)/.exec(cmd)?.[1];
}

/** the namespace a helm command names (-n / --namespace) */
export function helmNamespaceOf(pod?: ObjectView): string | undefined {
  const cmd = (pod?.containers ?? []).map((c) => Object.values(c.env).join(' ')).join(' ');
  return /(?:^|\s)(?:-n|--namespace)[ =]([a-z0-9][\w.-]*)/.exec(cmd)?.[1];
}

/**
 * A helm release in a pending operation: its newest revision Secret with status pending-*, the
 * deployed one before it, and the earlier deploy Job killed by its deadline.
 */
function helmPending({ f, model }: FindingContext): Vars {
  const podObj =
    f.object?.kind === 'pod' ? model.get('pod', f.object.name, f.object.namespace) : undefined;
  const release = helmReleaseOf(model, podObj);
  const revisions = model
    .list('secret')
    .map((s) => ({ s, m: RELEASE_SECRET.exec(s.name) }))
    .filter((x) => x.m && (!release || x.m[1] === release))
    .map((x) => ({
      s: x.s,
      release: x.m![1]!,
      n: Number(x.m![2]),
      status: x.s.labels['status'] ?? '',
    }))
    .sort((a, b) => b.n - a.n);
  // helm refuses while its newest revision is pending: without labels (a table), that one
  const pending =
    revisions.find((r) => /^pending-/.test(r.status)) ??
    (revisions.length && revisions.every((r) => !r.status) ? revisions[0] : undefined);
  const deployed = revisions.find((r) => r.status === 'deployed');
  const name = release ?? pending?.release;
  // the deploy Job of the same kind killed before: a Job whose name shares the failing Job's
  // stem, failed with DeadlineExceeded, started earlier
  const jobName = podObj?.owner?.kind === 'job' ? podObj.owner.name : f.workload;
  const stem = jobName.replace(/-[a-z0-9]+$/, '');
  const killed = model
    .list('job', f.object?.namespace)
    .filter(
      (j) =>
        j.name !== jobName &&
        j.name.startsWith(stem) &&
        j.conditions.some(
          (c) => c.type === 'Failed' && c.status === 'True' && c.reason === 'DeadlineExceeded',
        ),
    )
    .sort((a, b) => (a.created ?? 0) - (b.created ?? 0))[0];
  const deadline = killed?.fields['activeDeadlineSeconds'];
  const when = killed?.conditions.find((c) => c.type === 'Failed')?.at;
  return {
    helm_release: name ? ` ${name}` : '',
    helm_pending: pending
      ? pending.status
        ? ` (revision ${pending.n}, Secret ${pending.s.name} has status ${pending.status}${deployed ? `; revision ${deployed.n} is the last deployed` : ''})`
        : ` (revision ${pending.n}, Secret ${pending.s.name}: the newest revision, the one helm finds still pending)`
      : '',
    helm_killed: killed
      ? `: the deploy Job ${killed.name} was killed${when ? ` at ${new Date(when).toISOString()}` : ''} when it ran past its activeDeadlineSeconds${deadline ? ` (${deadline} s)` : ''} (DeadlineExceeded) while helm was still upgrading (hooks and --wait)`
      : ' (killed, timed out or interrupted mid-upgrade)',
    helm_fix: `Roll the release back to its last deployed revision${name ? ` (\`helm rollback ${name}${deployed ? ` ${deployed.n}` : ''}${pending?.s.namespace ? ` -n ${pending.s.namespace}` : ''}\`)` : ''}${pending ? `, or delete the pending revision's Secret ${pending.s.name}` : ''}; then deploy again with a Job deadline longer than helm's --timeout (hooks plus --wait).`,
  };
}

/** an enricher whose values name template variables already known ({subject}, {script}) */
const filled =
  (enrich: (x: FindingContext) => Vars) =>
  (x: FindingContext): Vars =>
    Object.fromEntries(
      Object.entries(enrich(x)).map(([k, v]) => [
        k,
        v.replace(/\{(subject|script)\}/g, (m, name: string) => x.vars[name] ?? m),
      ]),
    );

/** host names with a port in a line ("smtp-legacy.corp.example.internal:25"), not IPs */
const HOST_WITH_PORT = /\b([a-z][\w-]*(?:\.[a-z][\w-]*)+):\d{2,5}\b/gi;
/** host names in a config file's text (with dots, starting with a letter) */
const HOST_NAME = /\b([a-z][\w-]*(?:\.[a-z][\w-]*){1,})\b/gi;
const firstWord = (host: string) => /^[a-z]+/i.exec(host)?.[0]?.toLowerCase() ?? '';

/**
 * A dependency refused while the workload's ConfigMap names another host for it: a file mounted
 * by subPath never receives its ConfigMap's updates, so the running pods keep the host of the
 * file they started with (the ConfigMap was changed to a new host, the pods still use the old one).
 */
function staleSubPathConfig({ f, model, pods }: FindingContext): Vars {
  for (const pod of pods) {
    const mounts = (pod.fields['subPathMounts'] ?? '').split(', ').filter(Boolean);
    const volumes = jsonField(pod, 'configMapVolumes');
    const line =
      linesOf(model, pod.name, pod.namespace).find((x) => x.includes(f.fact.slice(0, 60))) ??
      f.fact;
    const used = [...line.matchAll(HOST_WITH_PORT)].map((m) => m[1]!.toLowerCase());
    if (!used.length) continue;
    // what the pod's whole configuration says now: every ConfigMap it reads, its environment
    const everything = [
      ...mountedConfigMaps(model, pod).flatMap((cm) => Object.values(jsonField(cm, 'data'))),
      ...pod.containers.flatMap((c) => Object.values(c.env)),
    ]
      .join('\n')
      .toLowerCase();
    for (const mount of mounts) {
      const volume = / from (\S+)$/.exec(mount)?.[1];
      const cm = volume ? model.get('configmap', volumes[volume] ?? '', pod.namespace) : undefined;
      const text = Object.values(jsonField(cm, 'data')).join('\n');
      if (!cm || !text) continue;
      for (const host of used) {
        if (everything.includes(host)) continue;
        // the ConfigMap names another host of the same role ("smtp-relay..." for "smtp-legacy...")
        const now = [...text.matchAll(HOST_NAME)]
          .map((m) => m[1]!)
          .find((h) => h.toLowerCase() !== host && firstWord(h) === firstWord(host));
        if (!now) continue;
        return {
          stale_config: `. It still uses ${host}, but its ConfigMap ${cm.name} now names ${now}: the pods mount ${cm.name} by subPath (${mount}), and a file mounted by subPath never receives its ConfigMap's updates, so pods started before the change keep the old file and the old host`,
          stale_config_fix: `Restart ${f.workload} (\`kubectl rollout restart\`) so its pods read ${cm.name}'s current file (${now}), and mount ${cm.name} as a directory instead of by subPath so later changes reach running pods. `,
        };
      }
    }
  }
  return {};
}

/** an address of the pod itself: localhost, 127.x.x.x, ::1 (with its port) */
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[?::1\]?)(?::(\d{1,5}))?$/i;
/** a setting whose value is (or points at) the pod's own address */
const LOOPBACK_VALUE =
  /^\s*(?:localhost|127\.0\.0\.1|::1)\s*$|\/\/(?:[^@/\s]*@)?(?:localhost|127\.0\.0\.1)[:/]/i;

/**
 * A dependency refused on the pod's own loopback address by a pod of one container that declares
 * no such port: inside a pod, localhost is the pod itself, so a host carried over from a VM or
 * docker-compose ("DB_HOST=localhost") reaches nothing. Says where the value comes from (a
 * ConfigMap key, the environment, else the ConfigMaps the environment is loaded from) and which
 * Service of the namespace serves that port.
 */
function loopbackTarget({ f, model, pods }: FindingContext): Vars {
  const host = hostOf(f.groups) ?? '';
  const port = LOOPBACK.exec(host)?.[1];
  const pod = pods[0];
  if (!port || !pod) return {};
  const mains = pods.map((p) => p.containers.filter((c) => !c.init));
  // a pod of several containers may have one that listens there (a sidecar's call to its app)
  if (mains.some((cs) => cs.length !== 1) || mains.some((cs) => cs[0]!.ports.includes(port)))
    return {};
  const declared = [...new Set(mains.flatMap((cs) => cs[0]!.ports))];
  const container = mains[0]![0]!;
  const set = (data: Record<string, string>) =>
    Object.entries(data)
      .filter(([, v]) => LOOPBACK_VALUE.test(v))
      .map(([k, v]) => `${k}=${v.trim()}`);
  let source = '';
  for (const cm of mountedConfigMaps(model, pod)) {
    const keys = set(jsonField(cm, 'data'));
    if (keys.length) {
      source = ` (ConfigMap ${cm.name} sets ${keys.slice(0, 3).join(', ')})`;
      break;
    }
  }
  const env = set(container.env);
  if (!source && env.length) source = ` (its environment sets ${env.slice(0, 3).join(', ')})`;
  const loaded = configMapNamesOf(pod);
  if (!source && loaded.length)
    source = ` (it loads its environment from ConfigMap ${loaded.slice(0, 2).join(', ')})`;
  const services = model
    .list('service', pod.namespace)
    .filter(
      (svc) =>
        svc.namespace === pod.namespace && servicePorts(svc).some((sp) => String(sp.port) === port),
    )
    .map((svc) => svc.name);
  const where = services.length
    ? `; the Service ${services.slice(0, 2).join(' / ')} of namespace ${pod.namespace} serves port ${port}`
    : '';
  return {
    stale_config: `. ${host} is the pod itself: inside a pod, localhost is its own network namespace, and the only container of ${f.workload} declares no port ${port}${declared.length ? ` (it declares ${declared.join(', ')})` : ''}. Its address for that dependency is localhost${source}, a value that works on a VM or in docker-compose but not in Kubernetes, where a dependency is reached by its Service name${where}`,
    stale_config_fix: `Point ${f.workload} at its dependency's Service${services.length ? ` (${services[0]}.${pod.namespace}.svc:${port})` : ''} instead of localhost${source ? ' in that setting' : ''}, then restart it. `,
  };
}

export const CONFIGURATION_VARS: Record<string, (x: FindingContext) => Vars> = {
  dependency_refused: (x) => {
    const loopback = loopbackTarget(x);
    return Object.keys(loopback).length ? loopback : staleSubPathConfig(x);
  },
  es_memory_lock_failed: memlock,
  spring_datasource_url_missing: filled(springProfiles),
  aws_token_audience_incorrect: filled(tokenAudience),
  exec_no_such_file: filled(execNoSuchFile),
  sched_insufficient_on_allowed_node: allowedNode,
  helm_release_pending_operation: helmPending,
};
