import { matchesLabels } from '@inquest/kube';
import { selectorOf } from './dependencies';
import { isCordoned, quantity, type ClusterModel } from './model';
import { hasCompleted, hasFinished } from './health';
import type { HostPathView, ObjectView } from './observe';
import type { LogLine } from './observe/views';
import type { Question, Scope, Subject } from './scope';
import {
  barePods,
  ingressHostsAndTls,
  nodeTopology,
  podsPerNode,
  underReplicated,
} from './questions-fleet';
import {
  failedJobs,
  imagePullPods,
  pendingPods,
  restartedContainers,
  rollouts,
} from './questions-activity';
import { externalNameServices, hpasAtMax } from './questions-limits';
import { cronJobsWithoutSuccess, requestsTotal } from './questions-workloads';
import {
  certificatesExpiring,
  kubeletVersions,
  volumesByPhase,
  workloadsReading,
} from './questions-state';
import { ingressBackendsDangling } from './questions-r22i';
import { clip } from './text';
import { claimExpansion, podsWithoutSidecar } from './questions-r23a';
import { gitopsUnmanaged } from './questions-r24b';
import { podsHoldingOldValue } from './questions-r25b';
import { ingressesWithAnnotation } from './questions-r26b';
import { RATE_LIMIT_KEYS, ingressRateLimits } from './questions-r31a';
import { podsByQos } from './questions-r28b';
import { readyPodsByNode } from './questions-r29a';
import { jvmWithoutHeap } from './questions-r29b';
import { currentPrimary } from './questions-r30a';
import { workloadsWithoutIrsa } from './questions-r24a';
import { drainImpact } from './questions-r26c';
import { pdbBlocking } from './questions-r30c';
import { readOnlyRootfs } from './questions-r31b';
import { pvcRetention } from './questions-r28a';
import { nodeClaims, probeTimeouts, runningPodsWithContainers } from './questions-pods-config';

/** Answers a question the message asks, from the data; says plainly what it could not see. */
export function answerQuestion(
  q: Question,
  model: ClusterModel,
  scope: Scope,
  now: number,
): string {
  const where = (ns?: string) => (ns ? ` in namespace ${ns}` : '');
  switch (q.type) {
    case 'count':
    case 'which': {
      // "which pods are running on ip-10-0-41-7 right now?": the pods of the node the message names
      const node =
        q.what === 'pod'
          ? model
              .list('node')
              .find((n) => scope.subjects.some((s) => model.matches(n, { ...s, kind: 'node' })))
          : undefined;
      const onNode = node ? new Set(model.podsOn(node).map((p) => p.name)) : undefined;
      const all = model
        .list(q.what, q.namespace)
        .filter((o) => o.kind === q.what && (!onNode || onNode.has(o.name)));
      if (!all.length)
        return `I could not list any ${q.what}s${where(q.namespace)} with the tools available.`;
      const hits = all.filter((o) => statusMatches(o, q.status, q.since));
      const names = hits.map((o) => o.name);
      const label = `${
        q.status ? `${q.status === 'failing' ? 'failing (not running and ready)' : q.status}` : ''
      }${node ? `${q.status ? ' ' : ''}on node ${node.name}` : ''}`;
      if (q.type === 'count')
        return `${hits.length} ${q.what}${hits.length === 1 ? ' is' : 's are'}${label ? ` ${label}` : ''}${where(q.namespace)}${names.length ? `: ${names.join(', ')}` : ''} (of ${all.length} ${q.what}s seen).`;
      return names.length
        ? `${names.length} ${q.what}${names.length === 1 ? '' : 's'}${label ? ` ${label}` : ''}${where(q.namespace)}: ${hits.map((o) => `${o.name}${o.restarts ? ` (${o.restarts} restarts)` : ''}${o.status ? ` [${o.status}]` : ''}`).join(', ')}.`
        : `No ${q.what}${label ? ` is ${label}` : ''}${where(q.namespace)} (of ${all.length} seen).`;
    }
    case 'no_probe': {
      // per workload: the containers of its pods (the pod template), init containers aside
      const pods = runningPodsWithContainers(model, q.namespace);
      if (!pods.length)
        return `I could not read the containers of the pods${where(q.namespace)} with the tools available.`;
      const byWorkload = new Map<string, { kind: string; missing: Set<string> }>();
      for (const p of pods) {
        const w = model.workloadOf(p);
        if (q.kind && w.kind !== q.kind) continue;
        const entry = byWorkload.get(w.name) ?? { kind: w.kind, missing: new Set<string>() };
        for (const c of p.containers.filter((x) => !x.init))
          if (!c.probes.some((x) => x.startsWith(`${q.probe}:`))) entry.missing.add(c.name);
        byWorkload.set(w.name, entry);
      }
      const without = [...byWorkload].filter(([, v]) => v.missing.size);
      const probe = q.probe.toLowerCase();
      const what = q.kind ?? 'workload';
      if (!without.length)
        return `Every ${what}${where(q.namespace)} defines a ${probe} probe (${byWorkload.size} read from their pods).`;
      return `${without.length} ${what}${without.length === 1 ? '' : 's'}${where(q.namespace)} define${without.length === 1 ? 's' : ''} no ${probe} probe (of ${byWorkload.size} read from their pods): ${without
        .map(
          ([name, v]) =>
            `${v.kind} ${name} (container${v.missing.size === 1 ? '' : 's'} ${[...v.missing].join(', ')})`,
        )
        .join(', ')}.`;
    }
    case 'storage_class': {
      const claims = model
        .list('persistentvolumeclaim', q.namespace)
        .filter((c) => !q.namespace || c.namespace === q.namespace);
      if (!claims.length)
        return `I could not list the PersistentVolumeClaims${where(q.namespace)} with the tools available.`;
      const hits = claims.filter((c) => c.fields['storageClassName'] === q.name);
      const classes = [...new Set(claims.map((c) => c.fields['storageClassName'] || '(none)'))];
      return hits.length
        ? `${hits.length} PersistentVolumeClaim${hits.length === 1 ? '' : 's'}${where(q.namespace)} use${hits.length === 1 ? 's' : ''} the storage class ${q.name} (of ${claims.length} seen): ${hits.map((c) => `${c.name}${c.fields['capacity'] ? ` (${c.fields['capacity']})` : ''}`).join(', ')}.`
        : `No PersistentVolumeClaim${where(q.namespace)} uses the storage class ${q.name} (of ${claims.length} seen; their classes: ${classes.join(', ')}).`;
    }
    case 'load_balancers': {
      const services = model
        .list('service', q.namespace)
        .filter((s) => !q.namespace || s.namespace === q.namespace);
      if (!services.length)
        return `I could not list the Services${where(q.namespace)} with the tools available.`;
      const lbs = services.filter((s) => s.fields['type'] === 'LoadBalancer');
      if (!lbs.length)
        return `No Service${where(q.namespace)} is of type LoadBalancer (of ${services.length} Services seen).`;
      const pending = lbs.filter((s) => !s.fields['externalAddress']);
      return `${lbs.length} Service${lbs.length === 1 ? ' is' : 's are'} of type LoadBalancer${where(q.namespace)}: ${lbs
        .map((s) =>
          s.fields['externalAddress']
            ? `${s.name} at ${s.fields['externalAddress']}`
            : `${s.name} has no external address yet (EXTERNAL-IP <pending>)${lbFailure(model, s)}`,
        )
        .join(
          '; ',
        )}.${pending.length ? ` ${pending.length} of them still ${pending.length === 1 ? 'waits' : 'wait'} for an address.` : ''}`;
    }
    case 'log_errors': {
      const since = q.since;
      const pods = model
        .list('pod')
        .filter((p) => !q.subject || scope.subjects.some((s) => model.matches(p, s)));
      const names = new Set(pods.map((p) => p.name));
      const logs = model.logs.filter(
        (l) => !l.previous && (!q.subject || (l.pod && names.has(l.pod))),
      );
      if (!logs.length)
        return `I could not read the logs of ${q.subject ?? 'the service'} with the tools available.`;
      const window = since ? ` since ${new Date(since).toISOString()}` : '';
      if (q.pattern || q.topic?.length) {
        // the pods whose logs say the phrase (or speak of the topic) in the window, with how
        // often and when last
        const want = q.pattern?.toLowerCase();
        const says = (text: string) => {
          const t = text.toLowerCase();
          return want ? t.includes(want) : (q.topic ?? []).some((w) => t.includes(w));
        };
        const what = q.pattern ? `"${q.pattern}"` : `lines about ${(q.topic ?? []).join(' ')}`;
        const hits = new Map<string, { n: number; last?: number; lines: LogLine[] }>();
        for (const l of logs)
          for (const x of l.lines) {
            if (!says(x.text)) continue;
            if (since !== undefined && (x.at === undefined || x.at < since)) continue;
            const h = hits.get(l.pod ?? '?') ?? { n: 0, lines: [] };
            h.n++;
            h.lines.push(x);
            if (x.at !== undefined) h.last = Math.max(h.last ?? x.at, x.at);
            hits.set(l.pod ?? '?', h);
          }
        const read = new Set(logs.map((l) => l.pod)).size;
        if (!hits.size)
          return `None of the ${read} pod(s) whose logs I read logged ${what}${window}.`;
        const total = [...hits.values()].reduce((a, h) => a + h.n, 0);
        return `${hits.size} of the ${read} pod(s) whose logs I read logged ${what}${window}, ${total} time${total === 1 ? '' : 's'} in all: ${[
          ...hits,
        ]
          .map(
            ([pod, h]) =>
              `${pod} (${h.n} time${h.n === 1 ? '' : 's'}${h.last !== undefined ? `, last at ${new Date(h.last).toISOString()}` : ''})`,
          )
          .join(', ')}. The lines: ${[...hits.values()]
          .flatMap((h) => h.lines)
          .sort((a, b) => (a.at ?? 0) - (b.at ?? 0))
          .slice(0, 8)
          .map((x) => `"${clip(x.text, 220)}"`)
          .join('; ')}.`;
      }
      const lines = logs.flatMap((l) =>
        l.lines
          .filter(
            (x) =>
              x.level === 'error' && (since === undefined || x.at === undefined || x.at >= since),
          )
          .map((x) => ({ pod: l.pod, ...x })),
      );
      if (!lines.length)
        return `No error lines in the logs of ${q.subject ?? 'the service'}${window} (${logs.reduce((a, l) => a + l.lines.length, 0)} lines read).`;
      const distinct = new Map<string, number>();
      for (const l of lines) {
        const k = l.text
          .replace(/^\S*\d{4}-\d\d-\d\d\S*\s*/, '')
          .replace(/\b\d+\b/g, '#')
          .slice(0, 160);
        distinct.set(k, (distinct.get(k) ?? 0) + 1);
      }
      const top = [...lines]
        .reverse()
        .filter(
          (l, i, a) =>
            a.findIndex(
              (x) =>
                x.text
                  .replace(/^\S*\d{4}-\d\d-\d\d\S*\s*/, '')
                  .replace(/\b\d+\b/g, '#')
                  .slice(0, 160) ===
                l.text
                  .replace(/^\S*\d{4}-\d\d-\d\d\S*\s*/, '')
                  .replace(/\b\d+\b/g, '#')
                  .slice(0, 160),
            ) === i,
        )
        .slice(0, 5);
      return `${lines.length} error line(s) in the logs of ${q.subject ?? 'the service'}${window}, ${distinct.size} distinct; latest: ${top.map((l) => `"${l.text.slice(0, 200)}"`).join('; ')}.`;
    }
    case 'top': {
      const ms = model.metrics.filter(
        (m) => m.kind === 'pod' && (!q.namespace || !m.namespace || m.namespace === q.namespace),
      );
      if (!ms.length)
        return `No resource metrics were available${where(q.namespace)} (metrics-server or a metrics tool is needed).`;
      const val = (m: (typeof ms)[number]) => quantity(q.resource === 'memory' ? m.memory : m.cpu);
      const sorted = [...ms].sort((a, b) => val(b) - val(a));
      return `Highest ${q.resource} use${where(q.namespace)}: ${sorted
        .slice(0, 3)
        .map((m) => `${m.name} (${q.resource === 'memory' ? m.memory : m.cpu})`)
        .join(', ')}.`;
    }
    case 'version':
      return runningVersions(model, scope, now, q.subject, q.environments ?? []);
    case 'replicas':
      return unavailableReplicas(model, scope, q.subject);
    case 'last_run':
      return lastRun(model, scope, now, q.subject);
    case 'uses':
      if (q.stale && q.kind !== 'pvc')
        return podsHoldingOldValue(
          model,
          q.kind,
          q.name,
          q.namespace ?? scope.namespaces[0],
          q.changedAt,
        );
      // "which workloads read it": per workload, their templates (a CronJob's) included
      if (q.by === 'workload' && q.kind !== 'pvc')
        return workloadsReading(model, q.kind, q.name, q.namespace ?? scope.namespaces[0]);
      // a namespace named bare ("in payments") is known once the scope is refined
      return podsUsing(model, q.kind, q.name, q.namespace ?? scope.namespaces[0]);
    case 'drain_impact':
      return drainImpact(q, model, scope);
    case 'pdb_blocking':
      return pdbBlocking(q, model, scope);
    case 'readonly_rootfs':
      return readOnlyRootfs(q, model, scope);
    case 'pvc_retention':
      return pvcRetention(q, model);
    case 'node_claims':
      return nodeClaims(q, model);
    case 'probe_timeout':
      return probeTimeouts(q, model);
    case 'placement':
      return placement(model, scope, q.subject);
    case 'unset':
      return unsetResources(model, q.resource, q.field, q.namespace ?? scope.namespaces[0]);
    case 'limit':
      return limitAndUse(model, scope, q.resource, q.subject);
    case 'no_endpoints':
      return servicesWithoutEndpoints(model, q.namespace ?? scope.namespaces[0]);
    case 'privileged':
      return privilegedContainers(model, questionNamespace(q, model, scope));
    case 'host_network':
      return hostNetworkPods(model, questionNamespace(q, model, scope), q.excluded ?? []);
    case 'host_path':
      return hostPathPods(model, questionNamespace(q, model, scope), q.excluded ?? []);
    case 'pending':
      return pendingPods(model, questionNamespace(q, model, scope), q.over, now);
    case 'node_ports':
      return nodePortServices(model, questionNamespace(q, model, scope));
    case 'rollout_history':
      return rolloutHistory(model, scope, q.subject);
    case 'quota':
      return quotaUsage(model, questionNamespace(q, model, scope), q.add);
    case 'evicted':
      return evictedPods(model, questionNamespace(q, model, scope), q.since);
    case 'env':
      return envValues(model, q.variable, questionNamespace(q, model, scope), q.kind);
    case 'service_account':
      return serviceAccountOf(model, scope, q.subject, q.namespace ?? scope.namespaces[0]);
    case 'unmounted_claims':
      return unmountedClaims(model, questionNamespace(q, model, scope));
    case 'floating_images':
      return floatingImages(model, questionNamespace(q, model, scope));
    case 'suspended_cronjobs':
      return suspendedCronJobs(model, questionNamespace(q, model, scope), now);
    case 'created':
      return createdSince(model, q.kind, questionNamespace(q, model, scope), q.since, now);
    case 'node_topology':
      return nodeTopology(model);
    case 'bare_pods':
      return barePods(model, questionNamespace(q, model, scope));
    case 'ingress_tls':
      return ingressHostsAndTls(model, questionNamespace(q, model, scope), q.missing);
    case 'ingress_backends':
      return ingressBackendsDangling(model, questionNamespace(q, model, scope));
    case 'under_replicated':
      return underReplicated(model, q.kind, questionNamespace(q, model, scope), now, q.why);
    case 'failed_jobs':
      return failedJobs(model, questionNamespace(q, model, scope), q.since, now);
    case 'image_pull':
      return imagePullPods(model, q.all ? undefined : questionNamespace(q, model, scope), now);
    case 'restarts':
      return restartedContainers(model, questionNamespace(q, model, scope), q.since, now);
    case 'rollouts':
      return rollouts(model, questionNamespace(q, model, scope), q.since, now);
    case 'cronjob_success':
      return cronJobsWithoutSuccess(model, questionNamespace(q, model, scope), q.since, now);
    case 'requests_total':
      return requestsTotal(model, questionNamespace(q, model, scope), q.field);
    case 'hpas_at_max':
      return hpasAtMax(model, questionNamespace(q, model, scope));
    case 'external_names':
      return externalNameServices(model, questionNamespace(q, model, scope));
    case 'pods_per_node':
      // the nodes' load: every namespace unless the message names one
      return podsPerNode(
        model,
        q.namespace ?? questionNamespace({ near: q.near }, model, { ...scope, namespaces: [] }),
      );
    case 'claims_by_size':
      return claimsBySize(model, q, questionNamespace(q, model, scope));
    case 'cert_expiry':
      return certificatesExpiring(model, questionNamespace(q, model, scope), q.within, now);
    case 'kubelet_versions':
      return kubeletVersions(model, q.target);
    case 'volumes_by_phase':
      return volumesByPhase(model, q.phase);
    case 'claim_expansion':
      return claimExpansion(model, questionNamespace(q, model, scope), q.claim, scope.subjects);
    case 'gitops_unmanaged':
      return gitopsUnmanaged(model, questionNamespace(q, model, scope), q.kind, q.tool);
    case 'pods_without_sidecar':
      return podsWithoutSidecar(model, questionNamespace(q, model, scope), q.sidecar);
    case 'workloads_without_irsa':
      return workloadsWithoutIrsa(model, questionNamespace(q, model, scope));
    case 'ingress_annotation':
      // (r31a) a question for rate limits: every limit-* annotation
      if (q.key === RATE_LIMIT_KEYS)
        return ingressRateLimits(model, questionNamespace(q, model, scope));
      return ingressesWithAnnotation(model, questionNamespace(q, model, scope), q.key);
    case 'pods_by_qos':
      return podsByQos(model, questionNamespace(q, model, scope), q.qos);
    case 'ready_pods_by_node':
      return readyPodsByNode(model, questionNamespace(q, model, scope), scope);
    case 'jvm_default_heap':
      return jvmWithoutHeap(model, questionNamespace(q, model, scope));
    case 'db_primary':
      return currentPrimary(model, questionNamespace(q, model, scope), scope, q.near);
    case 'nodes': {
      const nodes = model.list('node');
      if (!nodes.length) return 'I could not list the nodes with the tools available.';
      const bad = nodes.filter(
        (n) =>
          n.status !== 'Ready' ||
          n.conditions.some((c) => /Pressure$/.test(c.type) && c.status === 'True'),
      );
      return bad.length
        ? `${bad.length} of ${nodes.length} nodes have a problem: ${bad
            .map(
              (n) =>
                `${n.name} (${n.status}${n.conditions
                  .filter((c) => /Pressure$/.test(c.type) && c.status === 'True')
                  .map((c) => `, ${c.type}`)
                  .join('')})`,
            )
            .join(', ')}.`
        : `All ${nodes.length} nodes are Ready with no pressure conditions.`;
    }
  }
  void now;
  return '';
}

