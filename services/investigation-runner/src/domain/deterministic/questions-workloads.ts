import { quantity, type ClusterModel } from './model';
import { hasFinished } from './health';
import type { ContainerView, ObjectView } from './observe';
import { at, ago, iso, jobRun, lastLogged, newestFirst, type JobRun } from './questions-activity';
import { clip } from './text';

/**
 * Answers to questions about a namespace's scheduled work and what its pods reserve: which
 * CronJobs have not run successfully in a window (and why), how much CPU and memory the pods
 * request in total. Each says what it could not see.
 */

const where = (ns: string | undefined) => (ns ? ` in namespace ${ns}` : '');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const timeOf = (v: string | undefined) => {
  const t = Date.parse(v ?? '');
  return Number.isFinite(t) ? t : undefined;
};

// ---------------------------------------------------------------- CronJobs without a success

/** when a Job succeeded: its completion time (a Job that failed has none) */
function succeededAt(r: JobRun): number | undefined {
  if (r.failed) return undefined;
  const j = r.job;
  const done =
    j.conditions.find((c) => c.type === 'Complete' && c.status === 'True')?.at ??
    timeOf(j.fields['completionTime']);
  if (done !== undefined) return done;
  return /^Complete(?:d)?$/i.test(j.status ?? '') ? j.created : undefined;
}

/** when a Job started: its start time, else its creation */
const startedAt = (j: ObjectView) => timeOf(j.fields['startTime']) ?? j.created;

/** a Job still running: active pods and no end */
const running = (r: JobRun) =>
  !r.failed &&
  succeededAt(r) === undefined &&
  (Number(r.job.fields['status.active'] ?? 0) > 0 || /^Running$/i.test(r.job.status ?? ''));

/**
 * "which CronJobs have not run successfully in the last 24 hours?": per CronJob of the namespace,
 * its last success (status.lastSuccessfulTime, else its newest Job that completed) against the
 * window's start; those without one in the window, with why (suspended, its runs failing and the
 * last error they logged, a run still going, never run), then the others briefly. Without a
 * window: those whose last run did not succeed.
 */
