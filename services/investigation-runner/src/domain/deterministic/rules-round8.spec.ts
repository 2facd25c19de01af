/**
 * The engine rules of 44e10ab, one test per rule, each on a small world of outputs shaped like
 * real ones (Kubernetes API objects, `kubectl logs` lines of Rust, Node, Spring, PostgreSQL,
 * PgBouncer clients, ingress-nginx and external-dns): a Rust panic (1.73+ format), a V8 heap cap
 * that is no OOMKill, PgBouncer's client limit and the pooler the client points at, the session
 * that holds a lock, a required pod affinity that no pod satisfies, an Ingress TLS Secret left in
 * another namespace, external-dns refused when a public name does not resolve, the sidecar that
 * takes Spring's port, an ExternalName Service, an old error that the running container still
 * ends in (and one that successes follow), and two questions.
 */
import {
  NOW,
  ago,
  apiTools,
  investigateAt,
  metaOf,
  stamped,
  str,
  table,
  warningEvent,
  type ApiWorld,
  type FakeTool,
} from './spec-world';

// ------------------------------------------------------------------------------------------------
// API objects

type Obj = Record<string, unknown>;

interface Box {
  name: string;
  image: string;
  ports?: number[];
  env?: Record<string, string>;
  args?: string[];
  limits?: Record<string, string>;
  requests?: Record<string, string>;
  /** the container's status: running and ready unless said otherwise */
  ready?: boolean;
  restarts?: number;
  state?: Obj;
  lastState?: Obj;
}

interface PodArgs {
  name: string;
  ns: string;
  app: string;
  containers: Box[];
  node?: string;
  phase?: string;
  labels?: Record<string, string>;
  owner?: { kind: string; name: string };
  spec?: Obj;
}

function podOf(p: PodArgs): Obj {
  const hash = p.name.split('-').slice(-2, -1)[0] ?? '';
  const owner = p.owner ?? { kind: 'ReplicaSet', name: `${p.app}-${hash}` };
  const phase = p.phase ?? 'Running';
  const running = phase === 'Running';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.ns,
      labels: p.labels ?? { app: p.app, 'pod-template-hash': hash },
      creationTimestamp: ago(60 * 24),
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, controller: true },
      ],
    },
    spec: {
      ...(p.node ? { nodeName: p.node } : {}),
      containers: p.containers.map((c) => ({
        name: c.name,
        image: c.image,
        ...(c.args ? { args: c.args } : {}),
        ...(c.ports ? { ports: c.ports.map((n) => ({ containerPort: n, protocol: 'TCP' })) } : {}),
        ...(c.env ? { env: Object.entries(c.env).map(([name, value]) => ({ name, value })) } : {}),
        resources: {
          ...(c.limits ? { limits: c.limits } : {}),
          ...(c.requests ? { requests: c.requests } : {}),
        },
      })),
      serviceAccountName: 'default',
      restartPolicy: 'Always',
      ...p.spec,
    },
    status: {
      phase,
      conditions: [
        {
          type: 'Ready',
          status: running && p.containers.every((c) => c.ready ?? true) ? 'True' : 'False',
        },
      ],
      containerStatuses: running
        ? p.containers.map((c) => ({
            name: c.name,
            image: c.image,
            ready: c.ready ?? true,
            restartCount: c.restarts ?? 0,
            state: c.state ?? { running: { startedAt: ago(60 * 24) } },
            lastState: c.lastState ?? {},
          }))
        : [],
    },
  };
}

function deploymentOf(name: string, ns: string, image: string, replicas: number, ready: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels: { app: name }, creationTimestamp: ago(60 * 24 * 40) },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image }] } },
    },
    status: {
      replicas,
      readyReplicas: ready,
      availableReplicas: ready,
      updatedReplicas: replicas,
      conditions: [
        {
          type: 'Available',
          status: ready < replicas ? 'False' : 'True',
          reason: ready < replicas ? 'MinimumReplicasUnavailable' : 'MinimumReplicasAvailable',
        },
      ],
    },
  };
}

function serviceOf(name: string, ns: string, spec: Obj): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 120) },
    spec,
  };
}

