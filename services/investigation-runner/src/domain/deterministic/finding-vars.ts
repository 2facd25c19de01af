import { backingWorkload, CSI_NODE_PLUGIN, MESH_PROXY, NODE_AGENT } from './dependencies';
import { clipKeepingError, errorMessage, LINE_STAMP, type Finding } from './diagnose';
import { isUnhealthy, jobEnded, podsOnNode, unevenLoad } from './health';
import { configMapsOf, jsonField, quantity, servicePorts, type ClusterModel } from './model';
import { newObject, type ContainerView, type ObjectView } from './observe/views';
import { clip, HOSTS, hostOf } from './text';
import { CONFIGURATION_VARS } from './finding-vars-configuration';
import { R29C_VARS } from './finding-vars-r29c';
import { R30B_VARS } from './finding-vars-r30b';
import { R31B_VARS } from './finding-vars-r31b';
import { R30C_VARS } from './finding-vars-r30c';
import { R30A_VARS } from './finding-vars-r30a';
import { R28A_VARS } from './finding-vars-r28a';
import { R20LOGS_VARS } from './finding-vars-r20logs';
import { R22J_VARS } from './finding-vars-r22j';
import { R20ROLL_VARS } from './finding-vars-r20roll';
import { R21SCHED_VARS, r21schedCapacityHolder } from './finding-vars-r21sched';
import { R22I_CLASS_VARS, R22I_VARS } from './finding-vars-r22i';
import { R23B_VARS } from './finding-vars-r23b';
import { R24B_VARS } from './finding-vars-r24b';
import { R24A_VARS, vpaLimitSource } from './finding-vars-r24a';
import { R25A_VARS } from './finding-vars-r25a';
import { R26A_VARS } from './finding-vars-r26a';
import { scheduledNode } from './diagnose-r27a';
import { R27B_VARS } from './finding-vars-r27b';
import { R29B_VARS } from './finding-vars-r29b';

/** the runtime heap cap a container sets: V8's --max-old-space-size, the JVM's -Xmx or RAM share */
const HEAP_FLAG = /--max-old-space-size=\d+|-Xmx\d+[kmgt]?|-XX:MaxRAMPercentage=[\d.]+/i;

/** the JVM's cap on class metadata */
const METASPACE_FLAG = /-XX:MaxMetaspaceSize=\d+[kmgt]?/i;

/** A runtime flag a container sets, and where: "-Xmx1g in JAVA_OPTS", "... in its arguments". */
function runtimeFlag(env: Record<string, string>, flag: RegExp): string | undefined {
  for (const [name, value] of Object.entries(env)) {
    const m = flag.exec(value);
    if (m) return name === '__args' ? `${m[0]} in its arguments` : `${m[0]} in ${name}`;
  }
  return undefined;
}

/** a database URL or host variable: "pgbouncer.orders.svc:6432 from DATABASE_URL" */
const DB_URL =
  /^(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|jdbc:[a-z]+):\/\/(?:[^@/\s]*@)?([^/?\s,]+)/i;
const DB_HOST_VAR = /^(?:PG|POSTGRES_|DB_|DATABASE_|MYSQL_|MONGO_)HOST$/;

function databaseTarget(env: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(env)) {
    const m = DB_URL.exec(value);
    if (m) return `${m[1]} from ${name}`;
  }
  for (const [name, value] of Object.entries(env))
    if (DB_HOST_VAR.test(name) && value) return `${value} from ${name}`;
  return undefined;
}

/**
 * When the database does not say who holds the lock: a Job of the same namespace that was already
 * running when the statement gave up and still runs (a batch job's long transaction is the usual
 * holder), with what its log last said.
 */
function concurrentJob(
  model: ClusterModel,
  f: Finding,
): { text: string; name: string } | undefined {
  const ns = f.object?.namespace;
  const failedAt = f.at;
  const job = model
    .list('job', ns)
    .filter(
      (j) =>
        (!ns || j.namespace === ns) &&
        model.workloadOf(j).name !== f.workload &&
        !j.name.startsWith(`${f.workload}-`) &&
        !jobEnded(j),
    )
    .map((j) => {
      const pods = model.list('pod', j.namespace).filter((p) => p.name.startsWith(`${j.name}-`));
      const running = pods.find((p) => /^Running$/.test(p.status ?? ''));
      const started = Date.parse(j.fields['startTime'] ?? '') || j.created;
      return { j, running, started };
    })
    .filter(
      (x) =>
        x.running && (failedAt === undefined || x.started === undefined || x.started <= failedAt),
    )
    .sort((a, b) => (a.started ?? 0) - (b.started ?? 0))[0];
  if (!job) return undefined;
  const log = model.logs
    .filter((l) => l.pod === job.running!.name && !l.previous)
    .flatMap((l) => l.lines)
    .pop()?.text;
  return {
    name: `Job ${job.j.name}`,
    text: `Job ${job.j.name} was already running when it gave up${job.started ? ` (since ${new Date(job.started).toISOString()})` : ''} and still runs (pod ${job.running!.name}); a long transaction of a batch job is the usual holder${log ? `, and it last logged "${log.slice(0, 200)}"` : ''}`,
  };
}

/**
 * Who holds the lock a statement waited for, from a PostgreSQL log (log_lock_waits): "Process
 * holding the lock: 7301", that process's connection line ("[7301] ... user=catalog_export
 * ... application_name=catalog-export") and a running pod of that application.
 */
function lockHolder(model: ClusterModel): { text: string; name: string } | undefined {
  const lines = model.logs.flatMap((l) => l.lines.map((x) => x.text));
  const pid = lines.map((x) => /Process(?:es)? holding the lock: (\d+)/.exec(x)?.[1]).find(Boolean);
  if (!pid) return undefined;
  const conn = lines.find(
    (x) => x.includes(`[${pid}]`) && /connection authorized|application_name=/.test(x),
  );
  const app = conn && /application_name=([\w.-]+)/.exec(conn)?.[1];
  const user = conn && /\buser=([\w.-]+)/.exec(conn)?.[1];
  const since =
    conn &&
    /\d{4}-\d{2}-\d{2}[ T](\d{2}:\d{2}(?::\d{2})?)/.exec(
      conn.replace(/^\d{4}-\d{2}-\d{2}T\S+\s+/, ''),
    )?.[1];
  const pod =
    app &&
    model
      .list('pod')
      .find((p) => p.name.startsWith(`${app}-`) && /Running|Pending/.test(p.status ?? ''));
  const who = [
    app ? `application ${app}` : '',
    user ? `user ${user}` : '',
    since ? `connected at ${since}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const text =
    `the lock is held by database process ${pid}${who ? ` (${who})` : ''}` +
    (pod ? `, still running as pod ${pod.name}` : '');
  return { text, name: pod ? `pod ${pod.name}, process ${pid}` : `process ${pid}` };
}

/** The matchLabels of a pod's required podAffinity terms (from its affinity JSON). */
function requiredPodAffinity(json: string | undefined): [string, string][] {
  if (!json) return [];
  try {
    const a = JSON.parse(json) as {
      podAffinity?: {
        requiredDuringSchedulingIgnoredDuringExecution?: {
          labelSelector?: { matchLabels?: Record<string, string> };
        }[];
      };
    };
    return (a.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).flatMap((t) =>
      Object.entries(t.labelSelector?.matchLabels ?? {}),
    );
  } catch {
    return []; // clipped at 600 characters
  }
}

/**
 * The replica-set members a MongoDB client could not reach ("mongodb-1.mongodb-headless...":
 * "Unknown"), with the state of the pod each names.
 */
function replicaMembers(model: ClusterModel, f: Finding): string {
  const hosts = new Set<string>();
  for (const l of model.logs)
    for (const x of l.lines.slice(-200))
      for (const m of x.text.matchAll(/"([a-z0-9-]+)\.[a-z0-9.-]+:\d+"\s*:\s*"Unknown"/g))
        hosts.add(m[1]!);
  const parts = [...hosts].slice(0, 4).map((h) => {
    const pod =
      model.get('pod', h, f.object?.namespace) ?? model.list('pod').find((p) => p.name === h);
    const why = pod
      ? model.events.find(
          (e) =>
            e.object?.name === pod.name && /FailedScheduling|Failed|BackOff/.test(e.reason ?? ''),
        )
      : undefined;
    return `${h}${pod?.status ? ` (${pod.status}${why ? `: ${why.message.slice(0, 160)}` : ''})` : ''}`;
  });
  return parts.length ? `; members it cannot reach: ${parts.join(', ')}` : '';
}

/**
 * "not primary" from a MongoDB whose members are up: the client is pinned to one member
 * (directConnection=true, or one host without replicaSet=) and keeps writing to it after an
 * election made another member primary. Else: no majority, no primary.
 */
function mongoPrimary({ f, model, container }: FindingContext): Record<string, string> {
  const uri = Object.entries(container?.env ?? {}).find(([, v]) =>
    /^mongodb(?:\+srv)?:\/\//.test(v),
  );
  const hosts = uri ? (/^mongodb:\/\/(?:[^@/]*@)?([^/?]+)/.exec(uri[1])?.[1] ?? '').split(',') : [];
  const direct = uri && /[?&]directConnection=true\b/i.test(uri[1]);
  if (uri && (direct || (hosts.length === 1 && !/[?&]replicaSet=/i.test(uri[1])))) {
    const member = hosts[0]!.split(/[.:]/)[0];
    return {
      mongo_why: `: its connection string ${uri[0]} names the single member ${hosts[0]}${direct ? ' with directConnection=true' : ' without replicaSet='}, so the driver talks to that member only and does not follow the primary: after an election made another member primary, ${member} is a secondary that refuses writes (and reads without secondaryOk)`,
      mongo_fix: `Give ${f.workload} a replica-set connection string (all members, replicaSet=<name>, no directConnection) so the driver follows the primary; then restart it.`,
    };
  }
  return {
    mongo_why: `: without a majority of members up no primary can be elected${replicaMembers(model, f)}`,
    mongo_fix:
      'Bring the missing replica-set members back (their pods: events, volumes, nodes) so a majority can elect a primary; `rs.status()` on a member shows who is reachable.',
  };
}

/** An image that cannot be pulled for an init container: the main containers never start. */
function initImage({ f, pods }: FindingContext): Record<string, string> {
  const image = f.groups['image'] || f.groups['image2'];
  for (const p of pods)
    for (const c of p.containers)
      if (c.init && image && c.image === image)
        return {
          pull_init: ` (its init container ${c.name})`,
          pull_init_effect: `, so the init container ${c.name} never runs and the main containers never start`,
        };
  return {};
}

/** the directories a command without a path is looked up in */
const PATH_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * A command "not found" in an image that has it: a volume mounted over the directory the command
 * lives in (a ConfigMap at /usr/local/bin) hides the image's files there.
 */
function mountedOverCommand({ f, pods, vars }: FindingContext): Record<string, string> {
  const plain = {
    cmd_fix: `Fix the command/entrypoint of ${vars['subject']} to a binary the image contains.`,
  };
  const cmd = f.groups['cmd'] || f.groups['cmd2'];
  if (!cmd) return plain;
  const dirs = cmd.includes('/') ? [cmd.slice(0, cmd.lastIndexOf('/')) || '/'] : PATH_DIRS;
  for (const p of pods)
    for (const mount of (p.fields['mountPaths'] ?? '').split(', ').filter(Boolean)) {
      const [path, volume] = mount.split(' from ') as [string, string | undefined];
      const at = path.replace(/\/$/, '');
      if (dirs.some((d) => d === at || d.startsWith(`${at}/`)))
        return {
          mounted_over: `. Volume ${volume ?? ''} is mounted at ${at} (its mountPath), over the image's own ${at}: the mount hides the files the image has there, ${cmd} among them`,
          cmd_fix: `Mount volume ${volume ?? ''} of ${vars['subject']} at a directory of its own (not ${at}), or by subPath for single files; then the image's ${cmd} is found again.`,
        };
    }
  return plain;
}

