/**
 * A rule of round 23 (r23a, diagnose-r23a.ts): a CronJob with concurrencyPolicy Replace whose
 * cronjob-controller deletes the Job still running each time it creates the next, with no
 * successful run since. Near misses: the same events under Forbid, and a Replace CronJob whose
 * deletions are history cleanup (its runs succeed).
 * And a process that gets 401 Unauthorized from the API server a year after its pod started (it
 * never re-reads its rotated service account token). Near miss: the same 401 from a pod started
 * a week ago (a token or account problem of another kind).
 */
import { NOW, ago, apiTools, investigateAt, kubeEvent, podObj } from './spec-world';

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

describe('round 23 (r23a): a process that never re-reads its service account token', () => {
  const DAY_MIN = 60 * 24;
  const world = (ageDays: number) => {
    const pod = podObj({
      name: 'quota-operator-6d8f7c9b5d-x2k4q',
      ns: 'ops',
      labels: { app: 'quota-operator' },
      owner: { kind: 'ReplicaSet', name: 'quota-operator-6d8f7c9b5d' },
      boxes: [{ name: 'manager', image: 'registry.example.com/quota-operator:0.9.1' }],
      created: ageDays * DAY_MIN,
    });
    const at = (minAgo: number) => ago(minAgo);
    const log = [
      `${at(ageDays * DAY_MIN - 1)} I starting quota-operator`,
      `${at(ageDays * DAY_MIN - 2)} I using in-cluster config`,
      `${at(3 * DAY_MIN)} I reconciled namespace team-a`,
      `${at(2 * DAY_MIN)} E reflector.go:153] /go/pkg/mod/k8s.io/client-go@v0.14.10/tools/cache/reflector.go:105: Failed to list *v1.Namespace: Unauthorized`,
      `${at(30)} E reflector.go:153] /go/pkg/mod/k8s.io/client-go@v0.14.10/tools/cache/reflector.go:105: Failed to list *v1.Namespace: Unauthorized`,
    ].join('\n');
    return apiTools({ objects: [pod], logs: { 'quota-operator-6d8f7c9b5d-x2k4q': log } });
  };

  it('first 401 a year after the pod started, an old client-go: says the token was never reloaded', async () => {
    const { text } = await investigateAt(
      world(367),
      'new teams get no quota, quota-operator is running with no restarts. can you check?',
      NOW,
      'ops',
    );
    expect(text).toContain('gets 401 Unauthorized from the API server');
    expect(text).toContain('365 days (one year) later');
    expect(text).toContain('never reloads the token file');
    expect(text).toContain('client-go v0.14.10');
  });

  it('near miss: the same 401 from a pod started a week ago is not this rule', async () => {
    const { text } = await investigateAt(
      world(7),
      'new teams get no quota, quota-operator is running with no restarts. can you check?',
      NOW,
      'ops',
    );
    expect(text).not.toContain('never reloads the token file');
  });
});
