/**
 * A rule of round23 (r23a) that compares several facts (cause-catalog.data.ts, its "round23
 * (r23a)" block): a CronJob with concurrencyPolicy Replace whose cronjob-controller deletes a
 * Job at the very time it creates the next one, again and again, with no successful run since.
 * The controller also deletes finished Jobs beyond its history limits ("Deleted job" too): those
 * leave successful runs behind, so a success after the deletions keeps the rule silent.
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import type { ClusterModel } from './model';
import type { EventView, ObjectView } from './observe/views';
import { iso } from './questions-activity';
import { clip } from './text';

export function r23aFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const out: Finding[] = [];
  const entry = entries.find((e) => e.id === 'cronjob_replace_kills_running_job');
  if (entry) out.push(...cronJobsReplacingRuns(model, entry));
  const token = entries.find((e) => e.id === 'sa_token_never_reloaded');
  if (token) out.push(...tokensNeverReloaded(model, token));
  return out;
}

const DELETED = /^Deleted job (\S+)/;
const CREATED = /^Created job (\S+)/;
/** a deletion and a creation at the same schedule tick */
const SAME_TICK = 120_000;

const when = (e: EventView) => e.last ?? e.first;

function cronJobsReplacingRuns(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const cj of model.list('cronjob').filter((o) => o.kind === 'cronjob')) {
    if (cj.fields['concurrencyPolicy'] !== 'Replace') continue;
    const mine = model.events.filter(
      (e) =>
        e.object?.name === cj.name &&
        (!e.object.kind || /cronjob/i.test(e.object.kind)) &&
        (!e.namespace || !cj.namespace || e.namespace === cj.namespace),
    );
    // the cronjob-controller names a run <cronjob>-<its scheduled time in minutes since epoch>
    const tick = (job: string | undefined): number | undefined => {
      const m = job?.startsWith(`${cj.name}-`)
        ? /^(\d{7,9})$/.exec(job.slice(cj.name.length + 1))
        : null;
      return m ? Number(m[1]) * 60_000 : undefined;
    };
    const created = mine
      .filter((e) => CREATED.test(e.message))
      .map((e) => ({
        job: CREATED.exec(e.message)![1]!,
        at: when(e) ?? tick(CREATED.exec(e.message)![1]),
      }))
      .filter((c): c is { job: string; at: number } => c.at !== undefined);
    // a deletion at the tick a new run is created: the run still going is replaced (events
    // without a time: the run created next after the deleted one, by their names)
    const replaced: { e: EventView; at: number; started: number }[] = [];
    for (const e of mine) {
      const job = DELETED.exec(e.message)?.[1];
      if (!job) continue;
      const started = tick(job);
      const stamped = when(e);
      const next =
        stamped !== undefined
          ? created.find((c) => Math.abs(c.at - stamped) <= SAME_TICK && c.job !== job)
          : started !== undefined
            ? created.filter((c) => c.at > started).sort((a, b) => a.at - b.at)[0]
            : undefined;
      if (!next) continue;
      replaced.push({ e, at: stamped ?? next.at, started: started ?? stamped ?? next.at });
    }
    if (replaced.length < 2) continue;
    const first = Math.min(...replaced.map((r) => r.started));
    const last = Math.max(...replaced.map((r) => r.at));
    // a run that succeeded after the deletions: they were history cleanup, or it recovered
    const success = Date.parse(cj.fields['lastSuccessfulTime'] ?? '');
    if (Number.isFinite(success) && success >= first) continue;
    const completedSince = model
      .list('job', cj.namespace)
      .some(
        (j) =>
          j.kind === 'job' &&
          j.owner?.name === cj.name &&
          Date.parse(j.fields['completionTime'] ?? '') >= first,
      );
    // "Saw completed job: x, condition: Complete" after the first deletion: a run succeeded
    const sawSuccess = mine.some(
      (e) =>
        /^Saw completed job:.*\bComplete\b/.test(e.message) &&
        (when(e) ?? tick(/^Saw completed job: ([^,\s]+)/.exec(e.message)?.[1]) ?? 0) >= first,
    );
    if (completedSince || sawSuccess) continue;
    const latest = replaced.find((r) => r.at === last)!.e;
    out.push({
      entry,
      object: { kind: 'cronjob', name: cj.name, namespace: cj.namespace },
      workload: cj.name,
      fact: latest.message,
      groups: {
        schedule: cj.fields['schedule'] ?? 'its schedule',
        replaced_runs: `${replaced.length} runs replaced since ${iso(Math.min(...replaced.map((r) => r.at)))}`,
        last_success: Number.isFinite(success)
          ? `; its last successful run ended ${iso(success)}`
          : '',
        run_took: lastRunsTook(model, cj),
      },
      at: last,
      where: 'event',
      source: latest.source,
    });
  }
  return out;
}

