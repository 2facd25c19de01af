import type { EventView, LogView, MetricView, ObjectView, Observed } from './observe';
import type { ContainerView } from './observe/views';
import type { Subject } from './scope';

/** Everything a run has seen, merged: one view per object, events and logs deduplicated. */
export class ClusterModel {
  readonly objects = new Map<string, ObjectView>();
  readonly events: EventView[] = [];
  readonly logs: LogView[] = [];
  readonly metrics: MetricView[] = [];
  readonly texts: { text: string; source: string }[] = [];
  private readonly eventKeys = new Set<string>();
  private readonly logKeys = new Set<string>();

  static key(kind: string, name: string, namespace?: string) {
    return `${kind}/${namespace ?? ''}/${name}`;
  }

  add(o: Observed, source: string): void {
    for (const v of o.objects) this.addObject(v);
    for (const e of o.events) {
      const k = `${e.reason ?? ''}|${e.message}|${e.object?.name ?? ''}`;
      if (this.eventKeys.has(k)) {
        const prev = this.events.find(
          (x) => `${x.reason ?? ''}|${x.message}|${x.object?.name ?? ''}` === k,
        );
        if (prev) {
          prev.first = min(prev.first, e.first);
          prev.last = max(prev.last, e.last);
          prev.count = Math.max(prev.count ?? 0, e.count ?? 0) || undefined;
          prev.type ??= e.type;
          prev.namespace ??= e.namespace;
          if (prev.object && !prev.object.kind && e.object?.kind) prev.object.kind = e.object.kind;
        }
        continue;
      }
      this.eventKeys.add(k);
      this.events.push(e);
    }
    for (const l of o.logs) {
      const k = `${l.namespace ?? ''}/${l.pod ?? ''}/${l.container ?? ''}/${l.previous}/${l.lines.length}/${l.lines[l.lines.length - 1]?.text ?? ''}`;
      if (this.logKeys.has(k)) continue;
      this.logKeys.add(k);
      this.logs.push(l);
    }
    this.metrics.push(...o.metrics);
    for (const t of o.texts) if (this.texts.length < 500) this.texts.push({ text: t, source });
  }

  addObject(v: ObjectView): void {
    // objects seen without a namespace match one seen with it
    let key = ClusterModel.key(v.kind, v.name, v.namespace);
    if (!v.namespace) {
      const other = [...this.objects.values()].find((o) => o.kind === v.kind && o.name === v.name);
      if (other) key = ClusterModel.key(other.kind, other.name, other.namespace);
    } else if (!this.objects.has(key)) {
      const bare = ClusterModel.key(v.kind, v.name, undefined);
      const prev = this.objects.get(bare);
      if (prev) {
        this.objects.delete(bare);
        prev.namespace = v.namespace;
        this.objects.set(key, prev);
      }
    }
    const prev = this.objects.get(key);
    if (!prev) {
      this.objects.set(key, v);
      return;
    }
    prev.namespace ??= v.namespace;
    prev.status = v.status ?? prev.status;
    prev.reason = v.reason ?? prev.reason;
    prev.message = v.message ?? prev.message;
    prev.restarts = v.restarts ?? prev.restarts;
    prev.node ??= v.node;
    prev.owner ??= v.owner;
    prev.created ??= v.created;
    Object.assign(prev.labels, v.labels);
    Object.assign(prev.fields, v.fields);
    if (v.conditions.length) {
      // a description shows no times: a condition unchanged since it was read whole keeps its own
      for (const c of v.conditions)
        c.at ??= prev.conditions.find((x) => x.type === c.type && x.status === c.status)?.at;
      prev.conditions = v.conditions;
    }
    if (
      (v.containers.length && !prev.containers.length) ||
      (v.containers.length >= prev.containers.length &&
        v.containers.some(
          (c) =>
            c.waiting ||
            c.terminated ||
            c.last ||
            Object.keys(c.limits).length ||
            Object.keys(c.requests).length ||
            c.probes.length,
        ))
    )
      prev.containers = v.containers;
    for (const i of v.images) if (!prev.images.includes(i)) prev.images.push(i);
  }

  list(kind?: string, namespace?: string): ObjectView[] {
    return [...this.objects.values()].filter(
      (o) =>
        (!kind || o.kind === kind) && (!namespace || !o.namespace || o.namespace === namespace),
    );
  }

  get(kind: string, name: string, namespace?: string): ObjectView | undefined {
    return (
      this.objects.get(ClusterModel.key(kind, name, namespace)) ??
      [...this.objects.values()].find((o) => o.kind === kind && o.name === name)
    );
  }

