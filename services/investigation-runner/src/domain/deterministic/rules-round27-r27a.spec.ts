/**
 * The engine rules of round27 (r27a) (diagnose-r27a.ts; the hooks in conclude.ts, gatherer.ts and
 * finding-vars.ts), one test per rule, each with a near miss:
 * - a failed run of a CronJob whose every later run completed is history (a KubeJobFailed alert
 *   on the failed Job the CronJob keeps): no problem, the answer says the later runs completed;
 * - a Job past its activeDeadlineSeconds whose pods could not start (no sandbox: the CNI has no
 *   address): the pods' events (a gone pod's, the CronJob's stuck run's) give the cause, and the
 *   node comes from the Scheduled event.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  warningEvent,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

const cronJobObj = (name: string, ns: string, lastSuccess?: number): Obj => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 30) },
  spec: {
    schedule: '5 * * * *',
    failedJobsHistoryLimit: 1,
    jobTemplate: { spec: { template: { spec: { containers: [{ name: 'run', image: 'x' }] } } } },
  },
  status: {
    lastScheduleTime: ago(15),
    ...(lastSuccess !== undefined ? { lastSuccessfulTime: ago(lastSuccess) } : {}),
  },
});

type RunState = 'failed' | 'complete' | 'deadline' | 'active';

/** a Job of a CronJob, started `startMin` minutes ago */
const runObj = (cron: string, n: number, ns: string, state: RunState, startMin: number): Obj => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: {
    name: `${cron}-${n}`,
    namespace: ns,
    creationTimestamp: ago(startMin),
    ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cron, controller: true }],
  },
  spec: {
    backoffLimit: 1,
    activeDeadlineSeconds: 600,
    template: { spec: { containers: [{ name: 'run', image: 'x' }] } },
  },
  status: {
    startTime: ago(startMin),
    ...(state === 'complete'
      ? {
          succeeded: 1,
          completionTime: ago(startMin - 2),
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached' },
            { type: 'Complete', status: 'True', reason: 'CompletionsReached' },
          ],
        }
      : state === 'failed'
        ? {
            failed: 2,
            conditions: [
              {
                type: 'Failed',
                status: 'True',
                reason: 'BackoffLimitExceeded',
                message: 'Job has reached the specified backoff limit',
              },
            ],
          }
        : state === 'deadline'
          ? {
              failed: 1,
              conditions: [
                {
                  type: 'Failed',
                  status: 'True',
                  reason: 'DeadlineExceeded',
                  message: 'Job was active longer than specified deadline',
                },
              ],
            }
          : { active: 1 }),
  },
});

const runPod = (
  cron: string,
  n: number,
  suffix: string,
  ns: string,
  phase: 'Succeeded' | 'Failed' | 'Pending',
  created: number,
  node = 'worker-1',
) =>
  podObj({
    name: `${cron}-${n}-${suffix}`,
    ns,
    labels: { 'job-name': `${cron}-${n}` },
    owner: { kind: 'Job', name: `${cron}-${n}` },
    phase,
    created,
    node,
    scheduled: true,
    boxes: [
      {
        name: 'run',
        image: 'registry.example.com/export:2.3.1',
        ready: false,
        state:
          phase === 'Pending'
            ? { waiting: { reason: 'ContainerCreating' } }
            : {
                terminated: {
                  reason: phase === 'Succeeded' ? 'Completed' : 'Error',
                  exitCode: phase === 'Succeeded' ? 0 : 1,
                  finishedAt: ago(created - 2),
                },
              },
      },
    ],
  });

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

