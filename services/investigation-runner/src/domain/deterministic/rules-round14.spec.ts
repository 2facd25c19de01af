/**
 * The engine rules of 3221ed7 and e92f91a, one test per rule, each with a world where the rule
 * must not fire, on outputs shaped like real ones (Kubernetes API objects and events, `kubectl
 * top pod`, `kubectl describe pod`, the logs of a JVM, Celery, ingress-nginx, pika, kafkajs, a Go
 * client, pymemcache and mysqld): CPU at the limit on some pods of a workload and idle on the
 * others (a Service pinning clients with sessionAffinity ClientIP, or not), a JVM that cannot
 * start threads, Celery workers killed with SIGKILL, nginx's upstream closing keep-alive
 * connections, RabbitMQ disk and memory alarms, a DNS-01 solver refused by Route 53, a Kafka
 * client handed a broker name it cannot resolve, a node without routes (NetworkUnavailable), an
 * expired client certificate read through subPath mounts, a full memcached with evictions
 * disabled behind a database said to be overloaded, and a MySQL replica whose SQL thread stopped.
 */
import {
  NOW,
  ago,
  apiTools,
  deploymentObj,
  describePod,
  investigateAt,
  kubeTime,
  namespaceObj,
  podObj,
  podsTable,
  str,
  table,
  textTools,
  warningEvent,
  type ApiWorld,
  type Box,
  type FakeTool,
  type TextWorld,
  answerOf,
  serviceObj,
  statefulSetObj,
  withEnv,
} from './spec-world';

type Obj = Record<string, unknown>;

/** the pods of one ReplicaSet of a Deployment, each with these containers */
const replicas = (
  app: string,
  hash: string,
  ns: string,
  suffixes: string[],
  boxes: Box[],
  node = 'ip-10-40-3-77.eu-west-1.compute.internal',
): Obj[] =>
  suffixes.map((s, i) =>
    podObj({
      name: `${app}-${hash}-${s}`,
      ns,
      labels: { app, 'pod-template-hash': hash },
      owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
      node,
      created: 60 * 20,
      podIP: `10.40.7.${21 + i}`,
      boxes,
    }),
  );

/** a ClusterIP Service selecting app=<app>, with spec.sessionAffinity when given */

/** a Service on port 80 for the pods of `app`, with ClientIP affinity when given */
const service = (name: string, ns: string, app: string, port: number, affinity?: string) =>
  serviceObj(name, ns, { app }, port, {
    port: 80,
    clusterIP: '172.20.118.41',
    spec: affinity
      ? {
          sessionAffinity: affinity,
          sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
        }
      : { sessionAffinity: 'None' },
  });

/** `kubectl top pod` as a tool: [pod, cpu, memory] */
const topTool = (rows: [string, string, string][]): FakeTool => ({
  name: 'pods_top',
  description: 'List the resource consumption (CPU and memory) of pods, as kubectl top pod',
  properties: { namespace: str, all_namespaces: { type: 'boolean' } },
  handler: () => table(['NAME', 'CPU(cores)', 'MEMORY(bytes)'], rows),
});

/** a container of a Deployment's pod with these limits */
const boxOf = (name: string, image: string, limits: Record<string, string>): Box => ({
  name,
  image,
  resources: { limits, requests: limits },
});

/** sets env on every container of a Pod object */

// ------------------------------------------------------------------------------------------------