function statusMatches(o: ObjectView, status?: string, since?: number): boolean {
  if (!status) return true;
  // "restarted in the last hour": a container's last termination is that recent (when known)
  if (status === 'restarted' && since !== undefined) {
    const listed = o.fields['lastRestart'] ? Date.parse(o.fields['lastRestart']) : -Infinity;
    const last = Math.max(listed, ...o.containers.map((c) => c.last?.at ?? -Infinity));
    if (Number.isFinite(last)) return (o.restarts ?? 0) > 0 && last >= since;
  }
  // "OOMKilled today": a container killed for memory, now or as its last termination (in time)
  if (status === 'OOMKilled') {
    const kills = o.containers
      .flatMap((c) => [c.terminated, c.last])
      .filter((st) => st?.reason === 'OOMKilled');
    if (!kills.length) return /OOMKilled/i.test(o.status ?? '') && since === undefined;
    return since === undefined || kills.some((st) => st!.at === undefined || st!.at >= since);
  }
  const s = o.status ?? '';
  if (status === 'failing')
    return (
      !/^(Running|Succeeded|Completed)$/.test(s) ||
      (s === 'Running' && o.containers.some((c) => c.ready === false))
    );
  if (status === 'restarted') return (o.restarts ?? 0) > 0;
  if (status === 'cordoned') return isCordoned(o);
  if (status === 'CrashLoopBackOff') return /CrashLoop/i.test(s);
  return s.toLowerCase() === status.toLowerCase();
}

/** "2 days 3 hours" */
function ago(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const d = Math.floor(h / 24);
  if (d >= 1)
    return `${d} day${d === 1 ? '' : 's'}${h % 24 ? ` ${h % 24} hour${h % 24 === 1 ? '' : 's'}` : ''}`;
  if (h >= 1) return `${h} hour${h === 1 ? '' : 's'}`;
  return `${Math.max(0, Math.round(ms / 60_000))} min`;
}

const tagOf = (image: string) => /:([^:@/]+)(?:@|$)/.exec(image)?.[1];

/**
 * Which image (version) the subject's pods run and since when: the ReplicaSet that runs it was
 * created then (else its oldest pod started then).
 */
function runningVersions(
  model: ClusterModel,
  scope: Scope,
  now: number,
  subject: string | undefined,
  environments: string[],
): string {
  // comparing environments: the subject's pods wherever a namespace names one of them
  const inEnv = (ns?: string) => environments.some((e) => ns?.includes(e));
  const pods = model
    .list('pod')
    .filter((p) =>
      environments.length > 1
        ? inEnv(p.namespace) &&
          scope.subjects.some((s) => model.matches(p, { ...s, namespace: undefined }))
        : scope.subjects.some((s) => model.matches(p, s)),
    );
  if (!pods.length)
    return `I could not find the pods of ${subject ?? 'the service'} with the tools available.`;
  const byWorkload = new Map<string, ObjectView[]>();
  for (const p of pods) {
    const key = `${model.workloadOf(p).name}|${p.namespace ?? ''}`;
    byWorkload.set(key, [...(byWorkload.get(key) ?? []), p]);
  }
  const parts: string[] = [];
  for (const [key, ps] of byWorkload) {
    const [w, ns] = key.split('|') as [string, string];
    // a listed pod may not show its image: its controller's (or ReplicaSet's) then
    const controller = [
      ...model.list('deployment', ns || undefined),
      ...model.list('statefulset', ns || undefined),
      ...model.list('daemonset', ns || undefined),
    ].find((o) => o.name === w);
    const imageOf = (p: ObjectView) =>
      p.containers[0]?.image ??
      p.images[0] ??
      controller?.images[0] ??
      controller?.containers[0]?.image;
    const images = [...new Set(ps.map(imageOf).filter(Boolean))] as string[];
    const rss = model
      .list('replicaset', ns || undefined)
      .filter((r) => model.workloadOf(r).name === w && r.created)
      .sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
    for (const image of images) {
      const rs = rss.find((r) => r.images.includes(image));
      const started = rs?.created ?? Math.min(...ps.map((p) => p.created ?? Infinity));
      const on = ps.filter((p) => imageOf(p) === image);
      const n = on.length;
      const tag = tagOf(image);
      // several versions at once: which pods run which
      const names =
        images.length > 1 && n <= 6
          ? ` (${on
              .map((p) => p.name)
              .sort()
              .join(', ')})`
          : '';
      parts.push(
        `${w}${ns ? ` (namespace ${ns})` : ''} runs ${image}${tag ? ` (version ${tag})` : ''} on ${n} pod${n === 1 ? '' : 's'}${names}` +
          (Number.isFinite(started)
            ? ` since ${new Date(started).toISOString()} (${ago(now - started)} ago)`
            : '') +
          '.',
      );
    }
    // a StatefulSet's rollingUpdate partition keeps the ordinals below it on the old revision
    const partition = Number(controller?.fields['partition']);
    if (images.length > 1 && controller?.kind === 'statefulset' && partition > 0)
      parts.push(
        `Its updateStrategy rollingUpdate partition is ${partition}: only ordinals ${partition} and above get the new template; ${w}-0${partition > 1 ? ` to ${w}-${partition - 1}` : ''} stay on the old revision until the partition is lowered.`,
      );
  }
  return parts.join(' ');
}

