/**
 * The engine rules of round21's scheduling and eviction (cause-catalog.data.ts, its "scheduling:
 * who holds the capacity, who evicts (round21, r21sched)" block, variables in
 * finding-vars-r21sched.ts), one test per rule, each with a near miss where it must not fire:
 * pods with no node with room while one CronJob's runs pile up (several alive at once), and a
 * Job whose pods the cluster autoscaler deleted for a node scale-down.
 */
import {
  NOW,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  warningEvent,
  ago,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

const cronJobObj = (name: string, ns: string, schedule: string, policy: string): Obj => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 2) },
  spec: {
    schedule,
    concurrencyPolicy: policy,
    jobTemplate: { spec: { template: { spec: { containers: [{ name: 'run', image: 'x' }] } } } },
  },
  status: {},
});

const jobObj = (name: string, ns: string, failed: boolean, owner?: string): Obj => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: {
    name,
    namespace: ns,
    creationTimestamp: ago(600),
    ...(owner
      ? {
          ownerReferences: [
            { apiVersion: 'batch/v1', kind: 'CronJob', name: owner, controller: true },
          ],
        }
      : {}),
  },
  spec: { backoffLimit: 3, template: { spec: { containers: [{ name: 'run', image: 'x' }] } } },
  status: failed
    ? {
        failed: 4,
        conditions: [
          {
            type: 'Failed',
            status: 'True',
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
          },
        ],
      }
    : { active: 1 },
});