export function cronJobsWithoutSuccess(
  model: ClusterModel,
  namespace: string | undefined,
  since: number | undefined,
  now: number,
): string {
  const inNs = (o: ObjectView) => !namespace || !o.namespace || o.namespace === namespace;
  const crons = model
    .list('cronjob', namespace)
    .filter(inNs)
    .sort((a, b) => a.name.localeCompare(b.name));
  if (!crons.length)
    return `I could not list the CronJobs${where(namespace)} with the tools available.`;
  const jobs = model.list('job', namespace).filter(inNs);
  const label = (c: ObjectView) =>
    namespace || !c.namespace ? c.name : `${c.namespace}/${c.name}`;
  const hits: string[] = [];
  const fine: string[] = [];
  const unknown: string[] = [];
  for (const c of crons) {
    const suspended = (c.fields['suspend'] ?? c.fields['suspendListed']) === 'true';
    const runs = jobs
      .filter(
        (j) =>
          j.owner?.name === c.name ||
          (!j.owner && model.workloadOf(j).name === c.name) ||
          (!j.owner &&
            new RegExp(`^${c.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d+$`).test(j.name)),
      )
      .map((j) => jobRun(model, j))
      .sort((a, b) => (startedAt(b.job) ?? 0) - (startedAt(a.job) ?? 0));
    const successes = runs.map(succeededAt).filter((t): t is number => t !== undefined);
    const listed = timeOf(c.fields['lastSuccessfulTime']);
    const lastSuccess =
      listed !== undefined || successes.length
        ? Math.max(listed ?? -Infinity, ...successes)
        : undefined;
    const lastSchedule = timeOf(c.fields['lastScheduleTime']) ?? timeOf(c.fields['lastScheduleAt']);
    const latestDone = runs.find((r) => r.failed || succeededAt(r) !== undefined);
    const active = runs.find(running);
    const ok =
      since !== undefined
        ? lastSuccess !== undefined && lastSuccess >= since
        : !!latestDone && !latestDone.failed && !suspended;
    const success = lastSuccess !== undefined ? `last success ${at(lastSuccess, now)}` : undefined;
    if (ok) {
      fine.push(
        `${label(c)} (${success ?? 'its last run succeeded'}${suspended ? '; suspended now' : ''}${active ? `; Job ${active.job.name} running now` : ''})`,
      );
      continue;
    }
    // nothing shows how it last ran: neither a success time, nor a Job, nor a schedule time
    if (
      lastSuccess === undefined &&
      !runs.length &&
      lastSchedule === undefined &&
      !suspended &&
      c.fields['lastSchedule'] !== 'never'
    ) {
      unknown.push(label(c));
      continue;
    }
    const why: string[] = [];
    if (suspended)
      why.push(
        `suspended (spec.suspend: true, so no run starts)${lastSchedule !== undefined ? `, last scheduled ${at(lastSchedule, now)}` : ''}`,
      );
    why.push(
      success ??
        (runs.length || listed !== undefined ? 'no successful run seen' : 'never succeeded'),
    );
    const failedSince = runs.filter(
      (r) =>
        r.failed && (lastSuccess === undefined || (r.at ?? startedAt(r.job) ?? 0) > lastSuccess),
    );
    const lastFailed = failedSince[0];
    if (lastFailed) {
      const said = lastLogged(
        model,
        newestFirst(model.podsOf('job', lastFailed.job.name, lastFailed.job.namespace)),
      );
      why.push(
        `${failedSince.length > 1 ? `${failedSince.length} runs failed since; the latest, ` : 'its run '}Job ${lastFailed.job.name}, failed${lastFailed.reason ? ` (${lastFailed.reason})` : ''}${lastFailed.at !== undefined ? ` at ${iso(lastFailed.at)}` : ''}${said ? `; last error: "${clip(said.text, 240)}"` : ''}`,
      );
    }
    if (active)
      why.push(
        `Job ${active.job.name} is running now${startedAt(active.job) !== undefined ? ` (started ${at(startedAt(active.job)!, now)})` : ''}`,
      );
    if (!lastFailed && !active && !suspended) {
      if (c.fields['lastSchedule'] === 'never' || (lastSchedule === undefined && !runs.length))
        why.push(
          `never scheduled yet${c.created !== undefined ? ` (created ${at(c.created, now)})` : ''}`,
        );
      else if (
        lastSchedule !== undefined &&
        (lastSuccess === undefined || lastSchedule > lastSuccess)
      )
        why.push(`last scheduled ${at(lastSchedule, now)}; how that run ended was not shown`);
      else if (c.fields['schedule'])
        why.push(`no run was scheduled since (schedule "${c.fields['schedule']}")`);
    }
    hits.push(`${label(c)} (${why.join('; ')})`);
  }
  const window = since !== undefined ? ` since ${iso(since)} (the last ${ago(now - since)})` : '';
  const asked = since !== undefined ? `not run successfully${window}` : 'no successful last run';
  const tail = `${
    fine.length
      ? ` ${since !== undefined ? 'Succeeded within the window' : 'Last run succeeded'}: ${fine.join(', ')}.`
      : ''
  }${unknown.length ? ` How ${unknown.join(', ')} last ran was not shown.` : ''}`;
  if (!hits.length)
    return `Every CronJob${where(namespace)} whose runs I could see has run successfully${window || ' on its last run'} (${plural(crons.length, 'CronJob')} read).${tail}`;
  return `${hits.length} of the ${plural(crons.length, 'CronJob')}${where(namespace)} ${hits.length === 1 ? 'has' : 'have'} ${asked}: ${hits.join('; ')}.${tail}`;
}

// ---------------------------------------------------------------- requests added up