/** "how many replicas are unavailable": desired vs available of the subject's controllers */
function unavailableReplicas(
  model: ClusterModel,
  scope: Scope,
  subject: string | undefined,
): string {
  const controllers = [...model.list('deployment'), ...model.list('statefulset')].filter((o) =>
    scope.subjects.some((s) => model.matches(o, s)),
  );
  const parts = controllers.flatMap((o) => {
    const want = Number(o.fields['replicas'] ?? o.fields['status.replicas'] ?? NaN);
    const available = Number(
      o.fields['status.availableReplicas'] ??
        o.fields['status.readyReplicas'] ??
        (Number.isFinite(want) ? 0 : NaN),
    );
    if (!Number.isFinite(want)) return [];
    const down = Math.max(0, want - (Number.isFinite(available) ? available : 0));
    return [
      `${o.name}${o.namespace ? ` (namespace ${o.namespace})` : ''}: ${down} of ${want} replicas unavailable (${want - down}/${want} available)`,
    ];
  });
  if (parts.length) return `${parts.join('; ')}.`;
  const pods = model.list('pod').filter((p) => scope.subjects.some((s) => model.matches(p, s)));
  if (!pods.length)
    return `I could not find ${subject ?? 'the service'}'s replicas with the tools available.`;
  const notReady = pods.filter(
    (p) => p.status !== 'Running' || p.containers.some((c) => c.ready === false),
  );
  return `${notReady.length} of ${pods.length} pods of ${subject ?? 'the service'} are not running and ready${notReady.length ? `: ${notReady.map((p) => `${p.name} [${p.status ?? '?'}]`).join(', ')}` : ''}.`;
}

/** "which node is kafka-2 running on?": each subject pod's node, and what runs on a named node */
function placement(model: ClusterModel, scope: Scope, subject: string | undefined): string {
  // a node named bare ("ip-10-0-25-91", no kind) is a node when a node has that name
  const nodeOf = (s: Subject) =>
    model.list('node').find((n) => model.matches(n, { ...s, kind: 'node' }));
  const pods = model
    .list('pod')
    .filter((p) =>
      scope.subjects.some((s) => s.kind !== 'node' && !nodeOf(s) && model.matches(p, s)),
    );
  if (!pods.length)
    return `I could not find the pods of ${subject ?? 'the service'} with the tools available.`;
  const parts = pods.map((p) =>
    p.node ? `${p.name} runs on node ${p.node}` : `${p.name}: its node was not shown`,
  );
  // (r25b) replicas that share a node: draining that node takes them all out at once
  const byNode = new Map<string, string[]>();
  for (const p of pods) if (p.node) byNode.set(p.node, [...(byNode.get(p.node) ?? []), p.name]);
  const shared = [...byNode].filter(([, names]) => names.length > 1);
  if (pods.length > 1 && byNode.size)
    parts.push(
      shared.length
        ? shared
            .map(
              ([node, names]) =>
                `${names.join(' and ')} share node ${node} (${names.length} of ${pods.length} pods: cordoning or draining it takes them out together)`,
            )
            .join('; ')
        : `no two of them share a node`,
    );
  // a node the message names ("I want to drain ip-10-0-25-91"): what runs there
  for (const s of scope.subjects) {
    const node = nodeOf(s);
    if (!node) continue;
    const on = pods.filter((p) => p.node === node.name);
    parts.push(
      on.length
        ? `node ${node.name} runs ${on.map((p) => p.name).join(', ')}`
        : `none of them runs on node ${node.name}`,
    );
  }
  return `${parts.join('; ')}.`;
}

/** why the cloud gave a LoadBalancer Service no address: its newest Warning event */
function lbFailure(model: ClusterModel, svc: ObjectView): string {
  const warning = model.events
    .filter(
      (e) =>
        e.object?.name === svc.name &&
        (!e.object.kind || e.object.kind === 'service') &&
        (e.type === 'Warning' || /Fail|Error/.test(e.reason ?? '')),
    )
    .sort((a, b) => (b.last ?? b.first ?? 0) - (a.last ?? a.first ?? 0))[0];
  return warning ? `: ${warning.reason ?? 'Warning'} "${warning.message.slice(0, 200)}"` : '';
}

/** "which pods have no memory limit?": pods with a container that sets none */
function unsetResources(
  model: ClusterModel,
  resource: 'memory' | 'cpu',
  field: 'limits' | 'requests',
  namespace: string | undefined,
): string {
  const what = `${resource} ${field === 'limits' ? 'limit' : 'request'}`;
  const where = namespace ? ` in namespace ${namespace}` : '';
  const pods = model
    .list('pod', namespace)
    .filter((p) => (!namespace || p.namespace === namespace) && p.containers.some((c) => !c.init));
  if (!pods.length)
    return `I could not read the containers of the pods${where} with the tools available.`;
  const hits = pods.filter((p) => p.containers.some((c) => !c.init && !c[field][resource]));
  if (!hits.length) return `Every pod${where} sets a ${what} (${pods.length} pods read).`;
  return `${hits.length} pod${hits.length === 1 ? '' : 's'}${where} ${hits.length === 1 ? 'has' : 'have'} a container without a ${what} (of ${pods.length} read): ${hits
    .map(
      (p) =>
        `${p.name} (${p.containers
          .filter((c) => !c.init && !c[field][resource])
          .map((c) => c.name)
          .join(', ')})`,
    )
    .join(', ')}.`;
}

/** "what's the memory limit on X, and which of its pods is closest to it?" */
function limitAndUse(
  model: ClusterModel,
  scope: Scope,
  resource: 'memory' | 'cpu',
  subject: string | undefined,
): string {
  const subj = scope.subjects.find((s) => s.name === subject) ?? scope.subjects[0];
  if (!subj) return `I could not tell whose ${resource} limit is asked about.`;
  const pods = model
    .list('pod')
    .filter((p) => model.matches(p, subj) && model.workloadOf(p).name === subj.name);
  const owned = pods.length ? pods : model.list('pod').filter((p) => model.matches(p, subj));
  const withSpec =
    owned.find((p) =>
      p.containers.some((c) => !c.init && (c.limits[resource] || c.requests[resource])),
    ) ?? owned.find((p) => p.containers.some((c) => !c.init));
  if (!withSpec) return `I could not read the containers of ${subj.name} with the tools available.`;
  const main = withSpec.containers.filter((c) => !c.init);
  const limits = main.map(
    (c) =>
      `${c.name} ${c.limits[resource] ?? 'no limit'}${c.requests[resource] ? ` (request ${c.requests[resource]})` : ''}`,
  );
  const mainLimit =
    main.find((c) => c.name === subj.name)?.limits[resource] ?? main[0]?.limits[resource];
  let text = `${subj.name}: ${resource} limit per container ${limits.join(', ')}.`;
  // what its autoscaler allows (capacity questions ask both)
  const hpa = model
    .list('horizontalpodautoscaler')
    .find((h) => (h.fields['scaleTarget'] ?? '').split('/').pop() === subj.name);
  if (hpa?.fields['maxReplicas'])
    text += ` Its HorizontalPodAutoscaler ${hpa.name} scales it between ${hpa.fields['minReplicas'] ?? '1'} and maxReplicas ${hpa.fields['maxReplicas']}.`;
  const used = owned
    .map((p) => ({ p, m: model.metrics.find((m) => m.kind === 'pod' && m.name === p.name) }))
    .filter((x) => x.m && (resource === 'memory' ? x.m.memory : x.m.cpu));
  if (!used.length)
    return `${text} No usage metrics of its pods were available (metrics-server or a metrics tool is needed).`;
  const val = (x: (typeof used)[number]) =>
    quantity(resource === 'memory' ? x.m!.memory : x.m!.cpu);
  used.sort((a, b) => val(b) - val(a));
  const cap = quantity(mainLimit);
  const share = (x: (typeof used)[number]) =>
    cap ? ` (${Math.round((val(x) / cap) * 100)}% of ${mainLimit})` : '';
  text += ` Use now (kubectl top, whole pod): ${used
    .map((x) => `${x.p.name} ${resource === 'memory' ? x.m!.memory : x.m!.cpu}${share(x)}`)
    .join(', ')}. Closest to the limit: ${used[0]!.p.name}.`;
  return text;
}

/** "which services have no endpoints?": Endpoints with no ready address (ExternalName aside) */
function servicesWithoutEndpoints(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const services = model
    .list('service', namespace)
    .filter((s) => (!namespace || s.namespace === namespace) && !s.fields['externalName']);
  if (!services.length) return `I could not list the Services${where} with the tools available.`;
  const ready = (s: ObjectView): number | undefined => {
    const eps = model.get('endpoints', s.name, s.namespace)?.fields['ready'];
    if (eps !== undefined) return Number(eps);
    const described = s.fields['Endpoints'];
    if (described === undefined) return undefined;
    return /^\s*(?:<none>)?\s*$/.test(described) ? 0 : described.split(',').length;
  };
  const known = services.filter((s) => ready(s) !== undefined);
  const empty = known.filter((s) => ready(s) === 0);
  const unknown = services.length - known.length;
  const why = (s: ObjectView) => {
    const selector = s.fields['selector'];
    // a listing that did not show the selector says nothing of it
    if (selector === undefined) return '';
    if (!selector) return ' (no selector)';
    const backing = backingWorkloadOf(model, s);
    if (backing && Number(backing.fields['replicas'] ?? NaN) === 0)
      return ` (selects ${selector}; ${backing.kind} ${backing.name} is scaled to 0)`;
    return ` (selects ${selector}${backing ? '' : '; no workload with these labels was seen'})`;
  };
  const tail = unknown ? ` ${unknown} Service(s) could not be checked.` : '';
  return empty.length
    ? `${empty.length} Service${empty.length === 1 ? '' : 's'}${where} ${empty.length === 1 ? 'has' : 'have'} no endpoints (of ${known.length} checked): ${empty.map((s) => `${s.name}${why(s)}`).join(', ')}.${tail}`
    : `Every Service${where} has endpoints (${known.length} checked).${tail}`;
}

/** The workload whose pod template carries a Service's selector labels (by name when unknown). */
function backingWorkloadOf(model: ClusterModel, svc: ObjectView): ObjectView | undefined {
  // not a selector the API server would take: no workload matches it
  const reqs = selectorOf(svc.fields['selector'] ?? '') ?? [];
  return model
    .list(undefined, svc.namespace)
    .filter((o) => ['deployment', 'statefulset', 'daemonset'].includes(o.kind))
    .find(
      (o) =>
        (Object.keys(o.labels).length > 0 && reqs.length > 0 && matchesLabels(o.labels, reqs)) ||
        reqs.some((r) => r.op === '=' && /(?:^|\/)(?:app|name)$/.test(r.key) && r.value === o.name),
    );
}

