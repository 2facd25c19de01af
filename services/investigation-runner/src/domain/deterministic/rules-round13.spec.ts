/**
 * The engine rules of ee9e5a0, one test per rule, each on a small world of outputs shaped like
 * real ones (Kubernetes API objects and events, the logs of redis-py and the Redis server, pika,
 * the Kafka Java client, clickhouse-go, psycopg, the JVM, Node.js, nginx and Elasticsearch
 * clients): Redis MISCONF with the Redis server's own save error, RabbitMQ consumer_timeout,
 * Kafka max.poll.interval.ms with max.poll.records, ClickHouse too many parts, PostgreSQL XID
 * wraparound protection and /dev/shm exhaustion, JVM Metaspace with MaxMetaspaceSize, a Node.js
 * crash's thrown line before its dumped fields, a crash-looping new pod before a serving old one,
 * a Service's workload by its selector, a product's workloads in another namespace, and "Only pod
 * X shows it" over pods whose identical facts merged.
 */
import {
  NOW,
  ago,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  warningEvent,
  type ApiWorld,
  type Box,
  serviceObj,
  withEnv,
} from './spec-world';

type Obj = Record<string, unknown>;

/** the pod with env on its first container (podObj sets none) */

/** a StatefulSet as the API returns it */
function statefulSetObj(
  name: string,
  ns: string,
  image: string,
  replicas: number,
  ready: number,
  labels: Record<string, string> = { app: name },
): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: ns, labels, creationTimestamp: ago(60 * 24 * 120) },
    spec: {
      replicas,
      serviceName: `${name}-headless`,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: name.split('-')[0], image }] },
      },
    },
    status: { replicas, readyReplicas: ready, currentReplicas: replicas },
  };
}

/** a ClusterIP Service selecting `selector` */

/** a Deployment's pod of ReplicaSet `${app}-${hash}` */
function appPod(
  app: string,
  hash: string,
  suffix: string,
  ns: string,
  box: Box,
  more: Partial<Parameters<typeof podObj>[0]> = {},
): Obj {
  return podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    boxes: [box],
    ...more,
  });
}

/** a container that crash-loops, its last run ended with `exitCode` */
const crashing = (name: string, image: string, exitCode: number, restarts = 7): Box => ({
  name,
  image,
  restarts,
  state: {
    waiting: {
      reason: 'CrashLoopBackOff',
      message: `back-off 5m0s restarting failed container=${name}`,
    },
  },
  lastState: {
    terminated: {
      reason: 'Error',
      exitCode,
      startedAt: ago(4),
      finishedAt: ago(3),
    },
  },
});

// ------------------------------------------------------------------------------------------------