  /** the workload a pod (or ReplicaSet, Job) belongs to */
  workloadOf(o: ObjectView): { kind: string; name: string } {
    if (o.kind === 'pod' || o.kind === 'replicaset' || o.kind === 'job') {
      let owner = o.owner;
      if (owner?.kind === 'replicaset') {
        const rs = this.get('replicaset', owner.name, o.namespace);
        owner = rs?.owner ?? { kind: 'deployment', name: stripHash(owner.name) };
      }
      if (owner?.kind === 'job') {
        const job = this.get('job', owner.name, o.namespace);
        if (job?.owner?.kind === 'cronjob') return job.owner;
      }
      if (owner) return { kind: owner.kind, name: owner.name };
      if (o.kind === 'pod') {
        const app = o.labels['app'] ?? o.labels['app.kubernetes.io/name'] ?? o.labels['k8s-app'];
        return { kind: 'deployment', name: workloadName(o.name) || app || o.name };
      }
      if (o.kind === 'replicaset') return { kind: 'deployment', name: stripHash(o.name) };
      // a CronJob names its Jobs <cronjob>-<scheduled time in minutes since the epoch>
      const cron = /^(.+)-\d{8,}$/.exec(o.name);
      if (o.kind === 'job' && cron?.[1]) return { kind: 'cronjob', name: cron[1] };
    }
    return { kind: o.kind, name: o.name };
  }

  /**
   * The pods running on a node: those whose listing or description named the node, and those a
   * description of the node listed (its "Non-terminated Pods"); finished pods are left out.
   */
  podsOn(node: ObjectView): ObjectView[] {
    const listed = new Set((node.fields['pods'] ?? '').split(',').filter(Boolean));
    return this.list('pod').filter(
      (p) =>
        (p.node === node.name || listed.has(`${p.namespace ?? ''}/${p.name}`)) &&
        !/Succeeded|Completed|Failed/.test(p.status ?? ''),
    );
  }

  podsOf(kind: string, name: string, namespace?: string): ObjectView[] {
    return this.list('pod', namespace).filter((p) => {
      const w = this.workloadOf(p);
      return (
        // a listing without owners only suggests a kind (web-0 reads as a Deployment's)
        (w.name === name &&
          (w.kind === kind || kind === 'deployment' || kind === 'service' || !p.owner)) ||
        (kind === 'job' &&
          // a Job's pods are named <job>-<5 random characters> (listings do not show owners)
          (p.owner?.name === name ||
            (!p.owner &&
              p.name.startsWith(`${name}-`) &&
              /^[a-z0-9]{5}$/.test(p.name.slice(name.length + 1)))))
      );
    });
  }

  /** Does the object belong to the subject (by name, owner, labels or a service's selector)? */
  matches(o: ObjectView, s: Subject): boolean {
    if (s.namespace && o.namespace && o.namespace !== s.namespace && o.kind !== 'node')
      return false;
    const n = s.name.toLowerCase();
    if (o.name === n)
      return !s.kind || s.kind === o.kind || s.kind === 'service' || s.kind === 'deployment';
    // a node by its short name ("ip-10-0-25-91" for ip-10-0-25-91.eu-west-1.compute.internal)
    if (o.kind === 'node' && (!s.kind || s.kind === 'node') && o.name.startsWith(`${n}.`))
      return true;
    const w = this.workloadOf(o);
    if (w.name === n) return true;
    const labelVals = [
      o.labels['app'],
      o.labels['app.kubernetes.io/name'],
      o.labels['app.kubernetes.io/instance'],
      o.labels['k8s-app'],
      o.labels['component'],
      o.labels['service'],
    ];
    if (labelVals.includes(n)) return true;
    // "checkout" -> "checkout-api", "checkout-7d9f..."; "payments-api" !-> "payments-db"
    // a workload named in the message ("the retrain job") covers its pods
    if (
      s.kind &&
      s.kind !== 'service' &&
      s.kind !== o.kind &&
      !(o.kind === 'pod' && WORKLOAD_KINDS.has(s.kind))
    )
      return false;
    const wn = w.name;
    if (wn.startsWith(`${n}-`) || wn.endsWith(`-${n}`)) return true;
    if (o.kind === 'pod' && o.name.startsWith(`${n}-`) && !wn.includes('-')) return true;
    return false;
  }
}

