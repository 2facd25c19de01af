/**
 * A question of round30 (r30c): before a drain or a node upgrade, which PodDisruptionBudgets
 * allow no disruption right now (status.disruptionsAllowed 0): each of them refuses every
 * eviction of its pods, so the drain of a node that holds one waits. Each budget is shown with
 * what makes it 0 (minAvailable equal to the healthy pods, maxUnavailable 0, pods not healthy).
 */
import type { ClusterModel } from './model';
import type { ObjectView } from './observe/views';
import type { Question, Scope } from './scope';
import { questionNamespace } from './questions';

const BUDGET = /\bpdbs?\b|\bpod ?disruption ?budgets?\b|\bdisruption ?budgets?\b/;
const ASKS = /\b(?:which|what|list|any|show)\b/;
const BLOCKS =
  /\bblock\w*|\b(?:0|zero|no)\s+(?:allowed\s+)?disruptions?\b|\bdisruptions?\s*allowed\b|\ballow(?:s|ing)?\s+(?:0|zero|no)\b|\bdrain\w*|\bevict\w*/;

/** a drain that already fails: an incident to investigate (which pod, which node), not a listing */
const FAILING =
  /\b(?:stuck|hang\w*|hung|loop\w*|fail\w*|cannot evict|can'?t evict|would violate|waiting|retry\w*)\b/;

export function pdbBlockingQuestion(
  t: string,
  namespaces: string[],
  near: string[],
): Question | undefined {
  if (!BUDGET.test(t) || !ASKS.test(t) || !BLOCKS.test(t) || FAILING.test(t)) return undefined;
  return { type: 'pdb_blocking', namespace: namespaces[0], near };
}

const num = (x?: string) => (x !== undefined && /^\d+$/.test(x) ? Number(x) : undefined);

/** why a budget allows no disruption, from its spec and status */
function why(b: ObjectView): string {
  const healthy = num(b.fields['currentHealthy']);
  const expected = num(b.fields['expectedPods']);
  const min = b.fields['minAvailable'];
  const max = b.fields['maxUnavailable'];
  const pods =
    healthy !== undefined && expected !== undefined
      ? `${healthy} healthy of ${expected} pods`
      : healthy !== undefined
        ? `${healthy} healthy pods`
        : '';
  if (healthy !== undefined && expected !== undefined && healthy < expected)
    return `${min !== undefined ? `minAvailable ${min}` : `maxUnavailable ${max ?? '?'}`}, ${pods}: pods that are not healthy already use the budget up`;
  if (max !== undefined && /^0%?$/.test(max))
    return `maxUnavailable ${max}${pods ? `, ${pods}` : ''}: it never allows an eviction`;
  if (min !== undefined)
    return `minAvailable ${min}${pods ? `, ${pods}` : ''}: every healthy pod is needed, so none may be evicted`;
  return pods || 'its budget';
}

export function pdbBlocking(
  q: Extract<Question, { type: 'pdb_blocking' }>,
  model: ClusterModel,
  scope: Scope,
): string {
  const ns = questionNamespace(q, model, scope);
  const where = ns ? ` in namespace ${ns}` : '';
  const budgets = model
    .list('poddisruptionbudget', ns)
    .filter((b) => b.kind === 'poddisruptionbudget' && (!ns || b.namespace === ns));
  if (!budgets.length) return `No PodDisruptionBudget${where} was seen with the tools available.`;
  const known = budgets.filter((b) => num(b.fields['disruptionsAllowed']) !== undefined);
  const zero = known.filter((b) => b.fields['disruptionsAllowed'] === '0');
  const other = known.filter((b) => b.fields['disruptionsAllowed'] !== '0');
  const unknown = budgets.filter((b) => num(b.fields['disruptionsAllowed']) === undefined);
  const name = (b: ObjectView) => (ns ? b.name : `${b.namespace ?? ''}/${b.name}`);
  const parts = [
    zero.length
      ? `${zero.length} PodDisruptionBudget${zero.length === 1 ? '' : 's'}${where} allow${zero.length === 1 ? 's' : ''} 0 disruptions now and will block a drain of any node that runs ${zero.length === 1 ? 'its' : 'their'} pods: ${zero
          .map((b) => `${name(b)} (${why(b)})`)
          .join(
            '; ',
          )}. Scale ${zero.length === 1 ? 'that workload' : 'those workloads'} up, or relax the budget (maxUnavailable 1), before the drain.`
      : `No PodDisruptionBudget${where} is at 0 allowed disruptions now.`,
  ];
  if (other.length)
    parts.push(
      `Allowing disruptions: ${other.map((b) => `${name(b)} (${b.fields['disruptionsAllowed']} allowed)`).join(', ')}.`,
    );
  if (unknown.length)
    parts.push(`Allowed disruptions not shown for: ${unknown.map(name).join(', ')}.`);
  return parts.join(' ');
}
