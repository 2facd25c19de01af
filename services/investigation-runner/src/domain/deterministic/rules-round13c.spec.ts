/**
 * The engine rules of 7d50f2c and 31b7345, one test each with its counter-case, on small worlds of
 * outputs shaped like real ones (Kubernetes API objects and events, the logs of a Python HTTP
 * client, Envoy's access log in an istio-proxy container, a Spring Boot Kafka producer and a
 * Kafka broker): a client without a mesh sidecar whose calls to a meshed Service in another
 * namespace are reset (STRICT mTLS, NR filter_chain_not_found), and a Kafka broker of another
 * namespace that shut itself down when its log dirs failed behind a producer that sees
 * NOT_LEADER_OR_FOLLOWER and expiring records. The meshed pods carry istio-proxy first (a log
 * read naming no container gets the proxy's access log) or second (the engine then reads the
 * proxy's log by its name, because the callers' connections are reset).
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
} from './spec-world';

type Obj = Record<string, unknown>;

/** a ClusterIP Service in `ns` selecting `app` on `port` */

/** the istio-proxy sidecar container Istio's injector adds */
const istioProxy: Box = { name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.22.3' };

/** `kubectl logs` timestamps: RFC 3339 with milliseconds, `minutesAgo` */
const ms = (minutesAgo: number, millis: number) =>
  ago(minutesAgo).replace(/\.000Z$/, `.${String(millis).padStart(3, '0')}Z`);

// ------------------------------------------------------------------------------------------------

describe('a client outside the mesh reset by a STRICT mTLS sidecar (7d50f2c)', () => {
  const clientNs = 'fleet-planning';
  const depNs = 'vehicle-registry';
  const image = 'registry.example.org/fleet/route-planner:2.14.0';
  const depImage = 'registry.example.org/registry/vin-lookup:7.3.1';
  const client = 'route-planner-58d9c7b6f4-x2lq8';
  const depPods = ['vin-lookup-6f4b8d9c7-m3zr5', 'vin-lookup-6f4b8d9c7-t8wkd'];
  const url = `http://vin-lookup.${depNs}.svc.cluster.local:8080`;
  const peerAuth: Obj = {
    apiVersion: 'security.istio.io/v1',
    kind: 'PeerAuthentication',
    metadata: { name: 'default', namespace: depNs, creationTimestamp: ago(52) },
    spec: { mtls: { mode: 'STRICT' } },
  };
  /** an Envoy access-log line of a plaintext connection no filter chain accepts */
  const dropped = (minutesAgo: number, millis: number, port: number) =>
    `[${ms(minutesAgo, millis)}] "- - -" 0 NR filter_chain_not_found - "-" 0 0 0 - "-" "-" "-" "-" "-" - - 10.52.7.31:8080 10.52.3.18:${port} - -`;

  function world(clientMeshed: boolean, proxyFirst = true): ApiWorld {
    const app = { name: 'vin-lookup', image: depImage };
    return {
      objects: [
        namespaceObj(clientNs),
        namespaceObj(depNs),
        deploymentObj('route-planner', clientNs, [image], 1, 1),
        podObj({
          name: client,
          ns: clientNs,
          labels: { app: 'route-planner' },
          owner: { kind: 'ReplicaSet', name: 'route-planner-58d9c7b6f4' },
          created: 60 * 30,
          boxes: [{ name: 'route-planner', image }, ...(clientMeshed ? [istioProxy] : [])],
        }),
        deploymentObj('vin-lookup', depNs, [depImage], 2, 2),
        serviceObj('vin-lookup', depNs, { app: 'vin-lookup' }, 8080, { clusterIP: '10.100.72.45' }),
        ...depPods.map((name) =>
          podObj({
            name,
            ns: depNs,
            labels: { app: 'vin-lookup' },
            owner: { kind: 'ReplicaSet', name: 'vin-lookup-6f4b8d9c7' },
            created: 60 * 24 * 4,
            // injected first (holdApplicationUntilProxyStarts): a log read that names no
            // container gets the proxy's, the one the engine reads of a healthy dependency
            // (or second, the usual order: then the proxy's log is read by its name)
            boxes: proxyFirst ? [istioProxy, app] : [app, istioProxy],
          }),
        ),
        peerAuth,
      ],
      logs: {
        [client]: [
          `${ms(58, 214)} INFO route_planner.sync: refreshed 1840 vehicles from ${url}/v3/vehicles in 0.41s`,
          ...[44, 33, 22, 11, 2].map(
            (m, i) =>
              `${ms(m, 87 + i)} ERROR route_planner.sync: GET ${url}/v3/vehicles?changed_since=${ago(m + 11)} failed: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))`,
          ),
        ].join('\n'),
        ...Object.fromEntries(
          depPods.flatMap((pod, p) => [
            [
              proxyFirst ? pod : `${pod}/istio-proxy`,
              [
                `[${ms(40, 118)}] "GET /v3/vehicles/WVWZZZ1JZXW000123 HTTP/1.1" 200 - via_upstream - "-" 0 612 4 3 "-" "dispatch-api/5.1.0" "0c9e7d4a-2b61-4f3e-9a58-7d1c6b2e40f9" "vin-lookup.${depNs}.svc.cluster.local:8080" "10.52.7.31:8080" inbound|8080|| 127.0.0.6:51234 10.52.7.31:8080 10.52.9.4:40122 outbound_.8080_._.vin-lookup.${depNs}.svc.cluster.local default`,
                ...[43, 32, 21, 10, 1].map((m, i) => dropped(m, 301 + i * 7, 41810 + p * 100 + i)),
              ].join('\n'),
            ],
            [
              proxyFirst ? `${pod}/vin-lookup` : pod,
              `${ms(3, 412)} INFO  vin_lookup.http: GET /v3/vehicles/WF0XXXGCDX7A12345 200 2ms`,
            ],
          ]),
        ),
      },
    };
  }

  it.each([
    ['istio-proxy first', true],
    ['istio-proxy second, its log read by name', false],
  ])(
    'route-planner (no istio-proxy) logs "Connection reset by peer" calling vin-lookup in another namespace, whose pods run istio-proxy (%s) logging NR filter_chain_not_found: no sidecar, mTLS STRICT and the count are said',
    async (_order, proxyFirst) => {
      const { text } = await investigateAt(
        apiTools(world(false, proxyFirst)),
        `route-planner in ${clientNs} cannot refresh vehicles since about 11:15, connection resets from vin-lookup`,
        NOW,
        clientNs,
      );
      expect(text).toContain(
        'route-planner has no service-mesh sidecar, while vin-lookup runs the istio-proxy sidecar',
      );
      expect(text).toContain('STRICT');
      expect(text).toMatch(
        /vin-lookup's istio-proxy logs [1-9]\d* connection\(s\) it dropped with NR filter_chain_not_found/,
      );
    },
  );

  it('the same world with an istio-proxy in the client\'s pod: no "no service-mesh sidecar" finding', async () => {
    const { text, gateway } = await investigateAt(
      apiTools(world(true)),
      `route-planner in ${clientNs} cannot refresh vehicles since about 11:15, connection resets from vin-lookup`,
      NOW,
      clientNs,
    );
    // the dependency was still looked at: the rule, not the gathering, kept silent
    expect(
      gateway.calls.some(
        (c) =>
          c.tool === 'k8s:pods_log' &&
          c.params['namespace'] === depNs &&
          depPods.includes(String(c.params['name'])),
      ),
    ).toBe(true);
    expect(text).toContain('Connection reset by peer');
    expect(text).not.toContain('no service-mesh sidecar');
    expect(text).not.toContain('PeerAuthentication');
  });
});

// ------------------------------------------------------------------------------------------------

describe('a Kafka broker whose log dirs failed behind a producer that sees no leader (31b7345)', () => {
  const ns = 'shipping';
  const image = 'registry.example.org/shipping/parcel-events:4.9.2';
  const kafkaImage = 'docker.io/bitnami/kafka:3.7.1';
  const producer = 'parcel-events-7c6d5b9f8-q4hzn';

  /** a Spring Boot 3 log line of the parcel-events application */
  const spring = (
    minutesAgo: number,
    millis: number,
    level: string,
    thread: string,
    rest: string,
  ) => `${ms(minutesAgo, millis)} ${level.padStart(5)} 1 --- [parcel-events] [${thread}] ${rest}`;

  function world(brokerFails: boolean): ApiWorld {
    const broker = (i: number): Obj =>
      podObj({
        name: `kafka-${i}`,
        ns: 'kafka',
        labels: { 'app.kubernetes.io/name': 'kafka', 'app.kubernetes.io/component': 'broker' },
        owner: { kind: 'StatefulSet', name: 'kafka' },
        created: 60 * 24 * 45,
        claims: [`data-kafka-${i}`],
        boxes: [
          brokerFails && i === 1
            ? {
                name: 'kafka',
                image: kafkaImage,
                restarts: 9,
                state: {
                  waiting: {
                    reason: 'CrashLoopBackOff',
                    message: 'back-off 5m0s restarting failed container=kafka pod=kafka-1_kafka',
                  },
                },
                lastState: {
                  terminated: {
                    reason: 'Error',
                    exitCode: 1,
                    startedAt: ago(6),
                    finishedAt: ago(5),
                  },
                },
              }
            : { name: 'kafka', image: kafkaImage },
        ],
      });
    const brokers: Obj = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'kafka', namespace: 'kafka', creationTimestamp: ago(60 * 24 * 45) },
      spec: {
        replicas: 3,
        serviceName: 'kafka-headless',
        selector: { matchLabels: { 'app.kubernetes.io/name': 'kafka' } },
        template: {
          metadata: { labels: { 'app.kubernetes.io/name': 'kafka' } },
          spec: { containers: [{ name: 'kafka', image: kafkaImage }] },
        },
      },
      status: { replicas: 3, readyReplicas: brokerFails ? 2 : 3, currentReplicas: 3 },
    };
    return {
      objects: [
        namespaceObj(ns),
        namespaceObj('kafka'),
        deploymentObj('parcel-events', ns, [image], 1, 1),
        podObj({
          name: producer,
          ns,
          labels: { app: 'parcel-events' },
          owner: { kind: 'ReplicaSet', name: 'parcel-events-7c6d5b9f8' },
          created: 60 * 24 * 3,
          boxes: [{ name: 'parcel-events', image }],
        }),
        brokers,
        broker(0),
        broker(1),
        broker(2),
      ],
      events: brokerFails
        ? [
            warningEvent(
              'kafka',
              { kind: 'Pod', name: 'kafka-1' },
              'BackOff',
              'Back-off restarting failed container kafka in pod kafka-1_kafka(9a2c4e6b-1d3f-4b5a-8c7e-0f2d4b6a8c1e)',
              29,
              1,
              31,
            ),
          ]
        : [],
      logs: {
        [producer]: [26, 17, 8]
          .flatMap((m, i) => [
            spring(
              m,
              140 + i,
              'WARN',
              'ad | producer-1',
              `o.a.k.c.p.internals.Sender               : [Producer clientId=producer-1] Got error produce response with correlation id ${77310 + i * 41} on topic-partition parcel-status-3, retrying (2147483645 attempts left). Error: NOT_LEADER_OR_FOLLOWER`,
            ),
            spring(
              m - 2,
              615 + i,
              'ERROR',
              'ad | producer-1',
              `o.s.k.support.LoggingProducerListener    : Exception thrown when sending a message with key='PCL-${40871 + i}' and payload='ParcelStatus(id=PCL-${40871 + i}, state=OUT_FOR_DELIVERY)' to topic parcel-status and partition 3:`,
            ),
            `org.apache.kafka.common.errors.TimeoutException: Expiring ${12 + i} record(s) for parcel-status-3:120000 ms has passed since batch creation`,
          ])
          .join('\n'),
      },
      previous: brokerFails
        ? {
            'kafka-1': [
              '[2026-03-10 11:54:21,307] INFO [KafkaServer id=1] started (kafka.server.KafkaServer)',
              '[2026-03-10 11:54:48,912] ERROR Error while writing to checkpoint file /var/lib/kafka/data/replication-offset-checkpoint (kafka.server.LogDirFailureChannel)',
              'java.io.IOException: Input/output error',
              '\tat java.base/sun.nio.ch.FileDispatcherImpl.force0(Native Method)',
              '\tat java.base/sun.nio.ch.FileChannelImpl.force(FileChannelImpl.java:472)',
              '\tat org.apache.kafka.server.common.CheckpointFile.write(CheckpointFile.java:85)',
              '[2026-03-10 11:54:48,930] WARN [ReplicaManager broker=1] Stopping serving replicas in dir /var/lib/kafka/data (kafka.server.ReplicaManager)',
              '[2026-03-10 11:54:48,951] ERROR Shutdown broker because all log dirs in /var/lib/kafka/data have failed (kafka.log.LogManager)',
            ].join('\n'),
          }
        : undefined,
    };
  }

  it('parcel-events logs NOT_LEADER_OR_FOLLOWER and "Expiring 12 record(s)", brokers in namespace kafka, kafka-1 crash-looping after "all log dirs ... have failed": that broker pod and its failed log dirs are said', async () => {
    // no namespace given: the pods are listed cluster-wide; the producer has no KAFKA_* env
    const { text, gateway } = await investigateAt(
      apiTools(world(true)),
      'parcel-events stopped publishing parcel status updates around 11:30',
      NOW,
    );
    expect(
      gateway.calls.some(
        (c) =>
          c.tool === 'k8s:pods_log' &&
          c.params['name'] === 'kafka-1' &&
          c.params['namespace'] === 'kafka' &&
          c.params['previous'] === true,
      ),
    ).toBe(true);
    expect(text).toContain('parcel-events fails because kafka (pod kafka-1), which it calls');
    expect(text).toContain('Kafka broker kafka shuts itself down: its log directories failed');
    expect(text).toMatch(/Input\/output error|all log dirs in \/var\/lib\/kafka\/data have failed/);
  });

  it('the same producer while every broker is healthy: no broker is said to have failed log dirs', async () => {
    const { text } = await investigateAt(
      apiTools(world(false)),
      'parcel-events stopped publishing parcel status updates around 11:30',
      NOW,
    );
    // the client's symptom alone: a leader is missing, no broker's disk is blamed
    expect(text).toContain("parcel-events's Kafka client finds no leader for some partitions");
    expect(text).not.toMatch(/log dir|log directories|Input\/output error/i);
  });
});
