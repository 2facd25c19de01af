import type { InvestigationResultRecord } from '@inquest/store';
import type { EngineRun } from '../engine';
import type { KnowledgeChunk, LearnedPatternView } from '../ports';
import { dedupe } from './collections';
import { backingWorkload, failingDependencies } from './dependencies';
import {
  errorMessage,
  findFindings,
  LINE_STAMP,
  relevance,
  type Finding,
  type compile,
} from './diagnose';
import { failsOrRestarts, hasCompleted, healthyTwins, isUnhealthy } from './health';
import { varsFor } from './finding-vars';
import { configMapsOf, jsonField, stripHash, workloadName, type ClusterModel } from './model';
import type { LogView, ObjectView } from './observe';
import { podCauseOfDeadline, supersededNote, supersededObject } from './diagnose-r27a';
import { rolledPastReplicaSet } from './diagnose-r31b';
import { answerQuestion } from './questions';
import type { Scope } from './scope';
import { clip, hostOf, namesToken } from './text';
import { kindValue, type ToolProfile } from './tool-profile';

export interface Knowledge {
  runbooks: KnowledgeChunk[];
  incidents: KnowledgeChunk[];
  patterns: LearnedPatternView[];
}

type Rec = {
  priority: 'high' | 'medium' | 'low';
  action: string;
  proposed_action?: { tool: string; parameters: Record<string, unknown> };
};
const PRIORITY_ORDER = { high: 0, medium: 1, low: 2 } as const;
const CHANGE_WINDOW_MS = 2 * 3600_000;
const CHANGE_WORDS =
  /\b(rolled out|roll(?:ing)? ?out|deployed|deploy(?:ment)? of|released|upgraded|updated (?:image|config)|config(?:uration)? change|new (?:version|image)|set image)\b/i;

/**
 * The default engine: no LLM, read-only. Scopes the incident (subjects from the message, the
 * context and alert labels), discovers them with the team's tools whatever their vocabulary,
 * gathers like an engineer (status, events, current and previous logs, controller, node,
 * volumes), reads the outputs (JSON, YAML, `kubectl describe` text, tables, logs), diagnoses
 * the cause from a catalog kept as data, answers questions, and builds a report whose
 * confidence comes from this run's evidence only.
 */
export function absorbKnowledge(tool: string, output: unknown, k: Knowledge): void {
  const o = (output ?? {}) as { results?: KnowledgeChunk[]; patterns?: LearnedPatternView[] };
  if (tool === 'learned_patterns') k.patterns.push(...(o.patterns ?? []));
  else if (tool === 'similar_incidents') k.incidents.push(...(o.results ?? []));
  else k.runbooks.push(...(o.results ?? []));
}

// ------------------------------------------------------------------------------------------------
// Conclusion

function fillTemplate(t: string, vars: Record<string, string>): string {
  // the template's own spacing and empty brackets are tidied, never the values put in it (a
  // quoted "connect() failed" keeps its brackets)
  const values: string[] = [];
  return t
    .replace(/\{(\w+)\}/g, (_, k: string) => {
      const v = vars[k] ?? '';
      if (!v) return '';
      values.push(v);
      return `\uE000${values.length - 1}\uE000`;
    })
    .replace(/\s+([,.)])/g, '$1')
    .replace(/\(\s*\)/g, '')
    .replace(/\s{2,}/g, ' ')
    .replace(/(\s?)\uE000(\d+)\uE000/g, (_, space: string, i: string) => {
      const v = values[Number(i)]!;
      // where the template's space meets a value that starts with one (or with , . or ")")
      return space && /^[\s,.)]/.test(v) ? v.replace(/^\s+/, '') : space + v;
    });
}

export const NO_PROBLEM = 'No problem found';

/** The conclusion found no fault (a question's answer may come before it). */
export const foundNothing = (r: InvestigationResultRecord) =>
  r.root_cause.description.includes(`${NO_PROBLEM}: `);

