import type { ClusterModel } from './model';
import type { ContainerView, EventView, ObjectView, StateView } from './observe';
import { clip } from './text';

/**
 * Answers to questions about what happened lately (scope.ts activityQuestion): which Jobs failed
 * and why, which pods cannot pull their image, which containers restarted and how each last
 * ended, which Deployments rolled out in a window. Each says what it could not see.
 */

export const iso = (t: number) => new Date(t).toISOString().replace(/\.000Z$/, 'Z');

/** "48 min", "1 h 29 min", "3 days 7 h" */
export function ago(ms: number): string {
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h${min % 60 ? ` ${min % 60} min` : ''}`;
  const d = Math.floor(h / 24);
  return `${d} day${d === 1 ? '' : 's'}${h % 24 ? ` ${h % 24} h` : ''}`;
}

/** "2026-03-10T10:15:00Z (48 min ago)" */
export const at = (t: number, now: number) => `${iso(t)} (${ago(now - t)} ago)`;

const inNamespace = (ns: string | undefined) => (o: { namespace?: string }) =>
  !ns || !o.namespace || o.namespace === ns;

const where = (ns: string | undefined) => (ns ? ` in namespace ${ns}` : '');

/** the newest event about an object (by name, and kind when the event says it) */
export function eventsAbout(model: ClusterModel, o: ObjectView): EventView[] {
  return model.events
    .filter(
      (e) =>
        e.object?.name === o.name &&
        (!e.object.kind || e.object.kind === o.kind) &&
        (!e.namespace || !o.namespace || e.namespace === o.namespace),
    )
    .sort((a, b) => (b.last ?? b.first ?? 0) - (a.last ?? a.first ?? 0));
}

const owner = (model: ClusterModel, o: ObjectView) => {
  const w = model.workloadOf(o);
  return w.name !== o.name ? `${w.kind} ${w.name}` : '';
};

// ---------------------------------------------------------------- Jobs that failed

/** why a Job failed, from its Failed condition (read whole or described) or its events */
const JOB_FAILURE =
  /^(?:BackoffLimitExceeded|DeadlineExceeded|PodFailurePolicy|MaxFailedIndexesExceeded|FailedIndexes)$/;

export interface JobRun {
  job: ObjectView;
  failed: boolean;
  reason?: string;
  message?: string;
  /** when it failed (the condition's time, its event's, else its last pod's end) */
  at?: number;
}

export function jobRun(model: ClusterModel, j: ObjectView): JobRun {
  const cond = j.conditions.find((c) => c.type === 'Failed' && c.status === 'True');
  const event = eventsAbout(model, j).find((e) => JOB_FAILURE.test(e.reason ?? ''));
  const n = (k: string) => Number(j.fields[k] ?? NaN);
  const complete =
    j.conditions.some((c) => c.type === 'Complete' && c.status === 'True') ||
    /^Complete(?:d)?$/i.test(j.status ?? '') ||
    !!j.fields['completionTime'];
  const failed =
    !complete &&
    (!!cond ||
      /^Failed$/i.test(j.status ?? '') ||
      // "Pods Statuses: 0 Active / 0 Succeeded / 3 Failed": nothing left to run
      (n('status.failed') > 0 && n('status.active') === 0 && !(n('status.succeeded') > 0)) ||
      (!!event && !j.conditions.some((c) => c.type === 'Complete')));
  const pods = model.podsOf('job', j.name, j.namespace);
  const lastEnd = Math.max(
    -Infinity,
    ...pods.flatMap((p) => p.containers.map((c) => c.terminated?.at ?? -Infinity)),
  );
  const reason = cond?.reason ?? event?.reason;
  // a deadline ends the Job at start + activeDeadlineSeconds (an event's age is coarser)
  const start = Date.parse(j.fields['startTime'] ?? '');
  const deadline = Number(j.fields['activeDeadlineSeconds'] ?? NaN);
  const byDeadline =
    reason === 'DeadlineExceeded' && Number.isFinite(start) && Number.isFinite(deadline)
      ? start + deadline * 1000
      : undefined;
  return {
    job: j,
    failed,
    reason,
    message: cond?.message ?? event?.message,
    at:
      cond?.at ??
      byDeadline ??
      (Number.isFinite(lastEnd) ? lastEnd : undefined) ??
      event?.last ??
      event?.first,
  };
}

/** a Job's pods, its last attempt first (by when its container ended, else its creation) */
export const newestFirst = (pods: ObjectView[]): ObjectView[] => {
  // a listing's age is coarse ("10h"): when a container's end is known, it tells
  const t = (p: ObjectView) => {
    const end = Math.max(-Infinity, ...p.containers.map((c) => c.terminated?.at ?? -Infinity));
    return Number.isFinite(end) ? end : (p.created ?? -Infinity);
  };
  return [...pods].sort((a, b) => t(b) - t(a));
};

/** the error a pod logged last (its newest error line), else its last line */
export function lastLogged(
  model: ClusterModel,
  pods: ObjectView[],
): { pod: ObjectView; text: string } | undefined {
  for (const p of pods) {
    const logs = model.logs.filter(
      (l) => l.pod === p.name && (!l.namespace || !p.namespace || l.namespace === p.namespace),
    );
    const lines = logs.flatMap((l) => l.lines).filter((x) => x.text.trim());
    const error = [...lines].reverse().find((x) => x.level === 'error');
    const line = error ?? lines[lines.length - 1];
    if (line) return { pod: p, text: line.text.trim() };
  }
  return undefined;
}

/** how a pod's main container ended: "exited 1 (Error)", with its termination message */
function podEnd(p: ObjectView): string | undefined {
  const c =
    p.containers.find((x) => !x.init && x.terminated && x.terminated.exitCode !== 0) ??
    p.containers.find((x) => x.terminated && x.terminated.exitCode !== 0) ??
    p.containers.find((x) => !x.init && x.terminated);
  const st = c?.terminated;
  if (!st) return undefined;
  return `exited ${st.exitCode ?? '?'}${st.reason ? ` (${st.reason})` : ''}${st.message ? `, termination message "${clip(st.message.trim(), 200)}"` : ''}`;
}

/**
 * "which Jobs failed today, and why?": Jobs of the namespace whose Failed condition (or failure
 * event) falls in the window, with the reason (BackoffLimitExceeded: what its last pod logged
 * and how it exited; DeadlineExceeded: the deadline it ran past). Jobs that completed after a
 * retry and Jobs that failed before the window are said apart.
 */
export function failedJobs(
  model: ClusterModel,
  namespace: string | undefined,
  since: number | undefined,
  now: number,
): string {
  const jobs = model.list('job', namespace).filter(inNamespace(namespace));
  if (!jobs.length) return `I could not list the Jobs${where(namespace)} with the tools available.`;
  const runs = jobs.map((j) => jobRun(model, j));
  const failed = runs.filter((r) => r.failed);
  const started = (r: JobRun) =>
    Date.parse(r.job.fields['startTime'] ?? '') || r.job.created || undefined;
  const inWindow = (r: JobRun) =>
    since === undefined ||
    (r.at !== undefined ? r.at >= since : (started(r) ?? -Infinity) >= since);
  const hits = failed.filter(inWindow).sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
  const before = failed.filter((r) => !inWindow(r));
  const retried = runs.filter(
    (r) =>
      !r.failed &&
      Number(r.job.fields['status.failed'] ?? 0) > 0 &&
      (since === undefined || (started(r) ?? now) >= since),
  );
  const window = since !== undefined ? ` since ${iso(since)}` : '';
  const why = (r: JobRun): string => {
    const j = r.job;
    const pods = newestFirst(model.podsOf('job', j.name, j.namespace));
    const parts: string[] = [];
    if (r.reason === 'DeadlineExceeded') {
      const deadline = j.fields['activeDeadlineSeconds'];
      const start = started(r);
      parts.push(
        `DeadlineExceeded: it was still running when its activeDeadlineSeconds${deadline ? ` (${deadline}s)` : ''} ran out${start !== undefined ? ` (started ${iso(start)})` : ''}, so its pod was stopped`,
      );
    } else {
      const tries = j.fields['status.failed'];
      const limit = j.fields['backoffLimit'];
      parts.push(
        `${r.reason ?? 'failed'}${r.reason === 'BackoffLimitExceeded' ? `: ${tries ? `${tries} pods failed` : 'its pods failed'}${limit ? ` (backoffLimit ${limit})` : ''}` : r.message ? ` ("${clip(r.message, 160)}")` : ''}`,
      );
      const last = pods[0];
      const end = last ? podEnd(last) : undefined;
      const said = lastLogged(model, pods);
      const own = said?.pod === last ? said : undefined;
      if (last && (end || own))
        parts.push(
          `its last pod ${last.name}${end ? ` ${end}` : ''}${own ? `${end ? ' and' : ''} logged "${clip(own.text, 240)}"` : ''}`,
        );
      if (said && !own)
        parts.push(`an earlier attempt, ${said.pod.name}, logged "${clip(said.text, 240)}"`);
      else if (!said && pods.length) parts.push('what its pods logged was not read');
    }
    return parts.join('; ');
  };
  const tail = `${
    retried.length
      ? ` Not failed: ${retried
          .map(
            (r) =>
              `${r.job.name} completed after ${r.job.fields['status.failed']} failed pod${r.job.fields['status.failed'] === '1' ? '' : 's'} (a retry succeeded)`,
          )
          .join('; ')}.`
      : ''
  }${
    before.length
      ? ` Failed before the window, left out: ${before
          .map(
            (r) =>
              `${r.job.name}${r.at !== undefined ? ` (${r.reason ?? 'failed'} at ${iso(r.at)})` : ''}`,
          )
          .join(', ')}.`
      : ''
  }`;
  if (!hits.length)
    return `No Job failed${where(namespace)}${window} (${jobs.length} Jobs read).${tail}`;
  return `${hits.length} Job${hits.length === 1 ? '' : 's'} failed${where(namespace)}${window} (of ${jobs.length} read): ${hits
    .map((r) => {
      const w = owner(model, r.job);
      return `${r.job.name}${w ? ` (${w})` : ''} failed${r.at !== undefined ? ` at ${at(r.at, now)}` : ''} with ${why(r)}`;
    })
    .join('; ')}.${tail}`;
}

// ---------------------------------------------------------------- image pulls

export const PULL_FAILING =
  /^(?:Init:)?(?:ImagePullBackOff|ErrImagePull|InvalidImageName|ErrImageNeverPull)$/;

/** the registry's answer, in a few words */
export function pullVerdict(message: string): string | undefined {
  if (
    /pull access denied|insufficient_scope|authorization failed|requested access to the resource is denied|access denied/i.test(
      message,
    )
  )
    return 'access denied (the repository does not exist or needs credentials)';
  if (/\b403\b|forbidden/i.test(message)) return '403 Forbidden';
  if (/\b401\b|unauthorized|no basic auth credentials|authentication required/i.test(message))
    return '401 Unauthorized (no or wrong pull credentials)';
  if (/toomanyrequests|\b429\b|rate limit/i.test(message))
    return 'rate-limited (429 Too Many Requests)';
  if (/not found|manifest unknown|NotFound|no such manifest|does not exist/i.test(message))
    return 'not found (no such image or tag)';
  if (/x509|certificate/i.test(message)) return 'a TLS certificate error';
  if (/no such host|server misbehaving/i.test(message)) return 'the registry host does not resolve';
  if (/timeout|deadline exceeded|timed out/i.test(message)) return 'timed out';
  if (/InvalidImageName|invalid reference format/i.test(message)) return 'an invalid image name';
  return undefined;
}

/** what the registry said, without the runtime's wrapping ("rpc error: code = ... desc = ...") */
const registryAnswer = (message: string) =>
  message
    .replace(/^Failed to pull image "[^"]+":\s*/i, '')
    .replace(/rpc error: code = \w+ desc = /gi, '')
    .replace(/failed to pull and unpack image "[^"]+":\s*/gi, '')
    .replace(/failed to resolve reference "[^"]+":\s*/gi, '')
    .trim();

const quotedImage = (message: string) => /(?:pulling|pull) image "([^"]+)"/i.exec(message)?.[1];

/**
 * "which pods are in ImagePullBackOff or ErrImagePull?": each pod (init containers too) whose
 * container waits on its image, with the image and what the registry answered; pods running
 * now after an old pull error are said apart.
 */
export function imagePullPods(
  model: ClusterModel,
  namespace: string | undefined,
  now: number,
): string {
  const pods = model.list('pod', namespace).filter(inNamespace(namespace));
  const scope = namespace ? where(namespace) : ' across all namespaces';
  if (!pods.length) return `I could not list the pods${scope} with the tools available.`;
  const waiting = (c: ContainerView) => PULL_FAILING.test(c.waiting?.reason ?? '');
  const hits = pods.filter((p) => PULL_FAILING.test(p.status ?? '') || p.containers.some(waiting));
  const pullEvents = (p: ObjectView) =>
    eventsAbout(model, p).filter(
      (e) =>
        /pull/i.test(e.message) &&
        (e.reason === 'Failed' || e.type === 'Warning' || /Err/.test(e.reason ?? '')),
    );
  const rows = hits
    .map((p) => {
      const c = p.containers.find(waiting);
      const status = c?.waiting?.reason ?? p.status ?? '';
      const evs = pullEvents(p);
      const failedEv =
        evs.find((e) =>
          /failed to pull|error|denied|forbidden|not found|unauthorized/i.test(e.message),
        ) ?? evs[0];
      const said =
        failedEv?.message ??
        (c?.waiting?.message && !/^Back-off pulling image/i.test(c.waiting.message)
          ? c.waiting.message
          : undefined);
      const image =
        c?.specImage ??
        c?.image ??
        quotedImage(said ?? '') ??
        quotedImage(c?.waiting?.message ?? '') ??
        evs.map((e) => quotedImage(e.message)).find(Boolean) ??
        p.images[0];
      const verdict = said ? pullVerdict(said) : undefined;
      const w = owner(model, p);
      const label = `${p.namespace && !namespace ? `${p.namespace}/` : ''}${p.name}`;
      return `${label}${w || c ? ` (${[w, c ? `${c.init ? 'init ' : ''}container ${c.name}` : ''].filter(Boolean).join(', ')})` : ''}: ${status}${image ? ` on image ${image}` : ''}${
        said
          ? `; the registry answered ${verdict ? `${verdict}: ` : ''}"${clip(registryAnswer(said), 260)}"`
          : "; the registry's answer was not shown"
      }${failedEv?.count ? ` (${failedEv.count} times, last ${failedEv.last !== undefined ? at(failedEv.last, now) : 'time not shown'})` : ''}`;
    })
    .sort();
  // a pull that failed once and then worked: the pod runs now
  const recovered = pods.filter(
    (p) =>
      !hits.includes(p) &&
      /^Running$/.test(p.status ?? '') &&
      pullEvents(p).some((e) => /failed to pull/i.test(e.message)),
  );
  const tail = recovered.length
    ? ` Running now despite an earlier pull error (left out): ${recovered.map((p) => `${p.namespace && !namespace ? `${p.namespace}/` : ''}${p.name}`).join(', ')}.`
    : '';
  if (!rows.length)
    return `No pod${scope} is in ImagePullBackOff or ErrImagePull (${pods.length} pods read).${tail}`;
  return `${rows.length} pod${rows.length === 1 ? ' is' : 's are'} in ImagePullBackOff or ErrImagePull${scope} (of ${pods.length} read): ${rows.join('; ')}.${tail}`;
}

// ---------------------------------------------------------------- restarts

/** "Container scheduler failed liveness probe, will be restarted" and the probe's own failures */
function killedByProbe(
  model: ClusterModel,
  p: ObjectView,
  c: ContainerView,
  now: number,
  end?: number,
): string | undefined {
  const evs = eventsAbout(model, p);
  // an event's time may come from an age ("9h"): as close to the end as that allows
  const near = (t?: number) =>
    end === undefined ||
    t === undefined ||
    Math.abs(t - end) <= Math.max(15 * 60_000, (now - end) * 0.2);
  const kill = evs.find(
    (e) =>
      /failed (liveness|startup) probe/i.test(e.message) &&
      new RegExp(`\\b${c.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(e.message) &&
      (near(e.last) || near(e.first)),
  );
  if (!kill) return undefined;
  const probe = /failed (liveness|startup) probe/i.exec(kill.message)![1]!.toLowerCase();
  const failure = evs.find((e) => new RegExp(`${probe} probe failed`, 'i').test(e.message));
  return `killed by its ${probe} probe${failure ? ` ("${clip(failure.message, 160)}")` : ''}`;
}

