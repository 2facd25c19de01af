/**
 * The engine rules of e84d415, 8d1ec47 and f44cee4, one test per rule, each on a small world of
 * outputs shaped like real ones (Kubernetes API objects and events, `kubectl get` / `kubectl
 * describe` text, `kubectl logs` lines of PostgreSQL, a Go service, a Python worker, Envoy and a
 * Node.js app): a Job pod held by a sidecar, an unreachable admission webhook, a PostgreSQL data
 * directory of an older major version, what the catalog matched surviving the clip, and the
 * questions "which pods got OOMKilled today", "which pods run on node X", "which Services are
 * LoadBalancers", Envoy's circuit breaker (503 UO) and a MongoDB replica set without a primary.
 */
import {
  NOW,
  ago,
  apiTools,
  deploymentObj,
  describeNode,
  eventsTable,
  findingsOf,
  investigateAt,
  jsonOutputs,
  kubeEvent,
  podObj,
  table,
  textTools,
  type ApiWorld,
  type Box,
  type TextWorld,
} from './spec-world';
import { clipKeepingError } from './diagnose';

type Obj = Record<string, unknown>;

// ------------------------------------------------------------------------------------------------
// API objects

type PodArgs = Parameters<typeof podObj>[0];

/**
 * a Pod of this cluster: its uid, its owner blocking deletion, conditions with their reasons
 * (`ready`: the Ready condition, when not its containers')
 */
function apiPod({ ready, ...p }: PodArgs & { ready?: boolean }): Obj {
  const phase = p.phase ?? 'Running';
  const scheduled = phase !== 'Pending';
  const podReady = ready ?? phase === 'Running';
  return podObj({
    uid: `5c1e9a70-${p.name.length.toString(16).padStart(4, '0')}-4e2b-8d31-0a7f6c2b9e14`,
    node: 'gke-prod-pool-2-8c1d4e7a-x1kq',
    podIP: '10.52.3.41',
    conditions: [
      scheduled
        ? { type: 'PodScheduled', status: 'True' }
        : { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' },
      ...(scheduled
        ? [
            podReady
              ? { type: 'Ready', status: 'True' }
              : { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
          ]
        : []),
    ],
    ...p,
    owner: { ...p.owner, blockOwnerDeletion: true },
    boxes: p.boxes.map((b) => ({ started: !b.state || 'running' in b.state, ...b })),
  });
}

const terminated = (reason: string, exitCode: number, minutesAgo: number, ranFor = 30): Obj => ({
  terminated: {
    reason,
    exitCode,
    startedAt: ago(minutesAgo + ranFor),
    finishedAt: ago(minutesAgo),
    containerID: `containerd://9b7e${exitCode}c41d${minutesAgo}`,
  },
});

const job = (name: string, ns: string, cronJob: string, active: number, succeeded = 0): Obj => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: {
    name,
    namespace: ns,
    creationTimestamp: ago(60 * 9),
    labels: { 'batch.kubernetes.io/job-name': name },
    ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cronJob, controller: true }],
  },
  spec: { backoffLimit: 2, completions: 1, parallelism: 1 },
  status: {
    startTime: ago(60 * 9),
    ...(active ? { active } : {}),
    ...(succeeded ? { succeeded, completionTime: ago(60 * 8) } : {}),
  },
});

/** a Deployment of this cluster (60 days old) */
const deployment = (name: string, ns: string, image: string, replicas: number, ready: number) =>
  deploymentObj(name, ns, [image], replicas, ready, [], { created: 60 * 24 * 60 });

// ------------------------------------------------------------------------------------------------

