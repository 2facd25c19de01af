/**
 * One test per failure class of issue 13 (item 5), on outputs shaped like real ones (the shapes
 * of `kubectl describe`, `kubectl get`, Kubernetes API objects and application logs): the
 * catalog finds the cause in what observe() read, and the whole engine, driving an in-memory tool
 * server, concludes on the subject and quotes the decisive fact.
 */
import { CAUSE_CATALOG } from './cause-catalog.data';
import { failingDependencies } from './dependencies';
import { compile, findFindings } from './diagnose';
import {
  NOW,
  ago,
  conclusion,
  describePod,
  eventsTable,
  findingsOf,
  ids,
  investigate,
  jsonOutputs,
  jsonTools,
  kubeEvent,
  kubeTime,
  podsTable,
  textOutputs,
  textTools,
  yamlTools,
  type JsonWorld,
  type TextWorld,
} from './spec-world';

// ------------------------------------------------------------------------------------------------
// builders of API objects (the fields the API server returns)

interface PodSpec {
  name: string;
  ns: string;
  app: string;
  image: string;
  node?: string;
  phase?: string;
  reason?: string;
  message?: string;
  state?: Record<string, unknown>;
  lastState?: Record<string, unknown>;
  restarts?: number;
  ready?: boolean;
  limits?: Record<string, string>;
  requests?: Record<string, string>;
  owner?: { kind: string; name: string };
  nodeSelector?: Record<string, string>;
  claims?: string[];
  conditions?: Record<string, unknown>[];
  env?: Record<string, unknown>[];
  args?: string[];
  livenessProbe?: Record<string, unknown>;
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
      labels: { app: p.app, 'pod-template-hash': hash },
      creationTimestamp: ago(60),
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, controller: true },
      ],
    },
    spec: {
      ...(p.node ? { nodeName: p.node } : {}),
      ...(p.nodeSelector ? { nodeSelector: p.nodeSelector } : {}),
      containers: [
        {
          name: p.app,
          image: p.image,
          ...(p.args ? { args: p.args } : {}),
          ...(p.env ? { env: p.env } : {}),
          ...(p.livenessProbe ? { livenessProbe: p.livenessProbe } : {}),
          resources: {
            ...(p.limits ? { limits: p.limits } : {}),
            ...(p.requests ? { requests: p.requests } : {}),
          },
        },
      ],
      volumes: (p.claims ?? []).map((c) => ({
        name: 'data',
        persistentVolumeClaim: { claimName: c },
      })),
      serviceAccountName: 'default',
    },
    status: {
      phase: p.phase ?? 'Running',
      ...(p.reason ? { reason: p.reason } : {}),
      ...(p.message ? { message: p.message } : {}),
      conditions: p.conditions ?? [],
      ...(p.state
        ? {
            containerStatuses: [
              {
                name: p.app,
                image: p.image,
                ready: p.ready ?? false,
                restartCount: p.restarts ?? 0,
                state: p.state,
                lastState: p.lastState ?? {},
              },
            ],
          }
        : {}),
    },
  };
}

function deployment(
  name: string,
  ns: string,
  image: string,
  replicas: number,
  available: number,
): Record<string, unknown> {
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
      readyReplicas: available,
      availableReplicas: available,
      updatedReplicas: replicas,
      ...(available < replicas ? { unavailableReplicas: replicas - available } : {}),
      conditions: [
        {
          type: 'Available',
          status: available < replicas ? 'False' : 'True',
          reason: available < replicas ? 'MinimumReplicasUnavailable' : 'MinimumReplicasAvailable',
          message:
            available < replicas
              ? 'Deployment does not have minimum availability.'
              : 'Deployment has minimum availability.',
        },
      ],
    },
  };
}

const crashLoop = (exitCode: number, reason = 'Error', finishedMin = 1) => ({
  state: {
    waiting: {
      reason: 'CrashLoopBackOff',
      message: 'back-off 2m40s restarting failed container',
    },
  },
  lastState: {
    terminated: {
      exitCode,
      reason,
      startedAt: ago(finishedMin + 0.1),
      finishedAt: ago(finishedMin),
    },
  },
  restarts: 6,
});

const notScheduled = (message: string) => [
  {
    type: 'PodScheduled',
    status: 'False',
    reason: 'Unschedulable',
    message,
    lastTransitionTime: ago(8),
  },
];

/** Both ways: the catalog on the read outputs, and the whole engine over the tool server. */
async function textCase(
  world: TextWorld,
  ns: string,
  message: string,
  expectIds: string[],
  context: Record<string, string> = {},
) {
  const { findings } = findingsOf(textOutputs(world, ns));
  expect(ids(findings)).toEqual(expect.arrayContaining(expectIds));
  const out = await investigate(textTools(world), message, { namespace: ns, ...context });
  return { ...out, text: conclusion(out.result), findings };
}

async function jsonCase(
  world: JsonWorld,
  ns: string,
  message: string,
  expectIds: string[],
  context: Record<string, string> = {},
) {
  const { findings } = findingsOf(jsonOutputs(world, ns));
  expect(ids(findings)).toEqual(expect.arrayContaining(expectIds));
  const out = await investigate(jsonTools(world), message, { namespace: ns, ...context });
  return { ...out, text: conclusion(out.result), findings };
}

// ------------------------------------------------------------------------------------------------

describe('OOMKilled', () => {
  it('kubectl text: Last State Terminated OOMKilled, exit 137, names the limit', async () => {
    const name = 'checkout-7d9f8b6c5-x2x4z';
    const world: TextWorld = {
      tables: {
        pod: podsTable([
          [name, '0/1', 'CrashLoopBackOff', '6 (45s ago)', '62m', 'worker-1'],
          ['cart-5c8d7b9f4-abcde', '1/1', 'Running', '0', '3d', 'worker-2'],
        ]),
      },
      describe: {
        [`pod/${name}`]: describePod({
          name,
          namespace: 'shop',
          node: 'worker-1',
          labels: ['app=checkout', 'pod-template-hash=7d9f8b6c5'],
          controlledBy: 'ReplicaSet/checkout-7d9f8b6c5',
          status: 'Running',
          container: {
            name: 'checkout',
            image: 'registry.example.com/shop/checkout:2.4.0',
            port: '8080/TCP',
            state: ['Waiting', 'Reason:       CrashLoopBackOff'],
            last: [
              'Terminated',
              'Reason:       OOMKilled',
              'Exit Code:    137',
              `Started:      ${kubeTime(2)}`,
              `Finished:     ${kubeTime(1)}`,
            ],
            restarts: 6,
            limits: { cpu: '500m', memory: '256Mi' },
            requests: { cpu: '250m', memory: '256Mi' },
          },
          conditions: [
            ['Initialized', 'True'],
            ['Ready', 'False'],
            ['ContainersReady', 'False'],
            ['PodScheduled', 'True'],
          ],
          events: [
            [
              'Normal',
              'Pulled',
              '3m (x7 over 62m)',
              'kubelet',
              'Container image "registry.example.com/shop/checkout:2.4.0" already present on machine',
            ],
            [
              'Warning',
              'BackOff',
              '45s (x25 over 55m)',
              'kubelet',
              `Back-off restarting failed container checkout in pod ${name}_shop(7e1c2d3a)`,
            ],
          ],
        }),
      },
    };
    const { text, result } = await textCase(world, 'shop', 'checkout pods keep restarting', [
      'oom_killed',
    ]);
    expect(text).toMatch(/checkout/);
    expect(text).toMatch(/OOMKilled/);
    expect(text).toMatch(/256Mi/);
    expect(result.root_cause.confidence).toBeGreaterThanOrEqual(60);
  });
});

describe('CrashLoopBackOff explained by the last fatal log line', () => {
  const world = (previousLog: string, args?: string[]): JsonWorld => ({
    objects: [
      deployment('payments', 'shop', 'registry.example.com/shop/payments:3.1.0', 2, 0),
      pod({
        name: 'payments-6b7f9c8d4-k2j9x',
        ns: 'shop',
        app: 'payments',
        image: 'registry.example.com/shop/payments:3.1.0',
        node: 'worker-2',
        args,
        ...crashLoop(1),
      }),
    ],
    events: [
      kubeEvent(
        'shop',
        { kind: 'Pod', name: 'payments-6b7f9c8d4-k2j9x' },
        'Warning',
        'BackOff',
        'Back-off restarting failed container payments in pod payments-6b7f9c8d4-k2j9x_shop(0c1d2e3f)',
        20,
        1,
        18,
      ),
    ],
    logs: { 'payments-6b7f9c8d4-k2j9x': '' },
    previous: { 'payments-6b7f9c8d4-k2j9x': previousLog },
  });

  it('missing environment variable', async () => {
    const { text } = await jsonCase(
      world(
        [
          `${ago(1.2)} INFO  payments starting version=3.1.0`,
          `${ago(1.1)} INFO  loading configuration from environment`,
          `${ago(1)} FATAL config: required environment variable PAYMENT_GATEWAY_URL is not set`,
        ].join('\n'),
      ),
      'shop',
      'payments is down',
      ['missing_env', 'crash_loop'],
    );
    expect(text).toMatch(/payments/);
    expect(text).toMatch(/PAYMENT_GATEWAY_URL/);
  });

  it('bad command-line flag (Go flag package usage output after the error)', async () => {
    const { text } = await jsonCase(
      world(
        [
          'flag provided but not defined: -listen-adress',
          'Usage of /usr/local/bin/payments:',
          '  -config string',
          '    \tpath to the configuration file (default "/etc/payments/config.yaml")',
          '  -listen-address string',
          '    \taddress to listen on (default ":8080")',
        ].join('\n'),
        ['-listen-adress=:8080'],
      ),
      'shop',
      'payments is down',
      ['bad_flag'],
    );
    expect(text).toMatch(/payments/);
    expect(text).toMatch(/-listen-adress/);
  });

  it('Go panic with a goroutine trace', async () => {
    const { text } = await jsonCase(
      world(
        [
          `${ago(1.1)} INFO  payments starting version=3.1.0`,
          'panic: runtime error: invalid memory address or nil pointer dereference',
          '[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x7c1f2a]',
          '',
          'goroutine 1 [running]:',
          'main.(*Server).registerRoutes(0x0, 0xc0001a2000)',
          '\t/src/cmd/payments/server.go:88 +0x4a',
          'main.main()',
          '\t/src/cmd/payments/main.go:41 +0x1f8',
          'exit status 2',
        ].join('\n'),
      ),
      'shop',
      'payments is down',
      ['panic'],
    );
    expect(text).toMatch(/payments/);
    expect(text).toMatch(/panic: runtime error: invalid memory address or nil pointer dereference/);
  });

  it('failed connection to its database (pgx error names the host)', async () => {
    const { text } = await jsonCase(
      world(
        [
          `${ago(1.1)} INFO  payments starting version=3.1.0`,
          `${ago(1)} ERROR failed to connect to \`host=payments-db.shop.svc.cluster.local user=payments database=payments\`: dial error (dial tcp 10.96.14.2:5432: connect: connection refused)`,
          `${ago(1)} FATAL cannot start without a database`,
        ].join('\n'),
      ),
      'shop',
      'payments is down',
      ['dependency_refused'],
    );
    expect(text).toMatch(/payments/);
    expect(text).toMatch(/payments-db\.shop\.svc\.cluster\.local/);
    expect(text).toMatch(/connection refused/);
  });
});

describe('CrashLoopBackOff: more last fatal lines', () => {
  const cases: [string, string][] = [
    ["Error: Cannot find module 'express'", 'missing_module'],
    ["ModuleNotFoundError: No module named 'flask'", 'missing_module'],
    ['Error: Could not find or load main class com.acme.orders.Main', 'missing_module'],
    [
      'nginx: [emerg] host not found in upstream "backend:8080" in /etc/nginx/conf.d/default.conf:12',
      'dns_failure',
    ],
    [
      'psql: error: connection to server at "orders-db" (10.96.3.4), port 5432 failed: FATAL:  password authentication failed for user "app"',
      'dependency_auth_failed',
    ],
    ["Access denied for user 'app'@'10.244.1.5' (using password: YES)", 'dependency_auth_failed'],
    [
      'sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "orders-db" (10.96.3.4), port 5432 failed: Connection timed out',
      'dependency_timeout',
    ],
    [
      'redis.exceptions.ConnectionError: Error 111 connecting to redis-master:6379. Connection refused.',
      'dependency_refused',
    ],
    ['MongoServerSelectionError: connect ECONNREFUSED 10.96.7.7:27017', 'dependency_refused'],
    ['listen tcp :80: bind: permission denied', 'port_bind_failed'],
    ['Error: listen EADDRINUSE: address already in use :::3000', 'port_bind_failed'],
    ['nginx: [emerg] bind() to 0.0.0.0:80 failed (13: Permission denied)', 'port_bind_failed'],
  ];
  for (const [line, id] of cases)
    it(`${id}: "${line.slice(0, 60)}…"`, () => {
      const { findings } = findingsOf([
        {
          output: `${ago(1.2)} INFO starting\n${ago(1)} ${line}\n`,
          ctx: { verb: 'logs', pod: 'orders-5f6d7c8b9-p4q5r', namespace: 'shop', previous: true },
        },
      ]);
      expect(ids(findings)).toContain(id);
    });

  it('the engine names the missing module', async () => {
    const name = 'web-6d4cf56db6-2xk9p';
    const world: TextWorld = {
      tables: {
        pod: podsTable([[name, '0/1', 'CrashLoopBackOff', '5 (30s ago)', '4m', 'worker-1']]),
      },
      describe: {},
      previous: {
        [name]: [
          'node:internal/modules/cjs/loader:1228',
          '  throw err;',
          '  ^',
          '',
          "Error: Cannot find module 'express'",
          'Require stack:',
          '- /app/server.js',
          '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
          '    at Module._load (node:internal/modules/cjs/loader:1051:27)',
          '    at Object.<anonymous> (/app/server.js:1:17) {',
          "  code: 'MODULE_NOT_FOUND',",
          "  requireStack: [ '/app/server.js' ]",
          '}',
          '',
          'Node.js v20.11.1',
        ].join('\n'),
      },
    };
    const { text } = await textCase(world, 'shop', 'web keeps crashing', ['missing_module']);
    expect(text).toMatch(/web crashes at start: express is not in its image/);
    expect(text).toMatch(/Cannot find module 'express'/);
  });
});

