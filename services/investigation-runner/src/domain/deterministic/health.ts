import { quantity, type ClusterModel } from './model';
import type { ObjectView } from './observe';

/** A pod that ran to completion (phase Succeeded; kubectl shows Completed). */
export const hasCompleted = (p: ObjectView): boolean =>
  /^(Succeeded|Completed)$/.test(p.status ?? '');

/** A Job that completed or failed (its completion time, or a Complete/Failed condition). */
export const jobEnded = (j: ObjectView): boolean =>
  !!j.fields['completionTime'] ||
  j.conditions.some((c) => /^(?:Complete|Failed)$/.test(c.type) && c.status === 'True');

/** A pod that will not run again: completed, or failed for good. */
export const hasFinished = (p: ObjectView): boolean =>
  hasCompleted(p) || /^Failed$/.test(p.status ?? '');

/**
 * Failing now, or restarting over and over: a container OOM-killed and running again between
 * kills looks healthy in a listing, its restart count does not.
 */
export const failsOrRestarts = (p: ObjectView, now: number) =>
  isUnhealthy(p, now) || (p.restarts ?? 0) > 2;

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

/** A workload's pods at their CPU limit while others of it idle: the load is not spread. */
export interface UnevenLoad {
  /** pods using at least 90% of their CPU limit */
  hot: ObjectView[];
  /** pods using under a quarter of it */
  idle: ObjectView[];
  /** the most CPU an idle pod uses */
  idleCpu: string;
}

/** From resource metrics (kubectl top): uneven CPU across the pods of one workload. */
export function unevenLoad(
  model: ClusterModel,
  workload: string,
  namespace?: string,
): UnevenLoad | undefined {
  const hot: ObjectView[] = [];
  const idle: { pod: ObjectView; cpu: string }[] = [];
  const limitOf = (p: ObjectView) =>
    p.containers.reduce((sum, c) => sum + quantity(c.limits['cpu']), 0);
  const pods = model
    .list('pod', namespace)
    .filter(
      (p) => (!namespace || p.namespace === namespace) && model.workloadOf(p).name === workload,
    );
  // a listing shows no limits: the pods of one template share those of the ones described
  const shared = pods.map(limitOf).find((x) => x > 0);
  for (const { kind, name, cpu } of model.metrics) {
    const pod = kind === 'pod' && cpu ? pods.find((p) => p.name === name) : undefined;
    const limit = pod && (limitOf(pod) || shared);
    if (!pod || !cpu || !limit) continue;
    const share = quantity(cpu) / limit;
    if (share >= 0.9) hot.push(pod);
    else if (share < 0.25) idle.push({ pod, cpu });
  }
  if (!hot.length || !idle.length) return undefined;
  const most = idle.reduce((a, b) => (quantity(b.cpu) > quantity(a.cpu) ? b : a));
  return { hot, idle: idle.map((x) => x.pod), idleCpu: most.cpu };
}

/**
 * Pairs of a failing pod of the given targets' workloads and a healthy pod of another workload
 * of its namespace that runs the same images: the same code, another configuration.
 */
export function healthyTwins(
  model: ClusterModel,
  targets: ObjectView[],
  now: number,
): { failing: ObjectView; healthy: ObjectView }[] {
  const out: { failing: ObjectView; healthy: ObjectView }[] = [];
  const seen = new Set<string>();
  const imagesOf = (p: ObjectView) =>
    p.containers
      .filter((c) => !c.init)
      .map((c) => c.image)
      .filter(Boolean)
      .sort()
      .join(' ');
  for (const t of targets) {
    const pods = t.kind === 'pod' ? [t] : model.podsOf(t.kind, t.name, t.namespace);
    const failing = pods.find((p) => isUnhealthy(p, now) && (p.restarts ?? 0) > 0);
    if (!failing) continue;
    const w = model.workloadOf(failing).name;
    const images = imagesOf(failing);
    if (!images || seen.has(w)) continue;
    const healthy = model
      .list('pod', failing.namespace)
      .find(
        (p) => model.workloadOf(p).name !== w && imagesOf(p) === images && !isUnhealthy(p, now),
      );
    if (!healthy) continue;
    seen.add(w);
    out.push({ failing, healthy });
  }
  return out;
}