describe('round21 rules: scheduling, who holds the capacity and who evicts (r21sched)', () => {
  it('pods with no room while a CronJob has several runs alive at once: the answer names the CronJob, its schedule and concurrencyPolicy; a single run alive: not this rule', async () => {
    const ns = 'shop';
    const world = (runs: number): ApiWorld => {
      const cronPods = Array.from({ length: runs }, (_, i) => {
        const job = `report-rollup-2982290${i}`;
        return [
          jobObj(job, ns, false, 'report-rollup'),
          podObj({
            name: `${job}-k${i}x7q`,
            ns,
            labels: { 'job-name': job },
            owner: { kind: 'Job', name: job },
            phase: i === 0 && runs > 2 ? 'Pending' : 'Running',
            created: 20 - i,
            boxes: [
              {
                name: 'run',
                image: 'registry.example.com/report-rollup:1.0',
                resources: { requests: { cpu: '250m' } },
              },
            ],
          }),
        ];
      }).flat();
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('cart', ns, ['registry.example.com/cart:3.1.0'], 2, 1),
          podObj({
            name: 'cart-6d8f7b9c5d-a1b2c',
            ns,
            labels: { app: 'cart' },
            owner: { kind: 'ReplicaSet', name: 'cart-6d8f7b9c5d' },
            boxes: [{ name: 'cart', image: 'registry.example.com/cart:3.1.0' }],
          }),
          podObj({
            name: 'cart-6d8f7b9c5d-p9q8r',
            ns,
            labels: { app: 'cart' },
            owner: { kind: 'ReplicaSet', name: 'cart-6d8f7b9c5d' },
            phase: 'Pending',
            created: 15,
            boxes: [
              {
                name: 'cart',
                image: 'registry.example.com/cart:3.1.0',
                resources: { requests: { cpu: '500m' } },
              },
            ],
          }),
          cronJobObj('report-rollup', ns, '*/1 * * * *', 'Allow'),
          ...cronPods,
        ],
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: 'cart-6d8f7b9c5d-p9q8r' },
            'FailedScheduling',
            '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
            15,
            1,
            16,
            'default-scheduler',
          ),
        ],
      };
    };
    const ask = 'the cart rollout is stuck, the new pod is Pending. did the cluster lose capacity?';
    const piled = answerOf((await investigateAt(apiTools(world(6)), ask, NOW, ns)).result);
    expect(piled).toContain('Insufficient cpu');
    expect(piled).toContain('CronJob report-rollup');
    expect(piled).toContain('"*/1 * * * *"');
    expect(piled).toContain('concurrencyPolicy Allow');
    expect(piled).toContain('6 runs alive at once');
    const one = answerOf((await investigateAt(apiTools(world(1)), ask, NOW, ns)).result);
    expect(one).toContain('Insufficient cpu');
    expect(one).not.toContain('report-rollup');
  });

  it("a Job's pods deleted by the cluster autoscaler's scale-down: the answer says scale-down, evicted and safe-to-evict with the autoscaler's own line; pods that failed on their own, or a Deployment's pod moved by a scale-down: not this rule", async () => {
    const ns = 'ml';
    const job = 'embeddings-rebuild';
    const pods = ['b7k2d', 'c8m3f', 'd9n4g', 'f2p5h'];
    const world = (scaledDown: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        jobObj(job, ns, true),
        ...pods.map((s, i) =>
          podObj({
            name: `${job}-${s}`,
            ns,
            labels: { 'job-name': job },
            owner: { kind: 'Job', name: job },
            phase: 'Failed',
            created: 600 - i * 150,
            boxes: [
              {
                name: 'rebuild',
                image: 'registry.example.com/embeddings:7.2',
                state: { terminated: { exitCode: 143, reason: 'Error' } },
              },
            ],
          }),
        ),
        podObj({
          name: 'cluster-autoscaler-5f7c9d8b6-x2k4p',
          ns: 'kube-system',
          labels: { app: 'cluster-autoscaler' },
          owner: { kind: 'ReplicaSet', name: 'cluster-autoscaler-5f7c9d8b6' },
          boxes: [
            {
              name: 'cluster-autoscaler',
              image: 'registry.k8s.io/autoscaling/cluster-autoscaler:v1.30.2',
            },
          ],
        }),
      ],
      events: [
        ...(scaledDown
          ? pods.map((s, i) =>
              kubeEvent(
                ns,
                { kind: 'Pod', name: `${job}-${s}` },
                'Normal',
                'ScaleDown',
                'deleting pod for node scale down',
                500 - i * 150,
                500 - i * 150,
                1,
                'cluster-autoscaler',
              ),
            )
          : []),
        warningEvent(
          ns,
          { kind: 'Job', name: job },
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
          20,
          20,
          1,
          'job-controller',
        ),
      ],
      logs: {
        'cluster-autoscaler-5f7c9d8b6-x2k4p': `I0618 05:44:30.601337       1 actuator.go:161] Scale-down: removing node ip-10-1-2-3.internal, utilization: {0.31 0.2 0 cpu 0.31}, pods to reschedule: ${job}-${pods[3]}`,
      },
    });
    const ask = `the ${job} job failed overnight, what killed it?`;
    const evicted = answerOf((await investigateAt(apiTools(world(true)), ask, NOW, ns)).result);
    expect(evicted).toContain('scale-down');
    expect(evicted).toContain('4 of its pods were evicted');
    expect(evicted).toContain('safe-to-evict');
    expect(evicted).toContain('utilization: {0.31');
    expect(evicted).toContain('backoffLimit 3');
    const own = answerOf((await investigateAt(apiTools(world(false)), ask, NOW, ns)).result);
    expect(own).toContain('BackoffLimitExceeded');
    expect(own).not.toContain('safe-to-evict');

    // a Deployment's pod the autoscaler moved: replaced elsewhere, nothing failing
    const dns = 'web';
    const moved: ApiWorld = {
      objects: [
        namespaceObj(dns),
        deploymentObj('frontend', dns, ['registry.example.com/frontend:4.0'], 2, 2),
        ...['h3k9s', 'j4l8t'].map((s) =>
          podObj({
            name: `frontend-7b9c8d6f5-${s}`,
            ns: dns,
            labels: { app: 'frontend' },
            owner: { kind: 'ReplicaSet', name: 'frontend-7b9c8d6f5' },
            created: 50,
            boxes: [{ name: 'frontend', image: 'registry.example.com/frontend:4.0' }],
          }),
        ),
      ],
      events: [
        kubeEvent(
          dns,
          { kind: 'Pod', name: 'frontend-7b9c8d6f5-m2n7v' },
          'Normal',
          'ScaleDown',
          'deleting pod for node scale down',
          55,
          55,
          1,
          'cluster-autoscaler',
        ),
      ],
    };
    const fine = answerOf(
      (await investigateAt(apiTools(moved), 'is frontend healthy?', NOW, dns)).result,
    );
    expect(fine).not.toContain('safe-to-evict');
    expect(fine).toContain('No problem found');
  });
});
