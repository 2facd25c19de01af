/**
 * The engine rules of round21's scheduling and eviction (cause-catalog.data.ts, its "scheduling:
 * who holds the capacity, who evicts (round21, r21sched)" block, variables in
 * finding-vars-r21sched.ts), one test per rule, each with a near miss where it must not fire:
 * pods with no node with room while one CronJob's runs pile up (several alive at once), and a
 * Job whose pods the cluster autoscaler deleted for a node scale-down; an Ingress that forces the
 * redirect to https behind a load balancer that ends TLS (a 308 redirect loop).
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
  serviceObj,
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

  it('an Ingress forcing the https redirect behind a load balancer that ends TLS: the answer says force-ssl-redirect, 308 and the port mapping; TLS ending on the controller, or use-forwarded-headers set: not this rule', async () => {
    const ns = 'web';
    const world = (o: {
      tlsOnController?: boolean;
      forwarded?: boolean;
      log?: 'none' | 'recovered';
    }): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('ingress-nginx'),
        deploymentObj('shopfront', ns, ['registry.example.com/shopfront:9.2'], 2, 2),
        ...['a1b2c', 'd3e4f'].map((x) =>
          podObj({
            name: `shopfront-6f7d8c9b5-${x}`,
            ns,
            labels: { app: 'shopfront' },
            owner: { kind: 'ReplicaSet', name: 'shopfront-6f7d8c9b5' },
            boxes: [{ name: 'shopfront', image: 'registry.example.com/shopfront:9.2' }],
          }),
        ),
        serviceObj('shopfront', ns, { app: 'shopfront' }, 3000, { port: 80 }),
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: {
            name: 'shopfront',
            namespace: ns,
            creationTimestamp: ago(60 * 24 * 90),
            annotations: { 'nginx.ingress.kubernetes.io/force-ssl-redirect': 'true' },
          },
          spec: {
            ingressClassName: 'nginx',
            rules: [
              {
                host: 'shop.example.org',
                http: {
                  paths: [
                    {
                      path: '/',
                      pathType: 'Prefix',
                      backend: { service: { name: 'shopfront', port: { name: 'http' } } },
                    },
                  ],
                },
              },
            ],
          },
        },
        podObj({
          name: 'ingress-nginx-controller-7d9f8b6c5-k2m4p',
          ns: 'ingress-nginx',
          labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
          owner: { kind: 'ReplicaSet', name: 'ingress-nginx-controller-7d9f8b6c5' },
          boxes: [
            { name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.11.2' },
          ],
        }),
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: {
            name: 'ingress-nginx-controller',
            namespace: 'ingress-nginx',
            creationTimestamp: ago(60 * 24 * 200),
            annotations: {
              'service.beta.kubernetes.io/aws-load-balancer-type': 'nlb',
              ...(o.tlsOnController
                ? {}
                : {
                    'service.beta.kubernetes.io/aws-load-balancer-ssl-cert':
                      'arn:aws:acm:us-east-1:111122223333:certificate/abc',
                  }),
            },
          },
          spec: {
            type: 'LoadBalancer',
            selector: { 'app.kubernetes.io/name': 'ingress-nginx' },
            ports: [
              { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
              {
                name: 'https',
                port: 443,
                targetPort: o.tlsOnController ? 'https' : 'http',
                protocol: 'TCP',
              },
            ],
          },
        },
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'ingress-nginx-controller', namespace: 'ingress-nginx' },
          data: o.forwarded ? { 'use-forwarded-headers': 'true' } : { 'proxy-body-size': '8m' },
        },
      ],
      events: [],
      logs: {
        'ingress-nginx-controller-7d9f8b6c5-k2m4p': [
          ...(o.log === 'none'
            ? []
            : [
                `10.0.1.5 - - [10/Mar/2026:11:20:02 +0000] "GET / HTTP/1.1" 200 4821 "-" "Mozilla/5.0" 512 0.041 [${ns}-shopfront-http] [] 10.0.2.7:3000 4821 0.041 200 8c1f0e2a`,
                `10.0.1.5 - - [10/Mar/2026:11:50:10 +0000] "GET / HTTP/1.1" 308 164 "-" "Mozilla/5.0" 512 0.000 [${ns}-shopfront-http] [] - - - - 1c8b042f`,
              ]),
          ...(o.log === 'recovered'
            ? [
                `10.0.1.5 - - [10/Mar/2026:11:55:10 +0000] "GET / HTTP/1.1" 200 4821 "-" "Mozilla/5.0" 512 0.040 [${ns}-shopfront-http] [] 10.0.2.7:3000 4821 0.040 200 9d2e1f3b`,
              ]
            : []),
        ].join('\n'),
      },
    });
    const ask =
      'shop.example.org gives ERR_TOO_MANY_REDIRECTS in every browser. shopfront pods look fine?';
    const loop = answerOf((await investigateAt(apiTools(world({})), ask, NOW)).result);
    expect(loop).toContain('force-ssl-redirect');
    expect(loop).toContain('308');
    expect(loop).toContain('port 443 -> targetPort http');
    expect(loop).toContain('aws-load-balancer-ssl-cert');
    // the controller's log unread: its ConfigMap read, trusting no forwarded scheme, says enough
    const unread = answerOf(
      (await investigateAt(apiTools(world({ log: 'none' })), ask, NOW)).result,
    );
    expect(unread).toContain('force-ssl-redirect');
    expect(unread).toContain('use-forwarded-headers');
    for (const near of [
      { tlsOnController: true },
      { forwarded: true },
      { log: 'recovered' as const },
    ]) {
      const fine = answerOf((await investigateAt(apiTools(world(near)), ask, NOW)).result);
      expect(fine).not.toContain('redirect loop');
    }
  });
});