/** "which pods use the stripe-api-key secret?": env references, envFrom and volumes */
function podsUsing(
  model: ClusterModel,
  kind: 'secret' | 'configmap' | 'pvc',
  name: string,
  namespace: string | undefined,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const label =
    kind === 'secret' ? 'Secret' : kind === 'pvc' ? 'PersistentVolumeClaim' : 'ConfigMap';
  const pods = model
    .list('pod', namespace)
    .filter((p) => (!namespace || p.namespace === namespace) && p.containers.some((c) => !c.init));
  if (!pods.length)
    return `I could not read the containers of the pods${where} with the tools available.`;
  const how = (p: ObjectView): string[] => {
    const out: string[] = [];
    if (kind === 'pvc') {
      if ((p.fields['claims'] ?? '').split(',').includes(name)) out.push('volume');
      return out;
    }
    const refs = p.containers.flatMap((c) => c.envRefs);
    if (refs.some((r) => new RegExp(`(?:<-|envFrom) ${kind} ${name}(?: |$)`).test(r)))
      out.push('env');
    const vols = (p.fields[kind === 'secret' ? 'secrets' : 'configMaps'] ?? '').split(',');
    if (vols.includes(name)) out.push('volume');
    if (kind === 'secret' && (p.fields['imagePullSecrets'] ?? '').split(',').includes(name))
      out.push('image pull');
    return out;
  };
  const all = pods.map((p) => ({ p, how: how(p) })).filter((x) => x.how.length);
  if (!all.length)
    return `No pod${where} uses the ${label} ${name} (${pods.length} pods read: env, envFrom and volumes).`;
  // a pod that has finished (a completed Job's) used it, but does not any more
  const done = all.filter((x) => hasFinished(x.p));
  const hits = all.filter((x) => !done.includes(x));
  const list = (xs: typeof all) => xs.map((x) => `${x.p.name} (${x.how.join(', ')})`).join(', ');
  return `${hits.length} pod${hits.length === 1 ? '' : 's'}${where} use${hits.length === 1 ? 's' : ''} the ${label} ${name}${done.length ? ' now' : ''} (of ${pods.length} read)${hits.length ? `: ${list(hits)}` : ''}.${done.length ? ` ${done.length} finished pod${done.length === 1 ? '' : 's'} (not running) also name${done.length === 1 ? 's' : ''} it: ${list(done)}.` : ''}`;
}

/** "13m37s" */
function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s % 60}s`;
}

/** "when did X last succeed, how long did it take": its newest completed Job */
function lastRun(
  model: ClusterModel,
  scope: Scope,
  now: number,
  subject: string | undefined,
): string {
  const jobs = model
    .list('job')
    .filter(
      (j) =>
        scope.subjects.some((s) => model.matches(j, s)) ||
        (subject && (model.workloadOf(j).name === subject || j.name.startsWith(`${subject}-`))),
    );
  // its CronJob's schedule, and the zone it is read in ("fires at 7, not 6")
  const cron = model
    .list('cronjob')
    .find(
      (c) => scope.subjects.some((s) => model.matches(c, s)) || (subject && c.name === subject),
    );
  const schedule = cron?.fields['schedule']
    ? `CronJob ${cron.name} runs on schedule "${cron.fields['schedule']}" ${
        cron.fields['timeZone']
          ? `in time zone ${cron.fields['timeZone']}`
          : cron.fields['timeZone'] === ''
            ? "with no timeZone set, so in kube-controller-manager's time zone (UTC unless the cluster changed it)"
            : "(its time zone not shown: without spec.timeZone it is kube-controller-manager's, usually UTC)"
      }${Number.isFinite(Date.parse(cron.fields['lastScheduleTime'] ?? '')) ? `; last scheduled ${new Date(cron.fields['lastScheduleTime']!).toISOString()}` : ''}. `
    : '';
  if (!jobs.length)
    return `${schedule}I could not find the Jobs of ${subject ?? 'the workload'} with the tools available.`;
  const at = (j: ObjectView, f: string) => {
    const t = Date.parse(j.fields[f] ?? '');
    return Number.isFinite(t) ? t : undefined;
  };
  const done = jobs
    .filter(
      (j) => at(j, 'completionTime') !== undefined && Number(j.fields['status.succeeded'] ?? 1) > 0,
    )
    .sort((a, b) => at(b, 'completionTime')! - at(a, 'completionTime')!);
  const last = done[0];
  if (!last)
    return `${schedule}None of the ${jobs.length} Job(s) of ${subject ?? 'the workload'} I read has completed successfully.`;
  const end = at(last, 'completionTime')!;
  const start = at(last, 'startTime');
  const took = start !== undefined ? `, took ${duration(end - start)}` : '';
  const failed = jobs.filter(
    (j) => Number(j.fields['status.failed'] ?? 0) > 0 && (at(j, 'startTime') ?? 0) > end,
  );
  return `${schedule}${subject ?? 'It'} last succeeded with Job ${last.name}: ${start !== undefined ? `started ${new Date(start).toISOString()}, ` : ''}completed ${new Date(end).toISOString()} (${ago(now - end)} ago)${took}.${failed.length ? ` Since then ${failed.length} run(s) failed: ${failed.map((j) => j.name).join(', ')}.` : ''}`;
}

/** what a pod's spec was made from: its ReplicaSet, DaemonSet, StatefulSet or Job (else itself) */
export function templateKey(model: ClusterModel, p: ObjectView): string {
  if (p.owner) return `${p.namespace ?? ''}/${p.owner.name}`;
  // a listing that shows no owner: the pod's name without its generated suffix
  const base = /^(.+)-[a-z0-9]{5}$/.exec(p.name)?.[1];
  return `${p.namespace ?? ''}/${base ?? model.workloadOf(p).name}`;
}

interface ContainerSecurity {
  name: string;
  init?: boolean;
  privileged?: boolean;
  runAsUser?: number;
  runAsNonRoot?: boolean;
}

/**
 * The pods of `pods` with their spec's facts: read whole, or (not read) a pod of the same
 * ReplicaSet or DaemonSet that was, since they share one template; undefined when neither.
 */
function withSpecs(
  model: ClusterModel,
  pods: ObjectView[],
  field = 'podSecurity',
): { pod: ObjectView; spec?: ObjectView; inferred: boolean }[] {
  const read = new Map<string, ObjectView>();
  for (const p of pods)
    if (p.fields[field] && !read.has(templateKey(model, p))) read.set(templateKey(model, p), p);
  return pods.map((p) => {
    if (p.fields[field]) return { pod: p, spec: p, inferred: false };
    const twin = read.get(templateKey(model, p));
    return { pod: p, spec: twin, inferred: !!twin };
  });
}

const runningPods = (model: ClusterModel, namespace?: string) =>
  model
    .list('pod', namespace)
    .filter((p) => (!namespace || p.namespace === namespace) && !hasCompleted(p));

/** The running pods of a namespace, or of all but the excluded ones ("not counting kube-system"). */
const runningPodsOutside = (
  model: ClusterModel,
  namespace: string | undefined,
  excluded: string[],
) => runningPods(model, namespace).filter((p) => !excluded.includes(p.namespace ?? ''));

/** " in namespace x", " outside kube-system", or nothing: where an answer looked. */
const scopeWords = (namespace: string | undefined, excluded: string[]) =>
  namespace
    ? ` in namespace ${namespace}`
    : excluded.length
      ? ` outside ${excluded.join(', ')}`
      : '';

/** "which containers run privileged or as root?": what the pod specs' securityContexts say */
function privilegedContainers(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const pods = withSpecs(model, runningPods(model, namespace));
  const known = pods.filter((x) => x.spec);
  if (!known.length)
    return `I could not read the pod specs${where} (their securityContext) with the tools available.`;
  // per workload and container: why it runs privileged or as root, and the pods it runs in
  const hits = new Map<string, { why: string; pods: string[] }>();
  const unset = new Map<string, string[]>();
  let containers = 0;
  for (const { pod, spec } of known) {
    let sec: ContainerSecurity[] = [];
    try {
      sec = JSON.parse(spec!.fields['podSecurity'] ?? '[]') as ContainerSecurity[];
    } catch {
      continue;
    }
    const w = model.workloadOf(pod);
    for (const c of sec) {
      containers++;
      const label = `${c.init ? 'init container' : 'container'} ${c.name} of ${w.kind} ${w.name}`;
      const why = [
        ...(c.privileged ? ['privileged: true'] : []),
        ...(c.runAsUser === 0 ? ['runAsUser: 0 (root)'] : []),
      ];
      if (why.length) {
        const h = hits.get(label) ?? { why: why.join(', '), pods: [] };
        h.pods.push(pod.name);
        hits.set(label, h);
      } else if (c.runAsUser === undefined && c.runAsNonRoot !== true) {
        const u = unset.get(label) ?? [];
        u.push(pod.name);
        unset.set(label, u);
      }
    }
  }
  const missing = pods.length - known.length;
  const tail = `${
    unset.size
      ? ` ${unset.size} container(s) set neither runAsUser nor runAsNonRoot, so they run as their image's user (root unless the image sets another): ${[
          ...unset.keys(),
        ].join('; ')}.`
      : ''
  }${missing ? ` ${missing} pod(s) could not be read.` : ''}`;
  if (!hits.size)
    return `No container${where} runs privileged or with runAsUser 0 (${containers} containers of ${known.length} pods read, init containers included).${tail}`;
  return `${hits.size} container${hits.size === 1 ? '' : 's'}${where} run${hits.size === 1 ? 's' : ''} privileged or as root (of ${containers} containers of ${known.length} pods read, init containers included): ${[
    ...hits,
  ]
    .map(
      ([label, h]) =>
        `${label} (${h.why}; pod${h.pods.length === 1 ? '' : 's'} ${h.pods.join(', ')})`,
    )
    .join('; ')}.${tail}`;
}

/** "which pods run with hostNetwork (not counting kube-system)?" */
function hostNetworkPods(
  model: ClusterModel,
  namespace: string | undefined,
  excluded: string[],
): string {
  const where = scopeWords(namespace, excluded);
  const pods = withSpecs(model, runningPodsOutside(model, namespace, excluded));
  const known = pods.filter((x) => x.spec?.fields['hostNetwork'] !== undefined);
  if (!known.length)
    return `I could not read the pod specs${where} (hostNetwork) with the tools available.`;
  const hits = known.filter((x) => x.spec!.fields['hostNetwork'] === 'true');
  const missing = pods.length - known.length;
  const tail = missing ? ` ${missing} pod(s) could not be read.` : '';
  if (!hits.length)
    return `No pod${where} runs with hostNetwork: true (${known.length} pods read).${tail}`;
  const byWorkload = new Map<string, ObjectView[]>();
  for (const { pod } of hits) {
    const w = model.workloadOf(pod);
    const k = `${w.kind} ${pod.namespace ? `${pod.namespace}/` : ''}${w.name}`;
    byWorkload.set(k, [...(byWorkload.get(k) ?? []), pod]);
  }
  return `${hits.length} pod${hits.length === 1 ? '' : 's'}${where} run${hits.length === 1 ? 's' : ''} with hostNetwork: true (of ${known.length} pods read): ${[
    ...byWorkload,
  ]
    .map(
      ([w, ps]) =>
        `${ps.length} of ${w} (${ps.map((p) => p.name).join(', ')}${ps[0]!.fields['dnsPolicy'] ? `; dnsPolicy ${ps[0]!.fields['dnsPolicy']}` : ''})`,
    )
    .join('; ')}.${tail}`;
}

/**
 * "which pods mount hostPath volumes, and which host paths?": per workload, the node's paths its
 * pods mount (where and whether read-only), from each pod's spec (a pod of the same template, or
 * the workload read, when the pod itself was not); emptyDir, PVC and ConfigMap volumes are no
 * host paths.
 */
function hostPathPods(
  model: ClusterModel,
  namespace: string | undefined,
  excluded: string[],
): string {
  const where = scopeWords(namespace, excluded);
  const pods = withSpecs(model, runningPodsOutside(model, namespace, excluded), 'hostPaths').map(
    (x) => {
      if (x.spec) return x;
      // the workload's own template, read whole or described
      const w = model.workloadOf(x.pod);
      const own = model.get(w.kind, w.name, x.pod.namespace);
      return own?.fields['hostPaths'] ? { ...x, spec: own, inferred: true } : x;
    },
  );
  const known = pods.filter((x) => x.spec);
  if (!known.length)
    return `I could not read the pod specs${where} (their volumes) with the tools available.`;
  const pathsOf = (o: ObjectView): HostPathView[] => {
    try {
      return JSON.parse(o.fields['hostPaths'] ?? '[]') as HostPathView[];
    } catch {
      return [];
    }
  };
  const byWorkload = new Map<string, { pods: string[]; paths: HostPathView[] }>();
  const without = new Set<string>();
  let hits = 0;
  for (const { pod, spec } of known) {
    const w = model.workloadOf(pod);
    const k = `${w.kind} ${pod.namespace && !namespace ? `${pod.namespace}/` : ''}${w.name}`;
    const paths = pathsOf(spec!);
    if (!paths.length) {
      without.add(k);
      continue;
    }
    hits++;
    const e = byWorkload.get(k) ?? { pods: [], paths };
    e.pods.push(pod.name);
    byWorkload.set(k, e);
  }
  const missing = pods.length - known.length;
  const unread = missing ? ` ${missing} pod(s) could not be read.` : '';
  if (!hits)
    return `No pod${where} mounts a hostPath volume (${known.length} pods read: ${[...without].join(', ')}).${unread}`;
  const tail = `${without.size ? ` No hostPath volume in the other ${known.length - hits} pod${known.length - hits === 1 ? '' : 's'} read (${[...without].join(', ')}).` : ''}${unread}`;
  const path = (h: HostPathView) =>
    `${h.path} (volume ${h.volume}${h.type ? `, type ${h.type}` : ''}${h.mounts?.length ? `, mounted at ${h.mounts.map((m) => m.replace(/ \(ro\)$/, ' read-only')).join(', ')}` : ''})`;
  return `${hits} pod${hits === 1 ? '' : 's'}${where} mount${hits === 1 ? 's' : ''} hostPath volumes (of ${known.length} pods read), ${byWorkload.size} workload${byWorkload.size === 1 ? '' : 's'}: ${[
    ...byWorkload,
  ]
    .map(
      ([w, e]) =>
        `${w} (${e.pods.length} pod${e.pods.length === 1 ? '' : 's'}: ${e.pods.join(', ')}) mounts ${e.paths.map(path).join(', ')}`,
    )
    .join('; ')}.${tail}`;
}

/** "which services are NodePort, on which node ports?" (a LoadBalancer allocates node ports too) */
function nodePortServices(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const services = model
    .list('service', namespace)
    .filter((s) => !namespace || s.namespace === namespace);
  if (!services.length) return `I could not list the Services${where} with the tools available.`;
  const ports = (s: ObjectView) =>
    (s.fields['nodePorts'] ?? '')
      .split(',')
      .filter(Boolean)
      .map((p) => {
        const m = /^(\d*):(\d+)\/(\w+)$/.exec(p);
        return m ? `node port ${m[2]}/${m[3]}${m[1] ? ` (service port ${m[1]})` : ''}` : p;
      });
  const nodePort = services.filter((s) => s.fields['type'] === 'NodePort');
  const lbs = services.filter((s) => s.fields['type'] === 'LoadBalancer' && ports(s).length);
  const unknown = services.filter((s) => s.fields['type'] === undefined).length;
  const list = (xs: ObjectView[]) =>
    xs
      .map(
        (s) =>
          `${s.name}${namespace || !s.namespace ? '' : ` (namespace ${s.namespace})`} on ${ports(s).join(', ') || 'node ports not shown'}`,
      )
      .join('; ');
  const tail = `${
    lbs.length
      ? ` ${lbs.length} LoadBalancer Service${lbs.length === 1 ? '' : 's'} also open${lbs.length === 1 ? 's' : ''} node ports (a LoadBalancer allocates them, though it is not of type NodePort): ${list(lbs)}.`
      : ''
  }${unknown ? ` The type of ${unknown} Service(s) was not shown.` : ''}`;
  if (!nodePort.length)
    return `No Service${where} is of type NodePort (of ${services.length} Services seen).${tail}`;
  return `${nodePort.length} Service${nodePort.length === 1 ? ' is' : 's are'} of type NodePort${where} (of ${services.length} Services seen): ${list(nodePort)}.${tail}`;
}

/** "show me the rollout history of X": its ReplicaSets' revisions, images, and the current one */
function rolloutHistory(model: ClusterModel, scope: Scope, subject: string | undefined): string {
  const dep =
    model.list('deployment').find((d) => d.name === subject) ??
    model.list('deployment').find((d) => scope.subjects.some((s) => model.matches(d, s)));
  const name = dep?.name ?? subject;
  if (!name) return "I could not tell which Deployment's rollout history is asked about.";
  const ns = dep?.namespace;
  interface Rev {
    revision: number;
    images: string[];
    rs?: string;
    replicas?: string;
    created?: number;
    history?: string;
    current?: boolean;
    cause?: string;
  }
  const revs = new Map<number, Rev>();
  const add = (r: Rev) => {
    const prev = revs.get(r.revision);
    revs.set(r.revision, {
      ...prev,
      ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)),
      images: prev?.images.length ? prev.images : r.images,
    } as Rev);
  };
  for (const r of model.list('replicaset', ns)) {
    if (r.owner ? r.owner.name !== name : !ownHash(name).test(r.name)) continue;
    const n = Number(r.fields['revision']);
    if (!r.fields['revision'] || !Number.isFinite(n)) continue;
    add({
      revision: n,
      images: r.images.length ? r.images : r.containers.map((c) => c.image ?? '').filter(Boolean),
      rs: r.name,
      replicas: r.fields['status.readyReplicas'] ?? r.fields['replicas'] ?? r.fields['ready'],
      created: r.created,
      history: r.fields['revisionHistory'],
      cause: r.fields['changeCause'],
    });
  }
  // a history tool's rows (`kubectl rollout history`)
  for (const r of model.list('revision', ns)) {
    if (r.owner?.name !== name) continue;
    const n = Number(r.fields['revision']);
    if (!Number.isFinite(n) || !r.fields['revision']) continue;
    add({
      revision: n,
      images: r.images,
      rs: r.fields['replicaset'],
      replicas: r.fields['replicas'],
      created: r.created,
      current: r.fields['current'] === 'true' ? true : undefined,
      cause: r.fields['changeCause'] !== '<none>' ? r.fields['changeCause'] : undefined,
    });
  }
  if (!revs.size)
    return `I could not read the revisions of ${name} (its ReplicaSets' revision annotations) with the tools available.`;
  const sorted = [...revs.values()].sort((a, b) => a.revision - b.revision);
  const depRev = Number(dep?.fields['revision'] ?? NaN);
  const current =
    sorted.find((r) => r.revision === depRev) ??
    sorted.find((r) => r.current) ??
    sorted[sorted.length - 1]!;
  const parts = sorted.map(
    (r) =>
      `revision ${r.revision}${r === current ? ' (current)' : ''}: ${r.images.join(', ') || 'image not shown'}${r.rs ? ` (ReplicaSet ${r.rs}${r.replicas !== undefined ? `, ${r.replicas} ready` : ''}${r.created ? `, created ${new Date(r.created).toISOString()}` : ''})` : ''}${r.cause ? `, change-cause "${clip(r.cause, 120)}"` : ''}`,
  );
  const rollback = current.history
    ? ` Revision ${current.revision} was revision ${current.history.split(',').join(', ')} before: rolling back to a revision (kubectl rollout undo) renumbers it as the newest, so that number no longer appears.`
    : '';
  return `Rollout history of ${name}${ns ? ` (namespace ${ns})` : ''}, ${sorted.length} revision${sorted.length === 1 ? '' : 's'} kept: ${parts.join('; ')}. The current (live) revision is ${current.revision}, image ${current.images.join(', ') || 'not shown'}.${rollback}`;
}

