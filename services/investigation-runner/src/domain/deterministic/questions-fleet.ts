import { eventsAbout, schedulerSays, schedulerVerdict, termination } from './questions-activity';
import { clip } from './text';
import { isCordoned, type ClusterModel } from './model';
import type { ObjectView } from './observe';

/**
 * Answers to questions about how the cluster is laid out and what runs unmanaged or degraded
 * (scope.ts fleetQuestion): nodes per zone and instance type, pods no controller owns, the hosts
 * Ingresses serve with their TLS Secrets, workloads with fewer ready replicas than desired.
 */

/** the well-known topology labels, newest first (the beta ones came before Kubernetes 1.17) */
export const ZONE_LABELS = [
  'topology.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/zone',
];
export const INSTANCE_TYPE_LABELS = [
  'node.kubernetes.io/instance-type',
  'beta.kubernetes.io/instance-type',
];
/** labels cloud providers and autoscalers put on spot / on-demand nodes */
const CAPACITY_LABELS = [
  'karpenter.sh/capacity-type',
  'eks.amazonaws.com/capacityType',
  'node.kubernetes.io/lifecycle',
  'kubernetes.azure.com/scalesetpriority',
  'cloud.google.com/gke-spot',
  'cloud.google.com/gke-preemptible',
];

const labelOf = (o: ObjectView, keys: string[]) =>
  keys.map((k) => o.labels[k]).find((v) => v !== undefined && v !== '');

/** a node's zone: its topology label, else the zone its provider ID names (aws:///eu-west-1a/i-x) */
export function zoneOf(n: ObjectView): string | undefined {
  const label = labelOf(n, ZONE_LABELS);
  if (label) return label;
  const id = n.fields['providerID'] ?? '';
  return (
    /^aws:\/\/\/([a-z]{2}-[a-z]+-\d[a-z])\//.exec(id)?.[1] ??
    /^gce:\/\/[^/]+\/([a-z]+-[a-z]+\d-[a-z])\//.exec(id)?.[1]
  );
}

