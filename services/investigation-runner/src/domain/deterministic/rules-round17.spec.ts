/**
 * The engine rules of 969b06b, one test per rule, each with a world where the rule must not fire,
 * on outputs shaped like real ones (Python tracebacks from pika, logfmt and JSON records, a Spring
 * Boot trace, Node's uncaught-error print, redis, RabbitMQ, Elasticsearch, Schema Registry, Go's
 * x509, kubelet probe events, PostgreSQL, Istio's Envoy and istiod, the sealed-secrets controller,
 * cert-manager): a traceback ending on a class named neither Error nor Exception, a logfmt record
 * whose answer is in status= and body=, a Java root cause under a long message, an "exiting"
 * record after the error that says why, an uncaught error printed without a level; Redis
 * CROSSSLOT, a RabbitMQ queue gone with a broker restart, the Elasticsearch total fields limit, a
 * Schema Registry 409, a certificate with a Common Name only, a probe answered 429, PostgreSQL's
 * statement_timeout from a ConfigMap, Istio RBAC denials; where a missing Secret was to come from;
 * an app that starts before its mesh sidecar.
 */
import { varsFor } from './finding-vars';
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  findingsOf,
  ids,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  serviceObj,
  statefulSetObj,
  warningEvent,
  withEnv,
  type ApiWorld,
  type Box,
} from './spec-world';

type Obj = Record<string, unknown>;

const NODE = 'aks-apps-31847265-vmss00000c';

/** a pod of a Deployment's ReplicaSet */
const appPod = (
  app: string,
  hash: string,
  suffix: string,
  ns: string,
  boxes: Box[],
  more: Partial<Parameters<typeof podObj>[0]> = {},
): Obj =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    node: NODE,
    created: 60 * 3,
    podIP: '10.240.1.57',
    boxes,
    ...more,
  });

