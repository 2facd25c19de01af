/**
 * Four kinds of question about what happened lately, each asked in words other than the bench's
 * and answered from outputs shaped like real ones (`kubectl get` tables and `kubectl describe`
 * text as libs/kube prints them, Kubernetes API objects as JSON): which Jobs failed in a window
 * and why, which pods cannot pull their image (every namespace), which containers restarted and
 * how each last terminated, which Deployments rolled out in a window.
 */
import { describe as kubeDescribe, getTable } from '@inquest/kube';
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  apiTools,
  investigateAt,
  kubeEvent,
  podObj,
  textTools,
  type ApiWorld,
  type TextWorld,
} from './spec-world';

type Obj = Record<string, unknown>;
const now = new Date(NOW);
const metaOf = (o: Obj) => o['metadata'] as Obj;
const nameOf = (o: Obj) => String(metaOf(o)['name']);
const eventsOf = (events: Obj[], o: Obj) =>
  events.filter((e) => (e['involvedObject'] as Obj)['name'] === nameOf(o));
const describedAll = (objs: Obj[], events: Obj[] = [], related: Obj[] = []) =>
  Object.fromEntries(
    objs.map((o) => [
      `${String(o['kind']).toLowerCase()}/${nameOf(o)}`,
      kubeDescribe(o, { events: eventsOf(events, o), now, related }),
    ]),
  );

describe('questions of round 16: phrasings', () => {
  it.each([
    ['which jobs failed since midnight and why?', 'failed_jobs'],
    ['any cronjob runs that failed today?', 'failed_jobs'],
    ['list the batch jobs that did not complete today', 'failed_jobs'],
    ['anything stuck pulling images?', 'image_pull'],
    ["which pods can't pull their image?", 'image_pull'],
    ['any ErrImagePull in the cluster?', 'image_pull'],
    ['what restarted in data and why?', 'restarts'],
    ['why did containers restart in payments?', 'restarts'],
    ['which containers have restarted, and how did each one last terminate?', 'restarts'],
    ['what got deployed in the last hour?', 'rollouts'],
    ['any rollouts since 9?', 'rollouts'],
    ['which deployments rolled out today (new image or revision)?', 'rollouts'],
  ])('"%s" is a %s question', (message, type) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe(type);
  });

  it('reads the windows: "since midnight", "since 9", "in the last hour", and "any namespace"', () => {
    const q = (m: string) => scopeIncident(m, {}, NOW).question as Obj;
    expect(q('which jobs failed since midnight and why?')['since']).toBe(
      Date.parse('2026-03-10T00:00:00Z'),
    );
    expect(q('any rollouts since 9?')['since']).toBe(Date.parse('2026-03-10T09:00:00Z'));
    expect(q('what got deployed in the last hour?')['since']).toBe(NOW - 3_600_000);
    expect(q('did any jobs fail overnight in batch?')).toEqual(
      expect.objectContaining({
        type: 'failed_jobs',
        since: Date.parse('2026-03-09T18:00:00Z'),
        near: ['batch'],
      }),
    );
    expect(q('why are the payments pods restarting?')).toEqual(
      expect.objectContaining({ type: 'restarts', near: ['payments'] }),
    );
    expect(
      scopeIncident('which pods are in ImagePullBackOff, any namespace?', { namespace: 'web' }, NOW)
        .question,
    ).toEqual(expect.objectContaining({ type: 'image_pull', all: true, namespace: undefined }));
  });

  it.each([
    'why does checkout-api keep restarting?',
    'should I restart the payments deployment?',
    'why did the nightly-report job fail?',
    'checkout-api pods fail to pull image since the deploy',
    'latency went up since the deploy in the last hour',
    'the new release in the last hour broke checkout',
    'which pods restarted in the last hour',
    'checkout keeps restarting, any idea why?',
    "payments-api can't pull its image, what's wrong?",
    'why is checkout restarting?',
    'why is there a pod in Error state in the data namespace?? did the nightly jobs break?',
    'summary: payments-worker container restarted 1 time in the last 3 days. anything to do here?',
    'the 5xx alert fired overnight and auto-resolved, is anything still wrong with pick-api?',
  ])('"%s" asks no such question', (message) => {
    expect(
      ['failed_jobs', 'image_pull', 'restarts', 'rollouts'].includes(
        scopeIncident(message, {}, NOW).question?.type ?? '',
      ),
    ).toBe(false);
  });
});

