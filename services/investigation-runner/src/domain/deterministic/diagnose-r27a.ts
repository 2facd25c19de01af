/**
 * Round27 (r27a): a failed run of a CronJob that later runs of the same CronJob completed.
 *
 * A CronJob keeps its last failed Job(s) (spec.failedJobsHistoryLimit, 1 by default), and
 * kube-state-metrics' kube_job_failed stays 1 for as long as that Job object exists: a
 * KubeJobFailed alert keeps firing for a run that failed hours ago. When every run the CronJob
 * started after the failed one completed (or the CronJob's lastSuccessfulTime is after it and no
 * later run failed), the failure is history: the schedule works again.
 */
import type { Finding } from './diagnose';
import { hasCompleted, hasFinished, isUnhealthy } from './health';
import type { ClusterModel } from './model';
import type { ObjectView } from './observe/views';

const FAILED_STATUS = /^(?:Failed|BackoffLimitExceeded|DeadlineExceeded)$/;

/** a Job that failed for good (its Failed condition, or a listing's status) */
export function jobFailed(j: ObjectView): boolean {
  return (
    j.conditions.some((c) => c.type === 'Failed' && c.status === 'True') ||
    FAILED_STATUS.test(j.status ?? '')
  );
}

/** a Job that completed (Complete / SuccessCriteriaMet, or its completion time and no failure) */
export function jobSucceeded(j: ObjectView): boolean {
  if (jobFailed(j)) return false;
  if (
    j.conditions.some(
      (c) => /^(?:Complete|SuccessCriteriaMet)$/.test(c.type) && c.status === 'True',
    )
  )
    return true;
  if (/^(?:Complete|Completed|Succeeded)$/.test(j.status ?? '')) return true;
  if (j.fields['completionTime']) return true;
  // a listing's "1/1" completions
  const done = /^(\d+)\/(\d+)$/.exec(j.fields['completions'] ?? '');
  return !!done && done[1] === done[2] && done[1] !== '0';
}

/** the CronJob that started a Job: its owner, else the name stem the CronJob controller gives */
function cronJobOf(j: ObjectView, model: ClusterModel): string | undefined {
  if (j.owner?.kind === 'cronjob') return j.owner.name;
  const stem = /^(.+)-\d{6,}$/.exec(j.name)?.[1];
  return stem && model.get('cronjob', stem, j.namespace) ? stem : undefined;
}

/** when a run started: its startTime, its creation, else the scheduled minute in its name */
function startOf(j: ObjectView): number | undefined {
  const t = Date.parse(j.fields['startTime'] ?? '');
  if (!Number.isNaN(t)) return t;
  if (j.created !== undefined) return j.created;
  const minute = /-(\d{6,})$/.exec(j.name)?.[1];
  return minute ? Number(minute) * 60_000 : undefined;
}

export interface SupersededRun {
  job: ObjectView;
  cronJob: string;
  /** the later runs, all completed (oldest first) */
  later: ObjectView[];
  lastSuccess?: string;
}

/** a failed Job of a CronJob whose every later run completed */
export function supersededRun(job: ObjectView, model: ClusterModel): SupersededRun | undefined {
  if (job.kind !== 'job' || !jobFailed(job)) return undefined;
  const cron = cronJobOf(job, model);
  if (!cron) return undefined;
  const start = startOf(job);
  if (start === undefined) return undefined;
  const later = model
    .list('job', job.namespace)
    .filter(
      (j) =>
        j !== job &&
        j.namespace === job.namespace &&
        cronJobOf(j, model) === cron &&
        (startOf(j) ?? 0) > start,
    )
    .sort((a, b) => (startOf(a) ?? 0) - (startOf(b) ?? 0));
  const lastSuccess = model.get('cronjob', cron, job.namespace)?.fields['lastSuccessfulTime'];
  const successAt = Date.parse(lastSuccess ?? '');
  // a run a listing shows without any state: its pods say how it ended
  const ran = (j: ObjectView): 'ok' | 'failed' | 'unknown' => {
    if (jobSucceeded(j)) return 'ok';
    if (jobFailed(j) || j.conditions.length || j.status || j.fields['startTime']) return 'failed';
    const pods = model.podsOf('job', j.name, j.namespace);
    if (!pods.length) return 'unknown';
    return pods.some(hasCompleted) && pods.every(hasFinished) ? 'ok' : 'failed';
  };
  const states = later.map(ran);
  if (states.includes('failed')) return undefined;
  if (states.includes('ok') ? states[states.length - 1] === 'unknown' : !(successAt > start))
    return undefined;
  return { job, cronJob: cron, later, ...(lastSuccess ? { lastSuccess } : {}) };
}