describe('round27 rules (r27a)', () => {
  it('a failed CronJob run whose later runs all completed: no problem, the later runs completed; a later run that failed too: still a failure', async () => {
    const ns = 'reporting';
    const cron = 'usage-export';
    const world = (laterFails: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        cronJobObj(cron, ns, laterFails ? 125 : 5),
        runObj(cron, 100, ns, 'failed', 195),
        runObj(cron, 160, ns, 'complete', 135),
        runObj(cron, 220, ns, laterFails ? 'failed' : 'complete', 75),
        runObj(cron, 280, ns, laterFails ? 'failed' : 'complete', 15),
        runPod(cron, 100, 'aaaaa', ns, 'Failed', 195),
        runPod(cron, 100, 'bbbbb', ns, 'Failed', 192),
        runPod(cron, 160, 'ccccc', ns, 'Succeeded', 135),
        runPod(cron, 220, 'ddddd', ns, laterFails ? 'Failed' : 'Succeeded', 75),
        runPod(cron, 280, 'eeeee', ns, laterFails ? 'Failed' : 'Succeeded', 15),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Job', name: `${cron}-100` },
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
          190,
          190,
          1,
          'job-controller',
        ),
      ],
      logs: {
        [`${cron}-100-aaaaa`]: `${ago(194)} level=error msg="upload failed" err="operation error S3: PutObject, https response error StatusCode: 503, api error SlowDown: Please reduce your request rate."\n`,
        [`${cron}-100-bbbbb`]: `${ago(191)} level=error msg="upload failed" err="operation error S3: PutObject, https response error StatusCode: 503, api error SlowDown: Please reduce your request rate."\n`,
      },
    });
    const ask = `[FIRING:1] KubeJobFailed (${ns} ${cron}-100 warning) Job ${ns}/${cron}-100 failed to complete. Is ${cron} broken?`;
    const healthy = await answer(world(false), ask, ns);
    expect(healthy).toMatch(/^No problem found/);
    expect(healthy).toMatch(/later run\(s\)[^.]*completed/);
    expect(healthy).toContain(`${cron}-280`);
    const broken = await answer(world(true), ask, ns);
    expect(broken).not.toMatch(/^No problem found/);
  });

  it('a Job past its deadline whose gone pod and the current run could not start (no IP address from the CNI): the answer names the CNI error and the node of the Scheduled event; pods that ran and were slow: the deadline', async () => {
    const ns = 'billing';
    const cron = 'invoice-sync';
    const ipam =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "43bb00d0ce77": plugin type="flannel" failed (add): failed to allocate for range 0: no IP addresses available in range set: 10.244.2.1-10.244.2.254';
    const world = (noSandbox: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        cronJobObj(cron, ns, 50),
        runObj(cron, 10, ns, 'complete', 50),
        runObj(cron, 25, ns, 'deadline', 35),
        runObj(cron, 40, ns, 'active', 20),
        runPod(cron, 10, 'aaaaa', ns, 'Succeeded', 50),
        ...(noSandbox ? [runPod(cron, 40, 'ccccc', ns, 'Pending', 20, 'worker-2')] : []),
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'Job', name: `${cron}-25` },
          'Normal',
          'SuccessfulCreate',
          `Created pod: ${cron}-25-bbbbb`,
          35,
          35,
          1,
          'job-controller',
        ),
        warningEvent(
          ns,
          { kind: 'Job', name: `${cron}-25` },
          'DeadlineExceeded',
          'Job was active longer than specified deadline',
          25,
          25,
          1,
          'job-controller',
        ),
        ...(noSandbox
          ? [
              kubeEvent(
                ns,
                { kind: 'Pod', name: `${cron}-25-bbbbb` },
                'Normal',
                'Scheduled',
                `Successfully assigned ${ns}/${cron}-25-bbbbb to worker-2`,
                35,
                35,
                1,
                'default-scheduler',
              ),
              warningEvent(
                ns,
                { kind: 'Pod', name: `${cron}-25-bbbbb` },
                'FailedCreatePodSandBox',
                ipam,
                34,
                26,
                40,
              ),
              warningEvent(
                ns,
                { kind: 'Pod', name: `${cron}-40-ccccc` },
                'FailedCreatePodSandBox',
                ipam,
                19,
                1,
                40,
              ),
            ]
          : []),
      ],
    });
    const ask = `[FIRING:1] KubeJobFailed (${ns} ${cron}-25 warning) Job ${ns}/${cron}-25 failed to complete.`;
    const stuck = await answer(world(true), ask, ns);
    expect(stuck).toMatch(/no IP address/);
    expect(stuck).toContain('worker-2');
    const slow = await answer(world(false), ask, ns);
    expect(slow).toMatch(/DeadlineExceeded|activeDeadlineSeconds/);
    expect(slow).not.toMatch(/no IP address/);
  });
});