// ---------------------------------------------------------------- Jobs

function job(
  name: string,
  ns: string,
  cron: string,
  startMin: number,
  st: {
    failed?: number;
    succeeded?: number;
    end?: number;
    reason?: 'BackoffLimitExceeded' | 'DeadlineExceeded';
    deadline?: number;
  },
): Obj {
  const cond = (type: string, reason: string, message: string) => ({
    type,
    status: 'True',
    lastProbeTime: ago(st.end!),
    lastTransitionTime: ago(st.end!),
    reason,
    message,
  });
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: ns,
      creationTimestamp: ago(startMin),
      labels: { 'job-name': name },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cron, controller: true }],
    },
    spec: {
      backoffLimit: 2,
      ...(st.deadline ? { activeDeadlineSeconds: st.deadline } : {}),
      template: { spec: { containers: [{ name: cron, image: `registry.acme.io/${cron}:1.4.0` }] } },
    },
    status: {
      startTime: ago(startMin),
      ...(st.failed ? { failed: st.failed } : {}),
      ...(st.succeeded ? { succeeded: st.succeeded, completionTime: ago(st.end!) } : {}),
      conditions: st.reason
        ? [
            cond(
              'Failed',
              st.reason,
              st.reason === 'DeadlineExceeded'
                ? 'Job was active longer than specified deadline'
                : 'Job has reached the specified backoff limit',
            ),
          ]
        : st.succeeded
          ? [cond('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods')]
          : [],
    },
  };
}

const jobPod = (name: string, ns: string, jobName: string, created: number, exit: number) =>
  podObj({
    name,
    ns,
    labels: { 'job-name': jobName },
    owner: { kind: 'Job', name: jobName },
    phase: exit ? 'Failed' : 'Succeeded',
    created,
    boxes: [
      {
        name: jobName.replace(/-\d+$/, ''),
        image: 'registry.acme.io/app:1.4.0',
        ready: false,
        state: {
          terminated: {
            exitCode: exit,
            reason: exit ? 'Error' : 'Completed',
            startedAt: ago(created),
            finishedAt: ago(created - 1),
          },
        },
      },
    ],
  });

