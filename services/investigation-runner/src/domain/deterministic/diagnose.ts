import { matchesLabels } from '@inquest/kube';
import type { CauseEntry, FactSource } from './cause-catalog.data';
import {
  backingWorkload,
  CONNECTION_RESET,
  failingDependencies,
  INGRESS_CONTROLLER,
  ingressBackends,
  CONNECT_FAILED,
  MESH_PROXY,
  NETWORK_TIMEOUT,
  NODE_AGENT,
  podsNamedFor,
  selectorOf,
  tlsSecretWorkload,
  upstreamWorkload,
} from './dependencies';
import { hasFinished, isUnhealthy } from './health';
import { rolloutFindings } from './diagnose-rollouts';
import { r21dataFindings } from './diagnose-r21data';
import { r23aFindings } from './diagnose-r23a';
import { r24bFindings } from './diagnose-r24b';
import { r26cFindings } from './diagnose-r26c';
import { r24aFindings } from './diagnose-r24a';
import { r26bFindings } from './diagnose-r26b';
import { r28bFindings } from './diagnose-r28b';
import { r29aFindings, searchListExpansions } from './diagnose-r29a';
import { r29cFindings } from './diagnose-r29c';
import { r30cFindings } from './diagnose-r30c';
import { r30aFindings } from './diagnose-r30a';
import { r31aFindings } from './diagnose-r31a';
import { scaleDownEvictedJobs, sslRedirectLoops } from './diagnose-r21sched';
import { issuerHeldWorkload, refusedIngress } from './finding-vars-r27b';
import { namesToken } from './text';
import {
  isCordoned,
  nodesRefusingDaemonSet,
  quantity,
  servicePorts,
  workloadName,
  type ClusterModel,
} from './model';
import type { LogView, ObjectView } from './observe';
import type { Subject } from './scope';

/** One fact that matched a catalog entry, on an object. */
export interface Finding {
  entry: CauseEntry;
  /** the object it is about (pod, node, pvc, job...) */
  object?: { kind: string; name: string; namespace?: string };
  /** the workload it belongs to ("checkout-api") */
  workload: string;
  fact: string;
  groups: Record<string, string>;
  at?: number;
  where: FactSource;
  source: string;
  /** the other objects the same fact was seen on (their findings merge into this one) */
  alsoOn?: string[];
}

interface Compiled {
  entry: CauseEntry;
  reason?: RegExp;
  text?: RegExp;
}

export function compile(catalog: CauseEntry[]): Compiled[] {
  return catalog.map((entry) => ({
    entry,
    reason: entry.reason ? new RegExp(entry.reason, 'i') : undefined,
    text: entry.text ? new RegExp(entry.text, entry.caseSensitive ? 'm' : 'im') : undefined,
  }));
}

const clip = (s: string, n = 300) =>
  (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\s+/g, ' ').trim();

/**
 * Clips a record to n characters, keeping the error value it ends with ("… Error:
 * NOT_ENOUGH_REPLICAS"): the part that says what failed is often the last.
 */
export function clipKeepingError(text: string, n: number, keep?: string): string {
  if (text.length <= n) return clip(text, n);
  const tail = /\b(?:error|err|exception|caused by)\b"?\s*[:=]\s*\S[^\n]{0,100}$/i.exec(text);
  if (tail && tail.index >= n - 40 && tail[0].length <= n / 2)
    return `${clip(text.slice(0, n - tail[0].length - 3), n)} … ${tail[0]}`;
  // else what the catalog matched ("lookup x on 10.0.0.10:53: no such host") survives the clip
  // (not a crash marker like "Traceback (most recent call last)": the error before it says more)
  const k = keep?.replace(/\s+/g, ' ').trim();
  if (
    k &&
    !CRASH.test(k) &&
    k.length <= n / 2 &&
    !clip(text, n).includes(k) &&
    text.replace(/\s+/g, ' ').includes(k)
  )
    return `${clip(text.slice(0, n - k.length - 3), n)} … ${k}`;
  return clip(text, n);
}

function test(
  c: Compiled,
  where: FactSource,
  reason: string | undefined,
  text: string,
): { fact: string; groups: Record<string, string> } | undefined {
  if (!c.entry.on.includes(where)) return undefined;
  if (c.reason && !(reason && c.reason.test(reason))) {
    // an entry with both reason and text matches either when it is a symptom of a reason word in the text
    if (!c.text) return undefined;
    if (c.entry.reason && !c.entry.text) return undefined;
    if (c.reason && !c.text) return undefined;
    if (c.entry.id.startsWith('probe_')) return undefined;
  }
  if (!c.text) return { fact: clip(`${reason ?? ''}${text ? `: ${text}` : ''}`), groups: {} };
  const m = c.text.exec(text);
  if (!m) return undefined;
  const groups: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.groups ?? {})) if (v) groups[k] = v;
  if (m[0].length <= 160) groups['matched'] = m[0];
  // a long structured record whose match lies beyond the clip: its message and error fields
  const fact =
    where === 'log' && m.index + m[0].length > 280 && /^\s*\{/.test(text.replace(LINE_STAMP, ''))
      ? clip(errorMessage(text))
      : where === 'log' || text.length < 300
        ? clip(text)
        : clip(m[0]);
  // what the entry matched stays in the fact even when the record is cut before it (a
  // traceback's message first, the driver's "MISCONF ..." at its end)
  const flat = (x: string) => x.replace(/\\/g, '').replace(/\s+/g, ' ').trim();
  const matched = flat(m[0]);
  if (matched.length >= 12 && matched.length <= 160 && !flat(fact).includes(matched.slice(0, 40)))
    return {
      fact: `${clip(fact, 300 - matched.length - 3).replace(/…$/, '')} … ${matched}`,
      groups,
    };
  return { fact, groups };
}

