/**
 * The engine rules of round25 (r25a) (cause-catalog.data.ts, its "round25 (r25a)" block; their
 * variables in finding-vars-r25a.ts), one test per rule, each with a near miss: an application
 * that parses <SERVICE>_PORT=tcp://<ip>:<port>, injected by the kubelet for a Service of its
 * namespace (service links), as a port number.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  investigateAt,
  namespaceObj,
  podObj,
  serviceObj,
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

describe('round25 rules (r25a)', () => {
  it('a Python int() of "tcp://<ip>:<port>" with a Service of that ClusterIP: the answer names <SERVICE>_PORT, the Service, and service links; an int() of another text: not this rule', async () => {
    const ns = 'store';
    const world = (value: string): ApiWorld => {
      const image = 'registry.example/basket:2.1.0';
      return {
        objects: [
          namespaceObj(ns),
          rsPod(
            'basket',
            '5d8f',
            'a1',
            ns,
            { name: 'app', image: 'registry.example/basket:2.0.0' },
            60 * 24 * 5,
          ),
          rsPod('basket', '7c4b', 'b2', ns, crashing('app', image), 40),
          serviceObj('basket', ns, { app: 'basket' }, 8000, {
            clusterIP: '10.96.10.10',
            age: 60 * 24 * 30,
          }),
          serviceObj('session-cache', ns, { app: 'session-cache' }, 6379, {
            clusterIP: '10.96.44.7',
            age: 120,
          }),
        ],
        events: [backOff(ns, 'basket-7c4b-b2')],
        previous: {
          'basket-7c4b-b2': [
            'Traceback (most recent call last):',
            '  File "/app/basket/settings.py", line 12, in <module>',
            "    CACHE_PORT = int(os.environ.get('SESSION_CACHE_PORT', '6379'))",
            `ValueError: invalid literal for int() with base 10: '${value}'`,
          ].join('\n'),
        },
      };
    };
    const ask = 'the new basket pod keeps crashing, the old one is fine, why?';
    const bad = await answer(world('tcp://10.96.44.7:6379'), ask, ns);
    expect(bad).toContain('SESSION_CACHE_PORT');
    expect(bad).toContain('Service named "session-cache"');
    expect(bad).toContain('enableServiceLinks');
    expect(bad).toContain('int() with base 10');
    const other = await answer(world('six-three-seven-nine'), ask, ns);
    expect(other).not.toContain('service link');
    expect(other).not.toContain('enableServiceLinks');
  });

  it('Go url.Parse "invalid port" after host on a URL whose password holds "#": the answer says the password is not percent-encoded; a URL with a genuinely bad port: not this rule', async () => {
    const ns = 'ledger';
    const world = (url: string, port: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        rsPod('payout', '6b7c', 'x1', ns, crashing('payout', 'registry.example/payout:1.4.2')),
      ],
      events: [backOff(ns, 'payout-6b7c-x1')],
      previous: {
        'payout-6b7c-x1': `time=2026-01-10T10:00:00Z level=fatal msg="cannot open database" error="parse \\"${url}\\": invalid port \\"${port}\\" after host"`,
      },
    });
    const ask = 'payout keeps crashing since this morning, why?';
    const bad = await answer(
      world('postgres://payout:Qx7#mm/Zp@ledger-db.ledger.svc:5432/ledger', ':Qx7'),
      ask,
      ns,
    );
    expect(bad).toContain('invalid port');
    expect(bad).toContain('contains "#"');
    expect(bad).toContain('percent-encode');
    const other = await answer(world('postgres://ledger-db:54x2/ledger', ':54x2'), ask, ns);
    expect(other).toContain('invalid port');
    expect(other).not.toContain('percent-encode');
  });

  it('PostgreSQL refusing a user whose quoted name closes on the next line: the answer says it ends in a newline and names the Secret key it comes from; a user name quoted on one line: not this rule', async () => {
    const ns = 'shipping';
    const world = (user: string): ApiWorld => {
      const pod = rsPod(
        'label-svc',
        '8d9e',
        'k2',
        ns,
        crashing('label-svc', 'registry.example/label-svc:3.0.1'),
      );
      const spec = pod['spec'] as { containers: Record<string, unknown>[] };
      spec.containers[0] = {
        ...spec.containers[0],
        env: [
          { name: 'PGHOST', value: 'labels-db' },
          { name: 'PGUSER', valueFrom: { secretKeyRef: { name: 'labels-db-login', key: 'user' } } },
        ],
      };
      return {
        objects: [namespaceObj(ns), pod],
        events: [backOff(ns, 'label-svc-8d9e-k2')],
        previous: {
          'label-svc-8d9e-k2': [
            'starting label-svc',
            `psycopg2.OperationalError: connection to server at "10.96.3.3", port 5432 failed: FATAL:  password authentication failed for user "${user}"`,
          ].join('\n'),
        },
      };
    };
    const ask = 'label-svc crashes after we rotated its database login, why?';
    const bad = await answer(world('labels_rw\n'), ask, ns);
    expect(bad).toContain('ends in a newline');
    expect(bad).toContain('key "user" of Secret labels-db-login');
    const other = await answer(world('labels_rw'), ask, ns);
    expect(other).toContain('password authentication failed');
    expect(other).not.toContain('newline');
  });

  it('a PostgreSQL "column ... does not exist" in one pod\'s log: the answer names the column, the schema and that pod; a line that names a column without the error: not this rule', async () => {
    const ns = 'catalog';
    const world = (line: string): ApiWorld => {
      const image = 'registry.example/offers:stable';
      return {
        objects: [
          namespaceObj(ns),
          rsPod('offers', '4f5a', 'aa1', ns, { name: 'offers', image }, 60 * 24 * 9),
          rsPod('offers', '4f5a', 'bb2', ns, { name: 'offers', image }, 60 * 20),
        ],
        logs: {
          'offers-4f5a-aa1': 'GET /v1/offers 200 12ms\nGET /v1/offers 200 9ms',
          'offers-4f5a-bb2': `GET /v1/offers 500 3ms\n${line}\nGET /v1/offers 500 4ms\n${line}`,
        },
      };
    };
    const ask = 'offers returns 500 on about half of the requests, why?';
    const bad = await answer(
      world('ERROR: column o.discount_kind does not exist (SQLSTATE 42703)'),
      ask,
      ns,
    );
    expect(bad).toContain('column o.discount_kind');
    expect(bad).toContain('schema');
    expect(bad).toContain('offers-4f5a-bb2');
    const other = await answer(
      world('INFO: column o.discount_kind added by migration 0042'),
      ask,
      ns,
    );
    expect(other).not.toContain('schema');
  });
});