/** a container in CrashLoopBackOff after its last run exited 1 */
const crashing = (name: string, image: string, restarts = 7): Box => ({
  name,
  image,
  ready: false,
  restarts,
  state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting ${name}` } },
  lastState: {
    terminated: { reason: 'Error', exitCode: 1, startedAt: ago(4), finishedAt: ago(4) },
  },
});

/** the kubelet's BackOff event of a crash-looping pod */
const backOff = (ns: string, pod: string, container: string) =>
  warningEvent(
    ns,
    { kind: 'Pod', name: pod },
    'BackOff',
    `Back-off restarting failed container ${container} in pod ${pod}_${ns}(3c1f7a2e-8b4d-4e6a-9f0c-5d2b7e1a9c84)`,
    40,
    1,
    31,
  );

/**
 * One Deployment of one pod (named `<app>-<hash>-x7k2p`), crash-looping when `crash`, with
 * whatever else the world holds; `env` on its container.
 */
function oneApp(o: {
  ns: string;
  app: string;
  image: string;
  crash?: boolean;
  env?: Record<string, string>;
  edit?: (pod: Obj) => Obj;
  more?: Obj[];
  events?: Obj[];
  logs?: Record<string, string>;
  previous?: Record<string, string>;
}): ApiWorld {
  const hash = '7f9c4d8b26';
  const pod = `${o.app}-${hash}-x7k2p`;
  const box: Box = o.crash ? crashing(o.app, o.image) : { name: o.app, image: o.image };
  let obj = appPod(o.app, hash, 'x7k2p', o.ns, [box]);
  if (o.env) obj = withEnv(obj, o.env);
  if (o.edit) obj = o.edit(obj);
  return {
    objects: [
      namespaceObj(o.ns),
      deploymentObj(o.app, o.ns, [o.image], 1, o.crash ? 0 : 1, [], { created: 60 * 24 * 70 }),
      obj,
      ...(o.more ?? []),
    ],
    events: [...(o.crash ? [backOff(o.ns, pod, o.app)] : []), ...(o.events ?? [])],
    logs: o.logs,
    previous: o.previous,
  };
}

const podName = (app: string) => `${app}-7f9c4d8b26-x7k2p`;

/** ISO time `minutes` before NOW, with milliseconds, as apps write it */
const at = (minutes: number, ms = 0) => new Date(NOW - minutes * 60_000 + ms).toISOString();

/** `n` copies of a record, a minute apart, the last `from` minutes ago */
const every = (n: number, from: number, line: (t: string, i: number) => string) =>
  Array.from({ length: n }, (_, i) => line(at(from + n - 1 - i, 117 * i), i)).join('\n');

// ------------------------------------------------------------------------------------------------

describe('rules of 969b06b', () => {
  it('a Python traceback ending on "pika.exceptions.ChannelClosedByBroker: (403, ...)" (no Error/Exception suffix): the crash answer quotes that line, not "Traceback (most recent call last)"; a ValueError traceback still quotes the ValueError', async () => {
    const ns = 'invoicing';
    const app = 'invoice-consumer';
    const image = 'registry.example.io/billing/invoice-consumer:5.2.0';
    const raised =
      "pika.exceptions.ChannelClosedByBroker: (403, \"ACCESS_REFUSED - access to queue 'invoice-events' in vhost 'billing' refused for user 'invoice-consumer'\")";
    const world = (last: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        crash: true,
        previous: {
          [podName(app)]: [
            `${at(4)} INFO invoice_consumer.main: connecting to amqp://rabbitmq.billing.svc:5672/billing`,
            'Traceback (most recent call last):',
            '  File "/app/invoice_consumer/main.py", line 64, in <module>',
            '    run()',
            '  File "/app/invoice_consumer/main.py", line 57, in run',
            '    channel.basic_consume(queue=QUEUE, on_message_callback=handle_invoice)',
            '  File "/usr/local/lib/python3.12/site-packages/pika/adapters/blocking_connection.py", line 1618, in basic_consume',
            '    return self._basic_consume_impl(',
            '  File "/usr/local/lib/python3.12/site-packages/pika/adapters/blocking_connection.py", line 1450, in _basic_consume_impl',
            '    self._flush_output(ok_result.is_ready)',
            last,
          ].join('\n'),
        },
      });
    const ask = 'invoice-consumer in invoicing keeps crashing';

    const broker = await investigateAt(apiTools(world(raised)), ask, NOW, ns);
    const a = answerOf(broker.result);
    expect(a).toContain('fails with "pika.exceptions.ChannelClosedByBroker: (403, "ACCESS_REFUSED');
    expect(a).not.toContain('fails with "Traceback (most recent call last)');

    const value = await investigateAt(
      apiTools(world("ValueError: invoice number 'INV-2026-0311' has no numeric part")),
      ask,
      NOW,
      ns,
    );
    expect(answerOf(value.result)).toContain(
      "fails with \"ValueError: invoice number 'INV-2026-0311' has no numeric part",
    );
  });

  it('logfmt records without err=: msg="payment failed" status=403 body="...": the repeated error quotes status and body; a record with err=: err kept, no status/body', async () => {
    const ns = 'checkout';
    const app = 'payment-gateway';
    const image = 'registry.example.io/checkout/payment-gateway:2.14.1';
    const world = (rest: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        logs: {
          [podName(app)]: every(
            6,
            2,
            (t, i) =>
              `time=${t} level=error msg="payment failed" order=ord_88${120 + i} psp=adyen ${rest}`,
          ),
        },
      });
    const ask = 'payment-gateway in checkout: payments failing since 11:50';

    const plain = await investigateAt(
      apiTools(world('status=422 body="merchant account MA-7781 is not onboarded"')),
      ask,
      NOW,
      ns,
    );
    expect(answerOf(plain.result)).toContain(
      'payment failed (status=422 body="merchant account MA-7781 is not onboarded")',
    );

    const withErr = await investigateAt(
      apiTools(world('err="merchant account MA-7781 is not onboarded" status=422')),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(withErr.result);
    expect(a).toContain('payment failed: merchant account MA-7781 is not onboarded');
    expect(a).not.toContain('(status=422');
  });

  it('a Java error whose message dumps a schema (hundreds of characters) with a "Caused by:" root cause: the root cause survives in the repeated-error answer; a short message: kept whole with its root cause', async () => {
    const ns = 'catalog';
    const app = 'feed-importer';
    const image = 'registry.example.io/catalog/feed-importer:4.0.3';
    const schema = `{"type":"record","name":"Product","namespace":"com.example.catalog","fields":[${[
      'sku',
      'title',
      'brand',
      'category',
      'price',
      'currency',
      'stock',
      'weight',
      'ean',
      'updatedAt',
    ]
      .map((f) => `{"name":"${f}","type":["null","string"],"default":null}`)
      .join(',')}]}`;
    const rootCause =
      'Caused by: java.lang.NumberFormatException: Character p is neither a decimal digit number, decimal point, nor "e" notation exponential mark.';
    const world = (message: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        logs: {
          [podName(app)]: Array.from({ length: 5 }, (_, i) =>
            [
              `${at(6 - i)
                .replace('T', ' ')
                .replace(
                  'Z',
                  '',
                )} ERROR 1 --- [   scheduling-1] c.e.catalog.feed.FeedImportJob           : feed import failed for partner ${31 + i}`,
              `com.example.catalog.feed.FeedMappingException: ${message}`,
              '\tat com.example.catalog.feed.FeedMapper.map(FeedMapper.java:142)',
              '\tat com.example.catalog.feed.FeedImportJob.importPartner(FeedImportJob.java:88)',
              '\tat com.example.catalog.feed.FeedImportJob.run(FeedImportJob.java:61)',
              rootCause,
              '\tat java.base/java.math.BigDecimal.<init>(BigDecimal.java:608)',
              '\tat com.example.catalog.feed.FeedMapper.price(FeedMapper.java:201)',
              '\t... 3 common frames omitted',
            ].join('\n'),
          ).join('\n'),
        },
      });
    const ask = 'feed-importer in catalog: product imports failing';

    const long = await investigateAt(
      apiTools(world(`record does not match schema ${schema}`)),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(long.result);
    expect(a).toContain('FeedMappingException: record does not match schema');
    expect(a).toContain('Caused by: java.lang.NumberFormatException: Character p');

    const short = await investigateAt(
      apiTools(world('price of sku 88-1204 is not a number')),
      ask,
      NOW,
      ns,
    );
    expect(answerOf(short.result)).toContain(
      'FeedMappingException: price of sku 88-1204 is not a number; Caused by: java.lang.NumberFormatException',
    );
  });

  it('a crash whose last error record only says "..., exiting" (JSON fatal, no error field): the answer quotes the error record before it; a last error that says why: quoted alone', async () => {
    const ns = 'ledger';
    const app = 'ledger-sync';
    const image = 'registry.example.io/finance/ledger-sync:1.9.4';
    const world = (last: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        crash: true,
        previous: {
          [podName(app)]: [
            `{"level":"info","ts":"${at(4, 0)}","caller":"sync/main.go:44","msg":"ledger sync starting","partition":7}`,
            `{"level":"error","ts":"${at(4, 812)}","caller":"sync/cursor.go:131","msg":"ledger page rejected","error":"upstream returned page 0 of 0 for cursor 88120 (expected 41 pages)","partition":7}`,
            `{"level":"info","ts":"${at(4, 815)}","caller":"sync/main.go:90","msg":"flushing metrics"}`,
            last,
          ].join('\n'),
        },
      });
    const ask = 'ledger-sync in ledger is crash-looping';

    const exiting = await investigateAt(
      apiTools(
        world(
          `{"level":"fatal","ts":"${at(4, 820)}","caller":"sync/main.go:97","msg":"cannot continue ledger sync, exiting"}`,
        ),
      ),
      ask,
      NOW,
      ns,
    );
    expect(exiting.text).toContain(
      'The last error it logged: "ledger page rejected: upstream returned page 0 of 0 for cursor 88120 (expected 41 pages); then: cannot continue ledger sync, exiting"',
    );

    const why = `{"level":"fatal","ts":"${at(4, 820)}","caller":"sync/main.go:97","msg":"partition 7 checksum mismatch: stored 9f12c0 computed 0b77e4"}`;
    const alone = await investigateAt(apiTools(world(why)), ask, NOW, ns);
    expect(alone.text).toContain(`The last error it logged: "${why}"`);
    expect(alone.text).not.toContain('; then:');
  });

  it('a crash-looping Node pod whose previous log ends on an uncaught "ReplyError: ..." printed at the margin without a level, after a source snippet and before its stack: the last error it logged; the same print in the current log of a running container: not quoted', async () => {
    const ns = 'sessions';
    const app = 'session-api';
    const image = 'registry.example.io/web/session-api:6.3.0';
    const thrown = 'ReplyError: WRONGTYPE Operation against a key holding the wrong kind of value';
    const print = [
      `{"level":30,"time":${NOW - 4 * 60_000},"pid":1,"hostname":"${podName(app)}","msg":"session-api listening on :3000"}`,
      '/app/node_modules/redis-parser/lib/parser.js:179',
      '    return new ReplyError(string)',
      '           ^',
      '',
      thrown,
      '    at parseError (/app/node_modules/redis-parser/lib/parser.js:179:12)',
      '    at parseType (/app/node_modules/redis-parser/lib/parser.js:302:14) {',
      "  command: { name: 'hget', args: [ 'sess:4f9a1c', 'cart' ] }",
      '}',
      '',
      'Node.js v20.11.1',
    ].join('\n');
    const looping = await investigateAt(
      apiTools(oneApp({ ns, app, image, crash: true, previous: { [podName(app)]: print } })),
      'session-api in sessions crash-loops',
      NOW,
      ns,
    );
    expect(looping.text).toContain(`The last error it logged: "${thrown}"`);

    // a container that restarted once, long ago, and runs: what it prints now is its current log
    const running = await investigateAt(
      apiTools(
        oneApp({
          ns,
          app,
          image,
          edit: (pod) => {
            const status = pod['status'] as { containerStatuses: Obj[] };
            status.containerStatuses[0]!['restartCount'] = 1;
            status.containerStatuses[0]!['lastState'] = {
              terminated: {
                reason: 'Error',
                exitCode: 1,
                startedAt: ago(170),
                finishedAt: ago(169),
              },
            };
            return pod;
          },
          logs: { [podName(app)]: print },
          previous: {
            [podName(app)]:
              `{"level":30,"time":${NOW - 170 * 60_000},"pid":1,"msg":"session-api listening on :3000"}`,
          },
        }),
      ),
      'session-api in sessions restarted earlier today, is it ok?',
      NOW,
      ns,
    );
    expect(running.text).not.toContain(`The last error it logged: "${thrown}"`);
  });

  // ---------------------------------------------------------------- catalog entries (rule 6)

  it('redis_crossslot: "CROSSSLOT Keys in request don\'t hash to the same slot" from a client of a Redis Cluster; "TRYAGAIN Multiple keys request during rehashing of slot": no CROSSSLOT claim', async () => {
    const ns = 'carts';
    const app = 'cart-service';
    const image = 'registry.example.io/shop/cart-service:11.0.0';
    const world = (reply: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        env: { REDIS_CLUSTER_NODES: `cart-redis.${ns}.svc.cluster.local:6379` },
        more: [
          ...statefulSetObj('cart-redis', ns, 'docker.io/bitnami/redis-cluster:7.2.4', 3),
          serviceObj('cart-redis', ns, { app: 'cart-redis' }, 6379, { portName: 'redis' }),
        ],
        logs: {
          [podName(app)]: every(
            5,
            2,
            (t) =>
              `${t} ERROR [cart] GET /cart/merge failed: ReplyError: ${reply} (command: MGET cart:items:u-1882 cart:promo:u-1882)`,
          ),
        },
      });
    const ask = 'cart-service in carts: merging carts fails since the Redis migration';

    const cross = await investigateAt(
      apiTools(world("CROSSSLOT Keys in request don't hash to the same slot")),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(cross.result);
    expect(a).toMatch(/hash to different slots/);
    expect(a).toContain('CROSSSLOT');

    const rehash = await investigateAt(
      apiTools(world('TRYAGAIN Multiple keys request during rehashing of slot')),
      ask,
      NOW,
      ns,
    );
    expect(rehash.text).toContain('TRYAGAIN');
    expect(rehash.text).not.toMatch(/hash to different slots|hash tag/);
  });

  it('rabbitmq_queue_not_found: "NOT_FOUND - no queue" after the broker logged "Starting RabbitMQ": the queue and the broker\'s restart time; "NOT_FOUND - no exchange": no queue claim', async () => {
    const ns = 'orders';
    const app = 'order-events-worker';
    const image = 'registry.example.io/orders/order-events-worker:3.3.2';
    const broker = 'rabbitmq-0';
    const world = (missing: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        crash: true,
        env: { AMQP_URL: `amqp://worker@rabbitmq.${ns}.svc.cluster.local:5672/shop` },
        more: [
          ...statefulSetObj('rabbitmq', ns, 'docker.io/library/rabbitmq:3.12.13-management', 1, {
            podAge: 0.02,
          }),
          serviceObj('rabbitmq', ns, { app: 'rabbitmq' }, 5672, { portName: 'amqp' }),
        ],
        logs: {
          [broker]: [
            `${at(26)} [notice] <0.44.0> Application syslog exited with reason: stopped`,
            `${at(26, 400)} [info] <0.230.0> Starting RabbitMQ 3.12.13 on Erlang 26.2.3 [jit]`,
            `${at(25)} [info] <0.712.0> Server startup complete; 5 plugins started.`,
          ].join('\n'),
        },
        previous: {
          [podName(app)]: [
            `${at(5)} INFO  consumer: connected to rabbitmq.${ns}.svc.cluster.local:5672 vhost=shop`,
            `${at(5, 120)} ERROR consumer: channel closed by broker: (404) ${missing}`,
          ].join('\n'),
        },
      });
    const ask = 'order-events-worker in orders crash-loops since the rabbitmq restart';

    const gone = await investigateAt(
      apiTools(world("NOT_FOUND - no queue 'order-events' in vhost 'shop'")),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(gone.result);
    expect(a).toMatch(/the queue order-events does not exist on the RabbitMQ broker/i);
    expect(a).toContain(`the broker ${broker} restarted at ${at(26, 400)}`);

    const exchange = await investigateAt(
      apiTools(world("NOT_FOUND - no exchange 'order-events' in vhost 'shop'")),
      ask,
      NOW,
      ns,
    );
    expect(exchange.text).toContain("no exchange 'order-events'");
    expect(exchange.text).not.toMatch(/does not exist on the RabbitMQ broker|restarted at/);
  });

  it('es_total_fields_limit: "Limit of total fields [1000] in index [...] has been exceeded": the index and the limit; "Limit of mapping depth [20]": no total-fields claim', async () => {
    const ns = 'search';
    const app = 'listing-indexer';
    const image = 'registry.example.io/search/listing-indexer:7.5.0';
    const world = (reason: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        logs: {
          [podName(app)]: every(
            5,
            2,
            (t, i) =>
              `{"@timestamp":"${t}","log.level":"ERROR","message":"bulk index failed","listing_id":"L-55${i}02","error":"ElasticsearchException[type=illegal_argument_exception, reason=${reason}]"}`,
          ),
        },
      });
    const ask = 'listing-indexer in search: new listings do not show up in search';

    const full = await investigateAt(
      apiTools(world('Limit of total fields [1000] in index [listings-v3] has been exceeded')),
      ask,
      NOW,
      ns,
    );
    expect(answerOf(full.result)).toMatch(
      /the mapping of listings-v3 reached its limit of 1000 fields/,
    );

    const depth = await investigateAt(
      apiTools(world('Limit of mapping depth [20] in index [listings-v3] has been exceeded')),
      ask,
      NOW,
      ns,
    );
    expect(depth.text).toContain('mapping depth');
    expect(depth.text).not.toMatch(/limit of \d+ fields|total_fields/);
  });

  it('schema_registry_incompatible: "Schema being registered is incompatible with an earlier schema for subject \\"...\\"" (409): the subject; "Subject \'...\' not found" (40401): no incompatibility claim', async () => {
    const ns = 'streaming';
    const app = 'shipment-producer';
    const image = 'registry.example.io/logistics/shipment-producer:2.8.0';
    const world = (said: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        crash: true,
        previous: {
          [podName(app)]: [
            `${at(4).replace('T', ' ').replace('Z', '')} INFO  o.a.k.clients.producer.KafkaProducer - [Producer clientId=shipment-producer] Instantiated an idempotent producer.`,
            `${at(4, 900).replace('T', ' ').replace('Z', '')} ERROR c.e.logistics.ShipmentPublisher - publishing shipment event failed`,
            `org.apache.kafka.common.errors.SerializationException: Error registering Avro schema: {"type":"record","name":"ShipmentEvent"}`,
            '\tat io.confluent.kafka.serializers.AbstractKafkaSchemaSerDe.toKafkaException(AbstractKafkaSchemaSerDe.java:259)',
            `Caused by: io.confluent.kafka.schemaregistry.client.rest.exceptions.RestClientException: ${said}`,
            '\tat io.confluent.kafka.schemaregistry.client.rest.RestService.sendHttpRequest(RestService.java:314)',
          ].join('\n'),
        },
      });
    const ask = 'shipment-producer in streaming crashes after the deploy';

    const incompatible = await investigateAt(
      apiTools(
        world(
          'Schema being registered is incompatible with an earlier schema for subject "shipments-value", details: [Incompatibility{type:TYPE_MISMATCH, location:/fields/3/type, message:reader type: LONG not compatible with writer type: STRING}]; error code: 409',
        ),
      ),
      ask,
      NOW,
      ns,
    );
    expect(answerOf(incompatible.result)).toMatch(
      /incompatible with the earlier versions of subject shipments-value/,
    );

    const unknown = await investigateAt(
      apiTools(world("Subject 'shipments-value' not found.; error code: 40401")),
      ask,
      NOW,
      ns,
    );
    expect(unknown.text).not.toMatch(/incompatible with the earlier versions|compatibility level/);
  });

  it('tls_legacy_common_name: "x509: certificate relies on legacy Common Name field" calling https://host/...: the server host named; "x509: certificate signed by unknown authority": no Common Name claim', async () => {
    const ns = 'partners';
    const app = 'edi-bridge';
    const image = 'registry.example.io/partners/edi-bridge:1.22.0';
    const host = 'edi.legacy-partner.example.net';
    const world = (x509: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        logs: {
          [podName(app)]: every(
            5,
            2,
            (t) =>
              `{"level":"error","ts":"${t}","msg":"push batch failed","error":"Post \\"https://${host}/as2/inbound\\": tls: failed to verify certificate: ${x509}"}`,
          ),
        },
      });
    const ask = 'edi-bridge in partners cannot push orders to the partner since the upgrade';

    const cn = await investigateAt(
      apiTools(world('x509: certificate relies on legacy Common Name field, use SANs instead')),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(cn.result);
    expect(a).toMatch(/has only a Common Name and no subjectAltName/);
    expect(a).toContain(`TLS certificate ${host} presents`);

    const ca = await investigateAt(
      apiTools(world('x509: certificate signed by unknown authority')),
      ask,
      NOW,
      ns,
    );
    expect(ca.text).toContain('unknown authority');
    expect(ca.text).not.toMatch(/Common Name|subjectAltName/);
  });

  it('probe_rate_limited: "Liveness probe failed: HTTP probe failed with statuscode: 429" with RATE_LIMIT_RPS in the env: the rate limiter and its setting; statuscode 503: no rate-limit claim', async () => {
    const ns = 'gateway';
    const app = 'public-api';
    const image = 'registry.example.io/edge/public-api:9.1.0';
    const world = (code: number): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        env: { RATE_LIMIT_RPS: '150', PORT: '8080' },
        edit: (pod) => {
          const status = pod['status'] as { containerStatuses: Obj[] };
          status.containerStatuses[0]!['restartCount'] = 4;
          return pod;
        },
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: podName(app) },
            'Unhealthy',
            `Liveness probe failed: HTTP probe failed with statuscode: ${code}`,
            30,
            1,
            22,
          ),
          kubeEvent(
            ns,
            { kind: 'Pod', name: podName(app) },
            'Normal',
            'Killing',
            `Container ${app} failed liveness probe, will be restarted`,
            29,
            3,
            4,
          ),
        ],
        logs: {
          [podName(app)]: `${at(1)} INFO  http: listening on :8080 (rate limit 150 rps)`,
        },
      });
    const ask = 'public-api in gateway restarts under load';

    const limited = await investigateAt(apiTools(world(429)), ask, NOW, ns);
    const a = answerOf(limited.result);
    expect(a).toMatch(/429 Too Many Requests/);
    expect(a).toContain('a rate limiter (RATE_LIMIT_RPS=150, in RATE_LIMIT_RPS)');

    const failing = await investigateAt(apiTools(world(503)), ask, NOW, ns);
    expect(failing.text).toContain('503');
    expect(failing.text).not.toMatch(/rate limiter|Too Many Requests/);
  });

  it('pg_statement_timeout: "canceling statement due to statement timeout" from a pod whose envFrom ConfigMap sets PGOPTIONS=-c statement_timeout=...: the gatherer reads the ConfigMap and the answer names it; "canceling statement due to lock timeout" (the same ConfigMap read): no statement_timeout claim', async () => {
    const ns = 'billing';
    const app = 'billing-api';
    const image = 'registry.example.io/billing/billing-api:12.4.0';
    const config = 'billing-api-env';
    const world = (cancel: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        edit: (pod) => {
          const spec = pod['spec'] as { containers: Obj[] };
          spec.containers[0]!['envFrom'] = [{ configMapRef: { name: config } }];
          return pod;
        },
        more: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: config, namespace: ns, creationTimestamp: ago(50) },
            data: {
              PGHOST: 'billing-db.billing.svc.cluster.local',
              PGDATABASE: 'billing',
              PGOPTIONS: '-c statement_timeout=500ms',
            },
          },
        ],
        logs: {
          [podName(app)]: every(
            5,
            2,
            (t, i) =>
              `${t} ERROR [invoices] GET /v1/accounts/acc_9${i}1/invoices failed: error: ${cancel}`,
          ),
        },
      });
    const ask = 'billing-api in billing: invoice pages of big accounts fail';

    const timeout = await investigateAt(
      apiTools(world('canceling statement due to statement timeout')),
      ask,
      NOW,
      ns,
    );
    expect(timeout.gateway.calls.some((c) => c.params['name'] === config)).toBe(true);
    expect(answerOf(timeout.result)).toContain(
      `longer than its statement_timeout (statement_timeout=500ms, in PGOPTIONS of ConfigMap ${config})`,
    );

    const lock = await investigateAt(
      apiTools(world('canceling statement due to lock timeout')),
      ask,
      NOW,
      ns,
    );
    expect(lock.text).toContain('lock timeout');
    expect(lock.text).not.toMatch(/statement_timeout/);
  });

  it('mesh_authorization_denied: 403 "RBAC: access denied" from a meshed client: the mesh policy claim, and, once istiod\'s log is read, the AuthorizationPolicy it pushed just before; a 403 the destination app answered itself: no mesh policy claim', async () => {
    const ns = 'storefront';
    const app = 'checkout-web';
    const image = 'registry.example.io/shop/checkout-web:10.3.1';
    const proxy: Box = { name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.22.3' };
    const charges = (body: string) =>
      every(
        5,
        2,
        (t) =>
          `time=${t} level=error msg="charge failed" url=http://payments.${ns}.svc.cluster.local/v1/charges status=403 body="${body}"`,
      );
    const world = (body: string): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        edit: (pod) => {
          const spec = pod['spec'] as { containers: Obj[] };
          spec.containers.push({ name: proxy.name, image: proxy.image });
          const status = pod['status'] as { containerStatuses: Obj[] };
          status.containerStatuses.push({
            ...status.containerStatuses[0],
            name: proxy.name,
            image: proxy.image,
          });
          return pod;
        },
        logs: { [podName(app)]: charges(body) },
      });
    const ask = 'checkout-web in storefront: every charge fails with 403 since 11:48';

    const denied = await investigateAt(apiTools(world('RBAC: access denied')), ask, NOW, ns);
    expect(answerOf(denied.result)).toMatch(
      /refuses checkout-web's requests with 403 "RBAC: access denied"/,
    );

    // istiod's log, when it was read: the policy it pushed last before the first denial
    const istiod = 'istiod-6b8d7f9c54-q2w7e';
    const withIstiod = (pushed: string) => {
      const { model, findings } = findingsOf([
        {
          output: charges('RBAC: access denied'),
          ctx: { pod: podName(app), namespace: ns, verb: 'logs' },
        },
        {
          output: [
            `${at(12)}\tinfo\tads\tPush debounce stable[71] 1 for config ${pushed}: 100.2ms since last change, 100.2ms since last push, full=true`,
            `${at(12, 300)}\tinfo\tads\tXDS: Pushing Services:41 ConnectedEndpoints:18 Version:2026-03-10T11:48:00Z/71`,
          ].join('\n'),
          ctx: { pod: istiod, namespace: 'istio-system', verb: 'logs' },
        },
      ]);
      const f = findings.find((x) => x.entry.id === 'mesh_authorization_denied');
      expect(f).toBeDefined();
      return varsFor(f!, model, app, NOW)['mesh_policy'];
    };
    expect(withIstiod(`AuthorizationPolicy/${ns}/payments-allow-internal`)).toBe(
      `; istiod pushed the AuthorizationPolicy ${ns}/payments-allow-internal at ${at(12)}, just before`,
    );
    expect(withIstiod(`VirtualService/${ns}/payments`)).toBeUndefined();

    const app403 = await investigateAt(
      apiTools(world('merchant MA-7781 may not create charges')),
      ask,
      NOW,
      ns,
    );
    expect(app403.text).toContain('merchant MA-7781 may not create charges');
    expect(app403.text).not.toMatch(/AuthorizationPolicy|RBAC/);
  });

  // ---------------------------------------------------------------- missing_secret's source

  it('a missing Secret a SealedSecret should unseal (the sealed-secrets controller in kube-system: "no key could decrypt secret"), or a cert-manager Certificate whose Issuer is not ready (an ErrGetKeyPair event, else cert-manager\'s err="Error getting keypair for CA issuer: ..."): the source and its error; a Secret nothing makes: no source claim', async () => {
    const ns = 'ledger';
    const app = 'ledger-api';
    const image = 'registry.example.io/finance/ledger-api:3.6.0';
    const pod = podName(app);
    const waiting = (secret: string): Box => ({
      name: app,
      image,
      ready: false,
      started: false,
      state: {
        waiting: {
          reason: 'CreateContainerConfigError',
          message: `secret "${secret}" not found`,
        },
      },
    });
    const world = (secret: string, more: Obj[], events: Obj[], logs: Record<string, string>) => {
      const w: ApiWorld = {
        objects: [
          namespaceObj(ns),
          deploymentObj(app, ns, [image], 1, 0, [], { created: 60 * 24 * 70 }),
          appPod(app, '7f9c4d8b26', 'x7k2p', ns, [waiting(secret)], { created: 20 }),
          ...more,
        ],
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: pod },
            'Failed',
            `Error: secret "${secret}" not found`,
            19,
            1,
            88,
          ),
          ...events,
        ],
        logs,
      };
      return w;
    };
    const ask = 'ledger-api in ledger does not start after the cluster move';
    const controller = (name: string, nsName: string, container: string, img: string): Obj =>
      podObj({
        name,
        ns: nsName,
        labels: { app: container },
        owner: { kind: 'ReplicaSet', name: name.replace(/-[a-z0-9]+$/, '') },
        boxes: [{ name: container, image: img }],
      });

    const sealedPod = 'sealed-secrets-controller-6c9d8f7b54-m4t8w';
    const sealed = await investigateAt(
      apiTools(
        world(
          'ledger-db-creds',
          [
            namespaceObj('kube-system'),
            controller(
              sealedPod,
              'kube-system',
              'sealed-secrets-controller',
              'docker.io/bitnami/sealed-secrets-controller:0.26.2',
            ),
          ],
          [],
          {
            [sealedPod]: [
              '2026/03/10 11:40:02 Starting sealed-secrets controller version: 0.26.2',
              '2026/03/10 11:41:12 Updating ledger/ledger-db-creds',
              '2026/03/10 11:41:12 Error updating ledger/ledger-db-creds, will retry: no key could decrypt secret (password, username)',
            ].join('\n'),
          },
        ),
      ),
      ask,
      NOW,
      ns,
    );
    const s = answerOf(sealed.result);
    expect(s).toContain('It is to be unsealed from the SealedSecret ledger-db-creds');
    expect(s).toContain('no key could decrypt secret (password, username)');

    const certificate = kubeEvent(
      ns,
      { kind: 'Certificate', name: 'ledger-api-tls' },
      'Normal',
      'Issuing',
      'Issuing certificate as Secret does not exist',
      19,
    );
    const cmPod = 'cert-manager-7b5d9c6f48-h2v9r';
    const cmWorld = (issuerEvent: boolean) =>
      world(
        'ledger-api-tls',
        [
          namespaceObj('cert-manager'),
          controller(
            cmPod,
            'cert-manager',
            'cert-manager-controller',
            'quay.io/jetstack/cert-manager-controller:v1.14.4',
          ),
        ],
        [
          certificate,
          ...(issuerEvent
            ? [
                warningEvent(
                  ns,
                  { kind: 'Issuer', name: 'ledger-ca' },
                  'ErrGetKeyPair',
                  'Error getting keypair for CA issuer: error decoding certificate PEM block',
                  18,
                  2,
                  9,
                  'cert-manager-issuers',
                ),
              ]
            : []),
        ],
        {
          [cmPod]: [
            'I0310 11:41:02.118831       1 conditions.go:263] Setting lastTransitionTime for CertificateRequest "ledger-api-tls-1" condition "Approved" to 2026-03-10 11:41:02.118822 +0000 UTC m=+604.2',
            'E0310 11:41:02.301955       1 controller.go:167] "re-queuing item due to error processing" err="Error getting keypair for CA issuer: error decoding certificate PEM block" logger="cert-manager.controller" key="ledger/ledger-ca"',
          ].join('\n'),
        },
      );
    const byEvent = await investigateAt(apiTools(cmWorld(true)), ask, NOW, ns);
    const e = answerOf(byEvent.result);
    expect(e).toContain(
      'cert-manager is to issue it (Certificate ledger-api-tls), but its Issuer ledger-ca is not ready',
    );
    expect(e).toContain('error decoding certificate PEM block');

    const byLog = await investigateAt(apiTools(cmWorld(false)), ask, NOW, ns);
    expect(answerOf(byLog.result)).toContain(
      'cert-manager is to issue it (Certificate ledger-api-tls), but its issuer ledger-ca is not ready: "Error getting keypair for CA issuer: error decoding certificate PEM block"',
    );

    const nothing = await investigateAt(
      apiTools(
        world(
          'ledger-db-creds',
          [
            namespaceObj('kube-system'),
            controller(
              sealedPod,
              'kube-system',
              'sealed-secrets-controller',
              'docker.io/bitnami/sealed-secrets-controller:0.26.2',
            ),
          ],
          [],
          {
            [sealedPod]: [
              '2026/03/10 11:40:02 Starting sealed-secrets controller version: 0.26.2',
              '2026/03/10 11:41:12 Error updating payments/payments-db-creds, will retry: no key could decrypt secret (password)',
            ].join('\n'),
          },
        ),
      ),
      ask,
      NOW,
      ns,
    );
    const n = answerOf(nothing.result);
    expect(n).toContain('the Secret "ledger-db-creds" it references does not exist');
    expect(n).not.toMatch(/SealedSecret|cert-manager|ExternalSecret/);
  });

  // ---------------------------------------------------------------- the mesh sidecar at start

  it('an app that restarted once after ECONNREFUSED before its istio-proxy logged "Envoy proxy is ready": the start-order answer; the refusal after the proxy was ready: the ordinary connection-refused answer', async () => {
    const ns = 'inventory';
    const app = 'stock-reserver';
    const image = 'registry.example.io/inventory/stock-reserver:4.4.0';
    const pod = podName(app);
    const proxyStart = NOW - 9 * 60_000;
    const t = (ms: number) => new Date(proxyStart + ms).toISOString();
    const world = (refusedAfter: number): ApiWorld =>
      oneApp({
        ns,
        app,
        image,
        env: { DATABASE_URL: `postgres://reserver@stock-db.${ns}.svc.cluster.local:5432/stock` },
        edit: (p) => {
          const spec = p['spec'] as { containers: Obj[] };
          spec.containers.push({ name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.22.3' });
          const status = p['status'] as { containerStatuses: Obj[] };
          status.containerStatuses[0]!['restartCount'] = 1;
          status.containerStatuses[0]!['state'] = {
            running: { startedAt: t(refusedAfter + 2000) },
          };
          status.containerStatuses[0]!['lastState'] = {
            terminated: {
              reason: 'Error',
              exitCode: 1,
              startedAt: t(200),
              finishedAt: t(refusedAfter + 300),
            },
          };
          status.containerStatuses.push({
            name: 'istio-proxy',
            image: 'docker.io/istio/proxyv2:1.22.3',
            ready: true,
            started: true,
            restartCount: 0,
            state: { running: { startedAt: t(0) } },
          });
          return p;
        },
        more: [
          ...statefulSetObj('stock-db', ns, 'docker.io/library/postgres:16.2', 1),
          serviceObj('stock-db', ns, { app: 'stock-db' }, 5432, { portName: 'tcp-postgres' }),
        ],
        logs: {
          [pod]: [
            `${t(refusedAfter + 2400)} INFO  stock-reserver: connected to stock-db.${ns}.svc.cluster.local:5432`,
            `${t(refusedAfter + 2500)} INFO  stock-reserver: listening on :8080`,
          ].join('\n'),
          [`${pod}/istio-proxy`]: [
            `${t(0)}\tinfo\tFLAG: --concurrency="2"`,
            `${t(600)}\twarn\tEnvoy proxy is NOT ready: config not received from XDS server (is Istiod running?)`,
            `${t(1900)}\tinfo\tads\tADS: new connection for node:${pod}.${ns}-1`,
            `${t(2300)}\tinfo\tEnvoy proxy is ready`,
          ].join('\n'),
        },
        previous: {
          [pod]: [
            `${t(250)} INFO  stock-reserver: starting, connecting to stock-db.${ns}.svc.cluster.local:5432`,
            `${t(refusedAfter)} ERROR stock-reserver: cannot connect to database: connect ECONNREFUSED 10.96.14.203:5432`,
          ].join('\n'),
        },
      });
    const ask = 'stock-reserver in inventory restarted after the deploy, why?';

    const early = await investigateAt(apiTools(world(400)), ask, NOW, ns);
    const a = answerOf(early.result);
    expect(a).toContain('starts before its istio-proxy sidecar is ready');
    expect(a).toContain(`ready at ${t(2300)}`);

    const late = await investigateAt(apiTools(world(5000)), ask, NOW, ns);
    const b = answerOf(late.result);
    expect(b).toMatch(/refused|ECONNREFUSED/);
    expect(b).not.toMatch(/before its istio-proxy sidecar/);
  });

  it('"Envoy proxy is NOT ready" followed by "Envoy proxy is ready" in one istio-proxy log: no mesh_proxy_no_config finding; a proxy that never becomes ready: still one', () => {
    const ns = 'inventory';
    const pod = podName('stock-reserver');
    const proxyLog = (lines: string[]) =>
      findingsOf([
        {
          output: lines.join('\n'),
          ctx: { pod, namespace: ns, verb: 'logs', container: 'istio-proxy' },
        },
      ]).findings;
    const notReady = `${at(9)}\twarn\tEnvoy proxy is NOT ready: config not received from XDS server (is Istiod running?)`;
    const started = proxyLog([notReady, `${at(9, 1700)}\tinfo\tEnvoy proxy is ready`]);
    expect(ids(started)).not.toContain('mesh_proxy_no_config');

    const never = proxyLog([
      notReady,
      `${at(8)}\twarn\tEnvoy proxy is NOT ready: config not received from XDS server (is Istiod running?)`,
    ]);
    expect(ids(never)).toContain('mesh_proxy_no_config');
  });
});