/** Match every fact of the model against the catalog. */
export function findFindings(model: ClusterModel, catalog: Compiled[], now?: number): Finding[] {
  const out: Finding[] = [];
  const seen = new Map<string, Finding>();
  const push = (f: Finding) => {
    const k = `${f.entry.id}|${f.workload}|${f.fact}`;
    const first = seen.get(k);
    // the same fact again: it is still happening when its last record is recent
    if (first) {
      const on = f.object?.name;
      if (on && on !== first.object?.name && !first.alsoOn?.includes(on))
        (first.alsoOn ??= []).push(on);
      const last = first.groups['last'] ? Date.parse(first.groups['last']) : first.at;
      if (f.at !== undefined && (last === undefined || f.at > last))
        first.groups['last'] = new Date(f.at).toISOString();
      return;
    }
    seen.set(k, f);
    out.push(f);
  };
  const run = (
    where: FactSource,
    reason: string | undefined,
    text: string,
    obj: ObjectView | undefined,
    workload: string,
    at: number | undefined,
    source: string,
    extra: Record<string, string> = {},
  ) => {
    for (const c of catalog) {
      const hit = test(c, where, reason, text);
      if (hit)
        push({
          entry: c.entry,
          object: obj ? { kind: obj.kind, name: obj.name, namespace: obj.namespace } : undefined,
          workload,
          fact: hit.fact,
          groups: withHint(extra, hit.groups),
          at,
          where,
          source,
        });
    }
  };
  for (const o of model.objects.values()) {
    // an issuer that is not Ready is about the workload whose Ingress waits for it (r27b)
    const w =
      issuerHeldWorkload(model, o, (ing) => {
        const b = ingressBackends(ing)[0];
        const svc = b && (model.get('service', b.service, ing.namespace) ?? undefined);
        return (svc && backingWorkload(model, svc)?.name) ?? b?.service ?? ing.name;
      }) ?? model.workloadOf(o).name;
    for (const c of o.containers) {
      for (const st of [c.waiting, c.terminated, c.last]) {
        if (!st?.reason && st?.exitCode === undefined) continue;
        if (st.reason === 'Completed' || (st.exitCode === 0 && !st.reason)) continue;
        const text = [
          st.reason,
          st.exitCode !== undefined ? `exit code ${st.exitCode}` : '',
          st.message,
        ]
          .filter(Boolean)
          .join(': ');
        // in a pod of several containers, which one (a sidecar may be the one failing)
        const which: Record<string, string> = o.containers.length > 1 ? { container: c.name } : {};
        run('state', st.reason, text, o, w, st.at, o.source, which);
      }
    }
    if (o.reason || o.message)
      run(
        'status',
        o.reason,
        [o.reason, o.message].filter(Boolean).join(': '),
        o,
        w,
        o.created,
        o.source,
      );
    if (
      o.kind === 'pod' &&
      o.status &&
      /BackOff|Err|Error|Evicted|OOMKilled|CreateContainer/.test(o.status) &&
      !o.containers.some((c) => c.waiting || c.terminated || c.last)
    )
      run('status', o.status, o.status, o, w, undefined, o.source);
    for (const cond of o.conditions) {
      const bad =
        ([
          'Ready',
          'PodScheduled',
          'Available',
          'ContainersReady',
          'Initialized',
          'AbleToScale',
          'ScalingActive',
        ].includes(cond.type) &&
          cond.status !== 'True') ||
        (/Pressure$|NetworkUnavailable|^Failed$|ReplicaFailure|ScalingLimited|^KernelDeadlock$/.test(
          cond.type,
        ) &&
          cond.status === 'True') ||
        (cond.type === 'Progressing' && cond.status === 'False') ||
        // a rollout paused (and forgotten): the new template never rolls out
        (cond.type === 'Progressing' && cond.reason === 'DeploymentPaused');
      if (!bad || (cond.type === 'Ready' && o.kind === 'pod')) continue;
      const reason = /Pressure$/.test(cond.type) ? cond.type : (cond.reason ?? cond.type);
      run(
        'condition',
        reason,
        `${cond.type} ${cond.status} ${cond.reason ?? ''}: ${cond.message ?? ''}`,
        o,
        w,
        cond.at,
        o.source,
      );
    }
  }
  for (const e of model.events) {
    // routine Normal events say nothing is wrong; others (FailedBinding, NodeNotReady...) may
    if (e.type === 'Normal' && BENIGN_EVENT.test(e.reason ?? '')) continue;
    const obj = e.object
      ? ((e.object.kind ? model.get(e.object.kind, e.object.name, e.namespace) : undefined) ??
        [...model.objects.values()].find((o) => o.name === e.object!.name))
      : undefined;
    const view =
      obj ??
      (e.object
        ? {
            kind: e.object.kind ?? 'resource',
            name: e.object.name,
            namespace: e.namespace,
            labels: {},
            containers: [],
            conditions: [],
            images: [],
            fields: {},
            source: e.source,
          }
        : undefined);
    // an event about a ReplicaSet or pod not listed still belongs to its workload
    const w = view ? model.workloadOf(view as ObjectView).name : '';
    run(
      'event',
      e.reason,
      e.message,
      view as ObjectView | undefined,
      w,
      e.last ?? e.first,
      e.source,
    );
  }
  for (const l of model.logs) {
    const pod = l.pod ? model.get('pod', l.pod, l.namespace) : undefined;
    const w = pod ? model.workloadOf(pod).name : l.pod ? l.pod : '';
    const view =
      pod ??
      (l.pod
        ? {
            kind: 'pod',
            name: l.pod,
            namespace: l.namespace,
            labels: {},
            containers: [],
            conditions: [],
            images: [],
            fields: {},
            source: l.source,
          }
        : undefined);
    // the last fatal lines matter most: scan from the end, error/warn lines and a few others
    const lines = l.lines.slice(-400);
    // CoreDNS's NXDOMAINs for the search-list walk of a name that resolves (r29a)
    const expansions = searchListExpansions(lines.map((x) => x.text));
    lines.forEach((line, i) => {
      if (expansions.has(i)) return;
      if (!line.level && !INTERESTING.test(line.text) && !l.previous && lines.length > 60) return;
      // a sidecar not ready while it starts, ready a moment later: a start, not a fault
      if (
        /proxy is NOT ready/.test(line.text) &&
        lines.slice(i + 1).some((x) => /proxy is ready/.test(x.text))
      )
        return;
      // a crash line carries its first frames of application code (the stack trace below it)
      const text = CRASH.test(line.text)
        ? withFrames(
            line.text,
            lines.slice(i + 1, i + 80).map((x) => x.text),
          )
        : withDetail(
            line.text,
            lines[i + 1]?.text,
            lines.slice(i + 1, i + 12).map((x) => x.text),
          );
      // "connection refused" without the host: the host the app said it was connecting to
      const hint = /refused|timed? ?out|timeout|unreachable/i.test(line.text)
        ? connectTarget(lines.slice(Math.max(0, i - 12), i + 1).map((x) => x.text))
        : undefined;
      // an ingress controller's line is about the service it routes the request to
      const upstream =
        l.pod && INGRESS_CONTROLLER.test(l.pod) && /\[(?:error|crit|alert|emerg)\]/.test(line.text)
          ? upstreamWorkload(model, line.text)
          : // a TLS Secret the controller (or cert-manager) cannot use: the Ingress's workload
            l.pod && (INGRESS_CONTROLLER.test(l.pod) || /^cert-manager-/.test(l.pod))
            ? (tlsSecretWorkload(model, line.text) ??
              // a certificate it cannot parse names no Secret: the controller's next lines do
              (/certificate/i.test(line.text)
                ? lines
                    .slice(i + 1, i + 4)
                    .map((x) => tlsSecretWorkload(model, x.text))
                    .find(Boolean)
                : undefined))
            : undefined;
      // an Ingress the controller leaves out (a risky annotation): the workload behind it (r27b)
      const refused =
        !upstream && l.pod && INGRESS_CONTROLLER.test(l.pod)
          ? refusedIngress(model, line.text, lines[i - 1]?.text)
          : undefined;
      const refusedWorkload = refused
        ? (() => {
            const b = ingressBackends(refused)[0];
            const svc = b && model.get('service', b.service, refused.namespace);
            return (svc && backingWorkload(model, svc)) ?? undefined;
          })()
        : undefined;
      run(
        'log',
        undefined,
        text,
        (upstream ?? refusedWorkload ?? view) as ObjectView | undefined,
        upstream?.name ?? refusedWorkload?.name ?? w,
        line.at,
        l.source,
        hint ? { host_hint: hint } : {},
      );
    });
  }
  // usage at its CPU limit (from resource metrics): the kernel throttles the container
  for (const m of model.metrics) {
    if (m.kind !== 'pod' || !m.cpu) continue;
    const pod = model.get('pod', m.name, m.namespace);
    const limit = pod?.containers.map((c) => c.limits['cpu']).find(Boolean);
    if (!pod || !limit || quantity(limit) <= 0) continue;
    const share =
      quantity(m.cpu) /
      (quantity(limit) * Math.max(1, pod.containers.filter((c) => c.limits['cpu']).length));
    if (share < 0.9) continue;
    const text = `pod ${pod.name} uses ${m.cpu} CPU of its ${limit} CPU limit (${Math.round(share * 100)}%): CPU throttled at its limit`;
    run('metric', undefined, text, pod, model.workloadOf(pod).name, undefined, m.source);
  }
  for (const t of model.texts) {
    // free text (an alert's description, a tool's summary) is about the object it names
    const obj = namedIn(t.text, model);
    run('text', undefined, t.text, obj, obj ? model.workloadOf(obj).name : '', undefined, t.source);
  }
  const repeated = catalog.find((c) => c.entry.id === 'app_errors');
  if (repeated) for (const f of appErrors(model, repeated.entry, now)) push(f);
  const badRoute = catalog.find((c) => c.entry.id === 'ingress_backend_missing');
  if (badRoute) for (const f of ingressBackendsMissing(model, badRoute.entry)) push(f);
  const unserved = catalog.find((c) => c.entry.id === 'ingress_class_unserved');
  if (unserved) for (const f of ingressClassUnserved(model, unserved.entry)) push(f);
  const rewrite = catalog.find((c) => c.entry.id === 'ingress_rewrite_fixed');
  if (rewrite) for (const f of fixedRewrites(model, rewrite.entry)) push(f);
  const suspended = catalog.find((c) => c.entry.id === 'cronjob_suspended');
  if (suspended) for (const f of suspendedCronJobs(model, suspended.entry, now)) push(f);
  const orphan = catalog.find((c) => c.entry.id === 'service_selects_no_pod');
  if (orphan) for (const f of servicesSelectingNoPod(model, orphan.entry)) push(f);
  const flapping = catalog.find((c) => c.entry.id === 'hpa_flapping');
  if (flapping) for (const f of flappingAutoscalers(model, flapping.entry)) push(f);
  const sidecar = catalog.find((c) => c.entry.id === 'job_sidecar_never_exits');
  if (sidecar) for (const f of jobPodsHeldBySidecar(model, sidecar.entry)) push(f);
  const unnamed = catalog.find((c) => c.entry.id === 'service_target_port_undeclared');
  if (unnamed) for (const f of namedTargetPortsUndeclared(model, unnamed.entry)) push(f);
  const untolerated = catalog.find((c) => c.entry.id === 'daemonset_untolerated_taint');
  if (untolerated) for (const f of daemonSetsKeptOff(model, untolerated.entry)) push(f);
  const budget = catalog.find((c) => c.entry.id === 'pdb_blocks_drain');
  if (budget) for (const f of drainsRefusedByBudget(model, budget.entry)) push(f);
  const agentDown = catalog.find((c) => c.entry.id === 'node_network_agent_down');
  if (agentDown) for (const f of nodeNetworkAgentsDown(model, agentDown.entry, now)) push(f);
  const cutDns = catalog.find((c) => c.entry.id === 'netpol_blocks_dns');
  if (cutDns) for (const f of dnsCutByNetworkPolicy(model, cutDns.entry, out)) push(f);
  const dnsDown = catalog.find((c) => c.entry.id === 'dns_replicas_on_unready_node');
  if (dnsDown) for (const f of dnsReplicasOnUnreadyNodes(model, dnsDown.entry, out)) push(f);
  const dangling = catalog.find((c) => c.entry.id === 'netpol_namespace_label_missing');
  if (dangling) for (const f of ingressFromMissingNamespaceLabel(model, dangling.entry)) push(f);
  const goProcs = catalog.find((c) => c.entry.id === 'go_maxprocs_over_limit');
  if (goProcs) for (const f of goProcsOverLimit(model, goProcs.entry)) push(f);
  const cutPort = catalog.find((c) => c.entry.id === 'netpol_blocks_port');
  if (cutPort) for (const f of portCutByNetworkPolicy(model, cutPort.entry)) push(f);
  const mesh = catalog.find((c) => c.entry.id === 'mesh_mtls_plaintext_refused');
  if (mesh) for (const f of plaintextRefusedByMesh(model, mesh.entry)) push(f);
  const early = catalog.find((c) => c.entry.id === 'mesh_proxy_not_ready_at_start');
  if (early) for (const f of appBeforeMeshProxy(model, early.entry)) push(f);
  const completed = catalog.find((c) => c.entry.id === 'container_exits_completed');
  if (completed) for (const f of completedAndRestarted(model, completed.entry)) push(f);
  const moved = catalog.find((c) => c.entry.id === 'service_port_not_listened');
  if (moved) for (const f of servicePortsNotListened(model, moved.entry)) push(f);
  const ordered = catalog.find((c) => c.entry.id === 'statefulset_ordered_ready_blocked');
  if (ordered) for (const f of orderedReadyBlocked(model, ordered.entry)) push(f);
  const drain = catalog.find((c) => c.entry.id === 'drain_exceeds_grace_period');
  if (drain) for (const f of drainLongerThanGrace(model, drain.entry)) push(f);
  const scaledDown = catalog.find((c) => c.entry.id === 'job_pod_evicted_by_scale_down');
  if (scaledDown) for (const f of scaleDownEvictedJobs(model, scaledDown.entry)) push(f);
  const loop = catalog.find((c) => c.entry.id === 'ingress_ssl_redirect_loop');
  if (loop) for (const f of sslRedirectLoops(model, loop.entry)) push(f);
  for (const f of rolloutFindings(
    model,
    catalog.map((c) => c.entry),
    now,
  ))
    push(f);
  // the rules that compare several facts, each in its own file
  const entries = catalog.map((c) => c.entry);
  for (const find of [
    r21dataFindings,
    r23aFindings,
    r24bFindings,
    r24aFindings,
    r26cFindings,
    r26bFindings,
    r28bFindings,
    r29aFindings,
    r29cFindings,
    r30cFindings,
    r30aFindings,
    r31aFindings,
  ])
    for (const f of find(model, entries)) push(f);
  return out;
}

