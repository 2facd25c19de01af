/**
 * The engine rules of round26 (r26a) (cause-catalog.data.ts, its "round26 (r26a)" block; their
 * variables in finding-vars-r26a.ts), one test per rule, each with a near miss: a client key
 * libpq refuses for its mode, a MySQL client without caching_sha2_password, a MySQL that refuses
 * a data directory a newer version upgraded, a Redis AOF it cannot load, an Erlang cluster that
 * refuses a node with another cookie.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  serviceObj,
  statefulSetObj,
  warningEvent,
  type ApiWorld,
  type Box,
} from './spec-world';

/** a container in CrashLoopBackOff after its last run exited `code` */
const crashing = (name: string, image: string, code = 1): Box => ({
  name,
  image,
  ready: false,
  restarts: 9,
  state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting ${name}` } },
  lastState: {
    terminated: { reason: 'Error', exitCode: code, startedAt: ago(4), finishedAt: ago(3) },
  },
});

/** a pod of a Deployment's ReplicaSet */
const rsPod = (app: string, hash: string, suffix: string, ns: string, box: Box, created = 30) =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    created,
    boxes: [box],
  });

const backOff = (ns: string, pod: string) =>
  warningEvent(
    ns,
    { kind: 'Pod', name: pod },
    'BackOff',
    `Back-off restarting failed container in pod ${pod}`,
    25,
    1,
    11,
  );

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

describe('round26 rules (r26a)', () => {
  it('libpq refusing a client key with group or world access: the answer says CrashLoopBackOff and the Secret volume mode; a key libpq cannot find: not this rule', async () => {
    const ns = 'billing';
    const world = (line: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        rsPod(
          'invoicer',
          '6f8d',
          'q1',
          ns,
          crashing('invoicer', 'registry.example/invoicer:2.3.0'),
        ),
      ],
      events: [backOff(ns, 'invoicer-6f8d-q1')],
      previous: {
        'invoicer-6f8d-q1': [
          'INFO connecting to billing-db:5432 (sslmode=verify-full)',
          `psycopg2.OperationalError: connection to server at "billing-db" (10.96.1.2), port 5432 failed: ${line}`,
        ].join('\n'),
      },
    });
    const ask = 'invoicer keeps crashing since the deploy, why?';
    const bad = await answer(
      world(
        'private key file "/etc/db-client/tls.key" has group or world access; file must have permissions u=rw (0600) or less if owned by the current user, or permissions u=rw,g=r (0640) or less if owned by root',
      ),
      ask,
      ns,
    );
    expect(bad).toContain('CrashLoopBackOff');
    expect(bad).toContain('has group or world access');
    expect(bad).toContain('defaultMode');
    const other = await answer(
      world('could not open certificate file "/etc/db-client/tls.crt": No such file or directory'),
      ask,
      ns,
    );
    expect(other).not.toContain('group or world access');
    expect(other).not.toContain('defaultMode');
  });

  it('ER_NOT_SUPPORTED_AUTH_MODE from a Node.js client: the answer names caching_sha2_password and the my.cnf of the database it points at; a MySQL access denied: not this rule', async () => {
    const ns = 'analytics';
    const world = (error: string): ApiWorld => {
      const pod = rsPod(
        'dash-api',
        '6c5f',
        'b4',
        ns,
        crashing('dash-api', 'registry.example/dash-api:3.4.2'),
      );
      const spec = pod['spec'] as { containers: Record<string, unknown>[] };
      spec.containers[0] = {
        ...spec.containers[0],
        env: [{ name: 'DB_HOST', value: 'dash-mysql.analytics.svc.cluster.local' }],
      };
      return {
        objects: [
          namespaceObj(ns),
          pod,
          ...statefulSetObj('dash-mysql', ns, 'bitnami/mysql:8.0.39', 1),
          serviceObj('dash-mysql', ns, { app: 'dash-mysql' }, 3306),
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'dash-mysql', namespace: ns, creationTimestamp: ago(600) },
            data: {
              'my.cnf':
                '[mysqld]\ndefault_authentication_plugin=caching_sha2_password\nport=3306\n',
            },
          },
        ],
        events: [backOff(ns, 'dash-api-6c5f-b4')],
        previous: {
          'dash-api-6c5f-b4': [
            'server starting',
            error,
            '    at Handshake.Sequence._packetToError (/app/node_modules/mysql/lib/protocol/sequences/Sequence.js:47:14)',
          ].join('\n'),
        },
      };
    };
    const ask = 'dash-api is crash looping after we moved it to the new database, why?';
    const bad = await answer(
      world(
        'Error: ER_NOT_SUPPORTED_AUTH_MODE: Client does not support authentication protocol requested by server; consider upgrading MySQL client',
      ),
      ask,
      ns,
    );
    expect(bad).toContain('ER_NOT_SUPPORTED_AUTH_MODE');
    expect(bad).toContain('caching_sha2_password');
    expect(bad).toContain('mysql_native_password');
    expect(bad).toContain(
      'default_authentication_plugin=caching_sha2_password in key my.cnf of ConfigMap dash-mysql',
    );
    const other = await answer(
      world(
        "Error: ER_ACCESS_DENIED_ERROR: Access denied for user 'dash'@'10.0.1.2' (using password: YES)",
      ),
      ask,
      ns,
    );
    expect(other).not.toContain('caching_sha2_password');
  });

  it('MySQL refusing a data directory built by a newer version, on a moving tag reused from the node: the answer names the versions, the tag and the cached image; an upgrade MySQL performs itself: not this rule', async () => {
    const ns = 'sales';
    const world = (line: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        rsPod('sales-mysql', '5d9c', 'v8', ns, crashing('mysql', 'mysql:8.0')),
      ],
      events: [
        backOff(ns, 'sales-mysql-5d9c-v8'),
        kubeEvent(
          ns,
          { kind: 'Pod', name: 'sales-mysql-5d9c-v8' },
          'Normal',
          'Pulled',
          'Container image "mysql:8.0" already present on machine',
          30,
          2,
          12,
        ),
      ],
      previous: {
        'sales-mysql-5d9c-v8': [
          '2026-03-10T11:57:01.905114Z 0 [System] [MY-010116] [Server] /usr/sbin/mysqld (mysqld 8.0.39) starting as process 1',
          line,
          '2026-03-10T11:57:03.221462Z 0 [ERROR] [MY-010119] [Server] Aborting',
        ].join('\n'),
      },
    });
    const ask = 'sales-mysql does not come back after the node drain, why?';
    const bad = await answer(
      world(
        '2026-03-10T11:57:02.220419Z 1 [ERROR] [MY-013171] [InnoDB] Cannot boot server version 80039 on data directory built by version 80040. Downgrade is not supported',
      ),
      ask,
      ns,
    );
    expect(bad).toContain('Downgrade is not supported');
    expect(bad).toContain('8.0.40');
    expect(bad).toContain('moving tag');
    expect(bad).toContain('already present on machine');
    const other = await answer(
      world(
        "2026-03-10T11:57:02.220419Z 1 [System] [MY-013381] [Server] Server upgrade from '80039' to '80040' started.",
      ),
      ask,
      ns,
    );
    expect(other).not.toContain('Downgrade');
    expect(other).not.toContain('moving tag');
  });

  it('a Redis that cannot load its append only file, behind a client that gets connection refused: the answer names the AOF and redis-check-aof; a Redis that loaded its AOF: not this rule', async () => {
    const ns = 'auth';
    const world = (line: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSetObj('session-redis', ns, 'bitnami/redis:7.2.5', 1, {
          ready: 0,
          member: () => ({
            boxes: [crashing('redis', 'bitnami/redis:7.2.5')],
          }),
        }),
        serviceObj('session-redis', ns, { app: 'session-redis' }, 6379),
        rsPod(
          'login',
          '6f7d',
          'h2',
          ns,
          { name: 'login', image: 'registry.example/login:4.1.0', ready: false },
          600,
        ),
      ],
      events: [backOff(ns, 'session-redis-0')],
      previous: {
        'session-redis-0': [
          '1:M 10 Mar 2026 11:57:41.622 * Server initialized',
          '1:M 10 Mar 2026 11:57:41.903 * DB loaded from base file appendonly.aof.12.base.rdb: 0.281 seconds',
          line,
        ].join('\n'),
      },
      logs: {
        'login-6f7d-h2':
          'redis.exceptions.ConnectionError: Error 111 connecting to session-redis:6379. Connection refused.',
      },
    });
    const ask = 'nobody can log in, the login page answers 503, why?';
    const bad = await answer(
      world(
        '1:M 10 Mar 2026 11:57:43.118 # Bad file format reading the append only file appendonly.aof.12.incr.aof: make a backup of your AOF file, then use ./redis-check-aof --fix <filename.manifest>',
      ),
      ask,
      ns,
    );
    expect(bad).toContain('append only file');
    expect(bad).toContain('redis-check-aof');
    const other = await answer(
      world(
        '1:M 10 Mar 2026 11:57:43.118 * DB loaded from incr file appendonly.aof.12.incr.aof: 0.010 seconds',
      ),
      ask,
      ns,
    );
    expect(other).not.toContain('redis-check-aof');
  });

  it('RabbitMQ peers refusing a disallowed node that waits for its Mnesia tables: the answer names the Erlang cookie and the recreated pod; peers that see a node go down: not this rule', async () => {
    const ns = 'queue';
    const host = (i: number) =>
      `rabbit@jobs-rabbitmq-${i}.jobs-rabbitmq-discovery.${ns}.svc.cluster.local`;
    const world = (peerLine: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSetObj('jobs-rabbitmq', ns, 'rabbitmq:3.8.34-management-alpine', 3, {
          ready: 2,
          member: (i) =>
            i === 2
              ? {
                  created: 45,
                  boxes: [
                    {
                      name: 'jobs-rabbitmq',
                      image: 'rabbitmq:3.8.34-management-alpine',
                      ready: false,
                      restarts: 3,
                    },
                  ],
                }
              : {},
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: 'jobs-rabbitmq-2' },
          'Unhealthy',
          'Liveness probe failed: ',
          40,
          1,
          18,
        ),
      ],
      logs: {
        'jobs-rabbitmq-2': `[warning] <0.273.0> Error while waiting for Mnesia tables: {timeout_waiting_for_tables,['${host(1)}','${host(0)}'],[rabbit_user]}`,
        'jobs-rabbitmq-0': `[info] <0.512.0> node '${host(2)}' down: connection_closed\n${peerLine}`,
        'jobs-rabbitmq-1': `[info] <0.512.0> node '${host(2)}' down: connection_closed\n${peerLine}`,
      },
    });
    const ask = 'jobs-rabbitmq-2 has been 0/1 since the chart upgrade, what is wrong with it?';
    const bad = await answer(
      world(`[error] <0.143.0> ** Connection attempt from disallowed node '${host(2)}' ** `),
      ask,
      ns,
    );
    expect(bad).toContain('Erlang cookie');
    expect(bad).toContain('disallowed node');
    expect(bad).toContain('pod jobs-rabbitmq-2');
    const other = await answer(world(`[info] <0.512.0> rabbit on node '${host(2)}' down`), ask, ns);
    expect(other).not.toContain('Erlang cookie');
  });
});
