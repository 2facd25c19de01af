/**
 * Four questions of round 19, asked in words other than the bench's and answered from outputs
 * shaped like real ones (`kubectl get` tables and `kubectl describe` text as libs/kube prints
 * them, Kubernetes API objects as JSON, YAML): which Ingresses have no TLS, which CronJobs have
 * not run successfully in a window (and why), how much CPU and memory a namespace's pods request
 * in total, which StatefulSets are not fully ready and why.
 */
import { describe as kubeDescribe, getTable } from '@inquest/kube';
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  apiTools,
  investigateAt,
  jsonTools,
  podObj,
  textTools,
  type ApiWorld,
  type TextWorld,
} from './spec-world';

type Obj = Record<string, unknown>;
const now = new Date(NOW);
const nameOf = (o: Obj) => String((o['metadata'] as Obj)['name']);
const kindOf = (o: Obj) => String(o['kind']).toLowerCase();
/** every object described as `kubectl describe` prints it */
const described = (objects: Obj[], events: Obj[] = [], related: Obj[] = []) =>
  Object.fromEntries(
    objects.map((o) => [
      `${kindOf(o)}/${nameOf(o)}`,
      kubeDescribe(o, {
        events: events.filter(
          (e) => ((e['involvedObject'] as Obj | undefined)?.['name'] as string) === nameOf(o),
        ),
        now,
        related,
      }),
    ]),
  );

// ---------------------------------------------------------------- Ingresses without TLS

describe('questions of round 19: which Ingresses have no TLS', () => {
  it.each([
    'which ingresses in media have no TLS?',
    'list the ingresses without https',
    'which ingresses serve plain http?',
    'any ingress where tls is not configured?',
    "which ingresses don't have a certificate?",
  ])('"%s" asks for the Ingresses without TLS', (message) => {
    expect(scopeIncident(message, {}, NOW).question).toEqual(
      expect.objectContaining({ type: 'ingress_tls', missing: true }),
    );
  });

  it.each([
    ['which hosts do the shop ingresses serve, with which TLS secret?', 'ingress_tls'],
    ['the ingress certificate for shop expired, which hosts are hit?', undefined],
    ['why does the shop ingress return a self-signed cert?', undefined],
  ])('"%s" does not ask for the Ingresses without TLS', (message, type) => {
    const q = scopeIncident(message, {}, NOW).question;
    expect(q?.type).toBe(type);
    expect(q && 'missing' in q ? q.missing : undefined).toBeUndefined();
  });

  const ingress = (name: string, ns: string, hosts: string[], tls?: Obj[], ann?: Obj): Obj => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      name,
      namespace: ns,
      creationTimestamp: ago(60 * 24 * 40),
      ...(ann ? { annotations: ann } : {}),
    },
    spec: {
      ingressClassName: 'nginx',
      ...(tls ? { tls } : {}),
      rules: hosts.map((host) => ({
        host,
        http: {
          paths: [
            {
              path: '/',
              pathType: 'Prefix',
              backend: { service: { name, port: { number: 80 } } },
            },
          ],
        },
      })),
    },
    status: { loadBalancer: { ingress: [{ ip: '34.120.7.19' }] } },
  });
  const ingresses = [
    ingress(
      'portal',
      'media',
      ['portal.example.org'],
      [{ hosts: ['portal.example.org'], secretName: 'portal-cert' }],
    ),
    // only a redirect annotation: no certificate, plain HTTP
    ingress('cdn', 'media', ['cdn.example.org'], undefined, {
      'nginx.ingress.kubernetes.io/force-ssl-redirect': 'true',
    }),
    // TLS for one of its two hosts
    ingress(
      'admin',
      'media',
      ['admin.example.org', 'old-admin.example.org'],
      [{ hosts: ['admin.example.org'], secretName: 'admin-cert' }],
    ),
    // another namespace's Ingress without TLS: not asked about
    ingress('wiki', 'intranet', ['wiki.internal.example.org']),
  ];

  it('API objects: counts and names the one without spec.tls, says the partial one apart, leaves other namespaces out', async () => {
    const { text } = await investigateAt(
      apiTools({ objects: ingresses }),
      'which ingresses in media have no TLS configured?',
      NOW,
      'media',
    );
    expect(text).toContain(
      '1 of the 3 Ingresses in namespace media has no TLS (no spec.tls entry, so it serves plain HTTP only',
    );
    expect(text).toContain(': cdn (cdn.example.org).');
    expect(text).toContain(
      'admin (TLS Secret admin-cert for admin.example.org, but not for old-admin.example.org)',
    );
    expect(text).toContain('With TLS: portal (portal-cert).');
    expect(text).not.toContain('wiki');
  });

  it('`kubectl get ingress` and `kubectl describe ingress`: the same answer from text', async () => {
    const mine = ingresses.filter((i) => (i['metadata'] as Obj)['namespace'] === 'media');
    const world: TextWorld = {
      tables: { ingress: getTable('Ingress', mine, { now }) },
      describe: described(mine),
    };
    const { text } = await investigateAt(
      textTools(world),
      'which ingresses serve plain http?',
      NOW,
      'media',
    );
    expect(text).toContain('1 of the 3 Ingresses in namespace media has no TLS');
    expect(text).toContain(': cdn (cdn.example.org).');
  });

  it('every Ingress with TLS: says none is without', async () => {
    const { text } = await investigateAt(
      apiTools({ objects: [ingresses[0]!] }),
      'which ingresses in media have no TLS?',
      NOW,
      'media',
    );
    expect(text).toContain('No Ingress in namespace media is without TLS');
  });
});