/** What an app logs when it starts serving: "listening on :3000", "listening","port":3000 */
const LISTENING =
  /\blisten(?:ing|s)?\b[^\n]{0,60}?(?:\bport\b["']?\s*[:=]?\s*|(?:0\.0\.0\.0|127\.0\.0\.1|localhost|\[::\]|\*|https?:\/\/[\w.-]+)?:)(\d{2,5})\b/i;

/**
 * Services whose targetPort nothing listens on: the backing pods log that they listen on
 * another port, and connections to a pod at the targetPort are refused (an ingress controller's
 * "connect() failed (111: Connection refused) ... upstream: http://10.1.2.3:8080").
 */
function servicePortsNotListened(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  // read once for every Service: what each log says it listens on, and the refused connections
  const listening = new Map(
    model.logs.map((l) => [
      l,
      l.lines.flatMap((x) => {
        const m = LISTENING.exec(x.text);
        return m ? [{ port: m[1]!, line: x.text }] : [];
      }),
    ]),
  );
  const refusals = model.logs.flatMap((l) => l.lines).filter((x) => /refused/i.test(x.text));
  for (const svc of model.list('service')) {
    const w = backingWorkload(model, svc);
    if (!w) continue;
    const pods = model.podsOf(w.kind, w.name, svc.namespace);
    for (const sp of servicePorts(svc)) {
      const target = String(sp.targetPort ?? sp.port ?? '');
      if (!/^\d+$/.test(target)) continue;
      const listen = new Map<string, { pod: ObjectView; line: string }>();
      for (const l of model.logs) {
        const pod = pods.find((p) => p.name === l.pod);
        if (!pod) continue;
        for (const x of listening.get(l) ?? [])
          if (x.port !== target) listen.set(x.port, { pod, line: x.line });
      }
      // every pod that said where it listens said the same other port
      if (listen.size !== 1) continue;
      const [port, seen] = [...listen.entries()][0]!;
      const ips = new Set(pods.map((p) => p.fields['podIP']).filter(Boolean));
      const refused = refusals.find((x) =>
        [...ips].some((ip) => x.text.includes(`${ip}:${target}`)),
      );
      if (!refused) continue;
      const env = seen.pod.containers
        .flatMap((c) => Object.entries(c.env))
        .find(([k, v]) => /PORT/i.test(k) && v === port);
      const ready = pods.some((p) =>
        p.containers.some((c) => c.probes.some((pr) => /readiness/i.test(pr))),
      );
      out.push({
        entry,
        object: { kind: 'service', name: svc.name, namespace: svc.namespace },
        workload: w.name,
        fact: `listens on ${port}, Service ${svc.name} targetPort ${target}: ${clip(errorMessage(refused.text), 160)}`,
        groups: {
          listen: port,
          listen_source: env
            ? ` (env ${env[0]}=${env[1]})`
            : ` ("${clip(errorMessage(seen.line), 100)}")`,
          service: svc.name,
          target,
          refused: clip(errorMessage(refused.text), 160),
          no_readiness: ready
            ? ''
            : '; with no readiness probe the pods stay in its endpoints although they do not answer there',
        },
        at: refused.at,
        where: 'log',
        source: svc.source ?? 'service',
      });
    }
  }
  return out;
}

/** a member's own words about peers it cannot reach, or a leader or quorum it lacks */
const PEERS_MISSING =
  /\bpeers?\b[^\n]*(?:unreachable|not (?:reachable|found|active|connected)|fail|refused|no such host|timed? ?out)|\bno leader\b|\bleader election\b[^\n]*(?:fail|lost|timeout)|\bquorum\b|MsgPreVote|cannot (?:reach|connect to) (?:any )?(?:peer|member)|waiting for (?:other |more )?(?:peers|members|nodes)|lost leader/i;

/**
 * StatefulSets stuck at their first members: ordinals 0..k exist, k is not Ready, and k+1.. were
 * never created, because OrderedReady (the default) creates each member only once the one before
 * is Ready. A member that waits for its peers to be Ready never is: a deadlock.
 */
function orderedReadyBlocked(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const sts of model.list('statefulset')) {
    const policy = sts.fields['podManagementPolicy'];
    if (policy === 'Parallel') continue;
    const desired =
      Number(sts.fields['replicas']) ||
      Number(/(\d+) desired/.exec(sts.fields['Replicas'] ?? '')?.[1] ?? NaN);
    if (!(desired > 1)) continue;
    const ordinal = (p: ObjectView) => Number(new RegExp(`^${sts.name}-(\\d+)$`).exec(p.name)?.[1]);
    const members = model
      .podsOf('statefulset', sts.name, sts.namespace)
      .filter((p) => Number.isFinite(ordinal(p)))
      .sort((a, b) => ordinal(a) - ordinal(b));
    if (!members.length || members.length >= desired) continue;
    const last = members[members.length - 1]!;
    // the members are 0..k with no gap, and k is not ready
    if (ordinal(last) !== members.length - 1 || !isUnhealthy(last)) continue;
    if (members.slice(0, -1).some((p) => isUnhealthy(p))) continue;
    const notReady =
      model.events.find(
        (e) => e.object?.name === last.name && /Readiness probe failed/i.test(e.message),
      )?.message ?? `${last.status ?? 'not Ready'}`;
    const peerLine = model.logs
      .filter((l) => l.pod === last.name)
      .flatMap((l) => l.lines)
      .filter((x) => PEERS_MISSING.test(x.text))
      .pop();
    const next = Array.from(
      { length: Math.min(desired - members.length, 3) },
      (_, i) => `${sts.name}-${members.length + i}`,
    );
    out.push({
      entry,
      object: { kind: 'pod', name: last.name, namespace: last.namespace },
      workload: sts.name,
      fact: clip(notReady, 160),
      groups: {
        desired: String(desired),
        existing: String(members.length),
        waiting: last.name,
        next: next.join(' and ') + (desired - members.length > 3 ? ' and the rest' : ''),
        policy_source: policy ? '' : ' (the default)',
        peers: peerLine
          ? `: it waits for the peers that are never created ("${clip(errorMessage(peerLine.text), 160)}"), a deadlock`
          : '',
      },
      at: peerLine?.at,
      where: 'status',
      source: sts.source ?? 'statefulset',
    });
  }
  return out;
}

/** A shutdown/drain timeout in an environment variable: SHUTDOWN_DRAIN_TIMEOUT=60s */
export const DRAIN_ENV =
  /^\w*(?:SHUTDOWN|DRAIN|GRACEFUL|GRACE|STOP)\w*(?:TIMEOUT|PERIOD|WAIT|SECONDS)\w*$/i;
/** ... or in a log record: "drain_timeout":"60s", shutdown timeout=45s, graceful timeout 90 s */
export const DRAIN_LOGGED =
  /\b(?:drain|shutdown|graceful|grace)[\w ]{0,20}?timeout"?\s*[:=]?\s*"?(\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds|m|min|minutes)?)\b/i;

/** "60s", "1m", "90" (seconds), "1500ms" -> seconds */
function seconds(v: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|sec|secs|seconds|m|min|minutes)?$/i.exec(v.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  return unit === 'ms' ? n / 1000 : unit.startsWith('m') ? n * 60 : n;
}

/**
 * Pods whose app drains longer after SIGTERM than their grace period allows: the kubelet kills
 * them mid-drain. Needs the grace period from the pod spec, the drain time from the environment
 * or the app's own log, and a sign that pods were stopped (a Killing event or a SIGTERM logged).
 */
function drainLongerThanGrace(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  // a workload's pods and their logs, worked out once per workload
  const ofWorkload = new Map<string, { siblings: Set<string>; logs: LogView[] }>();
  for (const pod of model.list('pod')) {
    const w = model.workloadOf(pod).name;
    const grace = Number(pod.fields['terminationGracePeriodSeconds']);
    if (seen.has(w) || !Number.isFinite(grace)) continue;
    let drain: { secs: number; said: string; source: string } | undefined;
    for (const c of pod.containers)
      for (const [name, value] of Object.entries(c.env)) {
        const secs = DRAIN_ENV.test(name) ? seconds(value) : undefined;
        if (secs !== undefined && (!drain || secs > drain.secs))
          drain = { secs, said: value, source: `env ${name}=${value}` };
      }
    const key = `${pod.namespace ?? ''}/${w}`;
    let group = ofWorkload.get(key);
    if (!group) {
      const names = new Set(
        model
          .list('pod', pod.namespace)
          .filter((p) => model.workloadOf(p).name === w)
          .map((p) => p.name),
      );
      group = { siblings: names, logs: model.logs.filter((l) => l.pod && names.has(l.pod)) };
      ofWorkload.set(key, group);
    }
    const { siblings, logs } = group;
    if (!drain)
      for (const l of logs)
        for (const x of l.lines) {
          const m = DRAIN_LOGGED.exec(x.text);
          const secs = m ? seconds(m[1]!) : undefined;
          if (secs !== undefined && (!drain || secs > drain.secs))
            drain = { secs, said: m![1]!, source: `its log: ${clip(errorMessage(x.text), 120)}` };
        }
    if (!drain || drain.secs <= grace) continue;
    // the pods it stopped may be gone already: their events stay, named like its pods
    const killing = model.events.filter(
      (e) =>
        e.reason === 'Killing' &&
        (siblings.has(e.object?.name ?? '') || workloadName(e.object?.name ?? '') === w),
    );
    const sigterm = logs.some((l) => l.lines.some((x) => /\bSIGTERM\b/.test(x.text)));
    if (!killing.length && !sigterm) continue;
    seen.add(w);
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload: w,
      fact: `drain ${drain.said} (${drain.source}) > terminationGracePeriodSeconds ${grace}`,
      groups: {
        drain: drain.said,
        drain_source: drain.source,
        grace: String(grace),
        suggest: String(Math.ceil(drain.secs + 15)),
        stopped: killing.length
          ? ` (${killing.length} pod${killing.length > 1 ? 's' : ''} stopped: "${clip(killing[0]!.message, 80)}")`
          : '',
      },
      at: killing[0]?.first ?? killing[0]?.last,
      where: 'status',
      source: pod.source ?? 'pod',
    });
  }
  return out;
}

/**
 * An app that starts before its mesh sidecar is ready: every connection it opens in its first
 * second goes through a proxy not configured yet and fails, the app exits, the kubelet restarts
 * it, and the second start works. Its last run's connection error is earlier than the moment the
 * pod's istio-proxy logged "Envoy proxy is ready" (and no earlier than the proxy's start).
 */
function appBeforeMeshProxy(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const done = new Set<string>();
  for (const pod of model.list('pod')) {
    const proxy = pod.containers.find((c) => MESH_PROXY.test(c.name));
    if (!proxy) continue;
    // a log read without a container name is the pod's first container's
    const first = pod.containers.find((c) => !c.init)?.name;
    const own = (container: string, previous?: boolean) =>
      model.logs.filter(
        (l) =>
          l.pod === pod.name &&
          (l.container ?? first) === container &&
          (previous === undefined || l.previous === previous),
      );
    const proxyLines = own(proxy.name).flatMap((l) => l.lines);
    const started = proxyLines.find((x) => x.at !== undefined)?.at;
    const ready = proxyLines.find(
      (x) =>
        x.at !== undefined &&
        /Envoy proxy is ready|proxy is ready|linkerd-proxy[^\n]*ready/i.test(x.text) &&
        !/NOT ready/.test(x.text),
    )?.at;
    if (started === undefined || ready === undefined) continue;
    const app = pod.containers.find((c) => !c.init && c !== proxy && (c.restarts ?? 0) > 0);
    if (!app) continue;
    const lastRun = own(app.name, true);
    const failed = lastRun
      .flatMap((l) => l.lines)
      .find(
        (x) =>
          x.at !== undefined &&
          x.at >= started - 1000 &&
          x.at < ready &&
          CONNECT_FAILED.test(x.text),
      );
    const workload = model.workloadOf(pod).name;
    if (!failed || done.has(workload)) continue;
    done.add(workload);
    const notReady = proxyLines.find((x) => /NOT ready/.test(x.text));
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload,
      fact: clip(errorMessage(failed.text), 200),
      groups: {
        proxy: proxy.name,
        failed_at: new Date(failed.at!).toISOString(),
        ready_at: new Date(ready).toISOString(),
        not_ready: notReady ? ` ("${clip(errorMessage(notReady.text), 120)}")` : '',
      },
      at: failed.at,
      where: 'log',
      source: lastRun[0]?.source ?? pod.source,
    });
  }
  return out;
}

const CONTROLLER_NAME: Record<string, string> = {
  deployment: 'Deployment',
  statefulset: 'StatefulSet',
  daemonset: 'DaemonSet',
  replicaset: 'ReplicaSet',
};

/** The command and arguments a container runs, as its pod, ReplicaSet or controller says. */
function commandOf(views: (ObjectView | undefined)[], container: string): string | undefined {
  for (const v of views) {
    const c = v?.containers.find((x) => x.name === container && !x.init);
    if (c?.env['__args']) return c.env['__args'];
  }
  return undefined;
}

/**
 * A container of a long-running workload (Deployment, StatefulSet, DaemonSet) in
 * CrashLoopBackOff whose last run ended successfully (reason Completed, exit code 0): its command
 * does its work and ends (a one-shot script as the main process), and restartPolicy Always
 * starts it again. Its command is named, and the rollout that changed it when a previous
 * ReplicaSet ran another.
 */