describe('ImagePullBackOff', () => {
  const world = (failed: string): JsonWorld => ({
    objects: [
      deployment('api', 'shop', 'x', 2, 1),
      pod({
        name: 'api-7c9d8b7f6-x2x4z',
        ns: 'shop',
        app: 'api',
        image: /"([^"]+)"/.exec(failed)![1]!,
        node: 'worker-1',
        state: {
          waiting: {
            reason: 'ImagePullBackOff',
            message: `Back-off pulling image "${/"([^"]+)"/.exec(failed)![1]!}"`,
          },
        },
      }),
    ],
    events: [
      kubeEvent(
        'shop',
        { kind: 'Pod', name: 'api-7c9d8b7f6-x2x4z' },
        'Warning',
        'Failed',
        failed,
        12,
        2,
        5,
      ),
      kubeEvent(
        'shop',
        { kind: 'Pod', name: 'api-7c9d8b7f6-x2x4z' },
        'Warning',
        'Failed',
        'Error: ErrImagePull',
        12,
        2,
        5,
      ),
      kubeEvent(
        'shop',
        { kind: 'Pod', name: 'api-7c9d8b7f6-x2x4z' },
        'Normal',
        'BackOff',
        `Back-off pulling image "${/"([^"]+)"/.exec(failed)![1]!}"`,
        12,
        1,
        40,
      ),
    ],
  });

  it('tag that does not exist', async () => {
    const { text } = await jsonCase(
      world(
        'Failed to pull image "registry.example.com/shop/api:2.7.1": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/shop/api:2.7.1": failed to resolve reference "registry.example.com/shop/api:2.7.1": registry.example.com/shop/api:2.7.1: not found',
      ),
      'shop',
      'api pods are not starting',
      ['image_not_found'],
    );
    expect(text).toMatch(/\bapi\b/);
    expect(text).toMatch(/registry\.example\.com\/shop\/api:2\.7\.1/);
    expect(text).toMatch(/not found|does not exist/);
    // "<image>: not found" is not a shell's "command not found"
    expect(text).not.toMatch(/command not found/);
  });

  it('tag that does not exist, in kubectl describe text', async () => {
    const name = 'web-6d4cf56db6-2xk9p';
    const world: TextWorld = {
      tables: { pod: podsTable([[name, '0/1', 'ImagePullBackOff', '0', '5m', 'worker-1']]) },
      describe: {
        [`pod/${name}`]: describePod({
          name,
          namespace: 'shop',
          node: 'worker-1',
          labels: ['app=web', 'pod-template-hash=6d4cf56db6'],
          controlledBy: 'ReplicaSet/web-6d4cf56db6',
          status: 'Pending',
          container: {
            name: 'web',
            image: 'nginx:1.255',
            state: ['Waiting', 'Reason:       ImagePullBackOff'],
          },
          conditions: [
            ['Ready', 'False'],
            ['PodScheduled', 'True'],
          ],
          events: [
            ['Normal', 'Pulling', '3m (x4 over 5m)', 'kubelet', 'Pulling image "nginx:1.255"'],
            [
              'Warning',
              'Failed',
              '3m (x4 over 5m)',
              'kubelet',
              'Failed to pull image "nginx:1.255": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.255": failed to resolve reference "docker.io/library/nginx:1.255": docker.io/library/nginx:1.255: not found',
            ],
            ['Warning', 'Failed', '3m (x4 over 5m)', 'kubelet', 'Error: ErrImagePull'],
            [
              'Normal',
              'BackOff',
              '10s (x20 over 5m)',
              'kubelet',
              'Back-off pulling image "nginx:1.255"',
            ],
            ['Warning', 'Failed', '10s (x20 over 5m)', 'kubelet', 'Error: ImagePullBackOff'],
          ],
        }),
      },
    };
    const { text } = await textCase(world, 'shop', 'web is down', ['image_not_found']);
    expect(text).toMatch(/\bweb\b/);
    expect(text).toMatch(/nginx:1\.255/);
    expect(text).toMatch(/nginx:1\.255: not found/);
    expect(text).not.toMatch(/command not found/);
  });

  it('registry host that does not resolve', async () => {
    const { text } = await jsonCase(
      world(
        'Failed to pull image "regsitry.example.com/shop/api:2.7.0": rpc error: code = Unknown desc = failed to pull and unpack image "regsitry.example.com/shop/api:2.7.0": failed to resolve reference "regsitry.example.com/shop/api:2.7.0": failed to do request: Head "https://regsitry.example.com/v2/shop/api/manifests/2.7.0": dial tcp: lookup regsitry.example.com on 10.96.0.10:53: no such host',
      ),
      'shop',
      'api pods are not starting',
      ['image_registry_unreachable'],
    );
    expect(text).toMatch(/\bapi\b/);
    expect(text).toMatch(/regsitry\.example\.com/);
    expect(text).toMatch(/registry/i);
  });

  it('registry refuses the pull (401 Unauthorized)', async () => {
    const { text } = await jsonCase(
      world(
        'Failed to pull image "ghcr.io/acme/api:2.7.0": rpc error: code = Unknown desc = failed to pull and unpack image "ghcr.io/acme/api:2.7.0": failed to resolve reference "ghcr.io/acme/api:2.7.0": failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://ghcr.io/token?scope=repository%3Aacme%2Fapi%3Apull&service=ghcr.io: 401 Unauthorized',
      ),
      'shop',
      'api pods are not starting',
      ['image_pull_auth'],
    );
    expect(text).toMatch(/\bapi\b/);
    expect(text).toMatch(/401 Unauthorized|unauthorized/i);
    expect(text).toMatch(/imagePullSecret/);
  });
});

describe('CreateContainerConfigError', () => {
  const textWorld = (eventMessage: string, env: string[]): TextWorld => {
    const name = 'orders-5f6d7c8b9-p4q5r';
    return {
      tables: {
        pod: podsTable([[name, '0/1', 'CreateContainerConfigError', '0', '6m', 'worker-1']]),
      },
      describe: {
        [`pod/${name}`]: describePod({
          name,
          namespace: 'shop',
          node: 'worker-1',
          labels: ['app=orders', 'pod-template-hash=5f6d7c8b9'],
          controlledBy: 'ReplicaSet/orders-5f6d7c8b9',
          status: 'Pending',
          container: {
            name: 'orders',
            image: 'registry.example.com/shop/orders:1.9.2',
            state: ['Waiting', 'Reason:       CreateContainerConfigError'],
            env,
          },
          conditions: [
            ['Initialized', 'True'],
            ['Ready', 'False'],
            ['ContainersReady', 'False'],
            ['PodScheduled', 'True'],
          ],
          events: [
            [
              'Normal',
              'Scheduled',
              '6m',
              'default-scheduler',
              `Successfully assigned shop/${name} to worker-1`,
            ],
            ['Warning', 'Failed', '60s (x26 over 6m)', 'kubelet', eventMessage],
          ],
        }),
      },
    };
  };

  it('missing ConfigMap', async () => {
    const { text } = await textCase(
      textWorld('Error: configmap "orders-config" not found', [
        "LOG_LEVEL:  <set to the key 'log_level' of config map 'orders-config'>  Optional: false",
      ]),
      'shop',
      'orders deployment is not coming up',
      ['missing_configmap'],
    );
    expect(text).toMatch(/orders/);
    expect(text).toMatch(/ConfigMap "orders-config"/);
  });

  it('missing Secret', async () => {
    const { text } = await textCase(
      textWorld('Error: secret "orders-db" not found', [
        "DB_PASSWORD:  <set to the key 'password' in secret 'orders-db'>  Optional: false",
      ]),
      'shop',
      'orders deployment is not coming up',
      ['missing_secret'],
    );
    expect(text).toMatch(/orders/);
    expect(text).toMatch(/Secret "orders-db"/);
  });

  it('missing key in a Secret', async () => {
    const { text } = await textCase(
      textWorld("Error: couldn't find key db-url in Secret shop/orders-db", [
        "DATABASE_URL:  <set to the key 'db-url' in secret 'orders-db'>  Optional: false",
      ]),
      'shop',
      'orders deployment is not coming up',
      ['missing_key'],
    );
    expect(text).toMatch(/orders/);
    expect(text).toMatch(/db-url/);
    expect(text).toMatch(/shop\/orders-db/);
  });
});