export function conclude(
  run: EngineRun,
  scope: Scope,
  model: ClusterModel,
  catalog: ReturnType<typeof compile>,
  knowledge: Knowledge,
  now: number,
  toolCalls: number,
  refusedTools: ToolProfile[],
  /** the subjects named by the request, when they looked healthy and the scope was widened */
  healthyNamed?: string[],
  /** a read-only Kubernetes tool was offered (false: every one declares it can change things) */
  kubeReadable = true,
): InvestigationResultRecord {
  const refused = refusedTools.map((p) => p.tool.fullName);
  const findings = findFindings(model, catalog, now);
  // the subjects' workloads, plus what they depend on (their nodes, claims)
  const focus = new Set<string>();
  const focusObjects = model.list().filter((o) => scope.subjects.some((s) => model.matches(o, s)));
  for (const o of focusObjects) {
    focus.add(model.workloadOf(o).name);
    focus.add(o.name);
    if (o.kind === 'pod') {
      if (
        o.node &&
        (findings.some((f) => f.object?.name === o.node) ||
          isUnhealthy(model.get('node', o.node) ?? o, now))
      )
        focus.add(o.node);
      for (const c of (o.fields['claims'] ?? '').split(',').filter(Boolean)) focus.add(c);
    }
  }
  for (const s of scope.subjects)
    if (s.kind === 'node' || s.kind === 'persistentvolumeclaim' || s.kind === 'job')
      focus.add(s.name);
  // what the subjects call and fail on: its own failure explains theirs (only when the
  // subjects themselves show a failure: a healthy caller's retries are no incident)
  const subjectFails = findings.some(
    (f) => relevance(f, model, scope.subjects, focus) >= 0.9 && !resolved(f, model, now),
  );
  const dependencies = subjectFails
    ? failingDependencies(
        model,
        new Set(focusObjects.map((o) => model.workloadOf(o).name)),
        scope.namespaces[0],
      )
    : [];
  const dependsOn = new Set([
    ...dependencies.slice(0, 2).flatMap((d) => (d.workload ? [d.workload.name] : [])),
    ...(subjectFails ? (scope.dependencies ?? []).map((d) => d.name) : []),
  ]);
  const scored = findings
    .map((f) => ({ f, r: relevance(f, model, scope.subjects, focus, dependsOn) }))
    .filter((x) => x.r > 0 || !scope.subjects.length || !focusObjects.length)
    .filter((x) => !resolved(x.f, model, now) && !refusedWhileCrashing(x.f, model));
  // a failing pod's own finding before one on a pod of the same workload that still serves
  // (the crash-looping new pod's fatal line explains more than an old pod's slow request)
  const podState = (f: Finding) => {
    const o =
      f.object?.kind === 'pod' ? model.get('pod', f.object.name, f.object.namespace) : undefined;
    return o ? (isUnhealthy(o, now) ? 'failing' : 'serving') : undefined;
  };
  const failingPodOf = new Set(
    scored.filter((x) => podState(x.f) === 'failing').map((x) => x.f.workload),
  );
  const weight = (x: { f: Finding; r: number }) =>
    x.f.entry.strength +
    (x.f.entry.role === 'cause' ? 0.15 : 0) +
    0.3 * x.r -
    (failingPodOf.has(x.f.workload) && podState(x.f) === 'serving' ? 0.03 : 0);
  // (r30b) equal findings with no time to order them (a tool that shows no event times): the one
  // on the workload a subject names exactly before one whose name only starts with a subject's
  const exact = (f: Finding) => Number(scope.subjects.some((s) => s.name === f.workload));
  scored.sort(
    (a, b) => weight(b) - weight(a) || (a.f.at ?? 0) - (b.f.at ?? 0) || exact(b.f) - exact(a.f),
  );
  let top = scored[0];
  // a Job past its deadline because its pods could not start: why they could not (r27a)
  top = podCauseOfDeadline(top, scored, weight, model, now) ?? top;
  // of equal findings in objects and events (one failure of one workload, as weighty), the one
  // that says most: a pod's status "Evicted" says less than "Evicted: The node was low on
  // resource: memory. ..." (log lines keep the first: a longer one is a stack, not more cause)
  if (top)
    for (const x of scored)
      if (
        x.f.entry.id === top.f.entry.id &&
        x.f.workload === top.f.workload &&
        weight(x) === weight(top) &&
        x.f.where !== 'log' &&
        top.f.where !== 'log' &&
        x.f.fact.length > top.f.fact.length &&
        x.f.fact.includes(top.f.fact)
      )
        top = x;
  // the same failure, as weighty, seen on a pod (an event "Node is not ready" with no time, as
  // some servers list events) and on the node that pod runs on: the node's own condition (a node
  // that stopped; a pressure eviction stays about the pods it evicts)
  if (top?.f.object?.kind === 'pod' && top.f.entry.class === 'node_not_ready') {
    const onPod = model.get('pod', top.f.object.name, top.f.object.namespace);
    const t = top;
    const own = scored.find(
      (x) =>
        x.f.entry.id === t.f.entry.id &&
        weight(x) === weight(t) &&
        x.f.object?.kind === 'node' &&
        !!onPod?.node &&
        x.f.object.name === onPod.node,
    );
    if (own) top = own;
  }
  let symptom: typeof top | undefined;
  if (top && top.f.entry.role === 'symptom') {
    // explain it: a cause on the same object or workload, or on what it depends on
    const explain = scored.find(
      (x) =>
        x.f.entry.role === 'cause' &&
        (x.f.workload === top!.f.workload ||
          x.f.object?.name === top!.f.object?.name ||
          focus.has(x.f.object?.name ?? '') ||
          focus.has(x.f.workload) ||
          dependsOn.has(x.f.workload)),
    );
    if (explain) {
      symptom = top;
      top = explain;
    }
  }
  // a Job that failed because its pods did: the cause is in their logs, the failure is the Job's
  if (top && !symptom && top.f.entry.class !== 'job_failed')
    symptom = scored.find(
      (x) => x.f.entry.class === 'job_failed' && x.f.workload === top!.f.workload,
    );
  // a liveness probe refused on the port the app declares: the app is not up yet (slow start)
  if (top?.f.entry.id === 'probe_refused') {
    const o = top.f.object
      ? model.get(top.f.object.kind, top.f.object.name, top.f.object.namespace)
      : undefined;
    const pods =
      o?.kind === 'pod' ? [o] : model.podsOf('deployment', top.f.workload, top.f.object?.namespace);
    const port = /:(\d+)/.exec(top.f.groups['url'] ?? '')?.[1];
    const slow = catalog.find((c) => c.entry.id === 'probe_slow_start');
    // a container that exits by itself with an error code (not 137/143: killed) was not
    // restarted by its probe: what it logged before exiting is the cause
    const selfExit = pods.some((p) =>
      p.containers.some(
        (c) =>
          c.last?.exitCode !== undefined &&
          c.last.exitCode > 0 &&
          ![137, 143].includes(c.last.exitCode),
      ),
    );
    const ownError = selfExit
      ? scored.find(
          (x) =>
            x.f.where === 'log' && x.f.entry.role === 'cause' && x.f.workload === top!.f.workload,
        )
      : undefined;
    if (ownError) {
      symptom = top;
      top = ownError;
    } else if (
      slow &&
      port &&
      !selfExit &&
      pods.some((p) => p.containers.some((c) => c.ports.includes(port)))
    )
      top = { ...top, f: { ...top.f, entry: slow.entry } };
  }
  const firstError = Math.min(
    ...scored
      .filter((x) => x.r >= 0.9 || !scope.subjects.length || !focusObjects.length)
      .map((x) => x.f.at ?? Infinity),
  );
  const subjectName =
    top?.f.workload ||
    top?.f.object?.name ||
    scope.subjects[0]?.name ||
    run.context.service ||
    'the affected service';
  const ns = top?.f.object?.namespace ?? scope.namespaces[0];
  // a controller's record about what it applies (a GitOps controller, a deploy Job) is told about
  // the subject it names, not about the controller: "... on checkout (via kustomize-controller in
  // flux-system)"
  const named = top?.f.entry.namesSubject
    ? scope.subjects.find((s) => [top!.f.fact, top!.f.workload].some((t) => namesToken(t, s.name)))
    : undefined;
  const label =
    named && named.name !== subjectName
      ? `${named.name} (via ${subjectName}${ns ? ` in namespace ${ns}` : ''})`
      : `${subjectName}${ns ? ` (namespace ${ns})` : ''}`;

  const question = scope.question ? answerQuestion(scope.question, model, scope, now) : undefined;
  let description: string;
  let confidence: number;
  const evidence: string[] = [];
  const recs: Rec[] = [];
  let headline: string;
  if (top) {
    const vars = varsFor(top.f, model, subjectName, now);
    const change = recentChange(model, top.f.workload || subjectName, ns, firstError);
    description = fillTemplate(top.f.entry.cause, vars);
    description = `${capital(description, subjectName)}.`;
    // a repeated error already is the last word
    const lastWords =
      top.f.entry.role === 'symptom' && top.f.entry.id !== 'app_errors'
        ? lastError(model, top.f)
        : undefined;
    if (lastWords)
      description +=
        top.f.entry.class === 'image_pull'
          ? ` The registry answered: "${clip(lastWords, 300)}".`
          : ` The last error it logged: "${clip(lastWords, 300)}".`;
    const dep = /dependency|dns/.test(top.f.entry.class)
      ? dependencyDetail(model, vars)
      : undefined;
    if (dep) {
      description += ` ${dep.text}`;
      // what the dependency itself fails on explains the refusals
      const own = dep.workload
        ? findings
            .filter((f) => f.workload === dep.workload && f.entry.role === 'cause')
            .filter((f) => !resolved(f, model, now))
            .sort((a, b) => b.entry.strength - a.entry.strength)[0]
        : undefined;
      if (own)
        description += ` ${capital(own.entry.title)} on ${dep.workload}: "${clip(own.fact, 240)}".`;
    }
    // a node-level cause: say which of the subjects' pods it hits
    if (top.f.object?.kind === 'node') {
      const hit = focusObjects
        .filter((o) => o.kind === 'pod' && o.node === top!.f.object!.name)
        .map((o) => o.name);
      if (hit.length)
        description += ` Affected: ${[...new Set(focusObjects.filter((o) => hit.includes(o.name)).map((o) => model.workloadOf(o).name))].join(', ')} (pods ${hit.slice(0, 4).join(', ')} run on ${top.f.object.name}).`;
      description += stuckTerminating(model, top.f.object.name, now);
    }
    let fix = fillTemplate(top.f.entry.fix, vars);
    if (
      top.f.entry.id === 'db_too_many_connections' ||
      top.f.entry.id === 'pooler_max_client_conn'
    ) {
      const scaled = recentScaleUp(model, firstError);
      if (scaled) {
        description += ` ${scaled.workload} was scaled up from ${scaled.from} to ${scaled.to} replicas at ${new Date(scaled.at).toISOString()}, ${Math.max(0, Math.round((firstError - scaled.at) / 60_000))} min before the first refusal: each replica opens its own connection pool, so the clients together now open more connections than the limit.`;
        fix = `Scale ${scaled.workload} back to ${scaled.from} replicas (or lower its pool size so replicas × pool stays under the limit), then ${fix.charAt(0).toLowerCase()}${fix.slice(1)}`;
      }
    }
    if (/^crashloop_(?:panic|config)$/.test(top.f.entry.class)) {
      const differs = twinDifference(model, focusObjects, top.f.workload, now);
      if (differs) description += ` ${differs}`;
    }
    if (top.f.entry.id === 'disk_full') {
      const resize = resizePending(model, ns);
      if (resize) {
        description += ` ${resize.text}`;
        fix = resize.fix;
      }
    }
    if (top.f.entry.class === 'dns_failure') {
      // a hostNetwork pod with the default dnsPolicy asks the node's resolver, which does not
      // know the cluster's names
      const hostNet = model
        .list('pod', ns)
        .find(
          (p) =>
            model.workloadOf(p).name === top!.f.workload &&
            p.fields['hostNetwork'] === 'true' &&
            p.fields['dnsPolicy'] !== 'ClusterFirstWithHostNet',
        );
      if (hostNet) {
        description += ` Its pods run with hostNetwork: true and dnsPolicy ${hostNet.fields['dnsPolicy'] ?? 'ClusterFirst'}, so they ask the node's resolver (its /etc/resolv.conf, e.g. the VPC resolver), which does not know cluster names: that needs dnsPolicy ClusterFirstWithHostNet.`;
        fix = `Set dnsPolicy: ClusterFirstWithHostNet on the pod template of ${subjectName} (it runs with hostNetwork: true), or drop hostNetwork if it is not needed.`;
      }
      // coredns's own cause first (its OOM kill, an upstream that does not answer), the
      // strongest, before a symptom (its CrashLoopBackOff)
      const dns = findings
        .filter((f) => /^(coredns|kube-dns)/.test(f.workload) && f.entry.id !== 'dns_failure')
        .sort(
          (a, b) =>
            Number(b.entry.role === 'cause') - Number(a.entry.role === 'cause') ||
            b.entry.strength - a.entry.strength,
        )[0];
      const pod = model
        .list('pod', 'kube-system')
        .find((p) => /^(coredns|kube-dns)/.test(p.name) && isUnhealthy(p, now));
      // coredns that names its own cause: running (an upstream resolver that does not answer)
      // or killed at its memory limit
      const own =
        dns && dns.entry.role === 'cause' && (!pod || dns.entry.class === 'oom_killed')
          ? dns
          : undefined;
      const ownVars = own ? varsFor(own, model, own.workload, now) : {};
      if (own) fix = fillTemplate(own.entry.fix, ownVars);
      if (dns || pod)
        description += ` Cluster DNS itself is failing: ${pod ? `coredns pod ${pod.name} is ${pod.status ?? 'not ready'}` : 'coredns'}${own ? `: ${fillTemplate(own.entry.cause, ownVars)}` : dns ? ` ("${clip(dns.fact, 200)}")` : ''}.`;
    }
    if (top.f.entry.role === 'symptom' && change && !lastWords)
      description += ` The likely cause is the change shortly before the first error: the rollout of ${change.what}.`;
    if (symptom && symptom.f.entry.id !== top.f.entry.id)
      description += ` Seen as: ${fillTemplate(symptom.f.entry.title, vars)} ("${clip(symptom.f.fact, 160)}").`;
    if (change)
      description += ` It started after the rollout of ${change.what} at ${new Date(change.at).toISOString()} (${Math.max(0, Math.round((firstError - change.at) / 60_000))} min before the first error).`;
    // a node that evicts: every workload it evicted, the hungriest suspect among them
    if (top.f.entry.class === 'eviction' && vars['node']) {
      const evicted = [
        ...new Set(
          model
            .list('pod')
            .filter((p) => p.node === vars['node'] && /Evicted/i.test(`${p.status} ${p.reason}`))
            .map((p) => model.workloadOf(p).name),
        ),
      ];
      if (evicted.length > 1)
        description += ` Evicted on ${vars['node']}: ${evicted.slice(0, 6).join(', ')}.`;
    }
    // one pod of several fails (a node's clock or disk, a stuck rollout): say which
    if (top.f.object?.kind === 'pod' && top.f.workload) {
      const same = model
        .list('pod', top.f.object.namespace)
        .filter((p) => model.workloadOf(p).name === top!.f.workload);
      const read = same.filter((p) => model.logs.some((l) => l.pod === p.name && !l.previous));
      const hit = new Set(
        findings
          .filter((f) => f.entry.id === top!.f.entry.id && f.workload === top!.f.workload)
          .flatMap((f) => [f.object?.name, ...(f.alsoOn ?? [])]),
      );
      const pod = model.get('pod', top.f.object.name, top.f.object.namespace);
      if (same.length > 1 && hit.size === 1 && read.length > 1)
        description += ` Only pod ${top.f.object.name}${pod?.node ? ` (on node ${pod.node})` : ''} shows it; the other ${read.length - 1} pod(s) of ${top.f.workload} read do not.`;
      // a node agent killed at its memory limit on some nodes only: which nodes (one fixed limit
      // for nodes of different load)
      if (pod && model.workloadOf(pod).kind === 'daemonset' && top.f.entry.class === 'oom_killed') {
        const all = model.podsOf('daemonset', top.f.workload, top.f.object.namespace);
        const bad = all.filter((p) => failsOrRestarts(p, now));
        if (bad.length && bad.length < all.length)
          description += ` It fails on node${bad.length > 1 ? 's' : ''} ${bad.map((p) => p.node ?? p.name).join(', ')} only: its pods on the other ${all.length - bad.length} node(s) run, so what differs is the load or the node there.`;
      }
      // the same tag, another digest: the tag moved and only this pod pulled the new build
      if (pod && hit.size === 1) description += movedTag(pod, same);
    }
    // the cause lies in what the subjects call: say whose failure it explains
    const callers = [
      ...new Set(
        focusObjects
          .map((o) => model.workloadOf(o).name)
          .filter((w) => w && w !== top!.f.workload && !focus.has(top!.f.workload)),
      ),
    ];
    // the subject's pods are killed by a liveness probe whose health endpoint waits on the
    // dependency that fails: the kubelet restarts pods that are themselves fine
    if (top.f.entry.class === 'dependency_failure') {
      const killed = model.events.find(
        (e) =>
          e.object &&
          model
            .list('pod', ns)
            .some(
              (p) => p.name === e.object!.name && model.workloadOf(p).name === top!.f.workload,
            ) &&
          /Liveness probe failed|failed liveness probe/i.test(e.message),
      );
      if (killed) {
        description += ` Its pods are restarted by their liveness probe ("${clip(killed.message, 160)}"): the health endpoint waits on that dependency, so the kubelet kills pods that are themselves fine and every pod restarts together.`;
        fix = `Make the liveness probe of ${top.f.workload} check only the process itself (leave dependencies to readiness, or to nothing), then ${fix.charAt(0).toLowerCase()}${fix.slice(1)}`;
      }
    }
    if (!healthyNamed && dependsOn.has(top.f.workload) && callers.length) {
      // the failing pod of the dependency, and the caller's own error that names it
      const pod =
        top.f.object?.kind === 'pod' && top.f.object.name !== top.f.workload
          ? ` (pod ${top.f.object.name})`
          : '';
      const said = dependencies
        .find((d) => d.workload?.name === top!.f.workload)
        ?.line?.replace(/^\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)\s+/, '');
      // a Kafka client's line on a topic names no broker: its "no leader" says why it fails
      const leaderless = findings.find(
        (f) =>
          f.entry.id === 'kafka_client_no_leader' &&
          callers.includes(f.workload) &&
          /LEADER/.test(f.fact) &&
          !said?.includes('LEADER'),
      );
      const noLeader = leaderless
        ? `; its Kafka client finds no leader for the partitions that broker led ("${aroundToken(leaderless.fact, /NOT_LEADER_OR_FOLLOWER|LEADER_NOT_AVAILABLE|NotLeaderOrFollowerException/)}")`
        : '';
      description = `${callers.slice(0, 2).join(' and ')} fail${callers.length === 1 ? 's' : ''} because ${top.f.workload}${pod}, which ${callers.length === 1 ? 'it calls' : 'they call'}, fails${said ? ` (${callers.length === 1 ? 'it logs' : 'they log'} "${clip(said, 200)}"${noLeader})` : ''}. ${description}`;
    }
    // the named subjects that looked healthy, not the one the failure was found on after all
    const healthyOthers = healthyNamed?.filter((n) => n !== subjectName && n !== top!.f.workload);
    const stillHealthy = healthyOthers?.join(' and ');
    if (stillHealthy)
      description = `${capital(stillHealthy)} ${healthyOthers!.length > 1 ? 'themselves look' : 'itself looks'} healthy; the failure is in ${subjectName}${
        scope.subjects.some(
          (s) =>
            !['dns-records', 'entry-point'].includes(s.from) &&
            s.namespace &&
            s.namespace === top!.f.object?.namespace,
        )
          ? ', in the same namespace'
          : top.f.object?.namespace
            ? ` (namespace ${top.f.object.namespace})`
            : ''
      }. ${description}`;
    if (!description.includes(top.f.fact.slice(0, 40)))
      description += ` Decisive evidence: "${clip(top.f.fact, 240)}".`;
    description += ` Fix: ${fix}`;
    const corroboration = new Set(
      scored.filter((x) => x.f.entry.id === top!.f.entry.id).map((x) => x.f.source),
    ).size;
    const patterns = knowledge.patterns.filter((p) => patternMatches(p, top!.f));
    confidence =
      top.f.entry.role === 'cause'
        ? 50 + 40 * top.f.entry.strength * Math.max(0.5, top.r)
        : 30 + 20 * top.f.entry.strength;
    confidence +=
      Math.min(6, 3 * (corroboration - 1)) +
      (change ? 4 : 0) +
      (symptom ? 3 : 0) +
      (patterns.length ? 4 : 0);
    confidence = Math.round(Math.max(5, Math.min(95, confidence)));
    headline = `${capital(top.f.entry.title)} on ${label}`;
    evidence.push(`${top.f.source}: ${clip(top.f.fact, 300)}`);
    if (symptom) evidence.push(`${symptom.f.source}: ${clip(symptom.f.fact, 300)}`);
    if (change)
      evidence.push(
        `${change.source}: rollout of ${change.what} at ${new Date(change.at).toISOString()}`,
      );
    for (const p of patterns.slice(0, 1))
      evidence.push(
        `learned_patterns: matches a pattern seen ${p.occurrences}x (${clip(p.rootCause, 120)})`,
      );
    for (const x of scored.slice(0, 12))
      if (x.r >= 0.9 || !scope.subjects.length)
        evidence.push(`${x.f.source}: ${clip(x.f.fact, 300)}`);
    recs.push({ priority: 'high', action: fix });
    if (change)
      recs.push({
        priority: 'high',
        action: `If the fix cannot be made at once, roll ${subjectName} back to the version before ${change.what}.`,
        ...proposedRollback(run, refusedTools, subjectName, ns),
      });
    if (symptom) recs.push({ priority: 'medium', action: fillTemplate(symptom.f.entry.fix, vars) });
    // one "also seen" per failure and object (two log lines or events of one failure are one
    // finding), quoting the most telling of its facts: the longest
    const alsoSeen = new Map<string, { title: string; on: string; fact: string }>();
    for (const x of scored.slice(1, 4)) {
      if (
        x.f.entry.id === top.f.entry.id ||
        x.f.entry.id === symptom?.f.entry.id ||
        x.f.entry.role !== 'cause' ||
        (x.r < 0.9 && scope.subjects.length)
      )
        continue;
      const on = x.f.workload || x.f.object?.name || 'another object';
      const key = `${x.f.entry.id}\n${on}`;
      const seen = alsoSeen.get(key);
      if (!seen) alsoSeen.set(key, { title: x.f.entry.title, on, fact: x.f.fact });
      else if (x.f.fact.length > seen.fact.length) seen.fact = x.f.fact;
    }
    for (const a of alsoSeen.values())
      recs.push({
        priority: 'low',
        action: `Also seen: ${fillTemplate(a.title, {})} on ${a.on} ("${clip(a.fact, 120)}").`,
      });
    for (const p of patterns.slice(0, 1))
      recs.push({
        priority: 'medium',
        action: `Known fix from past incidents: ${clip(p.solution, 240)}`,
      });
  } else {
    const pods = focusObjects.filter((o) => o.kind === 'pod');
    const seenWhat = focusObjects.length
      ? `${pods.length ? `${pods.filter((p) => !isUnhealthy(p, now)).length}/${pods.length} pods of ${label} are running and ready` : `${focusObjects.length} object(s) of ${label} look healthy`}`
      : scope.subjects.length
        ? `no object named ${scope.subjects.map((s) => s.name).join(', ')} was found with the tools available`
        : `${model.objects.size} object(s) checked`;
    description = `${NO_PROBLEM}: ${seenWhat}; no failing containers, warning events or error logs point at a fault in the data gathered.`;
    const superseded = supersededNote(model, focusObjects);
    if (superseded) description += ` ${superseded}`;
    confidence = focusObjects.length || (!scope.subjects.length && model.objects.size) ? 20 : 10;
    if (question) confidence = 70;
    headline = NO_PROBLEM;
    // nothing read because every tool that could read the cluster declares it can change it: say
    // so, rather than "no problem found"
    const blocked = refusedTools.filter((p) => p.kube);
    if (!kubeReadable && !model.objects.size && blocked.length) {
      headline = 'Could not investigate';
      description = `${headline}: no cluster data was gathered. The ${blocked.length} Kubernetes tool(s) of the team's tool servers (${blocked
        .slice(0, 5)
        .map((p) => p.tool.fullName)
        .join(
          ', ',
        )}${blocked.length > 5 ? ', ...' : ''}) declare that they can change the cluster (${blocked[0]!.safetyReason}), and an investigation calls read-only tools only; nothing is known about ${scope.subjects.length ? scope.subjects.map((s) => s.name).join(', ') : 'the incident'}.`;
      confidence = 0;
      recs.unshift({
        priority: 'high',
        action:
          'Register a tool server whose read tools are marked read-only (MCP annotation readOnlyHint: true), or run this server in its read-only mode if it marks its tools accordingly.',
      });
    }
    evidence.push(`${toolCalls} tool call(s): ${seenWhat}`);
    recs.push({
      priority: 'low',
      action: focusObjects.length
        ? `If users still see a problem, widen the time window or check the dependencies of ${label} and its metrics.`
        : 'Check the name and namespace of the service, or add a tool server that can see it.',
    });
  }
  if (refused.length)
    evidence.push(
      `read-only: ${refused.length} tool(s) that can change systems were not called (${refused.slice(0, 5).join(', ')})`,
    );
  // authored runbooks only (never generated incidents or tree summaries)
  for (const c of knowledge.runbooks
    .filter((c) => c.type === 'runbook' || c.type === 'procedure' || c.type === 'remediation')
    .filter((c) => !/^summary of/i.test(c.title ?? ''))
    .slice(0, 1))
    if (
      top &&
      (c.content.toLowerCase().includes(top.f.entry.class.split('_')[0]!) ||
        (c.title ?? '').toLowerCase().includes(subjectName))
    )
      recs.push({
        priority: 'medium',
        action: `Follow the runbook "${clip(c.title ?? c.content, 80)}".`,
      });

  const summaryParts = [] as string[];
  if (question) summaryParts.push(question);
  // the summary is the headline and the cause's first sentence; the details stay in root_cause
  const firstSentence = (t: string) => {
    const m = /^(.*?[.!?])(\s|$)(?=[A-Z(]|$)/.exec(t);
    return clip(m?.[1] ?? t, 400);
  };
  // without a cause the description already starts with the headline ("No problem found: ...")
  summaryParts.push(top ? `${headline}: ${firstSentence(description)}` : description);
  const summary = clip(summaryParts.join(' '), 1500);
  if (question) description = `${question} ${description}`;
  const recommendations = dedupe(recs, (r) => r.action.toLowerCase())
    .sort((a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority])
    .slice(0, 6);
  const affected = dedupe(
    [
      ...(top
        ? [
            top.f.entry.class === 'node_not_ready' || top.f.entry.id === 'node_pressure'
              ? (top.f.object?.name ?? subjectName)
              : subjectName,
          ]
        : []),
      ...focusObjects
        .filter((o) => isUnhealthy(o, now) && o.kind !== 'node')
        .map((o) => model.workloadOf(o).name),
      ...(run.context.service && top ? [run.context.service] : []),
    ].filter(Boolean),
    (x) => x,
  ).slice(0, 6);
  return {
    summary,
    root_cause: {
      description: clip(description, 2000),
      confidence,
      evidence: dedupe(evidence, sameFact).slice(0, 10),
    },
    timeline: timeline(
      model,
      scored.map((x) => x.f),
      focus,
      firstError,
      now,
      scope,
    ),
    affected_systems: affected,
    recommendations,
  };
}