function completedAndRestarted(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const pod of model.list('pod')) {
    const w = model.workloadOf(pod);
    const controller = CONTROLLER_NAME[w.kind];
    if (!controller || seen.has(`${pod.namespace ?? ''}/${w.name}`)) continue;
    const c = pod.containers.find(
      (x) =>
        !x.init &&
        x.waiting?.reason === 'CrashLoopBackOff' &&
        (x.last ?? x.terminated)?.exitCode === 0 &&
        /^(?:Completed)?$/.test((x.last ?? x.terminated)?.reason ?? ''),
    );
    if (!c) continue;
    // a liveness or startup probe that failed: the kubelet stopped it (a graceful exit is 0 too)
    const killed = model.events.some(
      (e) =>
        e.object?.name === pod.name &&
        (e.reason === 'Killing' ||
          /failed (?:liveness|startup) probe|(?:Liveness|Startup) probe failed/i.test(e.message)),
    );
    if (killed) continue;
    seen.add(`${pod.namespace ?? ''}/${w.name}`);
    const own = pod.owner?.kind === 'replicaset' ? pod.owner.name : undefined;
    const rss = model
      .list('replicaset', pod.namespace)
      .filter((r) => model.workloadOf(r).name === w.name)
      .sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
    const current = rss.find((r) => r.name === own);
    const command = commandOf(
      [pod, current, model.get(w.kind, w.name, pod.namespace), rss[0]],
      c.name,
    );
    // the newest earlier ReplicaSet whose template shows the container: what it ran before
    const before = rss.find(
      (r) =>
        r.name !== (current?.name ?? rss[0]?.name) &&
        (!current?.created || (r.created ?? 0) < current.created) &&
        r.containers.some((x) => x.name === c.name),
    );
    const previous = before ? commandOf([before], c.name) : undefined;
    const changed = before && previous !== command;
    const revision = (current ?? rss[0])?.fields['revision'];
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload: w.name,
      fact: `container ${c.name} of pod ${pod.name}: last state Terminated, reason ${(c.last ?? c.terminated)?.reason || 'Completed'}, exit code 0; now CrashLoopBackOff${c.restarts ? ` (${c.restarts} restarts)` : ''}`,
      groups: {
        container: c.name,
        controller,
        restarts: c.restarts ? ` (${c.restarts} restarts)` : '',
        command: command ? `the command \`${command}\`` : "its image's default command",
        command_change: changed
          ? `. The rollout of ReplicaSet ${(current ?? rss[0])!.name}${revision ? ` (revision ${revision})` : ''}${(current ?? rss[0])!.created ? ` at ${new Date((current ?? rss[0])!.created!).toISOString()}` : ''} changed the command from ${previous ? `\`${previous}\`` : "the image's default"} to ${command ? `\`${command}\`` : "the image's default"}`
          : '',
        previous_command: changed && previous ? ` (\`${previous}\`, as before the rollout)` : '',
      },
      at: (c.last ?? c.terminated)?.at,
      where: 'state',
      source: pod.source ?? 'pod',
    });
  }
  return out;
}

/**
 * A client without a mesh sidecar whose calls to a meshed service are reset: the service's
 * sidecar requires mutual TLS (an Istio PeerAuthentication in STRICT mode, Linkerd's
 * all-authenticated policy) and drops the client's plaintext; its access log shows them with
 * NR filter_chain_not_found.
 */
function plaintextRefusedByMesh(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const done = new Set<string>();
  for (const l of model.logs) {
    const pod = l.pod ? model.get('pod', l.pod, l.namespace) : undefined;
    if (!pod || !pod.containers.length || pod.containers.some((c) => MESH_PROXY.test(c.name)))
      continue;
    const client = model.workloadOf(pod).name;
    const line = l.lines.filter((x) => CONNECTION_RESET.test(x.text)).pop();
    if (!line || done.has(client)) continue;
    const dep = failingDependencies(model, new Set([client]), pod.namespace).find((d) => {
      if (!d.workload || !CONNECTION_RESET.test(d.line ?? '')) return false;
      const pods = model.podsOf(d.workload.kind, d.workload.name, d.namespace);
      return pods.some((p) => p.containers.some((c) => MESH_PROXY.test(c.name)));
    });
    if (!dep?.workload) continue;
    done.add(client);
    const pods = model.podsOf(dep.workload.kind, dep.workload.name, dep.namespace);
    const proxy =
      pods.flatMap((p) => p.containers).find((c) => MESH_PROXY.test(c.name))?.name ?? 'istio-proxy';
    const names = new Set(pods.map((p) => p.name));
    const refused = model.logs
      .filter((x) => x.pod && names.has(x.pod))
      .flatMap((x) => x.lines)
      .filter((x) => /filter_chain_not_found|NR filter_chain/.test(x.text)).length;
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload: client,
      fact: clip(line.text, 220),
      groups: {
        dependency: dep.workload.name,
        proxy,
        refused: refused
          ? `; ${dep.workload.name}'s ${proxy} logs ${refused} connection(s) it dropped with NR filter_chain_not_found, the plaintext it does not accept`
          : '',
      },
      at: line.at,
      where: 'log',
      source: l.source,
    });
  }
  return out;
}

/** CronJobs with spec.suspend true: no run starts, so nothing fails and nothing alerts. */
function suspendedCronJobs(model: ClusterModel, entry: CauseEntry, now?: number): Finding[] {
  return model
    .list('cronjob')
    .filter((c) => c.fields['suspend'] === 'true')
    .map((c) => {
      const last = c.fields['lastScheduleTime'];
      const at = last ? Date.parse(last) : NaN;
      const days =
        Number.isFinite(at) && now !== undefined ? Math.floor((now - at) / 86_400_000) : undefined;
      const fact = [
        `CronJob ${c.namespace ? `${c.namespace}/` : ''}${c.name} has suspend: true (schedule ${c.fields['schedule'] ?? '?'})`,
        last ? `last scheduled ${last}${days !== undefined ? ` (${days} days ago)` : ''}` : '',
        c.fields['note'] ? `note on it: "${c.fields['note']}"` : '',
      ]
        .filter(Boolean)
        .join('; ');
      return {
        entry,
        object: { kind: 'cronjob', name: c.name, namespace: c.namespace },
        workload: c.name,
        fact,
        groups: { cronjob: c.name },
        where: 'status',
        source: c.source ?? 'cronjob',
      } as Finding;
    });
}

/** the matched groups, with a host hint as `host` when the match itself named no host */
function withHint(extra: Record<string, string>, groups: Record<string, string>) {
  const { host_hint: hint, ...rest } = extra;
  const out = { ...rest, ...groups };
  if (hint && !Object.keys(groups).some((k) => /^host\d*$/.test(k))) out['host'] = hint;
  return out;
}

/** "connecting to amqp://user@rabbitmq.messaging.svc:5672/vhost" -> rabbitmq.messaging.svc:5672 */
function connectTarget(lines: string[]): string | undefined {
  for (const line of [...lines].reverse()) {
    const m =
      /\b(?:connect(?:ing)?|dial(?:ing)?|opening connection) to\s+(?:"|')?(?:[a-z][\w+.-]*:\/\/)?(?:[^@\s/"']*@)?([a-z][\w-]*(?:\.[\w-]+)*(?::\d+)?)/i.exec(
        line,
      );
    if (m?.[1]) return m[1];
  }
  return undefined;
}

/** an error record in so many words: a level field or word, klog's E, a panic or traceback */
const EXPLICIT_ERROR_FIELD =
  /"(?:level|severity|log\.level|lvl)"\s*:\s*(?:"(?:error|err|fatal|critical|crit|panic|severe)"|5\d|60)\b|\blevel=(?:error|err|fatal|crit|critical|panic)\b/i;
/** level words are upper case in a record's head ("Unexpected error from" is no level) */
const EXPLICIT_ERROR_WORD =
  /^\S*\s*(?:\[[^\]]*\]\s*)?(?:ERROR|FATAL|CRITICAL|SEVERE|ERR)\b|^\s*[EF]\d{4} |^.{0,80}\s(?:ERROR|FATAL|CRITICAL|SEVERE)(?::|\s)|^\s*panic:|^\s*Traceback/;
/** a record that says it is a warning or less is none, whatever words follow */
const LOWER_LEVEL =
  /"(?:level|severity|log\.level|lvl)"\s*:\s*(?:"(?:warn|warning|info|debug|trace|notice)"|[1-4]\d)\b|\blevel=(?:warn|warning|info|debug|trace)\b|^.{0,80}?\b(?:WARN|WARNING|INFO|DEBUG|TRACE|NOTICE)\b|^\s*[WID]\d{4} /i;
/** a warning that reports an error value ("retrying ... Error: NOT_ENOUGH_REPLICAS", err="...") */
const WARN_LEVEL =
  /"(?:level|severity|log\.level|lvl)"\s*:\s*"(?:warn|warning)"|\blevel=(?:warn|warning)\b|^.{0,80}?\b(?:WARN|WARNING)\b|^\s*W\d{4} /;
const ERROR_VALUE =
  /\b(?:error|err)\b"?\s*[:=]\s*(?!\s*"?(?:null|nil|none|false|0)(?:["\s,}]|$))\S/i;
const isWarnedError = (t: string) => WARN_LEVEL.test(t) && ERROR_VALUE.test(t);
const isErrorRecord = (t: string) =>
  EXPLICIT_ERROR_FIELD.test(t) ||
  (EXPLICIT_ERROR_WORD.test(t) && !(LOWER_LEVEL.test(t) && !/^.{0,80}\b(?:ERROR|FATAL)\b/.test(t)));

/** The message of an error record: its error field, else its message, without time and ids. */
export function errorMessage(line: string): string {
  // a JSON record may come after the time kubectl --timestamps puts before it
  const record = line.replace(LINE_STAMP, '');
  const text = /^\s*\{/.test(record) ? record : line;
  let msg = text;
  if (/^\s*\{/.test(text)) {
    try {
      const o = JSON.parse(text) as Record<string, unknown>;
      // an error field may be an object ({type, message, code}, as pino serializes errors)
      const said = (v: unknown): string | undefined => {
        if (typeof v === 'string') return v.trim() || undefined;
        if (v && typeof v === 'object') {
          const e = v as Record<string, unknown>;
          const m = typeof e['message'] === 'string' ? e['message'] : undefined;
          if (!m) return undefined;
          const code = typeof e['code'] === 'string' || typeof e['code'] === 'number';
          return `${typeof e['type'] === 'string' ? `${e['type']}: ` : ''}${m}${code ? ` (${String(e['code'])})` : ''}`;
        }
        return undefined;
      };
      const pick = [
        'error',
        'err',
        'exception',
        'exc',
        'exc_info',
        'error.message',
        'cause',
        'message',
        'msg',
      ]
        .map((k) => said(o[k]))
        .find(Boolean);
      const m = typeof o['msg'] === 'string' ? o['msg'] : o['message'];
      if (typeof pick === 'string')
        msg = typeof m === 'string' && m !== pick ? `${m}: ${pick}` : pick;
    } catch {
      // not JSON after all: the line as it is
    }
  } else {
    const err = /\b(?:err|error|exception)="((?:[^"\\]|\\.)*)"/.exec(text);
    const m = /\bmsg="((?:[^"\\]|\\.)*)"|\bmsg=(\S+)/.exec(text);
    if (err) msg = m ? `${m[1] ?? m[2]}: ${err[1]}` : err[1]!;
    else if (m) {
      msg = m[1] ?? m[2]!;
      // no error field: the answer it got says why ("status=403 body=\"RBAC: access denied\"")
      const said = [...text.matchAll(/\b(status|code|body|reason|detail)=("(?:[^"\\]|\\.)*"|\S+)/g)]
        .filter((x) => x.index! > m.index!)
        .map((x) => `${x[1]}=${x[2]}`);
      if (said.length) msg = `${msg} (${said.join(' ')})`;
    }
  }
  return msg
    .replace(/^\S*\d{4}-\d{2}-\d{2}[T ][\d:.]+Z?\S*\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** ids, numbers and quoted values vary between records of one error; the rest is its shape */
const shape = (m: string) =>
  m
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b[0-9a-f]{8,}\b|\b\d+\b/gi, '#')
    .toLowerCase();

/**
 * An Ingress path whose backend Service does not exist, or does not expose the port the rule
 * names: the controller has no upstream for it and answers 503 while the pods are fine.
 */
