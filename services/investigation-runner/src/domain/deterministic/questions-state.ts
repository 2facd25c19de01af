import { isCordoned, quantity, type ClusterModel } from './model';
import { hasFinished } from './health';
import type { ObjectView } from './observe';
import { clip } from './text';

/**
 * Questions read off one kind's own state: the workloads that read a ConfigMap or Secret, the
 * certificates that expire in a window with their renewal state, the nodes by kubelet version,
 * the PersistentVolumes in one phase with their former claims and sizes.
 */

const WORKLOAD_KINDS = ['deployment', 'statefulset', 'daemonset', 'cronjob', 'job'];

const KIND_LABEL: Record<string, string> = {
  deployment: 'Deployment',
  statefulset: 'StatefulSet',
  daemonset: 'DaemonSet',
  cronjob: 'CronJob',
  job: 'Job',
  pod: 'Pod',
  replicaset: 'ReplicaSet',
};

/** how one pod spec (a pod's or a workload's template) reads the ConfigMap or Secret */
function readsOf(o: ObjectView, kind: 'configmap' | 'secret', name: string): string[] {
  const out: string[] = [];
  for (const c of o.containers)
    for (const r of c.envRefs) {
      if (r === `envFrom ${kind} ${name}`) out.push('envFrom');
      const key = new RegExp(`^(\\S+) <- ${kind} ${name.replace(/\./g, '\\.')} key (\\S+)$`).exec(
        r,
      );
      if (key) out.push(`env ${key[1]}${key[2] !== key[1] ? ` (key ${key[2]})` : ''}`);
    }
  if (kind === 'configmap') {
    let vols: Record<string, string> = {};
    try {
      vols = JSON.parse(o.fields['configMapVolumes'] ?? '{}') as Record<string, string>;
    } catch {
      /* unreadable */
    }
    const named = Object.entries(vols).filter(([, cm]) => cm === name);
    const mounts = (o.fields['mountPaths'] ?? '').split(', ');
    for (const [vol] of named) {
      const at = mounts.find((m) => m.endsWith(` from ${vol}`))?.split(' from ')[0];
      out.push(`volume ${vol}${at ? ` at ${at}` : ''}`);
    }
    if (!named.length && (o.fields['configMaps'] ?? '').split(',').includes(name))
      out.push('volume');
  } else {
    if ((o.fields['secrets'] ?? '').split(',').includes(name)) out.push('volume');
    if ((o.fields['imagePullSecrets'] ?? '').split(',').includes(name)) out.push('image pull');
  }
  return [...new Set(out)];
}

/**
 * "which workloads read the X ConfigMap (env, envFrom, mounted, cronjobs)?": per workload, from
 * the workloads' own templates and their pods; a CronJob's next run reads the new value by
 * itself, a running pod's environment only changes on a restart.
 */