/** two evidence lines say the same when they differ only in timestamps, pod hashes and counts */
function sameFact(e: string): string {
  return e
    .replace(/\d{4}-\d{2}-\d{2}[T ][\d:.]+Z?/g, '')
    .replace(/-[a-z0-9]{6,10}-[a-z0-9]{5}\b/g, '-*')
    .replace(/\b\d+\b/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Upper-cases the first letter, unless the sentence starts with a resource name. */
function capital(s: string, name?: string) {
  if (name && s.startsWith(name)) return s;
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/**
 * A pod whose image reference is the same as its siblings' but resolved to another digest: the
 * tag was pushed again (a moving tag like :stable or :latest) and this pod pulled the new build
 * when it started (imagePullPolicy Always, or a node that had not cached the old one).
 */
const MOVING_TAG =
  /^(?:latest|stable|main|master|develop|dev|prod|production|staging|release|edge|nightly|current|live|lts)$/i;

function movedTag(pod: ObjectView, siblings: ObjectView[]): string {
  const digest = (id?: string) => /sha256:[0-9a-f]{12}/.exec(id ?? '')?.[0];
  for (const c of pod.containers) {
    const mine = digest(c.imageID);
    // only a tag meant to move (latest, stable, main...): a version tag is pushed once
    if (!c.image) continue;
    const tag = /:([\w.-]+)$/.exec(c.image.replace(/^[^/]+\/(?=.*\/)/, ''))?.[1] ?? 'latest';
    if (!mine || /@sha256:/.test(c.image) || !MOVING_TAG.test(tag)) continue;
    const others = siblings
      .filter((p) => p !== pod)
      .flatMap((p) => p.containers.filter((x) => x.name === c.name && x.image === c.image))
      .map((x) => digest(x.imageID))
      .filter((d): d is string => !!d);
    const other = others.find((d) => d !== mine);
    if (!other || others.includes(mine)) continue;
    return ` Its image ${c.image} resolved to ${mine}… while the other pods run ${other}… under the same tag: the tag was pushed again (a moving tag) and this pod pulled the new build when it started (imagePullPolicy Always, or a new node); pin the image by digest or an immutable tag.`;
  }
  return '';
}

/**
 * With feature_flags.enable_write_actions and enable_auto_mitigation both on, a rollback
 * recommendation carries the team's rollback tool call, filled in, for a person to run. The
 * investigation never runs it (API-DECISIONS: investigations are read-only).
 */
function proposedRollback(
  run: EngineRun,
  writeTools: ToolProfile[],
  workload: string,
  namespace: string | undefined,
): { proposed_action?: { tool: string; parameters: Record<string, unknown> } } {
  const flags = (run.effective['feature_flags'] ?? {}) as Record<string, unknown>;
  if (flags['enable_write_actions'] !== true || flags['enable_auto_mitigation'] !== true) return {};
  for (const p of writeTools) {
    if (!/rollback|roll_back|undo/.test(p.tool.name.toLowerCase())) continue;
    const params: Record<string, unknown> = {};
    const set = (role: keyof ToolProfile['params'], v: unknown) => {
      const name = p.params[role];
      if (name && v !== undefined) params[name] = v;
    };
    if (p.params.kind) set('kind', kindValue(p, 'deployment') ?? 'deployment');
    set('name', workload);
    set('workload', workload);
    set('namespace', namespace);
    if (p.required.every((r) => params[r] !== undefined))
      return { proposed_action: { tool: p.tool.fullName, parameters: params } };
  }
  return {};
}

/** A learned pattern counts only when this run's decisive fact matches it. */
function patternMatches(p: LearnedPatternView, f: Finding): boolean {
  const text = `${p.symptoms.join(' ')} ${p.rootCause}`.toLowerCase();
  const words = [
    f.entry.class.replace(/_/g, ' '),
    ...Object.values(f.groups),
    f.entry.class.replace(/_/g, ''),
    ...(`${f.fact} ${f.entry.title}`.match(/[A-Za-z][A-Za-z_]{5,}/g) ?? []).filter(
      (w) => /[A-Z]/.test(w.slice(1)) || w.includes('_'),
    ),
  ]
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 3);
  return words.some((w) => text.includes(w));
}

/** a record that reports no success: a warning level, or a 5xx answer */
const NOT_OK = /"level"\s*:\s*(?:4\d|"warn(?:ing)?")|\blevel=warn|\bWARN(?:ING)?\b|\s5\d\d\b/;

/**
 * A failed pod of a Job that another of its pods then completed (the Job retried and
 * succeeded): its failure is history.
 */
function jobRetrySucceeded(pod: ObjectView, model: ClusterModel): boolean {
  if (!/Failed|Error|BackoffLimit|OOM|Evicted/i.test(`${pod.status ?? ''} ${pod.reason ?? ''}`))
    return false;
  const jobName =
    pod.owner?.kind === 'job' ? pod.owner.name : /^(.+)-[a-z0-9]{5}$/.exec(pod.name)?.[1];
  if (!jobName) return false;
  const job = model.get('job', jobName, pod.namespace);
  if (job?.fields['completionTime']) return true;
  return model.list('pod', pod.namespace).some(
    (p) =>
      p !== pod &&
      p.namespace === pod.namespace &&
      p.name.startsWith(`${jobName}-`) &&
      p.name.length === pod.name.length &&
      hasCompleted(p) &&
      // a listing that shows no creation time (a server's small row): a pod of the same Job
      // run that completed
      (p.created === undefined || p.created >= (pod.created ?? 0)),
  );
}

/**
 * A probe refused on a port the container declares, by a container that last exited on its own
 * (an error exit, not the kubelet's kill: 137 / 143): nothing listens there because the process
 * died, not because the probe has the wrong port; the crash says why.
 */
function refusedWhileCrashing(f: Finding, model: ClusterModel): boolean {
  if (f.entry.id !== 'probe_refused' || f.object?.kind !== 'pod') return false;
  const pod = model.get('pod', f.object.name, f.object.namespace);
  const port = /:(\d+)(?:\/|$)/.exec(f.groups['url'] ?? '')?.[1];
  return !!(
    port &&
    pod?.containers.some(
      (c) =>
        c.ports.includes(port) &&
        c.last?.exitCode !== undefined &&
        c.last.exitCode !== 0 &&
        c.last.exitCode !== 137 &&
        c.last.exitCode !== 143,
    )
  );
}

/** a pod Running with every container ready (as its listing or its whole object says) */
function readyNow(o: ObjectView): boolean {
  if (o.status !== 'Running') return false;
  const listed = /^(\d+)\/(\d+)$/.exec(o.fields['ready'] ?? '');
  if (listed) return listed[1] === listed[2];
  return o.containers.length > 0 && o.containers.every((c) => c.ready && !c.waiting);
}

/** Failures that do not end by themselves, and the line that says they did end. */
const LATCHED: Record<string, RegExp> = {
  mysql_replica_sql_stopped:
    /(?:Replica|Slave) SQL thread (?:for channel '[^']*' )?initialized, starting replication|START (?:REPLICA|SLAVE)\b/i,
  // a GitOps controller retries a failed apply until the limit, then waits for a new revision:
  // the failure holds until a later apply succeeds
  apply_field_immutable:
    /Sync operation to \S+ succeeded|Reconciliation finished|server-side apply completed|Applied revision/i,
  // r28a: a volume Velero could not snapshot stays without a backup until a later run snapshots
  // again (a nightly backup's error is hours old when someone asks)
  velero_csi_snapshot_timeout: /Created VolumeSnapshot\b/,
  // r28a: the same for a StatefulSet spec change the API server forbids
  apply_statefulset_spec_forbidden:
    /Sync operation to \S+ succeeded|Reconciliation finished|server-side apply completed|Applied revision/i,
  // etcd refuses writes until its NOSPACE alarm is disarmed
  etcd_space_exceeded:
    /alarm disarmed|action:DEACTIVATE[^\n]*NOSPACE|"alarm":"NOSPACE"[^\n]*deactivat/i,
};

/**
 * A finding that no longer holds: on a pod that is running and ready now, from more than 30
 * minutes ago (or a probe failure, which a ready pod no longer has).
 */
function resolved(f: Finding, model: ClusterModel, now: number): boolean {
  const o = f.object ? model.get(f.object.kind, f.object.name, f.object.namespace) : undefined;
  // a node that went NotReady (an event) and is Ready again: a reboot that is over
  if (o?.kind === 'node')
    return (
      f.entry.class === 'node_not_ready' &&
      f.where === 'event' &&
      /^Ready\b/.test(o.status ?? '') &&
      !isUnhealthy(o, now)
    );
  // a failed run of a CronJob whose later runs all completed (r27a)
  if (o && f.entry.class !== 'node_not_ready' && supersededObject(o, model)) return true;
  // r31b: rejections of a ReplicaSet the Deployment has since replaced by a ready revision
  if (rolledPastReplicaSet(f, model, now)) return true;
  if (!o || o.kind !== 'pod') return false;
  if (jobRetrySucceeded(o, model)) return true;
  if (evictedAndReplaced(o, f, model, now)) return true;
  // a pod the scheduler could not place, placed since: that FailedScheduling is over
  if (/^(?:sched_|failed_scheduling$)/.test(f.entry.id) && f.where === 'event' && o.node)
    return true;
  if (isUnhealthy(o, now) || !o.status) return false;
  if (f.entry.class === 'probe_failure') return true;
  // an event the tool gave without any time (a server that drops them), on a pod that is
  // running and ready now: it says what once happened, not what is happening
  if (f.where === 'event' && f.at === undefined && !f.groups['last'] && readyNow(o)) return true;
  // a skewed clock writes times far in the past: they say nothing about when it happened
  if (f.entry.id === 'clock_skew') return false;
  // a failure that stays until someone acts (a replica's stopped SQL thread): over only when the
  // log shows it started again
  const restart = LATCHED[f.entry.id];
  if (restart)
    return model.logs.some(
      (l) =>
        l.pod === o.name &&
        l.lines.some((x) => x.at !== undefined && x.at > (f.at ?? 0) && restart.test(x.text)),
    );
  // a repeated error is history only when its last record is
  const at = f.groups['last'] ? Date.parse(f.groups['last']) : f.at;
  if (at === undefined || now - at <= 30 * 60_000) return false;
  // ... unless the same error keeps coming back up to the end of the running container's log: a
  // service called every half hour whose every call failed since has not recovered
  // (a pod that never restarted has no previous container: what a tool returned for it is current)
  const current = model.logs.filter(
    (l) => l.pod === o.name && (!l.previous || !o.restarts) && l.lines.length,
  );
  const same = f.entry.text
    ? new RegExp(f.entry.text, f.entry.caseSensitive ? '' : 'i')
    : undefined;
  const repeats = current.some((l) => {
    // the records with a time (a tool's own trailer, a stack frame are none)
    const tail = l.lines.filter((x) => x.at !== undefined).slice(-3);
    return (
      !!same &&
      tail.some((x) => x.level === 'error' && same.test(x.text)) &&
      tail.every((x) => x.level === 'error' || x.level === 'warn' || NOT_OK.test(x.text)) &&
      l.lines.filter((x) => x.level === 'error' && same.test(x.text)).length >= 2 &&
      !burstLongOver(l, same, model, now)
    );
  });
  return !repeats;
}

/**
 * A burst of the same error that stopped long ago: a component that logs only its errors (CoreDNS's
 * errors plugin, a proxy) ends its log with them, yet once the silence since the last one is many
 * times longer than the spacing of the burst (and an hour at least) the calls stopped failing,
 * and the clients say so.
 */
function burstLongOver(l: LogView, same: RegExp, model: ClusterModel, now: number): boolean {
  const times = l.lines
    .filter((x) => x.at !== undefined && x.level === 'error' && same.test(x.text))
    .map((x) => x.at!)
    .sort((a, b) => a - b);
  if (times.length < 2) return false;
  const last = times[times.length - 1]!;
  let gap = 0;
  for (let i = 1; i < times.length; i++) gap = Math.max(gap, times[i]! - times[i - 1]!);
  if (now - last < Math.max(4 * gap, 3600_000)) return false;
  // a client logs a record that reports no failure after the burst, or a client that failed in
  // it belongs to a Job whose retry completed since
  const first = times[0]!;
  return model.logs.some((o) => {
    if (o.pod === l.pod || o.previous) return false;
    const lines = o.lines.filter((x) => x.at !== undefined && x.at <= now);
    if (
      lines.some(
        (x) => x.at! > last && x.level !== 'error' && x.level !== 'warn' && !NOT_OK.test(x.text),
      )
    )
      return true;
    const pod = o.pod ? model.get('pod', o.pod, o.namespace) : undefined;
    return (
      !!pod &&
      lines.some(
        (x) => x.level === 'error' && x.at! >= first - 5 * 60_000 && x.at! <= last + 5 * 60_000,
      ) &&
      jobRetrySucceeded(pod, model)
    );
  });
}

/**
 * Pods of a StatefulSet that stay Terminating on a node that stopped answering: the kubelet
 * never confirms their deletion, and a StatefulSet starts no second pod of the same identity, so
 * nothing replaces them until the node is back, its Node object deleted, or the pod force-deleted.
 */
function stuckTerminating(model: ClusterModel, node: string, now: number): string {
  const o = model.get('node', node);
  if (!o || !isUnhealthy(o, now)) return '';
  const stuck = model
    .list('pod')
    .filter(
      (p) =>
        p.node === node &&
        (p.fields['terminating'] === 'true' || /^Terminating\b/.test(p.status ?? '')) &&
        model.workloadOf(p).kind === 'statefulset',
    );
  if (!stuck.length) return '';
  const names = stuck.slice(0, 4).map((p) => `${p.name} (StatefulSet ${model.workloadOf(p).name})`);
  return ` ${names.join(', ')} ${stuck.length > 1 ? 'are' : 'is'} stuck Terminating on ${node}: its kubelet cannot confirm the deletion, and a StatefulSet never starts a second pod of the same identity (at most one), so no replacement comes. Once the node is known to be down, delete the Node object or force-delete the pod (kubectl delete pod --force --grace-period=0).`;
}

/**
 * A claim grown while its pod runs: the volume is bigger, but the kubelet grows the file system
 * only when a pod mounts it again (FileSystemResizePending), so the disk stays full until then.
 */
function resizePending(
  model: ClusterModel,
  ns: string | undefined,
): { text: string; fix: string } | undefined {
  const claims = model.list('persistentvolumeclaim', ns);
  const byCondition = claims.find((c) =>
    c.conditions.some((x) => x.type === 'FileSystemResizePending' && x.status === 'True'),
  );
  const byEvent = model.events.find(
    (e) =>
      /^FileSystemResize(?:Required|Pending)$/.test(e.reason ?? '') &&
      (!ns || !e.namespace || e.namespace === ns),
  );
  const name = byCondition?.name ?? byEvent?.object?.name;
  if (!name) return undefined;
  const claim = byCondition ?? claims.find((c) => c.name === name);
  const cond = claim?.conditions.find((x) => x.type === 'FileSystemResizePending');
  // what the claim asks (its spec) against what it has (its status); a table's CAPACITY is only
  // the latter
  const asked = claim?.fields['storageRequest'];
  const actual = claim?.fields['storageCapacity'];
  const pods = model
    .list('pod', ns)
    .filter(
      (p) =>
        (p.fields['claims'] ?? '').split(',').includes(name) ||
        // a StatefulSet's claim is named <template>-<pod>
        (p.fields['claims'] === undefined && name.endsWith(`-${p.name}`)),
    )
    .map((p) => p.name);
  const sizes =
    asked && actual && asked !== actual
      ? ` (it asks for ${asked}, its file system is still ${actual})`
      : '';
  const quoted = cond?.message ?? byEvent?.message;
  return {
    text: `The claim ${name} was grown${sizes}, but the file system resize is pending until a pod mounts it again (FileSystemResizePending${quoted ? `: "${clip(quoted, 160)}"` : ''}), so ${pods.length ? pods.join(', ') : 'its pod'} still sees the old, full volume.`,
    fix: `Restart ${pods.length ? pods.join(', ') : `the pod that mounts ${name}`} (delete the pod; its controller recreates it) so the kubelet finishes the file system resize of ${name}, then check the free space inside it.`,
  };
}

/**
 * A crashing workload whose image a healthy workload of its namespace runs too: the code is the
 * same, so what differs in their environment (variables, and the ConfigMaps they load when those
 * were read) is the suspect. "quote-api-canary crashes while quote-api runs the same image and is
 * healthy; they differ in FEATURE_X: true (ConfigMap a) against false (ConfigMap b)."
 */
function twinDifference(
  model: ClusterModel,
  focus: ObjectView[],
  workload: string,
  now: number,
): string | undefined {
  const pair = healthyTwins(
    model,
    focus.filter((o) => model.workloadOf(o).name === workload || o.name === workload),
    now,
  )[0];
  if (!pair) return undefined;
  const settings = (p: ObjectView) => {
    const out = new Map<string, string>();
    for (const c of p.containers.filter((x) => !x.init)) {
      for (const map of configMapsOf(c)) {
        for (const [k, v] of Object.entries(
          jsonField(model.get('configmap', map, p.namespace), 'data'),
        ))
          out.set(k, `${k}=${String(v)} (ConfigMap ${map})`);
      }
      for (const [k, v] of Object.entries(c.env)) out.set(k, `${k}=${v}`);
    }
    return out;
  };
  const a = settings(pair.failing);
  const b = settings(pair.healthy);
  const diffs = [...new Set([...a.keys(), ...b.keys()])]
    .filter((k) => (a.get(k) ?? '').split(' (')[0] !== (b.get(k) ?? '').split(' (')[0])
    .slice(0, 4)
    .map((k) => `${a.get(k) ?? `no ${k}`} against ${b.get(k) ?? `no ${k}`}`);
  const failing = model.workloadOf(pair.failing).name;
  const healthy = model.workloadOf(pair.healthy).name;
  const image = pair.failing.containers.find((c) => !c.init)?.image;
  const maps = (p: ObjectView) => p.containers.flatMap(configMapsOf);
  const mapsDiffer = maps(pair.failing).join() !== maps(pair.healthy).join();
  if (!diffs.length && !mapsDiffer) return undefined;
  return `${failing} crashes while ${healthy} runs the same image${image ? ` (${image})` : ''} and is healthy, so the code is the same and their configuration is the suspect: ${
    diffs.length
      ? `they differ in ${diffs.join('; ')}`
      : `${failing} loads ConfigMap ${maps(pair.failing).join(', ')} where ${healthy} loads ${maps(pair.healthy).join(', ') || 'none'}`
  }.`;
}

/** The words around a token of a long log line (up to 100 characters before it, 40 after). */
function aroundToken(line: string, token: RegExp): string {
  const m = token.exec(line);
  if (!m) return clip(line, 160);
  const from = Math.max(0, m.index - 100);
  const start = from ? line.indexOf(' ', from) + 1 || from : 0;
  const end = Math.min(line.length, m.index + m[0].length + 40);
  return `${start ? '…' : ''}${line.slice(start, end).trim()}${end < line.length ? '…' : ''}`;
}

/**
 * A Deployment scaled up (not a rollout: "from 4 to 16") in the two hours before the first
 * error, the latest first: more replicas are more clients of what they share.
 */
function recentScaleUp(
  model: ClusterModel,
  firstError: number,
): { workload: string; from: number; to: number; at: number } | undefined {
  if (!Number.isFinite(firstError)) return undefined;
  const ups: { workload: string; from: number; to: number; at: number }[] = [];
  for (const e of model.events) {
    const at = e.first ?? e.last;
    if (e.reason !== 'ScalingReplicaSet' || at === undefined) continue;
    if (at > firstError + 60_000 || at < firstError - 2 * 3600_000) continue;
    const a = /Scaled up replica set (\S+) from (\d+) to (\d+)/.exec(e.message);
    const b = a ? undefined : /Scaled up replica set (\S+) to (\d+) from (\d+)/.exec(e.message);
    const rs = (a ?? b)?.[1];
    if (!rs) continue;
    const from = Number(a ? a[2] : b![3]);
    const to = Number(a ? a[3] : b![2]);
    const workload = stripHash(rs);
    if (!(from > 0 && to > from)) continue;
    ups.push({ workload, from, to, at });
  }
  return ups.sort((a, b) => b.at - a.at)[0];
}

/** An eviction this long ago, replaced since by pods that all run, is history. */
const EVICTION_HISTORY_MS = 6 * 3600_000;

/**
 * A pod the kubelet evicted hours ago stays listed (Failed, Evicted) until someone deletes it or
 * the garbage collector does; when every pod its workload runs now is healthy and some started
 * after it, the eviction is over (the node's pressure is a finding of its own).
 */
function evictedAndReplaced(pod: ObjectView, f: Finding, model: ClusterModel, now: number) {
  if (!/\bEvicted\b/.test(`${pod.reason ?? ''} ${pod.status ?? ''}`)) return false;
  // when it was evicted: the finding's time, else when its containers ended, else its Evicted
  // event; its creation says nothing about that, so without a time it is not history
  const ended = Math.max(
    -Infinity,
    ...pod.containers.map((c) => c.terminated?.at ?? c.last?.at ?? -Infinity),
    ...model.events
      .filter((e) => e.object?.name === pod.name && e.reason === 'Evicted')
      .map((e) => e.last ?? e.first ?? -Infinity),
  );
  const at = f.at ?? (Number.isFinite(ended) ? ended : undefined);
  if (at === undefined || now - at < EVICTION_HISTORY_MS) return false;
  const w = model.workloadOf(pod);
  if (!w.kind || w.name === pod.name) return false;
  const others = model
    .podsOf(w.kind, w.name, pod.namespace)
    .filter(
      (p) => p.name !== pod.name && !/\bEvicted\b/.test(`${p.reason ?? ''} ${p.status ?? ''}`),
    );
  return (
    others.length > 0 &&
    others.every((p) => !isUnhealthy(p, now)) &&
    others.some((p) => p.created !== undefined && p.created > at)
  );
}

/** The last error line a crashing container wrote (its previous logs first). */
function lastError(model: ClusterModel, f: Finding): string | undefined {
  const pods = new Set(
    model
      .list('pod', f.object?.namespace)
      .filter((p) => model.workloadOf(p).name === f.workload || p.name === f.object?.name)
      .map((p) => p.name),
  );
  const logs = model.logs
    .filter((l) => l.pod && pods.has(l.pod))
    .sort((a, b) => Number(b.previous) - Number(a.previous));
  // a pull that fails has no logs: the registry's answer is in the kubelet's event
  if (f.entry.class === 'image_pull') {
    const pulls = model.events
      .filter((e) => e.object && pods.has(e.object.name) && /Failed to pull image/.test(e.message))
      .sort((a, b) => (b.last ?? b.first ?? 0) - (a.last ?? a.first ?? 0));
    return pulls[0] ? registryAnswer(pulls[0].message) : undefined;
  }
  for (const l of logs) {
    const errors = l.lines.map((x) => x.level === 'error');
    let last = errors.lastIndexOf(true);
    // no error-level record: an uncaught error the runtime printed ("ReplyError: ..." at the margin)
    if (last < 0 && l.previous) last = l.lines.map((x) => THROWN.test(x.text)).lastIndexOf(true);
    if (last < 0) continue;
    const i = thrownAt(l.lines, last);
    const line = l.lines[i]!.text;
    // "cannot reach ERP, exiting": the error record just before says why
    const before = errors.lastIndexOf(true, i - 1);
    if (EXITING.test(errorMessage(line)) && before >= 0 && before >= i - 10)
      return `${errorMessage(l.lines[before]!.text)}; then: ${errorMessage(line)}`;
    // PostgreSQL writes why on the next record: "FATAL: database files are incompatible with
    // server" then "DETAIL: The data directory was initialized by PostgreSQL version 15, ..."
    const detail = /\b(?:FATAL|ERROR|PANIC):/.test(line)
      ? /\bDETAIL:\s+(.*)$/.exec(l.lines[i + 1]?.text ?? '')?.[1]
      : undefined;
    return detail ? `${line} (DETAIL: ${detail})` : line;
  }
  return undefined;
}

const STACK_FRAME = /^\s+at \S/;
/** an error a runtime printed uncaught, at the margin: "ReplyError: CROSSSLOT ...", "KeyError: 'x'" */
const THROWN = /^[A-Z][\w.]*(?:Error|Exception)(?::\s|$)/;
/** a last record that only says the process gives up, not why */
const EXITING =
  /^[^:]{0,60}\b(?:exiting|exit(?:ing)? now|shutting down|giving up|aborting|terminating)\b[^:]*$/i;
/** a line that goes on a record: a stack frame, an indented field of a dumped object, a brace */
const RECORD_GOES_ON = /^(?:\s|[{}\])]|$)/;

