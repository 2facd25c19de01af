/**
 * A question of round26 (r26c): before draining a node, which workloads have every pod on it (a
 * drain evicts them all at once, so they go fully down until their new pods start elsewhere),
 * which only some, and which none. DaemonSet pods are left out: they run on every node and a
 * drain leaves them.
 */
import { hasFinished } from './health';
import { isCordoned, type ClusterModel } from './model';
import type { ObjectView } from './observe/views';
import type { Question, Scope, Subject } from './scope';

const DRAIN =
  /\b(?:drain\w*|cordon\w*|evict\w*|reboot\w*|decommission\w*|(?:take|taking) (?:it |the node )?(?:down|out))\b/;
const ASKS_WORKLOADS =
  /\b(?:which|what|list|any)\b[^?.]{0,40}?\b(?:deployments?|workloads?|services?|apps?|applications?|statefulsets?)\b/;
const ALL_THERE =
  /\b(?:all|every|each|only)\b[^?.]{0,30}?\b(?:pods?|replicas?|instances?)\b[^?.]{0,30}?\bon\b|\b(?:go|be|are|is)\s+(?:fully|completely|entirely|totally)\s+down\b|\bfully down\b|\blose (?:all|every)\b/;

export function drainImpactQuestion(
  t: string,
  namespaces: string[],
  subjects: Subject[],
): Question | undefined {
  if (!DRAIN.test(t) || !ASKS_WORKLOADS.test(t) || !ALL_THERE.test(t)) return undefined;
  const node =
    subjects.find((s) => s.kind === 'node')?.name ??
    /\b(ip-\d+-\d+-\d+-\d+(?:\.[\w-]+)*)\b/.exec(t)?.[1] ??
    /\bnode\s+[`'"]?([a-z0-9][a-z0-9.-]*[a-z0-9])/.exec(t)?.[1];
  if (!node) return undefined;
  return { type: 'drain_impact', node, namespace: namespaces[0] };
}

export function drainImpact(
  q: Extract<Question, { type: 'drain_impact' }>,
  model: ClusterModel,
  scope: Scope,
): string {
  const where = q.namespace ? ` in namespace ${q.namespace}` : '';
  const node =
    model.list('node').find((n) => n.name === q.node || n.name.startsWith(`${q.node}.`)) ??
    model
      .list('node')
      .find((n) => scope.subjects.some((s) => model.matches(n, { ...s, kind: 'node' })));
  if (!node) return `I could not find node ${q.node} with the tools available.`;
  const pods = model
    .list('pod', q.namespace)
    .filter((p) => p.kind === 'pod' && (!q.namespace || p.namespace === q.namespace))
    .filter((p) => !hasFinished(p));
  if (!pods.length) return `I could not list the pods${where} with the tools available.`;
  const on = new Set(model.podsOn(node).map((p) => `${p.namespace ?? ''}/${p.name}`));
  const byWorkload = new Map<string, { kind: string; pods: ObjectView[] }>();
  for (const p of pods) {
    const w = model.workloadOf(p);
    if (/daemonset/i.test(w.kind) || /daemonset/i.test(p.owner?.kind ?? '')) continue;
    const key = `${w.kind}/${w.name}`;
    const g = byWorkload.get(key) ?? { kind: w.kind, pods: [] };
    g.pods.push(p);
    byWorkload.set(key, g);
  }
  const rows = [...byWorkload].map(([key, g]) => ({
    name: key.slice(key.indexOf('/') + 1),
    kind: g.kind,
    total: g.pods.length,
    there: g.pods.filter((p) => on.has(`${p.namespace ?? ''}/${p.name}`)).length,
    unknown: g.pods.filter((p) => !p.node && !on.has(`${p.namespace ?? ''}/${p.name}`)).length,
  }));
  const all = rows.filter((r) => r.there && r.there === r.total);
  const part = rows.filter((r) => r.there && r.there < r.total);
  const none = rows.filter((r) => !r.there && !r.unknown);
  const unknown = rows.filter((r) => !r.there && r.unknown);
  const list = (rs: typeof rows) =>
    rs.map((r) => `${r.name} (${r.kind}, ${r.there} of ${r.total} pods)`).join(', ');
  const state = isCordoned(node) ? ' (cordoned)' : '';
  const parts = [
    all.length
      ? `${all.length} workload${all.length === 1 ? ' has' : 's have'} every pod on node ${node.name}${state}${where}: ${list(all)}; draining the node evicts them all at once, so ${all.length === 1 ? 'it goes' : 'they go'} fully down until the new pods start on other nodes (scale ${all.length === 1 ? 'it' : 'them'} up first, or add a PodDisruptionBudget so the drain evicts one at a time).`
      : `No workload${where} has all of its pods on node ${node.name}${state}.`,
  ];
  if (part.length)
    parts.push(`Only partly there (they keep serving from other nodes): ${list(part)}.`);
  if (none.length) parts.push(`No pod there: ${none.map((r) => r.name).join(', ')}.`);
  if (unknown.length) parts.push(`Node not shown for: ${unknown.map((r) => r.name).join(', ')}.`);
  const pdbs = model
    .list('poddisruptionbudget', q.namespace)
    .filter((o) => o.kind === 'poddisruptionbudget');
  if (!pdbs.length && all.length) parts.push(`No PodDisruptionBudget${where} was seen.`);
  return parts.join(' ');
}
