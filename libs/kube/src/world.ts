import { readFileSync } from 'node:fs';
import { invalidField, invalidRequest, notFound } from '@inquest/errors';
import {
  KINDS,
  builtinKindOf,
  customKind,
  groupOf,
  isBuiltinKind,
  resolveKindIn,
  type KindInfo,
} from './kinds';
import {
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
  selectorRequirements,
} from './selectors';
import { toDate } from './time';

/** Kubernetes objects are loosely shaped JSON; formatting reads them defensively. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface OwnerReference {
  apiVersion?: string;
  kind: string;
  name: string;
  uid?: string;
  controller?: boolean;
}

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  creationTimestamp?: string | Date;
  deletionTimestamp?: string | Date;
  ownerReferences?: OwnerReference[];
  resourceVersion?: string;
  [key: string]: Json;
}

/** A Kubernetes API object as the API returns it. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: Json;
  status?: Json;
  [key: string]: Json;
}

export interface ScenarioLog {
  namespace: string;
  pod: string;
  container?: string;
  previous?: boolean;
  text: string;
}

export interface ContainerUsage {
  name: string;
  cpu: string;
  memory: string;
}

export interface PodMetrics {
  namespace: string;
  name: string;
  containers: ContainerUsage[];
}

export interface NodeMetrics {
  name: string;
  cpu: string;
  memory: string;
}

export interface ScenarioMetrics {
  pods?: PodMetrics[];
  nodes?: NodeMetrics[];
}

/** One scenario file (tools/bench/data/investigations/README.md). */
export interface ScenarioWorld {
  id?: string;
  class?: string;
  title?: string;
  based_on?: string[];
  /** the scenario's current time: every tool answers as if it were now */
  now: string;
  request?: { message: string; context?: Record<string, string> };
  objects: KubeObject[];
  logs?: ScenarioLog[];
  metrics?: ScenarioMetrics;
  expected?: Json;
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** case-insensitive substring of metadata.name */
  nameContains?: string;
}

export interface LogOptions {
  namespace: string;
  pod: string;
  container?: string;
  previous?: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  /** prefix each line with an RFC 3339 timestamp, as `kubectl logs --timestamps` */
  timestamps?: boolean;
  now?: Date;
}

/** Reads and checks a scenario file. */
export function loadWorld(file: string): ScenarioWorld {
  const world = JSON.parse(readFileSync(file, 'utf8')) as ScenarioWorld;
  if (!world || !Array.isArray(world.objects)) {
    throw invalidRequest(`${file}: a scenario world needs an "objects" array`);
  }
  if (!toDate(world.now)) throw invalidRequest(`${file}: "now" must be an RFC 3339 time`);
  return world;
}

/** Where a kind's objects are kept: a built-in by its kind, a custom kind by kind and group. */
const keyOf = (info: KindInfo): string =>
  isBuiltinKind(info) ? info.kind : `${info.kind}.${info.group}`;

const eventTime = (e: KubeObject): number =>
  (
    toDate(e.lastTimestamp) ??
    toDate(e.eventTime) ??
    toDate(e.firstTimestamp) ??
    toDate(e.metadata?.creationTimestamp)
  )?.getTime() ?? 0;

const RFC3339_PREFIX =
  /^\s*\{?[^\d]{0,20}?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d))/;

/**
 * An in-memory index over one scenario world: what an API server would answer, with the
 * scenario's `now` as the current time.
 */
export class WorldIndex {
  readonly now: Date;
  private readonly byKind = new Map<string, KubeObject[]>();
  private readonly byUid = new Map<string, KubeObject>();
  /** kinds of the world's objects that are not built-in (custom resources), in order of appearance */
  private readonly custom: KindInfo[] = [];

  constructor(readonly world: ScenarioWorld) {
    const now = toDate(world.now);
    if (!now) throw invalidRequest('a scenario world needs "now" as an RFC 3339 time');
    this.now = now;
    for (const obj of world.objects) {
      let info = builtinKindOf(obj);
      if (!info && obj.kind) {
        // any other apiVersion/kind is a custom resource: plural = lower-case kind + s (-ies,
        // -ses as Kubernetes guesses), namespaced unless its objects have no namespace
        const group = groupOf(obj.apiVersion);
        info = this.custom.find((k) => k.kind === obj.kind && k.group === group);
        if (!info) {
          info = customKind(obj.apiVersion ?? 'v1', obj.kind, Boolean(obj.metadata?.namespace));
          this.custom.push(info);
        } else if (!info.namespaced && obj.metadata?.namespace) info.namespaced = true;
      }
      const key = info ? keyOf(info) : (obj.kind ?? '');
      const list = this.byKind.get(key) ?? [];
      list.push(obj);
      this.byKind.set(key, list);
      if (obj.metadata?.uid) this.byUid.set(obj.metadata.uid, obj);
    }
  }

  static fromFile(file: string): WorldIndex {
    return new WorldIndex(loadWorld(file));
  }