export function termination(
  model: ClusterModel,
  p: ObjectView,
  c: ContainerView,
  now: number,
): string {
  const st: StateView | undefined =
    c.last ?? (c.terminated && c.waiting ? c.terminated : undefined);
  if (!st) return 'its last termination was not shown';
  const code = st.exitCode;
  const signal =
    code === 137 && st.reason !== 'OOMKilled' ? ' (SIGKILL)' : code === 143 ? ' (SIGTERM)' : '';
  const limit =
    st.reason === 'OOMKilled' && c.limits['memory']
      ? `, over its memory limit ${c.limits['memory']}`
      : '';
  const probe = st.reason !== 'OOMKilled' ? killedByProbe(model, p, c, now, st.at) : undefined;
  const logs = model.logs.filter(
    (l) => l.pod === p.name && l.previous && (!l.container || l.container === c.name),
  );
  const lastError = [...logs.flatMap((l) => l.lines)].reverse().find((x) => x.level === 'error');
  return `last terminated ${st.reason ?? 'with no reason given'}, exit code ${code ?? '?'}${signal}${limit}${st.at !== undefined ? `, at ${at(st.at, now)}` : ''}${probe ? `, ${probe}` : ''}${
    st.message ? `; termination message "${clip(st.message.trim(), 160)}"` : ''
  }${lastError && !probe && st.reason !== 'OOMKilled' ? `; its last error before that: "${clip(lastError.text.trim(), 200)}"` : ''}`;
}

