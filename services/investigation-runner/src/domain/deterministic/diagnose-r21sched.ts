/**
 * The rules of round21's scheduling block (cause-catalog.data.ts, "scheduling: who holds the
 * capacity, who evicts (round21, r21sched)") that compare several facts, not one line.
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import type { ClusterModel } from './model';

/** the cluster autoscaler's event on a pod it deletes to remove its node */
export const SCALE_DOWN_DELETE = /deleting pod for node scale down/i;

/**
 * A Job's pods deleted by the cluster autoscaler's node scale-down: the ScaleDown event on a
 * pod whose name is a Job's (<job>-<5 characters>, the Job read or named by an event of its own).
 * A Deployment's pod it moves is replaced and nothing is lost: not this.
 */
export function scaleDownEvictedJobs(model: ClusterModel, entry: CauseEntry): Finding[] {
  const byJob = new Map<string, Finding>();
  for (const e of model.events) {
    if (e.reason !== 'ScaleDown' || !SCALE_DOWN_DELETE.test(e.message)) continue;
    const pod = e.object?.name;
    if (!pod || (e.object?.kind && !/^pod$/i.test(e.object.kind))) continue;
    const stem = /^(.+)-[a-z0-9]{5}$/.exec(pod)?.[1];
    if (!stem) continue;
    const ns = e.namespace;
    const isJob =
      !!model.get('job', stem, ns) ||
      model.events.some(
        (x) =>
          /^Job$/i.test(x.object?.kind ?? '') &&
          x.object?.name === stem &&
          (!ns || !x.namespace || x.namespace === ns),
      );
    if (!isJob) continue;
    const k = `${ns ?? ''}/${stem}`;
    const seen = byJob.get(k);
    if (seen) {
      if (!seen.alsoOn?.includes(pod) && seen.object?.name !== pod) (seen.alsoOn ??= []).push(pod);
      continue;
    }
    byJob.set(k, {
      entry,
      object: { kind: 'pod', name: pod, namespace: ns },
      workload: stem,
      fact: e.message.trim(),
      groups: {},
      at: e.last ?? e.first,
      where: 'event',
      source: e.source,
    });
  }
  return [...byJob.values()];
}
