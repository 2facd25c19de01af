/**
 * The engine rules of f6c1ad5, one test per rule, each on a small world of outputs shaped like
 * real ones (Kubernetes API objects and events, `kubectl logs` lines of Python, Node and Go
 * clients, Redis Sentinel): a Job whose failed pod was retried to completion (no finding) and one
 * whose every pod failed (a finding), a Succeeded pod that is not 'failing', a Multi-Attach error,
 * an Elasticsearch circuit breaker, a write to a Redis replica after a Sentinel failover, a
 * suspended CronJob, and three questions (how many 'X' errors since T, which pods use a volume,
 * cpu request/limit with the autoscaler's bounds).
 */
import {
  NOW,
  ago,
  apiTools,
  deploymentObj,
  hpaObj,
  investigateAt,
  podObj,
  stamped,
  warningEvent,
  type ApiWorld,
  answerOf,
} from './spec-world';

// ------------------------------------------------------------------------------------------------
// API objects

type Obj = Record<string, unknown>;

/** a Pod of this cluster: on a node, its resources listed, no conditions, an IP when given */
const pod = (p: Parameters<typeof podObj>[0]): Obj =>
  podObj({
    created: 60 * 24,
    node: 'ip-10-30-4-17.eu-west-1.compute.internal',
    scheduled: true,
    restartPolicy: p.owner.kind === 'Job' ? 'Never' : 'Always',
    conditions: null,
    podIP: null,
    ...p,
    boxes: p.boxes.map((b) => ({ resources: {}, started: null, ...b })),
  });

/** a container that ran to its end */
const exited = (exitCode: number, minutesAgo: number): Obj => ({
  terminated: {
    exitCode,
    reason: exitCode ? 'Error' : 'Completed',
    startedAt: ago(minutesAgo + 3),
    finishedAt: ago(minutesAgo),
  },
});

// ------------------------------------------------------------------------------------------------