describe('Pending pods', () => {
  const textWorld = (
    message: string,
    extra: { nodeSelectors?: string; requests?: Record<string, string>; claims?: string[] } = {},
  ): TextWorld => {
    const name = 'search-8d7c6b5a4-z9y8x';
    return {
      tables: { pod: podsTable([[name, '0/1', 'Pending', '0', '8m']]) },
      describe: {
        [`pod/${name}`]: describePod({
          name,
          namespace: 'shop',
          labels: ['app=search', 'pod-template-hash=8d7c6b5a4'],
          controlledBy: 'ReplicaSet/search-8d7c6b5a4',
          status: 'Pending',
          container: {
            name: 'search',
            image: 'registry.example.com/shop/search:4.2.0',
            requests: extra.requests,
          },
          conditions: [['PodScheduled', 'False']],
          nodeSelectors: extra.nodeSelectors,
          claims: extra.claims,
          events: [
            ['Warning', 'FailedScheduling', '2m (x4 over 8m)', 'default-scheduler', message],
          ],
        }),
      },
    };
  };

  it('node selector that matches no node', async () => {
    const { text } = await textCase(
      textWorld(
        "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
        { nodeSelectors: 'disktype=nvme' },
      ),
      'shop',
      'search pod stuck in Pending',
      ['sched_selector'],
    );
    expect(text).toMatch(/search/);
    expect(text).toMatch(/disktype=nvme/);
    expect(text).toMatch(/didn't match Pod's node affinity\/selector/);
  });

  it('insufficient cpu', async () => {
    const { text } = await textCase(
      textWorld(
        '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
        { requests: { cpu: '6', memory: '2Gi' } },
      ),
      'shop',
      'search pod stuck in Pending',
      ['sched_insufficient'],
    );
    expect(text).toMatch(/search/);
    expect(text).toMatch(/Insufficient cpu/);
    expect(text).toMatch(/cpu 6/);
  });

  it('untolerated taint', async () => {
    const { text } = await textCase(
      textWorld(
        '0/3 nodes are available: 3 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      ),
      'shop',
      'search pod stuck in Pending',
      ['sched_taint'],
    );
    expect(text).toMatch(/search/);
    expect(text).toMatch(/dedicated: gpu/);
    expect(text).toMatch(/toleration/);
  });

  it('unbound PersistentVolumeClaim: explained by the claim', async () => {
    const world = textWorld(
      '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      { claims: ['search-index'] },
    );
    world.describe['persistentvolumeclaim/search-index'] = `Name:          search-index
Namespace:     shop
StorageClass:  fast-ssd
Status:        Pending
Volume:
Labels:        app=search
Annotations:   <none>
Finalizers:    [kubernetes.io/pvc-protection]
Capacity:
Access Modes:
VolumeMode:    Filesystem
Used By:       search-8d7c6b5a4-z9y8x
Events:
  Type     Reason              Age                From                         Message
  ----     ------              ----               ----                         -------
  Warning  ProvisioningFailed  2m (x26 over 8m)   persistentvolume-controller  storageclass.storage.k8s.io "fast-ssd" not found
`;
    const { text } = await textCase(world, 'shop', 'search pod stuck in Pending', [
      'unbound_pvc',
      'pvc_storageclass_missing',
    ]);
    expect(text).toMatch(/search/);
    expect(text).toMatch(/fast-ssd/);
  });
});

describe('Pending: more scheduler messages', () => {
  const cases: [string, string[], string[]][] = [
    [
      '0/3 nodes are available: 3 node(s) had volume node affinity conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      ['sched_volume_affinity'],
      [],
    ],
    [
      "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
      ['sched_selector'],
      [],
    ],
    [
      '0/4 nodes are available: 1 node(s) were unschedulable, 3 Insufficient memory. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.',
      ['sched_insufficient'],
      // "Insufficient memory" is about the pod's requests, not a node under pressure
      ['node_pressure'],
    ],
    [
      '0/3 nodes are available: 3 Too many pods. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      ['sched_too_many_pods'],
      [],
    ],
  ];
  for (const [message, want, not] of cases)
    it(`FailedScheduling "${message.slice(0, 60)}…"`, () => {
      const { findings } = findingsOf([
        {
          output: {
            apiVersion: 'v1',
            kind: 'EventList',
            items: [
              kubeEvent(
                'shop',
                { kind: 'Pod', name: 'search-8d7c6b5a4-z9y8x' },
                'Warning',
                'FailedScheduling',
                message,
                8,
                1,
                6,
              ),
            ],
          },
        },
      ]);
      expect(ids(findings)).toEqual(expect.arrayContaining(want));
      for (const n of not) expect(ids(findings)).not.toContain(n);
    });

  it('volume node affinity conflict: the engine concludes on the volume', async () => {
    const message =
      '0/3 nodes are available: 3 node(s) had volume node affinity conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
    const world: JsonWorld = {
      objects: [
        pod({
          name: 'postgres-0',
          ns: 'db',
          app: 'postgres',
          image: 'postgres:16.2',
          phase: 'Pending',
          owner: { kind: 'StatefulSet', name: 'postgres' },
          claims: ['data-postgres-0'],
          conditions: notScheduled(message),
        }),
      ],
      events: [
        kubeEvent(
          'db',
          { kind: 'Pod', name: 'postgres-0' },
          'Warning',
          'FailedScheduling',
          message,
          8,
          1,
          6,
        ),
      ],
    };
    const { text } = await jsonCase(world, 'db', 'postgres-0 is stuck in Pending', [
      'sched_volume_affinity',
    ]);
    expect(text).toMatch(/postgres/);
    expect(text).toMatch(/volume node affinity conflict/);
  });
});

describe('PVC Pending', () => {
  const pvc = (sc: string | undefined, reason: string, message: string) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data-postgres-0', namespace: 'db', labels: { app: 'postgres' } },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '20Gi' } },
      ...(sc !== undefined ? { storageClassName: sc } : {}),
      volumeMode: 'Filesystem',
    },
    status: { phase: 'Pending' },
    _event: kubeEvent(
      'db',
      { kind: 'PersistentVolumeClaim', name: 'data-postgres-0' },
      'Warning',
      reason,
      message,
      30,
      1,
      120,
    ),
  });
  const world = (p: ReturnType<typeof pvc>): JsonWorld => {
    const { _event, ...claim } = p;
    return {
      objects: [
        claim,
        pod({
          name: 'postgres-0',
          ns: 'db',
          app: 'postgres',
          image: 'postgres:16.2',
          phase: 'Pending',
          owner: { kind: 'StatefulSet', name: 'postgres' },
          claims: ['data-postgres-0'],
          conditions: notScheduled(
            '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
          ),
        }),
      ],
      events: [_event],
    };
  };

  it('StorageClass that does not exist', async () => {
    const { text } = await jsonCase(
      world(
        pvc('fast-ssd', 'ProvisioningFailed', 'storageclass.storage.k8s.io "fast-ssd" not found'),
      ),
      'db',
      'the PVC data-postgres-0 is stuck in Pending',
      ['pvc_storageclass_missing'],
    );
    expect(text).toMatch(/data-postgres-0/);
    expect(text).toMatch(/StorageClass "fast-ssd" does not exist/);
  });

  it('no PersistentVolume matches (no StorageClass set)', async () => {
    const { text } = await jsonCase(
      world(
        pvc(
          '',
          'FailedBinding',
          'no persistent volumes available for this claim and no storage class is set',
        ),
      ),
      'db',
      'the PVC data-postgres-0 is stuck in Pending',
      ['pvc_no_volume'],
    );
    expect(text).toMatch(/data-postgres-0/);
    expect(text).toMatch(/no persistent volumes available for this claim/);
  });
});

describe('Job failed', () => {
  const job = (reason: string, message: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: 'nightly-report-29012400',
      namespace: 'batch',
      labels: { 'job-name': 'nightly-report-29012400' },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly-report' }],
    },
    spec: { backoffLimit: 3, completions: 1, parallelism: 1, ...extra },
    status: {
      failed: reason === 'BackoffLimitExceeded' ? 4 : 1,
      startTime: ago(40),
      conditions: [
        {
          type: 'Failed',
          status: 'True',
          reason,
          message,
          lastTransitionTime: ago(5),
        },
      ],
    },
  });

  it('BackoffLimitExceeded, explained by the container error in the pod logs', async () => {
    const podName = 'nightly-report-29012400-7xk2p';
    const world: JsonWorld = {
      objects: [
        job('BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
        pod({
          name: podName,
          ns: 'batch',
          app: 'report',
          image: 'registry.example.com/data/report:5.0.3',
          phase: 'Failed',
          owner: { kind: 'Job', name: 'nightly-report-29012400' },
          state: {
            terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(6), startedAt: ago(7) },
          },
        }),
      ],
      events: [
        kubeEvent(
          'batch',
          { kind: 'Job', name: 'nightly-report-29012400' },
          'Warning',
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
          5,
        ),
      ],
      logs: {
        [podName]: [
          `${ago(7)} INFO reading rows from s3://reports/2026-03-09/orders.csv`,
          'Traceback (most recent call last):',
          '  File "/app/report.py", line 88, in <module>',
          '    main()',
          '  File "/app/report.py", line 61, in main',
          '    total += int(row["amount_cents"])',
          "ValueError: invalid literal for int() with base 10: '12.50'",
        ].join('\n'),
      },
    };
    const { text } = await jsonCase(world, 'batch', 'job nightly-report-29012400 failed', [
      'job_backoff',
      'panic',
    ]);
    expect(text).toMatch(/nightly-report/);
    expect(text).toMatch(/ValueError: invalid literal for int\(\) with base 10: '12\.50'/);
  });

  it('BackoffLimitExceeded in kubectl text (describe job, pods table): the last error of its pod', async () => {
    const podName = 'nightly-report-29012400-7xk2p';
    const world: TextWorld = {
      tables: {
        pod: podsTable([[podName, '0/1', 'Error', '0', '40m', 'worker-1']]),
        job: `NAME                      STATUS   COMPLETIONS   DURATION   AGE
nightly-report-29012400   Failed   0/1           35m        40m`,
      },
      describe: {
        'job/nightly-report-29012400': `Name:             nightly-report-29012400
Namespace:        batch
Selector:         batch.kubernetes.io/controller-uid=5e0a4e2c-1b7d-4c55-9b0e-4f3e8f7a2d11
Labels:           batch.kubernetes.io/job-name=nightly-report-29012400
                  job-name=nightly-report-29012400
Annotations:      <none>
Controlled By:    CronJob/nightly-report
Parallelism:      1
Completions:      1
Completion Mode:  NonIndexed
Suspend:          false
Backoff Limit:    3
Start Time:       ${kubeTime(40)}
Pods Statuses:    0 Active (0 Ready) / 0 Succeeded / 4 Failed
Pod Template:
  Labels:  job-name=nightly-report-29012400
  Containers:
   report:
    Image:        registry.example.com/data/report:5.0.3
    Port:         <none>
    Host Port:    <none>
    Environment:  <none>
    Mounts:       <none>
  Volumes:        <none>
Events:
  Type     Reason                Age   From            Message
  ----     ------                ----  ----            -------
  Normal   SuccessfulCreate      40m   job-controller  Created pod: ${podName}
  Warning  BackoffLimitExceeded  5m    job-controller  Job has reached the specified backoff limit
`,
      },
      logs: {
        [podName]: [
          `${ago(7)} INFO connecting to reports-db`,
          'psycopg2.OperationalError: connection to server at "reports-db.batch.svc" (10.96.3.4), port 5432 failed: FATAL:  password authentication failed for user "reporter"',
        ].join('\n'),
      },
    };
    const { text } = await textCase(
      world,
      'batch',
      'the nightly-report cronjob failed last night',
      ['job_backoff'],
    );
    // the container's error is the cause: the database refuses the Job's credentials
    expect(text).toMatch(
      /nightly-report is refused by its dependency: its credentials are rejected/,
    );
    expect(text).toMatch(/password authentication failed for user "reporter"/);
  });

  it('DeadlineExceeded', async () => {
    const world: JsonWorld = {
      objects: [
        job('DeadlineExceeded', 'Job was active longer than specified deadline', {
          activeDeadlineSeconds: 1800,
        }),
      ],
      events: [
        kubeEvent(
          'batch',
          { kind: 'Job', name: 'nightly-report-29012400' },
          'Warning',
          'DeadlineExceeded',
          'Job was active longer than specified deadline',
          5,
        ),
      ],
    };
    const { text } = await jsonCase(world, 'batch', 'job nightly-report-29012400 failed', [
      'job_deadline',
    ]);
    expect(text).toMatch(/nightly-report/);
    expect(text).toMatch(/DeadlineExceeded/);
    expect(text).toMatch(/1800/);
  });
});

describe('probe failures', () => {
  const textWorld = (probe: string, eventRows: string[][]): TextWorld => {
    const name = 'web-6d4cf56db6-2xk9p';
    return {
      tables: {
        pod: podsTable([[name, '0/1', 'Running', '5 (30s ago)', '12m', 'worker-1']]),
      },
      describe: {
        [`pod/${name}`]: describePod({
          name,
          namespace: 'shop',
          node: 'worker-1',
          labels: ['app=web', 'pod-template-hash=6d4cf56db6'],
          controlledBy: 'ReplicaSet/web-6d4cf56db6',
          status: 'Running',
          container: {
            name: 'web',
            image: 'registry.example.com/shop/web:1.12.0',
            port: '8080/TCP',
            state: ['Running', `Started:      ${kubeTime(0.5)}`],
            last: ['Terminated', 'Reason:       Error', 'Exit Code:    137'],
            restarts: 5,
            probes: [probe],
          },
          conditions: [
            ['Initialized', 'True'],
            ['Ready', 'False'],
            ['ContainersReady', 'False'],
            ['PodScheduled', 'True'],
          ],
          events: eventRows,
        }),
      },
    };
  };

  it('wrong port: connection refused on the probed port', async () => {
    const { text } = await textCase(
      textWorld(
        'Liveness:     http-get http://:8081/healthz delay=10s timeout=1s period=10s #success=1 #failure=3',
        [
          [
            'Warning',
            'Unhealthy',
            '25s (x15 over 12m)',
            'kubelet',
            'Liveness probe failed: Get "http://10.244.1.5:8081/healthz": dial tcp 10.244.1.5:8081: connect: connection refused',
          ],
          [
            'Normal',
            'Killing',
            '25s (x5 over 11m)',
            'kubelet',
            'Container web failed liveness probe, will be restarted',
          ],
        ],
      ),
      'shop',
      'web keeps restarting',
      ['probe_refused'],
    );
    expect(text).toMatch(/web/);
    expect(text).toMatch(/8081/);
    expect(text).toMatch(/connection refused/);
  });

  it('wrong path: HTTP 404', async () => {
    const { text } = await textCase(
      textWorld(
        'Readiness:    http-get http://:8080/health delay=0s timeout=1s period=10s #success=1 #failure=3',
        [
          [
            'Warning',
            'Unhealthy',
            '5s (x70 over 12m)',
            'kubelet',
            'Readiness probe failed: HTTP probe failed with statuscode: 404',
          ],
        ],
      ),
      'shop',
      'web is not ready',
      ['probe_status'],
    );
    expect(text).toMatch(/web/);
    expect(text).toMatch(/404/);
    expect(text).toMatch(/\/health\b/);
  });

  it('slow start: the liveness probe times out and the kubelet restarts it', async () => {
    const { text } = await textCase(
      textWorld(
        'Liveness:     http-get http://:8080/healthz delay=5s timeout=1s period=5s #success=1 #failure=3',
        [
          [
            'Warning',
            'Unhealthy',
            '30s (x15 over 12m)',
            'kubelet',
            'Liveness probe failed: Get "http://10.244.1.5:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
          ],
          [
            'Normal',
            'Killing',
            '30s (x5 over 11m)',
            'kubelet',
            'Container web failed liveness probe, will be restarted',
          ],
        ],
      ),
      'shop',
      'web keeps restarting',
      ['probe_timeout'],
    );
    expect(text).toMatch(/web/);
    expect(text).toMatch(/context deadline exceeded|times out/);
    expect(text).toMatch(/startupProbe|initialDelaySeconds/);
  });
});