/** a finding's object (a failed Job, or a pod of it) whose CronJob completed every run since */
export function supersededObject(o: ObjectView, model: ClusterModel): SupersededRun | undefined {
  if (o.kind === 'job') return supersededRun(o, model);
  if (o.kind !== 'pod') return undefined;
  const jobName =
    o.owner?.kind === 'job' ? o.owner.name : /^(.+-\d{6,})-[a-z0-9]{5}$/.exec(o.name)?.[1];
  const job = jobName ? model.get('job', jobName, o.namespace) : undefined;
  return job ? supersededRun(job, model) : undefined;
}

/**
 * What the answer says when the subject's only failure is a run superseded by later completed
 * runs: which run failed, which completed since, and why an alert on it still fires.
 */
export function supersededNote(model: ClusterModel, focus: ObjectView[]): string {
  const seen = new Set<string>();
  const notes: string[] = [];
  const candidates = new Set<ObjectView>();
  for (const o of focus) {
    if (o.kind === 'job') candidates.add(o);
    if (o.kind === 'pod') {
      const jobName = o.owner?.kind === 'job' ? o.owner.name : undefined;
      const j = jobName ? model.get('job', jobName, o.namespace) : undefined;
      if (j) candidates.add(j);
    }
    if (o.kind === 'cronjob')
      for (const j of model.list('job', o.namespace))
        if (j.owner?.kind === 'cronjob' && j.owner.name === o.name) candidates.add(j);
  }
  for (const j of candidates) {
    const s = supersededRun(j, model);
    if (!s || seen.has(j.name)) continue;
    seen.add(j.name);
    const why = j.conditions.find((c) => c.type === 'Failed' && c.status === 'True');
    const last = s.later[s.later.length - 1];
    notes.push(
      `The Job ${j.name} of CronJob ${s.cronJob} failed${why?.reason ? ` (${why.reason}${why.message ? `: ${why.message}` : ''})` : ''}, but ${
        s.later.length
          ? `the ${s.later.length} later run(s) ${s.later.map((x) => x.name).join(', ')} completed${last?.fields['completionTime'] ? ` (the last at ${last.fields['completionTime']})` : ''}`
          : `the CronJob succeeded since (lastSuccessfulTime ${s.lastSuccess})`
      }: the failure is history and the schedule works. The failed Job object is kept by the CronJob's failedJobsHistoryLimit, so an alert on failed Jobs (KubeJobFailed) keeps firing until it is deleted.`,
    );
  }
  return notes.slice(0, 2).join(' ');
}

/**
 * A Job that ran past its activeDeadlineSeconds while its pods could not start: the deadline is
 * how it ended, what kept its pods from starting (an event of a pod of the same workload that
 * names a cause: no sandbox, no volume, no image) is why. Of those, a pod that still exists and
 * fails now (the current run stuck the same way) before one the Job controller deleted.
 */
export function podCauseOfDeadline<T extends { f: Finding }>(
  top: T | undefined,
  scored: T[],
  weight: (x: T) => number,
  model: ClusterModel,
  now: number,
): T | undefined {
  if (top?.f.entry.id !== 'job_deadline') return undefined;
  const causes = scored.filter(
    (x) =>
      x.f.entry.role === 'cause' &&
      x.f.entry.class !== 'job_failed' &&
      x.f.where === 'event' &&
      x.f.object?.kind === 'pod' &&
      x.f.workload === top.f.workload &&
      NOT_STARTED.test(x.f.fact) &&
      weight(x) >= weight(top) - 0.05,
  );
  const live = causes.find((x) => {
    const p = model.get('pod', x.f.object!.name, x.f.object!.namespace);
    return !!p && isUnhealthy(p, now);
  });
  return live ?? causes[0];
}

/** a pod that never got to run its containers: no sandbox, volume or image */
const NOT_STARTED =
  /Failed to create pod sandbox|failed to (?:setup|set up) network|MountVolume|AttachVolume|Unable to attach or mount|Failed to pull image|ErrImagePull|ImagePullBackOff|CreateContainerConfigError/i;

/**
 * The node the scheduler put a pod on, as its Scheduled event says ("Successfully assigned
 * <ns>/<pod> to <node>"): the only record of it once the pod is gone (a Job's deleted pod), or
 * when a listing shows no node.
 */
export function scheduledNode(
  model: ClusterModel,
  pod: string,
  namespace?: string,
): string | undefined {
  for (const e of model.events) {
    if (e.reason !== 'Scheduled' || (namespace && e.namespace && e.namespace !== namespace))
      continue;
    const m = /Successfully assigned (?:[\w.-]+\/)?([\w.-]+) to ([\w.-]+)/.exec(e.message);
    if (m && m[1] === pod) return m[2];
  }
  return undefined;
}
