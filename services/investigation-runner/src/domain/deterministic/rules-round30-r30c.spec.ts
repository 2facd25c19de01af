/**
 * The engine rules of round30 (r30c) (cause-catalog.data.ts, its "round30 (r30c)" block, rules
 * that compare objects in diagnose-r30c.ts, variables in finding-vars-r30c.ts, the question in
 * questions-r30c.ts), one test per rule, each with a near miss where it must not fire: a drain
 * refused by a budget already used up by a pod that is not healthy; pods refused because a
 * request is above the limit a LimitRange default gives; a CronJob whose runs are skipped as
 * missed (a short startingDeadlineSeconds); "which PDBs allow 0 disruptions?".
 */
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  warningEvent,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

const nodeObj = (name: string, cordoned = false): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  spec: cordoned
    ? {
        unschedulable: true,
        taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
      }
    : {},
  status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] },
});

const pdbObj = (
  name: string,
  ns: string,
  app: string,
  budget: { minAvailable?: number | string; maxUnavailable?: number | string },
  status: { healthy: number; expected: number; allowed: number },
): Obj => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name, namespace: ns },
  spec: { selector: { matchLabels: { app } }, ...budget },
  status: {
    currentHealthy: status.healthy,
    desiredHealthy: status.expected - 1,
    expectedPods: status.expected,
    disruptionsAllowed: status.allowed,
  },
});