  /** Every object of every kind (the order of the scenario file). */
  all(): KubeObject[] {
    return this.world.objects;
  }

  /** Kinds that have at least one object in this world (built-ins, then custom kinds). */
  kindsPresent(): KindInfo[] {
    return [...KINDS.filter((k) => (this.byKind.get(k.kind)?.length ?? 0) > 0), ...this.custom];
  }

  /** The custom kinds of this world's objects (any apiVersion/kind that is not built-in). */
  customKinds(): KindInfo[] {
    return [...this.custom];
  }

  /** Every kind this world's API server serves: the built-in kinds, then its custom kinds. */
  kinds(): KindInfo[] {
    return [...KINDS, ...this.custom];
  }

  /** A typed kind resolved as kubectl would against this world's API server (built-ins first). */
  resolve(kind: string): KindInfo | undefined {
    return resolveKindIn(kind, this.custom);
  }

  private requireKind(kind: string | KindInfo): KindInfo {
    if (typeof kind !== 'string') return kind;
    const info = this.resolve(kind);
    if (!info) throw invalidField('kind', `the server doesn't have a resource type "${kind}"`);
    return info;
  }

  /** Objects of `kind`, filtered as the API server filters a list; sorted by namespace then name. */
  list(kind: string | KindInfo, opts: ListOptions = {}): KubeObject[] {
    const info = this.requireKind(kind);
    const labels = opts.labelSelector ? parseLabelSelector(opts.labelSelector) : undefined;
    const fields = opts.fieldSelector
      ? parseFieldSelector(opts.fieldSelector, isBuiltinKind(info) ? info.kind : '')
      : undefined;
    const fragment = opts.nameContains?.toLowerCase();
    const out = (this.byKind.get(keyOf(info)) ?? []).filter((o) => {
      if (info.namespaced && opts.namespace && o.metadata?.namespace !== opts.namespace)
        return false;
      if (labels && !matchesLabels(o.metadata?.labels, labels)) return false;
      if (fields && !matchesFields(o, fields)) return false;
      if (fragment && !(o.metadata?.name ?? '').toLowerCase().includes(fragment)) return false;
      return true;
    });
    return out.sort(
      (a, b) =>
        (a.metadata?.namespace ?? '').localeCompare(b.metadata?.namespace ?? '') ||
        (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    );
  }

  /** One object, or undefined. `namespace` is ignored for cluster-scoped kinds. */
  get(kind: string | KindInfo, name: string, namespace?: string): KubeObject | undefined {
    const info = this.requireKind(kind);
    return (this.byKind.get(keyOf(info)) ?? []).find(
      (o) =>
        o.metadata?.name === name &&
        (!info.namespaced || namespace === undefined || o.metadata?.namespace === namespace),
    );
  }

  /** core/v1 Events, oldest first by lastTimestamp (eventTime/firstTimestamp when absent). */
  events(
    opts: {
      namespace?: string;
      involved?: { kind?: string; name: string; namespace?: string; uid?: string };
    } = {},
  ): KubeObject[] {
    const inv = opts.involved;
    const involvedKind = inv?.kind ? (this.resolve(inv.kind)?.kind ?? inv.kind) : undefined;
    return (this.byKind.get('Event') ?? [])
      .filter((e) => {
        if (opts.namespace && e.metadata?.namespace !== opts.namespace) return false;
        if (inv) {
          const io = e.involvedObject ?? {};
          if (io.name !== inv.name) return false;
          if (involvedKind && io.kind !== involvedKind) return false;
          if (
            inv.namespace !== undefined &&
            (io.namespace ?? e.metadata?.namespace ?? '') !== inv.namespace &&
            io.namespace !== undefined
          )
            return false;
          if (inv.uid && io.uid && io.uid !== inv.uid) return false;
        }
        return true;
      })
      .sort((a, b) => eventTime(a) - eventTime(b));
  }

  /** The containers (init, regular, ephemeral) of a pod, in spec order. */
  static containerNames(pod: KubeObject): { init: string[]; main: string[] } {
    return {
      init: ((pod.spec?.initContainers ?? []) as Array<{ name: string }>).map((c) => c.name),
      main: ((pod.spec?.containers ?? []) as Array<{ name: string }>).map((c) => c.name),
    };
  }

  /**
   * A container's log as the kubelet would return it. Throws not_found for a missing pod and
   * invalid_request for an unknown container or a `previous` log that does not exist.
   */
  logs(opts: LogOptions): string {
    const pod = this.get('Pod', opts.pod, opts.namespace);
    if (!pod) throw notFound(`pods "${opts.pod}" not found`);
    const names = WorldIndex.containerNames(pod);
    const all = [...names.main, ...names.init];
    let container = opts.container;
    if (!container) {
      if (names.main.length > 1) {
        // kubectl picks the default-container annotation, else the first container
        container =
          pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'] ?? names.main[0];
      } else container = names.main[0];
    }
    if (!container || !all.includes(container)) {
      throw invalidRequest(`container ${container ?? '""'} is not valid for pod ${opts.pod}`);
    }
    const entry = (this.world.logs ?? []).find(
      (l) =>
        l.namespace === opts.namespace &&
        l.pod === opts.pod &&
        (l.container ?? names.main[0]) === container &&
        Boolean(l.previous) === Boolean(opts.previous),
    );
    if (!entry) {
      if (opts.previous) {
        throw invalidRequest(
          `previous terminated container "${container}" in pod "${opts.pod}" not found`,
        );
      }
      return '';
    }
    let lines = entry.text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    // stamp first: a line without its own time (a stack trace) takes the time of the line before
    if (opts.timestamps) {
      let last = (opts.now ?? this.now).toISOString();
      lines = lines.map((line) => {
        const m = RFC3339_PREFIX.exec(line);
        if (m) last = toDate(m[1])!.toISOString();
        return `${last} ${line}`;
      });
    }
    if (opts.sinceSeconds !== undefined) {
      const cutoff = (opts.now ?? this.now).getTime() - opts.sinceSeconds * 1000;
      let keep = false;
      lines = lines.filter((line) => {
        const m = RFC3339_PREFIX.exec(line);
        const t = m ? toDate(m[1]) : undefined;
        // a line without its own timestamp (a stack trace) goes with the line before it
        if (t) keep = t.getTime() >= cutoff;
        return keep;
      });
    }
    if (opts.tailLines !== undefined && opts.tailLines >= 0) {
      lines = opts.tailLines === 0 ? [] : lines.slice(-opts.tailLines);
    }
    return lines.length ? lines.join('\n') + '\n' : '';
  }

  /** True when the world has metrics.k8s.io data (a cluster with metrics-server). */
  hasMetrics(): boolean {
    return this.world.metrics !== undefined;
  }

  podMetrics(namespace?: string): PodMetrics[] {
    return (this.world.metrics?.pods ?? []).filter((p) => !namespace || p.namespace === namespace);
  }

  nodeMetrics(): NodeMetrics[] {
    return this.world.metrics?.nodes ?? [];
  }

  /** The object an owner reference points at, if it is in the world. */
  resolveOwner(ref: OwnerReference, namespace: string | undefined): KubeObject | undefined {
    if (ref.uid) {
      const byUid = this.byUid.get(ref.uid);
      if (byUid && byUid.kind === ref.kind) return byUid;
    }
    const info =
      (ref.apiVersion
        ? this.kinds().find((k) => k.kind === ref.kind && k.group === groupOf(ref.apiVersion))
        : undefined) ?? this.resolve(ref.kind);
    return info ? this.get(info, ref.name, namespace) : undefined;
  }

  /** Controllers above `obj`, nearest first: Pod -> ReplicaSet -> Deployment, Pod -> Job -> CronJob. */
  ownerChain(obj: KubeObject): KubeObject[] {
    const chain: KubeObject[] = [];
    const seen = new Set<KubeObject>([obj]);
    let cur: KubeObject | undefined = obj;
    while (cur) {
      const refs: OwnerReference[] = cur.metadata?.ownerReferences ?? [];
      const ref = refs.find((r) => r.controller) ?? refs[0];
      if (!ref) break;
      const owner = this.resolveOwner(ref, cur.metadata?.namespace);
      if (!owner || seen.has(owner)) break;
      seen.add(owner);
      chain.push(owner);
      cur = owner;
    }
    return chain;
  }

  /** Objects whose owner references name `owner`. */
  ownedBy(owner: KubeObject, kind?: string): KubeObject[] {
    const uid = owner.metadata?.uid;
    const candidates = kind
      ? this.list(kind, { namespace: owner.metadata?.namespace })
      : this.world.objects;
    return candidates.filter((o) =>
      (o.metadata?.ownerReferences ?? []).some(
        (r: OwnerReference) =>
          (uid && r.uid
            ? r.uid === uid
            : r.name === owner.metadata?.name && r.kind === owner.kind) &&
          o.metadata?.namespace === owner.metadata?.namespace,
      ),
    );
  }

  /**
   * The pods a workload runs: by owner references (Deployment through its ReplicaSets, CronJob
   * through its Jobs), else by its selector (Service, a workload without owned pods).
   */
  podsOf(workload: KubeObject): KubeObject[] {
    const ns = workload.metadata?.namespace;
    const owned: KubeObject[] = [];
    const walk = (o: KubeObject, depth: number) => {
      for (const child of this.ownedBy(o)) {
        if (child.kind === 'Pod') owned.push(child);
        else if (depth < 3) walk(child, depth + 1);
      }
    };
    walk(workload, 0);
    if (owned.length > 0) return owned;
    if (workload.kind === 'Pod') return [workload];
    const selector =
      workload.kind === 'Service'
        ? workload.spec?.selector
        : (workload.spec?.selector ?? undefined);
    const reqs = selectorRequirements(selector);
    if (!reqs || reqs.length === 0) return [];
    return this.list('Pod', { namespace: ns }).filter((p) =>
      matchesLabels(p.metadata?.labels, reqs),
    );
  }
}
