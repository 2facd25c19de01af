/**
 * The template variables of the scheduling and eviction rules of round21 (cause-catalog.data.ts,
 * its "scheduling: who holds the capacity, who evicts (round21, r21sched)" block): the CronJob
 * whose overlapping runs hold the cluster's requests when a pod finds no node with room, and the
 * cluster autoscaler's own line about the node it removed under a Job's pod.
 */
import type { FindingContext } from './finding-vars';
import { hasFinished, isUnhealthy } from './health';
import { quantity, type ClusterModel } from './model';
import type { ObjectView } from './observe/views';
import { clip } from './text';

type Vars = Record<string, string>;

/** at least this many runs of one CronJob alive at once: they pile up (one run is normal) */
const PILED_RUNS = 3;

const fmtCpu = (cores: number) =>
  cores >= 1 && Number.isInteger(cores) ? `${cores}` : `${Math.round(cores * 1000)}m`;

/** what one run of a CronJob requests: its pods' containers, else its job template's */
function runRequest(runs: ObjectView[], res: string): number {
  for (const p of runs) {
    const n = p.containers
      .filter((c) => !c.init)
      .reduce((a, c) => a + quantity(c.requests[res] ?? '0'), 0);
    if (n) return n;
  }
  return 0;
}

/**
 * The CronJob a pod is a run of: its owner chain when read, else its name (a CronJob names its
 * Jobs <cronjob>-<scheduled time in minutes since the epoch>, a Job its pods <job>-<5 characters>)
 */
function cronOf(model: ClusterModel, p: ObjectView): string | undefined {
  const w = model.workloadOf(p);
  if (w.kind === 'cronjob') return w.name;
  const m = /^(.+)-\d{8,}-[a-z0-9]{5}$/.exec(p.name);
  return m?.[1];
}