describe('questions of round 16: which Jobs failed and why', () => {
  const ns = 'etl';
  // NOW is 12:00: today began 720 minutes ago
  const jobs = [
    job('invoice-sync-29547300', ns, 'invoice-sync', 300, {
      failed: 3,
      end: 290,
      reason: 'BackoffLimitExceeded',
    }),
    job('cache-warm-29547360', ns, 'cache-warm', 240, {
      failed: 1,
      end: 180,
      reason: 'DeadlineExceeded',
      deadline: 3600,
    }),
    job('report-29547420', ns, 'report', 200, { failed: 1, succeeded: 1, end: 150 }),
    job('invoice-sync-29545860', ns, 'invoice-sync', 1740, {
      failed: 3,
      end: 1730,
      reason: 'BackoffLimitExceeded',
    }),
  ];
  const pods = [
    jobPod('invoice-sync-29547300-a1b2c', ns, 'invoice-sync-29547300', 299, 1),
    jobPod('invoice-sync-29547300-d3e4f', ns, 'invoice-sync-29547300', 295, 1),
    jobPod('invoice-sync-29547300-g5h6j', ns, 'invoice-sync-29547300', 292, 1),
    jobPod('report-29547420-k7l8m', ns, 'report-29547420', 199, 1),
    jobPod('report-29547420-n9p0q', ns, 'report-29547420', 190, 0),
  ];
  const events = [
    kubeEvent(
      ns,
      { kind: 'Job', name: 'invoice-sync-29547300' },
      'Warning',
      'BackoffLimitExceeded',
      'Job has reached the specified backoff limit',
      290,
      290,
      1,
      'job-controller',
    ),
    kubeEvent(
      ns,
      { kind: 'Job', name: 'cache-warm-29547360' },
      'Warning',
      'DeadlineExceeded',
      'Job was active longer than specified deadline',
      180,
      180,
      1,
      'job-controller',
    ),
    kubeEvent(
      ns,
      { kind: 'Job', name: 'invoice-sync-29545860' },
      'Warning',
      'BackoffLimitExceeded',
      'Job has reached the specified backoff limit',
      1730,
      1730,
      1,
      'job-controller',
    ),
  ];
  const logs = {
    'invoice-sync-29547300-g5h6j':
      '2026-03-10T07:08:01Z INFO syncing invoices\n2026-03-10T07:08:02Z ERROR upstream said 401: invalid API token for account billing-sync\n',
    'invoice-sync-29547300-a1b2c': '2026-03-10T07:01:01Z INFO syncing invoices\n',
  };

  it('"any cronjob runs that failed today?": kubectl tables and descriptions; the last attempt\'s log for a backoff, the deadline for the other; a retried run and yesterday\'s failure left out', async () => {
    const world: TextWorld = {
      tables: {
        job: getTable('Job', jobs, { now, namespace: ns }),
        pod: getTable('Pod', pods, { now, namespace: ns }),
      },
      describe: describedAll([...jobs, ...pods], events),
      events: getTable('Event', events, { now, namespace: ns }),
      logs,
    };
    const { text } = await investigateAt(
      textTools(world),
      `any cronjob runs in ${ns} that failed today?`,
      NOW,
      ns,
    );
    expect(text).toMatch(
      /2 Jobs failed in namespace etl since 2026-03-10T00:00:00Z \(of 4 read\): invoice-sync-29547300 \(cronjob invoice-sync\) failed at [^;]*with BackoffLimitExceeded: 3 pods failed \(backoffLimit 2\); its last pod invoice-sync-29547300-g5h6j exited 1 \(Error\) and logged "[^"]*upstream said 401: invalid API token for account billing-sync"; cache-warm-29547360 \(cronjob cache-warm\) failed at 2026-03-10T09:00:00Z \([^)]*\) with DeadlineExceeded: it was still running when its activeDeadlineSeconds \(3600s\) ran out/,
    );
    expect(text).toContain(
      'Not failed: report-29547420 completed after 1 failed pod (a retry succeeded).',
    );
    expect(text).toMatch(/Failed before the window, left out: invoice-sync-29545860/);
  });

  it('"which jobs failed since midnight and why?": the same from API objects, the failure time from the Failed condition', async () => {
    const world: ApiWorld = { objects: [...jobs, ...pods], events, logs };
    const { text } = await investigateAt(
      apiTools(world),
      'which jobs failed since midnight and why?',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /2 Jobs failed in namespace etl since 2026-03-10T00:00:00Z \(of 4 read\): invoice-sync-29547300 \(cronjob invoice-sync\) failed at 2026-03-10T07:10:00Z \(4 h 50 min ago\) with BackoffLimitExceeded: 3 pods failed \(backoffLimit 2\); its last pod invoice-sync-29547300-g5h6j exited 1 \(Error\) and logged "[^"]*invalid API token/,
    );
    expect(text).toMatch(
      /cache-warm-29547360 \(cronjob cache-warm\) failed at 2026-03-10T09:00:00Z/,
    );
    expect(text).not.toMatch(/\d Jobs? failed[^.]*report-29547420/);
  });
});

// ---------------------------------------------------------------- image pulls