export function workloadsReading(
  model: ClusterModel,
  kind: 'configmap' | 'secret',
  name: string,
  namespace: string | undefined,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const label = kind === 'secret' ? 'Secret' : 'ConfigMap';
  const inNs = (o: ObjectView) => !namespace || o.namespace === namespace;
  const pods = model.list('pod', namespace).filter((p) => inNs(p) && p.containers.length);
  const templates = WORKLOAD_KINDS.flatMap((k) => model.list(k, namespace)).filter(
    (w) => inNs(w) && w.containers.length,
  );
  if (!pods.length && !templates.length)
    return `I could not read the containers of the workloads${where} with the tools available.`;
  const users = new Map<
    string,
    { kind: string; name: string; how: Set<string>; pods: number; live: number }
  >();
  const note = (k: string, n: string, how: string[], pod?: ObjectView) => {
    const key = `${k}/${n}`;
    const u = users.get(key) ?? { kind: k, name: n, how: new Set<string>(), pods: 0, live: 0 };
    for (const h of how) u.how.add(h);
    if (pod) {
      u.pods++;
      if (!hasFinished(pod)) u.live++;
    }
    users.set(key, u);
  };
  for (const w of templates) {
    // a CronJob's Jobs are counted under the CronJob
    if (w.kind === 'job' && model.workloadOf(w).kind.toLowerCase() === 'cronjob') continue;
    const how = readsOf(w, kind, name);
    if (how.length) note(w.kind, w.name, how);
  }
  for (const p of pods) {
    const how = readsOf(p, kind, name);
    if (!how.length) continue;
    let w = model.workloadOf(p);
    // a CronJob's Job that was not read itself: its name is <cronjob>-<scheduled minute>
    const cron = w.kind === 'job' ? /^(.+)-\d{8,}$/.exec(w.name)?.[1] : undefined;
    if (cron && model.get('cronjob', cron, p.namespace)) w = { kind: 'cronjob', name: cron };
    note(w.kind, w.name, how, p);
  }
  const list = [...users.values()];
  // "shop-feature-flags-v1" is another ConfigMap: said apart, so nobody counts it in
  const similar = [
    ...new Set(
      [...pods, ...templates].flatMap((o) =>
        o.containers
          .flatMap((c) => c.envRefs)
          .map((r) => new RegExp(`${kind} (\\S+)`).exec(r)?.[1])
          .concat(kind === 'configmap' ? (o.fields['configMaps'] ?? '').split(',') : [])
          .filter((n): n is string => !!n && n !== name && n.startsWith(name))
          .map((n) => `${model.workloadOf(o).name} reads ${n}`),
      ),
    ),
  ];
  const seen = `${templates.length} workload template(s) and ${pods.length} pod(s) read: env, envFrom and volumes`;
  if (!list.length)
    return `No workload${where} reads the ${label} ${name} (${seen}).${similar.length ? ` Similarly named, not the same ${label}: ${similar.slice(0, 4).join('; ')}.` : ''}`;
  const running = list.filter((u) => u.kind !== 'cronjob' && u.kind !== 'job');
  const scheduled = list.filter((u) => u.kind === 'cronjob' || u.kind === 'job');
  const text = (u: (typeof list)[number]) =>
    `${KIND_LABEL[u.kind] ?? u.kind} ${u.name} (${[...u.how].join(', ')}${u.pods && u.kind !== 'cronjob' && u.kind !== 'job' ? `; ${u.live} running pod${u.live === 1 ? '' : 's'}` : ''})`;
  const envOnly = running.filter((u) => [...u.how].some((h) => /^env/.test(h)));
  const volumeOnly = running.filter((u) => !envOnly.includes(u));
  return (
    `${list.length} workload${list.length === 1 ? '' : 's'}${where} read${list.length === 1 ? 's' : ''} the ${label} ${name}: ${list.map(text).join(', ')}.` +
    (envOnly.length
      ? ` ${envOnly.map((u) => u.name).join(', ')} read${envOnly.length === 1 ? 's' : ''} it into the environment, which a running container keeps until it restarts (kubectl rollout restart).`
      : '') +
    (volumeOnly.length
      ? ` ${volumeOnly.map((u) => u.name).join(', ')} mount${volumeOnly.length === 1 ? 's' : ''} it as files, which the kubelet updates in place (not through a subPath) — the app must re-read them.`
      : '') +
    (scheduled.length
      ? ` ${scheduled.map((u) => `${KIND_LABEL[u.kind]} ${u.name}`).join(', ')}: the next run reads the new value by itself.`
      : '') +
    (similar.length
      ? ` Similarly named, not the same ${label}: ${similar.slice(0, 4).join('; ')}.`
      : '')
  );
}

const day = 86_400_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const inDays = (ms: number) => {
  const d = Math.round(ms / day);
  return d === 0
    ? 'today'
    : d > 0
      ? `in ${d} day${d === 1 ? '' : 's'}`
      : `${-d} day${d === -1 ? '' : 's'} ago`;
};

/** the end of a wrapped error, where its decisive words are ("...: CSR contains a weak key") */
const tail = (m: string, n: number) => (m.length > n ? `…${m.slice(-n)}` : m);

/** a Certificate's renewal, as its Issuing condition and renewalTime say */
function renewalState(c: ObjectView, now: number): string {
  const issuing = c.conditions.find((x) => x.type === 'Issuing');
  const ready = c.conditions.find((x) => x.type === 'Ready');
  const renewal = Date.parse(c.fields['renewalTime'] ?? '');
  if (issuing?.status === 'False')
    return `renewal FAILING (Issuing=False${issuing.reason ? ` ${issuing.reason}` : ''}${issuing.at ? ` since ${date(issuing.at)}` : ''}: "${tail(issuing.message ?? '', 220)}")`;
  if (issuing?.status === 'True')
    return `renewing now (Issuing=True${issuing.reason ? ` ${issuing.reason}` : ''})`;
  if (ready?.status === 'False')
    return `not Ready (${ready.reason ?? ''}: "${clip(ready.message ?? '', 160)}")`;
  if (Number.isFinite(renewal))
    return renewal > now
      ? `healthy, cert-manager renews it on ${date(renewal)} (${inDays(renewal - now)})`
      : `renewal was due on ${date(renewal)} and has not happened`;
  return 'renewal time unknown';
}