// ---------------------------------------------------------------- CronJobs without a success

describe('questions of round 19: which CronJobs have not run successfully', () => {
  it.each([
    'which CronJobs in reports have not run successfully in the last 24 hours?',
    "which cronjobs haven't succeeded since yesterday?",
    'list cron jobs without a successful run in the past day',
    'any cronjobs that did not complete successfully in the last 12h?',
  ])('"%s" asks for CronJobs without a success', (message) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe('cronjob_success');
  });

  it.each([
    ['any cronjob runs that failed today?', 'failed_jobs'],
    ['which cronjobs are suspended?', 'suspended_cronjobs'],
    ['which jobs failed since midnight and why?', 'failed_jobs'],
  ])('"%s" asks another question', (message, type) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe(type);
  });

  const cron = (name: string, ns: string, o: { success?: number; suspend?: boolean }): Obj => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 60) },
    spec: {
      schedule: '0 * * * *',
      suspend: o.suspend ?? false,
      jobTemplate: {
        spec: {
          backoffLimit: 2,
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [{ name: 'run', image: `registry.example.com/${name}:3.2.0` }],
            },
          },
        },
      },
    },
    status: {
      lastScheduleTime: ago(o.success !== undefined ? Math.min(o.success, 50) : 50),
      ...(o.success !== undefined ? { lastSuccessfulTime: ago(o.success) } : {}),
    },
  });
  const job = (cronName: string, ns: string, minutes: number, failed: boolean): Obj => {
    const name = `${cronName}-${Math.round((NOW - minutes * 60_000) / 60_000)}`;
    return {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name,
        namespace: ns,
        creationTimestamp: ago(minutes),
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cronName }],
      },
      spec: { backoffLimit: 2, completions: 1 },
      status: failed
        ? {
            startTime: ago(minutes),
            failed: 3,
            conditions: [
              {
                type: 'Failed',
                status: 'True',
                reason: 'BackoffLimitExceeded',
                message: 'Job has reached the specified backoff limit',
                lastTransitionTime: ago(minutes - 4),
              },
            ],
          }
        : {
            startTime: ago(minutes),
            completionTime: ago(minutes - 3),
            succeeded: 1,
            conditions: [
              { type: 'Complete', status: 'True', lastTransitionTime: ago(minutes - 3) },
            ],
          },
    };
  };
  const jobPod = (j: Obj, failed: boolean) =>
    podObj({
      name: `${nameOf(j)}-x7k2p`,
      ns: String((j['metadata'] as Obj)['namespace']),
      labels: { 'job-name': nameOf(j) },
      owner: { kind: 'Job', name: nameOf(j) },
      phase: failed ? 'Failed' : 'Succeeded',
      boxes: [
        {
          name: 'run',
          image: 'registry.example.com/job:3.2.0',
          ready: false,
          state: {
            terminated: failed
              ? { exitCode: 1, reason: 'Error', finishedAt: ago(30) }
              : { exitCode: 0, reason: 'Completed', finishedAt: ago(30) },
          },
        },
      ],
    });
  const rollupFailed = job('billing-rollup', 'reports', 40, true);
  const objects: Obj[] = [
    cron('nightly-export', 'reports', { success: 120 }),
    // its latest run failed, but an earlier one inside the window succeeded
    cron('hourly-sync', 'reports', { success: 70 }),
    job('hourly-sync', 'reports', 10, true),
    // failing for days: its latest run ran out of retries
    cron('billing-rollup', 'reports', { success: 60 * 24 * 4 }),
    rollupFailed,
    jobPod(rollupFailed, true),
    // suspended two days ago
    cron('cleanup', 'reports', { success: 60 * 24 * 2, suspend: true }),
    // another namespace's failing CronJob: not asked about
    cron('reindex', 'search', { success: 60 * 24 * 9 }),
  ];
  const logs = {
    [`${nameOf(rollupFailed)}-x7k2p`]:
      '2026-03-10T11:24:10Z INFO starting rollup\n2026-03-10T11:24:12Z ERROR rollup failed: pq: relation "invoice_lines" does not exist\n',
  };

  it('API objects: the failing and the suspended one, with their last success and last error; the others briefly', async () => {
    const { text } = await investigateAt(
      apiTools({ objects, logs }),
      'which CronJobs in reports have not run successfully in the last 24 hours?',
      NOW,
      'reports',
    );
    expect(text).toContain(
      '2 of the 4 CronJobs in namespace reports have not run successfully since 2026-03-09T12:00:00Z',
    );
    expect(text).toMatch(
      /billing-rollup \(last success 2026-03-06T12:00:00Z \(4 days ago\); its run Job billing-rollup-\d+, failed \(BackoffLimitExceeded\)/,
    );
    expect(text).toContain('relation \\"invoice_lines\\" does not exist'.replace(/\\"/g, '"'));
    expect(text).toContain('cleanup (suspended (spec.suspend: true, so no run starts)');
    expect(text).toMatch(
      /Succeeded within the window: hourly-sync \(last success [^)]+\)\), nightly-export/,
    );
    expect(text).not.toContain('reindex');
  });

  it('`kubectl get` and `kubectl describe` (no last successful time shown): the Jobs tell', async () => {
    const mine = objects.filter((o) => (o['metadata'] as Obj)['namespace'] === 'reports');
    const crons = mine.filter((o) => o['kind'] === 'CronJob');
    const jobs = [
      ...mine.filter((o) => o['kind'] === 'Job'),
      job('nightly-export', 'reports', 125, false),
      job('cleanup', 'reports', 60 * 24 * 2 + 3, false),
    ];
    const pods = mine.filter((o) => o['kind'] === 'Pod');
    const world: TextWorld = {
      tables: {
        cronjob: getTable('CronJob', crons, { now }),
        job: getTable('Job', jobs, { now }),
        pod: getTable('Pod', pods, { now }),
      },
      describe: described([...crons, ...jobs, ...pods], [], jobs),
      logs,
    };
    const { text } = await investigateAt(
      textTools(world),
      "which cronjobs in reports haven't succeeded in the past day?",
      NOW,
      'reports',
    );
    expect(text).toMatch(/\b3 of the 4 CronJobs in namespace reports have not run successfully/);
    expect(text).toContain('billing-rollup (');
    expect(text).toContain('cleanup (suspended');
    expect(text).toContain('invoice_lines');
    expect(text).toMatch(/Succeeded within the window: nightly-export/);
  });
});