/** spot / on-demand, when a label says it */
function capacityOf(n: ObjectView): string | undefined {
  for (const k of CAPACITY_LABELS) {
    const v = n.labels[k];
    if (v === undefined) continue;
    if (k.startsWith('cloud.google.com/')) {
      if (v === 'true') return k.endsWith('spot') ? 'spot' : 'preemptible';
      continue;
    }
    if (/spot/i.test(v)) return 'spot';
    if (/on[-_ ]?demand|regular|normal/i.test(v)) return 'on-demand';
    return v.toLowerCase();
  }
  return undefined;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 m6i.xlarge, 1 r6i.2xlarge", most first */
function tally(values: string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** "how many nodes per zone and per instance type?" */
export function nodeTopology(model: ClusterModel): string {
  const nodes = model.list('node');
  if (!nodes.length) return 'I could not list the nodes with the tools available.';
  const read = nodes.filter((n) => Object.keys(n.labels).length || n.fields['providerID']);
  if (!read.length)
    return `${plural(nodes.length, 'node')} seen, but the tools showed none of their labels (topology.kubernetes.io/zone, node.kubernetes.io/instance-type), so I cannot say how they spread across zones and instance types.`;
  const typeOf = (n: ObjectView) => labelOf(n, INSTANCE_TYPE_LABELS);
  const zones = tally(read.map((n) => zoneOf(n) ?? '(no zone label)'));
  const perZone = zones
    .map(([z, count]) => {
      const types = tally(
        read
          .filter((n) => (zoneOf(n) ?? '(no zone label)') === z)
          .map((n) => typeOf(n) ?? 'unknown type'),
      );
      return `${z}: ${count} (${types.map(([t, c]) => `${c} ${t}`).join(', ')})`;
    })
    .join('; ');
  const types = tally(read.map((n) => typeOf(n) ?? '(no instance-type label)'));
  const capacities = read.map(capacityOf);
  const capacity = capacities.some(Boolean)
    ? ` By capacity type: ${tally(capacities.map((c) => c ?? 'unlabelled'))
        .map(([c, k]) => `${k} ${c}`)
        .join(', ')}${
        read.some((n) => capacityOf(n) === 'spot' || capacityOf(n) === 'preemptible')
          ? ` (${read
              .filter((n) => capacityOf(n) === 'spot' || capacityOf(n) === 'preemptible')
              .map((n) => `${n.name}, ${typeOf(n) ?? '?'} in ${zoneOf(n) ?? '?'}`)
              .join('; ')})`
          : ''
      }.`
    : '';
  const unwell = read.filter((n) => (n.status && n.status !== 'Ready') || isCordoned(n));
  const notes = `${
    unwell.length
      ? ` Not schedulable or not Ready: ${unwell.map((n) => `${n.name} [${n.status ?? '?'}]`).join(', ')}.`
      : ''
  }${
    read.length < nodes.length
      ? ` The labels of ${plural(nodes.length - read.length, 'node')} were not shown: ${nodes
          .filter((n) => !read.includes(n))
          .map((n) => n.name)
          .join(', ')}.`
      : ''
  }`;
  return `${plural(read.length, 'node')} across ${plural(zones.length, 'zone')} (topology.kubernetes.io/zone) and ${plural(types.length, 'instance type')} (node.kubernetes.io/instance-type). Per zone: ${perZone}. Per instance type: ${types
    .map(([t, c]) => `${t} ${c}`)
    .join(', ')}.${capacity}${notes}`;
}

/** the controller labels set on the pods they create (a hint when the owner was not read) */
const CONTROLLER_LABELS: [string, string][] = [
  ['pod-template-hash', 'a ReplicaSet'],
  ['controller-revision-hash', 'a StatefulSet or DaemonSet'],
  ['batch.kubernetes.io/job-name', 'a Job'],
  ['job-name', 'a Job'],
];

/** "which pods are not managed by any controller?": pods without ownerReferences */
export function barePods(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const pods = model
    .list('pod', namespace)
    .filter((p) => p.kind === 'pod' && (!namespace || p.namespace === namespace));
  if (!pods.length) return `I could not list the pods${where} with the tools available.`;
  const ownerOf = (p: ObjectView) =>
    p.owner
      ? `${p.owner.kind} ${p.owner.name}`
      : p.fields['ownedBy'] && p.fields['ownedBy'] !== 'none'
        ? p.fields['ownedBy'].replace('/', ' ')
        : undefined;
  const bare = pods.filter((p) => !p.owner && p.fields['ownedBy'] === 'none');
  const owned = pods.filter((p) => ownerOf(p));
  const unknown = pods.filter((p) => !bare.includes(p) && !owned.includes(p));
  const hinted = unknown.filter((p) => CONTROLLER_LABELS.some(([k]) => p.labels[k] !== undefined));
  const unread = unknown.filter((p) => !hinted.includes(p));
  const byOwner = new Map<string, number>();
  for (const p of owned) {
    const w = model.workloadOf(p);
    const o = ownerOf(p)!;
    const label = w.name !== p.owner?.name && w.kind !== 'pod' ? `${o} (${w.kind} ${w.name})` : o;
    byOwner.set(label, (byOwner.get(label) ?? 0) + 1);
  }
  const managed = owned.length
    ? ` Managed by a controller: ${[...byOwner].map(([o, c]) => `${c} by ${o}`).join(', ')}.`
    : '';
  const tail = `${managed}${
    hinted.length
      ? ` Not read, but labelled by a controller: ${hinted
          .map(
            (p) => `${p.name} (${CONTROLLER_LABELS.find(([k]) => p.labels[k] !== undefined)![1]})`,
          )
          .join(', ')}.`
      : ''
  }${
    unread.length
      ? ` Whether ${unread.map((p) => p.name).join(', ')} ${unread.length === 1 ? 'has' : 'have'} an owner was not shown.`
      : ''
  }`;
  if (!bare.length)
    return `No pod${where} is unmanaged: every pod read has an owner (${pods.length} pods seen).${tail}`;
  const age = (p: ObjectView) =>
    p.created !== undefined ? `, created ${new Date(p.created).toISOString()}` : '';
  return `${bare.length} of the ${pods.length} pods${where} ${bare.length === 1 ? 'is' : 'are'} not managed by any controller (no ownerReferences): ${bare
    .map(
      (p) =>
        `${p.name} (${p.status ?? 'status not shown'}${age(p)}${p.node ? `, on ${p.node}` : ''})`,
    )
    .join(
      ', ',
    )}. Nothing recreates ${bare.length === 1 ? 'it' : 'them'} if ${bare.length === 1 ? 'it is' : 'they are'} deleted, evicted or drained off ${bare.length === 1 ? 'its' : 'their'} node.${tail}`;
}

interface TlsEntry {
  secret: string;
  hosts: string[];
}

/**
 * "which hosts do the Ingresses serve, and which TLS Secret does each use?"; `missing`: "which
 * Ingresses have no TLS?", those without first (counted and named), then the others briefly.
 */
export function ingressHostsAndTls(
  model: ClusterModel,
  namespace: string | undefined,
  missing = false,
): string {
  if (missing) return ingressesWithoutTls(model, namespace);
  const where = namespace ? ` in namespace ${namespace}` : '';
  const ingresses = ingressesIn(model, namespace);
  if (!ingresses.length) return `I could not list any Ingress${where} with the tools available.`;
  const secrets = new Set(
    model
      .list('secret', namespace)
      .filter((s) => !namespace || s.namespace === namespace)
      .map((s) => s.name),
  );
  const unread: string[] = [];
  const parts: string[] = [];
  let hostCount = 0;
  const plain: string[] = [];
  for (const ing of ingresses) {
    const tls = tlsEntries(ing);
    const hosts = (ing.fields['hosts'] ?? '').split(',').filter(Boolean);
    for (const t of tls ?? []) for (const h of t.hosts) if (!hosts.includes(h)) hosts.push(h);
    if (!tls) {
      unread.push(
        `${ing.name}${hosts.length ? ` (${hosts.join(', ')}${ing.fields['tlsSecrets'] ? `; TLS Secrets ${ing.fields['tlsSecrets']}` : ''})` : ''}`,
      );
      continue;
    }
    hostCount += hosts.length;
    // hosts grouped by the Secret that terminates them
    const bySecret = new Map<string, string[]>();
    for (const h of hosts) {
      const entry = tls.find((t) => t.hosts.includes(h)) ?? tls.find((t) => !t.hosts.length);
      const key = entry
        ? entry.secret || '(no secretName: the controller default certificate)'
        : '';
      bySecret.set(key, [...(bySecret.get(key) ?? []), h]);
      if (!entry) plain.push(h);
    }
    const said = [...bySecret]
      .map(([secret, hs]) => {
        const names = hs.map((h) => (h === '*' ? 'any host (no host rule)' : h)).join(' and ');
        if (!secret) return `${names} without TLS (no spec.tls entry: plain HTTP)`;
        const missing = secrets.size && !secret.startsWith('(') && !secrets.has(secret);
        return `${names} with TLS Secret ${secret}${missing ? ' (not found in the namespace)' : ''}`;
      })
      .join('; ');
    parts.push(`Ingress ${ing.name} serves ${said || 'no host'}`);
  }
  const out = parts.length
    ? `${plural(parts.length, 'Ingress', 'Ingresses')}${where} serve ${plural(hostCount, 'host')}: ${parts.join('. ')}.${
        plain.length
          ? ` ${plain.length === 1 ? 'Host' : 'Hosts'} without TLS: ${plain.join(', ')}.`
          : ' Every host has TLS.'
      }`
    : '';
  return `${out}${
    unread.length ? `${out ? ' ' : ''}The TLS section of ${unread.join('; ')} was not shown.` : ''
  }`.trim();
}

/** an Ingress's spec.tls entries as read (undefined when they were not shown, or unreadable) */
function tlsEntries(ing: ObjectView): TlsEntry[] | undefined {
  try {
    return ing.fields['tls'] !== undefined
      ? (JSON.parse(ing.fields['tls']) as TlsEntry[])
      : undefined;
  } catch {
    return undefined;
  }
}

/** an Ingress's TLS entries (undefined when its TLS section was not shown) and its hosts */
function tlsOf(ing: ObjectView): { tls?: TlsEntry[]; hosts: string[] } {
  let tls = tlsEntries(ing);
  // a description shows the TLS Secrets only ("TLS: web-tls terminates a, b")
  if (!tls && ing.fields['tlsSecrets'] !== undefined)
    tls = ing.fields['tlsSecrets']
      .split(',')
      .filter(Boolean)
      .map((secret) => ({ secret, hosts: [] }));
  const hosts = (ing.fields['hosts'] ?? '').split(',').filter(Boolean);
  return { tls, hosts };
}

/** a namespace's Ingresses (every namespace's when none), by name */
function ingressesIn(model: ClusterModel, namespace: string | undefined): ObjectView[] {
  return model
    .list('ingress', namespace)
    .filter((i) => !namespace || i.namespace === namespace)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * "which Ingresses have no TLS?": per Ingress of the namespace, whether its spec.tls terminates
 * its hosts. One with no TLS entry serves plain HTTP (an ssl-redirect annotation alone gives it
 * no certificate); one whose entries leave some hosts out is said apart.
 */
function ingressesWithoutTls(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const ingresses = ingressesIn(model, namespace);
  if (!ingresses.length) return `I could not list any Ingress${where} with the tools available.`;
  const label = (i: ObjectView) =>
    namespace || !i.namespace ? i.name : `${i.namespace}/${i.name}`;
  const none: string[] = [];
  const partial: string[] = [];
  const full: string[] = [];
  const unread: string[] = [];
  for (const ing of ingresses) {
    const { tls, hosts } = tlsOf(ing);
    const on = hosts.length
      ? ` (${hosts.map((h) => (h === '*' ? 'any host' : h)).join(', ')})`
      : '';
    if (!tls) {
      unread.push(`${label(ing)}${on}`);
      continue;
    }
    if (!tls.length) {
      none.push(`${label(ing)}${on}`);
      continue;
    }
    // an entry without hosts covers the rule without a host (the default certificate's)
    const covered = (h: string) =>
      tls.some((t) => t.hosts.includes(h) || (!t.hosts.length && (h === '*' || hosts.length <= 1)));
    const plain = tls.some((t) => t.hosts.length) ? hosts.filter((h) => !covered(h)) : [];
    const secrets = [...new Set(tls.map((t) => t.secret || 'the default certificate'))];
    if (plain.length)
      partial.push(
        `${label(ing)} (TLS Secret ${secrets.join(', ')} for ${hosts.filter(covered).join(', ') || 'no host of its rules'}, but not for ${plain.join(', ')})`,
      );
    else full.push(`${label(ing)} (${secrets.join(', ')})`);
  }
  const known = ingresses.length - unread.length;
  const n = none.length;
  const head = n
    ? `${n} of the ${plural(ingresses.length, 'Ingress', 'Ingresses')}${where} ${n === 1 ? 'has' : 'have'} no TLS (no spec.tls entry, so ${n === 1 ? 'it serves' : 'they serve'} plain HTTP only; an ssl-redirect annotation gives no certificate): ${none.join(', ')}.`
    : known
      ? `No Ingress${where} is without TLS: ${partial.length ? 'each has a spec.tls entry' : `all ${plural(known, 'Ingress', 'Ingresses')} read have spec.tls`}.`
      : '';
  const parts = [
    head,
    partial.length
      ? `${plural(partial.length, 'Ingress', 'Ingresses')} ${partial.length === 1 ? 'has' : 'have'} TLS for some hosts only: ${partial.join('; ')}.`
      : '',
    full.length ? `With TLS: ${full.join(', ')}.` : '',
    unread.length
      ? `The TLS section of ${unread.join(', ')} was not shown, so ${unread.length === 1 ? 'it is' : 'they are'} not counted.`
      : '',
  ];
  return parts.filter(Boolean).join(' ');
}

const timeOf = (ms: number, now: number) => {
  const d = new Date(ms).toISOString();
  const mins = Math.max(0, Math.round((now - ms) / 60_000));
  const ago =
    mins >= 1440
      ? `${Math.floor(mins / 1440)} d ${Math.floor((mins % 1440) / 60)} h`
      : mins >= 60
        ? `${Math.floor(mins / 60)} h ${mins % 60} min`
        : `${mins} min`;
  return `${d.slice(0, 10)} ${d.slice(11, 19)} UTC, ${ago} ago`;
};

/** desired and ready replicas of a Deployment or StatefulSet, from whatever the tools showed */
export function replicaCounts(o: ObjectView): { desired?: number; ready?: number } {
  const listed = /^(\d+)\/(\d+)$/.exec(o.fields['ready'] ?? '');
  const n = (k: string) => (o.fields[k] !== undefined ? Number(o.fields[k]) : undefined);
  const desired = n('replicas') ?? (listed ? Number(listed[2]) : undefined) ?? n('status.replicas');
  // read whole: status.readyReplicas is left out when none is ready
  const whole = o.fields['replicas'] !== undefined && o.conditions.some((c) => c.at !== undefined);
  const ready =
    n('status.readyReplicas') ??
    (listed ? Number(listed[1]) : undefined) ??
    (whole ? 0 : n('status.availableReplicas'));
  return { desired, ready };
}

/** the pods of a workload (their ReplicaSet's owner, else their name) */
export function podsOfWorkload(model: ClusterModel, w: ObjectView): ObjectView[] {
  return model
    .list('pod', w.namespace)
    .filter((p) => p.namespace === w.namespace && model.workloadOf(p).name === w.name);
}

/** a pod not running and ready (its listing's READY "0/1", its containers, its Ready condition) */
export function unreadyPod(p: ObjectView): boolean {
  const listed = /^(\d+)\/(\d+)$/.exec(p.fields['ready'] ?? '');
  return (
    (p.status !== undefined && p.status !== 'Running') ||
    (listed !== null && Number(listed[1]) < Number(listed[2])) ||
    p.containers.some((c) => !c.init && c.ready === false) ||
    p.conditions.some((c) => c.type === 'Ready' && c.status === 'False')
  );
}
const unready = unreadyPod;

/** when the workload fell below its desired count: its conditions, else its unready pods */
function belowSince(model: ClusterModel, w: ObjectView, now: number): { at?: number; how: string } {
  const cond = (type: string) =>
    w.conditions.find((c) => c.type === type && c.status === 'False' && c.at !== undefined);
  const available = cond('Available');
  if (available)
    return {
      at: available.at,
      how: `Available=False${available.reason ? ` (${available.reason})` : ''}`,
    };
  const progressing = cond('Progressing');
  if (progressing)
    return {
      at: progressing.at,
      how: `Progressing=False${progressing.reason ? ` (${progressing.reason})` : ''}`,
    };
  const pods = podsOfWorkload(model, w).filter(unready);
  const podTimes = pods
    .map((p) => {
      const ready = p.conditions.find((c) => c.type === 'Ready' && c.status === 'False');
      if (ready?.at !== undefined) return { at: ready.at, how: `pod ${p.name} not Ready` };
      if (p.created !== undefined && p.status === 'Pending')
        return { at: p.created, how: `pod ${p.name} Pending since created` };
      const warn = model.events
        .filter((e) => e.object?.name === p.name && e.type === 'Warning' && e.first !== undefined)
        .sort((a, b) => a.first! - b.first!)[0];
      if (warn) return { at: warn.first, how: `pod ${p.name}'s first ${warn.reason ?? 'warning'}` };
      return undefined;
    })
    .filter((x): x is { at: number; how: string } => !!x)
    .sort((a, b) => a.at - b.at);
  void now;
  return podTimes[0] ?? { how: 'since when was not shown' };
}

/**
 * Why a workload's pod is not running and ready: not scheduled (the scheduler's message), a
 * container waiting (CrashLoopBackOff with how it last ended: OOMKilled at its limit, an exit code
 * and the last error it logged; an image it cannot pull; a volume it cannot mount), or running
 * but failing its readiness probe.
 */
export function whyUnready(model: ClusterModel, p: ObjectView, now: number): string {
  const scheduled = p.conditions.find((c) => c.type === 'PodScheduled');
  const warnings = eventsAbout(model, p).filter((e) => e.type === 'Warning');
  if (p.status === 'Pending' && (!p.node || scheduled?.status === 'False')) {
    const said = schedulerSays(model, p);
    const verdict = said ? schedulerVerdict(said, p) : undefined;
    if (said)
      return `Pending, not scheduled: the scheduler says "${clip(said.replace(/\s*preemption:.*$/is, ''), 240)}"${verdict ? ` (${verdict})` : ''}`;
  }
  const c =
    p.containers.find((x) => !x.init && (x.waiting || x.terminated) && x.ready !== true) ??
    p.containers.find(
      (x) => x.init && (x.waiting || (x.terminated && x.terminated.exitCode !== 0)),
    );
  const what = c ? `${c.init ? 'init container' : 'container'} ${c.name}` : '';
  if (c?.waiting?.reason && /CrashLoopBackOff|^Error$|RunContainerError/.test(c.waiting.reason))
    return `${c.waiting.reason} (${what}, ${c.restarts ?? p.restarts ?? '?'} restarts), ${termination(model, p, c, now)}`;
  if (c?.waiting?.reason && /ImagePull|ErrImage|InvalidImageName/.test(c.waiting.reason))
    return `${c.waiting.reason} (${what}${c.image ? `, image ${c.image}` : ''})${c.waiting.message ? `: "${clip(c.waiting.message, 200)}"` : ''}`;
  if (c?.waiting?.reason || (p.status && p.status !== 'Running')) {
    const warn = warnings[0];
    const reason = c?.waiting?.reason ?? p.status;
    return `${reason}${what ? ` (${what})` : ''}${c?.waiting?.message ? `: "${clip(c.waiting.message, 200)}"` : ''}${warn ? `; its newest warning: ${warn.reason ?? 'Warning'} "${clip(warn.message, 200)}"` : ''}`;
  }
  if (c?.terminated) return `${what} ${termination(model, p, { ...c, last: c.terminated }, now)}`;
  const probe = warnings.find(
    (e) =>
      /readiness probe|^Unhealthy$/i.test(`${e.reason}`) ||
      /readiness probe failed/i.test(e.message),
  );
  return `Running but not Ready${probe ? `: "${clip(probe.message, 200)}"` : " (its readiness probe fails or a container is not ready; the probe's message was not shown)"}`;
}

/** the ordinals of a StatefulSet below its desired count that have no pod at all */
function missingOrdinals(model: ClusterModel, w: ObjectView, desired: number): string[] {
  if (w.kind !== 'statefulset') return [];
  const pods = model.list('pod', w.namespace).filter((p) => p.namespace === w.namespace);
  if (!pods.length) return [];
  const names = new Set(pods.map((p) => p.name));
  return Array.from({ length: Math.min(desired, 50) }, (_, i) => `${w.name}-${i}`).filter(
    (n) => !names.has(n),
  );
}

/** "which deployments have fewer ready replicas than desired, and since when?" */
export function underReplicated(
  model: ClusterModel,
  kind: string,
  namespace: string | undefined,
  now: number,
  why = false,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const what = kind === 'statefulset' ? 'StatefulSet' : 'Deployment';
  const all = model
    .list(kind, namespace)
    .filter((o) => o.kind === kind && (!namespace || o.namespace === namespace));
  if (!all.length) return `I could not list the ${what}s${where} with the tools available.`;
  const counted = all.map((o) => ({ o, ...replicaCounts(o) }));
  const below = counted
    .filter((x) => x.desired !== undefined && x.ready !== undefined && x.ready < x.desired)
    .sort((a, b) => a.o.name.localeCompare(b.o.name));
  const unknown = counted.filter((x) => x.desired === undefined || x.ready === undefined);
  const scaledToZero = counted.filter((x) => x.desired === 0).map((x) => x.o.name);
  const tail = `${
    scaledToZero.length ? ` Scaled to 0 (not below desired): ${scaledToZero.join(', ')}.` : ''
  }${
    unknown.length
      ? ` The ready count of ${unknown.map((x) => x.o.name).join(', ')} was not shown.`
      : ''
  }`;
  if (!below.length)
    return `Every ${what}${where} has as many ready replicas as desired (${all.length} read).${tail}`;
  return `${below.length} of the ${all.length} ${what}s${where} ${below.length === 1 ? 'has' : 'have'} fewer ready replicas than desired: ${below
    .map((x) => {
      const since = belowSince(model, x.o, now);
      const pods = podsOfWorkload(model, x.o).filter(unready);
      const when =
        since.at !== undefined ? `since ${timeOf(since.at, now)} (${since.how})` : `${since.how}`;
      if (why) {
        const absent = missingOrdinals(model, x.o, x.desired!);
        const reasons = [
          ...pods.map((p) => `${p.name}: ${whyUnready(model, p, now)}`),
          ...absent.map(
            (n) =>
              `${n}: no such pod (not created yet; a StatefulSet with OrderedReady creates each ordinal only once the one before is Ready)`,
          ),
        ];
        return `${x.o.name} ${x.ready}/${x.desired} ready, ${when}${reasons.length ? `. Why: ${reasons.join('; ')}` : '; which pods are missing was not shown'}`;
      }
      return `${x.o.name} ${x.ready}/${x.desired} ready, ${when}${pods.length ? `; unready: ${pods.map((p) => `${p.name} [${p.status ?? '?'}]`).join(', ')}` : ''}`;
    })
    .join('. ')}.${tail}`;
}

/**
 * a pod that no longer holds its node: Succeeded or Failed (Evicted is a Failed pod). A listing
 * prints a failed pod's container reason ("Error", "ContainerStatusUnknown"): one never restarted
 * has failed for good (a restarting one goes on to CrashLoopBackOff and still holds its node)
 */
const releasedNode = (p: ObjectView) =>
  /^(?:Succeeded|Completed|Failed|Evicted)$/.test(p.status ?? '') ||
  (/^(?:Error|ContainerStatusUnknown)$/.test(p.status ?? '') && !p.restarts);

/** a node's allocatable pods ("110"), when its status was read */
function maxPods(n: ObjectView): number | undefined {
  try {
    const a = JSON.parse(n.fields['allocatable'] ?? '{}') as Record<string, unknown>;
    const v = Number(a['pods']);
    return Number.isFinite(v) && v > 0 ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "which node runs the most pods?", "how many pods per node?": the pods that occupy each node
 * (bound to it and not finished: Running, or Pending there while their containers start), most
 * first. Finished pods (Succeeded/Failed) no longer hold the node and Pending pods not scheduled
 * have none: both are said apart. A node's description lists its non-terminated pods when the
 * pod listing shows no node.
 */
export function podsPerNode(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : ' across all namespaces';
  const nodes = model.list('node');
  const pods = model
    .list('pod', namespace)
    .filter((p) => p.kind === 'pod' && (!namespace || p.namespace === namespace));
  const key = (p: ObjectView) => `${p.namespace ?? ''}/${p.name}`;
  const perNode = new Map<string, Set<string>>();
  const add = (node: string, pod: string) => {
    const set = perNode.get(node) ?? new Set<string>();
    set.add(pod);
    perNode.set(node, set);
  };
  for (const n of nodes) perNode.set(n.name, new Set());
  for (const p of pods) if (p.node && !releasedNode(p)) add(p.node, key(p));
  // a node's "Non-terminated Pods" (described): the pods the listing did not place
  const placed = new Set(pods.filter((p) => p.node).map(key));
  for (const n of nodes)
    for (const k of (n.fields['pods'] ?? '').split(',').filter(Boolean))
      if ((!namespace || k.startsWith(`${namespace}/`)) && !placed.has(k)) add(n.name, k);
  const counted = [...perNode].filter(([, s]) => s.size).length;
  if (!counted)
    return pods.length
      ? `I could not see which node each pod${where} runs on: the ${plural(pods.length, 'pod')} listed showed no node, and no node's description listed its pods.`
      : `I could not list the pods${where} with the tools available.`;
  const ranked = [...perNode]
    .map(([node, s]) => ({ node, count: s.size }))
    .sort((a, b) => b.count - a.count || a.node.localeCompare(b.node));
  const top = ranked.filter((r) => r.count === ranked[0]!.count);
  const rest = ranked.filter((r) => !top.includes(r));
  // each node's allocatable pods, said once when every node allows the same
  const maxOf = new Map(nodes.map((n) => [n.name, maxPods(n)]));
  const maxes = new Set(ranked.map((r) => maxOf.get(r.node)));
  const same = maxes.size === 1 ? [...maxes][0] : undefined;
  const of = (node: string) => {
    const max = maxOf.get(node);
    return max && !same ? ` of ${max} allowed` : '';
  };
  const head = `${
    top.length === 1
      ? `${top[0]!.node} runs the most pods${where}: ${top[0]!.count}${of(top[0]!.node)}.`
      : `${top.map((r) => r.node).join(' and ')} run the most pods${where}: ${top[0]!.count} each.`
  }${same ? ` Each node allows ${same} pods.` : ''}`;
  const next = rest.length
    ? ` Next: ${rest.map((r) => `${r.node} ${r.count}${of(r.node)}`).join(', ')}.`
    : '';
  const finished = pods.filter((p) => p.node && releasedNode(p));
  const inCount = new Set([...perNode.values()].flatMap((s) => [...s]));
  // Pending without a node: not scheduled, when the listing shows the others' nodes
  const nodesShown = pods.some((p) => p.node);
  const unbound = pods.filter(
    (p) =>
      !p.node &&
      !inCount.has(key(p)) &&
      /^(?:Pending|SchedulingGated)$/.test(p.status ?? '') &&
      (nodesShown || p.conditions.some((c) => c.type === 'PodScheduled' && c.status === 'False')),
  );
  const unknown = pods.filter(
    (p) => !p.node && !releasedNode(p) && !unbound.includes(p) && !inCount.has(key(p)),
  );
  const notes = `${
    finished.length
      ? ` Not counted: ${plural(finished.length, 'finished pod')} (Succeeded/Failed, no longer holding ${finished.length === 1 ? 'its' : 'their'} node): ${finished
          .map((p) => `${p.name} [${p.status}] on ${p.node}`)
          .join(', ')}.`
      : ''
  }${
    unbound.length
      ? ` ${plural(unbound.length, 'Pending pod')} not scheduled to any node: ${unbound.map((p) => p.name).join(', ')}.`
      : ''
  }${
    unknown.length
      ? ` The node of ${plural(unknown.length, 'pod')} was not shown: ${unknown
          .slice(0, 8)
          .map((p) => p.name)
          .join(', ')}${unknown.length > 8 ? ', ...' : ''}.`
      : ''
  }`;
  return `${head}${next} Counted: the pods bound to each node that still occupy it (Running, or Pending there while starting).${notes}`;
}