/**
 * "which TLS certificates expire in the next 30 days, and is cert-manager renewing them?": the
 * Certificates whose notAfter falls before now + the window, each with its renewal state.
 */
export function certificatesExpiring(
  model: ClusterModel,
  namespace: string | undefined,
  within: number,
  now: number,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const certs = model
    .list('certificate', namespace)
    .filter((c) => c.kind === 'certificate' && (!namespace || c.namespace === namespace));
  if (!certs.length) return `I could not list any Certificates${where} with the tools available.`;
  const end = now + within;
  const dated = certs
    .map((c) => ({ c, at: Date.parse(c.fields['notAfter'] ?? '') }))
    .filter((x) => Number.isFinite(x.at));
  const unknown = certs.filter((c) => !dated.some((x) => x.c === c));
  const hits = dated.filter((x) => x.at <= end).sort((a, b) => a.at - b.at);
  const later = dated.filter((x) => x.at > end).sort((a, b) => a.at - b.at);
  const days = Math.round(within / day);
  const head = hits.length
    ? `${hits.length} of ${certs.length} Certificate${certs.length === 1 ? '' : 's'}${where} expire${hits.length === 1 ? 's' : ''} within ${days} days (by ${date(end)}): ${hits
        .map(
          (x) =>
            `${x.c.name} (notAfter ${date(x.at)}, ${x.at < now ? 'EXPIRED' : inDays(x.at - now)}; ${renewalState(x.c, now)})`,
        )
        .join('; ')}.`
    : `No Certificate${where} expires within ${days} days (by ${date(end)}; ${certs.length} read).`;
  return (
    head +
    (later.length ? ` Later: ${later.map((x) => `${x.c.name} (${date(x.at)})`).join(', ')}.` : '') +
    (unknown.length ? ` Expiry not read for ${unknown.map((c) => c.name).join(', ')}.` : '')
  );
}

/** "v1.30.8-eks-2d9ed2f" -> [1, 30, 8] */
function versionParts(v: string): number[] {
  return (/(\d+)\.(\d+)(?:\.(\d+))?/.exec(v) ?? []).slice(1).map((x) => Number(x ?? 0));
}

