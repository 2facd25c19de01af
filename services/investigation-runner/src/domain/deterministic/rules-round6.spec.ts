/**
 * The general rules of round 6 (commit bd9c953), one test per behaviour, on outputs shaped like
 * real ones (`kubectl logs --timestamps`, `kubectl describe`, `kubectl get` tables, Kubernetes API
 * objects): chained Python tracebacks, the registry's answer for a failed pull, the image a
 * rollout brought, a container that exits by itself under a failing probe, MySQL's blocked host,
 * a mesh sidecar without configuration, coredns upstream timeouts, x509 unknown authority with
 * the trust bundle, a repeated fact that keeps its last time, and four questions.
 */
import { CAUSE_CATALOG } from './cause-catalog.data';
import { compile, findFindings } from './diagnose';
import {
  type FakeGateway,
  NOW,
  ago,
  conclusion,
  describePod,
  findingsOf,
  ids,
  investigate,
  kubeEvent,
  kubeTime,
  podsTable,
  table,
  textOutputs,
  textTools,
  type TextWorld,
  apiTools,
  investigateAt,
  stamp,
  stamped,
  type ApiWorld,
} from './spec-world';

// ------------------------------------------------------------------------------------------------
// API objects and a tool server that answers per namespace (and per container for logs)

interface Ctr {
  name: string;
  image: string;
  ports?: number[];
  ready?: boolean;
  state?: Record<string, unknown>;
  lastState?: Record<string, unknown>;
  restarts?: number;
  limits?: Record<string, string>;
  livenessProbe?: Record<string, unknown>;
  volumeMounts?: Record<string, unknown>[];
}

interface PodSpec {
  name: string;
  ns: string;
  app: string;
  node?: string;
  containers: Ctr[];
  volumes?: Record<string, unknown>[];
  owner?: { kind: string; name: string };
}

function pod(p: PodSpec): Record<string, unknown> {
  const hash = p.name.split('-').slice(-2, -1)[0] ?? '';
  const owner = p.owner ?? { kind: 'ReplicaSet', name: `${p.app}-${hash}` };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.ns,
      labels: { app: p.app, ...(p.owner ? {} : { 'pod-template-hash': hash }) },
      creationTimestamp: ago(60),
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, controller: true },
      ],
    },
    spec: {
      ...(p.node ? { nodeName: p.node } : {}),
      containers: p.containers.map((c) => ({
        name: c.name,
        image: c.image,
        ...(c.ports ? { ports: c.ports.map((n) => ({ containerPort: n, protocol: 'TCP' })) } : {}),
        ...(c.livenessProbe ? { livenessProbe: c.livenessProbe } : {}),
        ...(c.volumeMounts ? { volumeMounts: c.volumeMounts } : {}),
        resources: c.limits ? { limits: c.limits } : {},
      })),
      volumes: p.volumes ?? [],
      serviceAccountName: 'default',
    },
    status: {
      phase: 'Running',
      conditions: [],
      containerStatuses: p.containers.map((c) => ({
        name: c.name,
        image: c.image,
        ready: c.ready ?? true,
        restartCount: c.restarts ?? 0,
        state: c.state ?? { running: { startedAt: ago(120) } },
        lastState: c.lastState ?? {},
      })),
    },
  };
}