/**
 * "which containers restarted, and how did each last terminate?": every container (init and
 * sidecar containers by name) with a restart count, its last termination's reason, exit code and
 * time, and a liveness kill when the events say so.
 */
export function restartedContainers(
  model: ClusterModel,
  namespace: string | undefined,
  since: number | undefined,
  now: number,
): string {
  const pods = model.list('pod', namespace).filter(inNamespace(namespace));
  if (!pods.length) return `I could not list the pods${where(namespace)} with the tools available.`;
  const rows: { n: number; text: string }[] = [];
  const unread: ObjectView[] = [];
  let older = 0;
  for (const p of pods) {
    const restarted = p.containers.filter((c) => (c.restarts ?? 0) > 0);
    if (!restarted.length) {
      if ((p.restarts ?? 0) > 0) unread.push(p);
      continue;
    }
    for (const c of restarted) {
      const end = c.last?.at;
      if (since !== undefined && end !== undefined && end < since) {
        older++;
        continue;
      }
      const w = owner(model, p);
      rows.push({
        n: c.restarts!,
        text: `${p.namespace && !namespace ? `${p.namespace}/` : ''}${p.name} container ${c.name}${c.init ? ' (init)' : ''}${w ? ` (${w})` : ''} restarted ${c.restarts} time${c.restarts === 1 ? '' : 's'}, ${termination(model, p, c, now)}`,
      });
    }
  }
  rows.sort((a, b) => b.n - a.n);
  const window = since !== undefined ? ` since ${iso(since)}` : '';
  const tail = `${older ? ` ${older} container${older === 1 ? '' : 's'} whose last restart was before the window left out.` : ''}${
    unread.length
      ? ` Restarted, but their containers could not be read: ${unread.map((p) => `${p.name} (${p.restarts} restarts)`).join(', ')}.`
      : ''
  }`;
  const quiet = pods.filter(
    (p) => !(p.restarts ?? 0) && !p.containers.some((c) => (c.restarts ?? 0) > 0),
  ).length;
  if (!rows.length)
    return `No container restarted${where(namespace)}${window} (${pods.length} pods read).${tail}`;
  return `${rows.length} container${rows.length === 1 ? '' : 's'} restarted${where(namespace)}${window}: ${rows
    .map((r) => r.text)
    .join(
      '; ',
    )}.${quiet ? ` The other ${quiet} pod${quiet === 1 ? ' has' : 's have'} no restarts.` : ''}${tail}`;
}

