/**
 * The engine rules of round20 (r20logs) (cause-catalog.data.ts, its "round20 (r20logs)" block;
 * their variables in finding-vars-r20logs.ts), one test per rule, each with a near miss where it
 * must not fire or must not claim its fact: pg_dump older than the server, initdb on a volume's
 * lost+found, MongoDB transactions on a standalone, BullMQ keys evicted by Redis, KAFKA_PORT
 * injected by a Service named kafka (service links), a broker's cluster ID after ZooKeeper came
 * back empty on an emptyDir; and a report that quotes a log line while asking what broke.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  serviceObj,
  warningEvent,
  withEnv,
  type ApiWorld,
  type Box,
} from './spec-world';

type Obj = Record<string, unknown>;

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

/** the pod with its volumes and its first container's mounts replaced */
function withVolumes(pod: Obj, volumes: Obj[], mounts: Obj[]): Obj {
  const spec = pod['spec'] as { containers: Obj[] };
  const [first, ...rest] = spec.containers;
  return {
    ...pod,
    spec: { ...spec, volumes, containers: [{ ...first, volumeMounts: mounts }, ...rest] },
  };
}

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

describe('round20 rules (r20logs)', () => {
  it('pg_dump aborting on a server version mismatch: the answer quotes it with both versions from its detail line and the image; a pg_dump refused by the server: not this rule', async () => {
    const ns = 'ledger';
    const job = 'ledger-db-backup-29012345';
    const world = (lines: string[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: { name: job, namespace: ns, creationTimestamp: ago(60) },
          spec: { backoffLimit: 0, template: { spec: { containers: [] } } },
          status: {
            failed: 1,
            conditions: [
              {
                type: 'Failed',
                status: 'True',
                reason: 'BackoffLimitExceeded',
                message: 'Job has reached the specified backoff limit',
                lastTransitionTime: ago(59),
              },
            ],
          },
        },
        podObj({
          name: `${job}-x7k2q`,
          ns,
          labels: { 'job-name': job },
          owner: { kind: 'Job', name: job },
          phase: 'Failed',
          created: 60,
          boxes: [
            {
              name: 'backup',
              image: 'registry.example.org/ops/pg-backup:pg15-1.4.0',
              ready: false,
              state: { terminated: { reason: 'Error', exitCode: 1, finishedAt: ago(59) } },
            },
          ],
        }),
      ],
      logs: { [`${job}-x7k2q`]: lines.join('\n') },
    });
    const ask = 'the ledger-db-backup job failed last night, why?';
    const bad = await answer(
      world([
        `${ago(60)} [backup] pg_dump (PostgreSQL) 15.7`,
        'pg_dump: error: aborting because of server version mismatch',
        'pg_dump: detail: server version: 16.3; pg_dump version: 15.7',
        `${ago(60)} [backup] pg_dump failed with exit code 1`,
      ]),
      ask,
      ns,
    );
    expect(bad).toContain('aborting because of server version mismatch');
    expect(bad).toContain('server version: 16.3; pg_dump version: 15.7');
    expect(bad).toContain('pg-backup:pg15-1.4.0');
    const other = await answer(
      world([
        `${ago(60)} [backup] pg_dump (PostgreSQL) 15.7`,
        'pg_dump: error: connection to server at "ledger-db" (10.0.3.4), port 5432 failed: FATAL:  password authentication failed for user "backup"',
        `${ago(60)} [backup] pg_dump failed with exit code 1`,
      ]),
      ask,
      ns,
    );
    expect(other).toContain('password authentication failed');
    expect(other).not.toContain('version mismatch');
  });

  it("initdb refusing a volume's lost+found: the answer names the claim mounted at PGDATA and a subdirectory; a data directory with other files: no lost+found claimed", async () => {
    const ns = 'forum';
    const world = (detail: string): ApiWorld => {
      const pod = withVolumes(
        rsPod('forum-db', '5d8f7c9b4', 'q2w8z', ns, crashing('postgres', 'postgres:16.4')),
        [{ name: 'pgdata', persistentVolumeClaim: { claimName: 'forum-db-data' } }],
        [{ name: 'pgdata', mountPath: '/var/lib/postgresql/data' }],
      );
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('forum-db', ns, ['postgres:16.4'], 1, 0, ['postgres']),
          pod,
        ],
        events: [backOff(ns, 'forum-db-5d8f7c9b4-q2w8z')],
        previous: {
          'forum-db-5d8f7c9b4-q2w8z': [
            'The files belonging to this database system will be owned by user "postgres".',
            'initdb: error: directory "/var/lib/postgresql/data" exists but is not empty',
            detail,
            'initdb: hint: If you want to create a new database system, either remove or empty the directory "/var/lib/postgresql/data" or run initdb with an argument other than "/var/lib/postgresql/data".',
          ].join('\n'),
        },
      };
    };
    const ask = 'forum-db keeps crashing, what is wrong?';
    const bad = await answer(
      world(
        'initdb: detail: It contains a lost+found directory, perhaps due to it being a mount point.',
      ),
      ask,
      ns,
    );
    expect(bad).toContain('exists but is not empty');
    expect(bad).toContain('lost+found');
    expect(bad).toContain('forum-db-data');
    expect(bad).toContain('/var/lib/postgresql/data/pgdata');
    const other = await answer(
      world('initdb: detail: It contains a file named PG_VERSION.'),
      ask,
      ns,
    );
    expect(other).toContain('exists but is not empty');
    expect(other).not.toContain('lost+found');
  });

  it('MongoDB "Transaction numbers are only allowed on a replica set member or mongos": the answer says the server is a standalone and quotes the topology; another MongoServerError: no standalone claimed', async () => {
    const ns = 'crm';
    const world = (error: string): ApiWorld => {
      const pods = ['a1b2c', 'd3e4f'].map((s) =>
        rsPod('contacts-api', '7f9c6d5b8', s, ns, {
          name: 'contacts-api',
          image: 'contacts:3.2.0',
        }),
      );
      const line = (m: number) =>
        JSON.stringify({
          level: 'error',
          time: ago(m),
          err: { type: 'MongoServerError', message: error, code: 20 },
          msg: 'createContact failed',
        });
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('contacts-api', ns, ['contacts:3.2.0'], 2, 2),
          ...pods,
        ],
        logs: Object.fromEntries(
          pods.map((p) => [
            String((p['metadata'] as Obj)['name']),
            [
              JSON.stringify({
                level: 'info',
                time: ago(90),
                msg: 'MongoDB connected',
                host: 'contacts-mongo.crm.svc.cluster.local:27017',
                topologyType: 'Single',
              }),
              line(20),
              line(10),
            ].join('\n'),
          ]),
        ),
      };
    };
    const ask = 'creating contacts fails with 500 in crm, why?';
    const bad = await answer(
      world('Transaction numbers are only allowed on a replica set member or mongos'),
      ask,
      ns,
    );
    expect(bad).toContain('Transaction numbers are only allowed on a replica set member or mongos');
    expect(bad).toContain('standalone');
    expect(bad).toContain('topologyType Single');
    const other = await answer(
      world('not authorized on contacts to execute command { insert: "contacts" }'),
      ask,
      ns,
    );
    expect(other).not.toContain('standalone');
  });

  it('BullMQ "Missing key for job": the answer names the eviction policy BullMQ warned about and its redis.conf; a Redis with noeviction: no eviction claimed', async () => {
    const ns = 'mailer';
    const redisNs = 'shared-cache';
    const world = (policy: string): ApiWorld => {
      const pods = ['k2m4n', 'p6q8r'].map((s) =>
        rsPod('mail-worker', '6c8d9f7b5', s, ns, { name: 'worker', image: 'mail-worker:2.0.1' }),
      );
      return {
        objects: [
          namespaceObj(ns),
          namespaceObj(redisNs),
          deploymentObj('mail-worker', ns, ['mail-worker:2.0.1'], 2, 2, ['worker']),
          ...pods,
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'cache-redis-configuration', namespace: redisNs },
            data: { 'redis.conf': `maxmemory 2gb\nmaxmemory-policy ${policy}\n` },
          },
        ],
        logs: Object.fromEntries(
          pods.map((p, i) => [
            String((p['metadata'] as Obj)['name']),
            [
              JSON.stringify({ level: 30, time: ago(3000), msg: 'worker starting' }),
              ...(policy === 'noeviction'
                ? []
                : [`IMPORTANT! Eviction policy is ${policy}. It should be "noeviction"`]),
              JSON.stringify({
                level: 30,
                time: ago(2999),
                msg: 'worker ready',
                redis: 'cache-redis-master.shared-cache.svc.cluster.local:6379',
              }),
              ...[40, 25, 10].map((m) =>
                JSON.stringify({
                  level: 50,
                  time: ago(m + i),
                  err: {
                    type: 'Error',
                    message: `Missing key for job ${9000 + m}. moveToFinished`,
                  },
                  msg: 'worker error',
                }),
              ),
            ].join('\n'),
          ]),
        ),
      };
    };
    const ask = 'some emails are not sent since an hour, mail-worker looks fine. what is going on?';
    const bad = await answer(world('allkeys-lru'), ask, ns);
    expect(bad).toContain('Missing key for job');
    expect(bad).toContain('IMPORTANT! Eviction policy is allkeys-lru');
    expect(bad).toContain('cache-redis-configuration');
    const other = await answer(world('noeviction'), ask, ns);
    expect(other).toContain('Missing key for job');
    expect(other).not.toContain('evicts keys when it reaches');
  });

  it('cp-kafka "port is deprecated" with a Service named kafka: the answer names that Service, KAFKA_PORT and service links; KAFKA_PORT set in the pod spec and no such Service: the env is named, no Service', async () => {
    const ns = 'events';
    const world = (o: { service: boolean; env?: Record<string, string> }): ApiWorld => {
      const member = (i: number, created: number, box: Box) =>
        podObj({
          name: `broker-${i}`,
          ns,
          labels: { app: 'broker' },
          owner: { kind: 'StatefulSet', name: 'broker' },
          created,
          boxes: [box],
        });
      const image = 'confluentinc/cp-kafka:7.6.1';
      const crash = member(2, 50, crashing('kafka', image));
      return {
        objects: [
          namespaceObj(ns),
          member(0, 60 * 24 * 30, { name: 'kafka', image }),
          member(1, 60 * 24 * 30, { name: 'kafka', image }),
          o.env ? withEnv(crash, o.env) : crash,
          serviceObj('broker-headless', ns, { app: 'broker' }, 9092, {
            spec: { clusterIP: 'None' },
          }),
          ...(o.service
            ? [
                serviceObj('kafka', ns, { app: 'broker' }, 9092, {
                  clusterIP: '10.96.77.12',
                  age: 1,
                }),
              ]
            : []),
        ],
        events: [backOff(ns, 'broker-2')],
        previous: {
          'broker-2': [
            '===> User',
            'uid=1000(appuser) gid=1000(appuser) groups=1000(appuser)',
            '===> Configuring ...',
            'port is deprecated. Please use KAFKA_ADVERTISED_LISTENERS instead.',
          ].join('\n'),
        },
      };
    };
    const ask = 'broker-2 is crashlooping since we restarted it, why?';
    const bad = await answer(world({ service: true }), ask, ns);
    expect(bad).toContain('port is deprecated');
    expect(bad).toContain('Service named "kafka"');
    expect(bad).toContain('KAFKA_PORT=tcp://10.96.77.12:9092');
    expect(bad).toContain('enableServiceLinks');
    const other = await answer(world({ service: false, env: { KAFKA_PORT: '9092' } }), ask, ns);
    expect(other).toContain('port is deprecated');
    expect(other).toContain('KAFKA_PORT=9092');
    expect(other).not.toContain('Service named');
  });

  it('InconsistentClusterIdException with the ZooKeeper on an emptyDir: the answer names that ZooKeeper, its emptyDir and what it logged; a ZooKeeper on a claim: no emptyDir claimed', async () => {
    const ns = 'stream';
    const world = (zkData: Obj): ApiWorld => {
      const broker = withEnv(
        podObj({
          name: 'kafka-0',
          ns,
          labels: { app: 'kafka' },
          owner: { kind: 'StatefulSet', name: 'kafka' },
          created: 90,
          boxes: [crashing('kafka', 'bitnami/kafka:3.7.0')],
        }),
        { KAFKA_CFG_ZOOKEEPER_CONNECT: 'zookeeper:2181' },
      );
      const zk = withVolumes(
        podObj({
          name: 'zookeeper-0',
          ns,
          labels: { app: 'zookeeper' },
          owner: { kind: 'StatefulSet', name: 'zookeeper' },
          created: 80,
          boxes: [{ name: 'zookeeper', image: 'bitnami/zookeeper:3.9.2' }],
        }),
        [zkData],
        [{ name: 'data', mountPath: '/bitnami/zookeeper' }],
      );
      return {
        objects: [
          namespaceObj(ns),
          broker,
          zk,
          serviceObj('zookeeper', ns, { app: 'zookeeper' }, 2181),
        ],
        events: [backOff(ns, 'kafka-0')],
        logs: {
          'zookeeper-0': [
            `zookeeper ${ago(80)} INFO  ==> Deploying ZooKeeper from scratch...`,
            `${ago(80)} INFO Snapshotting: 0x0 to /bitnami/zookeeper/data/version-2/snapshot.0`,
          ].join('\n'),
        },
        previous: {
          'kafka-0': [
            `[${ago(5)}] INFO Cluster ID = NewNewNewNewNewNewNewNew (kafka.server.KafkaServer)`,
            `[${ago(5)}] ERROR Fatal error during KafkaServer startup. Prepare to shutdown (kafka.server.KafkaServer)`,
            "kafka.common.InconsistentClusterIdException: The Cluster ID NewNewNewNewNewNewNewNew doesn't match stored clusterId Some(OldOldOldOldOldOldOldOld) in meta.properties. The broker is trying to join the wrong cluster. Configured zookeeper.connect may be wrong.",
            '\tat kafka.server.KafkaServer.startup(KafkaServer.scala:244)',
          ].join('\n'),
        },
      };
    };
    const ask = 'kafka-0 keeps restarting in stream, why?';
    const bad = await answer(world({ name: 'data', emptyDir: {} }), ask, ns);
    expect(bad).toContain('InconsistentClusterIdException');
    expect(bad).toContain('emptyDir');
    expect(bad).toContain('zookeeper-0');
    expect(bad).toContain('Deploying ZooKeeper from scratch');
    const other = await answer(
      world({ name: 'data', persistentVolumeClaim: { claimName: 'data-zookeeper-0' } }),
      ask,
      ns,
    );
    expect(other).toContain('InconsistentClusterIdException');
    expect(other).not.toContain('emptyDir');
  });

  it('a report that quotes a log line and asks what broke is investigated, not counted; "which pods logged ..." is still counted', async () => {
    const ns = 'orders';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('order-sink', ns, ['order-sink:1.0.0'], 1, 0),
        rsPod('order-sink', '5b6c7d8e9', 'zz9yy', ns, crashing('order-sink', 'order-sink:1.0.0')),
      ],
      events: [backOff(ns, 'order-sink-5b6c7d8e9-zz9yy')],
      logs: {
        'order-sink-5b6c7d8e9-zz9yy': [
          `${ago(6)} WARN Connection to node -1 could not be established. Node may not be available.`,
          `${ago(5)} ERROR Error: KAFKA_BROKERS must be set`,
        ].join('\n'),
      },
    };
    const report = await answer(
      world,
      'order-sink has been logging "could not be established" since this morning. what broke?',
      ns,
    );
    expect(report).not.toContain('whose logs I read logged');
    const counted = await answer(
      world,
      'which order-sink pods logged "could not be established" today?',
      ns,
    );
    expect(counted).toContain('whose logs I read logged');
  });
});