describe('round30 rules (r30c): a budget used up, a limit nobody wrote, a schedule missed', () => {
  it('a drain refused by a budget already used up by a crash-looping pod names that pod; a budget at 0 with every pod healthy: not this rule', async () => {
    const ns = 'catalog';
    const app = 'ranker';
    const drained = 'node-a';
    const world = (broken: boolean): ApiWorld => {
      const pod = (id: string, node: string, crashing: boolean) =>
        podObj({
          name: `${app}-5d7c9b8f6-${id}`,
          ns,
          node,
          labels: { app },
          owner: { kind: 'ReplicaSet', name: `${app}-5d7c9b8f6` },
          boxes: [
            crashing
              ? {
                  name: app,
                  image: 'registry.example.com/ranker:2.1.0',
                  restarts: 140,
                  state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
                  lastState: { terminated: { exitCode: 1, reason: 'Error' } },
                }
              : { name: app, image: 'registry.example.com/ranker:2.1.0' },
          ],
        });
      return {
        objects: [
          namespaceObj(ns),
          nodeObj(drained, true),
          nodeObj('node-b'),
          nodeObj('node-c'),
          deploymentObj(app, ns, ['registry.example.com/ranker:2.1.0'], 3, broken ? 2 : 3),
          pod('aaaaa', drained, false),
          pod('bbbbb', 'node-b', false),
          pod('ccccc', 'node-c', broken),
          broken
            ? pdbObj(app, ns, app, { maxUnavailable: 1 }, { healthy: 2, expected: 3, allowed: 0 })
            : pdbObj(app, ns, app, { minAvailable: 3 }, { healthy: 3, expected: 3, allowed: 0 }),
        ],
        events: broken
          ? [
              warningEvent(
                ns,
                { kind: 'Pod', name: `${app}-5d7c9b8f6-ccccc` },
                'BackOff',
                `Back-off restarting failed container ${app}`,
                600,
                1,
                400,
              ),
            ]
          : [],
      };
    };
    const ask = `the drain of ${drained} hangs: error when evicting pods/"${app}-5d7c9b8f6-aaaaa" -n "${ns}" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget. why?`;
    const bad = answerOf((await investigateAt(apiTools(world(true)), ask, NOW, ns)).result);
    expect(bad).toContain('used up by a pod that is not healthy');
    expect(bad).toContain(`${app}-5d7c9b8f6-ccccc`);
    expect(bad).toContain('CrashLoopBackOff');
    expect(bad).toContain(`from the cordoned node ${drained}`);
    const tight = answerOf((await investigateAt(apiTools(world(false)), ask, NOW, ns)).result);
    expect(tight).not.toContain('used up by a pod that is not healthy');
    expect(tight).toContain('allows 0 disruptions');
  });

  it('pods refused for a request above the limit a LimitRange default gives: the LimitRange and both values; a quota refusal: not this rule', async () => {
    const ns = 'ledger';
    const app = 'reconciler';
    const world = (message: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        {
          apiVersion: 'v1',
          kind: 'LimitRange',
          metadata: { name: 'container-defaults', namespace: ns },
          spec: {
            limits: [
              {
                type: 'Container',
                default: { cpu: '250m', memory: '256Mi' },
                defaultRequest: { cpu: '50m', memory: '64Mi' },
              },
            ],
          },
        },
        deploymentObj(app, ns, ['registry.example.com/reconciler:1.9.0'], 2, 2, [], {
          conditions: [
            {
              type: 'ReplicaFailure',
              status: 'True',
              reason: 'FailedCreate',
              message,
              lastTransitionTime: ago(40),
            },
          ],
        }),
        ...['x1x1x', 'y2y2y'].map((id) =>
          podObj({
            name: `${app}-6b8d9c7f5-${id}`,
            ns,
            labels: { app },
            owner: { kind: 'ReplicaSet', name: `${app}-6b8d9c7f5` },
            boxes: [{ name: app, image: 'registry.example.com/reconciler:1.8.4' }],
          }),
        ),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'ReplicaSet', name: `${app}-7c9f8d6b4` },
          'FailedCreate',
          message,
          40,
          2,
          15,
          'replicaset-controller',
        ),
      ],
    });
    const ask = `the new ${app} release never rolls out, only old pods. why?`;
    const over = `Error creating: Pod "${app}-7c9f8d6b4-q1w2e" is invalid: spec.containers[0].resources.requests: Invalid value: "400m": must be less than or equal to cpu limit of 250m`;
    const bad = answerOf((await investigateAt(apiTools(world(over)), ask, NOW, ns)).result);
    expect(bad).toContain('the cpu request 400m is above the cpu limit 250m');
    expect(bad).toContain('LimitRange container-defaults');
    const quota = `Error creating: pods "${app}-7c9f8d6b4-q1w2e" is forbidden: exceeded quota: compute, requested: requests.cpu=400m, used: requests.cpu=3800m, limited: requests.cpu=4`;
    const other = answerOf((await investigateAt(apiTools(world(quota)), ask, NOW, ns)).result);
    expect(other).not.toContain('above the cpu limit');
    expect(other).toContain('exceeded quota');
  });

  it('a CronJob whose runs are skipped as missed names its short startingDeadlineSeconds; missed runs before its last run: not this rule', async () => {
    const ns = 'reports';
    const cron = 'nightly-export';
    const world = (lastRunMin: number): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          metadata: { name: cron, namespace: ns, creationTimestamp: ago(60 * 24 * 60) },
          spec: {
            schedule: '15 1 * * *',
            startingDeadlineSeconds: 8,
            suspend: false,
            jobTemplate: {
              spec: {
                template: {
                  spec: {
                    restartPolicy: 'Never',
                    containers: [{ name: cron, image: 'registry.example.com/export:4.0.1' }],
                  },
                },
              },
            },
          },
          status: { lastScheduleTime: ago(lastRunMin) },
        },
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'CronJob', name: cron },
          'Warning',
          'MissedSchedule',
          'Missed scheduled time to start a job: Mon, 09 Mar 2026 01:15:00 +0000',
          60 * 35,
          60 * 35,
          1,
          'cronjob-controller',
        ),
        kubeEvent(
          ns,
          { kind: 'CronJob', name: cron },
          'Warning',
          'MissedSchedule',
          'Missed scheduled time to start a job: Tue, 10 Mar 2026 01:15:00 +0000',
          60 * 11,
          60 * 11,
          1,
          'cronjob-controller',
        ),
      ],
    });
    const ask = `the ${cron} files did not show up the last two nights, what happened?`;
    const bad = answerOf((await investigateAt(apiTools(world(60 * 59)), ask, NOW, ns)).result);
    expect(bad).toContain('skipped as missed');
    expect(bad).toContain('startingDeadlineSeconds is 8');
    const ran = answerOf((await investigateAt(apiTools(world(60 * 2)), ask, NOW, ns)).result);
    expect(ran).not.toContain('skipped as missed');
  });

  it('"which PDBs will block the drain (0 allowed disruptions)?" lists the budgets at 0 and why; a PDB named in a complaint is no such question', async () => {
    const ns = 'checkout';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        pdbObj('cart', ns, 'cart', { minAvailable: 2 }, { healthy: 2, expected: 2, allowed: 0 }),
        pdbObj('tax', ns, 'tax', { maxUnavailable: 0 }, { healthy: 1, expected: 1, allowed: 0 }),
        pdbObj('web', ns, 'web', { maxUnavailable: 1 }, { healthy: 3, expected: 3, allowed: 1 }),
        pdbObj(
          'other',
          'elsewhere',
          'x',
          { minAvailable: 1 },
          { healthy: 1, expected: 1, allowed: 0 },
        ),
      ],
    };
    const ask = `we upgrade the nodes tonight. which PDBs in ${ns} will block the drain (0 allowed disruptions)?`;
    expect(scopeIncident(ask, {}, NOW).question?.type).toBe('pdb_blocking');
    const answer = answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);
    expect(answer).toContain('cart (minAvailable 2');
    expect(answer).toContain('tax (maxUnavailable 0');
    expect(answer).toContain('web (1 allowed)');
    expect(answer).not.toContain('other');
    const complaint =
      "the drain loops on Cannot evict pod as it would violate the pod's disruption budget. the PDB is maxUnavailable 1 with 3 replicas so this should just work?";
    expect(scopeIncident(complaint, {}, NOW).question?.type).not.toBe('pdb_blocking');
    const stuck = 'the drain of node-a is stuck for 20 minutes: which PDB is blocking it?';
    expect(scopeIncident(stuck, {}, NOW).question?.type).not.toBe('pdb_blocking');
  });
});