describe('evictions and node pressure', () => {
  it('pod Evicted for memory on a node under MemoryPressure', async () => {
    const evictedMsg =
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 91264Ki. Container worker was using 1843200Ki, request is 0, has larger consumption of memory.';
    const world: JsonWorld = {
      objects: [
        pod({
          name: 'worker-5c4b3a2d1-m8n7b',
          ns: 'jobs',
          app: 'worker',
          image: 'registry.example.com/jobs/worker:0.9.1',
          node: 'worker-4',
          phase: 'Failed',
          reason: 'Evicted',
          message: evictedMsg,
        }),
        pod({
          name: 'worker-5c4b3a2d1-q1w2e',
          ns: 'jobs',
          app: 'worker',
          image: 'registry.example.com/jobs/worker:0.9.1',
          node: 'worker-1',
          state: { running: { startedAt: ago(10) } },
          ready: true,
        }),
        {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: 'worker-4', labels: { 'kubernetes.io/hostname': 'worker-4' } },
          spec: {
            taints: [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }],
          },
          status: {
            conditions: [
              {
                type: 'MemoryPressure',
                status: 'True',
                reason: 'KubeletHasInsufficientMemory',
                message: 'kubelet has insufficient memory available',
                lastTransitionTime: ago(15),
              },
              {
                type: 'Ready',
                status: 'True',
                reason: 'KubeletReady',
                message: 'kubelet is posting ready status',
              },
            ],
          },
        },
      ],
      events: [
        kubeEvent(
          'jobs',
          { kind: 'Pod', name: 'worker-5c4b3a2d1-m8n7b' },
          'Warning',
          'Evicted',
          evictedMsg,
          12,
        ),
      ],
    };
    const { text } = await jsonCase(world, 'jobs', 'worker pods are being evicted', [
      'evicted',
      'node_pressure',
    ]);
    expect(text).toMatch(/worker/);
    expect(text).toMatch(/low on resource: memory/);
  });
});

describe('evictions: node DiskPressure (kubectl text)', () => {
  it('a DaemonSet pod Evicted "The node had condition: [DiskPressure]"; the node is described', async () => {
    const w: TextWorld = {
      tables: {
        pod: podsTable([
          ['logs-agent-x7k2p', '0/1', 'Evicted', '0', '20m', 'worker-5'],
          ['logs-agent-q9w8e', '1/1', 'Running', '0', '20m', 'worker-1'],
        ]),
      },
      describe: {
        'pod/logs-agent-x7k2p': `Name:           logs-agent-x7k2p
Namespace:      logging
Priority:       0
Node:           worker-5/10.0.0.15
Start Time:     ${kubeTime(20)}
Labels:         app=logs-agent
Annotations:    <none>
Status:         Failed
Reason:         Evicted
Message:        The node had condition: [DiskPressure].
IP:             10.244.5.3
Controlled By:  DaemonSet/logs-agent
Containers:
  agent:
    Image:          fluent/fluent-bit:3.0
    Port:           <none>
    Host Port:      <none>
    State:          Terminated
      Reason:       ContainerStatusUnknown
      Exit Code:    137
    Ready:          False
    Restart Count:  0
    Environment:    <none>
    Mounts:         <none>
Conditions:
  Type              Status
  DisruptionTarget  True
  Ready             False
QoS Class:       BestEffort
Node-Selectors:  <none>
Tolerations:     <none>
Events:
  Type     Reason   Age   From     Message
  ----     ------   ----  ----     -------
  Warning  Evicted  15m   kubelet  The node had condition: [DiskPressure].
`,
        'node/worker-5': `Name:               worker-5
Roles:              <none>
Labels:             kubernetes.io/hostname=worker-5
Annotations:        node.alpha.kubernetes.io/ttl: 0
CreationTimestamp:  Mon, 02 Feb 2026 08:21:47 +0000
Taints:             node.kubernetes.io/disk-pressure:NoSchedule
Unschedulable:      false
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  MemoryPressure   False   ${kubeTime(1)}   ${kubeTime(900)}   KubeletHasSufficientMemory   kubelet has sufficient memory available
  DiskPressure     True    ${kubeTime(1)}   ${kubeTime(16)}    KubeletHasDiskPressure       kubelet has disk pressure
  PIDPressure      False   ${kubeTime(1)}   ${kubeTime(900)}   KubeletHasSufficientPID      kubelet has sufficient PID available
  Ready            True    ${kubeTime(1)}   ${kubeTime(900)}   KubeletReady                 kubelet is posting ready status
Events:
  Type     Reason                 Age   From     Message
  ----     ------                 ----  ----     -------
  Warning  EvictionThresholdMet   16m   kubelet  Attempting to reclaim ephemeral-storage
  Normal   NodeHasDiskPressure    16m   kubelet  Node worker-5 status is now: NodeHasDiskPressure
`,
      },
    };
    const { text } = await textCase(w, 'logging', 'logs-agent pods keep getting evicted', [
      'evicted',
      'node_pressure',
    ]);
    expect(text).toMatch(/logs-agent/);
    expect(text).toMatch(/worker-5/);
    expect(text).toMatch(/DiskPressure/);
  });
});

describe('RBAC denial', () => {
  it('the ServiceAccount cannot list configmaps (client-go reflector error)', async () => {
    const name = 'config-watcher-6f5e4d3c2-h7g6f';
    const world: TextWorld = {
      tables: { pod: podsTable([[name, '1/1', 'Running', '0', '2h', 'worker-2']]) },
      describe: {},
      logs: {
        [name]: [
          'I0310 11:20:01.000000       1 main.go:52] starting config-watcher version=1.3.0',
          'W0310 11:58:02.123456       1 reflector.go:539] k8s.io/client-go/tools/cache/reflector.go:229: failed to list *v1.ConfigMap: configmaps is forbidden: User "system:serviceaccount:platform:config-watcher" cannot list resource "configmaps" in API group "" in the namespace "shop"',
          'E0310 11:58:02.123502       1 reflector.go:147] k8s.io/client-go/tools/cache/reflector.go:229: Failed to watch *v1.ConfigMap: failed to list *v1.ConfigMap: configmaps is forbidden: User "system:serviceaccount:platform:config-watcher" cannot list resource "configmaps" in API group "" in the namespace "shop"',
        ].join('\n'),
      },
    };
    const { text } = await textCase(
      world,
      'platform',
      'config-watcher does not pick up config changes',
      ['rbac_forbidden'],
    );
    expect(text).toMatch(/config-watcher/);
    expect(text).toMatch(/system:serviceaccount:platform:config-watcher/);
    expect(text).toMatch(/configmaps/);
  });
});

describe('ServiceAccount denial', () => {
  it('the ReplicaSet cannot create pods: its ServiceAccount does not exist', async () => {
    const world: TextWorld = {
      tables: {
        deployment: `NAME   READY   UP-TO-DATE   AVAILABLE   AGE
api    0/2     0            0           12m`,
        pod: '',
      },
      describe: {},
      events: eventsTable([
        [
          '30s',
          'Warning',
          'FailedCreate',
          'replicaset/api-7c9d8b7f6',
          'Error creating: pods "api-7c9d8b7f6-" is forbidden: error looking up service account shop/api-runner: serviceaccount "api-runner" not found',
        ],
      ]),
    };
    const { text } = await textCase(world, 'shop', 'api has no pods', ['serviceaccount_missing']);
    expect(text).toMatch(/pods of api cannot be created/);
    expect(text).toMatch(/ServiceAccount "api-runner"/);
    expect(text).not.toMatch(/api-7c9d8b7f6 \(namespace/);
  });
});

describe('DNS failure', () => {
  it('lookup of a Service name fails (no such host)', async () => {
    const name = 'checkout-7d9f8b6c5-x2x4z';
    const world: TextWorld = {
      tables: { pod: podsTable([[name, '1/1', 'Running', '0', '3h', 'worker-1']]) },
      describe: {},
      logs: {
        [name]: [
          `${ago(3)} INFO  POST /api/checkout 201 38ms`,
          `${ago(2)} ERROR POST /api/checkout 502: calling inventory: Get "http://inventory.shop.svc.cluster.local:8080/v1/stock/sku-123": dial tcp: lookup inventory.shop.svc.cluster.local on 10.96.0.10:53: no such host`,
          `${ago(1)} ERROR POST /api/checkout 502: calling inventory: Get "http://inventory.shop.svc.cluster.local:8080/v1/stock/sku-998": dial tcp: lookup inventory.shop.svc.cluster.local on 10.96.0.10:53: no such host`,
        ].join('\n'),
      },
    };
    const { text } = await textCase(world, 'shop', 'checkout returns 502 errors', ['dns_failure']);
    expect(text).toMatch(/checkout/);
    expect(text).toMatch(/inventory\.shop\.svc\.cluster\.local/);
    expect(text).toMatch(/no such host/);
  });
});

describe('DNS failure in a Java stack trace', () => {
  it('"Caused by: java.net.UnknownHostException" deep in a Spring Boot start failure', async () => {
    const name = 'orders-5f6d7c8b9-p4q5r';
    const world: TextWorld = {
      tables: {
        pod: podsTable([[name, '0/1', 'CrashLoopBackOff', '4 (20s ago)', '5m', 'worker-1']]),
      },
      describe: {},
      previous: {
        [name]: [
          `${ago(1)}  INFO 1 --- [main] o.s.b.SpringApplication : Starting OrdersApplication v1.9.2`,
          `${ago(1)}  WARN 1 --- [main] ConfigServletWebServerApplicationContext : Exception encountered during context initialization - cancelling refresh attempt: org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'dataSource'`,
          `${ago(1)} ERROR 1 --- [main] o.s.boot.SpringApplication : Application run failed`,
          "org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'dataSource': Failed to initialize pool",
          '\tat org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.initializeBean(AbstractAutowireCapableBeanFactory.java:1786)',
          'Caused by: com.zaxxer.hikari.pool.HikariPool$PoolInitializationException: Failed to initialize pool: The connection attempt failed.',
          '\tat com.zaxxer.hikari.pool.HikariPool.throwPoolInitializationException(HikariPool.java:596)',
          'Caused by: java.net.UnknownHostException: orders-postgres',
          '\tat java.base/sun.nio.ch.NioSocketImpl.connect(NioSocketImpl.java:567)',
        ].join('\n'),
      },
    };
    const { text } = await textCase(world, 'shop', 'orders keeps crashing', ['dns_failure']);
    expect(text).toMatch(/orders/);
    expect(text).toMatch(/UnknownHostException: orders-postgres/);
  });
});

describe('dependency timeout / refusal', () => {
  it('timeout connecting to a named dependency', async () => {
    const world: JsonWorld = {
      objects: [
        deployment('orders', 'shop', 'registry.example.com/shop/orders:1.9.2', 3, 3),
        pod({
          name: 'orders-5f6d7c8b9-p4q5r',
          ns: 'shop',
          app: 'orders',
          image: 'registry.example.com/shop/orders:1.9.2',
          node: 'worker-1',
          state: { running: { startedAt: ago(600) } },
          ready: true,
        }),
      ],
      logs: {
        'orders-5f6d7c8b9-p4q5r': [
          `{"level":"info","ts":"${ago(5)}","msg":"request served","path":"/orders","status":200}`,
          `{"level":"error","ts":"${ago(3)}","msg":"query failed","error":"timeout after 2000ms connecting to warehouse-db.shop.svc:5432"}`,
          `{"level":"error","ts":"${ago(1)}","msg":"query failed","error":"timeout after 2000ms connecting to warehouse-db.shop.svc:5432"}`,
        ].join('\n'),
      },
    };
    const { text } = await jsonCase(world, 'shop', 'orders is slow and erroring', [
      'dependency_timeout',
    ]);
    expect(text).toMatch(/orders/);
    expect(text).toMatch(/warehouse-db\.shop\.svc:5432/);
    expect(text).toMatch(/time(?:s)? ?out/);
  });

  it("another service's rollout minutes before is not blamed", async () => {
    const world: JsonWorld = {
      objects: [
        deployment('orders', 'shop', 'registry.example.com/shop/orders:1.9.2', 2, 2),
        pod({
          name: 'orders-5f6d7c8b9-p4q5r',
          ns: 'shop',
          app: 'orders',
          image: 'registry.example.com/shop/orders:1.9.2',
          node: 'worker-1',
          state: { running: { startedAt: ago(600) } },
          ready: true,
        }),
        deployment('catalog', 'shop', 'registry.example.com/shop/catalog:5.2.0', 2, 2),
        pod({
          name: 'catalog-9f8e7d6c5-a1b2c',
          ns: 'shop',
          app: 'catalog',
          image: 'registry.example.com/shop/catalog:5.2.0',
          node: 'worker-2',
          state: { running: { startedAt: ago(20) } },
          ready: true,
        }),
      ],
      events: [
        kubeEvent(
          'shop',
          { kind: 'Deployment', name: 'catalog' },
          'Normal',
          'ScalingReplicaSet',
          'Scaled up replica set catalog-9f8e7d6c5 to 2',
          20,
        ),
      ],
      logs: {
        'orders-5f6d7c8b9-p4q5r': [
          `${ago(3)} ERROR GET /orders 504: query failed: timeout after 2000ms connecting to warehouse-db.shop.svc:5432`,
          `${ago(1)} ERROR GET /orders 504: query failed: timeout after 2000ms connecting to warehouse-db.shop.svc:5432`,
        ].join('\n'),
      },
    };
    const { text } = await jsonCase(world, 'shop', 'orders returns 504s', ['dependency_timeout'], {
      service: 'orders',
    });
    expect(text).toMatch(/orders cannot reach its dependency warehouse-db\.shop\.svc:5432/);
    expect(text).not.toMatch(/catalog/);
  });
});

describe('TLS', () => {
  it('expired certificate seen by a client', async () => {
    const name = 'gateway-7b8c9d0e1-f2g3h';
    const world: TextWorld = {
      tables: { pod: podsTable([[name, '1/1', 'Running', '0', '9d', 'worker-3']]) },
      describe: {},
      logs: {
        [name]: `${ago(2)} ERROR upstream request failed: Get "https://billing.example.com/v1/invoices": tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2026-03-10T11:58:00Z is after 2026-03-09T23:59:59Z`,
      },
    };
    const { text } = await textCase(world, 'edge', 'gateway fails calls to billing', [
      'tls_expired',
    ]);
    expect(text).toMatch(/gateway/);
    expect(text).toMatch(/x509: certificate has expired/);
  });

  it('a cert-manager Certificate whose Ready condition says Expired', async () => {
    const world: JsonWorld = {
      objects: [
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'Certificate',
          metadata: { name: 'shop-tls', namespace: 'edge' },
          spec: {
            secretName: 'shop-tls',
            dnsNames: ['shop.example.com'],
            issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer' },
          },
          status: {
            notAfter: '2026-03-09T23:59:59Z',
            conditions: [
              {
                type: 'Ready',
                status: 'False',
                reason: 'Expired',
                message: 'Certificate expired on Mon, 09 Mar 2026 23:59:59 UTC',
                lastTransitionTime: ago(720),
              },
            ],
          },
        },
      ],
    };
    const { text } = await jsonCase(
      world,
      'edge',
      'users get certificate errors on shop.example.com, certificate shop-tls',
      ['tls_expired'],
    );
    expect(text).toMatch(/shop-tls/);
    expect(text).toMatch(/Certificate expired on Mon, 09 Mar 2026 23:59:59 UTC/);
  });

  it('renewal failure: the ACME challenge answered 403', async () => {
    const world: JsonWorld = {
      objects: [
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'Certificate',
          metadata: { name: 'shop-tls', namespace: 'edge' },
          spec: {
            secretName: 'shop-tls',
            dnsNames: ['shop.example.com'],
            issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer' },
          },
          status: {
            notAfter: '2026-03-12T08:00:00Z',
            renewalTime: '2026-02-10T08:00:00Z',
            conditions: [
              {
                type: 'Ready',
                status: 'False',
                reason: 'Failed',
                message:
                  'The certificate request has failed to complete and will be retried: Failed to wait for order resource "shop-tls-1-3091884447" to become ready: order is in "invalid" state: acme: authorization error for shop.example.com: 403 urn:ietf:params:acme:error:unauthorized: Invalid response from http://shop.example.com/.well-known/acme-challenge/x2Kf9: 403',
                lastTransitionTime: ago(30),
              },
            ],
          },
        },
      ],
      events: [
        kubeEvent(
          'edge',
          { kind: 'Certificate', name: 'shop-tls' },
          'Warning',
          'Failed',
          'The certificate request has failed to complete and will be retried: Failed to wait for order resource "shop-tls-1-3091884447" to become ready: order is in "invalid" state: acme: authorization error for shop.example.com: 403 urn:ietf:params:acme:error:unauthorized: Invalid response from http://shop.example.com/.well-known/acme-challenge/x2Kf9: 403',
          30,
        ),
      ],
    };
    const { text } = await jsonCase(world, 'edge', 'certificate shop-tls is not renewing', [
      'tls_renewal_failed',
    ]);
    expect(text).toMatch(/shop-tls/);
    expect(text).toMatch(/acme: authorization error for shop\.example\.com: 403/);
  });
});