describe('questions of round 16: which pods cannot pull their image', () => {
  const waiting = (reason: string, message: string) => ({ waiting: { reason, message } });
  const objects = [
    podObj({
      name: 'banner-7b4d9c6f58-x1y2z',
      ns: 'web',
      labels: { app: 'banner' },
      owner: { kind: 'ReplicaSet', name: 'banner-7b4d9c6f58' },
      phase: 'Pending',
      scheduled: true,
      created: 50,
      boxes: [
        {
          name: 'banner',
          image: 'ghcr.io/acme/banner:2.4.1-rc',
          ready: false,
          state: waiting(
            'ImagePullBackOff',
            'Back-off pulling image "ghcr.io/acme/banner:2.4.1-rc"',
          ),
        },
      ],
    }),
    podObj({
      name: 'loader-29547600-q1w2e',
      ns: 'data',
      labels: { 'job-name': 'loader-29547600' },
      owner: { kind: 'Job', name: 'loader-29547600' },
      phase: 'Pending',
      scheduled: true,
      created: 30,
      boxes: [
        {
          name: 'loader',
          image: '111122223333.dkr.ecr.eu-west-1.amazonaws.com/loader:3.1.0',
          ready: false,
          state: waiting(
            'ErrImagePull',
            'failed to resolve reference "111122223333.dkr.ecr.eu-west-1.amazonaws.com/loader:3.1.0": unexpected status from HEAD request: 403 Forbidden',
          ),
        },
      ],
    }),
    podObj({
      name: 'shop-6bc8fbb5f2-59cce',
      ns: 'web',
      labels: { app: 'shop' },
      owner: { kind: 'ReplicaSet', name: 'shop-6bc8fbb5f2' },
      boxes: [{ name: 'shop', image: 'ghcr.io/acme/shop:8.9.0' }],
    }),
    podObj({
      name: 'wiki-5f6d7c8b9a-r4t5y',
      ns: 'tools',
      labels: { app: 'wiki' },
      owner: { kind: 'ReplicaSet', name: 'wiki-5f6d7c8b9a' },
      phase: 'Running',
      boxes: [
        {
          name: 'wiki',
          image: 'wiki:1.0',
          ready: false,
          state: waiting('CrashLoopBackOff', 'back-off 5m0s restarting failed container'),
          restarts: 12,
        },
      ],
    }),
  ];
  const events = [
    kubeEvent(
      'web',
      { kind: 'Pod', name: 'banner-7b4d9c6f58-x1y2z' },
      'Warning',
      'Failed',
      'Failed to pull image "ghcr.io/acme/banner:2.4.1-rc": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/acme/banner:2.4.1-rc": not found',
      48,
      2,
      12,
    ),
    kubeEvent(
      'web',
      { kind: 'Pod', name: 'banner-7b4d9c6f58-x1y2z' },
      'Normal',
      'BackOff',
      'Back-off pulling image "ghcr.io/acme/banner:2.4.1-rc"',
      48,
      1,
      200,
    ),
    kubeEvent(
      'web',
      { kind: 'Pod', name: 'shop-6bc8fbb5f2-59cce' },
      'Warning',
      'Failed',
      'Failed to pull image "ghcr.io/acme/shop:8.9.0": rpc error: code = DeadlineExceeded desc = context deadline exceeded',
      1500,
      1500,
      1,
    ),
  ];

  it('"anything stuck pulling images, any namespace?": every namespace listed, the image and the registry\'s answer of each; a pod running after an old pull error is left out', async () => {
    const world: ApiWorld = { objects, events };
    const { text } = await investigateAt(
      apiTools(world),
      'anything stuck pulling images, any namespace?',
      NOW,
    );
    expect(text).toMatch(
      /2 pods are in ImagePullBackOff or ErrImagePull across all namespaces \(of 4 read\): data\/loader-29547600-q1w2e \(job loader-29547600, container loader\): ErrImagePull on image 111122223333\.dkr\.ecr\.eu-west-1\.amazonaws\.com\/loader:3\.1\.0; the registry answered 403 Forbidden: [^;]*; web\/banner-7b4d9c6f58-x1y2z \(deployment banner, container banner\): ImagePullBackOff on image ghcr\.io\/acme\/banner:2\.4\.1-rc; the registry answered not found \(no such image or tag\)/,
    );
    expect(text).toContain(
      'Running now despite an earlier pull error (left out): web/shop-6bc8fbb5f2-59cce.',
    );
    expect(text).not.toMatch(/ErrImagePull[^.]*wiki-5f6d7c8b9a/);
  });

  it('"which pods can\'t pull their image?" in one namespace, from `kubectl get` and describe', async () => {
    const web = objects.filter((o) => metaOf(o)['namespace'] === 'web');
    const world: TextWorld = {
      tables: { pod: getTable('Pod', web, { now, namespace: 'web' }) },
      describe: describedAll(web, events),
    };
    const { text } = await investigateAt(
      textTools(world),
      "which pods in web can't pull their image?",
      NOW,
      'web',
    );
    expect(text).toMatch(
      /1 pod is in ImagePullBackOff or ErrImagePull in namespace web \(of 2 read\): banner-7b4d9c6f58-x1y2z \(deployment banner, container banner\): ImagePullBackOff on image ghcr\.io\/acme\/banner:2\.4\.1-rc; the registry answered not found/,
    );
  });
});