/**
 * The line of the error thrown when the last error-level line only belongs to its dump: Node
 * prints an uncaught error's "MongoServerError: …" line, its stack, then the error object's
 * fields (`errmsg: '…'`, `code: 292`). The line a stack follows heads that record.
 */
function thrownAt(lines: { text: string }[], last: number): number {
  // kubectl logs --timestamps puts the time before each line
  const body = (i: number) => (lines[i]?.text ?? '').replace(LINE_STAMP, '');
  for (let h = last; h >= 0 && h >= last - 80; h--) {
    const goesOn = RECORD_GOES_ON.test(body(h));
    if (!goesOn && STACK_FRAME.test(body(h + 1))) return h;
    if (h < last && !goesOn) return last;
  }
  return last;
}

/**
 * What the registry or runtime answered, from `Failed to pull image "x": rpc error: code = Unknown
 * desc = failed to resolve reference "x": failed to do request: Head "https://…": http: server
 * gave HTTP response to HTTPS client`: the words after the last quoted reference.
 */
export function registryAnswer(message: string): string {
  const at = message.lastIndexOf('": ');
  const tail = at >= 0 ? message.slice(at + 3).trim() : '';
  return tail.length >= 12 ? tail : message;
}

/** "10.96.140.81:5432" / "pricing-api.pricing.svc.cluster.local" -> the Service and what backs it. */
function dependencyDetail(
  model: ClusterModel,
  vars: Record<string, string>,
): { text: string; workload?: string } | undefined {
  const host = hostOf(vars);
  if (!host) return undefined;
  const bare = host.replace(/:\d+$/, '');
  const ip = /^\d+\.\d+\.\d+\.\d+$/.test(bare) ? bare : undefined;
  const [name, ns] = ip ? [undefined, undefined] : bare.split('.');
  const svc = model
    .list('service')
    .find((s) =>
      ip
        ? s.fields['clusterIP'] === ip
        : s.name === name && (!ns || ns === 'svc' || !s.namespace || s.namespace === ns),
    );
  if (!svc) return undefined;
  // an ExternalName Service is only a DNS alias (CNAME): the name it points at must resolve
  if (svc.fields['externalName'])
    return {
      text: `${host} is the Service ${svc.name}${svc.namespace ? ` (namespace ${svc.namespace})` : ''} of type ExternalName, an alias (CNAME) for ${svc.fields['externalName']}: when that name does not resolve (a host decommissioned or renamed), neither does the Service.`,
    };
  const backing = backingWorkload(model, svc);
  let detail = `${host} is the Service ${svc.name}${svc.namespace ? ` (namespace ${svc.namespace})` : ''}`;
  if (backing) {
    const [readyN, wantN] = (backing.fields['ready'] ?? '').split('/');
    const want = Number(
      backing.fields['replicas'] ?? backing.fields['status.replicas'] ?? wantN ?? NaN,
    );
    const ready = Number(
      backing.fields['status.availableReplicas'] ??
        backing.fields['status.readyReplicas'] ??
        readyN ??
        NaN,
    );
    if (want === 0)
      detail += `: ${backing.kind} ${backing.name} is scaled to 0 replicas, so it has no endpoints`;
    else if (Number.isFinite(ready) && ready === 0)
      detail += `: ${backing.kind} ${backing.name} has 0 ready replicas (no endpoints)`;
    else detail += `, backed by ${backing.kind} ${backing.name}`;
  }
  return { text: `${detail}.`, workload: backing?.name };
}