// ---------------------------------------------------------------- requests added up

describe('questions of round 19: what the pods of a namespace request in total', () => {
  it.each([
    'how much CPU and memory do the pods in ml request in total?',
    'total cpu requests in namespace ml',
    'sum of memory requests across the ml namespace',
    'what do all the pods in ml request altogether, cpu and ram?',
  ])('"%s" asks for the requests added up', (message) => {
    expect(scopeIncident(message, {}, NOW).question).toEqual(
      expect.objectContaining({ type: 'requests_total', field: 'requests' }),
    );
  });

  it.each([
    ['which pods have no memory requests?', 'unset'],
    ['how close is ml to its quota?', 'quota'],
    ['which pods use the most cpu?', 'top'],
    ['pods are pending with insufficient cpu, how much do they request in total?', 'pending'],
  ])('"%s" asks another question', (message, type) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe(type);
  });

  const trainer = (name: string, phase: 'Running' | 'Pending' = 'Running') => {
    const pod = podObj({
      name,
      ns: 'ml',
      labels: { app: 'trainer' },
      owner: { kind: 'ReplicaSet', name: 'trainer-6f9c8d7b5' },
      phase,
      ...(phase === 'Pending' ? { scheduled: false } : {}),
      boxes: [
        {
          name: 'train',
          image: 'registry.example.com/trainer:5.0.1',
          resources: { requests: { cpu: '1500m', memory: '6Gi' }, limits: { memory: '8Gi' } },
        },
        {
          name: 'metrics',
          image: 'registry.example.com/exporter:1.2.0',
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
        },
      ],
    });
    // an init container that asks for more CPU than the two containers together
    (pod['spec'] as Obj)['initContainers'] = [
      {
        name: 'fetch-model',
        image: 'registry.example.com/fetch:1.0.0',
        resources: { requests: { cpu: '2', memory: '1Gi' } },
      },
    ];
    return pod;
  };
  const pods: Obj[] = [
    trainer('trainer-6f9c8d7b5-h2x9q'),
    trainer('trainer-6f9c8d7b5-k8m4t'),
    // not scheduled: it holds nothing yet
    trainer('trainer-6f9c8d7b5-p3v7z', 'Pending'),
    podObj({
      name: 'feature-store-0',
      ns: 'ml',
      labels: { app: 'feature-store' },
      owner: { kind: 'StatefulSet', name: 'feature-store' },
      boxes: [
        {
          name: 'redis',
          image: 'redis:7.2.5',
          resources: { requests: { cpu: '500m', memory: '2Gi' } },
        },
      ],
    }),
    // nothing requested (BestEffort)
    podObj({
      name: 'debug-shell',
      ns: 'ml',
      labels: { run: 'debug-shell' },
      owner: { kind: 'Node', name: 'none' },
      boxes: [{ name: 'sh', image: 'busybox:1.36' }],
    }),
    // a finished Job's pod no longer holds its requests
    podObj({
      name: 'backfill-29514-q2w3e',
      ns: 'ml',
      labels: { 'job-name': 'backfill-29514' },
      owner: { kind: 'Job', name: 'backfill-29514' },
      phase: 'Succeeded',
      boxes: [
        {
          name: 'backfill',
          image: 'registry.example.com/backfill:2.0.0',
          ready: false,
          state: { terminated: { exitCode: 0, reason: 'Completed' } },
          resources: { requests: { cpu: '4', memory: '16Gi' } },
        },
      ],
    }),
  ];
  // another namespace's pod: not counted
  const other = podObj({
    name: 'api-7d8f9-abcde',
    ns: 'web',
    labels: { app: 'api' },
    owner: { kind: 'ReplicaSet', name: 'api-7d8f9' },
    boxes: [{ name: 'api', image: 'api:1', resources: { requests: { cpu: '3', memory: '3Gi' } } }],
  });

  it("API objects: running pods added up, init containers by the scheduler's rule; Pending and finished pods apart", async () => {
    const { text } = await investigateAt(
      jsonTools({ objects: [...pods, other] }),
      'how much CPU and memory do the pods in ml request in total?',
      NOW,
      'ml',
    );
    // trainer: max(1500m + 100m, 2000m) = 2000m, max(6Gi + 128Mi, 1Gi) = 6272Mi; x2; + 500m, 2Gi
    expect(text).toContain(
      'The 4 scheduled pods in namespace ml request 4500m (4.5 cores) CPU and 14592Mi (14.25Gi) memory in total',
    );
    expect(text).toContain("the larger of its containers' sum and its largest init container");
    expect(text).toContain('deployment trainer 2 pods × 2000m / 6272Mi');
    expect(text).toContain('counted as 0: debug-shell');
    expect(text).toContain(
      'Not counted: 1 Pending pod not scheduled yet (trainer-6f9c8d7b5-p3v7z)',
    );
    expect(text).not.toContain('backfill');
    expect(text).not.toContain('api-7d8f9');
  });

  it('`kubectl get pods` and one `kubectl describe pod` per template: the replicas share it', async () => {
    const world: TextWorld = {
      tables: { pod: getTable('Pod', pods, { now }) },
      describe: described(pods),
    };
    const { text, gateway } = await investigateAt(
      textTools(world),
      'total cpu and memory requests in namespace ml?',
      NOW,
      'ml',
    );
    expect(text).toContain('request 4500m (4.5 cores) CPU and 14592Mi (14.25Gi) memory in total');
    // one of the two running replicas is described; the other shares its template
    const described_ = gateway.calls.filter((c) => c.tool.endsWith('describe_resource'));
    expect(
      described_.filter((c) => /^trainer-6f9c8d7b5-(?:h2x9q|k8m4t)$/.test(String(c.params['name'])))
        .length,
    ).toBe(1);
  });
});