// ---------------------------------------------------------------- rollouts

/** a ReplicaSet of a Deployment: owned by it, or named `<deployment>-<pod-template-hash>` */
const ownedBy = (rs: ObjectView, deployment: string) =>
  rs.owner
    ? rs.owner.name === deployment
    : rs.name.startsWith(`${deployment}-`) &&
      /^[a-z0-9]{5,10}$/.test(rs.name.slice(deployment.length + 1));

const imagesOf = (o: ObjectView) =>
  o.containers
    .filter((c) => !c.init)
    .map((c) => c.image ?? '')
    .filter(Boolean).length
    ? o.containers
        .filter((c) => !c.init)
        .map((c) => c.image ?? '')
        .filter(Boolean)
    : o.images;

/** what changed between two pod templates: images, else env values, else "the pod template" */
function templateChange(prev: ObjectView | undefined, next: ObjectView): string {
  const a = prev ? imagesOf(prev) : [];
  const b = imagesOf(next);
  if (prev && a.length && b.length && a.join(',') !== b.join(','))
    return `image ${a.filter((x) => !b.includes(x)).join(', ')} -> ${b.filter((x) => !a.includes(x)).join(', ')}`;
  if (!prev || !a.length) return b.length ? `image ${b.join(', ')}` : 'image not shown';
  const env: string[] = [];
  for (const c of next.containers) {
    const o = prev.containers.find((x) => x.name === c.name);
    if (!o) continue;
    for (const k of new Set([...Object.keys(o.env), ...Object.keys(c.env)])) {
      if (k === '__args' || o.env[k] === c.env[k]) continue;
      env.push(`${k} ${o.env[k] ?? '(unset)'} -> ${c.env[k] ?? '(unset)'}`);
    }
  }
  const read = next.containers.length > 0 && prev.containers.length > 0;
  return `same image ${b.join(', ')}, pod template changed${env.length ? ` (env ${env.slice(0, 4).join(', ')})` : read ? '' : ' (what else changed was not shown)'}`;
}