function min(a?: number, b?: number) {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
function max(a?: number, b?: number) {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** checkout-api-7d9f8b6c5 -> checkout-api */
const WORKLOAD_KINDS = new Set(['deployment', 'statefulset', 'daemonset', 'job', 'cronjob']);

export function stripHash(name: string): string {
  return name.replace(/-[a-z0-9]{6,10}$/, '');
}

/** checkout-api-7d9f8b6c5-x2x4z -> checkout-api; web-0 -> web; job-x7k2p -> job */
export function workloadName(name: string): string {
  const m = /^(.*?)-[a-z0-9]{6,10}-[a-z0-9]{5}$/.exec(name);
  if (m?.[1]) return m[1];
  const sts = /^(.*)-\d+$/.exec(name);
  if (sts?.[1]) return sts[1];
  const five = /^(.*)-[a-z0-9]{5}$/.exec(name);
  if (five?.[1] && /\d/.test(name.slice(-5))) return five[1];
  return name;
}

/** A cordoned node (`kubectl cordon`, spec.unschedulable): as a listing, a description or the API shows it. */
export function isCordoned(node: ObjectView): boolean {
  return (
    /SchedulingDisabled/i.test(node.status ?? '') ||
    /^true$/i.test(node.fields['unschedulable'] ?? node.fields['Unschedulable'] ?? '')
  );
}

/**
 * Whether tolerations (`key=value:effect`, key alone for operator Exists, ":" for all) tolerate
 * a taint (`key=value:effect`), as the scheduler and the DaemonSet controller decide.
 */
export function tolerates(tolerations: string[], taint: string): boolean {
  const t = /^([^=:]*)(?:=([^:]*))?:(.*)$/.exec(taint);
  if (!t) return true;
  return tolerations.some((raw) => {
    const m = /^([^=:]*)(?:=([^:]*))?(?::(.*))?$/.exec(raw);
    if (!m) return false;
    const [, key = '', value, effect] = m;
    if (effect && effect !== t[3]) return false;
    if (!key) return true;
    return key === t[1] && (value === undefined || value === (t[2] ?? ''));
  });
}

/** Taints the kubelet and node lifecycle set (tolerated by DaemonSet pods automatically). */
const SYSTEM_TAINT =
  /^node\.kubernetes\.io\/|^node\.cloudprovider\.kubernetes\.io\/|^node-role\.kubernetes\.io\/(?:control-plane|master)\b/;

/**
 * The schedulable nodes a DaemonSet meant for every node (no node selector) does not run on
 * because they carry a NoSchedule / NoExecute taint it does not tolerate, with that taint. Only
 * nodes whose taints were read count, and only when the DaemonSet's pod template was read.
 */
export function nodesRefusingDaemonSet(
  model: ClusterModel,
  ds: ObjectView,
): { node: string; taint: string }[] {
  if (ds.kind !== 'daemonset' || !ds.containers.length || ds.fields['nodeSelector']) return [];
  const tolerations = (ds.fields['tolerations'] ?? '').split(',').filter(Boolean);
  const out: { node: string; taint: string }[] = [];
  for (const n of model.list('node')) {
    if (isCordoned(n) || /NotReady/.test(n.status ?? '')) continue;
    const taint = (n.fields['taints'] ?? '')
      .split(',')
      .filter((t) => /:(NoSchedule|NoExecute)$/.test(t) && !SYSTEM_TAINT.test(t))
      .find((t) => !tolerates(tolerations, t));
    if (!taint) continue;
    if (
      model
        .podsOn(n)
        .some((p) => p.namespace === ds.namespace && model.workloadOf(p).name === ds.name)
    )
      continue;
    out.push({ node: n.name, taint });
  }
  return out;
}

/** a Service's spec.ports as read whole (none when it was only listed or its JSON was cut) */
export interface ServicePort {
  name?: string;
  port?: number;
  targetPort?: number | string;
  appProtocol?: string;
}
/** The JSON object a field holds ({} when unset or unreadable): data, annotations. */
export function jsonField(o: ObjectView | undefined, field: string): Record<string, string> {
  try {
    return JSON.parse(o?.fields[field] ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

/** The ConfigMaps a pod mounts as volumes or loads its environment from (names). */
export function configMapNamesOf(pod: ObjectView): string[] {
  return [
    ...new Set(
      [
        ...(pod.fields['configMaps'] ?? '').split(','),
        ...pod.containers.flatMap(configMapsOf),
      ].filter(Boolean),
    ),
  ];
}

/**
 * The ConfigMaps a container loads its environment from: `envFrom` and single keys
 * (`X <- configmap app-config key x`), as observe/ records them in envRefs.
 */
export function configMapsOf(c: ContainerView): string[] {
  return c.envRefs.map((r) => /configmap (\S+)/.exec(r)?.[1]).filter((m): m is string => !!m);
}

export function servicePorts(svc: ObjectView): ServicePort[] {
  try {
    return JSON.parse(svc.fields['ports'] ?? '[]') as ServicePort[];
  } catch {
    return [];
  }
}

/** "250m" -> 0.25, "512Mi" -> bytes */
export function quantity(q?: string): number {
  if (!q) return 0;
  const m = /^([\d.]+)\s*([a-zA-Z]*)/.exec(q.trim());
  if (!m) return 0;
  const n = Number(m[1]);
  const unit: Record<string, number> = {
    m: 1e-3,
    n: 1e-9,
    u: 1e-6,
    k: 1e3,
    K: 1e3,
    Ki: 1024,
    M: 1e6,
    Mi: 1024 ** 2,
    G: 1e9,
    Gi: 1024 ** 3,
    T: 1e12,
    Ti: 1024 ** 4,
  };
  return n * (unit[m[2] ?? ''] ?? 1);
}