/**
 * The destination a client's mesh proxy fails on (`service{ns=payments name=payments-api port=80}`
 * or `logical service payments-api.payments.svc...`) and whether its pods run without the proxy
 * the client has: not injected, so they are not in the mesh.
 */
function unmeshedDestination({ f, model, pods }: FindingContext): Record<string, string> {
  const lines = [f.fact, ...model.logs.flatMap((l) => l.lines.map((x) => x.text))];
  let name: string | undefined;
  let ns: string | undefined;
  for (const t of lines) {
    const m =
      /service\{ns=([a-z0-9-]+) name=([a-z0-9-]+)/.exec(t) ??
      /logical service ([a-z0-9-]+)\.([a-z0-9-]+)\.svc/.exec(t);
    if (!m) continue;
    [ns, name] = t.includes('service{ns=') ? [m[1], m[2]] : [m[2], m[1]];
    break;
  }
  if (!name) return { mesh_dest: 'its destination' };
  const dest = model
    .list('pod', ns)
    .filter((p) => (!ns || p.namespace === ns) && model.workloadOf(p).name === name)
    .filter((p) => p.containers.length);
  const proxy = pods.flatMap((p) => p.containers).find((c) => MESH_PROXY.test(c.name))?.name;
  const where = `${name}${ns ? ` (namespace ${ns})` : ''}`;
  if (!proxy || !dest.length || dest.some((p) => p.containers.some((c) => MESH_PROXY.test(c.name))))
    return { mesh_dest: where };
  return {
    mesh_dest: where,
    unmeshed: `. The pods of ${name} run without the ${proxy} sidecar (${dest
      .slice(0, 2)
      .map((p) => p.name)
      .join(
        ', ',
      )}): they were not injected (the namespace or the pod template lost the inject annotation, e.g. linkerd.io/inject), so they are not in the mesh: where a policy admits only meshed traffic (on the proxy's inbound port) or the mesh requires mTLS, the client's proxy cannot connect to them`,
    unmeshed_fix: `Restore proxy injection for ${name} (the linkerd.io/inject: enabled annotation on its namespace or pod template) and restart it so its pods get the sidecar. `,
  };
}

/** The Service port a TLS client calls and the targetPort behind it. */
function plainPort({ f, model }: FindingContext): Record<string, string> {
  const m =
    /([a-z][a-z0-9-]*)(?:\.([a-z][a-z0-9-]*))?(?:\.svc(?:\.cluster\.local)?)?(?::|', port=)(\d{2,5})\b/.exec(
      f.fact,
    );
  if (!m) return {};
  const svc = model
    .list('service')
    .find((s) => s.name === m[1] && (!m[2] || !s.namespace || s.namespace === m[2]));
  if (!svc) return {};
  const p = servicePorts(svc).find((x) => String(x.port) === m[3]);
  if (p?.targetPort === undefined) return {};
  return {
    plain_port: `: the Service ${svc.name} maps port ${p.port}${p.name ? ` (${p.name})` : ''} to targetPort ${p.targetPort}`,
  };
}

/** The other pods that still mount a claim being deleted (they hold its finalizer). */
function pvcHolders({ f, model }: FindingContext): Record<string, string> {
  const claim = f.groups['claim'];
  const ns = f.object?.namespace;
  if (!claim) return {};
  // the pods that name it (read whole), or the claim's own "Used By" (described)
  const usedBy = (model.get('persistentvolumeclaim', claim, ns)?.fields['usedBy'] ?? '').split(',');
  const holders = model
    .list('pod', ns)
    .filter(
      (p) =>
        (!ns || p.namespace === ns) &&
        ((p.fields['claims'] ?? '').split(',').includes(claim) || usedBy.includes(p.name)) &&
        model.workloadOf(p).name !== f.workload &&
        !/Succeeded|Completed|Failed/.test(p.status ?? ''),
    )
    .slice(0, 3);
  if (!holders.length) return {};
  const names = holders.map((p) => `${p.name} (of ${model.workloadOf(p).name})`);
  return {
    pvc_holders: `: pod ${names.join(', ')} still mounts it`,
    pvc_holders_fix: ` (${holders.map((p) => p.name).join(', ')})`,
  };
}

/**
 * A request larger than what any node can give at all (not only now): the largest allocatable
 * of that resource among the nodes read, with the instance type, says so (a node group moved to
 * a smaller type). Empty when some node could fit it once others move.
 */
function fitsNoNode(model: ClusterModel, pod: ObjectView, res: string): string {
  if (res !== 'cpu' && res !== 'memory') return '';
  const want = pod.containers
    .filter((c) => !c.init)
    .reduce((a, c) => a + quantity(c.requests[res] ?? '0'), 0);
  const nodes = model
    .list('node')
    .map((n) => {
      let alloc: Record<string, string> = {};
      try {
        alloc = JSON.parse(n.fields['allocatable'] ?? '{}') as Record<string, string>;
      } catch {
        /* unread */
      }
      return { n, have: alloc[res] };
    })
    .filter((x): x is { n: ObjectView; have: string } => !!x.have);
  if (!want || !nodes.length) return '';
  const best = nodes.sort((a, b) => quantity(b.have) - quantity(a.have))[0]!;
  if (quantity(best.have) >= want) return '';
  const type =
    best.n.labels['node.kubernetes.io/instance-type'] ??
    best.n.labels['beta.kubernetes.io/instance-type'];
  return `; no node can ever fit it: the largest allocatable ${res} is ${best.have}${type ? ` (instance type ${type})` : ''} of ${nodes.length} node(s) read, below the pod's request`;
}

/**
 * What starves a workload whose work overruns: its pods' CPU use against their limit (kubectl
 * top) and its autoscaler at its maximum. Empty when neither was seen.
 */
function saturation(model: ClusterModel, workload: string, ns?: string): string {
  const parts: string[] = [];
  const pods = model.podsOf('deployment', workload, ns);
  const hot = model.metrics
    .filter((m) => m.kind === 'pod' && m.cpu && pods.some((p) => p.name === m.name))
    .map((m) => {
      const pod = pods.find((p) => p.name === m.name)!;
      const limit = pod.containers.find((c) => !c.init && c.limits['cpu'])?.limits['cpu'];
      return { m, limit, share: limit ? quantity(m.cpu!) / quantity(limit) : 0 };
    })
    .filter((x) => x.limit && x.share >= 0.9)
    .sort((a, b) => b.share - a.share);
  if (hot[0])
    parts.push(
      `${hot.length} of its pods use${hot.length === 1 ? 's' : ''} ${hot[0].m.cpu} of their ${hot[0].limit} CPU limit (throttled at the limit)`,
    );
  const hpa = model
    .list('horizontalpodautoscaler', ns)
    .find((h) => (h.fields['scaleTarget'] ?? '').split('/').pop() === workload);
  const max = Number(hpa?.fields['maxReplicas']);
  const current = Number(hpa?.fields['status.currentReplicas']);
  if (hpa && Number.isFinite(max) && current >= max)
    parts.push(`its HorizontalPodAutoscaler ${hpa.name} is at its maxReplicas ${max}`);
  return parts.length ? `; ${parts.join(', and ')}` : '';
}

/** What an enricher knows of a finding: the object, its pods and the container it names. */
export interface FindingContext {
  f: Finding;
  model: ClusterModel;
  obj?: ObjectView;
  /** the finding's pod, or the pods of its workload */
  pods: ObjectView[];
  pod?: ObjectView;
  /** the names of those pods */
  names: Set<string>;
  /** the container the finding names, else the pod's first */
  container?: ContainerView;
  /** the template variables so far: the finding's groups and what every finding gets */
  vars: Record<string, string>;
  /** the investigation's clock (ms) */
  now: number;
}

type Enricher = (x: FindingContext) => Record<string, string>;

/** A memory limit nobody wrote: the namespace's LimitRange default, set at admission. */
function oomSource(x: FindingContext): Record<string, string> {
  const vpa = vpaLimitSource(x);
  if (vpa) return vpa;
  const { model, pods, container: c } = x;
  const ranger = pods.find((p) => /memory limit/i.test(p.fields['limitRanger'] ?? ''));
  if (!ranger || !c?.limits['memory'])
    return { oom_also: ' (or fix the leak / roll back the change that raised its memory use)' };
  const lr = model.list('limitrange', ranger.namespace).map((x) => x.name);
  return {
    limit_from: `. Its pod spec sets no such limit: the namespace's LimitRange${lr.length ? ` ${lr.join(', ')}` : ''} default gave it at admission ("${ranger.fields['limitRanger']}")`,
    oom_also:
      ', in its own spec (a LimitRange default only applies to containers without one), or raise the default of the LimitRange',
  };
}

/** The images a paused Deployment's pods still run, against what its template says. */
function pausedImages({ f, model, obj }: FindingContext): Record<string, string> {
  const images = [
    ...new Set(
      model
        .podsOf('deployment', f.workload, f.object?.namespace)
        .flatMap((p) => p.containers.filter((c) => !c.init && c.image).map((c) => c.image!)),
    ),
  ];
  const template = obj?.images.filter((i) => !images.includes(i)) ?? [];
  return {
    running: images.length
      ? ` (${images.slice(0, 2).join(', ')}${template.length ? `, while the template says ${template.slice(0, 2).join(', ')}` : ''})`
      : '',
  };
}

/** Which probe calls the dependency check: the kubelet's Unhealthy events on these pods say. */
function dependencyProbe({ model, names }: FindingContext): Record<string, string> {
  const probes = model.events
    .filter((e) => e.reason === 'Unhealthy' && (!e.object || names.has(e.object.name)))
    .map((e) => /^(Liveness|Readiness|Startup) probe/i.exec(e.message)?.[1]?.toLowerCase());
  const liveness = probes.includes('liveness');
  return {
    probe: liveness ? 'liveness' : 'readiness',
    probe_effect: liveness
      ? 'its liveness probe fails on every replica together, so the kubelet restarts pods that are themselves fine, all at once'
      : 'every replica turns unready at once, so the Service has no ready endpoints and clients get 503 while the pods themselves run',
  };
}

/**
 * A node gone silent whose kubelet the API server refuses with a client certificate that expired
 * just then: the kubelet's own certificate expired (kubeadm issues it for a year).
 */
function expiredNodeCertificate({ f, model }: FindingContext): Record<string, string> {
  const node = model.get('node', f.groups['node'] ?? f.object?.name ?? '');
  const since = node?.conditions.find((c) => c.type === 'Ready')?.at;
  const refused = model.logs
    .filter((l) => l.pod && /^kube-apiserver-/.test(l.pod))
    .flatMap((l) => l.lines)
    .map((x) => ({
      x,
      m: /x509: certificate has expired or is not yet valid: current time \S+ is after (\S+?),?\s/.exec(
        x.text,
      ),
    }))
    .find(
      ({ m }) => m && (since === undefined || Math.abs(Date.parse(m[1]!) - since) < 15 * 60_000),
    );
  if (!refused?.m) return {};
  const name = node?.name ?? 'the node';
  return {
    node_cause: `. The API server refuses a client certificate that expired at ${refused.m[1]}, just when the node went silent ("x509: certificate has expired or is not yet valid"): the kubelet's client certificate on ${name} expired and was not rotated`,
    node_fix: `Renew the kubelet client certificate of ${name} (kubeadm: rejoin or renew it, then restart the kubelet) and turn on certificate rotation (rotateCertificates) so it renews before it expires. `,
  };
}

/** The ServiceAccount the refused pod runs as, and the one its siblings that still work use. */
function vaultServiceAccount({ f, model, pod }: FindingContext): Record<string, string> {
  const saOf = (p: ObjectView) => p.fields['serviceAccount'] ?? p.fields['Service Account'];
  const sa = pod && saOf(pod);
  if (!sa) return {};
  const others = [
    ...new Set(
      model
        .podsOf('deployment', f.workload, pod?.namespace)
        .map(saOf)
        .filter((x): x is string => !!x && x !== sa),
    ),
  ];
  return {
    service_account: ` (${sa}${others.length ? `; its older pods run as ${others.join(', ')} and still log in` : ''})`,
  };
}

/**
 * What should have made the missing Secret, and why it did not: an ExternalSecret that does not
 * sync, a SealedSecret the controller cannot decrypt, a cert-manager Certificate whose issuer is
 * not ready.
 */
function secretSource({ f, model }: FindingContext): Record<string, string> {
  const name = f.groups['secret'];
  if (!name) return {};
  const ns = f.object?.namespace;
  const named = new RegExp(`["/]${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:["),\\s]|$)`);
  const controllerSaid = (pod: RegExp) =>
    model.logs
      .filter((l) => l.pod && pod.test(l.pod))
      .flatMap((l) => l.lines)
      .filter((x) => named.test(x.text) && /error|fail|could not|cannot/i.test(x.text))
      .pop()?.text;
  const external = controllerSaid(/^external-secrets-/);
  if (external) {
    const rec = /"msg"\s*:\s*"([^"]+)"/.exec(external)?.[1];
    const err = /"error"\s*:\s*"((?:[^"\\]|\\.)+)"/.exec(external)?.[1];
    return {
      secret_source: `. It is to be created by the ExternalSecret ${name}, which does not sync (SecretSyncedError): the External Secrets controller logs "${clip([rec, err].filter(Boolean).join(': ') || external, 240)}"`,
      secret_fix: `Fix the ExternalSecret ${name} (the remote key it asks its secret store for must exist, and the store must be allowed to read it); once it syncs, the Secret appears and the pods start. `,
    };
  }
  // a SealedSecret the controller cannot decrypt (sealed with another key than the one it has)
  const sealed = controllerSaid(/^sealed-secrets/);
  if (sealed) {
    const said = clip(
      sealed.replace(LINE_STAMP, '').replace(/^\d{4}\/\d\d\/\d\d [\d:]+ /, ''),
      240,
    );
    return {
      secret_source: `. It is to be unsealed from the SealedSecret ${name}, and the sealed-secrets controller fails to: "${said}"${/decrypt/i.test(sealed) ? ' (it was sealed with a key the controller does not have, e.g. after the controller was reinstalled with a new key)' : ''}`,
      secret_fix: `Re-seal ${name} with the controller's current certificate (\`kubeseal --fetch-cert\`) or restore the controller's previous private key; once it unseals, the Secret appears and the pods start. `,
    };
  }
  // a certificate cert-manager is to issue into the Secret, held up by its issuer
  const certManager = model.logs
    .filter((l) => l.pod && /^cert-manager-/.test(l.pod))
    .flatMap((l) => l.lines);
  const certificate =
    model.get('certificate', name, ns) ??
    model
      .list('certificate', ns)
      .find((c) => c.fields['secretName'] === name || c.fields['secret'] === name) ??
    model.events.find(
      (e) => /^certificate$/i.test(e.object?.kind ?? '') && e.object?.name === name,
    ) ??
    // its CertificateRequests are named after it ("ledger-api-tls-1")
    certManager.some((x) => x.text.includes(`"${name}-`));
  if (!certificate) return {};
  // its issuer's error: an Err* event on an (Cluster)Issuer, else what cert-manager logs of one
  const event = model.events
    .filter(
      (e) =>
        /issuer$/i.test(e.object?.kind ?? '') &&
        /^Err/.test(e.reason ?? '') &&
        (!ns || !e.namespace || e.namespace === ns),
    )
    .sort((a, b) => (a.last ?? a.first ?? 0) - (b.last ?? b.first ?? 0))
    .pop();
  const logged = certManager
    .map((x) => ({
      err: /\berr="((?:[^"\\]|\\.)*)"/.exec(x.text)?.[1],
      key: /\bkey="([^"]+)"/.exec(x.text)?.[1] ?? /resource_name="([^"]+)"/.exec(x.text)?.[1],
    }))
    .filter((x) => x.err && /issuer/i.test(x.err))
    .pop();
  const issuer = event
    ? { name: `${event.object!.kind ?? 'Issuer'} ${event.object!.name}`, said: event.message }
    : logged
      ? {
          name: `issuer ${logged.key?.split('/').pop() ?? ''}`.trim(),
          said: logged.err!.replace(/\\"/g, '"'),
        }
      : undefined;
  if (!issuer) return {};
  return {
    secret_source: `. cert-manager is to issue it (Certificate ${name}), but its ${issuer.name} is not ready: "${clip(issuer.said, 200)}"`,
    secret_fix: `Make the ${issuer.name} ready (what it reports: ${clip(issuer.said, 120)}); cert-manager then issues ${name} and the pods start. `,
  };
}