/** a container that exits again and again: waiting in CrashLoopBackOff, last exit `code` */
const crashing = (exitCode: number): Partial<Box> => ({
  ready: false,
  restarts: 9,
  state: {
    waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' },
  },
  lastState: {
    terminated: { exitCode, reason: 'Error', startedAt: ago(2.2), finishedAt: ago(2) },
  },
});

/**
 * A search tool over every namespace (kind and a name fragment), as some servers offer: the way
 * an object of another namespace than the one asked about reaches the engine.
 */
const search = (w: ApiWorld): FakeTool => ({
  name: 'resources_search',
  description: 'Search Kubernetes resources of a kind in all namespaces by a name fragment',
  properties: { kind: str, keyword: str },
  required: ['kind', 'keyword'],
  handler: (p) => ({
    apiVersion: 'v1',
    kind: 'List',
    items: w.objects.filter(
      (o) =>
        String(o['kind']).toLowerCase() === String(p['kind']).toLowerCase() &&
        String(metaOf(o)['name']).includes(String(p['keyword'])),
    ),
  }),
});

// ------------------------------------------------------------------------------------------------

describe('rules of 44e10ab', () => {
  it('Rust: "thread \'main\' panicked at src/x.rs:L:C:" is an application crash', async () => {
    const name = 'tile-renderer-6f8d7c9b5-w7k2m';
    const world: ApiWorld = {
      objects: [
        deploymentOf(
          'tile-renderer',
          'maps',
          'registry.example.com/maps/tile-renderer:0.7.2',
          1,
          0,
        ),
        podOf({
          name,
          ns: 'maps',
          app: 'tile-renderer',
          node: 'worker-3',
          containers: [
            {
              name: 'tile-renderer',
              image: 'registry.example.com/maps/tile-renderer:0.7.2',
              ...crashing(101),
            },
          ],
        }),
      ],
      events: [
        warningEvent(
          'maps',
          { kind: 'Pod', name },
          'BackOff',
          'Back-off restarting failed container tile-renderer in pod tile-renderer-6f8d7c9b5-w7k2m_maps(0c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f)',
          40,
          1,
          160,
        ),
      ],
      logs: { [name]: '' },
      previous: {
        // as `kubectl logs --previous` returns it (no --timestamps): tracing's own times, and the
        // panic (Rust 1.73+) with its message on the line after the location
        [name]: [
          '2026-03-10T11:57:48.301220Z  INFO tile_renderer: starting tile-renderer 0.7.2',
          '2026-03-10T11:57:48.302871Z  INFO tile_renderer::style: loading style sheet from /etc/tiles/style.toml',
          "thread 'main' panicked at src/style.rs:214:17:",
          'called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }',
          'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'tile-renderer keeps crashing after the 0.7.2 release',
      NOW,
      'maps',
    );
    expect(text).toMatch(/tile-renderer crashes: the application fails with/);
    expect(text).toContain("thread 'main' panicked at src/style.rs:214:17:");
    // the panic's message on the next line is not pinned: log lines reach the catalog one at a
    // time, so the entry's "\n<message>" part never sees it (the location line is what is quoted)
  });

  it('V8 heap cap (--max-old-space-size in NODE_OPTIONS) reached: not called OOMKilled', async () => {
    const name = 'report-render-7b9c6d5f4-p3x8z';
    const world: ApiWorld = {
      objects: [
        deploymentOf(
          'report-render',
          'analytics',
          'registry.example.com/analytics/report-render:3.4.0',
          1,
          0,
        ),
        podOf({
          name,
          ns: 'analytics',
          app: 'report-render',
          node: 'worker-1',
          containers: [
            {
              name: 'report-render',
              image: 'registry.example.com/analytics/report-render:3.4.0',
              ports: [3000],
              env: { NODE_ENV: 'production', NODE_OPTIONS: '--max-old-space-size=384' },
              limits: { cpu: '1', memory: '1536Mi' },
              requests: { cpu: '250m', memory: '1Gi' },
              ...crashing(134),
            },
          ],
        }),
      ],
      logs: { [name]: '' },
      previous: {
        [name]: stamped([
          [9, '{"level":30,"time":1773143460000,"msg":"report-render listening on :3000"}'],
          [
            3,
            '{"level":30,"time":1773143820000,"msg":"rendering quarterly report","rows":1840221}',
          ],
          [2.1, ''],
          [2.1, '<--- Last few GCs --->'],
          [
            2.1,
            '[1:0x6a4c2e0]    412011 ms: Mark-Compact 381.9 (392.4) -> 380.7 (392.9) MB, 911.40 / 0.00 ms  (average mu = 0.121, current mu = 0.018) allocation failure; scavenge might not succeed',
          ],
          [2.1, '<--- JS stacktrace --->'],
          [
            2.1,
            'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
          ],
          [2.1, ' 1: 0xb9c1f0 node::Abort() [node]'],
          [2.1, ' 2: 0xaa27ee  [node]'],
        ]),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'report-render restarts every time someone exports the quarterly report',
      NOW,
      'analytics',
    );
    expect(text).toMatch(/runs out of its runtime heap/);
    expect(text).toContain('--max-old-space-size=384 in NODE_OPTIONS');
    expect(text).toContain('of 1536Mi');
    expect(text).not.toMatch(/OOMKilled/);
  });

  it("PgBouncer's max_client_conn names the pooler host the client's DATABASE_URL points at", async () => {
    const pods = ['settlement-api-5c8d9f7b6-h2j4k', 'settlement-api-5c8d9f7b6-t6y8u'];
    const refused = (min: number, id: number) =>
      [
        min,
        `{"level":"error","ts":"${ago(min)}","logger":"db","msg":"acquire connection","request_id":"r-${id}","error":"failed to connect to \`host=pgbouncer.payments-db.svc.cluster.local user=settlement database=settlement\`: server error (FATAL: no more connections allowed (max_client_conn) (SQLSTATE 08P01))"}`,
      ] as [number, string];
    const world: ApiWorld = {
      objects: [
        deploymentOf(
          'settlement-api',
          'payments',
          'registry.example.com/payments/settlement-api:2.9.1',
          2,
          2,
        ),
        ...pods.map((name) =>
          podOf({
            name,
            ns: 'payments',
            app: 'settlement-api',
            node: 'worker-2',
            containers: [
              {
                name: 'settlement-api',
                image: 'registry.example.com/payments/settlement-api:2.9.1',
                ports: [8080],
                env: {
                  DATABASE_URL:
                    'postgres://settlement@pgbouncer.payments-db.svc.cluster.local:6432/settlement?sslmode=disable',
                  DB_POOL_MAX: '40',
                },
              },
            ],
          }),
        ),
      ],
      logs: Object.fromEntries(
        pods.map((name, i) => [
          name,
          stamped([
            [12, '{"level":"info","msg":"GET /v1/settlements/batch-7781 200 41ms"}'],
            refused(6, 100 + i),
            refused(4, 200 + i),
            refused(1, 300 + i),
          ]),
        ]),
      ),
    };
    const { text } = await investigateAt(
      apiTools(world),
      'settlement-api returns 500 on half the requests since noon',
      NOW,
      'payments',
    );
    expect(text).toMatch(/the connection pooler PgBouncer/);
    expect(text).toContain('pgbouncer.payments-db.svc.cluster.local:6432 from DATABASE_URL');
    expect(text).toMatch(/max_client_conn/);
  });

  it("a lock timeout names the lock holder from PostgreSQL's log: pid, application, user, running pod", async () => {
    const job = 'stock-schema-migrate-29541200';
    const jobPod = `${job}-q9r7t`;
    const holder = 'stock-report-6d5c4b3a2-m8n9b';
    const world: ApiWorld = {
      objects: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: { name: job, namespace: 'warehouse', creationTimestamp: ago(25) },
          spec: { backoffLimit: 0, completions: 1, parallelism: 1 },
          status: {
            startTime: ago(25),
            failed: 1,
            conditions: [
              {
                type: 'Failed',
                status: 'True',
                reason: 'BackoffLimitExceeded',
                message: 'Job has reached the specified backoff limit',
                lastTransitionTime: ago(20),
              },
            ],
          },
        },
        podOf({
          name: jobPod,
          ns: 'warehouse',
          app: 'stock-schema-migrate',
          labels: { 'job-name': job, 'batch.kubernetes.io/job-name': job },
          owner: { kind: 'Job', name: job },
          phase: 'Failed',
          node: 'worker-1',
          containers: [
            { name: 'migrate', image: 'registry.example.com/warehouse/stock-migrations:5.2.0' },
          ],
          spec: { restartPolicy: 'Never' },
        }),
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: {
            name: 'postgres',
            namespace: 'warehouse',
            creationTimestamp: ago(60 * 24 * 300),
          },
          spec: {
            replicas: 1,
            serviceName: 'postgres',
            selector: { matchLabels: { app: 'postgres' } },
          },
          status: { replicas: 1, readyReplicas: 1, currentReplicas: 1 },
        },
        podOf({
          name: 'postgres-0',
          ns: 'warehouse',
          app: 'postgres',
          labels: { app: 'postgres', 'statefulset.kubernetes.io/pod-name': 'postgres-0' },
          owner: { kind: 'StatefulSet', name: 'postgres' },
          node: 'worker-4',
          containers: [{ name: 'postgres', image: 'postgres:16.4', ports: [5432] }],
        }),
        deploymentOf(
          'stock-report',
          'warehouse',
          'registry.example.com/warehouse/stock-report:1.3.0',
          1,
          1,
        ),
        podOf({
          name: holder,
          ns: 'warehouse',
          app: 'stock-report',
          node: 'worker-2',
          containers: [
            { name: 'stock-report', image: 'registry.example.com/warehouse/stock-report:1.3.0' },
          ],
        }),
      ],
      events: [
        warningEvent(
          'warehouse',
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
        [jobPod]: stamped([
          [25, 'INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.'],
          [
            25,
            'INFO  [alembic.runtime.migration] Running upgrade 7c1e2f3a4b5d -> 9d8e7f6a5b4c, add reserved_qty to stock_items',
          ],
          [
            21,
            'sqlalchemy.exc.OperationalError: (psycopg2.errors.LockNotAvailable) canceling statement due to lock timeout',
          ],
          [21, '[SQL: ALTER TABLE stock_items ADD COLUMN reserved_qty INTEGER DEFAULT 0 NOT NULL]'],
        ]),
        'postgres-0': stamped([
          [
            170,
            '2026-03-10 09:10:02.114 UTC [5519] LOG:  connection authorized: user=report_reader database=warehouse application_name=stock-report',
          ],
          [
            25,
            '2026-03-10 11:35:01.522 UTC [6120] LOG:  connection authorized: user=migrator database=warehouse application_name=alembic',
          ],
          [
            24,
            '2026-03-10 11:36:02.530 UTC [6120] LOG:  process 6120 still waiting for AccessExclusiveLock on relation 16431 of database 16384 after 1000.117 ms',
          ],
          [
            24,
            '2026-03-10 11:36:02.530 UTC [6120] DETAIL:  Process holding the lock: 5519. Wait queue: 6120.',
          ],
          [
            24,
            '2026-03-10 11:36:02.530 UTC [6120] STATEMENT:  ALTER TABLE stock_items ADD COLUMN reserved_qty INTEGER DEFAULT 0 NOT NULL',
          ],
          [
            21,
            '2026-03-10 11:39:01.531 UTC [6120] ERROR:  canceling statement due to lock timeout',
          ],
        ]),
        [holder]: stamped([
          [30, '2026-03-10 11:30:00,004 INFO building stock valuation for 412 sites'],
        ]),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'the stock-schema-migrate job failed during the deploy',
      NOW,
      'warehouse',
    );
    expect(text).toMatch(/gave up waiting for a table lock/);
    expect(text).toContain(
      `the lock is held by database process 5519 (application stock-report, user report_reader, connected at 09:10:02), still running as pod ${holder}`,
    );
  });

  it('a required podAffinity whose labels no pod carries: sched_pod_affinity, naming the labels', async () => {
    const name = 'geo-lookup-84c7d6e5f-z5x6c';
    const affinity = {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            labelSelector: { matchLabels: { app: 'memcached-geo' } },
            topologyKey: 'kubernetes.io/hostname',
          },
        ],
      },
    };
    const world: ApiWorld = {
      objects: [
        deploymentOf(
          'geo-lookup',
          'routing',
          'registry.example.com/routing/geo-lookup:1.12.0',
          1,
          0,
        ),
        podOf({
          name,
          ns: 'routing',
          app: 'geo-lookup',
          phase: 'Pending',
          containers: [
            { name: 'geo-lookup', image: 'registry.example.com/routing/geo-lookup:1.12.0' },
          ],
          spec: { affinity },
        }),
        podOf({
          name: 'geo-memcached-0',
          ns: 'routing',
          app: 'geo-memcached',
          labels: { app: 'geo-memcached', 'app.kubernetes.io/name': 'memcached' },
          owner: { kind: 'StatefulSet', name: 'geo-memcached' },
          node: 'worker-2',
          containers: [{ name: 'memcached', image: 'memcached:1.6.29', ports: [11211] }],
        }),
      ],
      events: [
        warningEvent(
          'routing',
          { kind: 'Pod', name },
          'FailedScheduling',
          "0/4 nodes are available: 4 node(s) didn't match pod affinity rules. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
          35,
          1,
          14,
          'default-scheduler',
        ),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'geo-lookup pod has been Pending for half an hour',
      NOW,
      'routing',
    );
    expect(text).toMatch(/stays Pending: its required pod affinity/);
    expect(text).toContain(
      'selects labels app=memcached-geo, and no pod in namespace routing has them',
    );
    expect(text).not.toMatch(/no node matches its node selector/);
  });

  it('ingress-nginx "local SSL certificate ns/name was not found", the Secret being in another namespace', async () => {
    const controller = 'ingress-nginx-controller-5f7b9c8d6-k4l2p';
    const notFound = (min: number) =>
      [
        min,
        `W0310 ${ago(min).slice(11, 19)}.412993       7 controller.go:1398] Error getting SSL certificate "handbook/handbook-tls": local SSL certificate handbook/handbook-tls was not found. Using default certificate`,
      ] as [number, string];
    const world: ApiWorld = {
      objects: [
        podOf({
          name: controller,
          ns: 'ingress-nginx',
          app: 'ingress-nginx',
          labels: {
            'app.kubernetes.io/name': 'ingress-nginx',
            'app.kubernetes.io/component': 'controller',
          },
          node: 'worker-1',
          containers: [
            {
              name: 'controller',
              image: 'registry.k8s.io/ingress-nginx/controller:v1.11.3',
              ports: [80, 443],
            },
          ],
        }),
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: { name: 'handbook', namespace: 'handbook', creationTimestamp: ago(90) },
          spec: {
            ingressClassName: 'nginx',
            tls: [{ hosts: ['handbook.hollowpine.example'], secretName: 'handbook-tls' }],
            rules: [
              {
                host: 'handbook.hollowpine.example',
                http: {
                  paths: [
                    {
                      path: '/',
                      pathType: 'Prefix',
                      backend: { service: { name: 'handbook', port: { number: 80 } } },
                    },
                  ],
                },
              },
            ],
          },
        },
        {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'kubernetes.io/tls',
          metadata: {
            name: 'handbook-tls',
            namespace: 'intranet',
            creationTimestamp: ago(60 * 24 * 200),
          },
          data: { 'tls.crt': 'LS0tLS1CRUdJTi...', 'tls.key': 'LS0tLS1CRUdJTi...' },
        },
      ],
      logs: {
        [controller]: stamped([
          [
            88,
            'I0310 10:32:11.004127       7 store.go:440] "Found valid IngressClass" ingress="handbook/handbook" ingressclass="nginx"',
          ],
          notFound(88),
          [88, 'I0310 10:32:11.091838       7 controller.go:210] "Backend successfully reloaded"'],
          notFound(30),
          notFound(2),
        ]),
      },
    };
    const { text } = await investigateAt(
      [...apiTools(world), search(world)],
      'since we moved the handbook, secret handbook-tls is ignored: browsers say handbook.hollowpine.example is not private ("Kubernetes Ingress Controller Fake Certificate")',
      NOW,
    );
    expect(text).toMatch(
      /the TLS Secret handbook\/handbook-tls that an Ingress names does not exist/i,
    );
    expect(text).toContain('A Secret handbook-tls exists in namespace intranet, not in handbook');
  });

  it('a public name that does not resolve: external-dns is read, and its forbidden list is the cause', async () => {
    const writer = 'external-dns-7d8c9b5f6-r2t4y';
    const forbidden = (min: number) =>
      [
        min,
        `time="${ago(min).slice(0, 19)}Z" level=error msg="Failed to watch *v1.Ingress: failed to list *v1.Ingress: ingresses.networking.k8s.io is forbidden: User \\"system:serviceaccount:dns-system:external-dns\\" cannot list resource \\"ingresses\\" in API group \\"networking.k8s.io\\" at the cluster scope"`,
      ] as [number, string];
    const world: ApiWorld = {
      objects: [
        podOf({
          name: writer,
          ns: 'kube-system',
          app: 'external-dns',
          node: 'worker-1',
          containers: [
            {
              name: 'external-dns',
              image: 'registry.k8s.io/external-dns/external-dns:v0.15.0',
              args: ['--source=ingress', '--provider=aws', '--domain-filter=hollowpine.example'],
            },
          ],
        }),
      ],
      logs: {
        [writer]: stamped([
          [
            240,
            `time="${ago(240).slice(0, 19)}Z" level=info msg="Instantiating new Kubernetes client"`,
          ],
          forbidden(200),
          forbidden(90),
          forbidden(3),
        ]),
      },
    };
    const { text, gateway } = await investigateAt(
      apiTools(world),
      'status.hollowpine.example does not resolve since the new ingress went out this morning',
      NOW,
    );
    expect(
      gateway.calls.some((c) => c.tool === 'k8s:pods_log' && c.params['name'] === writer),
    ).toBe(true);
    expect(text).toMatch(/external-dns/);
    expect(text).toMatch(/is forbidden/);
  });

  it('Spring "Port 8080 was already in use" names the other container of the pod that listens on 8080', async () => {
    const name = 'invoice-service-6c5b4a3d2-f7g8h';
    const world: ApiWorld = {
      objects: [
        deploymentOf(
          'invoice-service',
          'billing',
          'registry.example.com/billing/invoice-service:4.1.0',
          1,
          0,
        ),
        podOf({
          name,
          ns: 'billing',
          app: 'invoice-service',
          node: 'worker-2',
          containers: [
            {
              name: 'invoice-service',
              image: 'registry.example.com/billing/invoice-service:4.1.0',
              ports: [8080],
              ...crashing(1),
            },
            {
              name: 'auth-proxy',
              image: 'quay.io/oauth2-proxy/oauth2-proxy:v7.6.0',
              ports: [8080],
              args: ['--http-address=0.0.0.0:8080', '--upstream=http://127.0.0.1:8081'],
            },
          ],
        }),
      ],
      logs: { [name]: '' },
      previous: {
        // the default (first) container's logs: invoice-service
        [name]: stamped([
          [
            2.2,
            '2026-03-10T11:57:49.118Z  INFO 1 --- [invoice-service] [           main] c.a.billing.InvoiceServiceApplication    : Starting InvoiceServiceApplication v4.1.0 using Java 21.0.4 with PID 1',
          ],
          [
            2.1,
            '2026-03-10T11:57:53.660Z ERROR 1 --- [invoice-service] [           main] o.s.b.d.LoggingFailureAnalysisReporter   : ',
          ],
          [2.1, ''],
          [2.1, '***************************'],
          [2.1, 'APPLICATION FAILED TO START'],
          [2.1, '***************************'],
          [2.1, ''],
          [2.1, 'Description:'],
          [2.1, ''],
          [2.1, 'Web server failed to start. Port 8080 was already in use.'],
          [2.1, ''],
          [2.1, 'Action:'],
          [2.1, ''],
          [
            2.1,
            "Identify and stop the process that's listening on port 8080 or configure this application to listen on another port.",
          ],
        ]),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'invoice-service crashloops since we added the auth proxy',
      NOW,
      'billing',
    );
    expect(text).toMatch(/cannot listen on 8080/);
    expect(text).toContain(
      'container auth-proxy (quay.io/oauth2-proxy/oauth2-proxy:v7.6.0) of the same pod listens on 8080',
    );
  });

  it('an ExternalName Service whose target does not resolve is explained as a CNAME alias', async () => {
    const pods = ['ledger-close-7f6e5d4c3-a1s2d'];
    const lookup = (min: number) =>
      [
        min,
        `level=error msg="fetch rates failed" error="Get \\"http://currency-feed.treasury.svc.cluster.local/v2/rates?base=EUR\\": dial tcp: lookup currency-feed.treasury.svc.cluster.local on 172.20.0.10:53: no such host"`,
      ] as [number, string];
    const world: ApiWorld = {
      objects: [
        deploymentOf(
          'ledger-close',
          'treasury',
          'registry.example.com/treasury/ledger-close:6.0.3',
          1,
          1,
        ),
        podOf({
          name: pods[0]!,
          ns: 'treasury',
          app: 'ledger-close',
          node: 'worker-3',
          containers: [
            { name: 'ledger-close', image: 'registry.example.com/treasury/ledger-close:6.0.3' },
          ],
        }),
        serviceOf('currency-feed', 'treasury', {
          type: 'ExternalName',
          externalName: 'rates.fx-vendor-legacy.example.net',
        }),
      ],
      logs: {
        [pods[0]!]: stamped([
          [15, 'level=info msg="closing period 2026-02"'],
          lookup(8),
          lookup(4),
          lookup(1),
        ]),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'ledger-close cannot fetch exchange rates',
      NOW,
      'treasury',
    );
    expect(text).toContain(
      'is the Service currency-feed (namespace treasury) of type ExternalName, an alias (CNAME) for rates.fx-vendor-legacy.example.net',
    );
  });

  describe('an old error that the running container still ends in', () => {
    const name = 'vendor-sync-5d4c3b2a1-j6k7l';
    const expired = (min: number) =>
      [
        min,
        `time="${ago(min).slice(0, 19)}Z" level=error msg="sync failed" vendor=northwind error="Post \\"https://api.northwind-supply.example/v3/orders\\": tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time ${ago(min).slice(0, 19)}Z is after 2026-03-10T08:00:00Z"`,
      ] as [number, string];
    const world = (lines: [number, string][]): ApiWorld => ({
      objects: [
        deploymentOf(
          'vendor-sync',
          'procurement',
          'registry.example.com/procurement/vendor-sync:2.2.0',
          1,
          1,
        ),
        podOf({
          name,
          ns: 'procurement',
          app: 'vendor-sync',
          node: 'worker-1',
          containers: [
            { name: 'vendor-sync', image: 'registry.example.com/procurement/vendor-sync:2.2.0' },
          ],
        }),
      ],
      logs: { [name]: stamped(lines) },
    });
    const ask = (w: ApiWorld) =>
      investigateAt(apiTools(w), 'are the northwind orders still syncing?', NOW, 'procurement');

    it('is no history when every call since failed (the log ends in it)', async () => {
      const { text, result } = await ask(
        world([
          [
            250,
            `time="${ago(250).slice(0, 19)}Z" level=info msg="sync done" vendor=northwind orders=112`,
          ],
          expired(205),
          expired(160),
          expired(115),
          expired(70),
        ]),
      );
      expect(result.summary).not.toMatch(/No problem found/);
      expect(text).toMatch(/certificate has expired/);
    });

    it('is history when successful records follow it', async () => {
      const { text, result } = await ask(
        world([
          expired(250),
          expired(205),
          [
            160,
            `time="${ago(160).slice(0, 19)}Z" level=info msg="sync done" vendor=northwind orders=98`,
          ],
          [
            115,
            `time="${ago(115).slice(0, 19)}Z" level=info msg="sync done" vendor=northwind orders=87`,
          ],
          [
            70,
            `time="${ago(70).slice(0, 19)}Z" level=info msg="sync done" vendor=northwind orders=121`,
          ],
        ]),
      );
      expect(result.summary).toMatch(/No problem found/);
      expect(text).not.toMatch(/certificate has expired/);
    });
  });

  describe('two questions', () => {
    it('"what\'s the memory limit on X and which pod is closest to it": limits and kubectl top', async () => {
      const pods = [
        'image-resizer-6b5a4c3d2-b1n2m',
        'image-resizer-6b5a4c3d2-c3v4x',
        'image-resizer-6b5a4c3d2-d5f6g',
      ];
      const top: FakeTool = {
        name: 'pods_top',
        description: 'List the resource consumption (CPU and memory) of pods, as kubectl top pod',
        properties: { namespace: str, all_namespaces: { type: 'boolean' } },
        handler: () =>
          table(
            ['NAME', 'CPU(cores)', 'MEMORY(bytes)'],
            [
              [pods[0]!, '212m', '402Mi'],
              [pods[1]!, '388m', '871Mi'],
              [pods[2]!, '95m', '233Mi'],
            ],
          ),
      };
      const world: ApiWorld = {
        objects: [
          deploymentOf(
            'image-resizer',
            'media-proc',
            'registry.example.com/media/image-resizer:8.0.1',
            3,
            3,
          ),
          ...pods.map((name) =>
            podOf({
              name,
              ns: 'media-proc',
              app: 'image-resizer',
              node: 'worker-2',
              containers: [
                {
                  name: 'image-resizer',
                  image: 'registry.example.com/media/image-resizer:8.0.1',
                  limits: { cpu: '1', memory: '1Gi' },
                  requests: { cpu: '200m', memory: '512Mi' },
                },
              ],
            }),
          ),
        ],
      };
      const { result } = await investigateAt(
        [...apiTools(world), top],
        "what's the memory limit on image-resizer and which pod is closest to it?",
        NOW,
        'media-proc',
      );
      const answer = [result.summary, result.root_cause.description].join('\n');
      expect(answer).toContain(
        'image-resizer: memory limit per container image-resizer 1Gi (request 512Mi)',
      );
      expect(answer).toContain(`${pods[1]} 871Mi (85% of 1Gi)`);
      expect(answer).toContain(`Closest to the limit: ${pods[1]}.`);
    });

    it('"which services in crm have no endpoints": the Endpoints listing, and why', async () => {
      const endpoints = (name: string, ips: string[]): Obj => ({
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name, namespace: 'crm' },
        subsets: ips.length
          ? [{ addresses: ips.map((ip) => ({ ip })), ports: [{ port: 8080, protocol: 'TCP' }] }]
          : [],
      });
      const world: ApiWorld = {
        objects: [
          serviceOf('contacts-api', 'crm', {
            type: 'ClusterIP',
            clusterIP: '172.20.31.4',
            selector: { app: 'contacts-api' },
            ports: [{ port: 80, targetPort: 8080 }],
          }),
          serviceOf('lead-scoring', 'crm', {
            type: 'ClusterIP',
            clusterIP: '172.20.31.9',
            selector: { app: 'lead-scoring' },
            ports: [{ port: 80, targetPort: 8080 }],
          }),
          serviceOf('mailer', 'crm', {
            type: 'ClusterIP',
            clusterIP: '172.20.31.12',
            selector: { app: 'mailer-v2' },
            ports: [{ port: 80, targetPort: 8080 }],
          }),
          serviceOf('crm-legacy', 'crm', {
            type: 'ExternalName',
            externalName: 'crm.legacy-dc.example.net',
          }),
          endpoints('contacts-api', ['10.244.1.17', '10.244.2.9']),
          endpoints('lead-scoring', []),
          endpoints('mailer', []),
          // scaled to zero
          deploymentOf('lead-scoring', 'crm', 'registry.example.com/crm/lead-scoring:1.4.0', 0, 0),
          deploymentOf('contacts-api', 'crm', 'registry.example.com/crm/contacts-api:3.3.3', 2, 2),
        ],
      };
      const { result } = await investigateAt(
        apiTools(world),
        'which services in crm have no endpoints?',
        NOW,
      );
      const answer = [result.summary, result.root_cause.description].join('\n');
      expect(answer).toContain('2 Services in namespace crm have no endpoints (of 3 checked)');
      expect(answer).toContain(
        'lead-scoring (selects app=lead-scoring; deployment lead-scoring is scaled to 0)',
      );
      expect(answer).toContain(
        'mailer (selects app=mailer-v2; no workload with these labels was seen)',
      );
      expect(answer).not.toContain('crm-legacy');
    });
  });
});