/**
 * The namespace a question is about: named as one, else a word after "in" ("which services in
 * retail ...") once objects were seen there; never one the question leaves out.
 */
export function questionNamespace(
  q: { namespace?: string; near?: string[]; excluded?: string[] },
  model: ClusterModel,
  scope: Scope,
): string | undefined {
  const out = q.excluded ?? [];
  if (q.namespace && !out.includes(q.namespace)) return q.namespace;
  const named = scope.namespaces.find((n) => !out.includes(n));
  if (named) return named;
  const spaces = new Set(model.list().map((o) => (o.kind === 'namespace' ? o.name : o.namespace)));
  return (q.near ?? []).find((w) => spaces.has(w) && !out.includes(w));
}

/** a ReplicaSet named for a Deployment: `<name>-<pod-template-hash>` */
export const ownHash = (deployment: string) =>
  new RegExp(`^${deployment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[a-z0-9]{5,10}$`);

const pct = (used: number, hard: number) =>
  hard > 0 ? Math.round((used / hard) * 100) : used > 0 ? Infinity : 0;

/** what is left of a quota, in the unit its figures use ("1500m", "10Gi", "29") */
function leftOf(resource: string, hard: string, left: number): string {
  if (/cpu/.test(resource))
    return Number.isInteger(left) ? String(left) : `${Math.round(left * 1000)}m`;
  if (/memory|storage|ephemeral/.test(resource) || /[KMGT]i?$/.test(hard)) {
    const gi = left / 1024 ** 3;
    return gi >= 1 ? `${Math.round(gi * 10) / 10}Gi` : `${Math.round(left / 1024 ** 2)}Mi`;
  }
  return String(Math.round(left * 100) / 100);
}

/** "how close is batch to its quota?": each ResourceQuota's used against hard, tightest first */
function quotaUsage(
  model: ClusterModel,
  namespace: string | undefined,
  add?: { count: number; subject?: string; cpu?: string; memory?: string },
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const quotas = model
    .list('resourcequota', namespace)
    .filter((q) => !namespace || q.namespace === namespace);
  if (!quotas.length)
    return `I found no ResourceQuota${where} (none listed with the tools available): nothing caps the namespace's requests, limits or object counts.`;
  const parse = (v?: string): Record<string, string> => {
    try {
      return JSON.parse(v ?? '{}') as Record<string, string>;
    } catch {
      return {};
    }
  };
  let tightest: { quota: string; resource: string; p: number } | undefined;
  const parts = quotas.map((q) => {
    const hard = parse(q.fields['hard']);
    const used = parse(q.fields['used']);
    if (!Object.keys(hard).length)
      return `ResourceQuota ${q.name}: its used and hard figures were not shown`;
    const rows = Object.keys(hard)
      .map((r) => {
        const u = quantity(used[r] ?? '0');
        const h = quantity(hard[r]);
        return { r, u, h, p: pct(u, h) };
      })
      .sort((a, b) => b.p - a.p);
    const top = rows[0]!;
    if (!tightest || top.p > tightest.p) tightest = { quota: q.name, resource: top.r, p: top.p };
    return `ResourceQuota ${q.name} (used of hard, tightest first): ${rows
      .map(
        (x) =>
          `${x.r} ${used[x.r] ?? '0'} of ${hard[x.r]} (${Number.isFinite(x.p) ? `${x.p}%` : 'over'}${x.h >= x.u ? `, ${leftOf(x.r, hard[x.r]!, x.h - x.u)} left` : ', over the quota'})`,
      )
      .join('; ')}`;
  });
  const t = tightest as { quota: string; resource: string; p: number } | undefined;
  const verdict = t
    ? ` The closest to its limit is ${t.resource} at ${Number.isFinite(t.p) ? `${t.p}%` : 'over 100%'} (ResourceQuota ${t.quota}): a pod whose ${t.resource} would take the namespace past it is refused at admission ("exceeded quota").`
    : '';
  return `${parts.join('. ')}${where ? ` (namespace ${namespace})` : ''}.${verdict}${add ? plannedFit(model, quotas, namespace, add, parse) : ''}`;
}

