/**
 * The engine rules of round30 (r30a) (cause-catalog.data.ts, its "round30 (r30a)" block, variables
 * in finding-vars-r30a.ts, the finding in diagnose-r30a.ts), one test per rule, each with a near
 * miss where it must not fire: an app that crashes on "nats: stream not found" while the JetStream
 * Stream it names was refused for lack of storage (err_code 10047; the Stream object read); a
 * Kafka client that finds no topic while the KafkaTopic of that name is Ready=False (the
 * KafkaTopics listed, the topic operator's reason quoted); a Loki ingester whose flushes MinIO
 * refuses as full (XMinioStorageFull) while the Loki configuration it mounts leaves compactor
 * retention disabled (the ConfigMap read, its retention kept by observe/config-r30a.ts); a
 * PostgreSQL standby whose primary already removed the WAL it asks for, while its CloudNativePG
 * Cluster keeps no replication slots for the standbys (the Cluster read).
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
  stamped,
  warningEvent,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

describe('round30 rules (r30a): a broker that refuses what an app needs', () => {
  it('"stream not found" while NATS refused to create that stream (insufficient storage): the refusal and max_file_store are named; a stream that exists but errs otherwise: not this rule', async () => {
    const ns = 'orders';
    const app = 'order-relay';
    const pod = `${app}-6d8f7b9c5d-k9m4p`;
    const stream = (message: string): Obj => ({
      apiVersion: 'jetstream.nats.io/v1beta2',
      kind: 'Stream',
      metadata: { name: 'orders', namespace: ns, creationTimestamp: ago(60) },
      spec: {
        name: 'ORDERS',
        subjects: ['orders.>'],
        storage: 'file',
        replicas: 3,
        maxBytes: 2147483648,
      },
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'Errored',
            message,
            lastTransitionTime: ago(60),
          },
        ],
      },
    });
    const world = (message: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [`registry.example.com/${app}:1.0.0`], 1, 0),
        podObj({
          name: pod,
          ns,
          labels: { app },
          owner: { kind: 'ReplicaSet', name: `${app}-6d8f7b9c5d` },
          boxes: [
            {
              name: app,
              image: `registry.example.com/${app}:1.0.0`,
              restarts: 9,
              state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
              lastState: { terminated: { exitCode: 1, reason: 'Error' } },
            },
          ],
        }),
        stream(message),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: pod },
          'BackOff',
          `Back-off restarting failed container ${app}`,
          30,
          1,
          20,
        ),
      ],
      logs: { [pod]: log },
      previous: { [pod]: log },
    });
    const log = stamped([
      [6, '{"level":"info","msg":"connected to NATS","url":"nats://nats.messaging:4222"}'],
      [
        5,
        '{"level":"fatal","msg":"cannot bind durable consumer","stream":"ORDERS","error":"nats: stream not found"}',
      ],
    ]);
    const ask = `${app} in ${ns} is crashlooping since its first deploy, why?`;
    const refused =
      'failed to create stream "ORDERS": nats: API error: code=500 err_code=10047 description=insufficient storage resources available';
    const answer = answerOf((await investigateAt(apiTools(world(refused)), ask, NOW, ns)).result);
    expect(answer).toContain('insufficient storage resources');
    expect(answer).toContain('max_file_store');
    expect(answer).toContain('ORDERS');

    const other =
      'failed to create stream "ORDERS": nats: API error: code=400 err_code=10058 description=stream name already in use with a different configuration';
    const near = answerOf((await investigateAt(apiTools(world(other)), ask, NOW, ns)).result);
    expect(near).not.toMatch(/max_file_store|insufficient storage/);
  });

  it('"Topic X not present in metadata" while the KafkaTopic X is not Ready: its replication factor and the broker count are quoted; a Ready topic: not this rule', async () => {
    const ns = 'payments';
    const app = 'payout-api';
    const pod = `${app}-7c9d8f6b5-x2p4q`;
    const topic = (ready: boolean): Obj => ({
      apiVersion: 'kafka.strimzi.io/v1beta2',
      kind: 'KafkaTopic',
      metadata: { name: 'payouts', namespace: 'streaming', creationTimestamp: ago(90) },
      spec: { partitions: 6, replicas: 3 },
      status: {
        conditions: [
          ready
            ? { type: 'Ready', status: 'True', lastTransitionTime: ago(90) }
            : {
                type: 'Ready',
                status: 'False',
                reason: 'KafkaError',
                message:
                  'org.apache.kafka.common.errors.InvalidReplicationFactorException: Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be reached because only 1 broker(s) are registered.',
                lastTransitionTime: ago(90),
              },
        ],
      },
    });
    const log = stamped([
      [20, 'INFO Started PayoutApiApplication in 4.1 seconds'],
      [
        5,
        'ERROR o.s.k.support.LoggingProducerListener : Exception thrown when sending a message to topic payouts:\norg.apache.kafka.common.errors.TimeoutException: Topic payouts not present in metadata after 60000 ms.',
      ],
    ]);
    const world = (ready: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('streaming'),
        deploymentObj(app, ns, [`registry.example.com/${app}:2.0.0`], 1, 1),
        podObj({
          name: pod,
          ns,
          labels: { app },
          owner: { kind: 'ReplicaSet', name: `${app}-7c9d8f6b5` },
          boxes: [{ name: app, image: `registry.example.com/${app}:2.0.0` }],
        }),
        topic(ready),
      ],
      logs: { [pod]: log },
    });
    const ask = `every payout request of ${app} in ${ns} fails with 500, pods look fine. why?`;
    const answer = answerOf((await investigateAt(apiTools(world(false)), ask, NOW, ns)).result);
    expect(answer).toContain('KafkaTopic payouts');
    expect(answer).toContain('replicas: 3');
    expect(answer).toContain('only 1 broker');

    const near = answerOf((await investigateAt(apiTools(world(true)), ask, NOW, ns)).result);
    expect(near).not.toMatch(/KafkaTopic|broker\(s\)/);
  });

  it('flushes refused by MinIO as full while the Loki config leaves retention disabled: retention_enabled is quoted; retention enabled: not said to be disabled; no storage-full line: not this rule', async () => {
    const ns = 'logging';
    const pod = 'loki-ingester-0';
    const config = (compactor: string) =>
      [
        'auth_enabled: false',
        'common:',
        '  path_prefix: /var/loki',
        '  storage:',
        '    s3:',
        '      endpoint: minio.logging.svc:9000',
        '      bucketnames: chunks',
        'schema_config:',
        '  configs:',
        '    - from: "2025-01-01"',
        '      store: tsdb',
        '      object_store: s3',
        '      schema: v13',
        'ingester:',
        '  chunk_encoding: snappy',
        '  wal:',
        '    enabled: true',
        '    dir: /var/loki/wal',
        'limits_config:',
        '  retention_period: 720h',
        '  ingestion_rate_mb: 16',
        '  ingestion_burst_size_mb: 32',
        '  max_query_series: 5000',
        'compactor:',
        '  working_directory: /var/loki/compactor',
        '  compaction_interval: 10m',
        compactor,
      ].join('\n');
    const full = stamped([
      [30, 'level=info caller=flush.go:302 component=ingester msg="flushing stream" num_chunks=1'],
      [
        20,
        'level=error caller=flush.go:261 component=ingester msg="failed to flush" err="failed to flush chunks: store put chunk: XMinioStorageFull: Storage backend has reached its minimum free drive threshold. Please delete a few objects to proceed.\\n\\tstatus code: 507"',
      ],
      [
        5,
        'level=error caller=flush.go:261 component=ingester msg="failed to flush" err="failed to flush chunks: store put chunk: XMinioStorageFull: Storage backend has reached its minimum free drive threshold. Please delete a few objects to proceed.\\n\\tstatus code: 507"',
      ],
    ]);
    const world = (compactor: string, log: string): ApiWorld => {
      const p = podObj({
        name: pod,
        ns,
        labels: { app: 'loki-ingester' },
        owner: { kind: 'StatefulSet', name: 'loki-ingester' },
        boxes: [{ name: 'loki', image: 'grafana/loki:3.1.1' }],
      });
      (p['spec'] as Obj)['volumes'] = [{ name: 'config', configMap: { name: 'loki-config' } }];
      return {
        objects: [
          namespaceObj(ns),
          p,
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'loki-config', namespace: ns, creationTimestamp: ago(60 * 24 * 90) },
            data: { 'config.yaml': config(compactor) },
          },
        ],
        logs: { [pod]: log },
      };
    };
    const ask = `loki-ingester in ${ns} keeps growing in memory, should I give it more?`;
    const off = answerOf(
      (await investigateAt(apiTools(world('  retention_enabled: false', full)), ask, NOW, ns))
        .result,
    );
    expect(off).toContain('XMinioStorageFull');
    expect(off).toContain('retention_enabled: false');
    expect(off).toContain('retention_period 720h is never enforced');

    const on = answerOf(
      (await investigateAt(apiTools(world('  retention_enabled: true', full)), ask, NOW, ns))
        .result,
    );
    expect(on).toContain('XMinioStorageFull');
    expect(on).not.toContain('retention is disabled');

    const quiet = stamped([
      [5, 'level=info caller=flush.go:302 component=ingester msg="flushing stream" num_chunks=1'],
    ]);
    const none = answerOf(
      (await investigateAt(apiTools(world('  retention_enabled: false', quiet)), ask, NOW, ns))
        .result,
    );
    expect(none).not.toMatch(/object store|retention_enabled/);
  });

  it("a standby asks for a WAL segment the primary already removed: the segment and the Cluster's disabled replication slots are named; slots enabled: not said disabled; a standby streaming fine: not this rule", async () => {
    const ns = 'shop';
    const pod = 'cart-db-3';
    const cluster = (ha: boolean): Obj => ({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'cart-db', namespace: ns, creationTimestamp: ago(60 * 24 * 100) },
      spec: {
        instances: 3,
        replicationSlots: { highAvailability: { enabled: ha } },
        postgresql: { parameters: { wal_keep_size: '256MB' } },
      },
      status: { phase: 'Cluster in healthy state', currentPrimary: 'cart-db-1' },
    });
    const removed = stamped([
      [
        40,
        '{"level":"info","logger":"postgres","msg":"record","record":{"error_severity":"LOG","message":"started streaming WAL from primary at 1B/2A000000 on timeline 2","backend_type":"walreceiver"}}',
      ],
      [
        5,
        '{"level":"info","logger":"postgres","msg":"record","record":{"error_severity":"FATAL","sql_state_code":"08P01","message":"could not receive data from WAL stream: ERROR:  requested WAL segment 000000020000001B0000002A has already been removed","backend_type":"walreceiver"}}',
      ],
    ]);
    const fine = stamped([
      [
        40,
        '{"level":"info","logger":"postgres","msg":"record","record":{"error_severity":"LOG","message":"started streaming WAL from primary at 1B/2A000000 on timeline 2","backend_type":"walreceiver"}}',
      ],
    ]);
    const world = (ha: boolean, log: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        podObj({
          name: pod,
          ns,
          labels: { 'cnpg.io/cluster': 'cart-db', 'cnpg.io/instanceRole': 'replica' },
          owner: { kind: 'Cluster', name: 'cart-db' },
          boxes: [{ name: 'postgres', image: 'ghcr.io/cloudnative-pg/postgresql:16.6' }],
        }),
        cluster(ha),
      ],
      logs: { [pod]: log },
    });
    const ask = `replication lag alert on ${pod} in ${ns}, the cluster says healthy. what is wrong?`;
    const off = answerOf(
      (await investigateAt(apiTools(world(false, removed)), ask, NOW, ns)).result,
    );
    expect(off).toContain('000000020000001B0000002A');
    expect(off).toContain('has already been removed');
    expect(off).toContain('replicationSlots.highAvailability.enabled: false');
    expect(off).toContain('wal_keep_size 256MB');

    const on = answerOf((await investigateAt(apiTools(world(true, removed)), ask, NOW, ns)).result);
    expect(on).toContain('has already been removed');
    expect(on).not.toContain('replication slots disabled');

    const ok = answerOf((await investigateAt(apiTools(world(false, fine)), ask, NOW, ns)).result);
    expect(ok).not.toMatch(/already been removed|replicationSlots/);
  });
});