// ---------------------------------------------------------------- restarts

describe('questions of round 16: which containers restarted and how', () => {
  const ns = 'payments';
  const terminated = (reason: string, exitCode: number, endMin: number) => ({
    terminated: { reason, exitCode, startedAt: ago(endMin + 60), finishedAt: ago(endMin) },
  });
  const api = podObj({
    name: 'ledger-api-6f7d8c9b5a-h2j3k',
    ns,
    labels: { app: 'ledger-api' },
    owner: { kind: 'ReplicaSet', name: 'ledger-api-6f7d8c9b5a' },
    boxes: [
      {
        name: 'api',
        image: 'acme/ledger-api:4.2.0',
        restarts: 4,
        lastState: terminated('OOMKilled', 137, 20),
        resources: { limits: { memory: '512Mi' } },
      },
      {
        name: 'envoy',
        image: 'envoyproxy/envoy:v1.31.0',
        restarts: 1,
        lastState: terminated('Error', 137, 300),
      },
    ],
  });
  // an init container (a restartable sidecar) that restarted
  const spec = api['spec'] as Obj;
  const status = api['status'] as Obj;
  spec['initContainers'] = [
    { name: 'log-shipper', image: 'fluent/fluent-bit:3.1', restartPolicy: 'Always' },
  ];
  status['initContainerStatuses'] = [
    {
      name: 'log-shipper',
      image: 'fluent/fluent-bit:3.1',
      ready: true,
      started: true,
      restartCount: 2,
      state: { running: { startedAt: ago(90) } },
      lastState: terminated('Error', 2, 90),
    },
  ];
  const quiet = podObj({
    name: 'ledger-web-7a8b9c0d1e-p4q5r',
    ns,
    labels: { app: 'ledger-web' },
    owner: { kind: 'ReplicaSet', name: 'ledger-web-7a8b9c0d1e' },
    boxes: [{ name: 'web', image: 'acme/ledger-web:1.0.0' }],
  });
  const events = [
    kubeEvent(
      ns,
      { kind: 'Pod', name: nameOf(api) },
      'Warning',
      'Unhealthy',
      'Liveness probe failed: Get "http://10.52.3.18:9901/ready": context deadline exceeded',
      305,
      301,
      3,
    ),
    kubeEvent(
      ns,
      { kind: 'Pod', name: nameOf(api) },
      'Normal',
      'Killing',
      'Container envoy failed liveness probe, will be restarted',
      301,
      301,
      1,
    ),
  ];

  it('"why did containers restart in payments?": per container from descriptions (the sidecar init container by name), OOMKilled with its limit, a liveness kill from the events', async () => {
    const world: TextWorld = {
      tables: { pod: getTable('Pod', [api, quiet], { now, namespace: ns }) },
      describe: describedAll([api, quiet], events),
      events: getTable('Event', events, { now, namespace: ns }),
    };
    const { text } = await investigateAt(
      textTools(world),
      'why did containers restart in payments?',
      NOW,
    );
    expect(text).toMatch(
      /3 containers restarted in namespace payments: ledger-api-6f7d8c9b5a-h2j3k container api \(deployment ledger-api\) restarted 4 times, last terminated OOMKilled, exit code 137, over its memory limit 512Mi, at 2026-03-10T11:40:00Z \(20 min ago\); ledger-api-6f7d8c9b5a-h2j3k container log-shipper \(init\) \(deployment ledger-api\) restarted 2 times, last terminated Error, exit code 2, at 2026-03-10T10:30:00Z \(1 h 30 min ago\); ledger-api-6f7d8c9b5a-h2j3k container envoy \(deployment ledger-api\) restarted 1 time, last terminated Error, exit code 137 \(SIGKILL\), at 2026-03-10T07:00:00Z \(5 h ago\), killed by its liveness probe \("Liveness probe failed: .*context deadline exceeded"\)\. The other 1 pod has no restarts\./,
    );
  });

  it('"which containers restarted in the last 2 hours?" from API objects: a restart before the window is left out', async () => {
    const world: ApiWorld = { objects: [api, quiet], events };
    const { text } = await investigateAt(
      apiTools(world),
      'which containers restarted in the last 2 hours, and what was the last termination reason?',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /2 containers restarted in namespace payments since 2026-03-10T10:00:00Z: [^.]*container api[^;]*OOMKilled, exit code 137[^;]*; [^.]*container log-shipper \(init\)[^;]*Error, exit code 2/,
    );
    expect(text).toContain('1 container whose last restart was before the window left out.');
  });
});