/** "add two more etl-worker replicas (2 CPU / 3Gi each)": what they need against what is left */
function plannedFit(
  model: ClusterModel,
  quotas: ObjectView[],
  namespace: string | undefined,
  add: { count: number; subject?: string; cpu?: string; memory?: string },
  parse: (v?: string) => Record<string, string>,
): string {
  // a size the message does not give: the requests of a running pod of the workload
  const pod = add.subject
    ? runningPods(model, namespace).find(
        (p) => model.workloadOf(p).name === add.subject && p.containers.some((c) => !c.init),
      )
    : undefined;
  const sum = (r: 'cpu' | 'memory') =>
    pod?.containers.filter((c) => !c.init).reduce((a, c) => a + quantity(c.requests[r]), 0) ?? 0;
  const per: Record<string, number> = {
    cpu: add.cpu ? quantity(add.cpu) : sum('cpu'),
    memory: add.memory ? quantity(add.memory) : sum('memory'),
    pods: 1,
  };
  const needs: string[] = [];
  const refused: string[] = [];
  for (const q of quotas) {
    const hard = parse(q.fields['hard']);
    const used = parse(q.fields['used']);
    for (const r of Object.keys(hard)) {
      const what =
        r === 'pods' || r === 'count/pods' ? 'pods' : /^(?:requests\.)?(cpu|memory)$/.exec(r)?.[1];
      if (!what || !per[what]) continue;
      const need = per[what]! * add.count;
      const left = quantity(hard[r]) - quantity(used[r] ?? '0');
      const fits = need <= left;
      // what does not fit first
      needs.splice(
        fits ? needs.length : refused.length,
        0,
        `${r} ${leftOf(r, hard[r]!, need)} (${leftOf(r, hard[r]!, Math.max(0, left))} left: ${fits ? 'fits' : 'does not fit'})`,
      );
      if (!fits) refused.push(r);
    }
  }
  if (!needs.length) return '';
  return ` Adding ${add.count} more ${add.subject ? `${add.subject} ` : ''}pod${add.count === 1 ? '' : 's'} would need ${needs.join(', ')}${
    refused.length
      ? `: the quota would refuse ${add.count === 1 ? 'it' : 'them'} (exceeded quota: ${refused.join(', ')}) unless its hard limits are raised.`
      : ': the quota has room for them.'
  }`;
}

/** "node was low on resource: ephemeral-storage" from an eviction message */
const evictionCause = (message: string) =>
  /low on resource: ([\w-]+(?:\.[\w-]+)*)/i.exec(message)?.[1] ??
  (/preempt/i.test(message)
    ? 'preemption'
    : /taint/i.test(message)
      ? 'a NoExecute taint'
      : undefined);

/** "which pods were evicted (in the last day) and why?": each eviction, when, where and why */
function evictedPods(
  model: ClusterModel,
  namespace: string | undefined,
  since: number | undefined,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const inNs = (ns?: string) => !namespace || !ns || ns === namespace;
  const pods = model.list('pod', namespace).filter((p) => inNs(p.namespace));
  const events = model.events.filter(
    (e) =>
      /^Evicted$/i.test(e.reason ?? '') &&
      (!e.object?.kind || e.object.kind === 'pod') &&
      inNs(e.namespace),
  );
  const names = new Set([
    ...pods
      .filter(
        (p) =>
          /^Evicted$/i.test(p.status ?? '') ||
          /^Evicted$/i.test(p.reason ?? '') ||
          p.conditions.some(
            (c) =>
              c.type === 'DisruptionTarget' &&
              c.status === 'True' &&
              /evict|low on resource/i.test(`${c.reason} ${c.message}`),
          ),
      )
      .map((p) => p.name),
    ...events.map((e) => e.object?.name ?? '').filter(Boolean),
  ]);
  if (!pods.length && !events.length)
    return `I could not list the pods or events${where} with the tools available.`;
  const all = [...names].map((name) => {
    const p = pods.find((x) => x.name === name);
    const e = events
      .filter((x) => x.object?.name === name)
      .sort((a, b) => (b.last ?? b.first ?? 0) - (a.last ?? a.first ?? 0))[0];
    const cond = p?.conditions.find((c) => c.type === 'DisruptionTarget');
    const ended = Math.max(
      -Infinity,
      ...(p?.containers ?? []).map((c) => c.terminated?.at ?? -Infinity),
    );
    const at = e?.last ?? e?.first ?? cond?.at ?? (Number.isFinite(ended) ? ended : undefined);
    const why = (p?.message || e?.message || cond?.message || '').trim();
    return { name, pod: p, at, why };
  });
  const inWindow = all.filter((x) => since === undefined || (x.at !== undefined && x.at >= since));
  const older = all.filter((x) => since !== undefined && x.at !== undefined && x.at < since);
  const unknown = all.filter((x) => since !== undefined && x.at === undefined);
  const window = since !== undefined ? ` since ${new Date(since).toISOString()}` : '';
  // killed for memory by the kernel is no eviction: said apart, never counted
  const oom = pods.filter(
    (p) =>
      !names.has(p.name) &&
      p.containers.some((c) =>
        [c.terminated, c.last].some(
          (st) =>
            st?.reason === 'OOMKilled' &&
            (since === undefined || st.at === undefined || st.at >= since),
        ),
      ),
  );
  const tail = `${older.length ? ` ${older.length} older eviction${older.length === 1 ? '' : 's'} (before the window) ${older.length === 1 ? 'is' : 'are'} left out.` : ''}${unknown.length ? ` ${unknown.length} evicted pod${unknown.length === 1 ? '' : 's'} whose eviction time was not shown: ${unknown.map((x) => x.name).join(', ')}.` : ''}${oom.length ? ` Not evictions: ${oom.map((p) => p.name).join(', ')} ${oom.length === 1 ? 'was' : 'were'} OOMKilled (the kernel killed a container over its memory limit), which is not an eviction.` : ''}`;
  if (!inWindow.length)
    return `No pod was evicted${where}${window} (${pods.length} pods and their events read).${tail}`;
  const causes = new Map<string, number>();
  for (const x of inWindow) {
    const c = evictionCause(x.why) ?? 'reason not shown';
    causes.set(c, (causes.get(c) ?? 0) + 1);
  }
  const byCause = [...causes]
    .map(
      ([c, n]) => `${n} for ${/^[\w.-]+$/.test(c) && c !== 'preemption' ? `node low on ${c}` : c}`,
    )
    .join(', ');
  return `${inWindow.length} pod${inWindow.length === 1 ? ' was' : 's were'} evicted${where}${window} (${byCause}): ${inWindow
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0))
    .map(
      (x) =>
        `${x.name}${x.pod ? ` (${model.workloadOf(x.pod).kind} ${model.workloadOf(x.pod).name})` : ''}${x.at !== undefined ? ` at ${new Date(x.at).toISOString()}` : ''}${x.pod?.node ? ` on node ${x.pod.node}` : ''}: ${x.why ? `"${clip(x.why, 220)}"` : 'no eviction message shown'}`,
    )
    .join('; ')}.${tail}`;
}

/** the value of `variable` in one container, and where it comes from */
function envValue(
  model: ClusterModel,
  c: ObjectView['containers'][number],
  variable: string,
  namespace: string | undefined,
): string | undefined {
  const data = (kind: string, name: string): Record<string, string> | undefined => {
    const o = model.get(kind, name, namespace);
    try {
      return o?.fields['data']
        ? (JSON.parse(o.fields['data']) as Record<string, string>)
        : undefined;
    } catch {
      return undefined;
    }
  };
  // env entries win over envFrom; a later envFrom source over an earlier one
  if (c.env[variable] !== undefined) return `${c.env[variable] || '""'} (set in env)`;
  const ref = c.envRefs
    .map((r) => new RegExp(`^${variable} <- (configmap|secret) (\\S+) key (\\S+)`).exec(r))
    .find(Boolean);
  if (ref) {
    if (ref[1] === 'secret')
      return `? (from Secret ${ref[2]} key ${ref[3]}: a Secret's value is never shown)`;
    const v = data('configmap', ref[2]!)?.[ref[3]!];
    return v !== undefined
      ? `${v} (from ConfigMap ${ref[2]} key ${ref[3]})`
      : `? (from ConfigMap ${ref[2]} key ${ref[3]}, whose value the tools did not show)`;
  }
  const from = c.envRefs
    .map((r) => /^envFrom (configmap|secret) (\S+)(?: prefix (\S+))?/.exec(r))
    .filter((m): m is RegExpExecArray => !!m)
    .reverse();
  const unread: string[] = [];
  for (const m of from) {
    const key = m[3]
      ? variable.startsWith(m[3])
        ? variable.slice(m[3].length)
        : undefined
      : variable;
    if (key === undefined) continue;
    if (m[1] === 'secret') {
      const keys = model.get('secret', m[2]!, namespace)?.fields['keys'];
      if (keys?.split(',').includes(key))
        return `? (from Secret ${m[2]} through envFrom: a Secret's value is never shown)`;
      if (keys === undefined) unread.push(`Secret ${m[2]}`);
      continue;
    }
    const d = data('configmap', m[2]!);
    if (d?.[key] !== undefined) return `${d[key]} (from ConfigMap ${m[2]} through envFrom)`;
    if (!d) unread.push(`ConfigMap ${m[2]}`);
  }
  if (unread.length)
    return `? (not set in env; it may come through envFrom from ${unread.join(', ')}, whose values the tools did not show)`;
  return undefined;
}

/** a variable that sets how much an application logs */
export const LOG_LEVEL_VARIABLE = /LOG_?LEVEL|LOGLEVEL|LOG_?LVL|VERBOSITY/i;
const LEVELS = ['trace', 'debug', 'info', 'warn', 'error'];

/**
 * A log level whose value the tools did not show: the finest level the workload's pods' logs
 * (when read) have lines at ("TRACE fx.cache ...", {"level":"debug"}).
 */
function loggedLevel(model: ClusterModel, o: ObjectView, variable: string): string {
  if (!LOG_LEVEL_VARIABLE.test(variable)) return '';
  const name = o.kind === 'pod' ? model.workloadOf(o).name : o.name;
  const pods = new Set(
    model
      .list('pod', o.namespace)
      .filter((p) => p.namespace === o.namespace && model.workloadOf(p).name === name)
      .map((p) => p.name),
  );
  const lines = model.logs
    .filter((l) => !l.previous && l.pod && pods.has(l.pod))
    .flatMap((l) => l.lines);
  const level = LEVELS.find((lv) =>
    lines.some((x) =>
      new RegExp(`^\\S*\\s*\\[?${lv}\\]?\\b|"level"\\s*:\\s*"${lv}"|\\blevel=${lv}\\b`, 'i').test(
        x.text.slice(0, 120),
      ),
    ),
  );
  return level
    ? `; its pods' logs have lines at level ${level} (${lines.length} lines read), so it runs at ${level} or finer`
    : '';
}

