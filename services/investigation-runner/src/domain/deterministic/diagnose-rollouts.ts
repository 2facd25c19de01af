/**
 * Rules on rollouts and scaling that compare several facts (cause-catalog.data.ts, its "rollouts
 * and scaling" block; their variables in finding-vars-r20roll.ts): a deploy that resets the
 * replicas an autoscaler chose, load that stays on a workload's oldest pods after a scale-up, and
 * a pod readiness gate of the AWS Load Balancer Controller whose target fails the load balancer's
 * health check.
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { isUnhealthy, unevenLoad } from './health';
import type { ClusterModel } from './model';
import type { EventView, ObjectView } from './observe/views';

/** "Scaled down replica set web-7c9d8b6f54 from 24 to 1" (the deployment controller's event) */
export const SCALED_DOWN = /Scaled down replica set (\S+) from (\d+) to (\d+)/;
/** the HorizontalPodAutoscaler's own decision: "New size: 6; reason: ..." */
const NEW_SIZE = /New size: (\d+)/;
/** the AWS Load Balancer Controller's pod readiness gate: target-health.elbv2.k8s.aws/<binding> */
export const TARGET_HEALTH_GATE = /^target-health\.(?:elbv2|alb\.ingress)\.k8s\.aws\//;

export function rolloutFindings(
  model: ClusterModel,
  entries: CauseEntry[],
  now?: number,
): Finding[] {
  const byId = (id: string) => entries.find((e) => e.id === id);
  const out: Finding[] = [];
  const reset = byId('replicas_reset_under_hpa');
  if (reset) out.push(...replicasResetUnderAutoscaler(model, reset, now));
  const pinned = byId('load_pinned_to_old_pods');
  if (pinned) out.push(...loadPinnedToOldPods(model, pinned, now));
  const gate = byId('lb_target_health_gate_failing');
  if (gate) out.push(...targetHealthGatesFailing(model, gate));
  const unjoined = byId('karpenter_nodes_never_register');
  if (unjoined) out.push(...nodesNeverRegister(model, unjoined, now));
  return out;
}

/** Karpenter's nomination of a pending pod: "Pod should schedule on: nodeclaim/default-8kq2x" */
export const NOMINATED_NODECLAIM = /Pod should schedule on: nodeclaim\/([\w.-]+)/;
/** Karpenter gave up on a NodeClaim whose node did not join in time (its controller's log) */
const REGISTRATION_TTL = /terminating due to registration ttl/i;

/**
 * Pods Karpenter nominated to NodeClaims whose instances launch but never register as nodes: a
 * NodeClaim Launched but not Registered ("Node not registered with cluster") for ten minutes or
 * more, or one Karpenter already deleted at its registration TTL (its log), or pods nominated to
 * NodeClaims that no longer exist while they still wait. A node that boots and never joins cannot
 * authenticate or reach the API server (its IAM role not mapped, its network).
 */