/** how long its last successful runs took, from its finished Jobs */
function lastRunsTook(model: ClusterModel, cj: ObjectView): string {
  const mins = model
    .list('job', cj.namespace)
    .filter(
      (j) => j.kind === 'job' && (j.owner?.name === cj.name || j.name.startsWith(`${cj.name}-`)),
    )
    .map((j) => {
      const a = Date.parse(j.fields['startTime'] ?? '');
      const b = Date.parse(j.fields['completionTime'] ?? '');
      return Number.isFinite(a) && Number.isFinite(b) && b > a ? Math.round((b - a) / 60_000) : 0;
    })
    .filter((m) => m > 0);
  return mins.length ? ` (its last completed runs took ${mins.slice(-3).join(', ')} minutes)` : '';
}

const DAY = 86_400_000;
/** the API server's answer to a request without a valid token, as clients log it */
const UNAUTHORIZED = /\bUnauthorized\b|\b401\b[^\n]{0,40}\bunauthori[sz]ed\b/;
/** a client-go that reads the token file once (the reload came with v0.15.7) */
const OLD_CLIENT_GO = /\bclient-go@v0\.(\d+)\.(\d+)\b/;

/**
 * A process that has run for a year without a restart and now gets 401 Unauthorized from the
 * API server: the bound service account token it read at start was valid for a year (the API
 * server's extended expiry for clients that do not reload it), and it never re-read the rotated
 * file. Its first 401 must come about a year after the pod started (or later, when it logs a
 * client-go that does not reload the token).
 */
function tokensNeverReloaded(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const l of model.logs) {
    if (l.previous || !l.pod) continue;
    const pod = model.get('pod', l.pod, l.namespace);
    if (!pod?.created || pod.restarts || seen.has(`${pod.namespace}/${pod.name}`)) continue;
    const denied = l.lines.filter((x) => x.at !== undefined && UNAUTHORIZED.test(x.text));
    const firstAt = denied[0]?.at;
    if (firstAt === undefined) continue;
    const age = firstAt - pod.created;
    const old = l.lines
      .map((x) => OLD_CLIENT_GO.exec(x.text))
      .find((m) => m && (Number(m[1]) < 15 || (Number(m[1]) === 15 && Number(m[2]) < 7)));
    // about a year after the token was issued, or later for a client that cannot reload it
    if (age < 363 * DAY || (age > 368 * DAY && !old)) continue;
    // it worked with that token before: a request answered without 401 earlier
    if (!l.lines.some((x) => x.at !== undefined && x.at < firstAt && !UNAUTHORIZED.test(x.text)))
      continue;
    seen.add(`${pod.namespace}/${pod.name}`);
    const latest = denied[denied.length - 1]!;
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload: model.workloadOf(pod).name,
      fact: clip(latest.text.replace(/^\S+Z\s+/, ''), 220),
      groups: {
        token_issued: iso(pod.created),
        token_first_401: iso(firstAt),
        token_age: `${Math.round(age / DAY)} days${age <= 368 * DAY ? ' (one year)' : ''}`,
        token_client: old
          ? ` (it runs client-go ${old[0].replace(/^client-go@/, '')}, which reads the token once; client-go re-reads it since v0.15.7)`
          : '',
      },
      at: latest.at,
      where: 'log',
      source: l.source,
    });
  }
  return out;
}