function ingressBackendsMissing(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const ing of model.list('ingress')) {
    for (const b of ingressBackends(ing)) {
      const svc = model.get('service', b.service, ing.namespace);
      // a Service not seen may just not have been listed: only a read one can tell
      if (!svc) continue;
      const ports = servicePorts(svc);
      if (!ports.length || ports.some((p) => String(p.port) === b.port || p.name === b.port))
        continue;
      const has = ports.map((p) => `${p.port}${p.name ? ` (${p.name})` : ''}`).join(', ');
      out.push({
        entry,
        object: { kind: 'ingress', name: ing.name, namespace: ing.namespace },
        workload: b.service,
        fact: `Ingress ${ing.namespace ?? ''}/${ing.name} routes ${b.host}${b.path} to service ${b.service} port ${b.port}; Service ${b.service} exposes port ${has}`,
        groups: {
          ingress: ing.name,
          host: b.host,
          path: b.path,
          service: b.service,
          port: b.port,
          ports: has,
        },
        where: 'status',
        source: ing.source ?? 'ingress',
      });
    }
  }
  return out;
}

/**
 * A node's network agent (kube-proxy, the CNI's pod) down while the pods on that node time out
 * on Services and lookups: without it the node has no Service rules (or no pod network), so only
 * the pods there fail and their siblings on other nodes work.
 */
function nodeNetworkAgentsDown(model: ClusterModel, entry: CauseEntry, now?: number): Finding[] {
  const out: Finding[] = [];
  for (const agent of model.list('pod').filter((p) => NODE_AGENT.test(p.name))) {
    const node = agent.node;
    if (!node || !isUnhealthy(agent, now)) continue;
    const said = model.logs
      .filter((l) => l.pod === agent.name)
      .sort((a, b) => Number(b.previous ?? false) - Number(a.previous ?? false))
      .flatMap((l) => l.lines)
      .filter((x) =>
        /^E\d{4}\s|\blevel=(?:error|fatal)\b|\b(?:error|fatal|failed)\b/i.test(
          x.text.replace(LINE_STAMP, ''),
        ),
      )
      .pop();
    for (const pod of model
      .list('pod')
      .filter((p) => p.node === node && !NODE_AGENT.test(p.name))) {
      const hit = model.logs
        .filter((l) => l.pod === pod.name && l.namespace === pod.namespace)
        .flatMap((l) => l.lines)
        .find((x) => NETWORK_TIMEOUT.test(x.text));
      if (!hit) continue;
      const workload = model.workloadOf(pod).name;
      const elsewhere = model
        .podsOf('deployment', workload, pod.namespace)
        .filter((p) => p.node && p.node !== node).length;
      const state = agent.reason ?? agent.status ?? 'not ready';
      out.push({
        entry,
        object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
        workload,
        // klog's structured error (err="...") is the part that says why
        fact: `${agent.name} on node ${node} is ${state}${agent.restarts ? ` (${agent.restarts} restarts)` : ''}${said ? `: "${clip(/\berr="((?:[^"\\]|\\.)+)"/.exec(said.text)?.[1] ?? said.text.replace(LINE_STAMP, ''), 240)}"` : ''}`,
        groups: {
          agent: agent.name,
          agent_kind: /^kube-proxy/.test(agent.name)
            ? 'kube-proxy (the Service rules)'
            : 'the CNI agent (the pod network)',
          node,
          pod: pod.name,
          symptom: clip(hit.text.replace(LINE_STAMP, ''), 200),
          elsewhere: elsewhere
            ? `; its ${elsewhere} pod(s) of ${workload} on other nodes work`
            : '',
        },
        at: hit.at,
        where: 'status',
        source: agent.source ?? 'pod',
      });
    }
  }
  return out;
}

/** a lookup the DNS server never answered (dns_failure's timeouts, not "no such host") */
const DNS_TIMED_OUT = /:53: (?:read udp[^\n]*)?i\/o timeout|no servers could be reached|EAI_AGAIN/;

/** the egress NetworkPolicies that select a pod (read whole: their rules are known) */
function egressPolicies(model: ClusterModel, pod: ObjectView): ObjectView[] {
  return model.list('networkpolicy', pod.namespace).filter((n) => {
    if (n.namespace !== pod.namespace || !/Egress/.test(n.fields['policyTypes'] ?? ''))
      return false;
    if (n.fields['podSelectorExpressions']) return false;
    const sel = n.fields['podSelector'] ?? '';
    const reqs = sel ? selectorOf(sel) : [];
    return reqs !== undefined && matchesLabels(pod.labels, reqs);
  });
}

/** the ports each egress rule of these policies opens ('*': a rule without ports opens all) */
const egressPorts = (policies: ObjectView[]) =>
  policies.flatMap((n) => JSON.parse(n.fields['egressPorts'] ?? '[]') as string[][]);

/** a Go runtime's thread count as a service logs it at start ("GOMAXPROCS":64, gomaxprocs=64) */
const GOMAXPROCS = /\bGOMAXPROCS"?\s*[:=]\s*"?(\d+)/i;

/**
 * A Go service whose runtime sized itself for the node (GOMAXPROCS = the node's CPUs) under a
 * much smaller CPU limit, and that suffers for it: at its limit in `kubectl top`, or restarted.
 */
function goProcsOverLimit(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const l of model.logs) {
    const pod = l.pod ? model.get('pod', l.pod, l.namespace) : undefined;
    if (!pod) continue;
    const w = model.workloadOf(pod).name;
    if (seen.has(w)) continue;
    const line = l.lines.find((x) => GOMAXPROCS.test(x.text));
    if (!line) continue;
    const procs = Number(GOMAXPROCS.exec(line.text)![1]);
    // the pods of its workload (names are unique in the namespace)
    const siblings = new Map(
      model
        .list('pod', pod.namespace)
        .filter((p) => model.workloadOf(p).name === w)
        .map((p) => [p.name, p]),
    );
    // the limit of the pod read, or of another pod of its template that was described
    const limitOf = (p: ObjectView) =>
      (p.containers.find((c) => c.name === l.container) ?? p.containers[0])?.limits['cpu'];
    const limit = limitOf(pod) ?? [...siblings.values()].map(limitOf).find(Boolean);
    const cores = quantity(limit);
    if (!limit || !cores || procs < Math.max(4, 4 * cores)) continue;
    const atLimit = model.metrics
      .filter((m) => m.kind === 'pod' && m.cpu && siblings.has(m.name))
      .map((m) => m.cpu!)
      .filter((c) => quantity(c) >= 0.9 * cores);
    const restarted = [...siblings.values()].some((p) => (p.restarts ?? 0) > 0);
    if (!atLimit.length && !restarted) continue;
    seen.add(w);
    const probe = model.events.find(
      (e) => /Liveness probe failed/i.test(e.message) && siblings.has(e.object?.name ?? ''),
    );
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload: w,
      fact: `GOMAXPROCS ${procs} under a CPU limit of ${limit}${atLimit.length ? `; kubectl top: ${atLimit.slice(0, 3).join(', ')}` : ''}`,
      groups: {
        procs: String(procs),
        procs_limit: limit,
        cpu_use: atLimit.length
          ? ` (kubectl top shows its pods at ${atLimit.slice(0, 3).join(', ')} of ${limit})`
          : '',
        probe_effect: probe
          ? `, so its liveness probe times out and the kubelet restarts it ("${clip(probe.message, 160)}")`
          : '',
      },
      at: line.at,
      where: 'status',
      source: pod.source ?? 'pod',
    });
  }
  return out;
}

/** a TCP connection to an address and port that got no answer */
const CONNECT_TIMED_OUT =
  /(?:connect ETIMEDOUT|dial tcp|connect timed out|Connection timed out)[^\n]*?(?<![\w.-])(?<target>(?:\d{1,3}\.){3}\d{1,3}|[a-z][\w.-]*[a-z]):(?<port>\d{2,5})\b|(?<target2>(?:\d{1,3}\.){3}\d{1,3}):(?<port2>\d{2,5})[^\n]*?\b(?:i\/o timeout|ETIMEDOUT|timed out)/i;

/**
 * Connections that time out from pods whose egress NetworkPolicies do not open the port they
 * connect to: the policy drops the packets, so the client sees a timeout, not a refusal (a
 * database moved to another port, a new dependency the policy was not told about).
 */
function portCutByNetworkPolicy(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const l of model.logs) {
    const pod = l.pod ? model.get('pod', l.pod, l.namespace) : undefined;
    if (!pod?.namespace) continue;
    const w = model.workloadOf(pod).name;
    if (seen.has(pod.name)) continue;
    // the latest: it says whether the timeouts go on
    const line = [...l.lines].reverse().find((x) => CONNECT_TIMED_OUT.test(x.text));
    if (!line) continue;
    const m = CONNECT_TIMED_OUT.exec(line.text)!.groups!;
    const target = m['target'] ?? m['target2']!;
    const port = m['port'] ?? m['port2']!;
    if (port === '53') continue;
    const selecting = egressPolicies(model, pod);
    if (!selecting.length) continue;
    const ports = egressPorts(selecting);
    // a rule that opens every port, or this one (by number: a named port is not known here)
    if (ports.some((rule) => rule.some((p) => p === '*' || p.split('/')[0] === port))) continue;
    if (ports.flat().some((p) => !/^\d+\//.test(p))) continue;
    seen.add(pod.name);
    const opened = [...new Set(ports.flat())].join(', ') || 'nothing';
    const names = selecting.map((n) => n.name).join(', ');
    const newest = selecting.map((n) => n.created ?? 0).sort((a, b) => b - a)[0];
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload: w,
      fact: `NetworkPolicies ${names} select pod ${pod.name} for egress and open only ${opened}, not port ${port}; it logs "${clip(line.text, 200)}"`,
      groups: {
        policies: names,
        opened,
        target: `${target}:${port}`,
        port,
        created: newest ? ` (the newest created ${new Date(newest).toISOString()})` : '',
      },
      at: line.at,
      where: 'status',
      source: selecting[0]!.source ?? 'networkpolicy',
    });
  }
  return out;
}

interface IngressRule {
  ports: string[];
  from: '*' | { ns?: string; pods?: string; ip?: string }[];
}

/**
 * An ingress NetworkPolicy that admits other namespaces by a label no namespace carries (a
 * namespace recreated by another tool keeps only kubernetes.io/metadata.name): the pods it
 * selects sit behind an Ingress, and no other rule of the policies selecting them admits another
 * namespace on those ports, so the controller's connections are dropped and time out (504).
 */