/** "image a:1 -> a:2, env DB_POOL_SIZE 20 -> 200" between two ReplicaSets' pod templates */
function templateDiff(before: ObjectView, after: ObjectView): string | undefined {
  const out: string[] = [];
  const b = before.images[0];
  const a = after.images[0];
  if (a && b && a !== b) out.push(`image ${b} -> ${a}`);
  const envOf = (o: ObjectView) =>
    Object.assign({}, ...o.containers.map((c) => c.env)) as Record<string, string>;
  const eb = envOf(before);
  const ea = envOf(after);
  for (const k of new Set([...Object.keys(eb), ...Object.keys(ea)])) {
    if (k.startsWith('__') || eb[k] === ea[k]) continue;
    out.push(`env ${k} ${eb[k] ?? '(unset)'} -> ${ea[k] ?? '(unset)'}`);
  }
  // a changed checksum annotation: the configuration it hashes changed (a ConfigMap or Secret)
  const notes = (o: ObjectView) =>
    JSON.parse(o.fields['templateAnnotations'] ?? '{}') as Record<string, string>;
  const nb = notes(before);
  const na = notes(after);
  const changed = [...new Set([...Object.keys(nb), ...Object.keys(na)])].filter(
    (k) => nb[k] !== na[k] && !/revision|deployment\.kubernetes\.io/.test(k),
  );
  if (changed.length) {
    const sources = [
      ...new Set(
        after.containers.flatMap((c) =>
          c.envRefs.flatMap((r) => {
            const m = /\b(configmap|secret) ([\w.-]+)/.exec(r);
            return m ? [`${m[1] === 'configmap' ? 'ConfigMap' : 'Secret'} ${m[2]}`] : [];
          }),
        ),
      ),
    ];
    out.push(
      changed.some((k) => /checksum|config|secret|hash/i.test(k))
        ? `a configuration change (pod template annotation ${changed.join(', ')} changed${sources.length ? `; configuration from ${sources.slice(0, 3).join(', ')}` : ''})`
        : `pod template annotation ${changed.join(', ')} changed`,
    );
  }
  return out.length ? out.slice(0, 4).join(', ') : undefined;
}