/**
 * "which Deployments rolled out in the last 2 hours?": those with a ReplicaSet (a revision)
 * created in the window, with the revision, when, and what changed (image or template). A
 * Deployment scaled in the window on an older ReplicaSet (an autoscaler) did not roll out.
 */
export function rollouts(
  model: ClusterModel,
  namespace: string | undefined,
  since: number,
  now: number,
): string {
  const deps = model.list('deployment', namespace).filter(inNamespace(namespace));
  if (!deps.length)
    return `I could not list the Deployments${where(namespace)} with the tools available.`;
  const rss = model.list('replicaset', namespace).filter(inNamespace(namespace));
  const revisions = model.list('revision', namespace).filter(inNamespace(namespace));
  const window = `since ${iso(since)} (the last ${ago(now - since)})`;
  const rolled: string[] = [];
  const before: { name: string; at: number }[] = [];
  const unknown: string[] = [];
  const scaled: string[] = [];
  for (const d of deps) {
    const own = rss
      .filter((r) => ownedBy(r, d.name) && r.created !== undefined)
      .sort((a, b) => b.created! - a.created!);
    const hist = revisions
      .filter((r) => r.owner?.name === d.name && r.created !== undefined)
      .sort((a, b) => b.created! - a.created!);
    const newest = own[0];
    const newestAt = newest?.created ?? hist[0]?.created;
    if (newestAt === undefined) {
      unknown.push(d.name);
      continue;
    }
    if (newestAt < since) {
      before.push({ name: d.name, at: newestAt });
      // new pods in the window on an old ReplicaSet: a scale, not a rollout
      const scale = model.events
        .filter(
          (e) =>
            e.reason === 'ScalingReplicaSet' &&
            e.object?.name === d.name &&
            (e.last ?? e.first ?? 0) >= since,
        )
        .sort((a, b) => (b.last ?? 0) - (a.last ?? 0))[0];
      // without events: pods of that old ReplicaSet created in the window
      const newPods = newest
        ? model
            .list('pod', d.namespace)
            .filter(
              (p) =>
                (p.owner ? p.owner.name === newest.name : p.name.startsWith(`${newest.name}-`)) &&
                p.created !== undefined &&
                p.created >= since,
            )
        : [];
      if (scale || newPods.length) {
        const hpa = model
          .list('horizontalpodautoscaler', d.namespace)
          .find(
            (h) => (h.fields['scaleTarget'] ?? '').split('/').pop() === d.name || h.name === d.name,
          );
        const rescale = hpa
          ? eventsAbout(model, hpa).find((e) => /SuccessfulRescale/.test(e.reason ?? ''))
          : undefined;
        const what = scale
          ? `${clip(scale.message, 120)}${scale.last !== undefined ? ` at ${iso(scale.last)}` : ''}`
          : `${newPods.length} new pod${newPods.length === 1 ? '' : 's'} since ${iso(Math.min(...newPods.map((p) => p.created!)))}`;
        scaled.push(
          `${d.name} was only scaled (${what}${hpa ? `, by its HorizontalPodAutoscaler ${hpa.name}${rescale ? `: "${clip(rescale.message, 120)}"` : ''}` : ''}) on its ReplicaSet ${newest?.name ?? ''} from ${ago(now - newestAt)} ago: no new revision`,
        );
      }
      continue;
    }
    const fresh = own.filter((r) => r.created! >= since);
    const parts = (fresh.length ? fresh : []).map((r) => {
      const rev = Number(r.fields['revision'] ?? NaN);
      const prev =
        own.find((x) => Number(x.fields['revision'] ?? NaN) < rev && Number.isFinite(rev)) ??
        own.find((x) => x.created! < r.created!);
      return `revision ${Number.isFinite(rev) ? rev : (d.fields['revision'] ?? '?')} at ${at(r.created!, now)}: ${templateChange(prev, r)} (ReplicaSet ${r.name})`;
    });
    if (!parts.length) {
      const h = hist.filter((r) => r.created! >= since);
      parts.push(
        ...h.map(
          (r) =>
            `revision ${r.fields['revision'] ?? '?'} at ${at(r.created!, now)}: image ${r.images.join(', ') || 'not shown'}`,
        ),
      );
    }
    rolled.push(`Deployment ${d.name}: ${parts.reverse().join('; ')}`);
  }
  const tail = `${scaled.length ? ` Not rollouts: ${scaled.join('; ')}.` : ''}${
    before.length
      ? ` Last rolled out before the window: ${before
          .sort((a, b) => b.at - a.at)
          .map((b) => `${b.name} ${at(b.at, now)}`)
          .join(', ')}.`
      : ''
  }${unknown.length ? ` When ${unknown.join(', ')} last rolled out was not shown (no ReplicaSet read).` : ''}`;
  if (!rolled.length)
    return `No Deployment${where(namespace)} rolled out ${window}: none has a ReplicaSet (revision) created in it (${deps.length} Deployments read).${tail}`;
  return `${rolled.length} Deployment${rolled.length === 1 ? '' : 's'}${where(namespace)} rolled out ${window} (a new ReplicaSet, so a new revision): ${rolled.join('. ')}.${tail}`;
}