/** "4250m (4.25 cores)" */
function cpuText(cores: number): string {
  const m = Math.round(cores * 1000);
  const c = Math.round(cores * 1000) / 1000;
  return `${m}m (${c} core${c === 1 ? '' : 's'})`;
}

/** "12736Mi (12.44Gi)" */
function memoryText(bytes: number): string {
  const mi = bytes / 1024 ** 2;
  const miText = Number.isInteger(mi) ? `${mi}Mi` : `${Math.round(mi * 10) / 10}Mi`;
  const gi = Math.round((bytes / 1024 ** 3) * 100) / 100;
  return gi >= 1 ? `${miText} (${gi}Gi)` : miText;
}

/**
 * A pod's effective request (or limit) of a resource, as the scheduler counts it: the larger of
 * its containers' sum and its largest init container (init containers run one at a time, before
 * the others). undefined when no container sets it.
 */
function effective(
  containers: ContainerView[],
  field: 'requests' | 'limits',
  resource: string,
): number | undefined {
  const set = containers.filter((c) => c[field][resource] !== undefined);
  if (!set.length) return undefined;
  const sum = containers
    .filter((c) => !c.init)
    .reduce((a, c) => a + quantity(c[field][resource]), 0);
  const init = Math.max(
    0,
    ...containers.filter((c) => c.init).map((c) => quantity(c[field][resource])),
  );
  return Math.max(sum, init);
}

/**
 * what a pod's spec was made from: its owner (a ReplicaSet, StatefulSet, Job), else its name
 * without its generated suffix (a listing that shows no owner)
 */
function templateOf(model: ClusterModel, p: ObjectView): string {
  if (p.owner) return `${p.namespace ?? ''}/${p.owner.name}`;
  const base = /^(.+)-[a-z0-9]{5}$/.exec(p.name)?.[1];
  return `${p.namespace ?? ''}/${base ?? model.workloadOf(p).name}`;
}

/**
 * "how much CPU and memory do the pods of analytics request in total?": the requests (or limits)
 * of the namespace's pods that hold them (scheduled and not finished) added up, per the
 * scheduler's rule (a pod counts the larger of its containers' sum and its largest init
 * container), with units; per workload, the pods that request nothing, those Pending unscheduled
 * (not counted), and the ResourceQuota's own count when one is seen. Not usage.
 */