describe('ResourceQuota / LimitRange', () => {
  const world = (message: string): TextWorld => ({
    tables: {
      deployment: `NAME      READY   UP-TO-DATE   AVAILABLE   AGE
reports   0/2     0            0            9m`,
      pod: '',
    },
    describe: {},
    events: eventsTable([
      ['10s', 'Warning', 'FailedCreate', 'replicaset/reports-6c5d4e3f2', message],
      [
        '9m',
        'Normal',
        'ScalingReplicaSet',
        'deployment/reports',
        'Scaled up replica set reports-6c5d4e3f2 to 2',
      ],
    ]),
  });

  it('quota exceeded', async () => {
    const { text } = await textCase(
      world(
        'Error creating: pods "reports-6c5d4e3f2-7mqkz" is forbidden: exceeded quota: team-quota, requested: limits.memory=2Gi, used: limits.memory=15Gi, limited: limits.memory=16Gi',
      ),
      'analytics',
      'reports deployment has no pods',
      ['quota_exceeded'],
    );
    expect(text).toMatch(/reports/);
    expect(text).toMatch(/team-quota/);
    expect(text).toMatch(/limited: limits\.memory=16Gi/);
  });

  it('LimitRange maximum', async () => {
    const { text } = await textCase(
      world(
        'Error creating: pods "reports-6c5d4e3f2-7mqkz" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi',
      ),
      'analytics',
      'reports deployment has no pods',
      ['limitrange_rejected'],
    );
    expect(text).toMatch(/reports/);
    expect(text).toMatch(/maximum memory usage per Container is 1Gi, but limit is 2Gi/);
  });
});

describe('HPA at max and CPU throttling', () => {
  it('HPA at maxReplicas (ScalingLimited TooManyReplicas)', async () => {
    const world: JsonWorld = {
      objects: [
        deployment('api', 'shop', 'registry.example.com/shop/api:2.7.0', 10, 10),
        pod({
          name: 'api-7c9d8b7f6-x2x4z',
          ns: 'shop',
          app: 'api',
          image: 'registry.example.com/shop/api:2.7.0',
          node: 'worker-1',
          state: { running: { startedAt: ago(300) } },
          ready: true,
          limits: { cpu: '500m' },
          requests: { cpu: '250m' },
        }),
        {
          apiVersion: 'autoscaling/v2',
          kind: 'HorizontalPodAutoscaler',
          metadata: { name: 'api', namespace: 'shop' },
          spec: {
            scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
            minReplicas: 2,
            maxReplicas: 10,
            metrics: [
              {
                type: 'Resource',
                resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } },
              },
            ],
          },
          status: {
            currentReplicas: 10,
            desiredReplicas: 10,
            currentMetrics: [
              {
                type: 'Resource',
                resource: {
                  name: 'cpu',
                  current: { averageUtilization: 142, averageValue: '355m' },
                },
              },
            ],
            conditions: [
              {
                type: 'AbleToScale',
                status: 'True',
                reason: 'ReadyForNewScale',
                message: 'recommended size matches current size',
              },
              {
                type: 'ScalingActive',
                status: 'True',
                reason: 'ValidMetricFound',
                message:
                  'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
              },
              {
                type: 'ScalingLimited',
                status: 'True',
                reason: 'TooManyReplicas',
                message: 'the desired replica count is more than the maximum replica count',
                lastTransitionTime: ago(25),
              },
            ],
          },
        },
      ],
    };
    const { text } = await jsonCase(world, 'shop', 'api latency is high under load', ['hpa_maxed']);
    expect(text).toMatch(/\bapi\b/);
    expect(text).toMatch(/maximum \(10 replicas\)|maxReplicas/);
    expect(text).toMatch(
      /desired replica count is more than the maximum replica count|TooManyReplicas/,
    );
  });
});

describe('CPU throttling', () => {
  it('a firing CPUThrottlingHigh alert (Prometheus alerts API) names the pod of the subject', async () => {
    const alerts = {
      status: 'success',
      data: {
        alerts: [
          {
            labels: {
              alertname: 'CPUThrottlingHigh',
              container: 'api',
              namespace: 'shop',
              pod: 'api-7c9d8b7f6-x2x4z',
              severity: 'info',
            },
            annotations: {
              description:
                '65.3% throttling of CPU in namespace shop for container api in pod api-7c9d8b7f6-x2x4z.',
              runbook_url:
                'https://runbooks.prometheus-operator.dev/runbooks/kubernetes/cputhrottlinghigh',
              summary: 'Processes experience elevated CPU throttling.',
            },
            state: 'firing',
            activeAt: ago(20),
            value: '6.53e-01',
          },
        ],
      },
    };
    const world: JsonWorld = {
      objects: [
        deployment('api', 'shop', 'registry.example.com/shop/api:2.7.0', 2, 2),
        pod({
          name: 'api-7c9d8b7f6-x2x4z',
          ns: 'shop',
          app: 'api',
          image: 'registry.example.com/shop/api:2.7.0',
          node: 'worker-1',
          state: { running: { startedAt: ago(300) } },
          ready: true,
          limits: { cpu: '500m', memory: '512Mi' },
          requests: { cpu: '250m' },
        }),
      ],
    };
    const { findings } = findingsOf([...jsonOutputs(world, 'shop'), { output: alerts }]);
    expect(ids(findings)).toContain('cpu_throttled');
    const tools = [
      ...jsonTools(world),
      {
        name: 'alerts_active',
        server: 'prom',
        description: 'Active Prometheus alerts',
        properties: {},
        handler: () => alerts,
      },
    ];
    const { result } = await investigate(tools, 'api is slow', {
      namespace: 'shop',
      service: 'api',
    });
    const text = conclusion(result);
    expect(text).toMatch(/\bapi\b.*CPU-throttled/);
    expect(text).toMatch(/limit of 500m/);
    expect(text).toMatch(/65\.3% throttling of CPU/);
  });
});

describe('node NotReady', () => {
  it('the node stopped posting status; its pods are on it', async () => {
    const name = 'ledger-0';
    const world: TextWorld = {
      tables: {
        pod: podsTable([[name, '1/1', 'Terminating', '0', '5d', 'worker-3']]),
        node: `NAME       STATUS     ROLES           AGE   VERSION
cp-1       Ready      control-plane   40d   v1.30.2
worker-1   Ready      <none>          40d   v1.30.2
worker-3   NotReady   <none>          40d   v1.30.2`,
      },
      describe: {
        'node/worker-3': `Name:               worker-3
Roles:              <none>
Labels:             kubernetes.io/arch=amd64
                    kubernetes.io/hostname=worker-3
                    kubernetes.io/os=linux
Annotations:        node.alpha.kubernetes.io/ttl: 0
CreationTimestamp:  Mon, 02 Feb 2026 08:21:47 +0000
Taints:             node.kubernetes.io/unreachable:NoExecute
                    node.kubernetes.io/unreachable:NoSchedule
Unschedulable:      false
Conditions:
  Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason              Message
  ----             ------    -----------------                 ------------------                ------              -------
  MemoryPressure   Unknown   ${kubeTime(29)}   ${kubeTime(28)}   NodeStatusUnknown   Kubelet stopped posting node status.
  DiskPressure     Unknown   ${kubeTime(29)}   ${kubeTime(28)}   NodeStatusUnknown   Kubelet stopped posting node status.
  PIDPressure      Unknown   ${kubeTime(29)}   ${kubeTime(28)}   NodeStatusUnknown   Kubelet stopped posting node status.
  Ready            Unknown   ${kubeTime(29)}   ${kubeTime(28)}   NodeStatusUnknown   Kubelet stopped posting node status.
Events:
  Type    Reason        Age   From             Message
  ----    ------        ----  ----             -------
  Normal  NodeNotReady  28m   node-controller  Node worker-3 status is now: NodeNotReady
`,
      },
    };
    const { text, result } = await textCase(world, 'ledger', 'what is wrong with node worker-3?', [
      'node_not_ready',
    ]);
    expect(text).toMatch(/worker-3/);
    expect(text).toMatch(/Kubelet stopped posting node status|NodeNotReady/);
    expect(result.affected_systems).toContain('worker-3');
  });
});