// ---------------------------------------------------------------- Pending pods

/** a pod not started yet: unscheduled, or scheduled and still creating its containers */
const NOT_STARTED = /^(?:Pending|ContainerCreating|PodInitializing|SchedulingGated)$/;

/** the scheduler's message in a few words, per reason it gives ("3 Insufficient memory") */
export function schedulerVerdict(message: string, pod?: ObjectView): string | undefined {
  // "0/4 nodes are available: 1 node(s) had ..., 3 Insufficient memory. preemption: ..."
  const body = message.replace(/\.?\s*preemption:.*$/is, '').replace(/^.*?available:\s*/i, '');
  const said: string[] = [];
  const requested = (res: string) => {
    const r = (pod?.containers ?? [])
      .filter((c) => !c.init)
      .map((c) => c.requests[res])
      .filter(Boolean);
    return r.length ? ` (it requests ${r.join(' + ')})` : '';
  };
  for (const part of body.split(/,\s*(?=\d+\s)/)) {
    const n = /^(\d+)\s/.exec(part)?.[1];
    const on = n ? ` on ${n} node${n === '1' ? '' : 's'}` : '';
    const insufficient = /Insufficient\s+(\S+?)\.?$/i.exec(part);
    const taint = /untolerated taint\(?s?\)?\s*\{([^}]*)\}|had taints? \{([^}]*)\}/i.exec(part);
    if (/didn'?t match Pod'?s node affinity\/selector|didn'?t match node selector/i.test(part))
      said.push(
        `no node matches its node selector / affinity${pod?.fields['nodeSelector'] ? ` (nodeSelector ${pod.fields['nodeSelector']})` : pod?.fields['affinity'] ? ' (its node affinity)' : ''}${on}`,
      );
    else if (insufficient)
      said.push(`not enough free ${insufficient[1]}${on}${requested(insufficient[1]!)}`);
    else if (taint)
      said.push(`a taint it does not tolerate (${(taint[1] ?? taint[2] ?? '').trim()})${on}`);
    else if (
      /unbound (?:immediate )?PersistentVolumeClaims?|persistentvolumeclaim "[^"]+" not found/i.test(
        part,
      )
    )
      said.push(
        `its PersistentVolumeClaim is not bound${pod?.fields['claims'] ? ` (${pod.fields['claims']})` : ''}`,
      );
    else if (/volume node affinity conflict/i.test(part))
      said.push(`its volume is bound to another zone or node (volume node affinity conflict)${on}`);
    else if (/exceed max volume count/i.test(part))
      said.push(`the nodes' volume attach limit is reached${on}`);
    else if (/didn'?t match pod anti-affinity rules/i.test(part))
      said.push(`its pod anti-affinity rules${on}`);
    else if (/didn'?t match pod affinity rules/i.test(part))
      said.push(`its pod affinity rules${on}`);
    else if (/topology spread constraints/i.test(part))
      said.push(`its topology spread constraints${on}`);
    else if (/were unschedulable|node\.kubernetes\.io\/unschedulable/i.test(part))
      said.push(`cordoned (unschedulable)${on}`);
    else if (/Too many pods/i.test(part)) said.push(`the pod limit is reached${on}`);
    else if (/free ports?/i.test(part)) said.push(`its host port is taken${on}`);
  }
  return said.length ? said.join('; ') : undefined;
}

