/**
 * Two questions about what the pods declare, asked before a change or after an outage:
 * - "which pods on node X have a PersistentVolumeClaim mounted?" (before a drain: a zonal volume
 *   can only come back in its zone), the pods bound to the node and the claims each mounts;
 * - "which workloads still run an exec liveness or readiness probe with timeoutSeconds 1?", per
 *   workload the containers and probes whose timeout matches (an unset timeoutSeconds is 1, the
 *   API's default), and the kind of probe (exec, http-get, tcp-socket) when the question names one.
 */
import { hasFinished } from './health';
import type { ClusterModel } from './model';
import type { ObjectView } from './observe/views';
import type { Question, Subject } from './scope';

type NodeClaims = Extract<Question, { type: 'node_claims' }>;
type ProbeTimeout = Extract<Question, { type: 'probe_timeout' }>;

const CLAIM_WORDS =
  /\b(?:persistent\s?volume\s?claims?|pvcs?|volume claims?|persistent volumes?|pvs?)\b/;

/** words after "node" that name none ("the pods on that node have ...") */
const NOT_A_NAME =
  /^(?:have|has|had|with|that|this|is|are|was|were|which|where|and|or|to|in|on|we|i)$/;

export function nodeClaimsQuestion(t: string, subjects: Subject[]): NodeClaims | undefined {
  if (!CLAIM_WORDS.test(t) || !/\b(?:which|what|list|any|how many)\b[^?.]{0,30}\bpods?\b/.test(t))
    return undefined;
  if (!/\bnode\b|\bip-\d+-\d+-\d+-\d+\b/.test(t)) return undefined;
  const named = /\bnode\s+[`'"]?([a-z0-9][a-z0-9.-]*[a-z0-9])/.exec(t)?.[1];
  const node =
    subjects.find((s) => s.kind === 'node')?.name ??
    /\b(ip-\d+-\d+-\d+-\d+(?:\.[\w-]+)*)\b/.exec(t)?.[1] ??
    (named && !NOT_A_NAME.test(named) ? named : undefined) ??
    subjects[0]?.name;
  return node ? { type: 'node_claims', node } : undefined;
}

/** the node a question names: its exact name, or the name a listing gives with its domain */
export function nodeNamed(model: ClusterModel, name: string): ObjectView | undefined {
  return model.list('node').find((n) => n.name === name || n.name.startsWith(`${name}.`));
}

export function nodeClaims(q: NodeClaims, model: ClusterModel): string {
  const node = nodeNamed(model, q.node);
  if (!node) return `I could not find node ${q.node} with the tools available.`;
  const pods = model.podsOn(node);
  if (!pods.length) return `I could not see which pods run on node ${node.name}.`;
  const unread = pods.filter((p) => !p.containers.length && p.fields['claims'] === undefined);
  const withClaims = pods.filter((p) => p.fields['claims']);
  const zone = node.labels['topology.kubernetes.io/zone'];
  const head = withClaims.length
    ? `${withClaims.length} pod${withClaims.length === 1 ? '' : 's'} on node ${node.name}${zone ? ` (zone ${zone})` : ''} mount${withClaims.length === 1 ? 's' : ''} a PersistentVolumeClaim: ${withClaims
        .map(
          (p) =>
            `${p.namespace ? `${p.namespace}/` : ''}${p.name} (${p.fields['claims']!.split(',').join(', ')})`,
        )
        .join('; ')}.`
    : `No pod on node ${node.name} mounts a PersistentVolumeClaim.`;
  const rest = pods.length - withClaims.length - unread.length;
  return `${head} ${rest > 0 ? `The other ${rest} pod${rest === 1 ? '' : 's'} there mount${rest === 1 ? 's' : ''} none.` : ''}${
    unread.length
      ? ` The volumes of ${unread.length} pod${unread.length === 1 ? '' : 's'} there were not read: ${unread
          .slice(0, 8)
          .map((p) => p.name)
          .join(', ')}.`
      : ''
  }`.trim();
}

const PROBE_KINDS: [RegExp, string][] = [
  [/\bexec\b|\bcommand\b/, 'exec'],
  [/\bhttp(?:-?get)?\b/, 'http-get'],
  [/\btcp(?:-?socket)?\b/, 'tcp-socket'],
];

export function probeTimeoutQuestion(t: string, namespaces: string[]): ProbeTimeout | undefined {
  if (!/\bprobes?\b/.test(t) || !/\b(?:which|what|list|any|how many)\b/.test(t)) return undefined;
  // "timeoutSeconds 1", "timeout of 1s", "a 1 second timeout", "timeoutSeconds: 1"
  const m =
    /\btimeout(?:\s?seconds)?\b\s*(?:of|=|:|at|is|set to|still at|below|under|less than|at most|<=?)?\s*(\d+)\s*(?:s|sec|secs|seconds?)?\b/.exec(
      t,
    ) ?? /\b(\d+)\s*(?:s|-?sec(?:ond)?s?)\b[^?.]{0,12}\btimeouts?\b/.exec(t);
  if (!m) return undefined;
  const seconds = Number(m[1]);
  if (!Number.isFinite(seconds) || seconds > 600) return undefined;
  const below = /\b(?:below|under|less than|shorter than|<)\s*\d/.test(t);
  const atMost = /\b(?:at most|or less|or lower|<=)\b/.test(t);
  const probes = (['liveness', 'readiness', 'startup'] as const).filter((p) =>
    new RegExp(`\\b${p}\\b`).test(t),
  );
  const handler = PROBE_KINDS.find(([re]) => re.test(t.replace(/\btimeout\w*/g, '')))?.[1];
  return {
    type: 'probe_timeout',
    seconds,
    compare: below ? '<' : atMost ? '<=' : '=',
    probes: probes.length ? probes.map((p) => p[0]!.toUpperCase() + p.slice(1)) : undefined,
    handler,
    namespace: namespaces[0],
  };
}

/** The pods of a namespace (all when none) whose containers were read, finished ones aside. */
export function runningPodsWithContainers(
  model: ClusterModel,
  namespace: string | undefined,
): ObjectView[] {
  return model
    .list('pod', namespace)
    .filter(
      (p) =>
        (!namespace || p.namespace === namespace) &&
        p.containers.some((c) => !c.init) &&
        !hasFinished(p),
    );
}

export function probeTimeouts(q: ProbeTimeout, model: ClusterModel): string {
  const where = q.namespace ? ` in namespace ${q.namespace}` : '';
  const pods = runningPodsWithContainers(model, q.namespace);
  if (!pods.length)
    return `I could not read the containers of the pods${where} with the tools available.`;
  const fits = (s: number) =>
    q.compare === '<' ? s < q.seconds : q.compare === '<=' ? s <= q.seconds : s === q.seconds;
  const byWorkload = new Map<string, { kind: string; hits: Set<string> }>();
  for (const p of pods) {
    const w = model.workloadOf(p);
    const entry = byWorkload.get(w.name) ?? { kind: w.kind, hits: new Set<string>() };
    byWorkload.set(w.name, entry);
    for (const c of p.containers.filter((x) => !x.init))
      for (const probe of c.probes) {
        // "Liveness: exec [...] delay=0s timeout=1s period=10s #failure=3"
        const m = /^(\w+):\s*(\S+)[^\n]*?\btimeout=(\d+)s/.exec(probe);
        if (!m) continue;
        if (q.probes && !q.probes.includes(m[1]!)) continue;
        if (q.handler && m[2] !== q.handler) continue;
        if (fits(Number(m[3]))) entry.hits.add(`${m[1]!.toLowerCase()} of ${c.name}`);
      }
  }
  const hits = [...byWorkload].filter(([, v]) => v.hits.size);
  const what =
    `${q.handler ? `${q.handler} ` : ''}${q.probes ? q.probes.map((p) => p.toLowerCase()).join(' or ') : ''} probe${q.probes ? '' : 's'}`.trim();
  const limit = `${q.compare === '=' ? '' : q.compare === '<' ? 'below ' : 'at most '}${q.seconds}s`;
  if (!hits.length)
    return `No workload${where} runs ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what} with a timeout of ${limit} (${byWorkload.size} read from their pods; an unset timeoutSeconds is 1s).`;
  return `${hits.length} workload${hits.length === 1 ? '' : 's'}${where} run${hits.length === 1 ? 's' : ''} ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what} with a timeout of ${limit} (of ${byWorkload.size} read from their pods; an unset timeoutSeconds is 1s): ${hits
    .map(([name, v]) => `${v.kind} ${name} (${[...v.hits].join(', ')})`)
    .join(', ')}.`;
}