/**
 * A setting of the container's, wherever it is set: its own environment (values and runtime
 * flags in them, "PGOPTIONS=-c statement_timeout=500ms") or a ConfigMap it loads with envFrom or
 * a key reference, when that ConfigMap was read. "statement_timeout=500ms, in PGOPTIONS of
 * ConfigMap billing-api-config".
 */
export function containerSetting(
  model: ClusterModel,
  pod: ObjectView | undefined,
  c: ContainerView | undefined,
  setting: RegExp,
): string | undefined {
  if (!c) return undefined;
  for (const [name, value] of Object.entries(c.env)) {
    const m = setting.exec(value) ?? setting.exec(`${name}=${value}`);
    if (m) return `${m[0]}, in ${name}`;
  }
  for (const map of configMapsOf(c)) {
    const values = jsonField(model.get('configmap', map, pod?.namespace), 'data');
    for (const [name, value] of Object.entries(values)) {
      const m = setting.exec(String(value)) ?? setting.exec(`${name}=${String(value)}`);
      if (m) return `${m[0]}, in ${name} of ConfigMap ${map}`;
    }
  }
  return undefined;
}

/** Where the statement_timeout that cancels the queries is set, when the world shows it. */
function statementTimeout({ model, pod, container }: FindingContext): Record<string, string> {
  const set = containerSetting(model, pod, container, /statement_timeout\s*=\s*'?\w+/i);
  return set
    ? { statement_timeout: ` (${set})`, statement_timeout_fix: ` (${set.split(', in ')[1]})` }
    : {};
}

/**
 * The maxmemory and maxmemory-policy of the Redis that refuses writes, from a redis.conf in a
 * ConfigMap that was read (the subject's namespace first).
 */
function redisPolicy({ model, f }: FindingContext): Record<string, string> {
  const ns = f.object?.namespace;
  const maps = model
    .list('configmap')
    .filter((m) => m.fields['data'] && /maxmemory-policy/.test(m.fields['data']))
    .sort((a, b) => Number(b.namespace === ns) - Number(a.namespace === ns));
  for (const m of maps) {
    // the values of its keys (redis.conf), else the data as it is
    const values = Object.values(jsonField(m, 'data'));
    const text = values.length ? values.join('\n') : m.fields['data']!;
    const policy = /^\s*maxmemory-policy\s+(\S+)/m.exec(text)?.[1];
    if (!policy) continue;
    const max = /^\s*maxmemory\s+(\S+)/m.exec(text)?.[1];
    return {
      redis_policy: ` (maxmemory-policy ${policy}${max ? `, maxmemory ${max}` : ''} in ConfigMap ${m.name})`,
      redis_policy_fix: ` in ConfigMap ${m.name}`,
    };
  }
  return {};
}

/**
 * A Secret (or the ExternalSecret / SealedSecret that writes it) updated in the day before the
 * finding: a rotation that changed one half of a pair (a keystore, not its password).
 */
function secretUpdated({ model, f, names }: FindingContext): Record<string, string> {
  const ns = f.object?.namespace;
  // a finding without a time (a stack frame's "Caused by:") is as recent as its pods' last record
  const until =
    f.at ??
    Math.max(
      ...model.logs
        .filter((l) => l.pod && names.has(l.pod))
        .flatMap((l) => l.lines.map((x) => x.at ?? -Infinity)),
    );
  if (!Number.isFinite(until)) return {};
  const updated = model.events
    .filter((e) => {
      const at = e.last ?? e.first;
      return (
        at !== undefined &&
        at <= until &&
        at >= until - 24 * 3600_000 &&
        (!ns || !e.namespace || e.namespace === ns) &&
        /^(?:Secret|ExternalSecret|SealedSecret)$/i.test(e.object?.kind ?? '') &&
        /^(?:Updated|Unsealed|Synced|Created)$/.test(e.reason ?? '')
      );
    })
    .sort((a, b) => (b.last ?? b.first ?? 0) - (a.last ?? a.first ?? 0))[0];
  if (!updated) return {};
  const when = new Date((updated.last ?? updated.first)!).toISOString();
  return {
    secret_updated: `: ${updated.object!.kind} ${updated.object!.name} was updated at ${when} ("${clip(updated.message, 80)}"), a rotation of one Secret without the other`,
  };
}

/**
 * Where a service keeps the key set it verifies tokens with, when the world shows it: a ConfigMap
 * named for a JWKS, and a suspended CronJob of its namespace that should refresh it.
 */
function jwksSource({ model, f }: FindingContext): Record<string, string> {
  const ns = f.object?.namespace;
  const map = model.list('configmap', ns).find((m) => /jwk/i.test(m.name));
  const sync = model
    .list('cronjob', ns)
    .find((c) => c.fields['suspend'] === 'true' && /jwk|key|cert|sync/i.test(c.name));
  if (!map && !sync) return {};
  const where = map ? ` from ConfigMap ${map.name}` : '';
  const stale = sync
    ? `; the CronJob ${sync.name} that should refresh it is suspended (spec.suspend: true), so the copy is stale`
    : '';
  return {
    jwks_source: `${where}${stale}`,
    jwks_fix: sync
      ? ` (resume CronJob ${sync.name} and run it once)`
      : map
        ? ` (ConfigMap ${map.name})`
        : '',
  };
}

/**
 * What a policy engine's webhook says is wrong (Kyverno "validation error: ... rule x failed at
 * path /spec/containers/0/resources/limits/", Gatekeeper "[policy] message"), out of a long
 * denial the answer's quote would cut.
 */
function webhookReason({ model, f }: FindingContext): Record<string, string> {
  const texts = [
    f.fact,
    ...model.events
      .filter((e) => e.message.includes(f.groups['webhook'] ?? '\u0000'))
      .map((e) => e.message),
  ];
  for (const t of texts) {
    const flat = t.replace(/\s+/g, ' ');
    const kyverno = /validation error: ([^']+?)(?:'|$)/.exec(flat)?.[1];
    const gatekeeper = kyverno ? undefined : /\[([\w.-]+)\] ([^\n]+)/.exec(flat);
    const policy = /following polic(?:y|ies):? ([\w.-]+)/.exec(flat)?.[1] ?? gatekeeper?.[1];
    const said = kyverno ?? gatekeeper?.[2];
    if (!said) continue;
    // a denial quoted whole already (short, on one line) only gets the policy's name added
    const quoted = f.fact.length <= 200 && f.fact.includes(said.trim().slice(0, 40));
    return {
      policy_said: quoted
        ? policy
          ? ` (policy ${policy})`
          : ''
        : `: ${policy ? `policy ${policy} says ` : ''}"${clip(said.trim(), 220)}"`,
      policy_fix: policy
        ? ` (${policy}: ${clip(said.trim(), 120)})`
        : ` (${clip(said.trim(), 120)})`,
    };
  }
  return {};
}

/**
 * A liveness probe that fails during the pauses: the kubelet restarts a pod that was only
 * collecting garbage (with its timeout, which a pause outlasts).
 */
function gcProbe({ model, names, container }: FindingContext): Record<string, string> {
  const failed = model.events.find(
    (e) => /Liveness probe failed/i.test(e.message) && names.has(e.object?.name ?? ''),
  );
  if (!failed) return {};
  const probe = container?.probes.find((p) => /^liveness/i.test(p));
  const timeout = probe ? /timeout=(\d+s)/.exec(probe)?.[1] : undefined;
  return {
    gc_probe: `. Its liveness probe${timeout ? ` (timeoutSeconds ${timeout})` : ''} fails during the pauses, so the kubelet restarts pods that were only collecting garbage ("${clip(failed.message, 120)}"), and the restarts cascade onto the remaining pods`,
  };
}

/**
 * The run a Forbid CronJob waits for: its Job that neither completed nor failed, since when, and
 * what its pod last logged.
 */
function activeRun({ model, f }: FindingContext): Record<string, string> {
  const cron = f.workload || f.object?.name;
  if (!cron) return {};
  const done = (j: ObjectView) =>
    jobEnded(j) || /^(?:Complete|Completed|Failed)$/i.test(j.status ?? '');
  const active = model
    .list('job', f.object?.namespace)
    .filter((j) => model.workloadOf(j).name === cron && !done(j))
    .sort((a, b) => (a.created ?? 0) - (b.created ?? 0))[0];
  if (!active) return {};
  const started = Date.parse(active.fields['startTime'] ?? '') || active.created;
  const pod = model.podsOf('job', active.name, active.namespace)[0];
  const said = model.logs
    .filter((l) => l.pod === pod?.name)
    .flatMap((l) => l.lines)
    .filter((x) => x.text.trim())
    .pop();
  return {
    active_run: `: Job ${active.name}${started ? ` has been running since ${new Date(started).toISOString()}` : ' is still running'}${pod ? ` (pod ${pod.name}${said ? `, last logged "${clip(errorMessage(said.text), 120)}"` : ''})` : ''}${active.fields['activeDeadlineSeconds'] ? '' : ', with no activeDeadlineSeconds to end it'}`,
  };
}

/** The min-replicas-to-write of a redis.conf that was read, and the Redis members not running. */
function redisReplicas({ model, f }: FindingContext): Record<string, string> {
  const ns = f.object?.namespace;
  let min: string | undefined;
  // the subject's namespace first
  const maps = model
    .list('configmap')
    .sort((a, b) => Number(b.namespace === ns) - Number(a.namespace === ns));
  for (const m of maps) {
    const v = /min-replicas-to-write\s+(\d+)/.exec(m.fields['data'] ?? '')?.[1];
    if (v) {
      min = ` (min-replicas-to-write ${v} in ConfigMap ${m.name})`;
      break;
    }
  }
  const missing = model
    .list('pod')
    .filter((p) => /redis/i.test(p.name) && (!ns || p.namespace === ns) && isUnhealthy(p))
    .slice(0, 3);
  const why = (p: ObjectView) => {
    const said = model.events
      .filter((e) => e.object?.name === p.name && e.type === 'Warning')
      .pop()?.message;
    return `${p.name} is ${p.status ?? 'not ready'}${said ? ` ("${clip(said, 120)}")` : ''}`;
  };
  return {
    redis_min_replicas: min ?? '',
    redis_missing: missing.length ? `: ${missing.map(why).join('; ')}` : '',
    redis_missing_fix: missing.length ? ` (${missing.map((p) => p.name).join(', ')})` : '',
  };
}

/**
 * The database host a client is given, when it names one member of a StatefulSet
 * ("billing-mysql-0.billing-mysql") rather than a Service that follows the primary.
 */
function dbHostPinned({ model, pod, container }: FindingContext): Record<string, string> {
  // HOST=billing-mysql-0.billing-mysql, a DSN user@tcp(billing-mysql-0:3306)/db, in the container's
  // environment or a ConfigMap it loads
  const set = containerSetting(
    model,
    pod,
    container,
    /^\w*(?:HOST|ADDR|URL|DSN|SERVER)\w*=(?:[^\s=]*?[@/(])?([a-z0-9][a-z0-9-]*-\d+)\b[^\s,]*/i,
  );
  const member = set ? /=(?:[^\s=]*?[@/(])?([a-z0-9][a-z0-9-]*-\d+)\b/i.exec(set)?.[1] : undefined;
  if (!set || !member) return {};
  return {
    db_host_pinned: `: ${set} names one member, ${member}, not the primary; after a failover that member is a read-only replica and another member is the primary`,
    db_host_fix: `: it now pins ${member}`,
  };
}

/**
 * What a failing KEDA ScaledObject scales and with which authentication, when it was read: its
 * target at minReplicaCount 0 stays at zero; its TriggerAuthentication's Secrets hold what the
 * trigger's source refuses.
 */
function kedaTarget({ model, f }: FindingContext): Record<string, string> {
  const so = model.get('scaledobject', f.object?.name ?? f.workload, f.object?.namespace);
  const target = so?.fields['scaleTarget'] ?? f.object?.name ?? f.workload;
  let triggers: { type: string; source: string; auth: string }[] = [];
  try {
    triggers = JSON.parse(so?.fields['triggers'] ?? '[]') as typeof triggers;
  } catch {
    // none read
  }
  const t = triggers[0];
  const atZero =
    so?.fields['minReplicaCount'] === '0'
      ? `: with minReplicaCount 0, ${target} stays at zero replicas, so nothing consumes${t?.source ? ` ${t.type} ${t.source}` : ' its source'} and the work piles up`
      : '';
  const auth = t?.auth
    ? model.get('triggerauthentication', t.auth, f.object?.namespace)
    : undefined;
  const secrets = auth?.fields['secrets'];
  return {
    keda_target: `${target}${atZero}`,
    keda_target_name: target,
    keda_auth: t?.auth
      ? `. The trigger authenticates with TriggerAuthentication ${t.auth}${secrets ? `, which reads Secret ${secrets}` : ''}: the credentials there are what the source refuses (a password rotated elsewhere and not there)`
      : '',
    keda_auth_fix: t?.auth
      ? ` (the credentials TriggerAuthentication ${t.auth} reads${secrets ? ` from Secret ${secrets}` : ''})`
      : '',
  };
}

/** A rate limit the container configures ("RATE_LIMIT_RPS=150"). */
function rateLimit({ model, pod, container }: FindingContext): Record<string, string> {
  const set = containerSetting(model, pod, container, /^\w*RATE_?LIMIT\w*=\S+/i);
  return set ? { rate_limit: ` (${set})` } : {};
}

/**
 * The RabbitMQ broker restarted before the queue went missing: a queue declared non-durable
 * (or auto-delete) does not survive it. The broker's pod that started last, and when.
 */
function brokerRestart({ f, model }: FindingContext): Record<string, string> {
  const started = model.logs
    .filter((l) => l.pod && /rabbitmq/i.test(l.pod))
    .flatMap((l) =>
      l.lines
        .filter((x) => x.at !== undefined && /Starting RabbitMQ \d/.test(x.text))
        .map((x) => ({ pod: l.pod!, at: x.at! })),
    )
    .filter((x) => f.at === undefined || x.at <= f.at)
    .pop();
  if (!started) return {};
  const before =
    f.at !== undefined
      ? ` (${Math.round((f.at - started.at) / 60_000)} min before the first refusal)`
      : '';
  return {
    broker_restart: `: the broker ${started.pod} restarted at ${new Date(started.at).toISOString()}${before}, so a non-durable queue declared before it is gone`,
  };
}

/** The AuthorizationPolicy istiod pushed last before the denials, when its log was read. */
function meshPolicy({ f, model }: FindingContext): Record<string, string> {
  const push = model.logs
    .filter((l) => l.pod && /^istiod-/.test(l.pod))
    .flatMap((l) =>
      l.lines
        .filter((x) => f.at === undefined || x.at === undefined || x.at <= f.at)
        .map((x) => ({ at: x.at, m: /AuthorizationPolicy\/([\w.-]+)\/([\w.-]+)/.exec(x.text) })),
    )
    .filter((x) => x.m)
    .pop();
  if (!push?.m) return {};
  const name = `${push.m[1]}/${push.m[2]}`;
  return {
    mesh_policy: `; istiod pushed the AuthorizationPolicy ${name}${push.at !== undefined ? ` at ${new Date(push.at).toISOString()}` : ''}, just before`,
    mesh_policy_fix: ` (${name})`,
  };
}

/** The size its own log gives a record it failed to send ("... (1310000 bytes)"). */
function recordSize({ model, names }: FindingContext): Record<string, string> {
  const size = model.logs
    .filter((l) => l.pod && names.has(l.pod))
    .flatMap((l) => l.lines.map((x) => /\b(\d{6,})\s*bytes\b/i.exec(x.text)?.[1]))
    .find(Boolean);
  return size
    ? {
        record_size: `. Its log gives a record of ${size} bytes (${(Number(size) / 1048576).toFixed(1)} MiB)`,
      }
    : {};
}

/** Who holds the lock: the database's own log, else a Job running since before the wait. */
function lockHolderVars({ f, model }: FindingContext): Record<string, string> {
  const holder = lockHolder(model) ?? concurrentJob(model, f);
  return holder ? { lock_holder: `: ${holder.text}`, lock_holder_name: ` (${holder.name})` } : {};
}

/** The labels a required podAffinity selects, and whether any pod read has them. */
function podAffinityPeers({ model, pod }: FindingContext): Record<string, string> {
  if (!pod) return {};
  const owner = model.workloadOf(pod);
  const sel = requiredPodAffinity(
    pod.fields['affinity'] ??
      model.get(owner.kind, owner.name, pod.namespace)?.fields['affinity'] ??
      model.list('replicaset', pod.namespace).find((r) => pod.name.startsWith(`${r.name}-`))
        ?.fields['affinity'],
  );
  if (!sel.length) return {};
  const ns = pod.namespace;
  // only pods whose labels were read can say whether a peer exists
  const peers = model
    .list('pod')
    .filter(
      (p) =>
        p !== pod &&
        (!ns || p.namespace === ns) &&
        !p.name.startsWith(`${owner.name}-`) &&
        Object.keys(p.labels).length,
    );
  const matching = peers.filter((p) => sel.every(([k, v]) => p.labels[k] === v));
  const text = sel.map(([k, v]) => `${k}=${v}`).join(',');
  return {
    pod_affinity: matching.length
      ? ` (labels ${text}: ${matching.length} pod(s) have them)`
      : peers.length
        ? ` selects labels ${text}, and no pod${ns ? ` in namespace ${ns}` : ''} has them`
        : ` selects labels ${text}`,
  };
}

/** The other container of the pod that takes the port (containers share one network namespace). */
function portOwner({ pod, container: c, vars }: FindingContext): Record<string, string> {
  const bound = ['addr', 'addr2', 'addr3', 'addr4', 'addr5']
    .map((k) => /(\d+)$/.exec(vars[k] ?? '')?.[1])
    .find(Boolean);
  if (!bound || !pod) return {};
  const named = vars['container'] ?? c?.name;
  const other = pod.containers.find(
    (x) =>
      x.name !== named &&
      (x.ports.includes(bound) ||
        new RegExp(`(?:^|[\\s:=])${bound}(?:\\s|$)`).test(x.env['__args'] ?? '')),
  );
  return other
    ? {
        port_owner: `: container ${other.name}${other.image ? ` (${other.image})` : ''} of the same pod listens on ${bound} (containers of a pod share one network namespace)`,
      }
    : {};
}

/** Sentinel's failover in its log: "+switch-master mymaster <old ip> 6379 <new ip> 6379". */
function redisFailover({ model }: FindingContext): Record<string, string> {
  const line = model.logs
    .flatMap((l) => l.lines.map((x) => ({ pod: l.pod, text: x.text })))
    .reverse()
    .find((x) => /\+switch-master \S+ [\d.]+ \d+ [\d.]+ \d+/.test(x.text));
  const m = line && /\+switch-master \S+ ([\d.]+) \d+ ([\d.]+) \d+/.exec(line.text);
  if (!m) return {};
  const podAt = (ip: string) => model.list('pod').find((p) => p.fields['podIP'] === ip)?.name;
  const name = (ip: string) => (podAt(ip) ? `${podAt(ip)} (${ip})` : ip);
  return {
    redis_failover: `: Sentinel failed over (+switch-master) from ${name(m[1]!)} to ${name(m[2]!)}${line.pod ? `, as ${line.pod} logged` : ''}`,
  };
}

/** A TLS Secret the Ingress names that exists, but in another namespace. */
function tlsSecretElsewhere({ model, vars }: FindingContext): Record<string, string> {
  const tlsSecret = vars['secret'] || vars['secret2'];
  if (!tlsSecret?.includes('/')) return {};
  const [ns, name] = tlsSecret.split('/');
  const other = model.list('secret').find((x) => x.name === name && x.namespace !== ns);
  return other?.namespace
    ? {
        secret_elsewhere: `. A Secret ${name} exists in namespace ${other.namespace}, not in ${ns}: the Ingress cannot use it from there`,
      }
    : {};
}

/** Why no node comes: the cluster autoscaler's answer for these pods, and what fits where. */
function capacityVars(ctx: FindingContext): Record<string, string> {
  const { f, model, pod, names } = ctx;
  const said = model.events.find(
    (e) =>
      e.reason === 'NotTriggerScaleUp' &&
      (!e.object || names.has(e.object.name)) &&
      /max node group size/i.test(e.message),
  );
  const vars: Record<string, string> = {
    autoscaler_fix: said
      ? ': raise the max size of the node group the cluster autoscaler scales, it is at its maximum'
      : ' (cluster autoscaler)',
  };
  if (said)
    vars['autoscaler'] =
      `. The cluster autoscaler adds no node: the node group is at its max size ("${clip(said.message, 200)}")`;
  if (pod) vars['capacity'] = fitsNoNode(model, pod, f.groups['res'] ?? '');
  return { ...vars, ...r21schedCapacityHolder(ctx) };
}

/** what Redis logs when a background save fails */
const REDIS_SAVE_ERROR =
  /(?:Write error saving DB on disk|Failed opening the (?:temp )?RDB file|Background saving error)[^\n]*/i;

/**
 * Why Redis could not save its snapshot, from the Redis server's own log: the latest specific
 * error ("Write error saving DB on disk: No space left on device") before the summary line
 * ("Background saving error").
 */
function redisSaveError({ model }: FindingContext): Record<string, string> {
  const hits = model.logs
    .flatMap((l) => l.lines.map((x) => ({ pod: l.pod, said: REDIS_SAVE_ERROR.exec(x.text)?.[0] })))
    .filter((x): x is { pod: string | undefined; said: string } => !!x.said);
  const hit = hits.filter((x) => !/^Background/i.test(x.said)).pop() ?? hits.pop();
  if (!hit) return {};
  const where = hit.pod ? ` ${hit.pod}` : '';
  return {
    redis_save_error: `: Redis${where} logs "${clip(hit.said, 200)}"`,
    redis_save_fix: /no space left/i.test(hit.said)
      ? `: free or grow the volume of${where || ' Redis'} (its data directory is full)`
      : /permission denied/i.test(hit.said)
        ? `: give${where || ' Redis'} write access to its data directory`
        : '',
  };
}

/** A Kafka consumer setting, from the ConsumerConfig the client logs or the container's env. */
function consumerSetting(x: FindingContext, key: string, envName: RegExp): string | undefined {
  const re = new RegExp(`${key.replace(/\./g, '\\.')}\\s*=\\s*(\\d+)`);
  const logged = x.model.logs
    .filter((l) => l.pod && x.names.has(l.pod))
    .flatMap((l) => l.lines.map((y) => re.exec(y.text)?.[1]))
    .filter(Boolean)
    .pop();
  if (logged) return `${key} = ${logged}`;
  const env = Object.entries(x.container?.env ?? {}).find(
    ([k, v]) => envName.test(k) && /^\d+$/.test(v),
  );
  return env ? `${key} = ${env[1]} (${env[0]})` : undefined;
}

function kafkaPollSettings(x: FindingContext): Record<string, string> {
  const interval = consumerSetting(x, 'max.poll.interval.ms', /MAX_POLL_INTERVAL/i);
  const records = consumerSetting(x, 'max.poll.records', /MAX_POLL_RECORDS/i);
  return {
    poll_interval: interval ? ` (${interval})` : '',
    poll_records: records
      ? `. Each poll hands it up to ${records.replace(/^\S+ = /, '')} records (${records})`
      : '',
    poll_records_fix: records ? ` (${records})` : '',
  };
}

/**
 * The workload a stale HPA was meant for: one of its namespace, named like the missing target
 * (catalog-api -> catalog), that no HorizontalPodAutoscaler scales.
 */
function unscaledWorkload({ f, model }: FindingContext): Record<string, string> {
  const target = f.groups['target'];
  const ns = f.object?.namespace;
  if (!target) return {};
  const KINDS: Record<string, string> = {
    deployments: 'Deployment',
    statefulsets: 'StatefulSet',
    replicasets: 'ReplicaSet',
    replicationcontrollers: 'ReplicationController',
  };
  const target_kind = KINDS[f.groups['scale_kind'] ?? ''] ?? 'workload';
  const scaled = new Set(
    model
      .list('horizontalpodautoscaler', ns)
      .map((h) => (h.fields['scaleTarget'] ?? '').split('/').pop()),
  );
  const stem = (x: string) => x.replace(/-(?:api|svc|service|app|web|server|deployment)$/, '');
  const w = [...model.list('deployment', ns), ...model.list('statefulset', ns)].find(
    (x) =>
      (!ns || x.namespace === ns) &&
      x.name !== target &&
      !scaled.has(x.name) &&
      (stem(x.name) === stem(target) ||
        target.startsWith(`${x.name}-`) ||
        x.name.startsWith(`${target}-`)),
  );
  if (!w) return { target_kind };
  const replicas = w.fields['replicas'] ?? w.fields['ready'];
  return {
    target_kind,
    unscaled: `. The ${w.kind === 'statefulset' ? 'StatefulSet' : 'Deployment'} ${w.name} runs instead, and no HorizontalPodAutoscaler scales it${replicas ? ` (it stays at ${replicas})` : ''}, however loaded`,
    unscaled_name: ` (${w.kind} ${w.name})`,
  };
}

/** The plugin pod of that kind on the finding's node, and the error its log gives last. */
function nodePlugin(
  x: FindingContext,
  plugin: RegExp,
): { pod: ObjectView; said?: string } | undefined {
  const node = x.pod?.node ?? x.vars['node'];
  if (!node) return undefined;
  const pod = podsOnNode(x.model.list('pod'), node, plugin, x.now)[0];
  if (!pod) return undefined;
  const said = x.model.logs
    .filter((l) => l.pod === pod.name)
    .sort((a, b) => Number(b.previous) - Number(a.previous))
    .map((l) => l.lines.filter((y) => y.level === 'error' || y.level === 'warn').pop()?.text)
    .find(Boolean);
  return { pod, said };
}

function cniError(x: FindingContext): Record<string, string> {
  const found = nodePlugin(x, NODE_AGENT);
  return found?.said
    ? {
        cni_error: `. The CNI agent ${found.pod.name} on that node logs "${clip(errorMessage(found.said), 240)}"`,
      }
    : {};
}

function csiNode(x: FindingContext): Record<string, string> {
  const found = nodePlugin(x, CSI_NODE_PLUGIN);
  if (!found) return {};
  const state =
    found.pod.status && found.pod.status !== 'Running'
      ? ` is ${found.pod.status}`
      : ' is not ready';
  return {
    csi_node: `: its pod there, ${found.pod.name},${isUnhealthy(found.pod, x.now) ? state : ' runs'}${found.said ? ` and logs "${clip(errorMessage(found.said), 240)}"` : ''}`,
    csi_node_fix: ` (pod ${found.pod.name}${found.said ? ': fix what its log says' : ''})`,
  };
}

/**
 * A workload throttled on some pods while its others idle: more CPU would not help, the load is
 * not spread. A Service with sessionAffinity: ClientIP pins each client to one pod (few callers:
 * few hot pods); without it, long-lived connections stay on the pod they opened.
 */
function unevenCpu({ f, model, obj }: FindingContext): Record<string, string> {
  const ns = obj?.namespace ?? f.object?.namespace;
  const load = unevenLoad(model, f.workload, ns);
  if (!load) return {};
  const total = load.hot.length + load.idle.length;
  const names = load.hot.map((p) => p.name).join(', ');
  const svc = model
    .list('service', ns)
    .find((s) => s.fields['sessionAffinity'] && backingWorkload(model, s)?.name === f.workload);
  const spread = `: only ${load.hot.length} of its ${total} pods (${names}) run at the limit while the other ${load.idle.length} use ${load.idleCpu} or less, so the load is not spread across the pods and an autoscaler that averages them sees no need to scale`;
  return svc
    ? {
        uneven: `${spread}. Service ${svc.name} has sessionAffinity ${svc.fields['sessionAffinity']}: kube-proxy sends every request of a client to the pod it first reached, so each of its few callers is pinned to one pod`,
        uneven_fix: `Set sessionAffinity: None on Service ${svc.name} (or move the stickiness the app needs into a shared store), so requests spread over all pods. If the pods still run at the limit after that: `,
      }
    : {
        uneven: `${spread}: kube-proxy balances connections, not requests, so long-lived connections (HTTP keep-alive, HTTP/2, gRPC) stay on the pod they opened`,
        uneven_fix: `Spread the requests, not only the connections (client-side or L7 balancing for HTTP/2 and gRPC, or a bounded connection lifetime). If the pods still run at the limit after that: `,
      };
}

/** What the failing ACME challenge needs: a DNS-01 error names the DNS provider that refused. */
function acmeSolver({ f, model }: FindingContext): Record<string, string> {
  // cert-manager's record names the Challenge/Order/CertificateRequest of a Certificate
  // ("<certificate>-<revision>-<hash>") and its namespace
  const resource = /resource_name="([^"]+)"/.exec(f.fact)?.[1];
  const certificate = resource?.replace(/(?:-\d+)+$/, '');
  const ns = /resource_namespace="([^"]+)"/.exec(f.fact)?.[1] ?? f.object?.namespace;
  const named = { certificate: certificate ?? f.workload ?? f.object?.name ?? '' };
  // an HTTP-01 self check answered 401/403: an Ingress in front of the solver path asks for
  // authentication (with http01-edit-in-place the solver path is added to that very Ingress)
  const code = /wrong status code '(40[13])'/.exec(f.fact)?.[1];
  if (code) {
    const guarded = model
      .list('ingress', ns)
      .map((i) => ({ i, a: jsonField(i, 'annotations') }))
      .filter(({ a }) =>
        Object.keys(a).some((k) =>
          /auth-(?:type|url|secret|signin)$|whitelist-source-range|allowlist-source-range/.test(k),
        ),
      )
      .sort(
        (x, y) =>
          Number(y.a['acme.cert-manager.io/http01-edit-in-place'] === 'true') -
          Number(x.a['acme.cert-manager.io/http01-edit-in-place'] === 'true'),
      )[0];
    if (guarded) {
      const auth = Object.entries(guarded.a)
        .filter(([k]) => /auth-(?:type|url|secret)$|(?:white|allow)list-source-range/.test(k))
        .map(([k, v]) => `${k}: ${v}`)
        .slice(0, 2)
        .join(', ');
      const inPlace = guarded.a['acme.cert-manager.io/http01-edit-in-place'] === 'true';
      return {
        ...named,
        solver_cause: `: the HTTP-01 challenge path answers ${code} because Ingress ${guarded.i.name} asks for authentication (${auth})${inPlace ? ' and, with acme.cert-manager.io/http01-edit-in-place: "true", cert-manager serves the solver path through that very Ingress' : ''}`,
        solver_fix: `: let /.well-known/acme-challenge/ through Ingress ${guarded.i.name} without authentication (a separate solver Ingress${inPlace ? ', i.e. drop http01-edit-in-place' : ''}), or use DNS-01`,
      };
    }
  }
  return {
    ...named,
    solver_fix: DNS_SOLVER_ERROR.test(f.fact)
      ? ': the DNS-01 solver must be allowed to change records in the zone, and its credentials are what the DNS provider refused here (grant that permission on that zone, or point the solver at credentials that have it)'
      : ' (the http-01 path must be reachable through the ingress without auth/redirect, or the DNS-01 credentials)',
  };
}