/** why the scheduler does not place a pod: its PodScheduled condition, else its newest event */
export function schedulerSays(model: ClusterModel, p: ObjectView): string | undefined {
  const cond = p.conditions.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  if (cond?.message) return cond.message;
  const ev = eventsAbout(model, p).find((e) =>
    /^(?:FailedScheduling|Unschedulable|NotTriggerScaleUp|FailedAttachVolume)$/.test(
      e.reason ?? '',
    ),
  );
  return ev?.message ?? (p.reason === 'Unschedulable' ? p.message : undefined);
}

/** since when a pod is Pending: its PodScheduled=False condition, else its creation, else its first FailedScheduling */
function pendingSince(model: ClusterModel, p: ObjectView): number | undefined {
  const cond = p.conditions.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  if (cond?.at !== undefined) return cond.at;
  if (p.created !== undefined) return p.created;
  const firsts = eventsAbout(model, p)
    .filter((e) => e.reason === 'FailedScheduling')
    .map((e) => e.first ?? e.last)
    .filter((t): t is number => t !== undefined);
  return firsts.length ? Math.min(...firsts) : undefined;
}

/**
 * "which pods have been Pending for more than 10 minutes, and why?": the pods not started
 * (Pending) for longer than the time asked (all of them when none is), each with how long and
 * the scheduler's reason (its PodScheduled condition or its latest FailedScheduling event, said
 * in a few words too); those Pending for less are said apart.
 */
