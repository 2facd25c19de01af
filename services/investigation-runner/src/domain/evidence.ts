import type { SignatureEntry } from './signature-catalog.data';

/** A resource named in a tool output (a pod, a deployment, an instance id...). */
export interface Entity {
  kind: string;
  name: string;
  namespace?: string;
  /** its part of the output matched a failure signature or showed a bad status */
  unhealthy: boolean;
  tool: string;
}

export interface Finding {
  signatureId: string;
  tool: string;
  /** the quoted fact, sanitised and short */
  fact: string;
  entity?: string;
  at?: number;
}

export interface TimelineEntry {
  at: number;
  event: string;
  tool: string;
  signatureId?: string;
}

export interface ScanResult {
  findings: Finding[];
  entities: Entity[];
  events: TimelineEntry[];
}

export interface CompiledSignature {
  entry: SignatureEntry;
  regexes: RegExp[];
}

export function compileCatalog(catalog: SignatureEntry[]): CompiledSignature[] {
  return catalog.map((entry) => ({
    entry,
    regexes: entry.patterns.map((p) => new RegExp(p, 'i')),
  }));
}

/** Limits that keep hostile outputs (huge, deeply nested, binary) from hurting the engine. */
const MAX_DEPTH = 24;
const MAX_NODES = 20_000;
const MAX_STRING = 4_000;
const MAX_LINES = 2_000;
const MAX_FINDINGS_PER_SIGNATURE = 12;
const MAX_EVENTS = 400;

const KIND_WORDS: Record<string, string> = {
  pods: 'pod',
  pod: 'pod',
  deployments: 'deployment',
  deployment: 'deployment',
  services: 'service',
  service: 'service',
  nodes: 'node',
  node: 'node',
  statefulsets: 'statefulset',
  statefulset: 'statefulset',
  daemonsets: 'daemonset',
  daemonset: 'daemonset',
  jobs: 'job',
  job: 'job',
  containers: 'container',
  container: 'container',
  instances: 'instance',
  instance: 'instance',
  commits: 'commit',
  commit: 'commit',
  replicasets: 'replicaset',
  replicaset: 'replicaset',
  functions: 'function',
  buckets: 'bucket',
  databases: 'database',
  clusters: 'cluster',
  hosts: 'host',
  host: 'host',
};
const ENTITY_FIELDS: Record<string, string> = {
  pod: 'pod',
  pod_name: 'pod',
  podname: 'pod',
  deployment: 'deployment',
  deployment_name: 'deployment',
  node: 'node',
  node_name: 'node',
  nodename: 'node',
  container: 'container',
  container_name: 'container',
  instance_id: 'instance',
  instanceid: 'instance',
  commit: 'commit',
  sha: 'commit',
  commit_sha: 'commit',
  statefulset: 'statefulset',
  host: 'host',
  hostname: 'host',
};
const TS_KEYS =
  /^(timestamp|time|ts|@timestamp|date|datetime|lasttimestamp|firsttimestamp|eventtime|created_?at|updated_?at|started_?at|finished_?at|occurred_?at|deployed_?at|committed_?at|last_?seen|first_?seen|creationtimestamp|starttime|when)$/i;
const TEXT_KEYS = [
  'message',
  'msg',
  'reason',
  'event',
  'description',
  'summary',
  'title',
  'status',
  'log',
  'text',
  'note',
];
const BAD_STATUS =
  /^(failed|error|crashloopbackoff|oomkilled|pending|notready|unhealthy|evicted|unknown|terminating|degraded|down|critical)$/i;
const ISO_TS = /\b(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)/;
const REF =
  /\b(pod|deployment|deploy|service|svc|node|statefulset|daemonset|job|replicaset)\/([a-z0-9][a-z0-9.-]{0,252})/gi;

/** Printable, single-line, bounded text for quoting in evidence. */
export function sanitize(s: string, max = 200): string {
  const clean = s
    // control characters are exactly what this strips
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\ufffd]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export function parseTimestamp(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) {
    if (v > 1e12 && v < 1e13) return v;
    if (v > 1e9 && v < 1e10) return v * 1000;
    return undefined;
  }
  if (typeof v !== 'string' || v.length > 40) return undefined;
  const m = ISO_TS.exec(v);
  if (!m) return undefined;
  let iso = m[1]!.replace(' ', 'T');
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(iso)) iso += 'Z';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
}