describe('a change to the subject shortly before the first error', () => {
  const world = (rolloutMinutesAgo: number): JsonWorld => {
    const rs = (hash: string, image: string, created: number, rev: string) => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `catalog-${hash}`,
        namespace: 'shop',
        creationTimestamp: ago(created),
        labels: { app: 'catalog', 'pod-template-hash': hash },
        annotations: { 'deployment.kubernetes.io/revision': rev },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'catalog' }],
      },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'catalog', image }] } } },
      status: { replicas: 2, readyReplicas: 0 },
    });
    return {
      objects: [
        deployment('catalog', 'shop', 'registry.example.com/shop/catalog:5.2.0', 2, 0),
        rs('5b6c7d8e9', 'registry.example.com/shop/catalog:5.1.4', 60 * 24 * 20, '11'),
        rs('9f8e7d6c5', 'registry.example.com/shop/catalog:5.2.0', rolloutMinutesAgo, '12'),
        pod({
          name: 'catalog-9f8e7d6c5-a1b2c',
          ns: 'shop',
          app: 'catalog',
          image: 'registry.example.com/shop/catalog:5.2.0',
          node: 'worker-2',
          ...crashLoop(3, 'Error', 2),
        }),
      ],
      events: [
        kubeEvent(
          'shop',
          { kind: 'Deployment', name: 'catalog' },
          'Normal',
          'ScalingReplicaSet',
          'Scaled up replica set catalog-9f8e7d6c5 to 2',
          rolloutMinutesAgo,
        ),
        kubeEvent(
          'shop',
          { kind: 'Pod', name: 'catalog-9f8e7d6c5-a1b2c' },
          'Warning',
          'BackOff',
          'Back-off restarting failed container catalog in pod catalog-9f8e7d6c5-a1b2c_shop(9a8b7c6d)',
          Math.max(1, rolloutMinutesAgo - 2),
          1,
          20,
        ),
      ],
      previous: {
        'catalog-9f8e7d6c5-a1b2c': `${ago(2.1)} INFO catalog 5.2.0 starting\n${ago(2)} INFO shutting down`,
      },
    };
  };

  it('a rollout minutes before the crashes is named as the likely cause', async () => {
    const { text } = await jsonCase(world(12), 'shop', 'catalog is crashing', ['crash_loop']);
    expect(text).toMatch(/catalog/);
    expect(text).toMatch(/catalog:5\.2\.0/);
    expect(text).toMatch(/roll(?:out| .* back)/);
  });

  it('a rollout days before the first error is not blamed', async () => {
    const w = world(3 * 24 * 60);
    const { text } = await jsonCase(w, 'shop', 'catalog is crashing', ['crash_loop']);
    expect(text).toMatch(/catalog/);
    expect(text).not.toMatch(/likely cause is the change|roll catalog back/);
  });
});

describe('healthy', () => {
  it('healthy half an hour after its own rollout: no "recent deploy" alarm', async () => {
    const world: JsonWorld = {
      objects: [
        deployment('cart', 'shop', 'registry.example.com/shop/cart:3.0.2', 2, 2),
        ...['abcde', 'fghij'].map((s) =>
          pod({
            name: `cart-5c8d7b9f4-${s}`,
            ns: 'shop',
            app: 'cart',
            image: 'registry.example.com/shop/cart:3.0.2',
            node: 'worker-1',
            state: { running: { startedAt: ago(25) } },
            ready: true,
          }),
        ),
      ],
      events: [
        kubeEvent(
          'shop',
          { kind: 'Deployment', name: 'cart' },
          'Normal',
          'ScalingReplicaSet',
          'Scaled up replica set cart-5c8d7b9f4 to 2',
          26,
        ),
      ],
      logs: { 'cart-5c8d7b9f4-abcde': `${ago(2)} INFO GET /cart/42 200 3ms` },
    };
    const { result } = await investigate(jsonTools(world), 'Is cart healthy?', {
      namespace: 'shop',
    });
    expect(result.summary).toMatch(/No problem found/);
    expect(result.root_cause.confidence).toBeLessThanOrEqual(30);
    expect(conclusion(result)).not.toMatch(/roll(?:out|ed|back)|deploy/i);
  });

  it('a healthy service: "No problem found" with low confidence', async () => {
    const world: TextWorld = {
      tables: {
        pod: podsTable([
          ['cart-5c8d7b9f4-abcde', '1/1', 'Running', '0', '3d', 'worker-1'],
          ['cart-5c8d7b9f4-fghij', '1/1', 'Running', '0', '3d', 'worker-2'],
        ]),
        deployment: `NAME   READY   UP-TO-DATE   AVAILABLE   AGE
cart   2/2     2            2           30d`,
      },
      describe: {
        'pod/cart-5c8d7b9f4-abcde': describePod({
          name: 'cart-5c8d7b9f4-abcde',
          namespace: 'shop',
          node: 'worker-1',
          labels: ['app=cart', 'pod-template-hash=5c8d7b9f4'],
          controlledBy: 'ReplicaSet/cart-5c8d7b9f4',
          status: 'Running',
          container: {
            name: 'cart',
            image: 'registry.example.com/shop/cart:3.0.1',
            port: '8080/TCP',
            state: ['Running', `Started:      ${kubeTime(3 * 24 * 60)}`],
            ready: true,
            limits: { memory: '512Mi' },
          },
          conditions: [
            ['Initialized', 'True'],
            ['Ready', 'True'],
            ['ContainersReady', 'True'],
            ['PodScheduled', 'True'],
          ],
        }),
      },
      events: eventsTable([
        [
          '3d',
          'Normal',
          'ScalingReplicaSet',
          'deployment/cart',
          'Scaled up replica set cart-5c8d7b9f4 to 2',
        ],
      ]),
      logs: {
        'cart-5c8d7b9f4-abcde': `${ago(2)} INFO GET /cart/42 200 4ms\n${ago(1)} INFO GET /cart/43 200 3ms`,
      },
    };
    const { findings } = findingsOf(textOutputs(world, 'shop'));
    expect(findings).toEqual([]);
    const { result } = await investigate(textTools(world), 'Is anything wrong with cart?', {
      namespace: 'shop',
    });
    expect(result.summary).toMatch(/No problem found/);
    expect(result.root_cause.confidence).toBeLessThanOrEqual(30);
    expect(result.summary).not.toMatch(/rollout|deploy/i);
  });
});

describe('a third vocabulary: YAML objects, tables with KIND columns, YAML event lists', () => {
  const yamlPod = (
    name: string,
    app: string,
    status: Record<string, unknown>,
    spec: Record<string, unknown> = {},
  ) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      creationTimestamp: ago(30),
      labels: { app, 'pod-template-hash': name.split('-').slice(-2, -1)[0] },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: name.split('-').slice(0, -1).join('-') },
      ],
    },
    spec: { containers: [{ name: app, image: `registry.example.com/shop/${app}:1.0.0` }], ...spec },
    status,
  });

  it('CreateContainerConfigError: missing key, asked as "What is the issue with orders?"', async () => {
    const msg = "couldn't find key db-url in Secret shop/orders-db";
    const w: JsonWorld = {
      objects: [
        yamlPod(
          'orders-5f6d7c8b9-p4q5r',
          'orders',
          {
            phase: 'Pending',
            containerStatuses: [
              {
                name: 'orders',
                ready: false,
                restartCount: 0,
                state: { waiting: { reason: 'CreateContainerConfigError', message: msg } },
              },
            ],
          },
          { nodeName: 'worker-1' },
        ),
      ],
      events: [
        kubeEvent(
          'shop',
          { kind: 'Pod', name: 'orders-5f6d7c8b9-p4q5r' },
          'Warning',
          'Failed',
          `Error: ${msg}`,
          6,
          1,
          26,
        ),
      ],
    };
    const { result } = await investigate(yamlTools(w), 'What is the issue with orders?', {
      namespace: 'shop',
    });
    const text = conclusion(result);
    expect(text).toMatch(/orders/);
    expect(text).toMatch(/key "db-url" is missing from Secret shop\/orders-db/);
  });

  it('Pending: untolerated taint, from the PodScheduled condition and the event list', async () => {
    const msg =
      '0/3 nodes are available: 3 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
    const w: JsonWorld = {
      objects: [
        yamlPod('search-8d7c6b5a4-z9y8x', 'search', {
          phase: 'Pending',
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              reason: 'Unschedulable',
              message: msg,
              lastTransitionTime: ago(8),
            },
          ],
        }),
      ],
      events: [
        kubeEvent(
          'shop',
          { kind: 'Pod', name: 'search-8d7c6b5a4-z9y8x' },
          'Warning',
          'FailedScheduling',
          msg,
          8,
          2,
          4,
        ),
      ],
    };
    const { result } = await investigate(yamlTools(w), 'Why is search not running?', {
      namespace: 'shop',
    });
    const text = conclusion(result);
    expect(text).toMatch(/search stays Pending/);
    expect(text).toMatch(/dedicated: gpu/);
  });

  it('probe on the wrong port: not also blamed on a "dependency" refusing connections', async () => {
    const w: JsonWorld = {
      objects: [
        yamlPod(
          'web-6d4cf56db6-2xk9p',
          'web',
          {
            phase: 'Running',
            containerStatuses: [
              {
                name: 'web',
                ready: false,
                restartCount: 5,
                state: { running: { startedAt: ago(0.5) } },
                lastState: {
                  terminated: { exitCode: 0, reason: 'Completed', finishedAt: ago(0.6) },
                },
              },
            ],
          },
          {
            nodeName: 'worker-1',
            containers: [
              {
                name: 'web',
                image: 'registry.example.com/shop/web:1.12.0',
                ports: [{ containerPort: 8080, protocol: 'TCP' }],
                livenessProbe: {
                  httpGet: { path: '/healthz', port: 8081, scheme: 'HTTP' },
                  initialDelaySeconds: 10,
                  periodSeconds: 10,
                },
              },
            ],
          },
        ),
      ],
      events: [
        kubeEvent(
          'shop',
          { kind: 'Pod', name: 'web-6d4cf56db6-2xk9p' },
          'Warning',
          'Unhealthy',
          'Liveness probe failed: Get "http://10.244.1.5:8081/healthz": dial tcp 10.244.1.5:8081: connect: connection refused',
          12,
          0.5,
          15,
        ),
        kubeEvent(
          'shop',
          { kind: 'Pod', name: 'web-6d4cf56db6-2xk9p' },
          'Normal',
          'Killing',
          'Container web failed liveness probe, will be restarted',
          11,
          0.5,
          5,
        ),
      ],
    };
    const { result } = await investigate(yamlTools(w), 'web keeps restarting', {
      namespace: 'shop',
    });
    const text = conclusion(result);
    expect(text).toMatch(/web's Liveness probe fails with connection refused/);
    expect(text).toMatch(/8081/);
    expect(text).not.toMatch(/dependency refuses/);
  });
});

// ------------------------------------------------------------------------------------------------
// running and ready, and still failing: the errors are only in the logs

const ready = { running: { startedAt: ago(50) } };
const service = (name: string, ns: string) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 30) },
  spec: { selector: { app: name }, ports: [{ port: 8080 }], clusterIP: '10.96.12.7' },
});

describe('a workload whose pods are ready but whose requests fail', () => {
  const apiPod = 'accounts-api-7c9d8f6b5-q2w4e';
  const world = (log: string): JsonWorld => ({
    objects: [
      deployment('accounts-api', 'accounts', 'registry.example.com/accounts-api:3.5.0', 1, 1),
      pod({
        name: apiPod,
        ns: 'accounts',
        app: 'accounts-api',
        image: 'registry.example.com/accounts-api:3.5.0',
        node: 'worker-1',
        ready: true,
        state: ready,
      }),
    ],
    logs: { [apiPod]: log },
  });

  it('the same error record repeated is a finding, with its count and first time', async () => {
    const line = (min: number, user: number) =>
      `{"time":"${ago(min)}","level":"ERROR","msg":"GET /v1/profile failed","status":500,"error":"ERROR: column users.locale does not exist (SQLSTATE 42703)","user_id":${user}}`;
    const log = [
      `{"time":"${ago(30)}","level":"INFO","msg":"started"}`,
      line(20, 1),
      `{"time":"${ago(19)}","level":"INFO","msg":"GET /ready","status":200}`,
      line(10, 2),
      line(2, 3),
    ].join('\n');
    const { text, findings } = await jsonCase(world(log), 'accounts', 'profile page errors', [
      'app_errors',
    ]);
    const f = findings.find((x) => x.entry.id === 'app_errors')!;
    expect(f.groups['count']).toBe('3');
    expect(f.groups['since']).toBe(new Date(Date.parse(ago(20))).toISOString());
    expect(text).toMatch(/accounts-api/);
    expect(text).toMatch(/column users\.locale does not exist/);
  });

  it('two errors, or errors of more than an hour ago, are not a failure', () => {
    const line = (min: number) =>
      `level=error msg="cache refresh failed" err="context canceled" at=${ago(min)}`;
    const fewer = findingsOf(jsonOutputs(world([line(5), line(3)].join('\n')), 'accounts'));
    expect(ids(fewer.findings)).not.toContain('app_errors');
    const old = [90, 80, 70].map((m) => `${ago(m)} ERROR cache refresh failed: context canceled`);
    const model = findingsOf(jsonOutputs(world(old.join('\n')), 'accounts')).model;
    expect(ids(findFindings(model, compile(CAUSE_CATALOG), NOW))).not.toContain('app_errors');
    expect(ids(findFindings(model, compile(CAUSE_CATALOG), Date.parse(ago(75))))).toContain(
      'app_errors',
    );
  });

  it('a healthy service with an occasional error is still healthy', async () => {
    const log = [
      `${ago(40)} INFO request path=/v1/profile status=200`,
      `${ago(30)} ERROR upstream reset by peer`,
      `${ago(20)} INFO request path=/v1/profile status=200`,
    ].join('\n');
    const out = await investigate(jsonTools(world(log)), 'is accounts-api ok?', {
      namespace: 'accounts',
    });
    expect(conclusion(out.result)).toMatch(/No problem found/);
  });
});