/** "what is LOG_LEVEL set to in each deployment?": per workload of the namespace, per container */
function envValues(
  model: ClusterModel,
  variable: string,
  namespace: string | undefined,
  kind: string | undefined,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const kinds = kind ? [kind] : ['deployment', 'statefulset', 'daemonset', 'cronjob'];
  // each workload's pod template; a workload not read whole: one of its running pods
  const specs = new Map<string, ObjectView>();
  for (const w of model.list(undefined, namespace))
    if (
      kinds.includes(w.kind) &&
      (!namespace || w.namespace === namespace) &&
      w.containers.some((c) => !c.init)
    )
      specs.set(`${w.kind} ${w.name}`, w);
  for (const p of runningPods(model, namespace)) {
    const w = model.workloadOf(p);
    const key = `${w.kind} ${w.name}`;
    if (!kinds.includes(w.kind) || specs.has(key) || !p.containers.some((c) => !c.init)) continue;
    specs.set(key, p);
  }
  if (!specs.size)
    return `I could not read the pod templates of the ${kind ?? 'workload'}s${where} with the tools available.`;
  const set: string[] = [];
  const unset: string[] = [];
  for (const [key, o] of [...specs].sort(([a], [b]) => a.localeCompare(b))) {
    const values = o.containers
      .filter((c) => !c.init)
      .map((c) => ({ c: c.name, v: envValue(model, c, variable, namespace) }))
      .filter((x) => x.v !== undefined);
    if (!values.length) unset.push(key);
    else
      set.push(
        `${key}: ${values
          .map(
            (x) =>
              `${x.v!.startsWith('? ') ? `${variable} ${x.v!.slice(2)}${loggedLevel(model, o, variable)}` : `${variable}=${x.v}`}${
                values.length > 1 || o.containers.filter((c) => !c.init).length > 1
                  ? ` in container ${x.c}`
                  : ''
              }`,
          )
          .join(', ')}`,
      );
  }
  return `${variable}${where}, per ${kind ?? 'workload'} (${specs.size} read): ${set.length ? set.join('; ') : `no ${kind ?? 'workload'} sets it`}.${unset.length && set.length ? ` Not set in: ${unset.join(', ')}.` : ''}`;
}

interface BindingSubject {
  kind: string;
  name: string;
  namespace?: string;
}

/** "which service account does X run as, and which roles are bound to it?" */
function serviceAccountOf(
  model: ClusterModel,
  scope: Scope,
  subject: string | undefined,
  namespace: string | undefined,
): string {
  const kinds = ['deployment', 'statefulset', 'daemonset', 'cronjob', 'job'];
  const subj = scope.subjects.find((s) => s.name === subject) ?? scope.subjects[0];
  const workloads = model
    .list(undefined, namespace)
    .filter(
      (o) =>
        kinds.includes(o.kind) &&
        (o.name === subject || (subj && o.name === subj.name)) &&
        (!namespace || o.namespace === namespace),
    );
  const w = workloads.find((o) => o.containers.length) ?? workloads[0];
  const name = w?.name ?? subject;
  const ns = w?.namespace ?? namespace;
  if (!name) return 'I could not tell which workload the question is about.';
  const pods = model
    .list('pod', ns)
    .filter((p) => (!ns || p.namespace === ns) && model.workloadOf(p).name === name);
  const sa =
    w?.fields['serviceAccount'] ??
    pods.find((p) => p.fields['serviceAccount'] ?? p.fields['Service Account'])?.fields[
      'serviceAccount'
    ] ??
    pods.find((p) => p.fields['Service Account'])?.fields['Service Account'] ??
    (w?.containers.length || pods.some((p) => p.containers.length) ? 'default' : undefined);
  const label = `${w ? `${w.kind} ` : ''}${name}${ns ? ` (namespace ${ns})` : ''}`;
  if (!sa)
    return `I could not read the pod template of ${label} (its serviceAccountName) with the tools available.`;
  const named =
    sa !== name && model.get('serviceaccount', name, ns)
      ? ` A ServiceAccount named ${name} exists too, but its pods do not run as it.`
      : '';
  const bindings = [
    ...model.list('rolebinding', ns).filter((b) => !ns || b.namespace === ns),
    ...model.list('clusterrolebinding'),
  ];
  const subjectsOf = (b: ObjectView): BindingSubject[] | undefined => {
    try {
      return b.fields['subjects']
        ? (JSON.parse(b.fields['subjects']) as BindingSubject[])
        : undefined;
    } catch {
      return undefined;
    }
  };
  const names = (x: BindingSubject, b: ObjectView) =>
    (x.kind === 'ServiceAccount' && x.name === sa && (x.namespace ?? b.namespace) === ns) ||
    (x.kind === 'Group' &&
      (x.name === 'system:serviceaccounts' || x.name === `system:serviceaccounts:${ns}`));
  const bound = bindings.filter((b) => subjectsOf(b)?.some((x) => names(x, b)));
  const unread = bindings.filter((b) => !subjectsOf(b)).length;
  const grants = bound.map((b) => {
    const [rk, rn] = (b.fields['roleRef'] ?? '/?').split('/') as [string, string];
    const role =
      rk === 'ClusterRole' ? model.get('clusterrole', rn) : model.get('role', rn, b.namespace);
    const rules = role?.fields['rules'];
    return `${rk || 'Role'} ${rn} through ${b.kind === 'clusterrolebinding' ? 'ClusterRoleBinding' : 'RoleBinding'} ${b.name}${rules ? ` (${clip(rules, 200)})` : ''}`;
  });
  const seen = bindings.length
    ? ` (${bindings.length} RoleBindings and ClusterRoleBindings seen${unread ? `, ${unread} of them without their subjects shown` : ''})`
    : '';
  return `${label} runs as ServiceAccount ${sa}${w?.fields['serviceAccount'] ? " (its pod template's serviceAccountName)" : sa === 'default' ? " (no serviceAccountName set: the namespace's default)" : ''}.${named} ${
    grants.length
      ? `Bound to ServiceAccount ${sa}${seen}: ${grants.join('; ')}.`
      : bindings.length
        ? `No RoleBinding or ClusterRoleBinding I read names ServiceAccount ${sa}${seen}.`
        : 'I could not list the RoleBindings and ClusterRoleBindings with the tools available.'
  }`;
}

/** a pod whose volumes were read (described or read whole), not only listed */
const volumesRead = (p: ObjectView) => p.containers.length > 0 || p.fields['claims'] !== undefined;

/**
 * "which PVCs are not mounted by any pod?": the namespace's claims no pod's volumes name (the
 * pods read whole or described, or the claim's own "Used By"); a claim only finished pods name is
 * said apart. A StatefulSet scaled below a claim's ordinal keeps that claim.
 */
function unmountedClaims(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const inNs = (o: ObjectView) => !namespace || o.namespace === namespace;
  const claims = model.list('persistentvolumeclaim', namespace).filter(inNs);
  if (!claims.length)
    return `I could not list the PersistentVolumeClaims${where} with the tools available.`;
  const pods = model.list('pod', namespace).filter(inNs);
  const unread = pods.filter((p) => !volumesRead(p));
  const users = (c: ObjectView) => {
    const byPods = pods.filter((p) => (p.fields['claims'] ?? '').split(',').includes(c.name));
    const listed = (c.fields['usedBy'] ?? '')
      .split(',')
      .filter((n) => n && !byPods.some((p) => p.name === n));
    return {
      running: byPods
        .filter((p) => !hasFinished(p))
        .map((p) => p.name)
        .concat(listed),
      finished: byPods.filter(hasFinished).map((p) => p.name),
    };
  };
  const size = (c: ObjectView) =>
    [c.fields['capacity'] || c.fields['Capacity'], c.fields['storageClassName'], c.status]
      .filter(Boolean)
      .join(', ');
  const statefulSets = model.list('statefulset', namespace).filter(inNs);
  const kept = (c: ObjectView) => {
    for (const sts of statefulSets) {
      const m = new RegExp(`-${sts.name}-(\\d+)$`).exec(c.name);
      // the spec's replicas, else what a listing's READY ("1/1") wants
      const replicas = Number(sts.fields['replicas'] ?? sts.fields['ready']?.split('/')[1] ?? NaN);
      if (m && Number.isFinite(replicas) && Number(m[1]) >= replicas)
        return `; StatefulSet ${sts.name} runs ${replicas} replica${replicas === 1 ? '' : 's'}, so ordinal ${m[1]} is gone and its claim was kept`;
    }
    return '';
  };
  const rows = claims.sort((a, b) => a.name.localeCompare(b.name)).map((c) => ({ c, ...users(c) }));
  // a claim no read pod names is unmounted when every pod was read, or its "Used By" says none
  const free = rows.filter(
    (r) => !r.running.length && (!unread.length || r.c.fields['usedBy'] === ''),
  );
  const unsure = rows.filter((r) => !r.running.length && !free.includes(r));
  const used = rows.filter((r) => r.running.length);
  const n = free.length;
  const head = n
    ? `${n} of the ${claims.length} PersistentVolumeClaims${where} ${n === 1 ? 'is' : 'are'} not mounted by any pod: ${free
        .map(
          (r) =>
            `${r.c.name}${size(r.c) ? ` (${size(r.c)}${kept(r.c)})` : kept(r.c) ? ` (${kept(r.c).slice(2)})` : ''}${r.finished.length ? ` (only finished pod${r.finished.length === 1 ? '' : 's'} ${r.finished.join(', ')} named it)` : ''}`,
        )
        .join('; ')}.`
    : `Every PersistentVolumeClaim${where} I could check is mounted by a pod (${claims.length} claims, ${pods.length} pods read).`;
  const mounted = used.length
    ? ` Mounted: ${used.map((r) => `${r.c.name} (by ${r.running.slice(0, 3).join(', ')})`).join(', ')}.`
    : '';
  const doubt = unsure.length
    ? ` Not named by any pod I read, but ${unread.length} pod${unread.length === 1 ? '' : 's'} (${unread
        .slice(0, 5)
        .map((p) => p.name)
        .join(', ')}) could not be read: ${unsure.map((r) => r.c.name).join(', ')}.`
    : '';
  return `${head}${mounted}${doubt}`;
}

/** An image's tag ("" when none), or undefined when a digest pins it. */
export function imageTag(image: string): string | undefined {
  if (image.includes('@')) return undefined;
  const last = image.split('/').pop() ?? image;
  const i = last.indexOf(':');
  return i < 0 ? '' : last.slice(i + 1);
}

/**
 * "which containers run :latest or an untagged image?": per workload and container of the
 * namespace, from its pods' specs (an image without a tag or digest pulls latest; a digest pins).
 */