// ---------------------------------------------------------------- rollouts

describe('questions of round 16: which Deployments rolled out in a window', () => {
  const ns = 'shop';
  const tpl = (image: string, env: Record<string, string> = {}) => ({
    metadata: { labels: { app: image.split('/').pop()!.split(':')[0]! } },
    spec: {
      containers: [
        {
          name: 'app',
          image,
          env: Object.entries(env).map(([name, value]) => ({ name, value })),
        },
      ],
    },
  });
  const deployment = (name: string, rev: number, image: string, replicas: number, env = {}) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: ns,
      creationTimestamp: ago(60 * 24 * 100),
      annotations: { 'deployment.kubernetes.io/revision': String(rev) },
    },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: tpl(image, env) },
    status: {
      replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
      updatedReplicas: replicas,
    },
  });
  const rs = (
    name: string,
    dep: string,
    rev: number,
    createdMin: number,
    image: string,
    replicas: number,
    env = {},
  ) => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: ns,
      creationTimestamp: ago(createdMin),
      annotations: { 'deployment.kubernetes.io/revision': String(rev) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: dep, controller: true }],
    },
    spec: { replicas, template: tpl(image, env) },
    status: { replicas, readyReplicas: replicas, availableReplicas: replicas },
  });
  const objects: Obj[] = [
    deployment('cart', 12, 'acme/cart:3.12.0', 3),
    rs('cart-5c6d7e8f9a', 'cart', 11, 60 * 24 * 8, 'acme/cart:3.11.4', 0),
    rs('cart-7f8a9b0c1d', 'cart', 12, 40, 'acme/cart:3.12.0', 3),
    deployment('front', 58, 'acme/front:8.40.2', 2, { NEW_PDP: 'true' }),
    rs('front-4r8cnlmrvs', 'front', 57, 60 * 24, 'acme/front:8.40.2', 0, { NEW_PDP: 'false' }),
    rs('front-dhlz6xjxw9', 'front', 58, 80, 'acme/front:8.40.2', 2, { NEW_PDP: 'true' }),
    deployment('search', 15, 'acme/search:2.2.0', 2),
    rs('search-pjs44xlrm8', 'search', 15, 150, 'acme/search:2.2.0', 2),
    deployment('checkout', 44, 'acme/checkout:9.1.0', 5),
    rs('checkout-s2dbjfj2vq', 'checkout', 44, 60 * 24 * 2, 'acme/checkout:9.1.0', 5),
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'checkout', namespace: ns, creationTimestamp: ago(60 * 24 * 90) },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout' },
        minReplicas: 3,
        maxReplicas: 10,
      },
      status: { currentReplicas: 5, desiredReplicas: 5 },
    },
  ];
  const events = [
    kubeEvent(
      ns,
      { kind: 'Deployment', name: 'cart' },
      'Normal',
      'ScalingReplicaSet',
      'Scaled up replica set cart-7f8a9b0c1d to 3',
      40,
      40,
      1,
      'deployment-controller',
    ),
    kubeEvent(
      ns,
      { kind: 'Deployment', name: 'checkout' },
      'Normal',
      'ScalingReplicaSet',
      'Scaled up replica set checkout-s2dbjfj2vq to 5 from 3',
      25,
      25,
      1,
      'deployment-controller',
    ),
    kubeEvent(
      ns,
      { kind: 'HorizontalPodAutoscaler', name: 'checkout' },
      'Normal',
      'SuccessfulRescale',
      'New size: 5; reason: cpu resource utilization (percentage of request) above target',
      25,
      25,
      1,
      'horizontal-pod-autoscaler',
    ),
  ];
  it('"what got deployed in the last 2 hours?": new ReplicaSets from API objects, what changed in each; an autoscaler\'s scale is no rollout', async () => {
    const { text } = await investigateAt(
      apiTools({ objects, events }),
      'what got deployed in the last 2 hours?',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /Deployment cart: revision 12 at 2026-03-10T11:20:00Z \(40 min ago\): image acme\/cart:3\.11\.4 -> acme\/cart:3\.12\.0 \(ReplicaSet cart-7f8a9b0c1d\)/,
    );
    expect(text).toMatch(
      /Deployment front: revision 58 at 2026-03-10T10:40:00Z \(1 h 20 min ago\): same image acme\/front:8\.40\.2, pod template changed \(env NEW_PDP false -> true\)/,
    );
    expect(text).toMatch(
      /Not rollouts: checkout was only scaled \(Scaled up replica set checkout-s2dbjfj2vq to 5 from 3 at 2026-03-10T11:35:00Z, by its HorizontalPodAutoscaler checkout: "New size: 5[^"]*"\) on its ReplicaSet checkout-s2dbjfj2vq from 2 days ago: no new revision\./,
    );
    expect(text).toMatch(
      /Last rolled out before the window: search 2026-03-10T09:30:00Z \(2 h 30 min ago\)/,
    );
    expect(text).toMatch(
      /^2 Deployments in namespace shop rolled out since 2026-03-10T10:00:00Z \(the last 2 h\) \(a new ReplicaSet, so a new revision\): Deployment/m,
    );
  });

  it('"any rollouts since 10?": from `kubectl get rs -o wide` ages and each new ReplicaSet described', async () => {
    const rss = objects.filter((o) => o['kind'] === 'ReplicaSet');
    const deps = objects.filter((o) => o['kind'] === 'Deployment');
    const world: TextWorld = {
      tables: {
        deployment: getTable('Deployment', deps, { now, namespace: ns }),
        replicaset: getTable('ReplicaSet', rss, { now, namespace: ns, wide: true }),
      },
      describe: describedAll(rss),
      events: getTable('Event', events, { now, namespace: ns }),
    };
    const { text } = await investigateAt(textTools(world), 'any rollouts since 10?', NOW, ns);
    expect(text).toMatch(
      /2 Deployments in namespace shop rolled out since 2026-03-10T10:00:00Z \(the last 2 h\)/,
    );
    expect(text).toMatch(
      /Deployment cart: revision 12 at [^:]+:\d\d:\d\dZ \([^)]*\): image acme\/cart:3\.11\.4 -> acme\/cart:3\.12\.0/,
    );
    expect(text).toMatch(
      /Deployment front: revision 58 [^:]*[^.]*same image acme\/front:8\.40\.2, pod template changed \(env NEW_PDP false -> true\)/,
    );
    expect(text).toMatch(/Not rollouts: checkout was only scaled/);
  });
});