describe('rules of ee9e5a0', () => {
  it('Redis MISCONF on a caller whose env alone names the Redis: the Redis pod is found, its "Write error saving DB on disk" is said, the fix frees or grows its volume', async () => {
    // the failing line names no host and the Redis no product word: only REDIS_URL leads to it
    const ns = 'ticketing';
    const image = 'registry.example.org/ticketing/seat-holder:3.9.0';
    const redisImage = 'redis:7.2.4';
    const holder = 'seat-holder-7d5c9b6f48-x2lqw';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('seat-holder', ns, [image], 1, 1),
        withEnv(appPod('seat-holder', '7d5c9b6f48', 'x2lqw', ns, { name: 'seat-holder', image }), {
          REDIS_URL: `redis://lock-store.${ns}.svc:6379/2`,
          SEAT_HOLD_TTL: '600',
        }),
        statefulSetObj('lock-store', ns, redisImage, 1, 1),
        serviceObj('lock-store', ns, { app: 'lock-store' }, 6379, { portName: 'tcp', age: 120 }),
        podObj({
          name: 'lock-store-0',
          ns,
          labels: { app: 'lock-store' },
          owner: { kind: 'StatefulSet', name: 'lock-store' },
          boxes: [{ name: 'redis', image: redisImage }],
          claims: ['data-lock-store-0'],
          created: 60 * 24 * 40,
        }),
      ],
      logs: {
        [holder]: [
          '2026-03-10 11:31:12,004 INFO seat_holder.api: POST /holds 201 8ms',
          ...[38, 33, 27, 21, 14, 6].map(
            (m) =>
              `${ago(m).slice(0, 19).replace('T', ' ')},517 ERROR seat_holder.api: POST /holds failed: redis.exceptions.ResponseError: MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error.`,
          ),
        ].join('\n'),
        'lock-store-0': [
          '1:M 10 Mar 2026 11:19:44.102 * 100 changes in 300 seconds. Saving...',
          '1:M 10 Mar 2026 11:19:44.109 * Background saving started by pid 4811',
          '4811:C 10 Mar 2026 11:19:45.377 # Write error saving DB on disk: No space left on device',
          '1:M 10 Mar 2026 11:19:45.488 # Background saving error',
          '1:M 10 Mar 2026 11:24:46.012 * 100 changes in 300 seconds. Saving...',
          '1:M 10 Mar 2026 11:24:46.020 * Background saving started by pid 4873',
          '4873:C 10 Mar 2026 11:24:47.215 # Write error saving DB on disk: No space left on device',
          '1:M 10 Mar 2026 11:24:47.301 # Background saving error',
        ].join('\n'),
      },
    };
    const { text, gateway } = await investigateAt(
      apiTools(world),
      'seat-holder in ticketing fails every POST /holds since 11:20',
      NOW,
      ns,
    );
    // the Redis pod was found from REDIS_URL and its log read
    expect(
      gateway.calls.some((c) => c.tool === 'k8s:pods_log' && c.params['name'] === 'lock-store-0'),
    ).toBe(true);
    expect(text).toContain('MISCONF');
    expect(text).toContain('stop-writes-on-bgsave-error yes');
    expect(text).toContain(
      'Redis lock-store-0 logs "Write error saving DB on disk: No space left on device"',
    );
    expect(text).toContain('free or grow the volume of lock-store-0');
  });

  it('RabbitMQ PRECONDITION_FAILED "delivery acknowledgement ... timed out. Timeout value used: 1800000 ms": consumer_timeout, 30 min', async () => {
    const ns = 'archive';
    const image = 'registry.example.org/archive/scan-ocr-worker:1.14.2';
    const pod = 'scan-ocr-worker-5b8f7c6d9-pq4zd';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('scan-ocr-worker', ns, [image], 1, 1),
        appPod('scan-ocr-worker', '5b8f7c6d9', 'pq4zd', ns, { name: 'scan-ocr-worker', image }),
      ],
      logs: {
        [pod]: [95, 62, 29]
          .flatMap((m) => [
            `${ago(m + 31)
              .slice(0, 19)
              .replace(
                'T',
                ' ',
              )},201 INFO scan_ocr.worker: received job 7f3a scans/2026/03/box-118.pdf (412 pages)`,
            `${ago(m).slice(0, 19).replace('T', ' ')},884 ERROR pika.adapters.blocking_connection: Channel closed by broker: (406, 'PRECONDITION_FAILED - delivery acknowledgement on channel 1 timed out. Timeout value used: 1800000 ms. This timeout value can be configured, see consumers doc guide to learn more')`,
            `${ago(m).slice(0, 19).replace('T', ' ')},885 ERROR scan_ocr.worker: pika.exceptions.ChannelClosedByBroker: (406, 'PRECONDITION_FAILED - delivery acknowledgement on channel 1 timed out. Timeout value used: 1800000 ms. This timeout value can be configured, see consumers doc guide to learn more')`,
          ])
          .join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'scan-ocr-worker in archive processes the same scans over and over, the queue keeps growing',
      NOW,
      ns,
    );
    expect(text).toContain("RabbitMQ's consumer timeout (consumer_timeout 1800000 ms, 30 min)");
    expect(text).toMatch(/raise consumer_timeout/);
  });

  it('a Kafka consumer whose "consumer poll timeout has expired", with its ConsumerConfig logged: max.poll.interval.ms and max.poll.records = N are said', async () => {
    const ns = 'fleet';
    const image = 'registry.example.org/fleet/trip-aggregator:4.2.0';
    const pod = 'trip-aggregator-6c9d8b7f5-m8r2k';
    const cfg = (m: number) => `${ago(m).slice(0, 19).replace('T', ' ')}.118 INFO  [main]`;
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('trip-aggregator', ns, [image], 1, 1),
        appPod('trip-aggregator', '6c9d8b7f5', 'm8r2k', ns, { name: 'trip-aggregator', image }),
      ],
      logs: {
        [pod]: [
          `${cfg(70)} o.a.k.clients.consumer.ConsumerConfig - ConsumerConfig values: `,
          '\tallow.auto.create.topics = true',
          '\tauto.offset.reset = earliest',
          '\tbootstrap.servers = [fleet-kafka-bootstrap.fleet.svc:9092]',
          '\tenable.auto.commit = false',
          '\tgroup.id = trip-aggregator',
          '\tmax.poll.interval.ms = 300000',
          '\tmax.poll.records = 2500',
          '\tsession.timeout.ms = 45000',
          ...[48, 31, 14].flatMap((m) => [
            `${ago(m).slice(0, 19).replace('T', ' ')}.402 WARN  [kafka-coordinator-heartbeat-thread | trip-aggregator] o.a.k.c.c.internals.ConsumerCoordinator - [Consumer clientId=consumer-trip-aggregator-1, groupId=trip-aggregator] consumer poll timeout has expired. This means the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms, which typically implies that the poll loop is spending too much time processing messages. You can address this either by increasing max.poll.interval.ms or by reducing the maximum size of batches returned in poll() with max.poll.records.`,
            `${ago(m - 2)
              .slice(0, 19)
              .replace(
                'T',
                ' ',
              )}.977 ERROR [main] c.e.fleet.TripConsumer - commit failed: org.apache.kafka.clients.consumer.CommitFailedException: Offset commit cannot be completed since the consumer is not part of an active group for auto partition assignment; it is likely that the consumer was kicked out of the group.`,
          ]),
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'trip-aggregator in fleet: consumer lag keeps growing and the group rebalances all the time',
      NOW,
      ns,
    );
    expect(text).toContain('than max.poll.interval.ms (max.poll.interval.ms = 300000)');
    expect(text).toContain('Each poll hands it up to 2500 records (max.poll.records = 2500)');
    expect(text).toContain('Lower max.poll.records of trip-aggregator (max.poll.records = 2500)');
  });

  it('ClickHouse "Code: 252. DB::Exception: Too many parts (300 ...)" in a client\'s log: too many parts, fewer and larger batches', async () => {
    const ns = 'observability';
    const image = 'registry.example.org/obs/span-writer:0.19.3';
    const pod = 'span-writer-84f6d7c5b9-zt7vn';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('span-writer', ns, [image], 1, 1),
        appPod('span-writer', '84f6d7c5b9', 'zt7vn', ns, { name: 'span-writer', image }),
      ],
      logs: {
        [pod]: [22, 17, 11, 5]
          .map(
            (m) =>
              `{"level":"error","ts":"${ago(m)}","caller":"writer/batch.go:141","msg":"insert failed","table":"traces.spans_local","rows":42,"error":"code: 252, message: Too many parts (300 with average size of 18.41 KiB) in table 'traces.spans_local' (UUID 5f0e2c41-9b7d-4d0a-8e3f-1c2b3a4d5e6f). Merges are processing significantly slower than inserts: while pushing to view traces.spans_mv: Code: 252. DB::Exception: Too many parts (300 with average size of 18.41 KiB) in table 'traces.spans_local'. Merges are processing significantly slower than inserts. (TOO_MANY_PARTS) (version 24.3.2.23 (official build))"}`,
          )
          .join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'span-writer in observability drops spans, inserts fail since this morning',
      NOW,
      ns,
    );
    expect(text).toContain('ClickHouse rejects the inserts of span-writer');
    expect(text).toContain('Too many parts (300');
    expect(text).toContain('fewer, larger batches');
  });

  it('PostgreSQL "database is not accepting commands to avoid wraparound data loss in database" in a Job\'s pod log: wraparound, VACUUM', async () => {
    const ns = 'ledger';
    const image = 'registry.example.org/ledger/month-close:2.3.1';
    const jobName = 'month-close-29553840';
    const pod = `${jobName}-h7c2q`;
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: { name: jobName, namespace: ns, creationTimestamp: ago(40) },
          spec: { completions: 1, parallelism: 1, backoffLimit: 0 },
          status: {
            startTime: ago(40),
            failed: 1,
            conditions: [
              {
                type: 'Failed',
                status: 'True',
                reason: 'BackoffLimitExceeded',
                message: 'Job has reached the specified backoff limit',
              },
            ],
          },
        },
        podObj({
          name: pod,
          ns,
          labels: { 'job-name': jobName },
          owner: { kind: 'Job', name: jobName },
          restartPolicy: 'Never',
          phase: 'Failed',
          created: 40,
          boxes: [
            {
              name: 'month-close',
              image,
              ready: false,
              started: false,
              state: {
                terminated: {
                  reason: 'Error',
                  exitCode: 1,
                  startedAt: ago(39),
                  finishedAt: ago(37),
                },
              },
            },
          ],
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Job', name: jobName },
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
          37,
          37,
          1,
          'job-controller',
        ),
      ],
      logs: {
        [pod]: [
          `${ago(39).slice(0, 19).replace('T', ' ')},020 INFO month_close: closing period 2026-02 for 1843 accounts`,
          `${ago(37).slice(0, 19).replace('T', ' ')},611 ERROR month_close: Traceback (most recent call last):`,
          '  File "/app/month_close/run.py", line 88, in close_period',
          '    cur.execute(INSERT_BALANCES, rows)',
          'psycopg.errors.ProgramLimitExceeded: database is not accepting commands that assign new transaction IDs to avoid wraparound data loss in database "accounts"',
          'HINT:  Execute a database-wide VACUUM in that database.',
          'You might also need to commit or roll back old prepared transactions, or drop stale replication slots.',
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'the month-close job in ledger failed tonight',
      NOW,
      ns,
    );
    expect(text).toContain('the database accounts is close to transaction ID wraparound');
    expect(text).toContain('VACUUM (FREEZE) the database accounts');
  });

  it('PostgreSQL "could not resize shared memory segment ... No space left on device": /dev/shm and an emptyDir with medium: Memory, not a full disk', async () => {
    const ns = 'analytics';
    const image = 'registry.example.org/analytics/cohort-report:5.0.4';
    const pod = 'cohort-report-59b7d8c6f4-k3w9s';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('cohort-report', ns, [image], 1, 1),
        appPod('cohort-report', '59b7d8c6f4', 'k3w9s', ns, { name: 'cohort-report', image }),
      ],
      logs: {
        [pod]: [34, 26, 18, 9]
          .flatMap((m) => [
            `${ago(m).slice(0, 19).replace('T', ' ')},332 ERROR cohort_report.jobs: weekly cohort query failed: psycopg2.errors.DiskFull: could not resize shared memory segment "/PostgreSQL.${1900000000 + m * 7919}" to 67128000 bytes: No space left on device`,
            `${ago(m).slice(0, 19).replace('T', ' ')},333 INFO cohort_report.api: GET /reports/cohorts?week=2026-10 500 2114ms`,
          ])
          .join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'cohort-report in analytics answers 500 for the weekly report',
      NOW,
      ns,
    );
    expect(text).toContain('/dev/shm is full');
    expect(text).toContain('emptyDir with medium: Memory');
    expect(text).not.toContain('ran out of disk space');
  });

  describe('a JVM that crash-loops on OutOfMemoryError', () => {
    const ns = 'claims-intake';
    const image = 'registry.example.org/intake/form-parser:7.1.0';
    const pod = 'form-parser-7f9c6d5b84-j2n6h';
    const world = (error: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('form-parser', ns, [image], 1, 0),
        withEnv(
          appPod(
            'form-parser',
            '7f9c6d5b84',
            'j2n6h',
            ns,
            {
              ...crashing('form-parser', image, 1, 9),
              resources: { limits: { memory: '1Gi' }, requests: { memory: '1Gi', cpu: '500m' } },
            },
            { created: 45 },
          ),
          {
            JAVA_TOOL_OPTIONS: '-XX:MaxMetaspaceSize=96m -Xmx512m -XX:+ExitOnOutOfMemoryError',
            SPRING_PROFILES_ACTIVE: 'prod',
          },
        ),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: pod },
          'BackOff',
          'Back-off restarting failed container form-parser in pod form-parser-7f9c6d5b84-j2n6h_claims-intake(4b1f0c9e-2d7a-4c55-9e0b-7a1d2c3e4f56)',
          40,
          1,
          52,
        ),
      ],
      previous: {
        [pod]: [
          'Picked up JAVA_TOOL_OPTIONS: -XX:MaxMetaspaceSize=96m -Xmx512m -XX:+ExitOnOutOfMemoryError',
          `${ago(5).slice(0, 19).replace('T', ' ')}.214  INFO 1 --- [           main] c.e.intake.FormParserApplication         : Starting FormParserApplication v7.1.0 using Java 17.0.10`,
          `${ago(4).slice(0, 19).replace('T', ' ')}.870  INFO 1 --- [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat initialized with port 8080 (http)`,
          error,
          'Terminating due to java.lang.OutOfMemoryError: ' + error.split(': ').pop(),
        ].join('\n'),
      },
    });
    const ask = 'form-parser in claims-intake keeps restarting since the 7.1.0 release';

    it('"OutOfMemoryError: Metaspace": Metaspace and -XX:MaxMetaspaceSize=96m in JAVA_TOOL_OPTIONS; "Java heap space": the heap answer', async () => {
      const meta = await investigateAt(
        apiTools(world('Exception in thread "main" java.lang.OutOfMemoryError: Metaspace')),
        ask,
        NOW,
        ns,
      );
      expect(meta.text).toContain('runs out of Metaspace');
      expect(meta.text).toContain('-XX:MaxMetaspaceSize=96m in JAVA_TOOL_OPTIONS');
      expect(meta.text).not.toContain('runtime heap');

      const heap = await investigateAt(
        apiTools(world('Exception in thread "main" java.lang.OutOfMemoryError: Java heap space')),
        ask,
        NOW,
        ns,
      );
      expect(heap.text).toContain('runs out of its runtime heap');
      expect(heap.text).toContain('-Xmx512m in JAVA_TOOL_OPTIONS');
      expect(heap.text).not.toContain('Metaspace holds');
    });
  });

  it('a Node.js crash printing "MongoServerError: ...", its stack, then the error\'s fields: the thrown line is the last error quoted, not the errmsg field', async () => {
    const ns = 'crm';
    const image = 'registry.example.org/crm/contact-merger:1.8.0';
    const pod = 'contact-merger-6f8b9d7c5-w4q8t';
    const dup =
      'E11000 duplicate key error collection: crm.contacts index: email_1 dup key: { email: "ana.rivera@example.com" }';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('contact-merger', ns, [image], 1, 0),
        appPod('contact-merger', '6f8b9d7c5', 'w4q8t', ns, crashing('contact-merger', image, 1), {
          created: 30,
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: pod },
          'BackOff',
          'Back-off restarting failed container contact-merger in pod contact-merger-6f8b9d7c5-w4q8t_crm(9e2d1c0b-7a6f-4e3d-8c2b-1a0f9e8d7c6b)',
          28,
          1,
          40,
        ),
      ],
      previous: {
        [pod]: [
          '{"level":30,"time":1773143880112,"pid":1,"hostname":"contact-merger-6f8b9d7c5-w4q8t","msg":"merging duplicates batch 1/14"}',
          '/app/node_modules/mongodb/lib/operations/insert.js:50',
          '            return callback(new error_1.MongoServerError(res.writeErrors[0]));',
          '                                   ^',
          '',
          `MongoServerError: ${dup}`,
          '    at /app/node_modules/mongodb/lib/operations/insert.js:50:33',
          '    at /app/node_modules/mongodb/lib/cmap/connection_pool.js:327:25',
          '    at /app/node_modules/mongodb/lib/sdam/server.js:207:17',
          '    at handleOperationResult (/app/node_modules/mongodb/lib/sdam/server.js:323:20)',
          '    at Connection.onMessage (/app/node_modules/mongodb/lib/cmap/connection.js:213:9)',
          '    at MessageStream.<anonymous> (/app/node_modules/mongodb/lib/cmap/connection.js:59:60)',
          '    at MessageStream.emit (node:events:517:28) {',
          '  index: 0,',
          '  code: 11000,',
          '  keyPattern: { email: 1 },',
          "  keyValue: { email: 'ana.rivera@example.com' },",
          `  errmsg: 'E11000 duplicate key error collection: crm.contacts index: email_1 dup key: { email: "ana.rivera@example.com" }',`,
          '  [Symbol(errorLabels)]: Set(0) {}',
          '}',
          '',
          'Node.js v20.11.1',
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'contact-merger in crm crash-loops',
      NOW,
      ns,
    );
    expect(text).toContain(`The last error it logged: "MongoServerError: ${dup}"`);
    expect(text).not.toContain("errmsg: 'E11000");
  });

  it('a new pod crash-looping on nginx "[emerg] host not found in upstream" while an older, ready pod of the same Deployment logs upstream timeouts: the crash-looping pod\'s cause comes first', async () => {
    const ns = 'storefront';
    const oldImage = 'registry.example.org/shop/web-gateway:2.11.0';
    const newImage = 'registry.example.org/shop/web-gateway:2.12.0';
    const oldPod = 'web-gateway-5c7d9f8b6-r2v7m';
    const newPod = 'web-gateway-78b6c9d4f5-n8k3x';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('web-gateway', ns, [newImage], 2, 1),
        appPod('web-gateway', '5c7d9f8b6', 'r2v7m', ns, { name: 'web-gateway', image: oldImage }),
        appPod('web-gateway', '78b6c9d4f5', 'n8k3x', ns, crashing('web-gateway', newImage, 1, 6), {
          created: 22,
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: newPod },
          'BackOff',
          'Back-off restarting failed container web-gateway in pod web-gateway-78b6c9d4f5-n8k3x_storefront(2c4e6a80-1b3d-4f5e-9a7c-8e0d2f4b6a19)',
          20,
          1,
          31,
        ),
      ],
      logs: {
        [oldPod]: [26, 19, 12, 7, 3]
          .map(
            (m, i) =>
              `${ago(m).slice(0, 10).replace(/-/g, '/')} ${ago(m).slice(11, 19)} [error] 29#29: *${88120 + i * 311} upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.52.1.7, server: _, request: "GET /api/basket HTTP/1.1", upstream: "http://10.52.6.31:8080/api/basket", host: "shop.example.net"`,
          )
          .join('\n'),
      },
      previous: {
        [newPod]: [
          '/docker-entrypoint.sh: Configuration complete; ready for start up',
          `${ago(3).slice(0, 10).replace(/-/g, '/')} ${ago(3).slice(11, 19)} [emerg] 1#1: host not found in upstream "basket-api:8080" in /etc/nginx/conf.d/default.conf:17`,
          'nginx: [emerg] host not found in upstream "basket-api:8080" in /etc/nginx/conf.d/default.conf:17',
        ].join('\n'),
      },
    };
    const { text, result } = await investigateAt(
      apiTools(world),
      'web-gateway in storefront: the 2.12.0 rollout is stuck and some requests time out',
      NOW,
      ns,
    );
    expect(result.root_cause.description).toMatch(/^web-gateway cannot resolve basket-api/);
    expect(text).toContain('host not found in upstream "basket-api:8080"');
  });

  it('a caller logging "elasticsearch: all shards failed" with ES_URL naming a Service named unlike its StatefulSet: the Service\'s workload is found by its selector and its failing pod said', async () => {
    // the StatefulSet's name has no product word ("es", "elasticsearch"): only the Service's
    // selector leads to it, not the workloads named for the product
    const ns = 'docs-portal';
    const image = 'registry.example.org/docs/page-search:3.3.0';
    const esImage = 'docker.elastic.co/elasticsearch/elasticsearch:8.12.2';
    const caller = 'page-search-6d7f8c9b5-b5j9r';
    const idx = (i: number, oom: boolean) =>
      podObj({
        name: `fulltext-store-${i}`,
        ns,
        labels: { app: 'fulltext-store', role: 'data' },
        owner: { kind: 'StatefulSet', name: 'fulltext-store' },
        created: 60 * 24 * 20,
        boxes: [
          oom
            ? {
                name: 'elasticsearch',
                image: esImage,
                restarts: 11,
                resources: { limits: { memory: '2Gi' }, requests: { memory: '2Gi' } },
                state: {
                  waiting: {
                    reason: 'CrashLoopBackOff',
                    message: `back-off 5m0s restarting failed container=elasticsearch pod=fulltext-store-${i}`,
                  },
                },
                lastState: {
                  terminated: {
                    reason: 'OOMKilled',
                    exitCode: 137,
                    startedAt: ago(9),
                    finishedAt: ago(6),
                  },
                },
              }
            : { name: 'elasticsearch', image: esImage },
        ],
      });
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('page-search', ns, [image], 1, 1),
        withEnv(appPod('page-search', '6d7f8c9b5', 'b5j9r', ns, { name: 'page-search', image }), {
          ES_URL: `http://query-gateway.${ns}.svc:9200`,
          ES_INDEX: 'pages-v4',
        }),
        statefulSetObj('fulltext-store', ns, esImage, 2, 1, {
          app: 'fulltext-store',
          role: 'data',
        }),
        serviceObj('query-gateway', ns, { app: 'fulltext-store', role: 'data' }, 9200, {
          portName: 'tcp',
          age: 120,
        }),
        idx(0, false),
        idx(1, true),
      ],
      logs: {
        [caller]: [
          `${ago(40).slice(0, 19).replace('T', ' ')},117 INFO page_search.api: GET /search?q=ingress 200 33ms`,
          ...[24, 18, 12, 6].flatMap((m) => [
            `${ago(m).slice(0, 19).replace('T', ' ')},402 ERROR page_search.api: search failed: elasticsearch: all shards failed (search_phase_execution_exception)`,
            `${ago(m).slice(0, 19).replace('T', ' ')},405 INFO page_search.api: GET /search?q=helm 500 9ms`,
          ]),
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'page-search in docs-portal answers 500 on every search',
      NOW,
      ns,
    );
    expect(text).toMatch(/page-search fails because [^\n]*fulltext-store-1/);
    expect(text).toContain('OOMKilled');
  });

  it('a Kafka client logging NOT_LEADER_OR_FOLLOWER and "Expiring N record(s)" without KAFKA_* env, its brokers in namespace kafka: the crash-looping broker pod is named', async () => {
    // no namespace given: the pods are listed cluster-wide, the client's own namespace has no
    // Kafka workload, the namespace named for the product has
    const ns = 'telemetry';
    const image = 'registry.example.org/telemetry/meter-ingest:6.0.3';
    const kafkaImage = 'quay.io/strimzi/kafka:0.40.0-kafka-3.7.0';
    const client = 'meter-ingest-7b9c8d6f5-h6t2p';
    const broker = (i: number, crash: boolean) =>
      podObj({
        name: `events-kafka-${i}`,
        ns: 'kafka',
        labels: { app: 'events-kafka' },
        owner: { kind: 'StatefulSet', name: 'events-kafka' },
        created: 60 * 24 * 60,
        boxes: [
          crash ? crashing('kafka', kafkaImage, 1, 14) : { name: 'kafka', image: kafkaImage },
        ],
      });
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        namespaceObj('kafka'),
        deploymentObj('meter-ingest', ns, [image], 1, 1),
        withEnv(appPod('meter-ingest', '7b9c8d6f5', 'h6t2p', ns, { name: 'meter-ingest', image }), {
          INGEST_TOPIC: 'meter-readings',
          JAVA_OPTS: '-Xmx768m',
        }),
        statefulSetObj('events-kafka', 'kafka', kafkaImage, 3, 2),
        broker(0, false),
        broker(1, true),
        broker(2, false),
      ],
      events: [
        warningEvent(
          'kafka',
          { kind: 'Pod', name: 'events-kafka-1' },
          'BackOff',
          'Back-off restarting failed container kafka in pod events-kafka-1_kafka(5d3b1a9e-7c5f-4e2d-b0a8-6f4e2c0a8b16)',
          35,
          1,
          44,
        ),
      ],
      logs: {
        [client]: [27, 20, 13, 6]
          .flatMap((m, i) => [
            `${ago(m).slice(0, 19).replace('T', ' ')}.311 WARN  [kafka-producer-network-thread | producer-1] o.a.k.c.p.internals.Sender - [Producer clientId=producer-1] Got error produce response with correlation id ${40211 + i * 97} on topic-partition meter-readings-4, retrying (2147483646 attempts left). Error: NOT_LEADER_OR_FOLLOWER`,
            `${ago(m - 2)
              .slice(0, 19)
              .replace(
                'T',
                ' ',
              )}.019 ERROR [kafka-producer-network-thread | producer-1] c.e.telemetry.MeterPublisher - send failed: org.apache.kafka.common.errors.TimeoutException: Expiring ${31 + i} record(s) for meter-readings-4:120000 ms has passed since batch creation`,
          ])
          .join('\n'),
      },
      previous: {
        'events-kafka-1': [
          '2026-03-10 11:55:02,114 INFO [KafkaServer id=1] starting (kafka.server.KafkaServer) [main]',
          '2026-03-10 11:55:09,870 ERROR Exiting Kafka due to fatal exception during startup. (kafka.Kafka$) [main]',
          'org.apache.kafka.common.errors.InvalidConfigurationException: Invalid value -1 for configuration log.retention.bytes: Value must be at least 1',
        ].join('\n'),
      },
    };
    const { text, gateway } = await investigateAt(
      apiTools(world),
      'meter-ingest cannot publish readings since 11:30',
      NOW,
    );
    // the broker pod's log was read in its own namespace
    expect(
      gateway.calls.some(
        (c) =>
          c.tool === 'k8s:pods_log' &&
          c.params['name'] === 'events-kafka-1' &&
          c.params['namespace'] === 'kafka',
      ),
    ).toBe(true);
    expect(text).toContain(
      'meter-ingest fails because events-kafka (pod events-kafka-1), which it calls',
    );
    expect(text).toContain('log.retention.bytes');
  });

  describe('"Only pod X shows it"', () => {
    const ns = 'orders';
    const image = 'registry.example.org/orders/order-api:9.4.1';
    const names = [
      'order-api-5f6d8c7b9-a1b2c',
      'order-api-5f6d8c7b9-d3e4f',
      'order-api-5f6d8c7b9-g5h6j',
    ];
    const failing = (m: number) =>
      `${ago(m).slice(0, 19).replace('T', ' ')}.551 ERROR 1 --- [nio-8080-exec-4] o.h.engine.jdbc.spi.SqlExceptionHelper   : FATAL: password authentication failed for user "order_api"`;
    const fine = (m: number) =>
      `${ago(m).slice(0, 19).replace('T', ' ')}.102  INFO 1 --- [nio-8080-exec-2] c.e.orders.web.OrderController           : GET /orders/recent 200 14ms`;
    const world = (failingPods: number): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('order-api', ns, [image], 3, 3),
        ...names.map((n, i) =>
          podObj({
            name: n,
            ns,
            labels: { app: 'order-api' },
            owner: { kind: 'ReplicaSet', name: 'order-api-5f6d8c7b9' },
            node: `gke-prod-pool-a-7e1d${i}c3b-x${i}q2`,
            boxes: [{ name: 'order-api', image }],
          }),
        ),
      ],
      logs: Object.fromEntries(
        names.map((n, i) => [
          n,
          [fine(50), ...(i < failingPods ? [25, 16, 8, 2].map(failing) : [fine(20), fine(4)])].join(
            '\n',
          ),
        ]),
      ),
    });
    const ask = 'order-api in orders returns 500 on some requests';

    it('all three pods log the same error: not "Only pod"; one of three: it is said', async () => {
      const all = await investigateAt(apiTools(world(3)), ask, NOW, ns);
      expect(all.text).toContain('password authentication failed');
      expect(all.text).not.toContain('Only pod');

      const one = await investigateAt(apiTools(world(1)), ask, NOW, ns);
      expect(one.text).toContain('password authentication failed');
      expect(one.text).toContain(`Only pod ${names[0]}`);
    });
  });
});