/**
 * The image a ReplicaSet runs: its pods' or its own, else what the kubelet pulled for its pods
 * (`Successfully pulled image "shop/api:2.4.0"`), when listings showed no image.
 */
function imageOfReplicaSet(
  model: ClusterModel,
  rs: string,
  ns: string | undefined,
): string | undefined {
  const own = (name: string) => name.startsWith(`${rs}-`);
  // the app's own container, not an injected sidecar or an init container
  const main = (o: ObjectView | undefined) => {
    const cs = (o?.containers ?? []).filter((c) => !c.init && c.image);
    return (cs.find((c) => rs.startsWith(`${c.name}-`)) ?? cs[0])?.image ?? o?.images[0];
  };
  const fromObjects =
    main(model.list('pod', ns).find((p) => own(p.name) && p.images[0])) ??
    main(model.get('replicaset', rs, ns));
  if (fromObjects) return fromObjects;
  for (const e of model.events)
    if (e.object && own(e.object.name) && /^Pull/.test(e.reason ?? '')) {
      const img = /image "([^"]+)"/.exec(e.message)?.[1];
      if (img) return img;
    }
  return undefined;
}

/** A rollout of the workload shortly before the first error. */
function recentChange(
  model: ClusterModel,
  workload: string,
  ns: string | undefined,
  firstError: number,
): { at: number; what: string; source: string } | undefined {
  if (!Number.isFinite(firstError) || !workload) return undefined;
  const changes: { at: number; what: string; source: string }[] = [];
  const rss = model
    .list('replicaset', ns)
    .filter((r) => model.workloadOf(r).name === workload && r.created);
  if (rss.length > 1) {
    const [newest, previous] = rss.sort((a, b) => (b.created ?? 0) - (a.created ?? 0)) as [
      ObjectView,
      ObjectView,
    ];
    const diff = templateDiff(previous, newest);
    changes.push({
      at: newest.created!,
      what: `${imageOfReplicaSet(model, newest.name, ns) ?? newest.name}${diff ? ` (${diff})` : ''}${newest.fields['changeCause'] ? ` (${newest.fields['changeCause']})` : ''}`,
      source: newest.source,
    });
  }
  const revs = model.list('revision', ns).filter((r) => r.owner?.name === workload && r.created);
  if (revs.length > 1) {
    const newest = revs.sort((a, b) => (b.created ?? 0) - (a.created ?? 0))[0]!;
    changes.push({
      at: newest.created!,
      what: `${newest.images[0] ?? `revision ${newest.fields['revision']}`}${newest.fields['changeCause'] ? ` (${newest.fields['changeCause']})` : ''}`,
      source: newest.source,
    });
  }
  for (const e of model.events)
    if (
      e.reason === 'ScalingReplicaSet' &&
      // a new ReplicaSet scaled up from nothing is a rollout; "to 6 from 4" is only a scale
      /Scaled up/.test(e.message) &&
      !/ from [1-9]\d*\b/.test(e.message) &&
      e.message.includes(workload) &&
      (e.last ?? e.first)
    ) {
      const m = /\(([^)]+)\)/.exec(e.message);
      const rs = /replica set (\S+)/.exec(e.message)?.[1];
      const img = rs ? imageOfReplicaSet(model, rs, ns) : undefined;
      if (img && !m) {
        changes.push({
          at: (e.first ?? e.last)!,
          what: `${img} (ReplicaSet ${rs})`,
          source: e.source,
        });
        continue;
      }
      changes.push({
        at: (e.first ?? e.last)!,
        what: m?.[1] ?? e.message.replace(/^Scaled up replica set /, ''),
        source: e.source,
      });
    }
  // generic change events ("deployment checkout rolled out image checkout:2.5.0")
  for (const e of model.events) {
    const at = e.first ?? e.last;
    if (e.reason === 'ScalingReplicaSet' || at === undefined) continue;
    if (!CHANGE_WORDS.test(`${e.reason ?? ''} ${e.message}`)) continue;
    if (!e.message.includes(workload) && e.object?.name !== workload) continue;
    const img = /\bimage\s+([\w./:@-]+)|\b([\w./-]+:[\w.-]+)\b/.exec(e.message);
    changes.push({ at, what: img?.[1] ?? img?.[2] ?? clip(e.message, 120), source: e.source });
  }
  return changes
    .filter((c) => c.at <= firstError + 60_000 && c.at >= firstError - CHANGE_WINDOW_MS)
    .sort((a, b) => b.at - a.at)[0];
}

