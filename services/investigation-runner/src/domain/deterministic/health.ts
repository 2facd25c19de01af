import type { ObjectView } from './observe';

/** A pod that ran to completion (phase Succeeded; kubectl shows Completed). */
export const hasCompleted = (p: ObjectView): boolean =>
  /^(Succeeded|Completed)$/.test(p.status ?? '');

/** A pod that will not run again: completed, or failed for good. */
export const hasFinished = (p: ObjectView): boolean =>
  hasCompleted(p) || /^Failed$/.test(p.status ?? '');

/** Whether an object is failing now (a pod not running and ready, a node not Ready, ...). */
export function isUnhealthy(o: ObjectView, now: number = Date.now()): boolean {
  if (o.kind === 'pod') {
    if (o.status && !/^(Running|Succeeded|Completed)$/.test(o.status)) return true;
    // a pod that ran to completion: its containers exited 0 and are never ready again
    if (hasCompleted(o)) return false;
    if (
      o.containers.some(
        (c) =>
          c.waiting?.reason ||
          (c.terminated && c.terminated.reason !== 'Completed') ||
          c.ready === false,
      )
    )
      return true;
    const ready = o.fields['ready'];
    if (ready && /^(\d+)\/(\d+)$/.test(ready)) {
      const [a, b] = ready.split('/').map(Number);
      if (a !== b) return true;
    }
    // many restarts count while they are recent (a crash loop long over is history)
    const lastExit = Math.max(0, ...o.containers.map((c) => c.last?.at ?? 0));
    return (o.restarts ?? 0) > 3 && (!lastExit || now - lastExit < 60 * 60_000);
  }
  if (o.kind === 'node') return !!o.status && !/^Ready$/.test(o.status);
  if (o.kind === 'persistentvolumeclaim') return !!o.status && o.status !== 'Bound';
  if (o.kind === 'job')
    return (
      o.conditions.some((c) => c.type === 'Failed' && c.status === 'True') ||
      Number(o.fields['status.failed'] ?? 0) > 0 ||
      /fail/i.test(o.status ?? '')
    );
  if (o.kind === 'deployment' || o.kind === 'statefulset') {
    const want = Number(o.fields['replicas'] ?? o.fields['status.replicas'] ?? NaN);
    const avail = Number(
      o.fields['status.availableReplicas'] ?? o.fields['status.readyReplicas'] ?? NaN,
    );
    if (Number.isFinite(want) && Number.isFinite(avail) && avail < want) return true;
    return o.conditions.some(
      (c) =>
        (c.type === 'Available' && c.status === 'False') ||
        (c.type === 'ReplicaFailure' && c.status === 'True'),
    );
  }
  return o.conditions.some((c) => c.type === 'Ready' && c.status === 'False');
}

/** The pods on a node whose names match `name` (a node plugin's DaemonSet pods), failing first. */
export function podsOnNode(
  pods: ObjectView[],
  node: string,
  name: RegExp,
  now: number,
): ObjectView[] {
  return pods
    .filter((p) => p.node === node && name.test(p.name))
    .sort((a, b) => Number(isUnhealthy(b, now)) - Number(isUnhealthy(a, now)));
}
