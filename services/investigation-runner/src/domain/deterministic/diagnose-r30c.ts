/**
 * Round30 (r30c) rule that compares objects (cause-catalog.data.ts, its "round30 (r30c)" block).
 *
 * A drain refused by a PodDisruptionBudget that would allow a disruption if all its pods were
 * healthy: the budget (maxUnavailable 1, or minAvailable below the replicas) is already used up by
 * a pod of the same workload that is not ready (a crash loop, an image it cannot pull) on another
 * node. The eviction API counts that broken pod as the one disruption allowed, so the healthy pod
 * on the cordoned node cannot go. The fix is the broken pod (or unhealthyPodEvictionPolicy
 * AlwaysAllow), not the budget.
 */
import { matchesLabels } from '@inquest/kube';
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { selectorOf } from './dependencies';
import { isUnhealthy } from './health';
import { isCordoned, type ClusterModel } from './model';
import type { ObjectView } from './observe/views';

export function r30cFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const entry = entries.find((e) => e.id === 'pdb_budget_used_by_unready_pod');
  return entry ? budgetsUsedByUnreadyPods(model, entry) : [];
}

/** why a pod is not ready, in the words of its status: "CrashLoopBackOff (187 restarts)" */
function unreadyState(p: ObjectView): string {
  const c = p.containers.find((x) => x.waiting?.reason || x.ready === false);
  const reason =
    c?.waiting?.reason ??
    (p.reason && !/^(Running|Succeeded|Completed)$/.test(p.reason) ? p.reason : undefined) ??
    (p.status && !/^(Running|Succeeded|Completed)$/.test(p.status) ? p.status : 'not ready');
  const restarts = p.restarts ?? c?.restarts;
  return `${reason}${restarts ? `, ${restarts} restarts` : ''}`;
}

function budgetsUsedByUnreadyPods(model: ClusterModel, entry: CauseEntry): Finding[] {
  const cordoned = new Set(
    model
      .list('node')
      .filter(isCordoned)
      .map((n) => n.name),
  );
  if (!cordoned.size) return [];
  const out: Finding[] = [];
  for (const b of model.list('poddisruptionbudget')) {
    if (b.fields['disruptionsAllowed'] !== '0' || !b.namespace || !b.fields['selector']) continue;
    const healthy = Number(b.fields['currentHealthy']);
    const expected = Number(b.fields['expectedPods']);
    // all expected pods healthy: the budget itself allows nothing (pdb_blocks_drain says so)
    if (!Number.isFinite(healthy) || !Number.isFinite(expected) || healthy >= expected) continue;
    const reqs = selectorOf(b.fields['selector']);
    const pods = model
      .list('pod')
      .filter((p) => p.namespace === b.namespace && matchesLabels(p.labels, reqs));
    const stuck = pods.find((p) => p.node && cordoned.has(p.node) && !isUnhealthy(p));
    // the pods that use the budget up: not ready, and not on the node being drained
    const broken = pods.filter((p) => !(p.node && cordoned.has(p.node)) && isUnhealthy(p));
    if (!stuck || !broken.length) continue;
    const budget = b.fields['minAvailable']
      ? `minAvailable ${b.fields['minAvailable']}`
      : b.fields['maxUnavailable']
        ? `maxUnavailable ${b.fields['maxUnavailable']}`
        : 'its budget';
    const which = broken
      .map((p) => `${p.name} (${unreadyState(p)}${p.node ? ` on ${p.node}` : ''})`)
      .join(', ');
    out.push({
      entry,
      object: { kind: 'pod', name: broken[0]!.name, namespace: broken[0]!.namespace },
      workload: model.workloadOf(stuck).name,
      fact: `PodDisruptionBudget ${b.namespace}/${b.name} has ${budget} and allows 0 disruptions (${healthy} healthy of ${expected} expected pods): the unhealthy pod ${which} already counts as the disruption, so the eviction of ${stuck.name} from cordoned node ${stuck.node} is refused`,
      groups: {
        pdb: b.name,
        budget,
        drained: stuck.node ?? '',
        pod: stuck.name,
        broken: broken.map((p) => p.name).join(', '),
        state: unreadyState(broken[0]!),
      },
      where: 'status',
      source: b.source ?? 'poddisruptionbudget',
    });
  }
  return out;
}