function nodesNeverRegister(model: ClusterModel, entry: CauseEntry, now?: number): Finding[] {
  const claims = model.list('nodeclaim');
  const unregistered = claims.filter(
    (c) =>
      c.conditions.some((x) => x.type === 'Launched' && x.status === 'True') &&
      c.conditions.some((x) => x.type === 'Registered' && x.status !== 'True'),
  );
  if (!unregistered.length) return [];
  const nominations = model.events
    .map((e) => ({ e, claim: NOMINATED_NODECLAIM.exec(e.message)?.[1] }))
    .filter((x): x is { e: EventView; claim: string } => !!x.claim);
  const ttl = model.logs.some((l) => l.lines.some((x) => REGISTRATION_TTL.test(x.text)));
  const listed = new Set(claims.map((c) => c.name));
  const gone = new Set(nominations.map((x) => x.claim).filter((c) => !listed.has(c)));
  const old = unregistered.some((c) => {
    const since = c.conditions.find((x) => x.type === 'Launched')?.at ?? c.created;
    return now !== undefined && since !== undefined && now - since >= 10 * 60_000;
  });
  if (!old && !ttl && !gone.size) return [];
  const claim = unregistered[0]!;
  const why = claim.conditions.find((x) => x.type === 'Registered');
  // the workload waiting for it: the pods nominated to these NodeClaims that are still Pending
  const waiting = nominations
    .map((x) => (x.e.object?.name ? model.get('pod', x.e.object.name, x.e.namespace) : undefined))
    .filter((p): p is ObjectView => !!p && /Pending/.test(p.status ?? ''));
  const workload = waiting[0] ? model.workloadOf(waiting[0]).name : claim.name;
  return [
    {
      entry,
      object: waiting[0]
        ? { kind: 'pod', name: waiting[0].name, namespace: waiting[0].namespace }
        : { kind: 'nodeclaim', name: claim.name },
      workload,
      ...(waiting.length > 1 ? { alsoOn: [...new Set(waiting.slice(1).map((p) => p.name))] } : {}),
      fact: `NodeClaim ${claim.name}: Registered ${why?.status ?? 'Unknown'}${why?.reason ? ` ${why.reason}` : ''}${why?.message ? `: ${why.message}` : ''}`,
      groups: {
        nodeclaims: unregistered.map((c) => c.name).join(', '),
        ...(gone.size ? { gone: [...gone].join(', ') } : {}),
        ...(ttl ? { ttl: 'yes' } : {}),
        ...(claim.fields['nodeClass'] ? { node_class: claim.fields['nodeClass'] } : {}),
      },
      where: 'condition',
      source: claim.source,
    },
  ];
}

/** the autoscalers that scale a workload: by their scaleTargetRef, else by their events' name */
export function autoscalersOf(model: ClusterModel, workload: string, ns?: string): ObjectView[] {
  return model
    .list('horizontalpodautoscaler', ns)
    .filter((h) => (h.fields['scaleTarget'] ?? '').split('/').pop() === workload);
}

const hpaEvents = (model: ClusterModel, name: string, ns?: string): EventView[] =>
  model.events.filter(
    (e) =>
      /^HorizontalPodAutoscaler$/i.test(e.object?.kind ?? '') &&
      e.object?.name === name &&
      (!ns || !e.namespace || e.namespace === ns),
  );

/**
 * A Deployment under an autoscaler whose ReplicaSet the deployment controller cut at once to a
 * fraction of its size (at least halved, by 3 pods or more, not to 0) when the autoscaler had asked
 * for no such size: the Deployment's spec.replicas was set by something else, typically a deploy
 * that applies a manifest with spec.replicas (or without it: kubectl apply then removes the field
 * and the API defaults it to 1). A rolling update's own steps are bounded by maxUnavailable; a
 * Recreate or a scale to zero goes to 0.
 */