/** Kind of resource a tool talks about, from its name: `list_pods` -> pod. */
export function kindHintOf(toolName: string): string | undefined {
  for (const token of toolName
    .toLowerCase()
    .split(/[^a-z]+/)
    .reverse()) {
    const k = KIND_WORDS[token];
    if (k) return k;
  }
  return undefined;
}

/**
 * Reads one tool output of any shape for failure signatures, entities and timestamped events.
 * Never throws; bounded in depth, nodes, string length and lines.
 */
export function scanOutput(
  tool: string,
  output: unknown,
  signatures: CompiledSignature[],
): ScanResult {
  const res: ScanResult = { findings: [], entities: [], events: [] };
  const perSig = new Map<string, number>();
  const seenEntities = new Set<string>();
  const toolHint = kindHintOf(tool.split(':').pop() ?? tool);
  let nodes = 0;

  const matchText = (
    text: string,
    entity: string | undefined,
    at: number | undefined,
  ): string[] => {
    const hits: string[] = [];
    for (const sig of signatures) {
      if (!sig.regexes.some((r) => r.test(text))) continue;
      hits.push(sig.entry.id);
      const n = perSig.get(sig.entry.id) ?? 0;
      if (n >= MAX_FINDINGS_PER_SIGNATURE) continue;
      perSig.set(sig.entry.id, n + 1);
      res.findings.push({ signatureId: sig.entry.id, tool, fact: sanitize(text), entity, at });
    }
    return hits;
  };

  const addEntity = (
    kind: string,
    name: string,
    namespace: string | undefined,
    unhealthy: boolean,
  ): string => {
    const clean = sanitize(name, 253);
    const key = `${kind}/${namespace ?? ''}/${clean}`;
    if (!seenEntities.has(key)) {
      seenEntities.add(key);
      res.entities.push({ kind, name: clean, namespace, unhealthy, tool });
    } else if (unhealthy) {
      const e = res.entities.find(
        (x) => x.kind === kind && x.name === clean && x.namespace === namespace,
      );
      if (e) e.unhealthy = true;
    }
    return clean;
  };

  const addEvent = (at: number, event: string, signatureId?: string) => {
    if (res.events.length < MAX_EVENTS)
      res.events.push({ at, event: sanitize(event, 240), tool, signatureId });
  };

  const scanText = (text: string, entity: string | undefined, inheritedAt: number | undefined) => {
    const lines = text
      .slice(0, MAX_STRING * 50)
      .split(/\r?\n/)
      .slice(0, MAX_LINES);
    let header: string[] | undefined;
    for (const raw of lines) {
      const line = raw.slice(0, MAX_STRING);
      if (!line.trim()) continue;
      const at = parseTimestamp(line) ?? inheritedAt;
      let lineEntity = entity;
      const cols = line.trim().split(/\s{2,}|\t/);
      if (/^NAME(SPACE)?\b/.test(line.trim())) {
        header = line
          .trim()
          .split(/\s{2,}|\t/)
          .map((h) => h.toUpperCase());
        continue;
      }
      const hits = matchText(line, lineEntity, at);
      if (header && cols.length >= 2) {
        const nameIdx = header.indexOf('NAME');
        const nsIdx = header.indexOf('NAMESPACE');
        const name = nameIdx >= 0 ? cols[nameIdx] : undefined;
        if (name && /^[\w./-]+$/.test(name)) {
          const m = /^(\w+)\/(.+)$/.exec(name);
          const kind = m
            ? (KIND_WORDS[m[1]!.toLowerCase()] ?? toolHint ?? 'resource')
            : (toolHint ?? 'resource');
          const bad = hits.length > 0 || cols.some((c) => BAD_STATUS.test(c));
          lineEntity = addEntity(kind, m ? m[2]! : name, nsIdx >= 0 ? cols[nsIdx] : undefined, bad);
        }
      }
      for (const m of line.matchAll(REF)) {
        const kindWord = m[1]!.toLowerCase();
        const kind =
          kindWord === 'deploy' ? 'deployment' : kindWord === 'svc' ? 'service' : kindWord;
        addEntity(kind, m[2]!, undefined, hits.length > 0);
      }
      if (at !== undefined && parseTimestamp(line) !== undefined) {
        addEvent(at, line.replace(ISO_TS, '').replace(/^[\s\]|:-]+/, ''), hits[0]);
      }
    }
  };

  const walk = (
    v: unknown,
    key: string | undefined,
    depth: number,
    entity: string | undefined,
    at: number | undefined,
  ) => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return;
    if (typeof v === 'string') {
      if (v.length > 60 || v.includes('\n')) scanText(v, entity, at);
      return;
    }
    if (Array.isArray(v)) {
      for (const item of v.slice(0, 2000)) walk(item, key, depth + 1, entity, at);
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const obj = v as Record<string, unknown>;
    const entries = Object.entries(obj).slice(0, 500);
    const prims = entries.filter(
      ([, x]) => x === null || ['string', 'number', 'boolean'].includes(typeof x),
    );
    const compact = prims
      .map(([k, x]) => `${k}=${typeof x === 'string' ? x.slice(0, 300) : String(x)}`)
      .join(' ');
    // object's own timestamp
    let objAt = at;
    for (const [k, x] of prims) {
      if (TS_KEYS.test(k)) {
        const t = parseTimestamp(x);
        if (t !== undefined) {
          objAt = t;
          break;
        }
      }
    }
    // entity named by this object
    const meta =
      typeof obj['metadata'] === 'object' && obj['metadata'] !== null
        ? (obj['metadata'] as Record<string, unknown>)
        : {};
    const name =
      typeof obj['name'] === 'string'
        ? obj['name']
        : typeof meta['name'] === 'string'
          ? meta['name']
          : undefined;
    const ns =
      typeof obj['namespace'] === 'string'
        ? obj['namespace']
        : typeof meta['namespace'] === 'string'
          ? meta['namespace']
          : undefined;
    const kindField = typeof obj['kind'] === 'string' ? obj['kind'].toLowerCase() : undefined;
    const kind =
      kindField ??
      (key ? KIND_WORDS[key.toLowerCase()] : undefined) ??
      (name && ns ? toolHint : undefined);
    const subtree = safeStringify(obj, 4000);
    const sigHits = signatures.filter(
      (s) => s.entry.kind !== 'change' && s.regexes.some((r) => r.test(subtree)),
    );
    const badStatus = prims.some(
      ([k, x]) =>
        /status|phase|state|reason|health/i.test(k) && typeof x === 'string' && BAD_STATUS.test(x),
    );
    let here = entity;
    if (name && kind) here = addEntity(kind, name, ns, sigHits.length > 0 || badStatus);
    for (const [k, x] of prims) {
      const ek = ENTITY_FIELDS[k.toLowerCase()];
      if (ek && typeof x === 'string' && x && x.length < 254) {
        const e = addEntity(ek, x, ns, sigHits.length > 0 || badStatus);
        here ??= e;
      }
    }
    const hits = compact ? matchText(compact, here, objAt) : [];
    if (objAt !== undefined && objAt !== at) {
      const text = TEXT_KEYS.map((k) => obj[k])
        .filter((x): x is string => typeof x === 'string')
        .join(': ');
      addEvent(objAt, `${here ? `${here}: ` : ''}${text || compact}`, hits[0]);
    }
    for (const [k, x] of entries) {
      if (typeof x === 'object' && x !== null) walk(x, k, depth + 1, here, objAt);
      else if (typeof x === 'string' && (x.length > 300 || x.includes('\n')))
        scanText(x, here, objAt);
    }
  };

  try {
    if (typeof output === 'string') scanText(output, undefined, undefined);
    else walk(output, undefined, 0, undefined, undefined);
  } catch {
    // a pathological output yields what was found so far
  }
  return res;
}

/** Text of a value's subtree, built only up to `max` characters (no full serialisation of huge outputs). */
function safeStringify(v: unknown, max: number): string {
  const parts: string[] = [];
  let len = 0;
  const visit = (x: unknown, depth: number): void => {
    if (len >= max || depth > 8) return;
    if (x === null || typeof x !== 'object') {
      const s = String(x).slice(0, max - len);
      parts.push(s, ' ');
      len += s.length + 1;
      return;
    }
    const entries = Array.isArray(x)
      ? x.slice(0, 200).map((y, i) => [String(i), y] as const)
      : Object.entries(x as object).slice(0, 200);
    for (const [k, y] of entries) {
      if (len >= max) return;
      parts.push(k, '=');
      len += k.length + 1;
      visit(y, depth + 1);
    }
  };
  visit(v, 0);
  return parts.join('');
}