/** the CronJobs of the cluster with several runs alive at once (not finished), most first */
export function piledCronRuns(model: ClusterModel, except?: string) {
  const out: {
    cron: ObjectView | undefined;
    name: string;
    namespace?: string;
    runs: ObjectView[];
  }[] = [];
  const groups = new Map<string, ObjectView[]>();
  for (const p of model.list('pod')) {
    if (hasFinished(p)) continue;
    const name = cronOf(model, p);
    if (!name || name === except) continue;
    const k = `${p.namespace ?? ''}/${name}`;
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  for (const [k, runs] of groups) {
    const [ns, name] = k.split('/') as [string, string];
    // one pod per run: several pods of one Job (a retry) are one run
    const jobs = new Set(runs.map((p) => p.name.replace(/-[a-z0-9]{5}$/, '')));
    if (jobs.size < PILED_RUNS) continue;
    out.push({ cron: model.get('cronjob', name, ns || undefined), name, namespace: ns, runs });
  }
  return out.sort((a, b) => b.runs.length - a.runs.length);
}

/**
 * Who holds the requests when no node has room: a CronJob whose runs overlap (each run outlives
 * its schedule interval and concurrencyPolicy Allow starts the next anyway).
 */
function capacityHolder({ f, model, pod, now }: FindingContext): Vars {
  const res = f.groups['res'] ?? '';
  if (res !== 'cpu' && res !== 'memory') return {};
  const self = pod ? model.workloadOf(pod).name : f.workload;
  const piled = piledCronRuns(model, self)[0];
  if (!piled) return {};
  const { cron, name, runs } = piled;
  const running = runs.filter((p) => /^Running$/.test(p.status ?? '')).length;
  const pending = runs.filter((p) => /^Pending$/.test(p.status ?? '')).length;
  const states =
    running + pending === runs.length
      ? `${running} Running, ${pending} Pending`
      : `${pending} Pending`;
  const schedule = cron?.fields['schedule'];
  const policy = cron?.fields['concurrencyPolicy'];
  const each = runRequest(runs, res);
  // what the runs that were scheduled hold (a Pending run holds nothing yet)
  const held = (runs.length - pending) * each;
  const amount = (n: number) => (res === 'cpu' ? fmtCpu(n) : `${Math.round(n / 1024 ** 2)}Mi`);
  const jobs = new Set(runs.map((p) => p.name.replace(/-[a-z0-9]{5}$/, ''))).size;
  // said only when every node read is Ready
  const nodes = model.list('node');
  const kept =
    nodes.length && !nodes.some((n) => isUnhealthy(n, now))
      ? `. All ${nodes.length} nodes read are Ready: no node was lost`
      : '';
  return {
    capacity_holder: `. What holds the ${res}: CronJob ${name}${schedule ? ` (schedule "${schedule}"${policy ? `, concurrencyPolicy ${policy}` : ''})` : policy ? ` (concurrencyPolicy ${policy})` : ''} has ${jobs} runs alive at once (${states}): each run lasts longer than its schedule interval and ${policy && policy !== 'Allow' ? 'its runs still overlap' : 'concurrencyPolicy Allow starts the next one anyway'}, so the runs pile up${each ? `; each requests ${amount(each)} ${res}, ${amount(held)} held by the runs scheduled` : ' and hold their requests'}${kept}`,
    capacity_holder_fix: ` Stop the pile-up first: set concurrencyPolicy: Forbid on CronJob ${name}${schedule ? ` and a schedule its run fits in (now "${schedule}")` : ''}, then delete its piled-up Jobs (\`kubectl delete job\` of the older runs) to free their requests.`,
  };
}

/** the cluster autoscaler's own line about removing a node (its log, if read), one naming `pods` first */
function scaleDownLine(model: ClusterModel, pods: string[]): string {
  const lines = model.logs
    .filter((l) => /cluster-autoscaler/.test(`${l.pod ?? ''} ${l.container ?? ''}`))
    .flatMap((l) => l.lines.map((x) => x.text))
    .filter((t) => /Scale-down: removing (?:empty )?node|was unneeded for/i.test(t));
  const removing = lines.filter((t) => /Scale-down: removing/i.test(t));
  const line =
    removing.find((t) => pods.some((p) => t.includes(p))) ?? removing[0] ?? lines[0] ?? '';
  return clip(line.replace(/\s+/g, ' '), 220);
}

/** a Job's pods deleted by the cluster autoscaler's scale-down: its own line, the Job's limit */
function scaleDownEviction({ f, model }: FindingContext): Vars {
  const ns = f.object?.namespace;
  // the Job: the finding's workload, or the pod's name without its 5 random characters
  const job =
    model.get('job', f.workload, ns) ??
    (f.object?.kind === 'pod'
      ? model.get('job', f.object.name.replace(/-[a-z0-9]{5}$/, ''), ns)
      : undefined);
  const stem = job?.name ?? f.workload.replace(/-[a-z0-9]{5}$/, '');
  const evicted = [
    ...new Set(
      model.events
        .filter(
          (e) =>
            e.reason === 'ScaleDown' &&
            /for node scale down/i.test(e.message) &&
            (e.object?.name ?? '').startsWith(`${stem}-`) &&
            (!ns || !e.namespace || e.namespace === ns),
        )
        .map((e) => e.object!.name),
    ),
  ];
  const line = scaleDownLine(model, evicted);
  const limit = job?.fields['backoffLimit'];
  const gaveUp =
    job?.conditions.some(
      (c) =>
        c.type === 'Failed' && c.status === 'True' && /BackoffLimitExceeded/.test(c.reason ?? ''),
    ) ||
    model.events.some(
      (e) => e.reason === 'BackoffLimitExceeded' && e.object?.name === (job?.name ?? stem),
    );
  return {
    ca_job: `Job ${job?.name ?? stem}`,
    ca_line: line ? ` (the cluster autoscaler logged: "${line}")` : '',
    evicted_runs: evicted.length > 1 ? `${evicted.length} of its pods were` : 'its pod was',
    ca_backoff: gaveUp
      ? `; each eviction counts as a failed attempt, and the Job gave up at its backoffLimit${limit ? ` ${limit}` : ''} (BackoffLimitExceeded)`
      : '',
  };
}

export const R21SCHED_VARS: Record<string, (x: FindingContext) => Vars> = {
  job_pod_evicted_by_scale_down: scaleDownEviction,
};

/** joined to sched_insufficient's own variables (capacityVars) */
export const r21schedCapacityHolder = capacityHolder;