describe('rules of 3221ed7', () => {
  describe('uneven CPU across the pods of one workload', () => {
    const ns = 'fx-pricing';
    const image = 'registry.example.net/fx/rate-quoter:7.3.2';
    const hash = '5c9d8b7f64';
    const suffixes = ['b2m8k', 'h6q3t', 'n4w9z', 'r7c5x', 'v1p2d'];
    const pods = suffixes.map((s) => `rate-quoter-${hash}-${s}`);
    const world = (affinity?: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('rate-quoter', ns, [image], 5, 5, [], { created: 60 * 24 * 150 }),
        ...replicas('rate-quoter', hash, ns, suffixes, [
          boxOf('rate-quoter', image, { cpu: '1', memory: '768Mi' }),
        ]),
        service('rate-quoter', ns, 'rate-quoter', 8080, affinity),
      ],
    });
    /** the first two pods near their 1 CPU limit, the other three near idle (or all hot) */
    const top = (allHot = false) =>
      topTool(
        pods.map((p, i): [string, string, string] => [
          p,
          allHot || i < 2 ? `${988 + i}m` : `${4 + i}m`,
          '402Mi',
        ]),
      );
    const message = 'rate-quoter in fx-pricing has p99 latency over 2s, some requests are slow';

    it('two pods at the limit and three idle: sessionAffinity ClientIP named with the hot pods; without it long-lived connections; all hot: no "not spread"', async () => {
      const pinned = await investigateAt([...apiTools(world('ClientIP')), top()], message, NOW, ns);
      expect(pinned.text).toMatch(/only 2 of its 5 pods/);
      expect(pinned.text).toContain(pods[0]);
      expect(pinned.text).toContain(pods[1]);
      expect(pinned.text).toMatch(/sessionAffinity ClientIP/);
      expect(pinned.text).toContain('Set sessionAffinity: None on Service rate-quoter');
      expect(pinned.text).not.toContain(pods[3]);

      const plain = await investigateAt([...apiTools(world()), top()], message, NOW, ns);
      expect(plain.text).toMatch(/only 2 of its 5 pods/);
      expect(plain.text).toMatch(/long-lived connections/);
      expect(plain.text).not.toMatch(/ClientIP/);

      const busy = await investigateAt(
        [...apiTools(world('ClientIP')), top(true)],
        message,
        NOW,
        ns,
      );
      expect(busy.text).toMatch(/CPU-throttled/);
      expect(busy.text).not.toMatch(/not spread/);
      expect(busy.text).not.toMatch(/sessionAffinity/);
    });
  });

  describe('a JVM that cannot start threads', () => {
    const ns = 'ledger';
    const image = 'registry.example.net/ledger/posting-engine:3.18.0';
    const hash = '7d4f9c8b56';
    const podName = `posting-engine-${hash}-k3x8w`;
    const world = (error: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('posting-engine', ns, [image], 1, 0, [], { created: 60 * 24 * 70 }),
        podObj({
          name: podName,
          ns,
          labels: { app: 'posting-engine', 'pod-template-hash': hash },
          owner: { kind: 'ReplicaSet', name: `posting-engine-${hash}` },
          created: 60 * 3,
          boxes: [
            {
              ...boxOf('posting-engine', image, { cpu: '2', memory: '3Gi' }),
              ready: false,
              restarts: 9,
              state: {
                waiting: {
                  reason: 'CrashLoopBackOff',
                  message: `back-off 5m0s restarting failed container=posting-engine pod=${podName}`,
                },
              },
              lastState: {
                terminated: {
                  reason: 'Error',
                  exitCode: 1,
                  startedAt: ago(9),
                  finishedAt: ago(6),
                },
              },
            },
          ],
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: podName },
          'BackOff',
          'Back-off restarting failed container posting-engine in pod',
          170,
          1,
          41,
        ),
      ],
      previous: {
        [podName]: [
          '2026-03-10 11:51:02.118  INFO 1 --- [           main] c.e.ledger.PostingEngineApplication      : Started PostingEngineApplication in 11.4 seconds',
          '2026-03-10 11:53:47.902  INFO 1 --- [  batch-pool-17] c.e.ledger.batch.PostingBatch            : fan-out of batch 88213 over 640 accounts',
          `2026-03-10 11:53:48.311 ERROR 1 --- [  batch-pool-17] o.s.b.SpringApplication                  : Application run failed`,
          `Exception in thread "batch-pool-17" ${error}`,
          '\tat java.base/java.lang.Thread.start0(Native Method)',
          '\tat java.base/java.lang.Thread.start(Thread.java:1526)',
          '\tat java.base/java.util.concurrent.ThreadPoolExecutor.addWorker(ThreadPoolExecutor.java:945)',
        ].join('\n'),
      },
    });
    const message = 'posting-engine keeps restarting in ledger since the month-end batch started';

    it('"unable to create native thread" is a PIDs/thread limit, not the heap; "Java heap space" is the heap, no PIDs claim', async () => {
      const threads = await investigateAt(
        apiTools(
          world(
            'java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached',
          ),
        ),
        message,
        NOW,
        ns,
      );
      const a = answerOf(threads.result);
      expect(a).toMatch(/cannot start more threads/);
      expect(a).toMatch(/PIDs limit/);
      expect(threads.text).toContain('podPidsLimit');
      expect(a).not.toMatch(/runs out of its runtime heap/);

      const heap = await investigateAt(
        apiTools(world('java.lang.OutOfMemoryError: Java heap space')),
        message,
        NOW,
        ns,
      );
      expect(answerOf(heap.result)).toMatch(/runs out of its runtime heap/);
      expect(heap.text).not.toMatch(/PIDs limit|podPidsLimit|more threads/);
    });
  });

  describe('Celery workers killed with SIGKILL', () => {
    const ns = 'doc-intake';
    const image = 'registry.example.net/intake/scan-extractor:2.9.4';
    const hash = '6f8b9d7c45';
    const podName = `scan-extractor-${hash}-t5j2q`;
    const world = (lines: string[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('scan-extractor', ns, [image], 1, 1, [], { created: 60 * 24 * 40 }),
        ...replicas(
          'scan-extractor',
          hash,
          ns,
          ['t5j2q'],
          [boxOf('scan-extractor', image, { cpu: '1', memory: '1Gi' })],
        ),
      ],
      logs: {
        [podName]: [
          '[2026-03-10 11:40:02,114: INFO/MainProcess] Task extract.pages[0b1e6c1f-8d2a-4f0e-9b7c-3a6e1d4c2f90] received',
          '[2026-03-10 11:40:02,120: INFO/ForkPoolWorker-3] extract.pages: opening scan 55120 (412 pages)',
          ...lines,
          '[2026-03-10 11:41:30,877: INFO/MainProcess] Task extract.pages[6c2a9f41-1b3e-4d7a-8e5f-0c9b2d7a4e13] received',
        ].join('\n'),
      },
    });
    const message = 'scan-extractor in doc-intake fails some documents, the big ones never finish';

    it('"Worker exited prematurely: signal 9 (SIGKILL)" under a 1Gi limit: an OOM kill of a worker and the limit; exitcode 1: no OOM claim', async () => {
      const killed = await investigateAt(
        apiTools(
          world([
            "[2026-03-10 11:41:17,503: ERROR/MainProcess] Process 'ForkPoolWorker-3' pid:58 exited with 'signal 9 (SIGKILL)'",
            "[2026-03-10 11:41:17,522: ERROR/MainProcess] Task handler raised error: WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL) Job: 212.')",
            'billiard.exceptions.WorkerLostError: Worker exited prematurely: signal 9 (SIGKILL) Job: 212.',
          ]),
        ),
        message,
        NOW,
        ns,
      );
      const a = answerOf(killed.result);
      expect(a).toMatch(/worker processes are killed with SIGKILL/);
      expect(a).toMatch(/OOM killer/);
      expect(a).toMatch(/1Gi/);

      const failed = await investigateAt(
        apiTools(
          world([
            "[2026-03-10 11:41:17,522: ERROR/MainProcess] Task handler raised error: WorkerLostError('Worker exited prematurely: exitcode 1 Job: 212.')",
            'billiard.exceptions.WorkerLostError: Worker exited prematurely: exitcode 1 Job: 212.',
          ]),
        ),
        message,
        NOW,
        ns,
      );
      expect(failed.text).not.toMatch(/SIGKILL|OOM killer|killed with/);
    });
  });

  describe("ingress-nginx's upstream closing connections", () => {
    const ns = 'accounts';
    const image = 'registry.example.net/accounts/profile-api:6.0.1';
    const hash = '84c7d9b6f5';
    const controller = 'ingress-nginx-controller-6d9f7c8b45-x2r7m';
    const nginx = (detail: string, reading: string, i: number) =>
      `2026/03/10 11:${40 + i}:0${i} [error] 33#33: *${51873 + i * 97} ${detail} while ${reading} upstream, client: 10.40.1.${9 + i}, server: profile.example.net, request: "GET /v2/profile/me HTTP/2.0", upstream: "http://10.40.7.2${1 + (i % 2)}:3000/v2/profile/me", host: "profile.example.net"`;
    const world = (detail: string, reading: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('ingress-nginx'),
        deploymentObj('profile-api', ns, [image], 2, 2, [], { created: 60 * 24 * 300 }),
        ...replicas(
          'profile-api',
          hash,
          ns,
          ['f3k9p', 'm8d2v'],
          [
            {
              ...boxOf('profile-api', image, { cpu: '500m', memory: '512Mi' }),
              ports: [{ containerPort: 3000 }],
            },
          ],
        ),
        service('profile-api', ns, 'profile-api', 3000),
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: { name: 'profile-api', namespace: ns, creationTimestamp: ago(60 * 24 * 300) },
          spec: {
            ingressClassName: 'nginx',
            rules: [
              {
                host: 'profile.example.net',
                http: {
                  paths: [
                    {
                      path: '/',
                      pathType: 'Prefix',
                      backend: { service: { name: 'profile-api', port: { number: 80 } } },
                    },
                  ],
                },
              },
            ],
          },
        },
        podObj({
          name: controller,
          ns: 'ingress-nginx',
          labels: {
            'app.kubernetes.io/name': 'ingress-nginx',
            'app.kubernetes.io/component': 'controller',
          },
          owner: { kind: 'ReplicaSet', name: 'ingress-nginx-controller-6d9f7c8b45' },
          boxes: [
            { name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.10.1' },
          ],
        }),
      ],
      logs: { [controller]: [0, 1, 2, 3].map((i) => nginx(detail, reading, i)).join('\n') },
    });
    const message =
      'profile-api in accounts returns an occasional 502 through the ingress since 4.0';

    it('"upstream prematurely closed connection while reading response header": keep-alive timeouts; "connect() failed (111)": no keep-alive claim', async () => {
      const closed = await investigateAt(
        apiTools(world('upstream prematurely closed connection', 'reading response header from')),
        message,
        NOW,
        ns,
      );
      expect(closed.text).toMatch(/keep-alive timeout/);
      expect(closed.text).toMatch(/keepAliveTimeout/);
      expect(closed.text).toContain('Make the keep-alive timeout of profile-api longer');
      expect(closed.text).toContain(
        'upstream prematurely closed connection while reading response header',
      );

      const refused = await investigateAt(
        apiTools(world('connect() failed (111: Connection refused)', 'connecting to')),
        message,
        NOW,
        ns,
      );
      expect(refused.text).toContain('Connection refused');
      expect(refused.text).not.toMatch(/keep-alive|keepAliveTimeout/i);
    });
  });

  describe('RabbitMQ resource alarms blocking publishers', () => {
    const ns = 'settlement';
    const image = 'registry.example.net/settlement/batch-publisher:1.12.0';
    const hash = '59b8c7d6f4';
    const publisher = `batch-publisher-${hash}-w4n8c`;
    const broker = 'rabbitmq-server-0';
    const world = (publisherLog: string[], brokerLog: string[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('batch-publisher', ns, [image], 1, 1, [], { created: 60 * 24 * 30 }),
        ...replicas(
          'batch-publisher',
          hash,
          ns,
          ['w4n8c'],
          [boxOf('batch-publisher', image, { cpu: '250m', memory: '256Mi' })],
        ),
        podObj({
          name: broker,
          ns,
          labels: { 'app.kubernetes.io/name': 'rabbitmq-server' },
          owner: { kind: 'StatefulSet', name: 'rabbitmq-server' },
          boxes: [{ name: 'rabbitmq', image: 'docker.io/library/rabbitmq:3.13.7-management' }],
        }),
      ],
      logs: {
        [publisher]: [
          '2026-03-10 11:38:12,004 INFO batch_publisher.run: publishing batch 20260310-0412 (18211 messages)',
          ...publisherLog,
        ].join('\n'),
        [broker]: [
          '2026-03-10 09:12:44.018224+00:00 [info] <0.731.0> accepting AMQP connection <0.731.0> (10.40.7.21:51812 -> 10.40.7.40:5672)',
          ...brokerLog,
        ].join('\n'),
      },
    });
    const message = 'batch-publisher in settlement stopped publishing, batches pile up';

    it('"ConnectionBlockedTimeout ... (low on disk)": the disk alarm, no memory; the memory alarm: memory, no disk_free_limit', async () => {
      const disk = await investigateAt(
        apiTools(
          world(
            [
              '2026-03-10 11:39:12,031 WARNING pika.adapters.blocking_connection: publisher connection paused by the broker',
              '2026-03-10 11:40:12,040 ERROR batch_publisher.run: publish failed: pika.exceptions.ConnectionBlockedTimeout: blocked for 60s by the broker (low on disk)',
            ],
            [],
          ),
        ),
        message,
        NOW,
        ns,
      );
      const d = answerOf(disk.result);
      expect(d).toMatch(/RabbitMQ blocks the connections/);
      expect(d).toContain('disk_free_limit');
      expect(d).toContain('ConnectionBlockedTimeout');
      expect(disk.text).not.toMatch(/memory/i);

      const memory = await investigateAt(
        apiTools(
          world(
            [
              '2026-03-10 11:40:12,040 ERROR batch_publisher.run: publish of batch 20260310-0412 still waiting after 60s',
            ],
            [
              "2026-03-10 11:38:55.912734+00:00 [warning] <0.512.0> memory resource limit alarm set on node 'rabbit@rabbitmq-server-0.rabbitmq-server-nodes.settlement'.",
              '2026-03-10 11:38:55.912801+00:00 [warning] <0.512.0> Publishers will be blocked until this alarm clears',
            ],
          ),
        ),
        message,
        NOW,
        ns,
      );
      expect(memory.text).toMatch(/RabbitMQ blocks the connections/);
      expect(memory.text).toMatch(/memory high watermark/);
      expect(memory.text).not.toContain('disk_free_limit');
    });
  });

  describe('an ACME challenge that fails', () => {
    const ns = 'storefront';
    const certificate = (): Obj => ({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'storefront-tls', namespace: ns },
      spec: {
        secretName: 'storefront-tls',
        dnsNames: ['www.mercato-shop.example'],
        issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer' },
      },
      status: {
        notAfter: '2026-03-13T06:00:00Z',
        renewalTime: '2026-02-11T06:00:00Z',
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'Ready',
            message: 'Certificate is up to date and has not expired',
            lastTransitionTime: ago(60 * 24 * 58),
          },
          {
            type: 'Issuing',
            status: 'True',
            reason: 'Renewing',
            message:
              'Renewing certificate as renewal was scheduled at 2026-02-11 06:00:00 +0000 UTC',
            lastTransitionTime: ago(60 * 24 * 27),
          },
        ],
      },
    });
    const challenge = 'storefront-tls-1-2840571932-3915448210';
    const world = (reason: string, messageOf: string): ApiWorld => ({
      objects: [namespaceObj(ns), certificate()],
      events: [
        warningEvent(
          ns,
          { kind: 'Challenge', name: challenge },
          reason,
          messageOf,
          60 * 24 * 2,
          3,
          212,
          'cert-manager-challenges',
        ),
      ],
    });
    const message =
      'the storefront certificate storefront-tls expires in 3 days and is not renewing';

    it('a Route 53 AccessDenied presenting the challenge gets a DNS-01 fix without http-01 advice; an HTTP-01 self check keeps it', async () => {
      const dns = await investigateAt(
        apiTools(
          world(
            'PresentError',
            'Error presenting challenge: failed to change Route 53 record set: AccessDenied: User: arn:aws:sts::418207734512:assumed-role/cert-manager-dns/1741600000 is not authorized to perform: route53:ChangeResourceRecordSets on resource: arn:aws:route53:::hostedzone/Z07315822Q9ER4XK1GZ7B because no identity-based policy allows the route53:ChangeResourceRecordSets action',
          ),
        ),
        message,
        NOW,
        ns,
      );
      expect(dns.text).toContain('Error presenting challenge');
      expect(dns.text).toMatch(/DNS-01 solver must be allowed to change records/);
      expect(dns.text).not.toMatch(/http-01/i);

      const http = await investigateAt(
        apiTools(
          world(
            'Failed',
            "Waiting for HTTP-01 challenge propagation: wrong status code '404', expected '200'",
          ),
        ),
        message,
        NOW,
        ns,
      );
      expect(http.text).toContain("wrong status code '404', expected '200'");
      expect(http.text).toMatch(/the http-01 path must be reachable/);
      expect(http.text).not.toMatch(/DNS-01 solver must be allowed/);
    });
  });

  describe('a Kafka client that cannot resolve a broker', () => {
    const ns = 'telemetry';
    const image = 'registry.example.net/telemetry/event-sink:4.4.0';
    const hash = '7b6c9d8f53';
    const podName = `event-sink-${hash}-q9h4r`;
    const bootstrap = 'kafka.streaming.svc.cluster.local:9092';
    const kafkajs = (host: string, i: number) =>
      JSON.stringify({
        level: 'ERROR',
        timestamp: ago(12 - i),
        logger: 'kafkajs',
        message: `[Connection] Connection error: getaddrinfo ENOTFOUND ${host}`,
        broker: `${host}:9092`,
        clientId: 'event-sink',
        stack: `Error: getaddrinfo ENOTFOUND ${host}\n    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:107:26)`,
      });
    const world = (host: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('event-sink', ns, [image], 1, 1, [], { created: 60 * 24 * 60 }),
        withEnv(
          replicas(
            'event-sink',
            hash,
            ns,
            ['q9h4r'],
            [boxOf('event-sink', image, { cpu: '500m', memory: '512Mi' })],
          )[0]!,
          { KAFKA_BROKERS: bootstrap, KAFKA_GROUP_ID: 'event-sink' },
        ),
      ],
      logs: { [podName]: [0, 1, 2].map((i) => kafkajs(host, i)).join('\n') },
    });
    const message = 'event-sink in telemetry consumes nothing since the kafka move';

    it('ENOTFOUND on a broker other than the bootstrap: advertised.listeners; on the bootstrap host itself: a plain DNS answer', async () => {
      const broker = 'kafka-1.kafka-headless.data.svc.cluster.local';
      const moved = await investigateAt(apiTools(world(broker)), message, NOW, ns);
      expect(moved.text).toContain(`cannot resolve ${broker}`);
      expect(moved.text).toMatch(/advertised\.listeners/);
      expect(moved.text).toContain(`KAFKA_BROKERS=${bootstrap}`);

      const plain = await investigateAt(
        apiTools(world('kafka.streaming.svc.cluster.local')),
        message,
        NOW,
        ns,
      );
      expect(plain.text).toContain('cannot resolve kafka.streaming.svc.cluster.local');
      expect(plain.text).toMatch(/cluster DNS/);
      expect(plain.text).not.toMatch(/advertised/i);
    });
  });
});