function replicasResetUnderAutoscaler(
  model: ClusterModel,
  entry: CauseEntry,
  now?: number,
): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const e of model.events) {
    if (!/^Deployment$/i.test(e.object?.kind ?? '') || !e.object?.name) continue;
    const m = SCALED_DOWN.exec(e.message);
    if (!m) continue;
    const from = Number(m[2]);
    const to = Number(m[3]);
    if (!(to >= 1 && from >= 2 * to && from - to >= 3)) continue;
    const at = e.last ?? e.first;
    // a deploy of today, not an old event a long-lived store kept
    if (now !== undefined && at !== undefined && now - at > 12 * 3600_000) continue;
    const name = e.object.name;
    const ns = e.namespace;
    const hpas = autoscalersOf(model, name, ns);
    const rescales = [...hpas.map((h) => h.name), name].flatMap((h) => hpaEvents(model, h, ns));
    if (!hpas.length && !rescales.length) continue;
    // the autoscaler itself asked for a smaller size about then: its own scale-down (a size
    // between the two; not a scale-up back from the cut, "above target" or "below
    // Spec.MinReplicas"); event times may be known to the minute only
    const asked = rescales.some((r) => {
      const size = Number(NEW_SIZE.exec(r.message)?.[1]);
      const t = r.last ?? r.first;
      return (
        size < from &&
        size >= to &&
        !/above target|below Spec\.MinReplicas/i.test(r.message) &&
        (at === undefined || t === undefined || Math.abs(t - at) <= 120_000)
      );
    });
    if (asked) continue;
    const key = `${ns ?? ''}/${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      entry,
      object: { kind: 'deployment', name, namespace: ns },
      workload: name,
      fact: e.message,
      groups: { rs: m[1] ?? '', from: m[2] ?? '', to: m[3] ?? '' },
      at,
      where: 'event',
      source: e.source,
    });
  }
  return out;
}

/**
 * A workload its autoscaler grew whose oldest pods run at their CPU limit while every pod added
 * later idles: the new pods get no share of the requests. Kube-proxy balances connections, not
 * requests, so clients that hold long-lived connections (HTTP/2, gRPC, keep-alive) opened before
 * the scale-up stay on the old pods. A Service with sessionAffinity is another rule's.
 */
function loadPinnedToOldPods(model: ClusterModel, entry: CauseEntry, now?: number): Finding[] {
  const out: Finding[] = [];
  const workloads = new Set(
    model
      .list('horizontalpodautoscaler')
      .map((h) => `${h.namespace ?? ''}/${(h.fields['scaleTarget'] ?? '').split('/').pop() ?? ''}`),
  );
  for (const key of workloads) {
    const [ns, name] = key.split('/');
    if (!name) continue;
    const load = unevenLoad(model, name, ns || undefined);
    if (!load) continue;
    const affinity = model
      .list('service', ns || undefined)
      .some(
        (s) =>
          /ClientIP/i.test(s.fields['sessionAffinity'] ?? '') &&
          (s.name === name || s.name.startsWith(`${name}-`)),
      );
    if (affinity) continue;
    // the idle pods serve: ready, and up for minutes (a pod still starting idles for that reason)
    if (
      load.idle.some(
        (p) =>
          (now !== undefined && isUnhealthy(p, now)) ||
          !/^Running$/i.test(p.status ?? 'Running') ||
          (now !== undefined && p.created !== undefined && now - p.created < 5 * 60_000),
      )
    )
      continue;
    const created = (p: ObjectView) => p.created;
    const hotNewest = Math.max(...load.hot.map((p) => created(p) ?? Infinity));
    const idleOldest = Math.min(...load.idle.map((p) => created(p) ?? -Infinity));
    // every hot pod is older than every idle one
    if (!Number.isFinite(hotNewest) || !Number.isFinite(idleOldest) || hotNewest >= idleOldest)
      continue;
    out.push({
      entry,
      object: { kind: 'deployment', name, namespace: ns || undefined },
      workload: name,
      fact: `${load.hot.length} of ${load.hot.length + load.idle.length} pods at their CPU limit (${load.hot.map((p) => p.name).join(', ')}), the ${load.idle.length} newer ones at ${load.idleCpu} or less`,
      groups: {},
      where: 'metric',
      source: load.hot[0]?.source ?? '',
    });
  }
  return out;
}

/**
 * Pods whose readiness gate of the AWS Load Balancer Controller is False: the containers are
 * ready (their kubelet probes pass) but the load balancer's own health check of the target fails,
 * so the pod never turns Ready and a rollout stalls.
 */
function targetHealthGatesFailing(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const p of model.list('pod')) {
    const gate = p.conditions.find((c) => TARGET_HEALTH_GATE.test(c.type) && c.status === 'False');
    if (!gate) continue;
    const w = model.workloadOf(p).name;
    const key = `${p.namespace ?? ''}/${w}`;
    const same = out.find((f) => `${f.object?.namespace ?? ''}/${f.workload}` === key);
    if (same) {
      (same.alsoOn ??= []).push(p.name);
      continue;
    }
    out.push({
      entry,
      object: { kind: 'pod', name: p.name, namespace: p.namespace },
      workload: w,
      fact: `${gate.type} ${gate.status}${gate.reason ? ` ${gate.reason}` : ''}${gate.message ? `: ${gate.message}` : ''}`,
      // the gate's state now, however long ago it turned False (not a past event)
      groups: { gate: gate.type, ...(gate.reason ? { gate_reason: gate.reason } : {}) },
      where: 'condition',
      source: p.source,
    });
  }
  return out;
}