describe('rules of f6c1ad5', () => {
  describe('a Job pod that failed', () => {
    const ns = 'finance-batch';
    const image = 'registry.example.com/finance/fx-rates-import:3.1.0';
    // psycopg2's error when the database refuses the connection
    const refused = [
      'Traceback (most recent call last):',
      '  File "/app/fx_import/main.py", line 41, in <module>',
      '    conn = psycopg2.connect(os.environ["DATABASE_URL"])',
      'psycopg2.OperationalError: connection to server at "pg-fx.finance-batch.svc" (10.96.41.7), port 5432 failed: Connection refused',
      '\tIs the server running on that host and accepting TCP/IP connections?',
    ].join('\n');
    const jobPod = (name: string, exitCode: number, created: number): Obj =>
      pod({
        name,
        ns,
        labels: {
          'batch.kubernetes.io/job-name': 'fx-rates-import',
          'job-name': 'fx-rates-import',
        },
        owner: { kind: 'Job', name: 'fx-rates-import' },
        phase: exitCode ? 'Failed' : 'Succeeded',
        created,
        boxes: [{ name: 'import', image, state: exited(exitCode, created - 4) }],
      });
    const job = (failed: number, succeeded: number): Obj => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'fx-rates-import', namespace: ns, creationTimestamp: ago(95) },
      spec: { backoffLimit: succeeded ? 3 : 1, completions: 1, parallelism: 1 },
      status: {
        startTime: ago(95),
        failed,
        succeeded,
        ...(succeeded
          ? {
              completionTime: ago(80),
              conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: ago(80) }],
            }
          : {
              conditions: [
                {
                  type: 'Failed',
                  status: 'True',
                  reason: 'BackoffLimitExceeded',
                  message: 'Job has reached the specified backoff limit',
                  lastTransitionTime: ago(80),
                },
              ],
            }),
      },
    });

    it('is history when a retry of the same Job completed: a healthy answer', async () => {
      const world: ApiWorld = {
        objects: [
          job(1, 1),
          jobPod('fx-rates-import-k8w2q', 1, 95),
          jobPod('fx-rates-import-t4n7c', 0, 88),
        ],
        logs: {
          'fx-rates-import-k8w2q': refused,
          'fx-rates-import-t4n7c':
            '2026-03-10 10:36:12,408 INFO fx_import: 168 rates imported for 2026-03-09\n2026-03-10 10:36:12,411 INFO fx_import: done',
        },
      };
      const { result, text } = await investigateAt(
        apiTools(world),
        'one fx-rates-import pod shows Error this morning, is the import broken?',
        NOW,
        ns,
      );
      expect(result.summary).toMatch(/No problem found/);
      expect(text).not.toMatch(/Connection refused/);
    });

    it('is still a finding when every pod of the Job failed', async () => {
      const world: ApiWorld = {
        objects: [
          job(2, 0),
          jobPod('fx-rates-import-k8w2q', 1, 95),
          jobPod('fx-rates-import-t4n7c', 1, 88),
        ],
        logs: { 'fx-rates-import-k8w2q': refused, 'fx-rates-import-t4n7c': refused },
      };
      const { result, text } = await investigateAt(
        apiTools(world),
        'one fx-rates-import pod shows Error this morning, is the import broken?',
        NOW,
        ns,
      );
      expect(result.summary).not.toMatch(/No problem found/);
      expect(text).toMatch(/Connection refused/);
    });
  });

  it('a Succeeded pod (its container ready: false) is not listed as failing', async () => {
    const ns = 'geo';
    const world: ApiWorld = {
      objects: [
        pod({
          name: 'tile-cache-warm-29001440-p2x8d',
          ns,
          labels: { 'job-name': 'tile-cache-warm-29001440' },
          owner: { kind: 'Job', name: 'tile-cache-warm-29001440' },
          phase: 'Succeeded',
          created: 50,
          boxes: [
            {
              name: 'warm',
              image: 'registry.example.com/geo/tile-cache-warm:1.2.0',
              state: exited(0, 45),
            },
          ],
        }),
        pod({
          name: 'geocoder-5d9c8b7f6-r2m4k',
          ns,
          labels: { app: 'geocoder', 'pod-template-hash': '5d9c8b7f6' },
          owner: { kind: 'ReplicaSet', name: 'geocoder-5d9c8b7f6' },
          boxes: [
            {
              name: 'geocoder',
              image: 'registry.example.com/geo/geocoder:4.0.3',
              state: {
                waiting: {
                  reason: 'CrashLoopBackOff',
                  message: 'back-off 2m40s restarting failed container',
                },
              },
            },
          ],
        }),
        pod({
          name: 'geocoder-5d9c8b7f6-h7w3z',
          ns,
          labels: { app: 'geocoder', 'pod-template-hash': '5d9c8b7f6' },
          owner: { kind: 'ReplicaSet', name: 'geocoder-5d9c8b7f6' },
          boxes: [{ name: 'geocoder', image: 'registry.example.com/geo/geocoder:4.0.3' }],
        }),
      ],
    };
    const { result } = await investigateAt(
      apiTools(world),
      'which pods in geo are failing?',
      NOW,
      ns,
    );
    const answer = answerOf(result);
    expect(answer).toContain('geocoder-5d9c8b7f6-r2m4k');
    expect(answer).not.toContain('tile-cache-warm-29001440-p2x8d');
    expect(answer).not.toContain('geocoder-5d9c8b7f6-h7w3z');
  });

  it('a Multi-Attach error event: the ReadWriteOnce volume held on another node, Recreate', async () => {
    const ns = 'observability';
    const image = 'docker.io/grafana/grafana:11.2.0';
    const vol = 'pvc-3b6f0d2e-91a4-4c57-8e1b-5d0f7a2c9e64';
    const newPod = 'grafana-7b9f4c6d58-q6z2v';
    const world: ApiWorld = {
      objects: [
        deploymentObj('grafana', ns, [image], 1, 0, [], { unavailable: false }),
        pod({
          name: 'grafana-64c8d9f7b5-m3k8p',
          ns,
          labels: { app: 'grafana', 'pod-template-hash': '64c8d9f7b5' },
          owner: { kind: 'ReplicaSet', name: 'grafana-64c8d9f7b5' },
          node: 'ip-10-30-4-17.eu-west-1.compute.internal',
          claims: ['grafana-storage'],
          boxes: [{ name: 'grafana', image: 'docker.io/grafana/grafana:11.1.4' }],
        }),
        pod({
          name: newPod,
          ns,
          labels: { app: 'grafana', 'pod-template-hash': '7b9f4c6d58' },
          owner: { kind: 'ReplicaSet', name: 'grafana-7b9f4c6d58' },
          phase: 'Pending',
          node: 'ip-10-30-7-202.eu-west-1.compute.internal',
          created: 18,
          claims: ['grafana-storage'],
          boxes: [{ name: 'grafana', image, state: { waiting: { reason: 'ContainerCreating' } } }],
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: newPod },
          'FailedAttachVolume',
          `Multi-Attach error for volume "${vol}" Volume is already used by pod(s) grafana-64c8d9f7b5-m3k8p`,
          18,
          1,
          9,
          'attachdetach-controller',
        ),
        warningEvent(
          ns,
          { kind: 'Pod', name: newPod },
          'FailedMount',
          'Unable to attach or mount volumes: unmounted volumes=[storage], unattached volumes=[storage kube-api-access-9d2lx]: timed out waiting for the condition',
          16,
          2,
          8,
          'kubelet',
        ),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'the grafana rollout to 11.2.0 has been stuck for 15 minutes',
      NOW,
      ns,
    );
    expect(text).toContain(`its volume ${vol} is ReadWriteOnce and still attached to another node`);
    expect(text).toMatch(/Recreate strategy/);
  });

  it('Elasticsearch circuit_breaking_exception in a client log: the breaker and the heap', async () => {
    const ns = 'catalog';
    const name = 'product-finder-8c7d6b5a4-z9t3w';
    const image = 'registry.example.com/catalog/product-finder:2.14.1';
    // elasticsearch-py 8 as a Flask app logs it, behind gunicorn
    const breaker =
      "elasticsearch.ApiError: ApiError(429, 'circuit_breaking_exception', '[parent] Data too large, data for [<http_request>] would be [2087461528/1.9gb], which is larger than the limit of [2040109465/1.8gb], real usage: [2087460864/1.9gb], new bytes reserved: [664/664b], usages [fielddata=1381024812/1.2gb, request=0/0b, inflight_requests=664/664b, model_inference=0/0b, eql_sequence=0/0b]')";
    const world: ApiWorld = {
      objects: [
        deploymentObj('product-finder', ns, [image], 1, 1),
        pod({
          name,
          ns,
          labels: { app: 'product-finder', 'pod-template-hash': '8c7d6b5a4' },
          owner: { kind: 'ReplicaSet', name: 'product-finder-8c7d6b5a4' },
          boxes: [{ name: 'product-finder', image }],
        }),
      ],
      logs: {
        [name]: stamped([
          [31, '[2026-03-10 11:29:02 +0000] [7] [INFO] GET /v1/products?q=rain+jacket 200 41ms'],
          [24, '[2026-03-10 11:36:14 +0000] [7] [ERROR] Exception on /v1/products [GET]'],
          [24, 'Traceback (most recent call last):'],
          [24, '  File "/app/finder/search.py", line 88, in query'],
          [24, '    resp = es.search(index="products", query=q, aggs=AGGS)'],
          [24, breaker],
          [9, '[2026-03-10 11:51:40 +0000] [8] [ERROR] Exception on /v1/products [GET]'],
          [9, breaker],
        ]),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'product-finder returns 500 on searches since half past eleven',
      NOW,
      ns,
    );
    expect(text).toMatch(/circuit breaker trips because the node's heap is nearly full/);
    expect(text).toContain('circuit_breaking_exception');
    expect(text).toContain('_nodes/stats/breaker');
  });

  it("Redis READONLY from a client: the store's sentinel container names the +switch-master", async () => {
    const ns = 'identity';
    const client = 'token-service-6f5e4d3c2-b8n1x';
    const image = 'registry.example.com/identity/token-service:5.0.2';
    const redis = (name: string, ip: string): Obj =>
      pod({
        name,
        ns,
        labels: { 'app.kubernetes.io/name': 'redis', 'app.kubernetes.io/component': 'node' },
        owner: { kind: 'StatefulSet', name: 'sessions-redis-node' },
        podIP: ip,
        boxes: [
          { name: 'redis', image: 'docker.io/bitnami/redis:7.2.5-debian-12-r4' },
          { name: 'sentinel', image: 'docker.io/bitnami/redis-sentinel:7.2.5-debian-12-r3' },
        ],
      });
    const world: ApiWorld = {
      objects: [
        deploymentObj('token-service', ns, [image], 1, 1),
        pod({
          name: client,
          ns,
          labels: { app: 'token-service', 'pod-template-hash': '6f5e4d3c2' },
          owner: { kind: 'ReplicaSet', name: 'token-service-6f5e4d3c2' },
          boxes: [{ name: 'token-service', image }],
        }),
        redis('sessions-redis-node-0', '10.244.2.31'),
        redis('sessions-redis-node-1', '10.244.3.18'),
      ],
      logs: {
        // ioredis, in a pino JSON line
        [client]: stamped([
          [
            14,
            '{"level":50,"time":1773142560512,"msg":"refresh token store failed","err":{"type":"ReplyError","message":"READONLY You can\'t write against a read only replica.","command":{"name":"set","args":["rt:4f1c","[REDACTED]","EX","2592000"]}}}',
          ],
          [
            3,
            '{"level":50,"time":1773143220190,"msg":"refresh token store failed","err":{"type":"ReplyError","message":"READONLY You can\'t write against a read only replica.","command":{"name":"set","args":["rt:9a02","[REDACTED]","EX","2592000"]}}}',
          ],
        ]),
        'sessions-redis-node-0/redis':
          '1:S 10 Mar 2026 11:46:02.118 * Connecting to MASTER 10.244.3.18:6379\n1:S 10 Mar 2026 11:46:02.131 * MASTER <-> REPLICA sync: Finished with success',
        'sessions-redis-node-1/redis':
          "1:M 10 Mar 2026 11:45:58.904 * MASTER MODE enabled (user request from 'id=9 addr=10.244.3.18:41822 laddr=10.244.3.18:6379 fd=12 name=sentinel-5ab1c7e0-cmd')",
        'sessions-redis-node-0/sentinel': [
          '1:X 10 Mar 2026 11:45:51.377 # +sdown master mymaster 10.244.2.31 6379',
          '1:X 10 Mar 2026 11:45:52.412 # +odown master mymaster 10.244.2.31 6379 #quorum 2/2',
          '1:X 10 Mar 2026 11:45:58.611 # +selected-slave slave 10.244.3.18:6379 10.244.3.18 6379 @ mymaster 10.244.2.31 6379',
          '1:X 10 Mar 2026 11:45:59.954 # +switch-master mymaster 10.244.2.31 6379 10.244.3.18 6379',
        ].join('\n'),
        'sessions-redis-node-1/sentinel':
          '1:X 10 Mar 2026 11:45:59.961 # +switch-master mymaster 10.244.2.31 6379 10.244.3.18 6379',
      },
    };
    const { text, gateway } = await investigateAt(
      apiTools(world),
      'token-service cannot store refresh tokens, logins fail',
      NOW,
      ns,
    );
    expect(text).toMatch(/writes to a Redis replica/);
    expect(text).toContain("READONLY You can't write against a read only replica.");
    // the sentinel container of the store was read, by container
    expect(
      gateway.calls.some(
        (c) => c.tool.endsWith('pods_log') && c.params['container'] === 'sentinel',
      ),
    ).toBe(true);
    expect(text).toMatch(
      // the pods behind the IPs (their status.podIP)
      /Sentinel failed over \(\+switch-master\) from sessions-redis-node-0 \(10\.244\.2\.31\) to sessions-redis-node-1 \(10\.244\.3\.18\)/,
    );
    expect(text).toMatch(/Point token-service at the current master/);
  });

  it('a suspended CronJob: suspend: true, its last schedule and the note left on it', async () => {
    const ns = 'finance';
    const world: ApiWorld = {
      objects: [
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          metadata: {
            name: 'vendor-payout-report',
            namespace: ns,
            creationTimestamp: ago(60 * 24 * 200),
            annotations: {
              'ops.example.com/note': 'paused for the ledger DB failover drill, CHG-30917',
            },
          },
          spec: {
            schedule: '15 3 * * 1',
            suspend: true,
            concurrencyPolicy: 'Forbid',
            jobTemplate: {
              spec: {
                template: {
                  spec: {
                    restartPolicy: 'OnFailure',
                    containers: [
                      {
                        name: 'report',
                        image: 'registry.example.com/finance/vendor-payout-report:1.9.4',
                      },
                    ],
                  },
                },
              },
            },
          },
          status: {
            lastScheduleTime: '2026-02-23T03:15:00Z',
            lastSuccessfulTime: '2026-02-23T03:21:47Z',
          },
        },
      ],
    };
    const { text, result } = await investigateAt(
      apiTools(world),
      'the vendor-payout-report cronjob has sent no report for two weeks, why?',
      NOW,
      ns,
    );
    expect(result.summary).not.toMatch(/No problem found/);
    expect(text).toContain('CronJob vendor-payout-report is suspended (spec.suspend: true)');
    expect(text).toContain('last scheduled 2026-02-23T03:15:00Z (15 days ago)');
    expect(text).toContain('note on it: "paused for the ledger DB failover drill, CHG-30917"');
  });

  describe('three questions', () => {
    it('"how many \'X\' errors has Y logged since T": the count in the window, per pod', async () => {
      const ns = 'inventory';
      const pods = ['stock-ledger-7c6b5a498-d2k7m', 'stock-ledger-7c6b5a498-w5p1r'];
      const image = 'registry.example.com/inventory/stock-ledger:6.3.0';
      // pgx's error as a Go service logs it with slog
      const deadlock = (m: number, id: number): [number, string] => [
        m,
        `time=${ago(m).slice(0, 19)}Z level=ERROR msg="reserve stock" order=${id} err="ERROR: deadlock detected (SQLSTATE 40P01)"`,
      ];
      const ok = (m: number, id: number): [number, string] => [
        m,
        `time=${ago(m).slice(0, 19)}Z level=INFO msg="reserved" order=${id} items=2`,
      ];
      const world: ApiWorld = {
        objects: [
          deploymentObj('stock-ledger', ns, [image], 2, 2),
          ...pods.map((name) =>
            pod({
              name,
              ns,
              labels: { app: 'stock-ledger', 'pod-template-hash': '7c6b5a498' },
              owner: { kind: 'ReplicaSet', name: 'stock-ledger-7c6b5a498' },
              boxes: [{ name: 'stock-ledger', image }],
            }),
          ),
        ],
        logs: {
          // 11:00 is 60 minutes before NOW: the one at 75 minutes is before the window
          [pods[0]!]: stamped([
            deadlock(75, 88120),
            ok(70, 88121),
            deadlock(42, 88301),
            deadlock(20, 88455),
            ok(12, 88502),
            deadlock(6, 88560),
          ]),
          [pods[1]!]: stamped([ok(55, 88200), deadlock(33, 88377), ok(5, 88571)]),
        },
      };
      const { result } = await investigateAt(
        apiTools(world),
        "how many 'deadlock detected' errors has stock-ledger logged since 11:00?",
        NOW,
        ns,
      );
      const answer = answerOf(result);
      expect(answer).toContain(
        '2 of the 2 pod(s) whose logs I read logged "deadlock detected" since 2026-03-10T11:00:00.000Z, 4 times in all',
      );
      expect(answer).toContain(`${pods[0]} (3 times, last at ${ago(6).slice(0, 19)}`);
      expect(answer).toContain(`${pods[1]} (1 time, last at ${ago(33).slice(0, 19)}`);
    });

    it('"which pods are using the <name> volume": the running ones, a finished Job pod apart', async () => {
      const ns = 'analytics';
      const app = (name: string, hash: string, claims?: string[]) =>
        pod({
          name,
          ns,
          labels: { app: name.split('-').slice(0, -2).join('-'), 'pod-template-hash': hash },
          owner: { kind: 'ReplicaSet', name: name.split('-').slice(0, -1).join('-') },
          boxes: [
            {
              name: name.split('-').slice(0, -2).join('-'),
              image: `registry.example.com/analytics/${name.split('-').slice(0, -2).join('-')}:2.0.0`,
            },
          ],
          ...(claims ? { claims } : {}),
        });
      const world: ApiWorld = {
        objects: [
          app('parquet-writer-59d8c7b6f-h2j4k', '59d8c7b6f', ['event-archive']),
          app('archive-browser-6a7b8c9d0-x1y2z', '6a7b8c9d0', ['event-archive']),
          app('dashboard-api-5f4e3d2c1-q9w8e', '5f4e3d2c1', ['dashboard-cache']),
          pod({
            name: 'archive-compact-29001320-f6g5h',
            ns,
            labels: { 'job-name': 'archive-compact-29001320' },
            owner: { kind: 'Job', name: 'archive-compact-29001320' },
            phase: 'Succeeded',
            created: 170,
            claims: ['event-archive'],
            boxes: [
              {
                name: 'compact',
                image: 'registry.example.com/analytics/archive-compact:1.0.7',
                state: exited(0, 150),
              },
            ],
          }),
        ],
      };
      const { result } = await investigateAt(
        apiTools(world),
        'which pods are using the event-archive volume?',
        NOW,
        ns,
      );
      const answer = answerOf(result);
      expect(answer).toContain(
        '2 pods in namespace analytics use the PersistentVolumeClaim event-archive now (of 4 read): parquet-writer-59d8c7b6f-h2j4k (volume), archive-browser-6a7b8c9d0-x1y2z (volume).',
      );
      expect(answer).toContain(
        '1 finished pod (not running) also names it: archive-compact-29001320-f6g5h (volume).',
      );
      expect(answer).not.toContain('dashboard-api');
    });

    it('"what cpu request/limit does X run with and how far can its autoscaler scale": both', async () => {
      const ns = 'checkout';
      const image = 'registry.example.com/checkout/price-engine:9.4.2';
      const pods = ['price-engine-84b7c6d5e-k3l4m', 'price-engine-84b7c6d5e-n5o6p'];
      const world: ApiWorld = {
        objects: [
          deploymentObj('price-engine', ns, [image], 2, 2),
          ...pods.map((name) =>
            pod({
              name,
              ns,
              labels: { app: 'price-engine', 'pod-template-hash': '84b7c6d5e' },
              owner: { kind: 'ReplicaSet', name: 'price-engine-84b7c6d5e' },
              boxes: [
                {
                  name: 'price-engine',
                  image,
                  resources: {
                    limits: { cpu: '1500m', memory: '1Gi' },
                    requests: { cpu: '750m', memory: '1Gi' },
                  },
                },
              ],
            }),
          ),
          hpaObj('price-engine-cpu', ns, 'price-engine', { min: 2, max: 14, cpu: 65, current: 2 }),
        ],
      };
      const { result } = await investigateAt(
        apiTools(world),
        'what cpu request/limit does price-engine run with and how far can its autoscaler scale it?',
        NOW,
        ns,
      );
      const answer = answerOf(result);
      expect(answer).toContain('price-engine: cpu limit per container price-engine 1500m');
      expect(answer).toContain('request 750m');
      expect(answer).toContain(
        'Its HorizontalPodAutoscaler price-engine-cpu scales it between 2 and maxReplicas 14.',
      );
    });
  });
});