function compareVersions(a: string, b: string): number {
  const x = versionParts(a);
  const y = versionParts(b);
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

const NODE_GROUP_LABELS = [
  'eks.amazonaws.com/nodegroup',
  'alpha.eksctl.io/nodegroup-name',
  'karpenter.sh/nodepool',
  'cloud.google.com/gke-nodepool',
  'agentpool',
  'kubernetes.azure.com/agentpool',
  'node.kubernetes.io/instance-type',
];

/**
 * "which nodes still run an older kubelet?": the nodes by kubelet version; older than the
 * version the message names (its minor), else than the newest seen.
 */
export function kubeletVersions(model: ClusterModel, target: string | undefined): string {
  const nodes = model.list('node');
  if (!nodes.length) return 'I could not list the nodes with the tools available.';
  const known = nodes.filter((n) => n.fields['kubeletVersion']);
  if (!known.length)
    return `I could not read the kubelet version of the ${nodes.length} nodes with the tools available.`;
  const versions = [...new Set(known.map((n) => n.fields['kubeletVersion']!))].sort(
    compareVersions,
  );
  const newest = versions[versions.length - 1]!;
  const [tMajor, tMinor] = target ? versionParts(target) : versionParts(newest);
  const older = known.filter((n) => {
    const [a, b] = versionParts(n.fields['kubeletVersion']!);
    return target
      ? (a ?? 0) < (tMajor ?? 0) || ((a ?? 0) === tMajor && (b ?? 0) < (tMinor ?? 0))
      : compareVersions(n.fields['kubeletVersion']!, newest) < 0;
  });
  const rest = known.filter((n) => !older.includes(n));
  const describeNode = (n: ObjectView) => {
    const group = NODE_GROUP_LABELS.map((l) => n.labels[l]).find(Boolean);
    const notes = [
      n.fields['kubeletVersion'],
      group ? `group ${group}` : '',
      isCordoned(n) ? 'cordoned' : '',
      n.status && !/^Ready/.test(n.status) ? n.status : '',
      (n.fields['taints'] ?? '')
        .split(',')
        .filter((t) => t && !/^node\.kubernetes\.io\//.test(t))
        .map((t) => `taint ${t}`)
        .join(', '),
    ].filter(Boolean);
    return `${n.name} (${notes.join(', ')})`;
  };
  const goal = target ? `v${target}` : newest;
  const restVersions = [...new Set(rest.map((n) => n.fields['kubeletVersion']!))].join(', ');
  const unread = nodes.length - known.length;
  return (
    (older.length
      ? `${older.length} of ${nodes.length} nodes still run a kubelet older than ${goal}: ${older.map(describeNode).join('; ')}.`
      : `Every node whose version was read runs ${goal} or newer (${known.length} of ${nodes.length}).`) +
    (older.length && rest.length ? ` The other ${rest.length} run ${restVersions}.` : '') +
    (unread ? ` Version not read for ${unread} node${unread === 1 ? '' : 's'}.` : '')
  );
}

/** bytes as the largest binary unit that keeps it readable ("1200Gi", "1.17Ti") */
function size(bytes: number): string {
  const gi = bytes / 1024 ** 3;
  if (gi >= 1024) return `${Math.round(gi)}Gi (${Math.round((gi / 1024) * 100) / 100}Ti)`;
  if (gi >= 1) return `${Math.round(gi * 10) / 10}Gi`;
  return `${Math.round(bytes / 1024 ** 2)}Mi`;
}

const PHASE_MEANS: Record<string, string> = {
  Released: 'their claims deleted, the volumes kept',
  Available: 'bound to no claim',
};

/**
 * "which PVs are sitting in Released, and how much storage is that?": the PersistentVolumes in
 * the phase, each with the claim it was bound to, size, class and reclaim policy; the total.
 */
export function volumesByPhase(model: ClusterModel, phase: string): string {
  const pvs = model.list('persistentvolume');
  if (!pvs.length) return 'I could not list the PersistentVolumes with the tools available.';
  const hits = pvs.filter((v) => v.status === phase);
  const counts = new Map<string, number>();
  for (const v of pvs)
    counts.set(v.status ?? 'unknown', (counts.get(v.status ?? 'unknown') ?? 0) + 1);
  const others = [...counts.entries()]
    .filter(([s]) => s !== phase)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
  if (!hits.length)
    return `No PersistentVolume is ${phase} (${pvs.length} read${others ? `: ${others}` : ''}).`;
  const total = hits.reduce(
    (a, v) => a + quantity(v.fields['capacity'] ?? v.fields['Capacity']),
    0,
  );
  const unsized = hits.filter((v) => !(v.fields['capacity'] ?? v.fields['Capacity']));
  const policies = [...new Set(hits.map((v) => v.fields['reclaimPolicy']).filter(Boolean))];
  const text = (v: ObjectView) =>
    `${v.name} (${[
      v.fields['capacity'] ?? v.fields['Capacity'],
      v.fields['storageClassName'],
      v.fields['reclaimPolicy'] ? `reclaim ${v.fields['reclaimPolicy']}` : '',
      v.fields['claim']
        ? `${phase === 'Released' ? 'was claim' : 'claim'} ${v.fields['claim']}`
        : '',
    ]
      .filter(Boolean)
      .join(', ')})`;
  return (
    `${hits.length} of ${pvs.length} PersistentVolumes are ${phase}${PHASE_MEANS[phase] ? ` (${PHASE_MEANS[phase]})` : ''}, ${size(total)} in total${unsized.length ? ` (size not read for ${unsized.length})` : ''}: ${hits.map(text).join('; ')}.` +
    (phase === 'Released' && policies.includes('Retain')
      ? ' With reclaim policy Retain nothing deletes them: their disks are still billed until the PVs and the disks behind them are deleted (or re-bound by clearing claimRef).'
      : '') +
    (others ? ` The others: ${others}.` : '')
  );
}
