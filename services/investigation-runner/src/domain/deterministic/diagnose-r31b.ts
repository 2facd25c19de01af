/**
 * Round31 (r31b): warnings of a ReplicaSet the Deployment has rolled past.
 *
 * A ReplicaSet whose pods admission rejected ("FailedCreate ... forbidden: violates PodSecurity",
 * an admission webhook, a quota) keeps its Warning events for an hour after the Deployment's next
 * revision fixed the pod template and scaled it to 0. Those events name a revision nothing runs
 * any more: when every pod of the Deployment is running and ready now, none of them belongs to
 * the rejected ReplicaSet, and the Deployment's current revision is another ReplicaSet (its
 * Progressing condition or description says which, or its pods were created after the last
 * rejection), the rejection is over.
 */
import type { Finding } from './diagnose';
import { isUnhealthy } from './health';
import type { ClusterModel } from './model';
import type { ObjectView } from './observe/views';

const HOUR_HALF = 30 * 60_000;

/** the ReplicaSet a Deployment names as its current one (Progressing condition, description) */
function currentReplicaSet(d: ObjectView | undefined): string | undefined {
  if (!d) return undefined;
  const progressing = d.conditions.find((c) => c.type === 'Progressing' && c.status === 'True');
  const named = /ReplicaSet "([^"]+)" has successfully progressed/.exec(
    progressing?.message ?? '',
  )?.[1];
  return named ?? d.fields['newReplicaSet'];
}

function belongsTo(p: ObjectView, rs: string): boolean {
  if (p.owner?.kind === 'replicaset') return p.owner.name === rs;
  return p.name.startsWith(`${rs}-`) && /^[a-z0-9]{5}$/.test(p.name.slice(rs.length + 1));
}

function readyPod(p: ObjectView, now: number): boolean {
  if (p.status !== 'Running' || isUnhealthy(p, now)) return false;
  const listed = /^(\d+)\/(\d+)$/.exec(p.fields['ready'] ?? '');
  if (listed) return listed[1] === listed[2] && listed[1] !== '0';
  return p.containers.length > 0 && p.containers.every((c) => c.ready && !c.waiting);
}

/**
 * A finding from events of a ReplicaSet its Deployment has since replaced by a revision whose pods
 * all run and are ready (and the last of those events is more than half an hour old).
 */
export function rolledPastReplicaSet(f: Finding, model: ClusterModel, now: number): boolean {
  if (f.where !== 'event') return false;
  const ns = f.object?.namespace;
  // the ReplicaSet the events are about: the finding's object, or the event its fact came from
  let rs = f.object?.kind === 'replicaset' ? f.object.name : undefined;
  const events = model.events.filter(
    (e) =>
      (!ns || !e.namespace || e.namespace === ns) &&
      (rs
        ? e.object?.name === rs
        : e.object?.kind?.toLowerCase() === 'replicaset' &&
          e.message.includes(f.fact.slice(0, 60))),
  );
  rs ??= events[0]?.object?.name;
  if (!rs || !events.length) return false;
  const last = Math.max(...events.map((e) => e.last ?? e.first ?? Number.NaN));
  // a tool that drops the events' times: only the Deployment's own word below can date them
  const dated = Number.isFinite(last);
  if (dated && now - last <= HOUR_HALF) return false;
  const rsView = model.get('replicaset', rs, ns);
  const deployment = rsView?.owner?.kind === 'deployment' ? rsView.owner.name : undefined;
  const workload = deployment ?? f.workload;
  const pods = model.podsOf('deployment', workload, ns).filter((p) => p.name.startsWith(workload));
  if (!pods.length || pods.some((p) => belongsTo(p, rs) || !readyPod(p, now))) return false;
  // the Deployment's current revision is another ReplicaSet
  const current = currentReplicaSet(model.get('deployment', workload, ns));
  if (current) return current !== rs;
  const replicas = rsView?.fields['replicas'] ?? rsView?.fields['spec.replicas'];
  if (replicas === '0') return true;
  // or its pods were all created after the last rejection
  return dated && pods.every((p) => p.created !== undefined && p.created > last);
}