describe('rules of e84d415, 8d1ec47 and f44cee4', () => {
  describe('a Job pod kept running by a sidecar after its work exited 0', () => {
    const ns = 'ledger-batch';
    const image = 'europe-docker.pkg.dev/acme-ledger/jobs/ledger-reconcile:2.14.0';
    const proxy = 'gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.11.4';
    const held = apiPod({
      name: 'ledger-reconcile-29407320-hq7xz',
      ns,
      labels: { 'batch.kubernetes.io/job-name': 'ledger-reconcile-29407320' },
      owner: { kind: 'Job', name: 'ledger-reconcile-29407320' },
      created: 60 * 9,
      ready: false,
      boxes: [
        { name: 'reconcile', image, state: terminated('Completed', 0, 60 * 8, 55) },
        { name: 'cloud-sql-proxy', image: proxy, ready: true },
      ],
    });
    const done = apiPod({
      name: 'ledger-reconcile-29405880-m2c8v',
      ns,
      labels: { 'batch.kubernetes.io/job-name': 'ledger-reconcile-29405880' },
      owner: { kind: 'Job', name: 'ledger-reconcile-29405880' },
      phase: 'Succeeded',
      created: 60 * 33,
      boxes: [
        { name: 'reconcile', image, state: terminated('Completed', 0, 60 * 32, 50) },
        { name: 'cloud-sql-proxy', image: proxy, state: terminated('Completed', 0, 60 * 32, 51) },
      ],
    });
    const cronJob: Obj = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'ledger-reconcile', namespace: ns, creationTimestamp: ago(60 * 24 * 90) },
      spec: { schedule: '0 3 * * *', concurrencyPolicy: 'Forbid', suspend: false },
      status: {
        active: [{ kind: 'Job', name: 'ledger-reconcile-29407320', namespace: ns }],
        lastScheduleTime: ago(60 * 9),
      },
    };
    const world: ApiWorld = {
      objects: [
        cronJob,
        job('ledger-reconcile-29407320', ns, 'ledger-reconcile', 1),
        held,
        job('ledger-reconcile-29405880', ns, 'ledger-reconcile', 0, 1),
        done,
      ],
      logs: {
        'ledger-reconcile-29407320-hq7xz/reconcile':
          '2026-03-10T03:55:12Z INFO reconciled 48211 ledger entries, 0 mismatches\n2026-03-10T03:55:12Z INFO done, exiting',
        'ledger-reconcile-29407320-hq7xz/cloud-sql-proxy':
          '2026/03/10 03:00:04 Authorizing with Application Default Credentials\n2026/03/10 03:00:05 [acme-ledger:europe-west1:ledger-pg] Listening on 127.0.0.1:5432\n2026/03/10 03:00:05 The proxy has started successfully and is ready for new connections!',
      },
    };

    it('shows the pod NotReady, names the sidecar and the Job never completing; a pod whose containers all completed is no such finding', async () => {
      const { model, findings } = findingsOf(jsonOutputs(world, ns));
      expect(model.get('pod', 'ledger-reconcile-29407320-hq7xz', ns)?.status).toBe('NotReady');
      // the finished Job's pod shows Completed
      expect(model.get('pod', 'ledger-reconcile-29405880-m2c8v', ns)?.status).toMatch(
        /Succeeded|Completed/,
      );
      const sidecar = findings.filter((f) => f.entry.id === 'job_sidecar_never_exits');
      expect(sidecar.map((f) => f.object?.name)).toEqual(['ledger-reconcile-29407320-hq7xz']);

      const { text } = await investigateAt(
        apiTools(world),
        'the ledger-reconcile CronJob in ledger-batch has not run since last night, its job is still active',
        NOW,
        ns,
      );
      expect(text).toContain('the sidecar container cloud-sql-proxy keeps running');
      expect(text).toContain('so the Job never completes');
      expect(text).not.toContain('ledger-reconcile-29405880-m2c8v');
    });
  });

  it('an admission webhook the API server cannot reach: webhook and service named', async () => {
    const ns = 'fares';
    const rs = 'fare-quoter-6f9c7d48b5';
    const noEndpoints =
      'Error creating: Internal error occurred: failed calling webhook "podpolicy.platform.acme.dev": failed to call webhook: Post "https://pod-policy-webhook.platform-policy.svc:443/validate-pods?timeout=5s": no endpoints available for service "pod-policy-webhook"';
    const world: ApiWorld = {
      objects: [
        deployment('fare-quoter', ns, 'registry.acme.dev/fares/fare-quoter:5.2.0', 3, 0),
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            name: rs,
            namespace: ns,
            labels: { app: 'fare-quoter', 'pod-template-hash': '6f9c7d48b5' },
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: 'Deployment', name: 'fare-quoter', controller: true },
            ],
            creationTimestamp: ago(25),
          },
          spec: { replicas: 3, selector: { matchLabels: { app: 'fare-quoter' } } },
          status: { replicas: 0, observedGeneration: 1 },
        },
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'ReplicaSet', name: rs },
          'Warning',
          'FailedCreate',
          noEndpoints,
          25,
          2,
          17,
          'replicaset-controller',
        ),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'fare-quoter in fares has no pods at all since the rollout 25 minutes ago',
      NOW,
      ns,
    );
    expect(text).toContain(
      'API server cannot reach the admission webhook podpolicy.platform.acme.dev (no endpoints available for service pod-policy-webhook)',
    );

    // a webhook that times out: named with why, no service in the message
    const timeout = findingsOf(
      jsonOutputs(
        {
          objects: [],
          events: [
            kubeEvent(
              'travel-docs',
              { kind: 'ReplicaSet', name: 'visa-checker-54d8b9c7f' },
              'Warning',
              'FailedCreate',
              'Error creating: Internal error occurred: failed calling webhook "agent-inject.secrets.acme.dev": failed to call webhook: Post "https://secrets-injector.secrets-system.svc:443/mutate?timeout=10s": context deadline exceeded',
              12,
              1,
              9,
              'replicaset-controller',
            ),
          ],
        },
        'travel-docs',
      ),
    ).findings.find((f) => f.entry.id === 'admission_webhook_unreachable');
    expect(timeout?.groups).toMatchObject({
      webhook: 'agent-inject.secrets.acme.dev',
      why2: 'context deadline exceeded',
    });
  });

  it('PostgreSQL "database files are incompatible with server" read with its DETAIL record: both versions', async () => {
    const ns = 'warehouse';
    const image = 'docker.io/library/postgres:16.4-bookworm';
    const world: ApiWorld = {
      objects: [
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name: 'stock-db', namespace: ns, creationTimestamp: ago(60 * 24 * 300) },
          spec: {
            replicas: 1,
            serviceName: 'stock-db',
            selector: { matchLabels: { app: 'stock-db' } },
            template: {
              metadata: { labels: { app: 'stock-db' } },
              spec: { containers: [{ name: 'postgres', image }] },
            },
          },
          status: { replicas: 1, readyReplicas: 0, currentReplicas: 1 },
        },
        apiPod({
          name: 'stock-db-0',
          ns,
          labels: { app: 'stock-db', 'statefulset.kubernetes.io/pod-name': 'stock-db-0' },
          owner: { kind: 'StatefulSet', name: 'stock-db' },
          created: 40,
          boxes: [
            {
              name: 'postgres',
              image,
              restarts: 9,
              state: {
                waiting: {
                  reason: 'CrashLoopBackOff',
                  message:
                    'back-off 5m0s restarting failed container=postgres pod=stock-db-0_warehouse(5c1e9a70-000a-4e2b-8d31-0a7f6c2b9e14)',
                },
              },
              lastState: terminated('Error', 1, 3, 0),
            },
          ],
        }),
      ],
      previous: {
        'stock-db-0': [
          '',
          'PostgreSQL Database directory appears to contain a database; Skipping initialization',
          '',
          '2026-03-10 11:57:02.114 UTC [1] FATAL:  database files are incompatible with server',
          '2026-03-10 11:57:02.114 UTC [1] DETAIL:  The data directory was initialized by PostgreSQL version 14, which is not compatible with this version 16.4 (Debian 16.4-1.pgdg120+2).',
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'stock-db in warehouse keeps crashing since we bumped the postgres image this morning',
      NOW,
      ns,
    );
    expect(text).toContain('runs a PostgreSQL major version that cannot open its data directory');
    expect(text).toContain('initialized by PostgreSQL version 14');
    expect(text).toContain('this version 16.4');
  });

  it('what the catalog matched survives the clip of a long record; a Python traceback keeps its error line', async () => {
    const ns = 'fx';
    // logfmt, as a Go service writes it: the lookup that failed lies past the clip, and its err
    // field is not the record's tail (more fields follow it)
    const record =
      'time=2026-03-10T11:58:41.207Z level=error msg="rate refresh failed, serving stale rates to quote-api" component=rates-poller provider=ecb-mirror attempt=5 backoff=32s stale_for=14m12s err="dial tcp: lookup ecb-mirror.rates.internal on 10.0.0.10:53: no such host" base=EUR symbols=USD,GBP,CHF,JPY,PLN request_id=8c41f0d2';
    expect(record.indexOf('no such host')).toBeGreaterThan(240);
    const world: ApiWorld = {
      objects: [
        deployment('rates-poller', ns, 'registry.acme.dev/fx/rates-poller:1.9.3', 1, 1),
        apiPod({
          name: 'rates-poller-5b8d6c9f7-tq4wz',
          ns,
          labels: { app: 'rates-poller', 'pod-template-hash': '5b8d6c9f7' },
          owner: { kind: 'ReplicaSet', name: 'rates-poller-5b8d6c9f7' },
          boxes: [{ name: 'rates-poller', image: 'registry.acme.dev/fx/rates-poller:1.9.3' }],
        }),
      ],
      logs: {
        'rates-poller-5b8d6c9f7-tq4wz': [
          'time=2026-03-10T11:40:02.118Z level=info msg="polling rates" component=rates-poller provider=ecb-mirror interval=60s',
          record,
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'rates-poller in fx serves stale exchange rates for the last 15 minutes',
      NOW,
      ns,
    );
    expect(text).toContain('lookup ecb-mirror.rates.internal on 10.0.0.10:53: no such host');

    // a crash matched on "Traceback (most recent call last)": the error line it ends with leads,
    // and is not cut short to make room for the marker
    const error =
      "renderer.errors.TemplateRenderError: template 'invoice_eu_v3.html' could not be rendered for invoice INV-2026-0088412 of account 7731904 (locale de_CH, currency CHF): block 'vat_breakdown' expects 3 rows and got 0 from tax-svc";
    const crash = findingsOf([
      {
        output: [
          '[2026-03-10 11:51:07,402] INFO renderer.worker: picked job 88412 from queue invoices-eu',
          'Traceback (most recent call last):',
          '  File "/app/renderer/worker.py", line 212, in run',
          '    pdf = render_invoice(job)',
          '  File "/app/renderer/render.py", line 87, in render_invoice',
          '    raise TemplateRenderError(msg)',
          error,
        ].join('\n'),
        ctx: { pod: 'invoice-renderer-7c9d5b8f6-k2p9w', namespace: 'billing-docs', verb: 'logs' },
      },
    ]).findings.find((f) => f.groups['matched']?.startsWith('Traceback'));
    expect(crash).toBeDefined();
    const clipped = clipKeepingError(crash!.fact, 240, crash!.groups['matched']);
    expect(error.length).toBeGreaterThan(210);
    expect(clipped).toContain(error);
  });

  it('"which pods in <ns> got OOMKilled today?": the count and the pods killed for memory today', async () => {
    const ns = 'media-encode';
    const image = 'registry.acme.dev/media/transcoder:3.7.1';
    const worker = (suffix: string, c: Partial<Box>) =>
      apiPod({
        name: `transcoder-7b4f9c6d8-${suffix}`,
        ns,
        labels: { app: 'transcoder', 'pod-template-hash': '7b4f9c6d8' },
        owner: { kind: 'ReplicaSet', name: 'transcoder-7b4f9c6d8' },
        created: 60 * 24 * 5,
        boxes: [{ name: 'transcoder', image, ...c }],
      });
    const world: ApiWorld = {
      objects: [
        deployment('transcoder', ns, image, 5, 4),
        // killed for memory 95 minutes ago, running again
        worker('2xkqp', { restarts: 1, lastState: terminated('OOMKilled', 137, 95, 240) }),
        // killed again 4 minutes ago, now backing off
        worker('h8m4t', {
          restarts: 6,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: 'back-off 2m40s restarting failed container=transcoder',
            },
          },
          lastState: terminated('OOMKilled', 137, 4, 20),
        }),
        // killed for memory three days ago: not today
        worker('v6r9d', { restarts: 1, lastState: terminated('OOMKilled', 137, 60 * 24 * 3, 300) }),
        // restarted today, but exit code 1
        worker('c3n7w', { restarts: 2, lastState: terminated('Error', 1, 50, 2) }),
        worker('p5j2z', {}),
      ],
    };
    const { result } = await investigateAt(
      apiTools(world),
      `which pods in ${ns} got OOMKilled today?`,
      NOW,
      ns,
    );
    const answer = result.summary;
    expect(answer).toMatch(/^2 pods OOMKilled/);
    expect(answer).toContain('transcoder-7b4f9c6d8-2xkqp');
    expect(answer).toContain('transcoder-7b4f9c6d8-h8m4t');
    expect(answer).not.toContain('v6r9d');
    expect(answer).not.toContain('c3n7w');
  });

  it('"which pods from <ns> are running on node <X> right now?" with listings without a NODE column: the pods of that node', async () => {
    const ns = 'search';
    const nodeA = 'gke-prod-general-4c2e91ab-7m4d';
    const nodeB = 'gke-prod-general-4c2e91ab-q9xt';
    /** `kubectl describe node`, down to its Non-terminated Pods */
    const nodeText = (name: string, pods: [string, string][]) =>
      describeNode({
        name,
        labels: ['cloud.google.com/gke-nodepool=general', `kubernetes.io/hostname=${name}`],
        created: 60 * 24 * 12,
        conditions: [
          ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status. AppArmor enabled'],
        ],
        internalIP: '10.128.0.47',
        providerID: `gce://acme-prod/europe-west4-b/${name}`,
        pods: pods.map(([podNs, pod]) => [
          podNs,
          pod,
          '100m (2%)',
          '0 (0%)',
          '256Mi (1%)',
          '0 (0%)',
          '3d',
        ]),
      });
    const world: TextWorld = {
      tables: {
        // `kubectl get pods -n search`: no NODE column
        pod: table(
          ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
          [
            ['query-api-6d8b7f9c4-4kq2n', '1/1', 'Running', '0', '3d'],
            ['query-api-6d8b7f9c4-9tx8w', '1/1', 'Running', '0', '3d'],
            ['indexer-0', '1/1', 'Running', '0', '3d'],
            ['indexer-1', '1/1', 'Running', '0', '3d'],
          ],
        ),
        node: table(
          ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'],
          [
            [nodeA, 'Ready', '<none>', '12d', 'v1.30.5-gke.1014001'],
            [nodeB, 'Ready', '<none>', '12d', 'v1.30.5-gke.1014001'],
          ],
        ),
      },
      describe: {
        [`node/${nodeA}`]: nodeText(nodeA, [
          ['kube-system', 'fluentbit-gke-8xw2l'],
          ['kube-system', 'kube-proxy-gke-prod-general-4c2e91ab-7m4d'],
          [ns, 'query-api-6d8b7f9c4-9tx8w'],
          [ns, 'indexer-1'],
          ['checkout', 'cart-5f7d9c8b6-r2m7k'],
        ]),
        [`node/${nodeB}`]: nodeText(nodeB, [
          ['kube-system', 'fluentbit-gke-p4n6s'],
          [ns, 'query-api-6d8b7f9c4-4kq2n'],
          [ns, 'indexer-0'],
        ]),
      },
    };
    const { result } = await investigateAt(
      textTools(world),
      `which pods from ${ns} are running on node ${nodeA} right now?`,
      NOW,
      ns,
    );
    const answer = result.summary;
    expect(answer).toContain(`on node ${nodeA}`);
    expect(answer).toContain('query-api-6d8b7f9c4-9tx8w');
    expect(answer).toContain('indexer-1');
    expect(answer).not.toContain('query-api-6d8b7f9c4-4kq2n');
    expect(answer).not.toContain('indexer-0');
    expect(answer).not.toContain('cart-5f7d9c8b6-r2m7k');
  });

  it('"which services in <ns> are LoadBalancers and at what address?": the addresses, a pending one with its Warning', async () => {
    const ns = 'edge';
    const world: TextWorld = {
      tables: {
        service: table(
          ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
          [
            [
              'public-gateway',
              'LoadBalancer',
              '172.20.41.18',
              'a3f9c1e7b2d8446e9b1c5d7a0e2f6b31-1187402266.eu-west-1.elb.amazonaws.com',
              '443:31877/TCP',
              '61d',
            ],
            ['partner-sftp', 'LoadBalancer', '172.20.9.240', '<pending>', '22:30412/TCP', '35m'],
            ['gateway-admin', 'ClusterIP', '172.20.77.3', '<none>', '9901/TCP', '61d'],
            [
              'status-page',
              'LoadBalancer',
              '172.20.130.6',
              '34.251.18.77',
              '80:32044/TCP,443:30567/TCP',
              '12d',
            ],
          ],
        ),
      },
      describe: {},
      events: eventsTable([
        [
          '3m',
          'Warning',
          'SyncLoadBalancerFailed',
          'service/partner-sftp',
          'Error syncing load balancer: failed to ensure load balancer: could not find any suitable subnets for creating the ELB',
        ],
        ['35m', 'Normal', 'EnsuringLoadBalancer', 'service/partner-sftp', 'Ensuring load balancer'],
      ]),
    };
    const { result } = await investigateAt(
      textTools(world),
      `which services in ${ns} are LoadBalancers and at what address?`,
      NOW,
      ns,
    );
    const answer = result.summary;
    expect(answer).toMatch(/^3 Services are of type LoadBalancer/);
    expect(answer).toContain(
      'public-gateway at a3f9c1e7b2d8446e9b1c5d7a0e2f6b31-1187402266.eu-west-1.elb.amazonaws.com',
    );
    expect(answer).toContain('status-page at 34.251.18.77');
    expect(answer).toContain('partner-sftp has no external address yet');
    expect(answer).toContain('could not find any suitable subnets for creating the ELB');
    expect(answer).not.toContain('gateway-admin');
  });

  it('Envoy answering 503 UO (reset reason: overflow): its circuit breaker named, with max_connections / max_pending_requests', async () => {
    const ns = 'travel';
    const image = 'registry.acme.dev/travel/fare-api:4.0.2';
    const proxy = 'docker.io/istio/proxyv2:1.22.3';
    const pod = 'fare-api-68c7d9f5b4-zr6lp';
    const access = (at: string, path: string, dur: number) =>
      `[${at}] "GET ${path} HTTP/1.1" 503 UO upstream_reset_before_response_started{overflow} - "-" 0 81 ${dur} - "-" "Go-http-client/1.1" "3f1e6a2c-8b7d-4c9e-a1f0-${dur}5d2c7e9b40" "seat-inventory.travel.svc.cluster.local:8080" "-" outbound|8080||seat-inventory.travel.svc.cluster.local - 10.96.118.24:8080 10.52.3.41:51944 - default`;
    const world: ApiWorld = {
      objects: [
        deployment('fare-api', ns, image, 1, 1),
        apiPod({
          name: pod,
          ns,
          labels: { app: 'fare-api', 'pod-template-hash': '68c7d9f5b4' },
          owner: { kind: 'ReplicaSet', name: 'fare-api-68c7d9f5b4' },
          boxes: [
            { name: 'fare-api', image },
            { name: 'istio-proxy', image: proxy },
          ],
        }),
      ],
      logs: {
        [pod]: [
          'time=2026-03-10T11:56:10.402Z level=info msg="quote served" route=/v1/fares/LHR-JFK seats=12 took=38ms',
          'time=2026-03-10T11:56:11.017Z level=warn msg="seat lookup failed" upstream=seat-inventory status=503 body="upstream connect error or disconnect/reset before headers. reset reason: overflow"',
          'time=2026-03-10T11:56:11.019Z level=warn msg="seat lookup failed" upstream=seat-inventory status=503 body="upstream connect error or disconnect/reset before headers. reset reason: overflow"',
        ].join('\n'),
        [`${pod}/istio-proxy`]: [
          access('2026-03-10T11:56:11.015Z', '/v2/seats?flight=BA117', 0),
          access('2026-03-10T11:56:11.018Z', '/v2/seats?flight=BA175', 1),
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'fare-api in travel returns 503 for seat lookups since the DestinationRule change at 11:50',
      NOW,
      ns,
    );
    expect(text).toContain("Envoy's circuit breaker");
    expect(text).toMatch(/max_connections/);
    expect(text).toMatch(/max_pending_requests/);
  });

  it('MongoDB "ReplicaSetNoPrimary": no primary, the members reported Unknown named with their Pending pods', async () => {
    const ns = 'shop-core';
    const image = 'registry.acme.dev/shop/cart-service:7.3.0';
    const host = (i: number) => `cartdb-${i}.cartdb-headless.${ns}.svc.cluster.local:27017`;
    const record = JSON.stringify({
      level: 50,
      time: NOW - 60_000,
      pid: 1,
      hostname: 'cart-service-5d9b8c7f6-w4x2m',
      err: {
        type: 'MongoServerSelectionError',
        message: 'Server selection timed out after 30000 ms',
        reason: {
          type: 'ReplicaSetNoPrimary',
          setName: 'rs0',
          servers: { [host(0)]: 'RSSecondary', [host(1)]: 'Unknown', [host(2)]: 'Unknown' },
        },
      },
      msg: 'failed to save cart',
    });
    const mongo = (i: number, phase: 'Running' | 'Pending') =>
      apiPod({
        name: `cartdb-${i}`,
        ns,
        labels: { app: 'cartdb', 'statefulset.kubernetes.io/pod-name': `cartdb-${i}` },
        owner: { kind: 'StatefulSet', name: 'cartdb' },
        phase,
        ready: phase === 'Running',
        created: phase === 'Pending' ? 40 : 60 * 24 * 30,
        boxes: [{ name: 'mongod', image: 'docker.io/library/mongo:7.0.14' }],
      });
    const unschedulable =
      '0/6 nodes are available: 3 node(s) had volume node affinity conflict, 3 node(s) were unschedulable. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.';
    const world: ApiWorld = {
      objects: [
        deployment('cart-service', ns, image, 1, 1),
        apiPod({
          name: 'cart-service-5d9b8c7f6-w4x2m',
          ns,
          labels: { app: 'cart-service', 'pod-template-hash': '5d9b8c7f6' },
          owner: { kind: 'ReplicaSet', name: 'cart-service-5d9b8c7f6' },
          boxes: [{ name: 'cart-service', image }],
        }),
        mongo(0, 'Running'),
        mongo(1, 'Pending'),
        mongo(2, 'Pending'),
      ],
      events: [1, 2].map((i) =>
        kubeEvent(
          ns,
          { kind: 'Pod', name: `cartdb-${i}` },
          'Warning',
          'FailedScheduling',
          unschedulable,
          40,
          1,
          14,
          'default-scheduler',
        ),
      ),
      logs: {
        'cart-service-5d9b8c7f6-w4x2m': [
          JSON.stringify({
            level: 30,
            time: NOW - 600_000,
            pid: 1,
            msg: 'cart saved',
            cartId: 'c-81734',
          }),
          record,
          record.replace('failed to save cart', 'failed to update cart'),
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'cart-service in shop-core cannot save carts for the last 40 minutes',
      NOW,
      ns,
    );
    expect(text).toContain('finds no primary in its MongoDB replica set');
    expect(text).toContain(
      'members it cannot reach: cartdb-1 (Pending: 0/6 nodes are available: 3 node(s) had volume node affinity conflict',
    );
    expect(text).toContain('cartdb-2 (Pending: 0/6 nodes are available');
    expect(text).not.toMatch(/cannot reach: [^.]*cartdb-0/);
  });
});