function ingressFromMissingNamespaceLabel(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  // labels known: every namespace of a current cluster carries kubernetes.io/metadata.name
  const namespaces = model.list('namespace').filter((n) => Object.keys(n.labels).length);
  const allKnown = namespaces.length > 1 && namespaces.length === model.list('namespace').length;
  const rulesOf = (n: ObjectView): IngressRule[] => {
    try {
      return JSON.parse(n.fields['ingressRules'] ?? '[]') as IngressRule[];
    } catch {
      return [];
    }
  };
  const selects = (n: ObjectView, pod: ObjectView) => {
    if (n.fields['podSelectorExpressions']) return false;
    const sel = n.fields['podSelector'] ?? '';
    const reqs = sel ? selectorOf(sel) : [];
    return reqs !== undefined && matchesLabels(pod.labels, reqs);
  };
  const matching = (sel: string) => {
    const reqs = selectorOf(sel);
    return reqs ? namespaces.filter((ns) => matchesLabels(ns.labels, reqs)) : undefined;
  };
  for (const policy of model.list('networkpolicy')) {
    if (policy.fields['ingressRules'] === undefined || !policy.namespace) continue;
    if (!/Ingress|^$/.test(policy.fields['policyTypes'] ?? '')) continue;
    const ns = policy.namespace;
    for (const rule of rulesOf(policy)) {
      if (rule.from === '*') continue;
      // a selector no namespace matches: every namespace's labels known, or the namespace it
      // names (name=x: the namespace x) read and without the label
      const peer = rule.from.find(
        (x) =>
          x.ns &&
          x.ns !== '?' &&
          matching(x.ns)?.length === 0 &&
          (allKnown || namespaces.some((n) => n.name === x.ns!.split(',')[0]!.split('=')[1])),
      );
      if (!peer) continue;
      // the pods it selects, behind a Service an Ingress of their namespace routes to
      const pods = model
        .list('pod', ns)
        .filter((p) => p.namespace === ns && Object.keys(p.labels).length && selects(policy, p));
      const routed = model
        .list('ingress', ns)
        .filter((i) => i.namespace === ns)
        .flatMap((i) =>
          ingressBackends(i).map((b) => ({ i, svc: model.get('service', b.service, ns) })),
        )
        .find(
          ({ svc }) =>
            svc && pods.some((p) => model.workloadOf(p).name === backingWorkload(model, svc)?.name),
        );
      if (!routed?.svc) continue;
      const workload = backingWorkload(model, routed.svc)!.name;
      const served = pods.filter((p) => model.workloadOf(p).name === workload);
      // another rule of the policies that select these pods admits another namespace on the same
      // ports: the traffic may come that way
      const opens = (r: IngressRule) =>
        r.ports.some((p) => p === '*' || rule.ports.includes(p) || rule.ports.includes('*'));
      const otherWay = model
        .list('networkpolicy', ns)
        .filter((n) => n.namespace === ns && served.some((p) => selects(n, p)))
        .some((n) =>
          rulesOf(n).some(
            (r) =>
              r !== rule &&
              opens(r) &&
              (r.from === '*' ||
                r.from.some(
                  (x) =>
                    x.ip !== undefined ||
                    x.ns === '' ||
                    x.ns === '?' ||
                    (x.ns !== undefined && (matching(x.ns) ?? []).some((m) => m.name !== ns)),
                )),
          ),
        );
      if (otherWay) continue;
      const wanted = peer.ns!;
      // the namespace it meant: the one whose name is the label's value
      const value = wanted.split(',')[0]!.split('=')[1] ?? '';
      const meant = namespaces.find((n) => n.name === value);
      const has = meant
        ? Object.entries(meant.labels)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')
        : '';
      out.push({
        entry,
        object: { kind: 'networkpolicy', name: policy.name, namespace: ns },
        workload,
        fact: `NetworkPolicy ${policy.name} admits ${rule.ports.join(', ')} to ${workload} only from namespaces labelled ${wanted} (namespaceSelector), and ${allKnown ? 'no namespace has' : `namespace ${meant!.name} lacks`} that label${meant ? `: namespace ${meant.name} has only ${has}` : ''}`,
        groups: {
          policy: policy.name,
          ns_selector: wanted,
          nobody: allKnown
            ? 'no namespace carries that label'
            : `namespace ${meant!.name} does not carry it`,
          ports: rule.ports.join(', '),
          meant: meant
            ? `; namespace ${meant.name} has only the labels ${has}${meant.created ? ` (created ${new Date(meant.created).toISOString()})` : ''}`
            : '',
          meant_fix: meant
            ? ` (\`kubectl label namespace ${meant.name} ${wanted.replace(/,/g, ' ')}\`), or select it by kubernetes.io/metadata.name=${meant.name}, the label every namespace gets from its name`
            : '',
          ingress: routed.i.name,
        },
        at: meant?.created,
        where: 'status',
        source: policy.source ?? 'networkpolicy',
      });
    }
  }
  return out;
}

/**
 * Lookups that fail from pods while every cluster DNS replica (coredns / kube-dns in kube-system)
 * runs on nodes that are NotReady: the node controller marks their pods not ready, kube-dns keeps
 * no ready endpoint, and every lookup in the cluster fails, whatever namespace asks.
 */
function dnsReplicasOnUnreadyNodes(
  model: ClusterModel,
  entry: CauseEntry,
  findings: Finding[],
): Finding[] {
  const client = findings.find(
    (f) => f.entry.id === 'dns_failure' && f.object?.namespace !== 'kube-system',
  );
  if (!client) return [];
  const servers = model
    .list('pod', 'kube-system')
    .filter((p) => p.namespace === 'kube-system' && /^(?:coredns|kube-dns)-/.test(p.name));
  if (!servers.length || servers.some((p) => !p.node)) return [];
  const nodes = [...new Set(servers.map((p) => p.node!))];
  const down = nodes
    .map((n) => model.get('node', n))
    .filter((n): n is ObjectView => !!n && /NotReady|Unknown/.test(n.status ?? ''));
  if (down.length !== nodes.length) return [];
  const ready = down[0]!.conditions.find((c) => c.type === 'Ready');
  const since = model.events
    .filter((e) => e.reason === 'NodeNotReady' && e.object?.name === down[0]!.name)
    .map((e) => e.last ?? e.first)
    .find((t) => t !== undefined);
  const at = ready?.at ?? since;
  const names = down.map((n) => n.name).join(', ');
  return [
    {
      entry,
      object: { kind: 'node', name: down[0]!.name },
      workload: client.workload,
      fact: `${servers.length === 2 ? 'both' : `all ${servers.length}`} cluster DNS replicas (${servers.map((p) => p.name).join(', ')}) run on ${names}, which is ${down[0]!.status}; ${client.workload} logs "${clip(client.fact, 200)}"`,
      groups: {
        replicas: servers.length === 2 ? 'both' : `all ${servers.length}`,
        dns_pods: servers.map((p) => p.name).join(', '),
        dns_nodes: names,
        node_state: `${down[0]!.status}${ready?.reason ? ` (${ready.reason}${ready.status ? `, Ready=${ready.status}` : ''})` : ''}`,
        node_since: at ? ` since ${new Date(at).toISOString()}` : '',
        host: client.groups['host'] ?? client.groups['host2'] ?? 'cluster names',
      },
      at,
      where: 'status',
      source: down[0]!.source ?? 'node',
    },
  ];
}

/**
 * Lookups that time out from pods whose egress NetworkPolicies open no port 53: once any policy
 * selects a pod for egress, only what the selecting policies allow leaves it, and a policy that
 * forgets DNS (UDP/TCP 53 to kube-dns) makes every name lookup time out.
 */
function dnsCutByNetworkPolicy(
  model: ClusterModel,
  entry: CauseEntry,
  findings: Finding[],
): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const f of findings) {
    if (f.entry.id !== 'dns_failure' || !DNS_TIMED_OUT.test(f.fact) || seen.has(f.workload))
      continue;
    const pod =
      f.object?.kind === 'pod' ? model.get('pod', f.object.name, f.object.namespace) : undefined;
    if (!pod?.namespace) continue;
    const selecting = egressPolicies(model, pod);
    if (!selecting.length) continue;
    const ports = egressPorts(selecting);
    if (ports.some((rule) => rule.some((p) => p === '*' || /^(?:53|dns|dns-tcp)\//i.test(p))))
      continue;
    seen.add(f.workload);
    const opened = [...new Set(ports.flat())].join(', ') || 'nothing';
    const names = selecting.map((n) => n.name).join(', ');
    const newest = selecting.map((n) => n.created ?? 0).sort((a, b) => b - a)[0];
    out.push({
      entry,
      object: { kind: 'networkpolicy', name: selecting[0]!.name, namespace: pod.namespace },
      workload: f.workload,
      fact: `NetworkPolicies ${names} select pod ${pod.name} for egress and open only ${opened}: no port 53 for DNS`,
      groups: {
        policies: names,
        opened,
        host: f.groups['host'] ?? f.groups['host2'] ?? 'names',
        created: newest ? ` (the newest created ${new Date(newest).toISOString()})` : '',
      },
      at: newest || undefined,
      where: 'status',
      source: selecting[0]!.source ?? 'networkpolicy',
    });
  }
  return out;
}

/**
 * An Ingress that asks for a class no IngressClass defines: no controller takes it, so it never
 * gets an address, and nothing (the load balancer, external-dns) serves or publishes its hosts.
 * Only when the IngressClasses were read and the Ingress's address is known to be empty.
 */
function ingressClassUnserved(model: ClusterModel, entry: CauseEntry): Finding[] {
  const classes = model.list('ingressclass');
  if (!classes.length) return [];
  const out: Finding[] = [];
  for (const ing of model.list('ingress')) {
    const cls = ing.fields['ingressClass'];
    if (!cls || ing.fields['address'] !== '' || classes.some((c) => c.name === cls)) continue;
    const served = classes
      .map((c) => `${c.name}${c.fields['controller'] ? ` (${c.fields['controller']})` : ''}`)
      .join(', ');
    const backends = ingressBackends(ing);
    out.push({
      entry,
      object: { kind: 'ingress', name: ing.name, namespace: ing.namespace },
      workload: backends[0]?.service ?? ing.name,
      fact: `Ingress ${ing.namespace ?? ''}/${ing.name} asks for ingressClassName ${cls}, but the cluster's IngressClasses are ${served}; the Ingress has no address`,
      groups: {
        ingress: ing.name,
        class: cls,
        served,
        hosts: ing.fields['hosts'] ?? [...new Set(backends.map((b) => b.host))].join(','),
      },
      where: 'status',
      source: ing.source ?? 'ingress',
    });
  }
  return out;
}

/**
 * An ingress-nginx rewrite-target without a capture group (`rewrite-target: /` on path `/`):
 * since ingress-nginx 0.22 it rewrites every request of the path to that one target, so the
 * service answers 404 to everything. Reported when the service's logs show the 404s.
 */
function fixedRewrites(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const ing of model.list('ingress')) {
    const target = ing.fields['rewriteTarget'];
    if (target === undefined || /\$\d/.test(target)) continue;
    for (const b of ingressBackends(ing)) {
      if (/[()]/.test(b.path)) continue;
      const svc = model.get('service', b.service, ing.namespace);
      const workload = (svc && backingWorkload(model, svc)?.name) ?? b.service;
      const pods = model
        .list('pod', ing.namespace)
        .filter((p) => model.workloadOf(p).name === workload)
        .map((p) => p.name);
      const notFound = model.logs
        .filter((l) => l.pod && pods.includes(l.pod))
        .flatMap((l) => l.lines)
        .filter((x) => /"status"\s*:\s*404\b|\bstatus=404\b|" 404 |\b404 Not Found\b/.test(x.text));
      if (notFound.length < 3) continue;
      out.push({
        entry,
        object: { kind: 'ingress', name: ing.name, namespace: ing.namespace },
        workload,
        fact: `Ingress ${ing.namespace ?? ''}/${ing.name} has nginx.ingress.kubernetes.io/rewrite-target: "${target}" on ${b.host}${b.path} without a capture group; ${workload} answered 404 ${notFound.length} times (last: ${notFound[notFound.length - 1]!.text.slice(0, 160)})`,
        groups: { ingress: ing.name, host: b.host, path: b.path, target },
        at: notFound[0]!.at,
        where: 'status',
        source: ing.source ?? 'ingress',
      });
    }
  }
  return out;
}

/**
 * A Service whose selector matches none of the pods of its namespace, while the workload of its
 * name runs: its Endpoints stay empty and every client (an Ingress) gets 503 or refused
 * connections although the pods are ready (labels changed by a new chart, a typo).
 */
function servicesSelectingNoPod(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const svc of model.list('service')) {
    const selector = svc.fields['selector'];
    if (!selector || !svc.namespace) continue;
    // only pods whose labels were read can tell
    const pods = model
      .list('pod', svc.namespace)
      .filter((p) => p.namespace === svc.namespace && Object.keys(p.labels).length);
    if (!pods.length) continue;
    const reqs = selectorOf(selector);
    if (!reqs || pods.some((p) => matchesLabels(p.labels, reqs))) continue;
    const own = podsNamedFor(model, svc).filter((p) => Object.keys(p.labels).length);
    if (!own.length) continue;
    const eps = model.get('endpoints', svc.name, svc.namespace);
    const labels = Object.entries(own[0]!.labels)
      .filter(([k]) => !/pod-template-hash|controller-revision-hash/.test(k))
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    out.push({
      entry,
      object: { kind: 'service', name: svc.name, namespace: svc.namespace },
      workload: svc.name,
      fact: `Service ${svc.namespace}/${svc.name} selects ${selector}; no pod has these labels (its pods ${own[0]!.name}... carry ${labels})${eps ? `; Endpoints ${svc.name}: ${eps.fields['ready'] ?? '0'} ready addresses` : ''}`,
      groups: { selector, labels, service: svc.name },
      where: 'status',
      source: svc.source ?? 'service',
    });
  }
  return out;
}

/**
 * A PodDisruptionBudget that allows 0 disruptions while one of the pods it protects still runs
 * on a cordoned node: the eviction API refuses that pod (429) and `kubectl drain` retries it
 * forever; everything else has moved off. minAvailable equal to the replicas (or an unhealthy
 * pod elsewhere) keeps it at 0. A budget's pods are matched by its selector where the pods'
 * labels were read, else by the workload of the budget's name.
 */
function drainsRefusedByBudget(model: ClusterModel, entry: CauseEntry): Finding[] {
  const cordoned = model.list('node').filter(isCordoned);
  if (!cordoned.length) return [];
  const left = cordoned.flatMap((n) => model.podsOn(n).map((p) => ({ p, node: n.name })));
  const out: Finding[] = [];
  for (const b of model.list('poddisruptionbudget')) {
    if (b.fields['disruptionsAllowed'] !== '0' || !b.namespace) continue;
    const reqs = b.fields['selector'] ? selectorOf(b.fields['selector']) : undefined;
    const stuck = left.filter(
      ({ p }) =>
        p.namespace === b.namespace &&
        (reqs && Object.keys(p.labels).length
          ? matchesLabels(p.labels, reqs)
          : budgetNamesWorkload(b, model.workloadOf(p).name)),
    );
    if (!stuck[0]) continue;
    const { p: pod, node } = stuck[0];
    const budget = b.fields['minAvailable']
      ? `minAvailable ${b.fields['minAvailable']}`
      : b.fields['maxUnavailable']
        ? `maxUnavailable ${b.fields['maxUnavailable']}`
        : 'its budget';
    const healthy =
      b.fields['currentHealthy'] && b.fields['expectedPods']
        ? ` (${b.fields['currentHealthy']} healthy of ${b.fields['expectedPods']} expected pods)`
        : '';
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload: model.workloadOf(pod).name,
      fact: `PodDisruptionBudget ${b.namespace}/${b.name} has ${budget} and allows 0 disruptions${healthy}; pod ${pod.name} still runs on cordoned node ${node}, so its eviction is refused`,
      groups: { pdb: b.name, budget, node, pod: pod.name },
      where: 'status',
      source: b.source ?? 'poddisruptionbudget',
    });
  }
  return out;
}

