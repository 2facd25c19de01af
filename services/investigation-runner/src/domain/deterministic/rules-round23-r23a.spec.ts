/**
 * A rule of round 23 (r23a, diagnose-r23a.ts): a CronJob with concurrencyPolicy Replace whose
 * cronjob-controller deletes the Job still running each time it creates the next, with no
 * successful run since. Near misses: the same events under Forbid, and a Replace CronJob whose
 * deletions are history cleanup (its runs succeed).
 */
import { NOW, ago, apiTools, investigateAt, kubeEvent } from './spec-world';

type Obj = Record<string, unknown>;
const HOUR = 3_600_000;
const NS = 'ops';
const CJ = 'ledger-export';
/** the cronjob-controller's name for the run scheduled `hours` ago */
const run = (hours: number) => `${CJ}-${(NOW - hours * HOUR) / 60_000}`;

const cronJob = (policy: string, lastSuccessHoursAgo: number): Obj => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: CJ, namespace: NS, creationTimestamp: ago(60 * 24 * 200) },
  spec: {
    schedule: '0 * * * *',
    concurrencyPolicy: policy,
    successfulJobsHistoryLimit: 3,
    jobTemplate: {
      spec: {
        backoffLimit: 1,
        template: {
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'export', image: 'registry.example.com/ledger-export:2.1.0' }],
          },
        },
      },
    },
  },
  status: {
    lastScheduleTime: ago(0),
    lastSuccessfulTime: ago(lastSuccessHoursAgo * 60),
    active: [{ kind: 'Job', namespace: NS, name: run(0) }],
  },
});

const job = (hours: number, tookMin?: number): Obj => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: {
    name: run(hours),
    namespace: NS,
    creationTimestamp: ago(hours * 60),
    ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: CJ, controller: true }],
  },
  spec: { backoffLimit: 1 },
  status:
    tookMin === undefined
      ? { startTime: ago(hours * 60), active: 1 }
      : {
          startTime: ago(hours * 60),
          completionTime: ago(hours * 60 - tookMin),
          succeeded: 1,
          conditions: [{ type: 'Complete', status: 'True' }],
        },
});

/** the controller's events at each of the last ticks: `deleted(h)` names the Job it deletes then */
function tickEvents(ticks: number[], deleted: (h: number) => string): Obj[] {
  return ticks.flatMap((h) =>
    [
      kubeEvent(
        NS,
        { kind: 'CronJob', name: CJ },
        'Normal',
        'SuccessfulDelete',
        `Deleted job ${deleted(h)}`,
        h * 60,
        h * 60,
        1,
        'cronjob-controller',
      ),
      kubeEvent(
        NS,
        { kind: 'CronJob', name: CJ },
        'Normal',
        'SuccessfulCreate',
        `Created job ${run(h)}`,
        h * 60,
        h * 60,
        1,
        'cronjob-controller',
      ),
    ].map((e, k) => ({
      ...e,
      metadata: { name: `${CJ}.${h}.${k}`, namespace: NS },
    })),
  );
}

describe('round 23 (r23a): a CronJob with concurrencyPolicy Replace that kills its running Job', () => {
  it('each tick deletes the run still going and no run succeeded since: names the CronJob, its schedule and Replace', async () => {
    const { text } = await investigateAt(
      apiTools({
        objects: [cronJob('Replace', 75), job(74, 59), job(0)],
        events: tickEvents([2, 1, 0], (h) => run(h + 1)),
      }),
      'the ledger export has not produced a file for three days, no job failed. what is going on?',
      NOW,
      NS,
    );
    expect(text).toContain(
      `${CJ} never finishes a run: it runs on "0 * * * *" with concurrencyPolicy: Replace`,
    );
    expect(text).toContain(`"Deleted job ${run(1)}"; 3 runs replaced since`);
    expect(text).toContain('Set concurrencyPolicy: Forbid');
  });

  it('near miss: the same schedule under Forbid is not this rule', async () => {
    const { text } = await investigateAt(
      apiTools({
        objects: [cronJob('Forbid', 75), job(74, 59), job(0)],
        events: tickEvents([2, 1, 0], (h) => run(h + 1)),
      }),
      'the ledger export has not produced a file for three days, no job failed. what is going on?',
      NOW,
      NS,
    );
    expect(text).not.toContain('concurrencyPolicy: Replace, and each run');
  });

  it('near miss: Replace with deletions of old finished runs (history cleanup) while runs succeed', async () => {
    const { text } = await investigateAt(
      apiTools({
        objects: [cronJob('Replace', 0.9), job(3, 5), job(2, 5), job(1, 5), job(0)],
        events: tickEvents([2, 1, 0], (h) => run(h + 4)),
      }),
      'is the ledger export cronjob ok?',
      NOW,
      NS,
    );
    expect(text).not.toContain('concurrencyPolicy: Replace, and each run');
  });
});