function timeline(
  model: ClusterModel,
  findings: Finding[],
  focus: Set<string>,
  firstError: number,
  now: number,
  scope: Scope,
): InvestigationResultRecord['timeline'] {
  const from = Number.isFinite(firstError) ? firstError - CHANGE_WINDOW_MS : now - 6 * 3600_000;
  const entries: { at: number; event: string }[] = [];
  const relevant = (name?: string) =>
    !scope.subjects.length ||
    !name ||
    focus.has(name) ||
    [...focus].some((f) => name.startsWith(`${f}-`));
  const grouped = new Map<
    string,
    { at: number; last: number; count: number; event: string; objects: Set<string>; of: string }
  >();
  for (const e of model.events) {
    const at = e.first ?? e.last;
    if (at === undefined || at < from || at > now + 60_000) continue;
    if (e.type === 'Normal' && !/ScalingReplicaSet|NodeNotReady|Killing|Evict/.test(e.reason ?? ''))
      continue;
    if (!relevant(e.object?.name)) continue;
    // the same event on each pod of a workload is one line with a count
    const who = e.object ? workloadName(e.object.name) : '';
    const key = `${e.reason}|${who}|${sameFact(e.message.split(e.object?.name ?? '\u0000').join(who))}`;
    const g = grouped.get(key);
    const n = e.count ?? 1;
    if (g) {
      g.count += n;
      g.last = Math.max(g.last, e.last ?? at);
      if (e.object?.name) g.objects.add(e.object.name);
    } else
      grouped.set(key, {
        at,
        last: e.last ?? at,
        count: n,
        // "pods of checkout"
        of: `${(e.object?.kind ?? 'object').toLowerCase()}s of ${who}`,
        objects: new Set(e.object?.name ? [e.object.name] : []),
        event: `${e.reason ?? 'event'} ${e.object ? `${e.object.kind ?? ''}/${e.object.name}`.replace(/^\//, '') : ''}: ${clip(e.message, 200)}`,
      });
  }
  for (const g of grouped.values()) {
    // the count is of every object of the group: say so when it is more than the one named
    const others = g.objects.size - 1;
    const across = others > 0 ? `, on ${g.objects.size} ${g.of}` : '';
    entries.push({
      at: g.at,
      event:
        g.count > 1
          ? `${g.event} (x${g.count}${across}, until ${new Date(g.last).toISOString()})`
          : g.event,
    });
  }
  // one line per distinct log error of a workload (its first occurrence, with a count)
  const logs = new Map<string, { at: number; count: number; event: string }>();
  for (const f of findings) {
    if (f.where !== 'log' || f.at === undefined || f.at < from || !relevant(f.workload)) continue;
    const key = `${f.workload}|${sameFact(f.fact.split(' | ')[0]!)}`;
    const g = logs.get(key);
    if (g) {
      g.count++;
      if (f.at < g.at) g.at = f.at;
    } else
      logs.set(key, {
        at: f.at,
        count: 1,
        event: `log ${f.workload || f.object?.name || ''}: ${clip(f.fact.split(' | ')[0]!, 200)}`,
      });
  }
  for (const g of logs.values())
    entries.push({ at: g.at, event: g.count > 1 ? `${g.event} (x${g.count})` : g.event });
  for (const r of model.list('replicaset'))
    if (r.created && r.created >= from && relevant(model.workloadOf(r).name))
      entries.push({
        at: r.created,
        event: `rollout: ReplicaSet ${r.name} created${r.images[0] ? ` (${r.images[0]})` : ''}`,
      });
  for (const r of model.list('revision'))
    if (r.created && r.created >= from && relevant(r.owner?.name))
      entries.push({
        at: r.created,
        event: `rollout: ${r.owner?.name} revision ${r.fields['revision']}${r.images[0] ? ` (${r.images[0]})` : ''}`,
      });
  const sorted = dedupe(
    entries.sort((a, b) => a.at - b.at),
    (e) => e.event.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, ''),
  );
  const keep =
    sorted.length > 20
      ? [
          ...sorted.filter((e) => /rollout|ScalingReplicaSet/.test(e.event)).slice(-3),
          ...sorted.filter((e) => !/rollout|ScalingReplicaSet/.test(e.event)).slice(0, 17),
        ].sort((a, b) => a.at - b.at)
      : sorted;
  return keep.map((e) => ({ timestamp: new Date(e.at).toISOString(), event: e.event }));
}