/**
 * An autoscaler that scales up and down again and again (SuccessfulRescale events both ways,
 * three times or more each): every scale-down kills pods still serving and the next spike finds
 * too few, a sawtooth in latency. A scale-down stabilization window of 0 s is the usual cause.
 */
function flappingAutoscalers(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const h of model.list('horizontalpodautoscaler')) {
    const rescales = model.events.filter(
      (e) =>
        e.reason === 'SuccessfulRescale' &&
        e.object?.name === h.name &&
        (!e.namespace || !h.namespace || e.namespace === h.namespace),
    );
    const count = (re: RegExp) =>
      rescales.filter((e) => re.test(e.message)).reduce((a, e) => a + (e.count ?? 1), 0);
    const up = count(/above target/);
    const down = count(/below target/);
    if (up < 3 || down < 3) continue;
    const sizes = [...new Set(rescales.map((e) => /New size: (\d+)/.exec(e.message)?.[1]))]
      .filter(Boolean)
      .join(' / ');
    const window = h.fields['scaleDownStabilization'];
    const target = (h.fields['scaleTarget'] ?? '').split('/').pop() || h.name;
    out.push({
      entry,
      object: { kind: 'horizontalpodautoscaler', name: h.name, namespace: h.namespace },
      workload: target,
      fact: `HorizontalPodAutoscaler ${h.name} rescaled up ${up} times and down ${down} times (New size: ${sizes})${window !== undefined ? `; behavior.scaleDown.stabilizationWindowSeconds: ${window}` : ''}`,
      groups: {
        hpa: h.name,
        up: String(up),
        down: String(down),
        window:
          window !== undefined
            ? ` (its scaleDown stabilizationWindowSeconds is ${window})`
            : ' (check behavior.scaleDown.stabilizationWindowSeconds; the default is 300 s)',
      },
      at: Math.max(...rescales.map((e) => e.last ?? e.first ?? 0)) || undefined,
      where: 'event',
      source: h.source ?? 'horizontalpodautoscaler',
    });
  }
  return out;
}

/**
 * A Job's pod whose main container exited 0 while another container (a mesh proxy, a SQL proxy,
 * a log shipper) keeps running: the pod never finishes, so the Job stays active (and a CronJob
 * with concurrencyPolicy Forbid skips every run after it).
 */
function jobPodsHeldBySidecar(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const p of model.list('pod')) {
    if (
      p.owner?.kind !== 'job' &&
      model.workloadOf(p).kind !== 'job' &&
      model.workloadOf(p).kind !== 'cronjob'
    )
      continue;
    if (hasFinished(p)) continue;
    const main = p.containers.filter((c) => !c.init);
    const done = main.find((c) => c.terminated?.exitCode === 0);
    const running = main.find(
      (c) =>
        c !== done && !c.terminated && !c.waiting && (c.ready === true || c.restarts !== undefined),
    );
    if (!done || !running) continue;
    const at = done.terminated?.at;
    out.push({
      entry,
      object: { kind: 'pod', name: p.name, namespace: p.namespace },
      workload: model.workloadOf(p).name,
      fact: `pod ${p.name}: container ${done.name} terminated Completed (exit code 0)${at ? ` at ${new Date(at).toISOString()}` : ''}, but container ${running.name}${running.image ? ` (${running.image})` : ''} is still running, so the pod never finishes`,
      groups: { done: done.name, sidecar: running.name },
      at,
      where: 'state',
      source: p.source ?? 'pod',
    });
  }
  return out;
}

/**
 * A Service whose targetPort is a port name that none of its pods declares (a chart renamed the
 * container port): the endpoints controller skips every pod, the Service has no endpoints and
 * clients get 503 / refused connections while the pods are Running and Ready.
 */
function namedTargetPortsUndeclared(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const svc of model.list('service')) {
    if (!svc.namespace) continue;
    const ports = servicePorts(svc);
    const named = ports
      .map((p) => p.targetPort)
      .filter((t): t is string => typeof t === 'string' && !/^\d+$/.test(t));
    if (!named.length) continue;
    const reqs = svc.fields['selector'] ? selectorOf(svc.fields['selector']) : undefined;
    const withLabels = model
      .list('pod', svc.namespace)
      .filter((p) => p.namespace === svc.namespace && Object.keys(p.labels).length);
    const selected =
      reqs && withLabels.length
        ? withLabels.filter((p) => matchesLabels(p.labels, reqs))
        : podsNamedFor(model, svc);
    // only pods whose container ports were read can tell
    const read = selected.filter((p) =>
      p.containers.some((c) => !c.init && c.portNames !== undefined),
    );
    if (!read.length) continue;
    const eps = model.get('endpoints', svc.name, svc.namespace);
    if (eps && Number(eps.fields['ready'] ?? 0) > 0) continue;
    for (const name of named) {
      if (read.some((p) => p.containers.some((c) => c.portNames?.includes(name)))) continue;
      const declared = [
        ...new Set(
          read.flatMap((p) =>
            p.containers.flatMap((c) =>
              (c.portNames ?? []).map((n, i) => `${n}${c.ports[i] ? ` (${c.ports[i]})` : ''}`),
            ),
          ),
        ),
      ];
      out.push({
        entry,
        object: { kind: 'service', name: svc.name, namespace: svc.namespace },
        workload: model.workloadOf(read[0]!).name,
        fact: `Service ${svc.namespace}/${svc.name} has targetPort "${name}", but its pods (${read[0]!.name}...) declare ${declared.length ? `the port${declared.length > 1 ? 's' : ''} ${declared.join(', ')}` : 'no named port'}${eps ? `; Endpoints ${svc.name}: ${eps.fields['ready'] ?? '0'} ready addresses` : ''}`,
        groups: { service: svc.name, port: name, declared: declared.join(', ') || 'none' },
        where: 'status',
        source: svc.source ?? 'service',
      });
    }
  }
  return out;
}

/**
 * A DaemonSet meant for every node that does not run on nodes whose taint it does not tolerate
 * (new GPU or dedicated node groups): no pod is Pending and nothing alerts, but what it does
 * per node (ship logs, export metrics, run the CNI) is missing there.
 */
function daemonSetsKeptOff(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const ds of model.list('daemonset')) {
    const refused = nodesRefusingDaemonSet(model, ds);
    if (!refused.length) continue;
    const taints = [...new Set(refused.map((r) => r.taint))];
    const nodes = refused.map((r) => r.node);
    const desired = ds.fields['status.desiredNumberScheduled'];
    out.push({
      entry,
      object: { kind: 'daemonset', name: ds.name, namespace: ds.namespace },
      workload: ds.name,
      fact: `DaemonSet ${ds.namespace ? `${ds.namespace}/` : ''}${ds.name}${desired ? ` schedules ${desired} pods` : ''} and has no pod on ${nodes.slice(0, 4).join(', ')}${nodes.length > 4 ? ` (+${nodes.length - 4} more)` : ''}: ${nodes.length > 1 ? 'they carry' : 'it carries'} the taint ${taints.join(', ')}, which it does not tolerate (its tolerations: ${ds.fields['tolerations'] || 'none'})`,
      groups: { daemonset: ds.name, taint: taints.join(', '), nodes: nodes.join(', ') },
      where: 'status',
      source: ds.source ?? 'daemonset',
    });
  }
  return out;
}

/** pod labels unread: a budget named for the workload ("x", "x-pdb") or selecting its name */
export function budgetNamesWorkload(budget: ObjectView, workload: string): boolean {
  if (budget.name === workload || budget.name.replace(/-?pdb$/, '') === workload) return true;
  return (budget.fields['selector'] ?? '').split(',').some((kv) => kv.split('=')[1] === workload);
}

/**
 * A workload that keeps logging the same error (three records or more, the last within the
 * hour) is failing even when its pods are running and ready: a symptom to explain.
 */