/** a DNS-01 solver's error: the DNS provider's API refused or failed the record change */
const DNS_SOLVER_ERROR =
  /route ?53|ChangeResourceRecordSets|hostedzone|dns-?01|cloudflare|clouddns|azuredns|google ?dns|digitalocean/i;

/** Which RabbitMQ resource alarm blocks the publishers: the line says disk or memory. */
function rabbitAlarm({ f }: FindingContext): Record<string, string> {
  if (/\bdisk\b/i.test(f.fact))
    return {
      alarm: ' (free disk on the broker is below its disk_free_limit)',
      alarm_fix:
        'Free disk on the RabbitMQ nodes (delete or move what fills their volume, or grow it) until free space is above disk_free_limit.',
    };
  if (/\bmemory\b/i.test(f.fact))
    return {
      alarm: ' (the broker uses more memory than its high watermark)',
      alarm_fix:
        'Bring the broker under its memory high watermark: drain the queues (start or scale their consumers), or raise vm_memory_high_watermark if the node has room.',
    };
  return {
    alarm:
      ' (free disk below disk_free_limit, or memory above the high watermark: the broker log says which)',
    alarm_fix:
      'Clear the alarm the broker log names (free disk above disk_free_limit, or memory under the high watermark).',
  };
}

/** Environment variables that list a Kafka client's bootstrap servers. */
const KAFKA_BOOTSTRAP_ENV = /^(?:\w+_)?(?:KAFKA_)?(?:BROKERS|BOOTSTRAP_SERVERS?)$/i;