describe('the failing call names a dependency: its own failure is the cause', () => {
  const front = 'web-frontend-5d6f7c8b9-abcde';
  const pay = 'payments-api-6c7d8e9f1-fghij';
  const world: JsonWorld = {
    objects: [
      deployment('web-frontend', 'web', 'registry.example.com/web-frontend:2.0.1', 1, 1),
      pod({
        name: front,
        ns: 'web',
        app: 'web-frontend',
        image: 'registry.example.com/web-frontend:2.0.1',
        node: 'worker-1',
        ready: true,
        state: ready,
      }),
      service('web-frontend', 'web'),
      deployment('payments-api', 'payments', 'registry.example.com/payments-api:4.2.0', 1, 1),
      pod({
        name: pay,
        ns: 'payments',
        app: 'payments-api',
        image: 'registry.example.com/payments-api:4.2.0',
        node: 'worker-2',
        ready: true,
        state: ready,
      }),
      service('payments-api', 'payments'),
    ],
    logs: {
      [front]: [6, 4, 2]
        .map(
          (m) =>
            `{"level":30,"time":"${ago(m)}","msg":"upstream error","upstream":"http://payments-api.payments.svc:8080/v1/charges","status":502}`,
        )
        .join('\n'),
      [pay]: [7, 5, 3]
        .map(
          (m) =>
            `ts=${ago(m)} level=error msg="charge failed" err="failed to connect to \`host=payments-db.payments.svc user=payments\`: server error (FATAL: sorry, too many clients already (SQLSTATE 53300))"`,
        )
        .join('\n'),
    },
  };

  it('names the dependency from the Service DNS name in the failing lines', () => {
    const { model } = findingsOf(jsonOutputs(world, 'web'));
    const deps = failingDependencies(model, new Set(['web-frontend']), 'web');
    expect(deps.map((d) => [d.host, d.workload?.name, d.namespace])).toEqual([
      ['payments-api', 'payments-api', 'payments'],
    ]);
  });

  it('the engine reads the dependency and concludes on its error', async () => {
    const out = await investigate(jsonTools(world), 'web-frontend returns 502 on checkout', {
      namespace: 'web',
      service: 'web-frontend',
    });
    const text = conclusion(out.result);
    expect(text).toMatch(/payments-api/);
    expect(text).toMatch(/too many clients already/);
    expect(text).not.toMatch(/No problem found/);
  });
});

describe('more facts the logs and listings carry', () => {
  it('"connection refused" without a host takes the host the app was connecting to', () => {
    const name = 'mailer-6f7d8c9b5-kzmv9';
    const log = [
      `${ago(3)} INFO connecting to amqp://mailer@rabbitmq.messaging.svc.cluster.local:5672/notifications`,
      `${ago(2)} WARNING Connection workflow failed: ConnectionRefusedError(111, 'Connection refused')`,
    ].join('\n');
    const { findings } = findingsOf([
      { output: log, ctx: { pod: name, namespace: 'notifications', verb: 'logs' } },
    ]);
    const f = findings.find((x) => x.entry.id === 'dependency_refused')!;
    expect(f.groups['host']).toBe('rabbitmq.messaging.svc.cluster.local:5672');
  });

  it('a log timestamp is never taken for a host:port', () => {
    const { findings } = findingsOf([
      {
        output: `${ago(2)} WARNING connect failed: Connection refused`,
        ctx: { pod: 'mailer-6f7d8c9b5-kzmv9', namespace: 'n', verb: 'logs' },
      },
    ]);
    const f = findings.find((x) => x.entry.id === 'dependency_refused')!;
    expect(Object.values(f.groups).join(' ')).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('an OOMKilled sidecar is named with its own limit', () => {
    const p = pod({
      name: 'orders-api-5f6d7c8b9-x1y2z',
      ns: 'orders',
      app: 'orders-api',
      image: 'registry.example.com/orders-api:1.4.0',
      limits: { memory: '512Mi' },
      state: ready,
      ready: true,
    });
    const spec = p['spec'] as { containers: Record<string, unknown>[] };
    spec.containers.push({
      name: 'log-forwarder',
      image: 'fluent/fluent-bit:3.1.9',
      resources: { limits: { memory: '64Mi' } },
    });
    const status = p['status'] as { containerStatuses: Record<string, unknown>[] };
    status.containerStatuses.push({
      name: 'log-forwarder',
      image: 'fluent/fluent-bit:3.1.9',
      ready: false,
      restartCount: 4,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: {
        terminated: { reason: 'OOMKilled', exitCode: 137, finishedAt: ago(2) },
      },
    });
    const { findings } = findingsOf([{ output: p, ctx: { namespace: 'orders', verb: 'get' } }]);
    const f = findings.find((x) => x.entry.id === 'oom_killed')!;
    expect(f.groups['container']).toBe('log-forwarder');
  });

  it('a search that answers rows of any kind keeps each row its own kind', () => {
    const { model } = findingsOf([
      {
        output: {
          matches: [
            { kind: 'Pod', namespace: 'billing', name: 'nightly-reconcile-29401410-k62l2' },
            { kind: 'Job', namespace: 'billing', name: 'nightly-reconcile-29401410' },
          ],
        },
        ctx: { namespace: 'billing', verb: 'find' },
      },
    ]);
    expect(model.get('pod', 'nightly-reconcile-29401410-k62l2', 'billing')).toBeDefined();
    expect(model.get('job', 'nightly-reconcile-29401410', 'billing')).toBeDefined();
    // a Job's pods are <job>-<5 characters>, also when a listing shows no owner
    expect(model.podsOf('job', 'nightly-reconcile-29401410', 'billing').map((p) => p.name)).toEqual(
      ['nightly-reconcile-29401410-k62l2'],
    );
  });
});

/** One running pod `p-5f6d7c8b9-x1y2z` of namespace n, and the lines it logged, read. */
const podWithLog = (lines: string[]) =>
  findingsOf([
    {
      output: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p-5f6d7c8b9-x1y2z', namespace: 'n', creationTimestamp: ago(60) },
        spec: { containers: [{ name: 'p', image: 'p:1' }] },
        status: { phase: 'Running' },
      },
      ctx: { namespace: 'n', verb: 'get' },
    },
    { output: lines.join('\n'), ctx: { pod: 'p-5f6d7c8b9-x1y2z', namespace: 'n', verb: 'logs' } },
  ]);

describe('what counts as an error record', () => {
  const count = (lines: string[]) =>
    podWithLog(lines).findings.filter((f) => f.entry.id === 'app_errors').length;
  it.each([
    [
      'a warning that mentions an error',
      (m: number) =>
        `[${ago(m)}] WARN [SocketServer] Unexpected error from /10.0.0.7; closing connection`,
      0,
    ],
    ['an info line about errors', (m: number) => `${ago(m)} INFO retried 2 errors, all ok`, 0],
    [
      'a PostgreSQL ERROR',
      (m: number) => `${ago(m)} UTC [3121] ERROR:  column users.locale does not exist`,
      1,
    ],
    [
      'klog E',
      (m: number) => `E1125 10:0${m}:00.000000       1 reflector.go:138] failed to list pods`,
      1,
    ],
    ['pino level 50', (m: number) => `{"level":50,"time":"${ago(m)}","msg":"charge failed"}`, 1],
  ])('%s', (_, line, expected) => {
    expect(count([line(5), line(4), line(3)])).toBe(expected);
  });
});

describe('the message of a repeated error', () => {
  const appError = (lines: string[]) =>
    podWithLog(lines).findings.find((f) => f.entry.id === 'app_errors');

  it('takes an error object as pino serializes it (type, message, code)', () => {
    const line = (m: number) =>
      `{"level":50,"time":"${ago(m)}","err":{"type":"DatabaseError","message":"cannot execute UPDATE in a read-only transaction","code":"25006"},"msg":"profile update failed"}`;
    expect(appError([line(9), line(6), line(3)])?.fact).toBe(
      'profile update failed: DatabaseError: cannot execute UPDATE in a read-only transaction (25006)',
    );
  });

  it('adds the root cause a Java trace names last', () => {
    const record = (m: number) => [
      `${ago(m)} ERROR 1 --- [exec-1] c.a.History : request failed`,
      'org.springframework.jdbc.CannotGetJdbcConnectionException: Failed to obtain JDBC Connection',
      '\tat org.springframework.jdbc.datasource.DataSourceUtils.getConnection(DataSourceUtils.java:84)',
      'Caused by: java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30000ms (total=20, active=20, idle=0, waiting=31)',
      '\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:696)',
    ];
    const f = appError([...record(9), ...record(6), ...record(3)]);
    expect(f?.fact).toMatch(/^org\.springframework\.jdbc\.CannotGetJdbcConnectionException/);
    expect(f?.fact).toMatch(/Caused by: java\.sql\.SQLTransientConnectionException: HikariPool-1/);
  });

  it('is current while its last record is recent, however long ago it began', async () => {
    const line = (m: number) =>
      `ts=${ago(m)} level=error msg="session store write failed" err="OOM command not allowed when used memory > 'maxmemory'."`;
    const world: JsonWorld = {
      objects: [
        deployment('login-api', 'auth', 'login-api:1.0.0', 1, 1),
        pod_('login-api-6d7f8c9b5-k2j9x'),
      ],
      logs: { 'login-api-6d7f8c9b5-k2j9x': [50, 40, 30, 20, 10, 2].map(line).join('\n') },
    };
    const out = await investigate(
      jsonTools(world),
      'login success rate dropped for the login service',
      {
        namespace: 'auth',
      },
    );
    expect(conclusion(out.result)).toMatch(/maxmemory/);
  });
});

function pod_(name: string) {
  return pod({
    name,
    ns: 'auth',
    app: 'login-api',
    image: 'login-api:1.0.0',
    node: 'worker-1',
    ready: true,
    state: { running: { startedAt: ago(120) } },
  });
}

describe('a called server and a question about a time window', () => {
  it("an expired certificate on a URL the app calls is that server's, not the cluster's", () => {
    const { findings } = findingsOf([
      {
        output: `time=${ago(2)} level=error msg="rate request failed" err="Post \\"https://api.carrier.example.com/v2/rates\\": tls: failed to verify certificate: x509: certificate has expired or is not yet valid"`,
        ctx: { pod: 'quotes-5f6d7c8b9-x1y2z', namespace: 'shop', verb: 'logs' },
      },
    ]);
    const f = findings.find((x) => x.entry.id === 'tls_remote_expired');
    expect(f?.groups['host']).toBe('api.carrier.example.com');
  });

  it('"which pods restarted in the last hour" leaves out a restart of two days ago', async () => {
    const world: TextWorld = {
      tables: {
        pod: podsTable([
          ['checkout-api-5f6d7c8b9-a1b2c', '1/1', 'Running', '2 (20m ago)', '3d', 'worker-1'],
          ['tax-calc-7c8d9e6f5-d4e5f', '1/1', 'Running', '1 (2d ago)', '5d', 'worker-2'],
        ]),
      },
      describe: {},
    };
    const out = await investigate(textTools(world), 'which pods restarted in the last hour?', {
      namespace: 'checkout',
    });
    const text = conclusion(out.result);
    expect(text).toMatch(/checkout-api-5f6d7c8b9-a1b2c/);
    expect(text).not.toMatch(/tax-calc-7c8d9e6f5-d4e5f/);
  });
});

describe('questions about replicas and versions', () => {
  const world: JsonWorld = {
    objects: [
      deployment('search-api', 'search', 'registry.example.com/search-api:5.1.0', 5, 3),
      pod({
        name: 'search-api-6c7d8e9f1-aaaaa',
        ns: 'search',
        app: 'search-api',
        image: 'registry.example.com/search-api:5.1.0',
        node: 'worker-1',
        ready: true,
        state: { running: { startedAt: ago(120) } },
      }),
    ],
  };
  it('"how many replicas are unavailable" counts desired against available', async () => {
    const out = await investigate(
      jsonTools(world),
      'how many replicas of search-api are unavailable right now?',
      { namespace: 'search' },
    );
    expect(conclusion(out.result)).toMatch(/2 of 5 replicas unavailable \(3\/5 available\)/);
  });

  it('"which version runs in prod vs staging" answers for both environments', async () => {
    const env = (ns: string, tag: string, name: string) => [
      deployment('api-gateway', ns, `registry.example.com/api-gateway:${tag}`, 1, 1),
      pod({
        name,
        ns,
        app: 'api-gateway',
        image: `registry.example.com/api-gateway:${tag}`,
        node: 'worker-1',
        ready: true,
        state: { running: { startedAt: ago(120) } },
      }),
    ];
    const two: JsonWorld = {
      objects: [
        ...env('prod', '2.3.1', 'api-gateway-5f6d7c8b9-p1p1p'),
        ...env('staging', '2.4.0', 'api-gateway-7c8d9e6f5-s1s1s'),
      ],
    };
    const out = await investigate(
      jsonTools(two),
      'what version of api-gateway is running in prod vs staging?',
    );
    const text = conclusion(out.result);
    expect(text).toMatch(/2\.3\.1/);
    expect(text).toMatch(/2\.4\.0/);
  });
});

describe('a warning that keeps reporting an error value', () => {
  const count = (lines: string[]) =>
    findFindings(podWithLog(lines).model, compile(CAUSE_CATALOG), NOW).filter(
      (f) => f.entry.id === 'app_errors',
    );
  const warn = (m: number) =>
    `${ago(m)} WARN  [producer-network-thread] o.a.k.c.p.i.Sender - Got error produce response on topic-partition clicks-0, retrying. Error: NOT_ENOUGH_REPLICAS`;

  it('is a failure when sustained and still going on', () => {
    const f = count([12, 10, 8, 6, 4, 2].map(warn));
    expect(f).toHaveLength(1);
    expect(f[0]!.fact).toMatch(/NOT_ENOUGH_REPLICAS/);
  });
  it('is noise when rare, a minority of the records, or over', () => {
    expect(count([6, 4, 2].map(warn))).toHaveLength(0);
    const info = (m: number) => `${ago(m)} INFO flushed batch of 900 events`;
    const mixed = [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2].flatMap((m) => [info(m), warn(m)]);
    expect(count([...mixed, ...[1, 1, 1, 1, 1, 1].map(info)])).toHaveLength(0);
    expect(count([50, 45, 40, 35, 30, 25].map(warn))).toHaveLength(0);
  });
  it('an empty error value is none', () => {
    const line = (m: number) => `time=${ago(m)} level=warn msg="retry done" error=null`;
    expect(count([12, 10, 8, 6, 4, 2].map(line))).toHaveLength(0);
  });
});

describe('a healthy subject whose neighbour fails', () => {
  const ingestPod = 'clickstream-ingest-6d7f8c9b5-q8whk';
  const dashPod = 'dashboard-7c9d8b6f5-m2x7k';
  const running = { running: { startedAt: ago(300) } };
  const world = (ingestLog: string): JsonWorld => ({
    objects: [
      deployment('dashboard', 'analytics', 'dashboard:4.1.0', 1, 1),
      deployment('clickstream-ingest', 'analytics', 'clickstream-ingest:2.3.0', 1, 1),
      pod({
        name: dashPod,
        ns: 'analytics',
        app: 'dashboard',
        image: 'dashboard:4.1.0',
        node: 'worker-1',
        ready: true,
        state: running,
      }),
      pod({
        name: ingestPod,
        ns: 'analytics',
        app: 'clickstream-ingest',
        image: 'clickstream-ingest:2.3.0',
        node: 'worker-1',
        ready: true,
        state: running,
      }),
    ],
    logs: {
      [dashPod]: `${ago(5)} INFO GET /api/clicks status=200`,
      [ingestPod]: ingestLog,
    },
  });

  it('names the neighbour and says the subject itself looks healthy', async () => {
    const log = [20, 16, 12, 8, 4, 1]
      .map(
        (m) =>
          `${ago(m)} ERROR c.a.ingest.Publisher - publish to clicks failed: org.apache.kafka.common.errors.NotEnoughReplicasException: The size of the current ISR Set(0) is insufficient to satisfy the min.isr requirement of 2`,
      )
      .join('\n');
    const out = await investigate(
      jsonTools(world(log)),
      "the analytics dashboard hasn't shown new clicks for half an hour",
      {},
    );
    const text = conclusion(out.result);
    expect(text).toMatch(/clickstream-ingest/);
    expect(text).toMatch(/NotEnoughReplicas/);
    expect(text).toMatch(/Dashboard itself looks healthy/);
  });

  it('still finds no problem when the neighbours are healthy too', async () => {
    const out = await investigate(
      jsonTools(world(`${ago(3)} INFO flushed batch of 900 events to clicks`)),
      "the analytics dashboard hasn't shown new clicks for half an hour",
      {},
    );
    expect(conclusion(out.result)).toMatch(/^No problem found/);
  });
});

describe('failures named by their own words (catalog entries)', () => {
  const fromLog = (line: string) =>
    ids(
      findingsOf([
        { output: line, ctx: { pod: 'app-5f6d7c8b9-x1y2z', namespace: 'n', verb: 'logs' } },
      ]).findings,
    );
  const fromEvent = (reason: string, message: string, kind = 'Pod') =>
    ids(
      findingsOf([
        {
          output: {
            kind: 'EventList',
            items: [kubeEvent('n', { kind, name: 'app' }, 'Warning', reason, message, 5)],
          },
          ctx: { namespace: 'n', verb: 'events' },
        },
      ]).findings,
    );
  it.each([
    ['exec_format_error', 'exec /usr/local/bin/thumbnailer: exec format error'],
    [
      'too_many_open_files',
      `${ago(3)} ERROR Error: EMFILE: too many open files, open '/tmp/x.pdf'`,
    ],
    ['permission_denied_path', 'err="open /prometheus/queries.active: permission denied"'],
    ['java_deadlock', 'Found one Java-level deadlock:'],
  ])('%s from a log line', (id, line) => {
    expect(fromLog(line)).toContain(id);
  });
  it.each([
    [
      'image_pull_rate_limited',
      'Failed',
      'Failed to pull image "fluent/fluent-bit:3.1.9": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/fluent/fluent-bit/manifests/3.1.9: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.',
      'Pod',
    ],
    [
      'podsecurity_violation',
      'FailedCreate',
      'Error creating: pods "report-renderer-7d9f8b6c5-abcde" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false)',
      'ReplicaSet',
    ],
    [
      'admission_webhook_denied',
      'FailedCreate',
      'Error creating: admission webhook "validation.gatekeeper.sh" denied the request: [required-labels] you must provide labels: {"cost-center"}',
      'Job',
    ],
    [
      'hpa_metrics_unavailable',
      'FailedGetResourceMetric',
      'failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server is currently unable to handle the request (get pods.metrics.k8s.io)',
      'HorizontalPodAutoscaler',
    ],
    [
      'cronjob_forbid_active',
      'JobAlreadyActive',
      'Not starting job because prior execution is running and concurrency policy is Forbid',
      'CronJob',
    ],
  ])('%s from an event', (id, reason, message, kind) => {
    expect(fromEvent(reason, message, kind)).toContain(id);
  });
  it('a database deadlock between transactions is no process deadlock', () => {
    expect(fromLog(`${ago(2)} UTC [311] ERROR:  deadlock detected`)).not.toContain('java_deadlock');
  });
});

describe('a Service that selects no pod', () => {
  const svc = (selector: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'storefront', namespace: 'web', creationTimestamp: ago(600) },
    spec: { selector, ports: [{ port: 80, targetPort: 3000 }], clusterIP: '10.100.150.20' },
  });
  const podOf = (labels: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'storefront-6d7f8c9b5-k2j9x',
      namespace: 'web',
      labels,
      creationTimestamp: ago(30),
      ownerReferences: [{ kind: 'ReplicaSet', name: 'storefront-6d7f8c9b5' }],
    },
    spec: { containers: [{ name: 'web', image: 'storefront:2.0.0' }] },
    status: { phase: 'Running' },
  });
  const found = (selector: Record<string, string>, labels: Record<string, string>) =>
    findingsOf([
      { output: svc(selector), ctx: { namespace: 'web', verb: 'get' } },
      { output: podOf(labels), ctx: { namespace: 'web', verb: 'get' } },
    ]).findings.filter((f) => f.entry.id === 'service_selects_no_pod');

  it('is a cause when the pods of its workload carry other labels', () => {
    const f = found(
      { app: 'storefront', tier: 'frontend' },
      { 'app.kubernetes.io/name': 'storefront', 'pod-template-hash': '6d7f8c9b5' },
    );
    expect(f).toHaveLength(1);
    expect(f[0]!.groups['selector']).toBe('app=storefront,tier=frontend');
    expect(f[0]!.groups['labels']).toBe('app.kubernetes.io/name=storefront');
  });
  it('is none when a pod matches', () => {
    expect(found({ app: 'storefront' }, { app: 'storefront', tier: 'frontend' })).toHaveLength(0);
  });
});