function deployment(name: string, ns: string, image: string, replicas: number, ready: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: ns,
      labels: { app: name },
      creationTimestamp: ago(60 * 24 * 30),
      annotations: { 'deployment.kubernetes.io/revision': '7' },
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { spec: { containers: [{ name, image }] } },
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

const crashLoop = (exitCode: number, reason = 'Error') => ({
  ready: false,
  restarts: 6,
  state: {
    waiting: { reason: 'CrashLoopBackOff', message: 'back-off 2m40s restarting failed container' },
  },
  lastState: {
    terminated: { exitCode, reason, startedAt: ago(1.2), finishedAt: ago(1) },
  },
});

/** the logs calls the engine made, as [pod, container] */
const logCalls = (g: FakeGateway) =>
  g.calls
    .filter((c) => c.tool === 'k8s:pods_log')
    .map((c) => [String(c.params['name']), String(c.params['container'] ?? '')]);

// ------------------------------------------------------------------------------------------------

describe('1. a chained Python traceback under kubectl timestamps', () => {
  const name = 'bq-exporter-7f6d5c4b3-q8w2e';
  const traceback: [number, string][] = [
    [1.3, 'INFO:exporter:starting bq-exporter 1.4.2'],
    [1.2, 'Traceback (most recent call last):'],
    [
      1.2,
      '  File "/usr/local/lib/python3.11/site-packages/google/auth/_default.py", line 131, in load_credentials_from_file',
    ],
    [1.2, '    info = json.load(file_obj)'],
    [1.2, '           ^^^^^^^^^^^^^^^^^^^'],
    [1.2, '  File "/usr/local/lib/python3.11/json/__init__.py", line 293, in load'],
    [1.2, '    return loads(fp.read(),'],
    [1.2, '  File "/usr/local/lib/python3.11/json/decoder.py", line 355, in raw_decode'],
    [1.2, '    raise JSONDecodeError("Expecting value", s, err.value) from None'],
    [1.2, 'json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)'],
    [1.2, ''],
    [1.2, 'The above exception was the direct cause of the following exception:'],
    [1.2, ''],
    [1.2, 'Traceback (most recent call last):'],
    [1.2, '  File "/app/exporter/main.py", line 42, in <module>'],
    [1.2, '    client = bigquery.Client(project=PROJECT_ID)'],
    [
      1.2,
      '  File "/usr/local/lib/python3.11/site-packages/google/cloud/bigquery/client.py", line 238, in __init__',
    ],
    [1.2, '    super(Client, self).__init__('],
    [
      1.2,
      '  File "/usr/local/lib/python3.11/site-packages/google/auth/_default.py", line 137, in load_credentials_from_file',
    ],
    [1.2, '    raise new_exc from caught_exc'],
    [
      1.2,
      'google.auth.exceptions.DefaultCredentialsError: File /var/secrets/google/key.json is not a valid json file.',
    ],
  ];
  const world: ApiWorld = {
    objects: [
      deployment('bq-exporter', 'analytics', 'gcr.io/acme/bq-exporter:1.4.2', 1, 0),
      pod({
        name,
        ns: 'analytics',
        app: 'bq-exporter',
        node: 'worker-1',
        containers: [
          { name: 'bq-exporter', image: 'gcr.io/acme/bq-exporter:1.4.2', ...crashLoop(1) },
        ],
      }),
    ],
    logs: { [name]: '' },
    previous: { [name]: stamped(traceback) },
  };

  it('quotes the error raised last and the error that caused it', async () => {
    const { findings } = findingsOf([
      { output: world.objects[1], ctx: { namespace: 'analytics' } },
      {
        output: world.previous![name],
        ctx: { pod: name, namespace: 'analytics', verb: 'logs', previous: true },
      },
    ]);
    const crash = findings.find((f) => f.entry.id === 'panic');
    expect(crash?.fact).toMatch(
      /^google\.auth\.exceptions\.DefaultCredentialsError: File \/var\/secrets\/google\/key\.json is not a valid json file\. \(caused by json\.decoder\.JSONDecodeError: Expecting value/,
    );
    // the trace's own frame, without the time kubectl put before it
    expect(crash?.fact).toContain('File "/app/exporter/main.py", line 42');
    const out = await investigate(apiTools(world), 'bq-exporter keeps crashing', {
      namespace: 'analytics',
    });
    const text = conclusion(out.result);
    expect(text).toContain(
      'google.auth.exceptions.DefaultCredentialsError: File /var/secrets/google/key.json is not a valid json file.',
    );
    expect(text).toMatch(/caused by json\.decoder\.JSONDecodeError/);
  });
});

describe('2. ImagePullBackOff: what the registry answered', () => {
  it('an HTTP registry pulled over HTTPS: "server gave HTTP response to HTTPS client"', async () => {
    const name = 'api-7c9d8b7f6-x2x4z';
    const image = '10.0.40.12:5000/shop/api:2.7.0';
    const world: ApiWorld = {
      objects: [
        deployment('api', 'shop', image, 2, 1),
        pod({
          name,
          ns: 'shop',
          app: 'api',
          node: 'worker-1',
          containers: [
            {
              name: 'api',
              image,
              ready: false,
              state: {
                waiting: {
                  reason: 'ImagePullBackOff',
                  message: `Back-off pulling image "${image}"`,
                },
              },
            },
          ],
        }),
      ],
      events: [
        kubeEvent(
          'shop',
          { kind: 'Pod', name },
          'Normal',
          'Pulling',
          `Pulling image "${image}"`,
          12,
          2,
          5,
        ),
        kubeEvent(
          'shop',
          { kind: 'Pod', name },
          'Warning',
          'Failed',
          `Failed to pull image "${image}": rpc error: code = Unknown desc = failed to pull and unpack image "${image}": failed to resolve reference "${image}": failed to do request: Head "https://10.0.40.12:5000/v2/shop/api/manifests/2.7.0": http: server gave HTTP response to HTTPS client`,
          12,
          2,
          5,
        ),
        kubeEvent(
          'shop',
          { kind: 'Pod', name },
          'Warning',
          'Failed',
          'Error: ErrImagePull',
          12,
          2,
          5,
        ),
        kubeEvent(
          'shop',
          { kind: 'Pod', name },
          'Normal',
          'BackOff',
          `Back-off pulling image "${image}"`,
          12,
          1,
          40,
        ),
      ],
    };
    const out = await investigate(apiTools(world), 'api pods are not starting', {
      namespace: 'shop',
    });
    const text = conclusion(out.result);
    expect(text).toContain(
      'The registry answered: "http: server gave HTTP response to HTTPS client"',
    );
    expect(text).toContain(image);
  });
});

describe('3. the image a rollout brought, when the ReplicaSets are listed without images', () => {
  it('is the image of the app container, not the one of an injected sidecar', async () => {
    const app = 'registry.example.com/shop/catalog:5.2.0';
    const proxy = 'cr.l5d.io/linkerd/proxy:stable-2.14.10';
    const name = 'catalog-9f8e7d6c5-a1b2c';
    const world: ApiWorld = {
      objects: [
        deployment('catalog', 'shop', app, 2, 0),
        pod({
          name,
          ns: 'shop',
          app: 'catalog',
          node: 'worker-2',
          // linkerd injects its proxy as the first container
          containers: [
            { name: 'linkerd-proxy', image: proxy, ports: [4143] },
            { name: 'catalog', image: app, ports: [8080], ...crashLoop(3) },
          ],
        }),
      ],
      // `kubectl get rs`: no image column
      tables: {
        ReplicaSet: table(
          ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
          [
            ['catalog-5b6c7d8e9', '0', '0', '0', '20d'],
            ['catalog-9f8e7d6c5', '2', '2', '0', '12m'],
          ],
        ),
      },
      events: [
        kubeEvent(
          'shop',
          { kind: 'Deployment', name: 'catalog' },
          'Normal',
          'ScalingReplicaSet',
          'Scaled up replica set catalog-9f8e7d6c5 to 2',
          12,
        ),
        kubeEvent(
          'shop',
          { kind: 'Pod', name },
          'Warning',
          'BackOff',
          `Back-off restarting failed container catalog in pod ${name}_shop(9a8b7c6d)`,
          10,
          1,
          20,
        ),
      ],
      logs: { [name]: '' },
      previous: {
        [name]: `${ago(2.1)} INFO catalog 5.2.0 starting\n${ago(2)} INFO shutting down`,
      },
    };
    const out = await investigate(apiTools(world), 'catalog is crashing', { namespace: 'shop' });
    const text = conclusion(out.result);
    expect(text).toContain(`It started after the rollout of ${app}`);
    expect(text).not.toContain(proxy);
  });
});

describe('4. a liveness probe refused while the container exits by itself', () => {
  const name = 'orders-6b7f9c8d4-k2j9x';
  const world = (previous: string): ApiWorld => ({
    objects: [
      deployment('orders', 'shop', 'registry.example.com/shop/orders:3.1.0', 2, 0),
      pod({
        name,
        ns: 'shop',
        app: 'orders',
        node: 'worker-2',
        containers: [
          {
            name: 'orders',
            image: 'registry.example.com/shop/orders:3.1.0',
            ports: [8080],
            livenessProbe: {
              httpGet: { path: '/healthz', port: 8080 },
              initialDelaySeconds: 5,
              periodSeconds: 10,
            },
            ...crashLoop(1),
          },
        ],
      }),
    ],
    events: [
      kubeEvent(
        'shop',
        { kind: 'Pod', name },
        'Warning',
        'Unhealthy',
        'Liveness probe failed: Get "http://10.244.2.31:8080/healthz": dial tcp 10.244.2.31:8080: connect: connection refused',
        20,
        1,
        18,
      ),
      kubeEvent(
        'shop',
        { kind: 'Pod', name },
        'Warning',
        'BackOff',
        `Back-off restarting failed container orders in pod ${name}_shop(0c1d2e3f)`,
        20,
        1,
        18,
      ),
    ],
    logs: { [name]: '' },
    previous: { [name]: previous },
  });

  it('MySQL blocks the host: concluded as the blocked host, not a slow start', async () => {
    const out = await investigate(
      apiTools(
        world(
          stamped([
            [1.2, '{"level":"info","msg":"orders 3.1.0 starting"}'],
            [
              1.1,
              "[mysql] 2026/03/10 11:58:54 packets.go:37: Error 1129 (HY000): Host '10.0.25.91' is blocked because of many connection errors; unblock with 'mysqladmin flush-hosts'",
            ],
            [
              1,
              "FATAL cannot open database: Error 1129 (HY000): Host '10.0.25.91' is blocked because of many connection errors; unblock with 'mysqladmin flush-hosts'",
            ],
          ]),
        ),
      ),
      'orders keeps restarting',
      { namespace: 'shop' },
    );
    const text = conclusion(out.result);
    expect(out.result.summary).toMatch(/database blocks the client host/i);
    expect(text).toMatch(/blocks the client host 10\.0\.25\.91/);
    expect(text).toMatch(/flush-hosts/);
    expect(text).not.toMatch(/slow start/);
  });

  it('a weaker error it logged before exiting (a panic) still wins over "slow start"', async () => {
    const out = await investigate(
      apiTools(
        world(
          [
            `${ago(1.1)} INFO orders 3.1.0 starting`,
            'panic: assignment to entry in nil map',
            '',
            'goroutine 1 [running]:',
            'main.loadRoutes(0xc0001a2000)',
            '\t/src/cmd/orders/routes.go:57 +0x1c5',
            'main.main()',
            '\t/src/cmd/orders/main.go:33 +0x2f8',
          ].join('\n'),
        ),
      ),
      'orders keeps restarting',
      { namespace: 'shop' },
    );
    const text = conclusion(out.result);
    expect(text).toMatch(/panic: assignment to entry in nil map/);
    expect(text).not.toMatch(/slow start/);
  });
});

describe('5. a service-mesh sidecar that is not ready', () => {
  it('its own logs are read and its missing configuration is the cause', async () => {
    const name = 'checkout-5f6d7c8b9-z7x8c';
    const world: ApiWorld = {
      objects: [
        deployment('checkout', 'shop', 'registry.example.com/shop/checkout:2.4.0', 1, 0),
        pod({
          name,
          ns: 'shop',
          app: 'checkout',
          node: 'worker-1',
          containers: [
            { name: 'checkout', image: 'registry.example.com/shop/checkout:2.4.0', ports: [8080] },
            {
              name: 'istio-proxy',
              image: 'docker.io/istio/proxyv2:1.22.3',
              ports: [15090],
              ready: false,
            },
          ],
        }),
      ],
      events: [
        kubeEvent(
          'shop',
          { kind: 'Pod', name },
          'Warning',
          'Unhealthy',
          'Readiness probe failed: Get "http://10.244.1.17:15021/healthz/ready": dial tcp 10.244.1.17:15021: connect: connection refused',
          15,
          1,
          90,
        ),
      ],
      logs: {
        [name]: stamped([
          [4, 'INFO  POST /api/checkout 201 41ms'],
          [3, 'WARN  calling payments: upstream request failed, retrying'],
        ]),
        [`${name}/istio-proxy`]: stamped([
          [15, 'info\tFLAG: --concurrency="2"'],
          [
            14,
            'warn\tca\tca request failed, starting attempt 1 in 91.381619ms: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.96.12.40:15012: connect: connection refused"',
          ],
          [
            2,
            'warn\tEnvoy proxy is NOT ready: config not received from XDS server (is Istiod running?): cds updates: 0 successful, 0 rejected; lds updates: 0 successful, 0 rejected',
          ],
        ]),
      },
    };
    const { gateway, result } = await investigate(apiTools(world), 'checkout is not ready', {
      namespace: 'shop',
    });
    expect(logCalls(gateway)).toContainEqual([name, 'istio-proxy']);
    const text = conclusion(result);
    expect(result.summary).toMatch(/service-mesh sidecar has no configuration/i);
    expect(text).toContain('Envoy proxy is NOT ready: config not received from XDS server');
    expect(text).toMatch(/istiod/);
  });
});

describe('6. lookups that time out while coredns runs', () => {
  it('the coredns logs are read: its upstream resolver does not answer', async () => {
    const app = 'billing-api-6c7d8e9f1-r5t6y';
    const dns = 'coredns-5d78c9869d-8kq2w';
    const world: ApiWorld = {
      objects: [
        deployment('billing-api', 'billing', 'registry.example.com/billing-api:1.9.0', 1, 1),
        pod({
          name: app,
          ns: 'billing',
          app: 'billing-api',
          node: 'worker-1',
          containers: [{ name: 'billing-api', image: 'registry.example.com/billing-api:1.9.0' }],
        }),
        pod({
          name: dns,
          ns: 'kube-system',
          app: 'kube-dns',
          node: 'worker-2',
          containers: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.1' }],
        }),
        pod({
          name: 'coredns-5d78c9869d-m2n4p',
          ns: 'kube-system',
          app: 'kube-dns',
          node: 'worker-3',
          containers: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.1' }],
        }),
      ],
      logs: {
        [app]: stamped(
          [9, 7, 5, 3, 1].map((m): [number, string] => [
            m,
            `level=error msg="charge failed" err="Post \\"https://api.stripe.com/v1/charges\\": dial tcp: lookup api.stripe.com on 172.20.0.10:53: read udp 10.0.21.44:4${m}218->172.20.0.10:53: i/o timeout"`,
          ]),
        ),
        [dns]: stamped([
          [300, '.:53'],
          [
            300,
            '[INFO] plugin/reload: Running configuration SHA512 = 591cf328cccc12bc490481273e738df59329c62c0b729d94e8b61db9961c2fa5f046dd37f1cf888b953814040d180f52594972691cd6ff41be96639138a43908',
          ],
          [300, 'CoreDNS-1.11.1'],
          [300, 'linux/amd64, go1.20.7, ae2bbc2'],
          [
            6,
            '[ERROR] plugin/errors: 2 api.stripe.com. A: read udp 10.0.18.171:51403->10.20.0.3:53: i/o timeout',
          ],
          [
            4,
            '[ERROR] plugin/errors: 2 api.stripe.com. AAAA: read udp 10.0.18.171:40112->10.20.0.3:53: i/o timeout',
          ],
        ]),
      },
    };
    const { gateway, result } = await investigate(
      apiTools(world),
      'billing-api cannot charge cards',
      { namespace: 'billing' },
    );
    expect(logCalls(gateway).map(([p]) => p)).toContain(dns);
    const text = conclusion(result);
    expect(text).toMatch(/upstream resolver 10\.20\.0\.3/);
    expect(text).toMatch(/`forward` line of the coredns Corefile/);
  });
});

describe('7. x509: certificate signed by unknown authority', () => {
  /** a zap JSON record, long enough that the error lies beyond the first 280 characters */
  const record = (m: number, trace: string) =>
    `${stamp(m)} {"level":"error","ts":"${ago(m)}","logger":"ledger.client","caller":"client/http.go:112","msg":"sync with ledger failed","service":"payouts-worker","trace_id":"${trace}","attempt":3,"url":"https://ledger.internal.example.com/v2/entries","error":"Post \\"https://ledger.internal.example.com/v2/entries\\": tls: failed to verify certificate: x509: certificate signed by unknown authority"}`;
  const name = 'payouts-worker-7d9f8b6c5-h4j5k';
  const trace = (i: number) => `4bf92f3577b34da6a3ce929d0e0e47${String(10 + i)}`;

  it('names the trust bundle the pod mounts (a ConfigMap, in describe text)', async () => {
    const described = describePod({
      name,
      namespace: 'payouts',
      node: 'worker-1',
      labels: ['app=payouts-worker', 'pod-template-hash=7d9f8b6c5'],
      controlledBy: 'ReplicaSet/payouts-worker-7d9f8b6c5',
      status: 'Running',
      container: {
        name: 'payouts-worker',
        image: 'registry.example.com/payouts-worker:4.0.2',
        state: ['Running', `Started:      ${kubeTime(180)}`],
        ready: true,
      },
      conditions: [
        ['Ready', 'True'],
        ['PodScheduled', 'True'],
      ],
    }).replace(
      'Volumes:\n',
      [
        'Volumes:',
        '  ca-bundle:',
        '    Type:      ConfigMap (a volume populated by a ConfigMap)',
        '    Name:      internal-ca-bundle',
        '    Optional:  false',
        '',
      ].join('\n'),
    );
    const world: TextWorld = {
      tables: { pod: podsTable([[name, '1/1', 'Running', '0', '3h', 'worker-1']]) },
      describe: { [`pod/${name}`]: described },
      logs: { [name]: [9, 6, 3].map((m, i) => record(m, trace(i))).join('\n') },
    };
    const { findings } = findingsOf(textOutputs(world, 'payouts'));
    expect(ids(findings)).toContain('tls_unknown_authority');
    const out = await investigate(textTools(world), 'payouts-worker cannot sync with the ledger', {
      namespace: 'payouts',
    });
    const text = conclusion(out.result);
    expect(out.result.summary).toMatch(/signed by a CA the client does not trust/i);
    expect(text).toContain('(ConfigMap internal-ca-bundle)');
    expect(text).toMatch(/ledger\.internal\.example\.com/);
  });

  it('the same error every few minutes from 2 h ago to 3 min ago is still going on', async () => {
    const minutes = [120, 100, 80, 60, 45, 30, 20, 10, 3];
    const world: ApiWorld = {
      objects: [
        deployment('payouts-worker', 'payouts', 'registry.example.com/payouts-worker:4.0.2', 1, 1),
        pod({
          name,
          ns: 'payouts',
          app: 'payouts-worker',
          node: 'worker-1',
          containers: [
            { name: 'payouts-worker', image: 'registry.example.com/payouts-worker:4.0.2' },
          ],
          volumes: [{ name: 'ca-bundle', configMap: { name: 'internal-ca-bundle' } }],
        }),
      ],
      logs: { [name]: minutes.map((m, i) => record(m, trace(i))).join('\n') },
    };
    const { model } = findingsOf([
      { output: world.objects[1], ctx: { namespace: 'payouts' } },
      { output: world.logs![name], ctx: { pod: name, namespace: 'payouts', verb: 'logs' } },
    ]);
    const tls = findFindings(model, compile(CAUSE_CATALOG), NOW).filter(
      (f) => f.entry.id === 'tls_unknown_authority',
    );
    // one finding: first seen 2 h ago, last seen 3 min ago
    expect(tls).toHaveLength(1);
    expect(tls[0]!.at).toBe(Date.parse(ago(120)));
    expect(tls[0]!.groups['last']).toBe(new Date(Date.parse(ago(3))).toISOString());
    const out = await investigate(apiTools(world), 'payouts-worker cannot sync with the ledger', {
      namespace: 'payouts',
    });
    expect(out.result.summary).toMatch(/signed by a CA the client does not trust/i);
    expect(conclusion(out.result)).toContain('(ConfigMap internal-ca-bundle)');
  });
});

describe('8. questions', () => {
  const running = (name: string, ns: string, app: string, node: string) =>
    pod({
      name,
      ns,
      app,
      node,
      owner: { kind: 'StatefulSet', name: app },
      containers: [{ name: app, image: `registry.example.com/${app}:1.0.0` }],
    });
  const node = (name: string, unschedulable = false) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name }, creationTimestamp: ago(9000) },
    spec: unschedulable
      ? {
          unschedulable: true,
          taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
        }
      : {},
    status: {
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      allocatable: { cpu: '3920m', memory: '15Gi', pods: '58' },
    },
  });

  it('"which node is kafka-2 running on? want to drain ip-10-0-25-91": where it runs, and what runs there', async () => {
    const n1 = 'ip-10-0-25-91.eu-west-1.compute.internal';
    const n2 = 'ip-10-0-31-7.eu-west-1.compute.internal';
    const world: ApiWorld = {
      objects: [
        node(n1),
        node(n2),
        running('kafka-0', 'data', 'kafka', n2),
        running('kafka-1', 'data', 'kafka', n2),
        running('kafka-2', 'data', 'kafka', n1),
      ],
    };
    const ask = async (message: string) =>
      (await investigateAt(apiTools(world), message, NOW, 'data')).text;
    const text = await ask('which node is kafka-2 running on? want to drain ip-10-0-25-91');
    expect(text).toContain(`kafka-2 runs on node ${n1}`);
    expect(text).not.toContain('kafka-0');
    // what runs on the node to drain: said when the message calls it a node
    expect(
      await ask('which node is kafka-2 running on? want to drain node ip-10-0-25-91'),
    ).toContain(`node ${n1} runs kafka-2`);
  });

  it('"which pods in namespace batch have no memory limit set?": the pods, read from describe', async () => {
    const pods = [
      ['report-gen-5f6d7c8b9-a1a1a', { cpu: '500m', memory: '512Mi' }, undefined],
      ['report-gen-5f6d7c8b9-b2b2b', { cpu: '500m', memory: '512Mi' }, undefined],
      ['thumbnailer-7c8d9e6f5-c3c3c', { cpu: '1' }, undefined],
      ['csv-import-28512340-d4d4d', undefined, { cpu: '250m' }],
    ] as const;
    const world: TextWorld = {
      tables: {
        pod: podsTable(pods.map(([n]) => [n, '1/1', 'Running', '0', '2h', 'worker-1'])),
      },
      describe: Object.fromEntries(
        pods.map(([n, limits, requests]) => [
          `pod/${n}`,
          describePod({
            name: n,
            namespace: 'batch',
            node: 'worker-1',
            labels: [`app=${n.split('-').slice(0, -2).join('-')}`],
            status: 'Running',
            container: {
              name: n.split('-').slice(0, -2).join('-'),
              image: `registry.example.com/${n.split('-')[0]}:1.0.0`,
              state: ['Running', `Started:      ${kubeTime(120)}`],
              ready: true,
              ...(limits ? { limits: { ...limits } } : {}),
              ...(requests ? { requests: { ...requests } } : {}),
            },
          }),
        ]),
      ),
    };
    const { text } = await investigateAt(
      textTools(world),
      'which pods in namespace batch have no memory limit set?',
      NOW,
    );
    expect(text).toMatch(/2 pods in namespace batch have a container without a memory limit/);
    expect(text).toContain('thumbnailer-7c8d9e6f5-c3c3c');
    expect(text).toContain('csv-import-28512340-d4d4d');
    expect(text).not.toContain('report-gen-5f6d7c8b9-a1a1a');
  });

  it('"which nodes are cordoned right now?": the nodes marked unschedulable', async () => {
    const world: ApiWorld = {
      objects: [
        node('ip-10-0-25-91.eu-west-1.compute.internal', true),
        node('ip-10-0-31-7.eu-west-1.compute.internal'),
        node('ip-10-0-44-12.eu-west-1.compute.internal'),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'which nodes are cordoned right now?',
      NOW,
    );
    expect(text).toMatch(/1 node cordoned: ip-10-0-25-91\.eu-west-1\.compute\.internal/);
    expect(text).not.toContain('ip-10-0-31-7');
    expect(text).not.toContain('ip-10-0-44-12');
  });

  it('"did payment-worker log any \'idempotency key conflict\' since 14:00 UTC?": pods, count and lines', async () => {
    const now = Date.parse('2026-03-10T15:30:00Z');
    const at = (hhmm: string) => `2026-03-10T${hhmm}:00.482913Z`;
    const conflict = (key: string) =>
      `{"level":"warn","msg":"idempotency key conflict","key":"${key}","order":"ord_81723"}`;
    const pods = ['payment-worker-6d7f8c9b5-aaaaa', 'payment-worker-6d7f8c9b5-bbbbb'];
    const world: ApiWorld = {
      objects: pods.map((n) =>
        pod({
          name: n,
          ns: 'payments',
          app: 'payment-worker',
          node: 'worker-1',
          containers: [
            { name: 'payment-worker', image: 'registry.example.com/payment-worker:3.2.0' },
          ],
        }),
      ),
      logs: {
        [pods[0]!]: [
          `${at('13:40')} ${conflict('idem_early')}`,
          `${at('14:12')} ${conflict('idem_7f3a')}`,
          `${at('14:55')} {"level":"info","msg":"charge captured","order":"ord_81730"}`,
          `${at('15:05')} ${conflict('idem_91c2')}`,
        ].join('\n'),
        [pods[1]!]: `${at('15:20')} {"level":"info","msg":"charge captured","order":"ord_81744"}`,
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      "did payment-worker log any 'idempotency key conflict' since 14:00 UTC?",
      now,
      'payments',
    );
    expect(text).toContain(
      `1 of the 2 pod(s) whose logs I read logged "idempotency key conflict" since 2026-03-10T14:00:00.000Z, 2 times in all`,
    );
    expect(text).toContain(`${pods[0]!} (2 times, last at 2026-03-10T15:05:00.482Z)`);
    expect(text).toContain('idem_7f3a');
    expect(text).toContain('idem_91c2');
    expect(text).not.toContain('idem_early');
  });
});