/**
 * A name that does not resolve. When a Kafka client fails on a broker address that is not the
 * bootstrap address it is configured with, it reached the cluster and got that address from the
 * brokers' metadata: the brokers advertise a name (advertised.listeners) clients cannot resolve.
 */
function unresolvedName(x: FindingContext): Record<string, string> {
  const { f, container } = x;
  const host = hostOf(f.groups);
  const checkName = `Check the name ${host ?? ''} (Service name and namespace, \`<svc>.<ns>.svc.cluster.local\`) and cluster DNS (coredns pods, kube-dns Service endpoints).`;
  const peer = host ? unreadyPeer(x, host) : undefined;
  if (peer) return peer;
  const bootstrap = Object.entries(container?.env ?? {}).find(([k]) => KAFKA_BOOTSTRAP_ENV.test(k));
  const kafkaClient = /kafkajs|"broker"|org\.apache\.kafka|\(id: \d+ rack/i.test(f.fact);
  if (!host || !bootstrap || !kafkaClient || bootstrap[1].includes(host))
    return { dns_fix: checkName };
  return {
    advertised: `. ${host} is not the bootstrap address ${f.workload} is configured with (${bootstrap[0]}=${bootstrap[1]}): the client reached the cluster there and was handed ${host} in the brokers' metadata, so the Kafka brokers advertise an address that does not resolve from here (their advertised.listeners, KAFKA_ADVERTISED_LISTENERS, name it)`,
    dns_fix: `Set the brokers' advertised.listeners (KAFKA_ADVERTISED_LISTENERS) to names clients can resolve (the headless Service in the namespace the brokers run in now), and restart the brokers one at a time; the clients reconnect by themselves.`,
  };
}

/**
 * `<pod>.<service>.<ns>.svc` names a member of a StatefulSet through its headless Service, which
 * publishes ready pods only (unless publishNotReadyAddresses): members that must find each other
 * before any becomes ready (a ZooKeeper or etcd quorum, a database cluster) never do.
 */
function unreadyPeer(
  { model, now }: FindingContext,
  host: string,
): Record<string, string> | undefined {
  const m = /^([a-z0-9-]+)\.([a-z0-9-]+)\.([a-z0-9-]+)\.svc\b/.exec(host);
  if (!m) return undefined;
  const [, podName, svcName, ns] = m as unknown as [string, string, string, string];
  const svc = model.get('service', svcName, ns);
  const pod = model.get('pod', podName, ns);
  const published = svc?.fields['publishNotReadyAddresses'];
  if (!svc || !pod || svc.fields['clusterIP'] !== 'None' || published === 'true') return undefined;
  if (!isUnhealthy(pod, now) && !/0\//.test(pod.fields['ready'] ?? '')) return undefined;
  return {
    peer_dns: `. ${host} is the name of pod ${podName} through the headless Service ${svcName}, which publishes the names of ready pods only${published === 'false' ? ' (publishNotReadyAddresses is not set)' : ', unless publishNotReadyAddresses is true'}: ${podName} is ${pod.status && pod.status !== 'Running' ? pod.status : 'running but not ready'}, so its name does not resolve, and members that need each other's names to become ready never do`,
    dns_fix: `Set publishNotReadyAddresses: true on the headless Service ${svcName} (the members must find each other before they are ready), then restart the members that gave up.`,
  };
}

/**
 * An expired client certificate while its Secret may already hold the renewed one: files mounted
 * by subPath never receive the Secret's updates, so the running pods keep the old certificate.
 */
function certReload({ pods }: FindingContext): Record<string, string> {
  const mounted = pods.map((p) => p.fields['subPathMounts']).find(Boolean);
  if (!mounted) return {};
  return {
    cert_reload: `. Its pods mount the certificate files by subPath (${mounted}): a subPath mount never receives updates of its Secret, so a renewed certificate in the Secret does not reach the running containers, which keep presenting the old one until they restart`,
    cert_reload_fix:
      'Restart the pods (`kubectl rollout restart`) so they load the renewed certificate, and mount the Secret as a directory instead of by subPath so renewals reach them (the app must re-read the files, or be restarted on renewal). ',
  };
}

/** The Redis Cluster pod that is not serving (terminating, failing, or on a node not Ready). */
function redisClusterLost({ model, now }: FindingContext): Record<string, string> {
  const lost = model.list('pod').find((p) => {
    if (!/redis/i.test(p.name)) return false;
    const node = p.node ? model.get('node', p.node) : undefined;
    return p.fields['terminating'] || isUnhealthy(p, now) || (node && isUnhealthy(node, now));
  });
  if (!lost) return {};
  const node = lost.node ? model.get('node', lost.node) : undefined;
  const nodeDown = node && isUnhealthy(node, now);
  return {
    redis_cluster_lost: `: pod ${lost.name} is ${lost.fields['terminating'] ? 'stuck Terminating' : (lost.status ?? 'not ready')}${nodeDown ? ` on node ${node.name}, which is NotReady (its kubelet stopped posting status)` : lost.node ? ` on node ${lost.node}` : ''}`,
    redis_cluster_fix: nodeDown
      ? ` (recover node ${node.name}, or once it is confirmed gone delete pod ${lost.name} so its StatefulSet recreates it elsewhere)`
      : ` (pod ${lost.name})`,
  };
}

/**
 * The members of a clustered data store (pods named like it) that are down, each with what keeps
 * it down: a pod that cannot be placed says why the scheduler refuses it.
 */
function membersDown(store: RegExp) {
  return ({ model, now }: FindingContext): Record<string, string> => {
    const members = model.list('pod').filter((p) => store.test(p.name));
    const down = members.filter((p) => isUnhealthy(p, now));
    if (!down.length) return {};
    const why = (p: ObjectView) => {
      const refused = model.events.find(
        (e) => e.object?.name === p.name && e.reason === 'FailedScheduling',
      );
      return refused ? ` ("${clip(refused.message, 140)}")` : '';
    };
    const said = down.map((p) => `${p.name} is ${p.status ?? 'not ready'}${why(p)}`);
    return {
      store_down: `: ${down.length} of ${members.length} of its pods are down: ${said.join('; ')}`,
      store_down_fix: ` (${down.map((p) => p.name).join(', ')})`,
    };
  };
}

/** The principal the Kafka brokers' authorizer denies, from a broker log read. */
function kafkaPrincipal({ model }: FindingContext): Record<string, string> {
  for (const l of model.logs)
    for (const x of l.lines) {
      const m =
        /Principal = (User:\S+) is Denied operation = (\w+)[^\n]*?on resource = (\w+):(?:LITERAL|PREFIXED):(\S+)/.exec(
          x.text,
        );
      if (m)
        return {
          kafka_principal: `. The brokers' authorizer denies ${m[1]} (${m[2]} on ${m[3]} ${m[4]}): no ACL names that principal`,
        };
    }
  return {};
}

/** The error a replica's SQL thread stopped on: the code and what it says, from its log. */
function replicaError({ f, model, names }: FindingContext): Record<string, string> {
  const lines = model.logs
    .filter((l) => l.pod && (names.has(l.pod) || l.pod === f.object?.name))
    .flatMap((l) => l.lines.map((x) => x.text));
  const coded = [f.fact, ...lines].find((t) => /Error_code: ?\d+/.test(t));
  if (!coded) return {};
  const code = /Error_code: ?(\d+)/.exec(coded)![1];
  const dup = /Duplicate entry '[^']*' for key '[^']*'/.exec(coded)?.[0];
  return {
    replica_error: ` with error ${code}${dup ? ` (${dup}: the row already exists on the replica, written there directly)` : ''}`,
  };
}

/** the operating system a node runs: its kubernetes.io/os label, else what the kubelet reports */
const osOfNode = (n: ObjectView | undefined): string | undefined =>
  n?.labels['kubernetes.io/os'] ?? n?.labels['beta.kubernetes.io/os'] ?? n?.fields['os'];

/** The nodes the pods that refused their image's OS were placed on, and the OS those run. */
function osMismatch({ f, model, pod }: FindingContext): Record<string, string> {
  const ns = f.object?.namespace;
  const hit = new Set([f.object?.name, ...(f.alsoOn ?? [])].filter(Boolean));
  const pods = model.list('pod', ns).filter((p) => hit.has(p.name) && p.node);
  const byOs = new Map<string, string[]>();
  for (const p of pods) {
    const os = osOfNode(model.get('node', p.node!)) ?? 'unknown';
    const nodes = byOs.get(os) ?? [];
    if (!nodes.includes(p.node!)) nodes.push(p.node!);
    byOs.set(os, nodes);
  }
  const known = [...byOs.entries()].filter(([os]) => os !== 'unknown');
  const sel = pod?.fields['nodeSelector'];
  return {
    os_nodes: pods.length
      ? ` (pod${pods.length > 1 ? 's' : ''} ${pods.map((p) => `${p.name} on ${p.node}`).join(', ')}${known.length ? `; ${known.map(([os, nodes]) => `node${nodes.length > 1 ? 's' : ''} ${nodes.join(', ')} run${nodes.length > 1 ? '' : 's'} ${os} (kubernetes.io/os=${os})`).join('; ')}` : ''})`
      : '',
    os_selector: sel ? ` (its nodeSelector is ${sel})` : '',
  };
}

/** The pods of the workload still Pending, when others of it run. */
function pendingMembers(model: ClusterModel, workload: string, ns?: string): string {
  const all = model
    .list('pod', ns)
    .filter((p) => (!ns || p.namespace === ns) && model.workloadOf(p).name === workload);
  const pending = all.filter((p) => /^Pending$/.test(p.status ?? ''));
  if (!pending.length || pending.length === all.length) return '';
  return ` (pod${pending.length > 1 ? 's' : ''} ${pending
    .map((p) => p.name)
    .sort()
    .slice(0, 6)
    .join(', ')} Pending; the other ${all.length - pending.length} of its ${all.length} pods run)`;
}

/** Which pods wait, and the node type and attach limit, when the nodes say. */
function volumeLimit({ f, model }: FindingContext): Record<string, string> {
  const nodes = model.list('node');
  const types = [
    ...new Set(nodes.map((n) => n.labels['node.kubernetes.io/instance-type']).filter(Boolean)),
  ];
  const counts = [
    ...new Set(
      nodes.flatMap((n) =>
        Object.entries(JSON.parse(n.fields['allocatable'] ?? '{}') as Record<string, string>)
          .filter(([k]) => /^attachable-volumes-/.test(k))
          .map(([k, v]) => `${k} ${v}`),
      ),
    ),
  ];
  return {
    pending_pods: pendingMembers(model, f.workload, f.object?.namespace),
    attach_limit:
      types.length || counts.length
        ? `: here ${[types.length ? `instance type ${types.slice(0, 3).join(', ')}` : '', counts.slice(0, 2).join(', ')].filter(Boolean).join(', ')}`
        : '',
  };
}

/** The pods the kubelet rejected, the node's allocatable, and what changed it (its restart). */
function admissionRejected({ f, model, vars, pod }: FindingContext): Record<string, string> {
  const node = f.object?.kind === 'node' ? f.object.name : pod?.node;
  const ns = f.object?.namespace;
  const rejected = model
    .list('pod', ns)
    .filter(
      (p) =>
        /^OutOf/.test(`${p.reason ?? ''}`) ||
        /^OutOf/.test(p.status ?? '') ||
        model.events.some((e) => /^OutOf/.test(e.reason ?? '') && e.object?.name === p.name),
    );
  const own = rejected.filter((p) => model.workloadOf(p).name === f.workload).map((p) => p.name);
  const others = rejected.filter((p) => model.workloadOf(p).name !== f.workload).map((p) => p.name);
  const res = vars['res'] ?? 'cpu';
  const alloc = node
    ? (
        JSON.parse(model.get('node', node)?.fields['allocatable'] ?? '{}') as Record<string, string>
      )[res]
    : undefined;
  // the restart that came before the rejections (not one long after them)
  const at = Math.max(
    ...model.events
      .filter((e) => /^OutOf/.test(e.reason ?? ''))
      .map((e) => (e.last ?? e.first ?? -Infinity) + 300_000),
    -Infinity,
  );
  const bound = Number.isFinite(at) ? at : Infinity;
  const started = node
    ? model.events
        .filter(
          (e) =>
            e.object?.name === node &&
            (/Starting kubelet/i.test(e.message) || e.reason === 'NodeAllocatableEnforced') &&
            (e.last ?? e.first ?? 0) <= bound,
        )
        .sort((a, b) => (b.last ?? b.first ?? 0) - (a.last ?? a.first ?? 0))
    : [];
  const restart = started.find((e) => /Starting kubelet/i.test(e.message)) ?? started[0];
  const when = restart ? (restart.last ?? restart.first) : undefined;
  // what changed the reservation: a line that names kubeReserved / systemReserved or the restart
  const said = model.logs
    .flatMap((l) => l.lines.map((x) => ({ pod: l.pod, text: x.text })))
    .filter((x) => /\b(?:kube|system)Reserved\b|restart(?:ing|ed)? (?:the )?kubelet/i.test(x.text))
    .sort((a, b) => Number(/Reserved/.test(b.text)) - Number(/Reserved/.test(a.text)))[0];
  return {
    rejected_pods: own.length ? `${own.length > 1 ? 's' : ''} ${own.slice(0, 4).join(', ')}` : '',
    node_allocatable: `${alloc ? ` (now ${alloc})` : ''}${vars['admit_capacity'] ? ` (it asked for ${vars['requested']}, the pods already admitted use ${vars['used']} of ${vars['admit_capacity']})` : ''}`,
    also_rejected: others.length ? `. It rejected ${others.slice(0, 3).join(', ')} too` : '',
    kubelet_restart: restart
      ? `. The kubelet on ${node} restarted just before ("${clip(restart.message, 80)}"${when ? ` at ${new Date(when).toISOString()}` : ''}${started.some((e) => e.reason === 'NodeAllocatableEnforced') ? ', then NodeAllocatableEnforced' : ''}) and re-admitted its pods against a smaller allocatable${said ? `; ${said.pod ?? 'a pod'} logged "${clip(said.text, 200)}"` : ''}`
      : said
        ? `. ${said.pod ?? 'A pod'} logged "${clip(said.text, 200)}"`
        : '',
  };
}

/** The ingestion limit the log store named, where it is, and who else logs the refusals. */
function ingestLimit({ f, model }: FindingContext): Record<string, string> {
  const limit =
    f.groups['ingest_limit'] ??
    model.logs
      .flatMap((l) => l.lines)
      .map((x) => /rate limit exceeded[^\n]*?\(limit: (\d+) bytes\/sec\)/i.exec(x.text)?.[1])
      .find(Boolean);
  const mb = limit ? Number(limit) / 1048576 : undefined;
  const host = /\bhost=([\w.-]+(?::\d+)?)|https?:\/\/([\w.-]+(?::\d+)?)\/loki\b/.exec(f.fact);
  // the pod logs that name the refusals: the agent's own (its workload's), and another's (the store)
  const refusing = model.logs
    .filter((l) => l.lines.some((x) => /rate limit exceeded/i.test(x.text)))
    .flatMap(({ pod, namespace }) =>
      pod
        ? [
            {
              pod,
              own:
                model.workloadOf(model.get('pod', pod, namespace) ?? newObject('pod', pod, ''))
                  .name === f.workload,
            },
          ]
        : [],
    );
  const agents = refusing.filter((x) => x.own).length;
  const store = refusing.find((x) => !x.own);
  return {
    ingest_said: `"Ingestion rate limit exceeded"${limit ? ` (limit: ${limit} bytes/sec${mb && Number.isInteger(mb * 10) ? `, ${mb} MB/s` : ''})` : ''}`,
    log_store: `${host ? `. The store it pushes to: ${host[1] ?? host[2]}` : ''}${agents > 1 ? `; ${agents} of its pods log the refusals` : ''}${store?.pod ? `; the store itself (${store.pod}) logs that it refuses them` : ''}`,
  };
}

/** What a catalog entry's template says beyond the finding's own groups, by entry id. */
const ENTRY_VARS: Record<string, Enricher> = {
  image_os_mismatch: osMismatch,
  sched_volume_limit: volumeLimit,
  kubelet_admission_rejected: admissionRejected,
  log_push_rate_limited: ingestLimit,
  mysql_replica_sql_stopped: replicaError,
  redis_cluster_down: redisClusterLost,
  hpa_metrics_unavailable: ({ model }) => {
    const said = model.logs
      .filter((l) => /^metrics-server-/.test(l.pod ?? ''))
      .flatMap((l) => l.lines)
      .find((x) => x.level === 'error' || /\bE\d{4} /.test(x.text));
    return {
      metrics_server: said ? `. metrics-server logs "${clip(errorMessage(said.text), 240)}"` : '',
    };
  },
  cassandra_unavailable: membersDown(/^(?:cassandra|scylla)/i),
  kafka_authorization_failed: kafkaPrincipal,
  nfs_mount_failed: ({ f }) => ({
    nfs_vol: f.groups['vol'] ? ` ${f.groups['vol']}` : '',
    nfs_server: f.groups['server']
      ? ` ${f.groups['server']}${f.groups['export'] ? ` (export ${f.groups['server']}:${f.groups['export']})` : ''}`
      : '',
  }),
  client_cert_expired: certReload,
  dns_failure: unresolvedName,
  rabbitmq_resource_alarm: rabbitAlarm,
  tls_renewal_failed: acmeSolver,
  cpu_throttled: unevenCpu,
  admission_webhook_unreachable: ({ f }) => ({
    for_service: f.groups['service'] ? ` for service ${f.groups['service']}` : '',
    webhook_service: f.groups['service'] ?? 'it',
  }),
  deployment_paused: pausedImages,
  mongo_no_primary: mongoPrimary,
  tls_to_plain_port: plainPort,
  // the server, when the line names its URL ("Get https://ledger.x.svc/...")
  tls_unknown_authority: ({ f }) => ({ tls_server: f.groups['host'] || 'the server' }),
  tls_legacy_common_name: ({ f }) => ({ tls_server: f.groups['host'] || 'the server' }),
  pg_statement_timeout: statementTimeout,
  redis_maxmemory_refused: redisPolicy,
  keystore_password_incorrect: secretUpdated,
  jwks_no_matching_key: jwksSource,
  admission_webhook_denied: webhookReason,
  jvm_gc_pause: gcProbe,
  cronjob_forbid_active: activeRun,
  redis_noreplicas: redisReplicas,
  keda_scaler_failed: kedaTarget,
  mysql_read_only: dbHostPinned,
  probe_rate_limited: rateLimit,
  rabbitmq_queue_not_found: brokerRestart,
  mesh_authorization_denied: meshPolicy,
  mesh_proxy_fail_fast: unmeshedDestination,
  command_not_found: mountedOverCommand,
  image_not_found: initImage,
  pvc_being_deleted: pvcHolders,
  health_checks_dependency: dependencyProbe,
  node_not_ready: expiredNodeCertificate,
  vault_kubernetes_login_denied: vaultServiceAccount,
  missing_secret: secretSource,
  probe_timeout: ({ f }) => ({
    probe_effect: /^readiness$/i.test(f.groups['probe'] ?? '')
      ? 'so it is taken out of the Service endpoints until it answers again'
      : 'so the kubelet restarts it before it is ready',
  }),
  kafka_record_too_large: recordSize,
  gunicorn_worker_timeout: ({ f, model }) => ({
    saturation: saturation(model, f.workload, f.object?.namespace),
  }),
  db_lock_timeout: lockHolderVars,
  sched_pod_affinity: podAffinityPeers,
  port_bind_failed: portOwner,
  redis_readonly_replica: redisFailover,
  ingress_tls_secret_missing: tlsSecretElsewhere,
  redis_misconf_bgsave: redisSaveError,
  rabbitmq_consumer_ack_timeout: ({ f }) => {
    const ms = Number(f.groups['ack_ms'] || f.groups['ack_ms2']);
    return {
      ack_timeout: ms ? ` (consumer_timeout ${ms} ms, ${Math.round(ms / 60_000)} min)` : '',
    };
  },
  kafka_max_poll_interval: kafkaPollSettings,
  hpa_target_missing: unscaledWorkload,
  pod_ip_exhausted: cniError,
  csi_driver_not_registered: csiNode,
  sched_insufficient: capacityVars,
  ...CONFIGURATION_VARS,
  ...R28A_VARS,
  ...R20LOGS_VARS,
  ...R20ROLL_VARS,
  ...R21SCHED_VARS,
  ...R22J_VARS,
  ...R22I_VARS,
  ...R23B_VARS,
  ...R24B_VARS,
  ...R24A_VARS,
  ...R25A_VARS,
  ...R26A_VARS,
  ...R27B_VARS,
  ...R29B_VARS,
  ...R29C_VARS,
  ...R30B_VARS,
  ...R31B_VARS,
  ...R30C_VARS,
  ...R30A_VARS,
};

/** The same, by the entry's class. */
const CLASS_VARS: Record<string, Enricher> = { oom_killed: oomSource, ...R22I_CLASS_VARS };

/**
 * The variables a catalog entry's templates are filled with: the finding's groups, what every
 * finding gets from its pod and container (limits, requests, image, node, exit code, ...), and
 * what its entry's enricher adds.
 */
export function varsFor(
  f: Finding,
  model: ClusterModel,
  subject: string,
  now: number,
): Record<string, string> {
  const vars: Record<string, string> = {
    ...f.groups,
    subject,
    fact: clipKeepingError(f.fact, 240, f.groups['matched']),
  };
  if (f.groups['ns']) vars['in_ns'] = ` in namespace ${f.groups['ns']}`;
  const obj = f.object ? model.get(f.object.kind, f.object.name, f.object.namespace) : undefined;
  const pods =
    obj?.kind === 'pod' ? [obj] : model.podsOf('deployment', f.workload, f.object?.namespace);
  const pod = pods[0] ?? obj;
  const named = f.groups['container'];
  const c = pod?.containers.find((x) => x.name === named) ?? pod?.containers[0];
  if (named && pod && pod.containers.length > 1)
    vars['in_container'] = ` (its container ${named}${c?.image ? `, image ${c.image}` : ''})`;
  if (c?.limits['memory']) vars['limit'] = ` of ${c.limits['memory']}`;
  const context: FindingContext = {
    f,
    model,
    obj,
    pods,
    pod,
    names: new Set(pods.map((p) => p.name)),
    container: c,
    vars,
    now,
  };
  for (const enrich of [CLASS_VARS[f.entry.class], ENTRY_VARS[f.entry.id]])
    if (enrich) Object.assign(vars, enrich(context));

  const db = c && databaseTarget(c.env);
  if (db) vars['db'] = ` (${db})`;
  const heap = c && runtimeFlag(c.env, HEAP_FLAG);
  if (heap) vars['heap'] = ` (${heap})`;
  const metaspace = c && runtimeFlag(c.env, METASPACE_FLAG);
  if (metaspace) vars['metaspace'] = ` (${metaspace})`;
  if (pod?.fields['memoryVolumes'])
    vars['tmpfs'] =
      `. Its emptyDir volume ${pod.fields['memoryVolumes']} has medium: Memory (tmpfs): the files written there are RAM and count against that limit`;
  if (c?.limits['cpu']) vars['cpu_limit'] = ` of ${c.limits['cpu']}`;
  if (c?.requests && Object.keys(c.requests).length)
    vars['requests'] = ` (${Object.entries(c.requests)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`;
  const img = pod?.images[0] ?? c?.image;
  vars['image'] = vars['image'] ?? vars['image2'] ?? img ?? '';
  // where its trusted CAs come from: a mounted ConfigMap or Secret named for a CA or bundle
  const trust = [
    ...(pod?.fields['configMaps'] ?? '').split(',').map((n) => `ConfigMap ${n}`),
    ...(pod?.fields['secrets'] ?? '').split(',').map((n) => `Secret ${n}`),
  ].find((x) =>
    /\b(?:ca|trust|bundle|root)\b|[-_](?:ca|bundle|trust)(?:[-_]|$)/i.test(x.split(' ')[1] ?? ''),
  );
  if (trust) vars['trust'] = ` (${trust})`;
  // a pod gone or listed without its node: its Scheduled event says where it ran (r27a)
  const scheduled =
    f.object?.kind === 'pod' && !obj?.node
      ? scheduledNode(model, f.object.name, f.object.namespace)
      : undefined;
  if (f.object?.kind === 'node') vars['node'] = f.object.name;
  else if (scheduled) vars['node'] = scheduled;
  else if (pod?.node) vars['node'] = pod.node;
  const sel = pod?.fields['nodeSelector'];
  if (sel) vars['selector'] = ` (nodeSelector ${sel})`;
  else if (pod?.fields['affinity'])
    vars['selector'] = ` (affinity ${clip(pod.fields['affinity'], 160)})`;
  const last = pod?.containers
    .map((x) => x.last ?? x.terminated)
    .find((x) => x?.exitCode !== undefined);
  if (last) vars['exit'] = ` (exit code ${last.exitCode}${last.reason ? `, ${last.reason}` : ''})`;
  if (obj?.kind === 'persistentvolumeclaim') {
    const size = obj.fields['capacity'] ?? obj.fields['Capacity'];
    const modes = obj.fields['accessModes'] ?? obj.fields['Access Modes'];
    if (size || modes)
      vars['claim_request'] = ` (it requests ${[size, modes].filter(Boolean).join(' ')})`;
  }
  if (vars['pv']) {
    const pv = model.get('persistentvolume', vars['pv']);
    if (pv?.fields['claim']) vars['claim'] = ` (${pv.fields['claim']})`;
  }
  if (obj?.fields['backoffLimit']) vars['backoff'] = obj.fields['backoffLimit'];
  if (obj?.fields['activeDeadlineSeconds'])
    vars['deadline'] = ` (${obj.fields['activeDeadlineSeconds']} s)`;
  if (obj?.fields['maxReplicas']) vars['max'] = obj.fields['maxReplicas'];
  if (obj?.fields['targets']) vars['targets'] = ` (${obj.fields['targets']})`;
  const probeLine = c?.probes.find((p) => vars['probe'] && p.startsWith(vars['probe']));
  if (probeLine)
    vars['probe_target'] = ` (${probeLine.replace(/^\w+:\s*/, '').split(' delay')[0]})`;
  if (vars['port']) vars['probe_port'] = ` ${vars['port'].replace(':', '')}`;
  // one host named: the first the finding's groups caught, the others blank
  const host = HOSTS.find((k) => vars[k]);
  if (host) for (const k of HOSTS) if (k !== host) vars[k] = '';
  return vars;
}