function appErrors(model: ClusterModel, entry: CauseEntry, now?: number): Finding[] {
  const groups = new Map<
    string,
    {
      n: number;
      /** every record a warning: a failure only while it is sustained and still going on */
      warned: boolean;
      first?: number;
      last?: number;
      text: string;
      view: ObjectView;
      source: string;
      workload: string;
    }
  >();
  for (const l of model.logs) {
    if (l.previous || !l.pod) continue;
    const pod = model.get('pod', l.pod, l.namespace);
    if (!pod) continue;
    const workload = model.workloadOf(pod).name;
    const lines = l.lines.slice(-400);
    lines.forEach((line, i) => {
      const warned = !isErrorRecord(line.text);
      if (warned && !isWarnedError(line.text)) return;
      // a record whose next line is the exception it threw: that line says more
      const next = lines[i + 1];
      const thrown =
        next && !next.at && /^[\w.$]+(?:Exception|Error)\b/.test(next.text.trim())
          ? next.text.trim()
          : undefined;
      // a Java trace names its root cause last ("Caused by: ..."), below the frames
      const trace: string[] = [];
      for (const x of lines.slice(i + 1, i + 60)) {
        if (x.at !== undefined || LOG_RECORD.test(x.text)) break;
        trace.push(x.text.trim());
      }
      const rootCause = [...trace].reverse().find((x) => /^Caused by: /.test(x));
      const head = thrown ?? errorMessage(line.text);
      // the root cause must survive the clip of a long head (a message that dumps a schema)
      const text = rootCause ? `${clip(head, 120)}; ${rootCause}` : head;
      if (text.length < 8) return;
      const key = `${workload}|${shape(text)}`;
      const g = groups.get(key);
      if (g) {
        g.n++;
        g.warned &&= warned;
        if (line.at !== undefined) {
          g.first = Math.min(g.first ?? line.at, line.at);
          g.last = Math.max(g.last ?? line.at, line.at);
        }
      } else
        groups.set(key, {
          n: 1,
          warned,
          first: line.at,
          last: line.at,
          text,
          view: pod,
          source: l.source,
          workload,
        });
    });
  }
  // records per pod log since a time, to tell a sustained failure from occasional noise
  const recordsSince = (pod: string, namespace: string | undefined, since: number | undefined) =>
    model.logs
      .filter((l) => !l.previous && l.pod === pod && l.namespace === namespace)
      .reduce(
        (n, l) =>
          n +
          l.lines.filter((x) => x.at !== undefined && (since === undefined || x.at >= since))
            .length,
        0,
      );
  const out: Finding[] = [];
  for (const g of groups.values()) {
    if (g.n < 3) continue;
    if (now !== undefined && g.last !== undefined && now - g.last > 60 * 60_000) continue;
    // a healthy service logs an error now and then; a failing one at a sustained rate
    const records = recordsSince(g.view.name, g.view.namespace, g.first);
    if (records > 0 && g.n / records < 0.2) continue;
    if (
      g.warned &&
      (g.n < 5 ||
        (records > 0 && g.n / records < 0.5) ||
        (now !== undefined && (g.last === undefined || now - g.last > 15 * 60_000)))
    )
      continue;
    out.push({
      entry,
      object: { kind: 'pod', name: g.view.name, namespace: g.view.namespace },
      workload: g.workload,
      fact: clipKeepingError(g.text, 240),
      groups: {
        count: String(g.n),
        since: g.first !== undefined ? new Date(g.first).toISOString() : 'the start of its logs',
        ...(g.last !== undefined ? { last: new Date(g.last).toISOString() } : {}),
      },
      at: g.first,
      where: 'log',
      source: g.source,
    });
  }
  // the most repeated first
  return out.sort((a, b) => Number(b.groups['count']) - Number(a.groups['count']));
}

const NAMED_KINDS = new Set([
  'pod',
  'deployment',
  'statefulset',
  'daemonset',
  'job',
  'cronjob',
  'node',
  'persistentvolumeclaim',
  'horizontalpodautoscaler',
  'certificate',
]);

/** The object whose name the text says (the longest such name), if any. */
function namedIn(text: string, model: ClusterModel): ObjectView | undefined {
  let best: ObjectView | undefined;
  for (const o of model.objects.values()) {
    if (!NAMED_KINDS.has(o.kind) || o.name.length < 4) continue;
    if (best && best.name.length >= o.name.length) continue;
    const i = text.indexOf(o.name);
    if (i < 0) continue;
    const before = text[i - 1] ?? ' ';
    const after = text[i + o.name.length] ?? ' ';
    if (/[\w-]/.test(before) || /[\w-]/.test(after)) continue;
    best = o;
  }
  return best;
}

const BENIGN_EVENT =
  /^(Scheduled|Pulling|Pulled|Created|Started|SuccessfulCreate|SuccessfulDelete|ScalingReplicaSet|SuccessfulRescale|Sync|Synced|LeaderElection|RegisteredNode|NodeReady|NodeSchedulable|Starting|NodeHasSufficient\w*|NodeHasNo\w*|NodeAllocatableEnforced|Completed|SawCompletedJob|SuccessfulJobCreate|Provisioning|ProvisioningSucceeded|ExternalProvisioning|Issuing|Requested|Generated|Reused|Issued|CertificateIssued|UPDATE|CREATE|RELOAD|AddedInterface|WaitForFirstConsumer|WaitForPodScheduled|Scaled|Injected|Updated|Killing|Cleaning|SandboxChanged|TaintManagerEviction)?$/;
const INTERESTING =
  /not defined|unknown flag|unrecognized|usage:|refused|timeout|Pause Full|Full GC|reset reason|" 5\d\d (?:U[A-Z]{1,2}|NR|DC)\b|timed out|forbidden|no such|not found|expired|denied|panic|throttl|Traceback|Exception|invalid|must be set|not set|missing|too many|exceeded|unable|cannot|could not|failed/i;
const CRASH = /panic:|panicked at|Traceback|Exception|Error:|fatal error/;
const FRAME =
  /\.(go|py|js|ts|java|rb|rs|kt|scala|cs|php):\d+|File "[^"]+", line \d+|\bat [\w.$<>]+\(/;
/** a line that starts a log record of its own (a timestamp, a level, a JSON object) */
const LOG_RECORD =
  /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|[IWEF]\d{4} \d{2}:\d{2}|\{"|time=|level=|\[?(INFO|WARN|ERROR|DEBUG|FATAL)\b)/;
const RUNTIME_FRAME =
  /runtime\/|node_modules|node:internal|java\.base|site-packages|\/usr\/lib\/|\/lib\/python\d|goroutine \d+/;
/** kubectl logs --timestamps puts an RFC 3339 time before every line of a record */
export const LINE_STAMP =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})? ?/;
/** the line that ends a Python traceback ("ValueError: ...", "google.auth.exceptions.X: ...") */
const PY_ERROR = /^[\w.]+(?:Error|Exception|Exit|Interrupt|Fault)\b/;
/** a line at the margin shaped like a raised error: a (dotted) class name, then ": " or nothing */
const PY_RAISED = /^[A-Za-z_][\w.]*(?::\s|$)/;
/** what joins chained Python exceptions ("The above exception was the direct cause of...") */
const PY_CHAIN = /^(?:The above exception was|During handling of the above exception)/;

/**
 * A Python traceback's error: the line that ends it. A chained traceback ("The above exception
 * was the direct cause of the following exception") ends with the error raised last; the first
 * error of the chain is what caused it.
 */
function pythonError(trace: string[]): string | undefined {
  const errors: string[] = [];
  let framed = false;
  for (let i = 0; i < trace.length; i++) {
    const x = trace[i]!;
    // below the frames, the first line at the margin names the error, whatever its class is
    // called ("pika.exceptions.ChannelClosedByBroker: (404, ...)", "KeyboardInterrupt")
    const ends = framed && PY_RAISED.test(x);
    if (/^\s+File "/.test(x)) framed = true;
    if (!PY_ERROR.test(x) && !ends) continue;
    framed = false;
    errors.push(x.trim());
    const next = trace.slice(i + 1).find((y) => y.trim());
    if (!next || !PY_CHAIN.test(next)) break;
  }
  const last = errors[errors.length - 1];
  if (!last) return undefined;
  return errors.length > 1 ? `${last} (caused by ${errors[0]})` : last;
}

/**
 * PostgreSQL writes why on the record after an error: "FATAL: database files are incompatible
 * with server", then "DETAIL: The data directory was initialized by PostgreSQL version 15, ...".
 */
function withDetail(line: string, next: string | undefined, after: string[] = []): string {
  // a record whose value runs on the lines below it (hclog's `error=` then "  | ..." lines, a
  // message ending in ":"): those lines, up to the next record
  if (/[:=]\s*$/.test(line) && after.length) {
    const more: string[] = [];
    for (const x of after) {
      const own = x.replace(LINE_STAMP, '');
      if (LOG_RECORD.test(own) || !/^\s/.test(own)) break;
      const t = own.replace(/^\s*\|?\s*/, '');
      if (t) more.push(t);
    }
    if (more.length) return `${line} ${more.join(' ')}`;
  }
  if (!next || !/\b(?:FATAL|ERROR|PANIC):/.test(line)) return line;
  const detail = /\bDETAIL:\s+(.*)$/.exec(next)?.[1];
  return detail ? `${line} DETAIL: ${detail}` : line;
}

/** "panic: ..." plus the first two application frames under it */
function withFrames(line: string, next: string[]): string {
  // frames are the trace's own lines (indented, no record of their own), up to the next log
  // record: another record's text is not a frame of this one
  const trace: string[] = [];
  for (const x of next.slice(0, 60)) {
    const own = x.replace(LINE_STAMP, '');
    if (LOG_RECORD.test(own)) break;
    trace.push(own);
  }
  const frames = trace
    .slice(0, 40)
    .filter((x) => FRAME.test(x) && !RUNTIME_FRAME.test(x))
    .slice(0, 2);
  // a Python traceback names its error on the line that ends it ("ValueError: ...")
  const error = /Traceback \(most recent call last\)/.test(line) ? pythonError(trace) : undefined;
  // Rust 1.73+: "thread 'main' panicked at src/x.rs:88:41:" with the message on the next line
  const rust =
    /panicked at [^\s']+:\d+:\d+:\s*$/.test(line) && trace[0]?.trim() ? trace[0].trim() : '';
  const head = error
    ? `${error} (${line.replace(LINE_STAMP, '').trim()})`
    : rust
      ? `${line.trim()} ${rust}`
      : line;
  return frames.length ? `${head} | ${frames.map((f) => f.trim()).join(' | ')}` : head;
}

/** Is the finding about one of the subjects (or what they depend on)? */
export function relevance(
  f: Finding,
  model: ClusterModel,
  subjects: Subject[],
  focus: Set<string>,
  dependsOn: Set<string> = new Set(),
): number {
  if (!subjects.length) return 0.5;
  if (f.workload && focus.has(f.workload)) return 1;
  if (f.object && focus.has(f.object.name)) return 1;
  if (f.workload && dependsOn.has(f.workload)) return 0.8;
  for (const s of subjects) {
    if (f.object) {
      const o = model.get(f.object.kind, f.object.name, f.object.namespace);
      if (o && model.matches(o, s)) return 1;
    }
    if (f.workload === s.name || f.workload.startsWith(`${s.name}-`)) return 0.9;
  }
  // "what is holding the drain of node X": a pod that runs on the node the request names
  if (f.object?.kind === 'pod') {
    const onNode = model
      .list('node')
      .filter((n) => subjects.some((s) => model.matches(n, s)))
      .some((n) => model.podsOn(n).some((p) => p.name === f.object!.name));
    if (onNode) return 0.9;
  }
  // a controller's record about what it applies (a GitOps controller, a deploy Job): about the
  // subject it names
  if (
    f.entry.namesSubject &&
    subjects.some((s) =>
      [f.fact, f.workload, f.object?.name ?? ''].some((t) => namesToken(t, s.name)),
    )
  )
    return 0.8;
  return 0;
}