export function requestsTotal(
  model: ClusterModel,
  namespace: string | undefined,
  field: 'requests' | 'limits',
): string {
  const inNs = (o: ObjectView) => !namespace || !o.namespace || o.namespace === namespace;
  const what = field === 'requests' ? 'request' : 'limit';
  const pods = model
    .list('pod', namespace)
    .filter((p) => p.kind === 'pod' && inNs(p) && !hasFinished(p));
  if (!pods.length) return `I could not list the pods${where(namespace)} with the tools available.`;
  // a pod not read: one of the same template that was, else its workload's own template
  const read = new Map<string, ObjectView>();
  for (const p of pods)
    if (p.containers.length && !read.has(templateOf(model, p))) read.set(templateOf(model, p), p);
  const specOf = (p: ObjectView): ContainerView[] | undefined => {
    if (p.containers.length) return p.containers;
    const twin = read.get(templateOf(model, p));
    if (twin) return twin.containers;
    const w = model.workloadOf(p);
    const own = w.name !== p.name ? model.get(w.kind, w.name, p.namespace) : undefined;
    return own?.containers.length ? own.containers : undefined;
  };
  const unscheduled = (p: ObjectView) =>
    /^Pending$/i.test(p.status ?? '') &&
    (!p.node || p.conditions.some((c) => c.type === 'PodScheduled' && c.status === 'False'));
  const counted = pods.filter((p) => !unscheduled(p));
  const pending = pods.filter(unscheduled);
  let cpu = 0;
  let memory = 0;
  const nothing: string[] = [];
  const unread: string[] = [];
  let initRule = false;
  const byWorkload = new Map<
    string,
    { n: number; cpu: number; memory: number; each: Set<string> }
  >();
  const sizeOf = (cs: ContainerView[]) => ({
    cpu: effective(cs, field, 'cpu'),
    memory: effective(cs, field, 'memory'),
  });
  for (const p of counted) {
    const cs = specOf(p);
    if (!cs) {
      unread.push(p.name);
      continue;
    }
    const s = sizeOf(cs);
    if (cs.some((c) => c.init && (c[field]['cpu'] || c[field]['memory']))) initRule = true;
    if (s.cpu === undefined && s.memory === undefined) {
      nothing.push(p.name);
      continue;
    }
    cpu += s.cpu ?? 0;
    memory += s.memory ?? 0;
    const w = model.workloadOf(p);
    const key = w.name !== p.name ? `${w.kind} ${w.name}` : `pod ${p.name}`;
    const e = byWorkload.get(key) ?? { n: 0, cpu: 0, memory: 0, each: new Set<string>() };
    e.n++;
    e.cpu += s.cpu ?? 0;
    e.memory += s.memory ?? 0;
    e.each.add(
      `${s.cpu !== undefined ? `${Math.round(s.cpu * 1000)}m` : 'no CPU'} / ${s.memory !== undefined ? memoryText(s.memory).split(' ')[0] : 'no memory'}`,
    );
    byWorkload.set(key, e);
  }
  const summed = counted.length - unread.length;
  if (!summed)
    return `I could not read the containers of the ${plural(pods.length, 'pod')}${where(namespace)} (their ${field}) with the tools available.`;
  const rows = [...byWorkload]
    .sort((a, b) => b[1].cpu - a[1].cpu || a[0].localeCompare(b[0]))
    .map(
      ([k, e]) =>
        `${k} ${plural(e.n, 'pod')}${e.n > 1 && e.each.size === 1 ? ` × ${[...e.each][0]}` : ''} = ${Math.round(e.cpu * 1000)}m CPU, ${memoryText(e.memory).split(' ')[0]} memory`,
    );
  const quotas = model
    .list('resourcequota', namespace)
    .filter(inNs)
    .map((q) => {
      try {
        const used = JSON.parse(q.fields['used'] ?? '{}') as Record<string, string>;
        const keys =
          field === 'requests'
            ? ['requests.cpu', 'requests.memory', 'cpu', 'memory']
            : ['limits.cpu', 'limits.memory'];
        const said = keys.filter((k) => used[k] !== undefined).map((k) => `${k} ${used[k]}`);
        return said.length ? `ResourceQuota ${q.name} counts ${said.join(', ')} used` : '';
      } catch {
        return '';
      }
    })
    .filter(Boolean);
  const head = `The ${plural(summed, `${counted.length === pods.length ? '' : 'scheduled '}pod`)}${where(namespace)} ${field === 'requests' ? 'request' : 'are limited to'} ${cpuText(cpu)} CPU and ${memoryText(memory)} memory in total (the ${field} of their containers added up${initRule ? "; a pod with init containers counts the larger of its containers' sum and its largest init container, as the scheduler does" : ', init containers aside since none sets any'}).`;
  return `${head}${rows.length ? ` Per workload: ${rows.join('; ')}.` : ''}${
    nothing.length
      ? ` ${nothing.length === 1 ? 'This pod sets' : 'These pods set'} no CPU or memory ${what} (${field === 'requests' ? 'BestEffort unless a limit is set' : 'unbounded'}), counted as 0: ${nothing.join(', ')}.`
      : ''
  }${
    pending.length
      ? ` Not counted: ${plural(pending.length, 'Pending pod')} not scheduled yet (${pending.map((p) => p.name).join(', ')}).`
      : ''
  }${unread.length ? ` The containers of ${unread.join(', ')} could not be read, so they are not in the sum.` : ''}${
    quotas.length ? ` ${quotas.join('; ')}.` : ''
  } This is what the pods reserve, not what they use now.`;
}