function floatingImages(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const pods = model
    .list('pod', namespace)
    .filter((p) => (!namespace || p.namespace === namespace) && !hasCompleted(p));
  const read = pods.filter((p) => p.containers.some((c) => c.image || c.specImage));
  if (!read.length)
    return `I could not read the containers of the pods${where} with the tools available.`;
  const seen = new Map<string, { label: string; image: string; tag: string }>();
  const pinned = new Set<string>();
  for (const p of read) {
    const w = model.workloadOf(p);
    const owner = w.kind === 'pod' || w.name === p.name ? `pod ${p.name}` : `${w.kind} ${w.name}`;
    for (const c of p.containers) {
      const image = c.specImage ?? c.image;
      if (!image) continue;
      const tag = imageTag(image);
      const label = `${owner} container ${c.name}${c.init ? ' (init)' : ''}`;
      if (tag === '' || tag === 'latest') seen.set(label, { label, image, tag });
      else pinned.add(`${owner}/${c.name}`);
    }
  }
  // a pod not read shares its template with one that was (a ReplicaSet's replicas)
  const readTemplates = new Set(read.map((p) => templateKey(model, p)));
  const missed = pods.filter((p) => !read.includes(p) && !readTemplates.has(templateKey(model, p)));
  const unread = missed.length;
  const tail = unread
    ? ` ${unread} pod${unread === 1 ? '' : 's'} whose containers I could not read: ${missed
        .slice(0, 5)
        .map((p) => p.name)
        .join(', ')}.`
    : '';
  const hits = [...seen.values()].sort((a, b) => a.label.localeCompare(b.label));
  if (!hits.length)
    return `No container${where} runs an image tagged latest or without a tag (${pinned.size} container${pinned.size === 1 ? '' : 's'} read, each pinned to a tag or digest).${tail}`;
  return `${hits.length} container${hits.length === 1 ? '' : 's'}${where} run${hits.length === 1 ? 's' : ''} an image tagged latest or with no tag (which pulls latest): ${hits
    .map(
      (h) => `${h.label}: ${h.image} (${h.tag === 'latest' ? 'tag latest' : 'no tag, so latest'})`,
    )
    .join(
      '; ',
    )}. ${pinned.size} other container${pinned.size === 1 ? ' is' : 's are'} pinned to a version tag or digest.${tail}`;
}

/** the time a field holds (ISO or RFC 1123), else undefined */
const timeOf = (v: string | undefined) => {
  const t = Date.parse(v ?? '');
  return Number.isFinite(t) ? t : undefined;
};

/** how a Job ended: succeeded, failed, still running, or undefined when not shown */
function jobOutcome(j: ObjectView): string | undefined {
  if (
    j.conditions.some((c) => c.type === 'Failed' && c.status === 'True') ||
    /^Failed$/i.test(j.status ?? '') ||
    (Number(j.fields['status.failed'] ?? 0) > 0 && !Number(j.fields['status.succeeded'] ?? 0))
  )
    return 'failed';
  if (
    j.fields['completionTime'] ||
    j.conditions.some((c) => c.type === 'Complete' && c.status === 'True') ||
    /^Complete$/i.test(j.status ?? '') ||
    Number(j.fields['status.succeeded'] ?? 0) > 0
  )
    return 'succeeded';
  if (/^Running$/i.test(j.status ?? '') || Number(j.fields['status.active'] ?? 0) > 0)
    return 'still running';
  return undefined;
}

/**
 * "which CronJobs are suspended, and when did each last run?": spec.suspend, the last schedule
 * time, and how the Job of that run ended when it is still there.
 */
function suspendedCronJobs(
  model: ClusterModel,
  namespace: string | undefined,
  now: number,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const crons = model
    .list('cronjob', namespace)
    .filter((c) => !namespace || c.namespace === namespace);
  if (!crons.length) return `I could not list the CronJobs${where} with the tools available.`;
  const suspendOf = (c: ObjectView) => c.fields['suspend'] ?? c.fields['suspendListed'];
  const suspended = crons.filter((c) => suspendOf(c) === 'true');
  const unknown = crons.filter((c) => suspendOf(c) === undefined);
  const active = crons.filter((c) => suspendOf(c) === 'false');
  const jobs = model.list('job', namespace).filter((j) => !namespace || j.namespace === namespace);
  const lastRun = (c: ObjectView): string => {
    const at = timeOf(c.fields['lastScheduleTime']) ?? timeOf(c.fields['lastScheduleAt']);
    const approx = timeOf(c.fields['lastScheduleTime']) === undefined;
    if (at === undefined)
      return c.fields['lastSchedule'] === 'never'
        ? 'never ran (no last schedule time)'
        : 'when it last ran was not shown';
    const mine = jobs
      .filter((j) => j.owner?.name === c.name || model.workloadOf(j).name === c.name)
      .sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
    // the Job of that run: named <cronjob>-<scheduled minute>, else the newest one
    const job =
      mine.find((j) => j.name === `${c.name}-${Math.round(at / 60_000)}`) ??
      (approx ? mine[0] : undefined);
    const outcome = job ? jobOutcome(job) : undefined;
    const success = timeOf(c.fields['lastSuccessfulTime']);
    const day = new Date(at).toISOString();
    return `last ran ${approx ? 'about ' : ''}${approx ? day.slice(0, 10) : day} (${ago(now - at)} ago)${
      job
        ? outcome
          ? `, and that run ${outcome === 'still running' ? 'is still running' : outcome} (Job ${job.name})`
          : ` (Job ${job.name})`
        : ''
    }${success !== undefined && outcome !== 'succeeded' ? `; last success ${new Date(success).toISOString()}` : ''}`;
  };
  const others = `${active.length ? ` Not suspended: ${active.map((c) => c.name).join(', ')}.` : ''}${unknown.length ? ` Whether ${unknown.map((c) => c.name).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} suspended was not shown.` : ''}`;
  if (!suspended.length)
    return `No CronJob${where} is suspended (${crons.length} CronJobs read).${others}`;
  return `${suspended.length} of the ${crons.length} CronJobs${where} ${suspended.length === 1 ? 'is' : 'are'} suspended (spec.suspend: true, so no run starts): ${suspended
    .map((c) => `${c.name} ${lastRun(c)}`)
    .join('; ')}.${others}`;
}

/** "which pods were created in the last hour?": the kind's objects of the namespace by creation time */
function createdSince(
  model: ClusterModel,
  kind: string,
  namespace: string | undefined,
  since: number,
  now: number,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const what = kind === 'persistentvolumeclaim' ? 'PersistentVolumeClaim' : kind;
  const all = model
    .list(kind, namespace)
    .filter((o) => o.kind === kind && (!namespace || o.namespace === namespace));
  if (!all.length) return `I could not list the ${what}s${where} with the tools available.`;
  const hits = all
    .filter((o) => o.created !== undefined && o.created >= since)
    .sort((a, b) => b.created! - a.created!);
  const older = all.filter((o) => o.created !== undefined && o.created < since).length;
  const unknown = all.filter((o) => o.created === undefined);
  const window = `since ${new Date(since).toISOString()} (the last ${ago(now - since)})`;
  const tail = `${older ? ` ${older} older ${what}${older === 1 ? '' : 's'} left out.` : ''}${unknown.length ? ` ${unknown.length} ${what}${unknown.length === 1 ? '' : 's'} whose creation time was not shown: ${unknown.map((o) => o.name).join(', ')}.` : ''}`;
  if (!hits.length) return `No ${what}${where} was created ${window} (${all.length} seen).${tail}`;
  return `${hits.length} ${what}${hits.length === 1 ? ' was' : 's were'} created${where} ${window}: ${hits
    .map((o) => {
      const w = kind === 'pod' ? model.workloadOf(o) : undefined;
      return `${o.name} at ${new Date(o.created!).toISOString()} (${ago(now - o.created!)} ago${w && w.name !== o.name ? `, ${w.kind} ${w.name}` : ''}${o.status ? `, ${o.status}` : ''})`;
    })
    .join('; ')}.${tail}`;
}

/** a claim's size: what was provisioned (status.capacity), else what it requests */
export function claimSize(c: ObjectView): { size?: string; requested: boolean } {
  const provisioned =
    c.fields['storageCapacity'] ??
    (c.fields['storageRequest'] === undefined
      ? c.fields['capacity'] || c.fields['Capacity'] || undefined
      : undefined);
  if (provisioned) return { size: provisioned, requested: false };
  const asked = c.fields['storageRequest'];
  return asked ? { size: asked, requested: true } : { requested: false };
}

/**
 * "which PVCs in data are larger than 100Gi, and which pods use them?": the namespace's claims
 * above (or under) the size, by their provisioned capacity, else their request; each with the pods
 * whose volumes name it (read whole or described, or the claim's own "Used By"), or "no pod".
 * Finished pods that named a claim are said apart.
 */
export function claimsBySize(
  model: ClusterModel,
  q: { bytes: number; size: string; inclusive: boolean; below?: boolean },
  namespace: string | undefined,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const inNs = (o: ObjectView) => !namespace || o.namespace === namespace;
  const claims = model
    .list('persistentvolumeclaim', namespace)
    .filter(inNs)
    .sort((a, b) => a.name.localeCompare(b.name));
  const comparison = q.inclusive
    ? `${q.below ? 'at most' : 'at least'} ${q.size}`
    : `${q.below ? 'smaller' : 'larger'} than ${q.size}`;
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  if (!claims.length)
    return `I could not list the PersistentVolumeClaims${where} with the tools available.`;
  const pods = model.list('pod', namespace).filter(inNs);
  const unread = pods.filter((p) => !volumesRead(p));
  // across namespaces a claim is named with its namespace, and only its own pods mount it
  const label = (c: ObjectView) => (namespace ? c.name : `${c.namespace ?? '?'}/${c.name}`);
  const sized = claims.map((c) => ({ c, ...claimSize(c), bytes: quantity(claimSize(c).size) }));
  const hits = sized
    .filter(
      (x) =>
        x.size !== undefined &&
        (q.below
          ? x.bytes < q.bytes || (q.inclusive && x.bytes === q.bytes)
          : x.bytes > q.bytes || (q.inclusive && x.bytes === q.bytes)),
    )
    .sort((a, b) => b.bytes - a.bytes || label(a.c).localeCompare(label(b.c)));
  const unsized = sized.filter((x) => x.size === undefined);
  const users = (c: ObjectView) => {
    const byPods = pods.filter(
      (p) =>
        (!p.namespace || !c.namespace || p.namespace === c.namespace) &&
        (p.fields['claims'] ?? '').split(',').includes(c.name),
    );
    const listed = (c.fields['usedBy'] ?? '')
      .split(',')
      .filter((n) => n && !byPods.some((p) => p.name === n));
    const named = (p: ObjectView) => {
      const w = model.workloadOf(p);
      const owner = w.kind !== 'pod' && w.name !== p.name ? ` of ${w.kind} ${w.name}` : '';
      return `${p.name}${owner}${p.status && p.status !== 'Running' ? ` [${p.status}]` : ''}`;
    };
    return {
      running: byPods
        .filter((p) => !hasFinished(p))
        .map(named)
        .concat(listed),
      finished: byPods.filter(hasFinished).map((p) => `${p.name} [${p.status}]`),
    };
  };
  const line = (x: (typeof sized)[number]) => {
    const u = users(x.c);
    const size = `${x.size}${x.requested ? ' requested' : ''}${x.c.status && x.c.status !== 'Bound' ? `, ${x.c.status}` : ''}`;
    const by = u.running.length
      ? `used by ${u.running.join(', ')}`
      : unread.length && x.c.fields['usedBy'] === undefined
        ? `no pod I read mounts it (${plural(unread.length, 'pod')} not read)`
        : 'no pod mounts it';
    return `${label(x.c)} (${size}): ${by}${u.finished.length ? `; finished: ${u.finished.join(', ')}` : ''}`;
  };
  const others = sized.filter((x) => x.size !== undefined && !hits.includes(x));
  const tail = `${
    others.length
      ? ` Not ${q.below ? 'smaller' : 'larger'}: ${others
          .sort((a, b) => b.bytes - a.bytes || a.c.name.localeCompare(b.c.name))
          .map((x) => `${label(x.c)} ${x.size}`)
          .join(', ')}.`
      : ''
  }${unsized.length ? ` The size of ${unsized.map((x) => label(x.c)).join(', ')} was not shown.` : ''}`;
  if (!hits.length)
    return `No PersistentVolumeClaim${where} is ${comparison} (${plural(claims.length, 'claim')} read).${tail}`;
  return `${hits.length} of the ${plural(claims.length, 'PersistentVolumeClaim')}${where} ${hits.length === 1 ? 'is' : 'are'} ${comparison} (by provisioned capacity, else request): ${hits
    .map(line)
    .join('; ')}.${tail}`;
}