// ------------------------------------------------------------------------------------------------

describe('rules of e92f91a: a node without routes, a client certificate that expired, "cert" in a message', () => {
  it('a node with NetworkUnavailable=True (NoRouteCreated) under pods that time out: the condition and the node named; False: not said', async () => {
    const ns = 'booking';
    const image = 'registry.example.net/booking/seat-hold:2.2.7';
    const hash = '6c8f7d9b42';
    const bad = 'gke-prod-general-3f9a1c7e-w8zp';
    const good = 'gke-prod-general-3f9a1c7e-d2kv';
    const nodeObj = (name: string, routed: boolean): Obj => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: { 'kubernetes.io/hostname': name, 'cloud.google.com/gke-nodepool': 'general' },
        creationTimestamp: ago(60 * 5),
      },
      spec: { providerID: `gce://shop-prod-4471/europe-west4-b/${name}`, podCIDR: '10.64.9.0/24' },
      status: {
        allocatable: { cpu: '3920m', memory: '13554156Ki', pods: '110' },
        conditions: [
          {
            type: 'NetworkUnavailable',
            status: routed ? 'False' : 'True',
            reason: routed ? 'RouteCreated' : 'NoRouteCreated',
            message: routed
              ? 'RouteController created a route'
              : 'RouteController failed to create a route',
            lastHeartbeatTime: ago(1),
            lastTransitionTime: ago(60 * 5),
          },
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
            lastHeartbeatTime: ago(1),
            lastTransitionTime: ago(60 * 5),
          },
        ],
      },
    });
    const pods = (routed: boolean): Obj[] => [
      ...replicas(
        'seat-hold',
        hash,
        ns,
        ['k2v7n'],
        [boxOf('seat-hold', image, { cpu: '500m', memory: '512Mi' })],
        good,
      ),
      ...replicas(
        'seat-hold',
        hash,
        ns,
        ['x5c3m'],
        [boxOf('seat-hold', image, { cpu: '500m', memory: '512Mi' })],
        routed ? good : bad,
      ),
    ];
    const timeouts = [0, 1, 2]
      .map(
        (i) =>
          `{"level":"error","ts":"${ago(9 - i * 3)}","caller":"hold/reserve.go:88","msg":"reserve seat failed","error":"Post \\"http://inventory.booking.svc.cluster.local/v1/holds\\": dial tcp 172.20.44.9:80: i/o timeout"}`,
      )
      .join('\n');
    const world = (routed: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        nodeObj(good, true),
        nodeObj(bad, routed),
        deploymentObj('seat-hold', ns, [image], 2, 2, [], { created: 60 * 24 * 90 }),
        ...pods(routed),
      ],
      logs: { [`seat-hold-${hash}-x5c3m`]: timeouts },
    });
    const message =
      'seat-hold in booking times out on about half of its requests since the node pool upgrade';

    const unrouted = await investigateAt(apiTools(world(false)), message, NOW, ns);
    expect(unrouted.text).toContain('NetworkUnavailable');
    expect(unrouted.text).toContain(bad);
    expect(unrouted.text).toContain('RouteController failed to create a route');

    const routed = await investigateAt(apiTools(world(true)), message, NOW, ns);
    expect(routed.text).not.toContain('NetworkUnavailable');
    expect(routed.text).not.toContain('RouteController');
  });

  describe('a client certificate that expired, read from a Secret mounted by subPath or whole', () => {
    const ns = 'remittance';
    const image = 'registry.example.net/remittance/wire-sender:1.31.0';
    const hash = '5d7b8c9f46';
    const podName = `wire-sender-${hash}-j6t2w`;
    const tlsLines = [0, 1, 2]
      .map(
        (i) =>
          `time="${ago(10 - i * 4).slice(0, 19)}Z" level=error msg="submit transfer failed" batch=${7710 + i} error="Post \\"https://clearing.northbank.example/v2/transfers\\": remote error: tls: expired certificate"`,
      )
      .join('\n');
    /** the Pod object, its client certificate mounted file by file (subPath) or as a directory */
    const podWith = (subPath: boolean): Obj => {
      const pod = replicas(
        'wire-sender',
        hash,
        ns,
        ['j6t2w'],
        [boxOf('wire-sender', image, { cpu: '250m', memory: '256Mi' })],
      )[0]!;
      const spec = pod['spec'] as { containers: Obj[]; volumes?: Obj[] };
      spec.containers[0]!['volumeMounts'] = subPath
        ? [
            {
              name: 'client-tls',
              mountPath: '/etc/wire/tls/tls.crt',
              subPath: 'tls.crt',
              readOnly: true,
            },
            {
              name: 'client-tls',
              mountPath: '/etc/wire/tls/tls.key',
              subPath: 'tls.key',
              readOnly: true,
            },
          ]
        : [{ name: 'client-tls', mountPath: '/etc/wire/tls', readOnly: true }];
      spec.volumes = [{ name: 'client-tls', secret: { secretName: 'wire-sender-client-tls' } }];
      return pod;
    };
    const world = (subPath: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('wire-sender', ns, [image], 1, 1, [], { created: 60 * 24 * 400 }),
        podWith(subPath),
      ],
      logs: { [podName]: tlsLines },
    });
    const message =
      'wire-sender in remittance cannot submit transfers to the clearing house since last night';

    it('JSON objects: expired client certificate and subPath; mounted whole: expired client certificate, no subPath claim', async () => {
      const pinned = await investigateAt(apiTools(world(true)), message, NOW, ns);
      expect(pinned.text).toContain('remote error: tls: expired certificate');
      expect(pinned.text).toMatch(/client certificate/);
      expect(pinned.text).toMatch(/subPath/);

      const whole = await investigateAt(apiTools(world(false)), message, NOW, ns);
      expect(whole.text).toMatch(/client certificate/);
      expect(whole.text).not.toMatch(/subPath/);
    });

    it('kubectl describe: `/etc/wire/tls/tls.crt from client-tls (ro,path="tls.crt")` is a subPath mount; a directory mount is not', async () => {
      const describe = (subPath: boolean) =>
        describePod({
          name: podName,
          namespace: ns,
          node: 'ip-10-40-3-77.eu-west-1.compute.internal',
          labels: ['app=wire-sender', `pod-template-hash=${hash}`],
          controlledBy: `ReplicaSet/wire-sender-${hash}`,
          status: 'Running',
          container: {
            name: 'wire-sender',
            image,
            state: ['Running', `Started:      ${kubeTime(60 * 20)}`],
            ready: true,
            restarts: 0,
            limits: { cpu: '250m', memory: '256Mi' },
          },
          conditions: [
            ['Initialized', 'True'],
            ['Ready', 'True'],
            ['ContainersReady', 'True'],
            ['PodScheduled', 'True'],
          ],
        })
          .replace(
            '    Mounts:\n',
            `    Mounts:\n${
              subPath
                ? '      /etc/wire/tls/tls.crt from client-tls (ro,path="tls.crt")\n      /etc/wire/tls/tls.key from client-tls (ro,path="tls.key")\n'
                : '      /etc/wire/tls from client-tls (ro)\n'
            }`,
          )
          .replace(
            'Volumes:\n',
            'Volumes:\n  client-tls:\n    Type:        Secret (a volume populated by a Secret)\n    SecretName:  wire-sender-client-tls\n    Optional:    false\n',
          );
      const world = (subPath: boolean): TextWorld => ({
        tables: {
          deployment: table(
            ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
            [['wire-sender', '1/1', '1', '1', '400d']],
          ),
          pod: podsTable([
            [podName, '1/1', 'Running', '0', '20h', 'ip-10-40-3-77.eu-west-1.compute.internal'],
          ]),
        },
        describe: { [`pod/${podName}`]: describe(subPath) },
        logs: { [podName]: tlsLines },
      });
      const pinned = await investigateAt(textTools(world(true)), message, NOW, ns);
      expect(pinned.text).toMatch(/client certificate/);
      expect(pinned.text).toMatch(/subPath/);

      const whole = await investigateAt(textTools(world(false)), message, NOW, ns);
      expect(whole.text).toMatch(/client certificate/);
      expect(whole.text).not.toMatch(/subPath/);
    });
  });

  it.todo(
    '"payouts ... cert-manager says the cert was renewed" with cert-manager running: "cert" is no second subject. Not pinned: in a world of Namespace payouts (payout-runner failing on an expired server certificate, payout-portal healthy) and cert-manager (its Deployment and pod), listed cluster-wide, the answer names payout-runner with and without the scope change of e92f91a, so no test here fails when it is reverted',
  );
});