export function pendingPods(
  model: ClusterModel,
  namespace: string | undefined,
  over: number | undefined,
  now: number,
): string {
  const pods = model.list('pod', namespace).filter(inNamespace(namespace));
  const scope = namespace ? where(namespace) : ' across all namespaces';
  if (!pods.length) return `I could not list the pods${scope} with the tools available.`;
  const pending = pods
    .filter((p) => NOT_STARTED.test(p.status ?? '') && p.fields['terminating'] !== 'true')
    .map((p) => ({ p, since: pendingSince(model, p) }))
    .sort((a, b) => (a.since ?? now) - (b.since ?? now));
  const label = (p: ObjectView) => `${p.namespace && !namespace ? `${p.namespace}/` : ''}${p.name}`;
  const longer = ago(over ?? 0);
  const hits = pending.filter(
    (x) => over === undefined || (x.since !== undefined && now - x.since > over),
  );
  const shorter = pending.filter(
    (x) => over !== undefined && x.since !== undefined && now - x.since <= over,
  );
  const untimed = pending.filter((x) => over !== undefined && x.since === undefined);
  const row = ({ p, since }: { p: ObjectView; since?: number }) => {
    const w = owner(model, p);
    const said = schedulerSays(model, p);
    const verdict = said ? schedulerVerdict(said, p) : undefined;
    const started =
      p.node && p.status !== 'Pending'
        ? `; scheduled on ${p.node}, ${p.status}${p.containers.find((c) => c.waiting?.reason)?.waiting?.reason ? ` (${p.containers.find((c) => c.waiting?.reason)!.waiting!.reason})` : ''}`
        : '';
    return `${label(p)}${w ? ` (${w})` : ''} Pending ${since !== undefined ? `for ${ago(now - since)}` : 'since a time not shown'}${started}${
      said
        ? `: the scheduler says "${clip(said.replace(/\s*preemption:.*$/is, ''), 260)}"${verdict ? ` (${verdict})` : ''}`
        : started
          ? ''
          : ": the scheduler's reason was not shown"
    }`;
  };
  const tail = `${
    shorter.length
      ? ` Pending for ${longer} or less, left out: ${shorter.map((x) => `${label(x.p)} (${ago(now - x.since!)})`).join(', ')}.`
      : ''
  }${untimed.length ? ` Pending since a time not shown: ${untimed.map((x) => label(x.p)).join(', ')}.` : ''}`;
  const what = over !== undefined ? ` for more than ${longer}` : '';
  if (!hits.length)
    return `No pod${scope} has been Pending${what} (${pods.length} pods read).${tail}`;
  return `${hits.length} pod${hits.length === 1 ? '' : 's'}${scope} ${hits.length === 1 ? 'has' : 'have'} been Pending${what} (of ${pods.length} pods read): ${hits.map(row).join('; ')}.${tail}`;
}
