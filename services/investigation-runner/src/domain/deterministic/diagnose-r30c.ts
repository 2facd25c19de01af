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
  const missed = entries.find((e) => e.id === 'cronjob_missed_schedule');
  return [
    ...(entry ? budgetsUsedByUnreadyPods(model, entry) : []),
    ...(missed ? missedSchedules(model, missed) : []),
  ];
}

/** the CronJob controller's event for a run it did not start in time */
export const MISSED_SCHEDULE = /Missed scheduled time to start a job/;
/** below this, a controller a little late skips the run (the docs warn of less than 10 s) */
const SHORT_DEADLINE_S = 60;

/**
 * A CronJob whose runs are skipped: MissedSchedule events ("Missed scheduled time to start a job:
 * <time>") after its last scheduled run, while it is not suspended. With a short
 * startingDeadlineSeconds the controller, which looks at CronJobs about every 10 s, is often
 * too late for the run's window and skips it instead of starting it late.
 */
function missedSchedules(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const c of model.list('cronjob')) {
    if (c.fields['suspend'] === 'true') continue;
    const missed = model.events.filter(
      (e) =>
        (e.reason === 'MissedSchedule' || MISSED_SCHEDULE.test(e.message)) &&
        e.object?.name === c.name &&
        (!e.object.kind || /cronjob/i.test(e.object.kind)) &&
        (!e.namespace || !c.namespace || e.namespace === c.namespace),
    );
    if (!missed.length) continue;
    const last = Date.parse(c.fields['lastScheduleTime'] ?? '');
    const at = Math.max(0, ...missed.map((e) => e.last ?? e.first ?? 0));
    // missed runs before the last one that started are history
    if (Number.isFinite(last) && at && at <= last) continue;
    const deadline = c.fields['startingDeadlineSeconds'];
    const seconds = deadline !== undefined ? Number(deadline) : NaN;
    const times = missed
      .map((e) => /start a job:\s*(.+)$/.exec(e.message)?.[1]?.trim())
      .filter((x): x is string => !!x);
    const count = missed.reduce((a, e) => a + (e.count ?? 1), 0);
    const short = Number.isFinite(seconds) && seconds < SHORT_DEADLINE_S;
    out.push({
      entry,
      object: { kind: 'cronjob', name: c.name, namespace: c.namespace },
      workload: c.name,
      fact: `CronJob ${c.namespace ? `${c.namespace}/` : ''}${c.name} (schedule ${c.fields['schedule'] ?? '?'}${deadline !== undefined ? `, startingDeadlineSeconds ${deadline}` : ''}) missed its schedule ${count} time(s): "${missed[missed.length - 1]!.message}"${c.fields['lastScheduleTime'] ? `; its last run was scheduled ${c.fields['lastScheduleTime']}` : ''}`,
      groups: {
        cronjob: c.name,
        missed_times: times.length ? ` at ${times.join('; ')}` : '',
        deadline_said: short
          ? `: its startingDeadlineSeconds is ${deadline}, too short a window. The CronJob controller looks at CronJobs about every 10 s, and when it comes to a run more than ${deadline} s after its time (a little lag, a controller restart or leader change) it does not start it late but skips it as missed, so no Job is created for that run`
          : deadline !== undefined
            ? `: the CronJob controller did not get to these runs within their startingDeadlineSeconds of ${deadline}, so it skipped them instead of starting them late (kube-controller-manager was down, lagging or changing leader at those times)`
            : ': the CronJob controller did not start these runs in time and skipped them (a startingDeadlineSeconds shorter than its lag, or kube-controller-manager down at those times)',
        deadline_fix: short
          ? `Raise startingDeadlineSeconds of CronJob ${c.name} to a window the controller can meet (a few minutes, e.g. 300 or more) or remove it`
          : `Read the startingDeadlineSeconds of CronJob ${c.name} and the kube-controller-manager logs at the missed times; raise or remove the deadline if it is shorter than the controller's lag`,
      },
      at: at || undefined,
      where: 'event',
      source: c.source ?? 'cronjob',
    });
  }
  return out;
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
    if (!reqs) continue;
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