// ------------------------------------------------------------------------------------------------

describe('rules of e92f91a: memcached full, a MySQL replica stopped', () => {
  /** a StatefulSet of `n` ready pods, each with one container */
  const statefulSet = (name: string, ns: string, image: string, n: number): Obj[] =>
    statefulSetObj(name, ns, image, n, {
      container: 'main',
      limits: { cpu: '2', memory: '4Gi' },
      ipBase: 30,
    });

  it('"ledger-db cpu pegged, slow pages" while ledger-db is healthy and ledger-web logs memcached "out of memory storing object": memcached full with evictions disabled; no cache errors: no memcached claim', async () => {
    const ns = 'ledger';
    const web = 'registry.example.net/ledger/ledger-web:9.2.0';
    const hash = '6b9c7d8f42';
    const podName = `ledger-web-${hash}-p7x2c`;
    const cacheLines = [0, 1, 2, 3]
      .map(
        (i) =>
          `[2026-03-10 11:${44 + i * 3}:1${i} +0000] [ERROR] ledger.cache: set failed for key page:/accounts/${3310 + i}: pymemcache.exceptions.MemcacheServerError: b'out of memory storing object'`,
      )
      .join('\n');
    const world = (cacheErrors: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSet('ledger-db', ns, 'docker.io/library/postgres:16.4', 1),
        deploymentObj('ledger-web', ns, [web], 1, 1, [], { created: 60 * 24 * 200 }),
        ...replicas(
          'ledger-web',
          hash,
          ns,
          ['p7x2c'],
          [boxOf('ledger-web', web, { cpu: '1', memory: '1Gi' })],
        ),
        deploymentObj('ledger-memcached', ns, ['docker.io/library/memcached:1.6.29'], 1, 1, [], {
          created: 60 * 24 * 200,
        }),
        ...replicas(
          'ledger-memcached',
          '5f8c9b7d61',
          ns,
          ['z3k9w'],
          [
            boxOf('ledger-memcached', 'docker.io/library/memcached:1.6.29', {
              cpu: '250m',
              memory: '128Mi',
            }),
          ],
        ),
      ],
      logs: {
        [podName]: [
          '[2026-03-10 11:40:02 +0000] [INFO] ledger.web: GET /accounts/3309 200 2411ms',
          ...(cacheErrors ? [cacheLines] : []),
          '[2026-03-10 11:58:40 +0000] [INFO] ledger.web: GET /accounts/3318 200 2630ms',
        ].join('\n'),
      },
    });
    const message = 'ledger-db cpu pegged, slow pages';
    const full = await investigateAt(apiTools(world(true)), message, NOW, ns);
    expect(full.text).toContain('out of memory storing object');
    expect(full.text).toMatch(/memcached cache of ledger-web refuses to store items/);
    expect(full.text).toMatch(/evictions disabled/);
    // the database named in the message looks healthy: the answer says so instead of blaming it
    expect(full.text).toMatch(/Ledger-db itself looks healthy; the failure is in ledger-web/);
    const calm = await investigateAt(apiTools(world(false)), message, NOW, ns);
    expect(calm.text).not.toMatch(/memcached|out of memory storing/i);
  });

  it('an API finding the replica lag unknown while the SQL thread of the MySQL replica stopped on a duplicate key (MY-010584): the stopped thread said; a replica without that error: no claim', async () => {
    const ns = 'catalog';
    const api = 'registry.example.net/catalog/price-history-api:5.0.3';
    const hash = '8d6f7c9b35';
    const podName = `price-history-api-${hash}-c5n2v`;
    const replica = 'catalog-mysql-secondary';
    const world = (stopped: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('price-history-api', ns, [api], 1, 1, [], { created: 60 * 24 * 150 }),
        withEnv(
          replicas(
            'price-history-api',
            hash,
            ns,
            ['c5n2v'],
            [boxOf('price-history-api', api, { cpu: '500m', memory: '512Mi' })],
          )[0]!,
          {
            DB_READ_HOST: `${replica}.${ns}.svc`,
            DB_WRITE_HOST: `catalog-mysql-primary.${ns}.svc`,
          },
        ),
        service('catalog-mysql-primary', ns, 'catalog-mysql-primary', 3306),
        service(replica, ns, replica, 3306),
        ...statefulSet('catalog-mysql-primary', ns, 'docker.io/bitnami/mysql:8.4.3', 1),
        ...statefulSet(replica, ns, 'docker.io/bitnami/mysql:8.4.3', 1),
      ],
      logs: {
        [podName]: [0, 1, 2]
          .map(
            (i) =>
              `time=${ago(20 - i * 6)} level=WARN msg="replica lag unknown, serving possibly stale reads" db_host=${replica}.${ns}.svc.cluster.local seconds_behind_source=NULL`,
          )
          .join('\n'),
        [`${replica}-0`]: [
          "2026-03-09T22:14:05.118442Z 0 [System] [MY-010931] [Server] /opt/bitnami/mysql/bin/mysqld: ready for connections. Version: '8.4.3'  socket: '/opt/bitnami/mysql/tmp/mysql.sock'  port: 3306  Source distribution.",
          ...(stopped
            ? [
                "2026-03-10T11:38:27.560118Z 14 [ERROR] [MY-010584] [Repl] Replica SQL for channel '': Worker 1 failed executing transaction 'ANONYMOUS' at source log mysql-bin.000231, end_log_pos 5514893; Could not execute Write_rows event on table catalog.price_points; Duplicate entry '918273' for key 'price_points.PRIMARY', Error_code: 1062; handler error HA_ERR_FOUND_DUPP_KEY; the event's source log mysql-bin.000231, end_log_pos 5514893, Error_code: MY-001062",
                '2026-03-10T11:38:27.561003Z 13 [ERROR] [MY-010586] [Repl] Error running query, replica SQL thread aborted. Fix the problem, and restart the replica SQL thread with "START REPLICA". We stopped at log \'mysql-bin.000231\' position 5514512',
              ]
            : []),
        ].join('\n'),
      },
    });
    const message =
      'price-history-api in catalog shows prices from this morning, new prices do not appear';
    const broken = await investigateAt(apiTools(world(true)), message, NOW, ns);
    expect(broken.text).toMatch(/replica SQL thread failed/);
    // the code and the duplicate key the thread stopped on, from the replica's log
    expect(broken.text).toContain('with error 1062');
    expect(broken.text).toContain("Duplicate entry '918273'");
    expect(broken.text).toContain('catalog-mysql-secondary');
    expect(broken.text).toContain('START REPLICA');
    const fine = await investigateAt(apiTools(world(false)), message, NOW, ns);
    // the client's own seconds_behind_source=NULL still says replication is not running, but no
    // stopped SQL thread or error is claimed for a replica whose log has none
    expect(fine.text).not.toMatch(/SQL thread failed|with error 1062|Duplicate entry/i);
  });

  /** three healthy workloads whose pods are newer than every other pod of the namespace */
  const newerNeighbours = (ns: string, names: string[]): Obj[] =>
    names.flatMap((name, i) => [
      deploymentObj(name, ns, [`registry.example.net/${ns}/${name}:1.0.${i}`], 1, 1, [], {
        created: 60 * 24 * 30,
      }),
      podObj({
        name: `${name}-7c9d8e6f5${i}-q${i}z4m`,
        ns,
        labels: { app: name, 'pod-template-hash': `7c9d8e6f5${i}` },
        owner: { kind: 'ReplicaSet', name: `${name}-7c9d8e6f5${i}` },
        node: 'ip-10-40-3-77.eu-west-1.compute.internal',
        created: 30 + i,
        podIP: `10.40.8.${40 + i}`,
        boxes: [
          boxOf(name, `registry.example.net/${ns}/${name}:1.0.${i}`, {
            cpu: '250m',
            memory: '256Mi',
          }),
        ],
      }),
    ]);

  it('the clients of a data store said to be overloaded are read and their finding answers, even when three healthy neighbours are newer than the client', async () => {
    const ns = 'ledger';
    const web = 'registry.example.net/ledger/ledger-web:9.2.0';
    const hash = '6b9c7d8f42';
    const world = (cacheErrors: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSet('ledger-db', ns, 'docker.io/library/postgres:16.4', 1),
        deploymentObj('ledger-web', ns, [web], 1, 1, [], { created: 60 * 24 * 200 }),
        ...replicas(
          'ledger-web',
          hash,
          ns,
          ['p7x2c'],
          [boxOf('ledger-web', web, { cpu: '1', memory: '1Gi' })],
        ),
        ...newerNeighbours(ns, ['statement-mailer', 'fx-rates-sync', 'audit-export']),
      ],
      logs: {
        [`ledger-web-${hash}-p7x2c`]: [
          '[2026-03-10 11:40:02 +0000] [INFO] ledger.web: GET /accounts/3309 200 2411ms',
          ...(cacheErrors
            ? [0, 1, 2, 3].map(
                (i) =>
                  `[2026-03-10 11:${44 + i * 3}:1${i} +0000] [ERROR] ledger.cache: set failed for key page:/accounts/${3310 + i}: pymemcache.exceptions.MemcacheServerError: b'out of memory storing object'`,
              )
            : []),
        ].join('\n'),
      },
    });
    const message = 'ledger-db cpu pegged, slow pages';
    const full = await investigateAt(apiTools(world(true)), message, NOW, ns);
    expect(full.text).toContain('out of memory storing object');
    expect(full.text).toMatch(/Ledger-db itself looks healthy; the failure is in ledger-web/);
    const calm = await investigateAt(apiTools(world(false)), message, NOW, ns);
    expect(calm.text).not.toMatch(/memcached|out of memory storing/i);
    expect(calm.text).toMatch(/No problem found/);
  });

  it('the replica a client finds lagging (its log and env name no host) is read and its stopped SQL thread answers, even when three healthy neighbours are newer than the replica', async () => {
    const ns = 'catalog';
    const api = 'registry.example.net/catalog/price-history-api:5.0.3';
    const hash = '8d6f7c9b35';
    const replica = 'catalog-mysql-secondary';
    const world = (stopped: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('price-history-api', ns, [api], 1, 1, [], { created: 60 * 24 * 150 }),
        withEnv(
          replicas(
            'price-history-api',
            hash,
            ns,
            ['c5n2v'],
            [boxOf('price-history-api', api, { cpu: '500m', memory: '512Mi' })],
          )[0]!,
          { DB_READ_HOST: '10.40.9.30' },
        ),
        service(replica, ns, replica, 3306),
        ...statefulSet(replica, ns, 'docker.io/bitnami/mysql:8.4.3', 1),
        ...newerNeighbours(ns, ['search-indexer', 'promo-banner', 'image-resizer']),
      ],
      logs: {
        [`price-history-api-${hash}-c5n2v`]: [0, 1, 2]
          .map(
            (i) =>
              `time=${ago(20 - i * 6)} level=WARN msg="replica lag unknown, serving possibly stale reads" seconds_behind_source=NULL`,
          )
          .join('\n'),
        [`${replica}-0`]: [
          "2026-03-09T22:14:05.118442Z 0 [System] [MY-010931] [Server] /opt/bitnami/mysql/bin/mysqld: ready for connections. Version: '8.4.3'  socket: '/opt/bitnami/mysql/tmp/mysql.sock'  port: 3306  Source distribution.",
          ...(stopped
            ? [
                "2026-03-10T11:38:27.560118Z 14 [ERROR] [MY-010584] [Repl] Replica SQL for channel '': Worker 1 failed executing transaction 'ANONYMOUS' at source log mysql-bin.000231, end_log_pos 5514893; Could not execute Write_rows event on table catalog.price_points; Duplicate entry '918273' for key 'price_points.PRIMARY', Error_code: 1062; handler error HA_ERR_FOUND_DUPP_KEY; the event's source log mysql-bin.000231, end_log_pos 5514893, Error_code: MY-001062",
              ]
            : []),
        ].join('\n'),
      },
    });
    const message =
      'price-history-api in catalog shows prices from this morning, new prices do not appear';
    const broken = await investigateAt(apiTools(world(true)), message, NOW, ns);
    expect(broken.text).toMatch(/replica SQL thread failed/);
    expect(broken.text).toContain("Duplicate entry '918273'");
    const fine = await investigateAt(apiTools(world(false)), message, NOW, ns);
    expect(fine.text).not.toMatch(/SQL thread failed|Duplicate entry/i);
  });
});