describe('which pods logged a phrase', () => {
  const pods = [
    'gw-6d7f8c9b5-aaaaa',
    'gw-6d7f8c9b5-bbbbb',
    'gw-6d7f8c9b5-ccccc',
    'gw-6d7f8c9b5-ddddd',
  ];
  const world = (): JsonWorld => ({
    objects: [
      deployment('gw', 'edge', 'envoy:1.31', 4, 4),
      ...pods.map((name) =>
        pod({
          name,
          ns: 'edge',
          app: 'gw',
          image: 'envoy:1.31',
          node: 'worker-1',
          ready: true,
          state: { running: { startedAt: ago(300) } },
        }),
      ),
    ],
    logs: {
      [pods[0]!]: `${ago(100)} warn upstream connect error: connection reset by peer\n${ago(5)} info ok`,
      [pods[1]!]: `${ago(20)} warn upstream connect error: Connection reset by peer`,
      [pods[2]!]: `${ago(10)} info ok`,
      [pods[3]!]: `${ago(30)} warn upstream connect error: connection reset by peer\n${ago(3)} warn upstream connect error: connection reset by peer`,
    },
  });
  it('lists every pod that said it in the window, and only those', async () => {
    const out = await investigate(
      jsonTools(world()),
      "which gw pods logged 'connection reset by peer' in the last hour?",
      { namespace: 'edge' },
    );
    const text = conclusion(out.result);
    expect(text).toMatch(/2 of the 4 pod\(s\)/);
    expect(text).toContain(pods[1]!);
    expect(text).toContain(`${pods[3]!} (2 times`);
    expect(text).not.toContain(pods[0]!);
  });
});

describe('an Ingress that routes to a port its Service does not expose', () => {
  const objects = (port: number) => [
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'docs-site', namespace: 'docs', creationTimestamp: ago(600) },
      spec: {
        rules: [
          {
            host: 'docs.acme.io',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'docs-site', port: { number: port } } },
                },
              ],
            },
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'docs-site', namespace: 'docs', creationTimestamp: ago(600) },
      spec: {
        selector: { app: 'docs-site' },
        ports: [{ name: 'http', port: 80, targetPort: 8080 }],
      },
    },
  ];
  const found = (port: number) =>
    findingsOf(
      objects(port).map((output) => ({ output, ctx: { namespace: 'docs', verb: 'get' as const } })),
    ).findings.filter((f) => f.entry.id === 'ingress_backend_missing');
  it('is a cause, naming the port routed to and the ports there are', () => {
    const f = found(8080);
    expect(f).toHaveLength(1);
    expect(f[0]!.groups).toMatchObject({ service: 'docs-site', port: '8080', ports: '80 (http)' });
  });
  it('is none when the port exists', () => {
    expect(found(80)).toHaveLength(0);
  });
});

describe('a timeout whose trace names Java frames', () => {
  it('takes the host from the pool, never a class or a source file', () => {
    const lines = [
      `${ago(4)} WARN 1 --- [l-1 housekeeper] com.zaxxer.hikari.pool.HikariPool : HikariPool-1 - Pool is empty, failed to create/setup connection (host=orders-db:5432 -> orders-db.cluster-x.eu-west-1.rds.amazonaws.com/10.61.8.214:5432): Connect timed out after 10000ms`,
      'java.net.SocketTimeoutException: Connect timed out | at org.postgresql.core.PGStream.createSocket(PGStream.java:243)',
    ];
    const hosts = findingsOf(
      lines.map((output) => ({
        output,
        ctx: { pod: 'orders-api-5f6d7c8b9-x1y2z', namespace: 'orders', verb: 'logs' as const },
      })),
    )
      .findings.filter((f) => f.entry.id === 'dependency_timeout')
      .flatMap((f) => Object.values(f.groups));
    expect(hosts).toContain('orders-db:5432');
    expect(hosts.join(' ')).not.toMatch(/postgresql|PGStream/);
  });
});