// ---------------------------------------------------------------- StatefulSets not fully ready

describe('questions of round 19: which StatefulSets are not fully ready, and why', () => {
  it.each([
    'which statefulsets in stream are not fully ready and why?',
    'which statefulsets have fewer ready replicas than desired, and why?',
  ])('"%s" asks for the StatefulSets below desired with reasons', (message) => {
    expect(scopeIncident(message, {}, NOW).question).toEqual(
      expect.objectContaining({ type: 'under_replicated', kind: 'statefulset', why: true }),
    );
  });

  it.each(['why is cassandra-1 not ready?', 'why are the checkout pods crashing?'])(
    '"%s" is an incident, not a list',
    (message) => {
      expect(scopeIncident(message, {}, NOW).question?.type).not.toBe('under_replicated');
    },
  );

  const sts = (name: string, replicas: number, ready: number): Obj => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'stream', creationTimestamp: ago(60 * 24 * 30), generation: 3 },
    spec: {
      replicas,
      serviceName: name,
      podManagementPolicy: 'OrderedReady',
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name, image: `registry.example.com/${name}:4.1.0` }] },
      },
    },
    status: {
      observedGeneration: 3,
      replicas: Math.min(replicas, ready + 1),
      readyReplicas: ready,
      currentReplicas: Math.min(replicas, ready + 1),
      updatedReplicas: Math.min(replicas, ready + 1),
    },
  });
  const member = (name: string, app: string, extra: Partial<Parameters<typeof podObj>[0]> = {}) =>
    podObj({
      name,
      ns: 'stream',
      labels: { app },
      owner: { kind: 'StatefulSet', name: app },
      boxes: [{ name: app, image: `registry.example.com/${app}:4.1.0` }],
      ...extra,
    });
  const unschedulable =
    '0/4 nodes are available: 4 Insufficient memory. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.';
  const objects: Obj[] = [
    sts('nats', 3, 3),
    member('nats-0', 'nats'),
    member('nats-1', 'nats'),
    member('nats-2', 'nats'),
    // cassandra-1 cannot be scheduled; cassandra-2 was never created (OrderedReady)
    sts('cassandra', 3, 1),
    member('cassandra-0', 'cassandra'),
    member('cassandra-1', 'cassandra', {
      phase: 'Pending',
      scheduled: false,
      created: 25,
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: unschedulable,
          lastTransitionTime: ago(25),
        },
      ],
    }),
    // etcd-2 crashes on a corrupt WAL
    sts('etcd', 3, 2),
    member('etcd-0', 'etcd'),
    member('etcd-1', 'etcd'),
    member('etcd-2', 'etcd', {
      boxes: [
        {
          name: 'etcd',
          image: 'registry.example.com/etcd:3.5.15',
          ready: false,
          restarts: 14,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: 'back-off 5m0s restarting failed container',
            },
          },
          lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(3) } },
        },
      ],
    }),
  ];
  const previous = {
    'etcd-2':
      '{"level":"info","msg":"opened backend db"}\n{"level":"fatal","msg":"failed to open WAL","error":"wal: crc mismatch"}\n',
    'etcd-2/etcd':
      '{"level":"info","msg":"opened backend db"}\n{"level":"fatal","msg":"failed to open WAL","error":"wal: crc mismatch"}\n',
  };

  it('API objects: ready/desired per StatefulSet and the reason of each missing member', async () => {
    const world: ApiWorld = { objects, previous };
    const { text } = await investigateAt(
      apiTools(world),
      'which statefulsets in stream are not fully ready and why?',
      NOW,
      'stream',
    );
    expect(text).toContain(
      '2 of the 3 StatefulSets in namespace stream have fewer ready replicas than desired',
    );
    expect(text).toContain('cassandra 1/3 ready');
    expect(text).toContain(
      'cassandra-1: Pending, not scheduled: the scheduler says "0/4 nodes are available: 4 Insufficient memory."',
    );
    expect(text).toContain('cassandra-2: no such pod (not created yet');
    expect(text).toContain('etcd 2/3 ready');
    expect(text).toMatch(
      /etcd-2: CrashLoopBackOff \(container etcd, 14 restarts\), last terminated Error, exit code 1/,
    );
    expect(text).toContain('wal: crc mismatch');
    expect(text).not.toMatch(/nats \d\/3/);
  });

  it('without "why": the list as before, no reasons', async () => {
    const { text } = await investigateAt(
      apiTools({ objects, previous }),
      'which statefulsets in stream are not fully ready?',
      NOW,
      'stream',
    );
    expect(text).toContain('cassandra 1/3 ready');
    expect(text).not.toContain('Why:');
  });

  it('`kubectl get` and `kubectl describe` with the namespace events: the same reasons from text', async () => {
    const stsObjs = objects.filter((o) => o['kind'] === 'StatefulSet');
    const pods = objects.filter((o) => o['kind'] === 'Pod');
    const events: Obj[] = [
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'cassandra-1.17f3a', namespace: 'stream' },
        involvedObject: { kind: 'Pod', name: 'cassandra-1', namespace: 'stream' },
        type: 'Warning',
        reason: 'FailedScheduling',
        message: unschedulable,
        count: 9,
        firstTimestamp: ago(25),
        lastTimestamp: ago(2),
      },
    ];
    const world: TextWorld = {
      tables: {
        statefulset: getTable('StatefulSet', stsObjs, { now }),
        pod: getTable('Pod', pods, { now }),
      },
      describe: described([...stsObjs, ...pods], events, pods),
      events: getTable('Event', events, { now }),
      previous,
    };
    const { text } = await investigateAt(
      textTools(world),
      'which statefulsets have fewer ready replicas than desired, and why?',
      NOW,
      'stream',
    );
    expect(text).toContain('cassandra 1/3 ready');
    expect(text).toContain('4 Insufficient memory');
    expect(text).toContain('etcd 2/3 ready');
    expect(text).toMatch(/etcd-2: CrashLoopBackOff/);
  });
});
