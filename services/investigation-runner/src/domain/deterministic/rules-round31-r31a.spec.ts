/**
 * The engine rules of round31 (r31a) (cause-catalog.data.ts, its "round31 (r31a)" block, the rules
 * that compare objects in diagnose-r31a.ts, the question in questions-r31a.ts), one test per rule,
 * each with a near miss where it must not fire: an OpenTelemetry Collector OOMKilled with no
 * memory_limiter in its pipelines; alerts Alertmanager cannot deliver to a receiver; a GKE Ingress
 * backend UNHEALTHY while the pods run (the health check gets a redirect); a log shipper whose bulk
 * requests Elasticsearch refuses with 429; "which ingresses have rate limits?".
 */
import {
  NOW,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

const collectorConfig = (processors: string) =>
  [
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      grpc:',
    '        endpoint: 0.0.0.0:4317',
    '      http:',
    '        endpoint: 0.0.0.0:4318',
    'processors:',
    '  batch:',
    '    send_batch_size: 4096',
    '    timeout: 2s',
    '  memory_limiter:',
    '    check_interval: 1s',
    '    limit_percentage: 80',
    '    spike_limit_percentage: 20',
    'exporters:',
    '  otlp/traces:',
    '    endpoint: traces-backend.telemetry.svc:4317',
    '    sending_queue:',
    '      enabled: true',
    '      queue_size: 5000',
    'service:',
    '  pipelines:',
    '    traces:',
    '      receivers: [otlp]',
    `      processors: [${processors}]`,
    '      exporters: [otlp/traces]',
    '',
  ].join('\n');

describe('round31 rules (r31a): a collector without memory_limiter, undelivered alerts, a failing LB health check, refused bulk writes, rate limits', () => {
  it('an OOMKilled collector whose pipeline runs no memory_limiter names the processor list and the queue; one with memory_limiter first: not this rule', async () => {
    const ns = 'telemetry';
    const app = 'trace-gw';
    const image = 'otel/opentelemetry-collector-contrib:0.110.0';
    const world = (processors: string): ApiWorld => {
      const pod = podObj({
        name: `${app}-7c9d8b6f5-aaaaa`,
        ns,
        labels: { app },
        owner: { kind: 'ReplicaSet', name: `${app}-7c9d8b6f5` },
        boxes: [
          {
            name: 'otelcol',
            image,
            restarts: 9,
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
            lastState: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
            resources: { limits: { memory: '2Gi' }, requests: { memory: '1Gi' } },
          },
        ],
      }) as { spec: Obj };
      pod.spec['volumes'] = [{ name: 'conf', configMap: { name: `${app}-config` } }];
      (pod.spec['containers'] as Obj[])[0]!['volumeMounts'] = [
        { name: 'conf', mountPath: '/conf' },
      ];
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj(app, ns, [image], 1, 0),
          pod as unknown as Obj,
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `${app}-config`, namespace: ns },
            data: { 'config.yaml': collectorConfig(processors) },
          },
        ],
      };
    };
    const ask = `${app} in ${ns} keeps restarting, why?`;
    const bad = answerOf((await investigateAt(apiTools(world('batch')), ask, NOW, ns)).result);
    expect(bad).toContain('no memory_limiter processor');
    expect(bad).toContain('processors: [batch]');
    expect(bad).toContain('queue_size 5000');
    const guarded = answerOf(
      (await investigateAt(apiTools(world('memory_limiter, batch')), ask, NOW, ns)).result,
    );
    expect(guarded).not.toContain('no memory_limiter processor');
    expect(guarded).toContain('OOMKilled');
  });

  it("alerts that never reach Slack: Alertmanager's log names the receiver and its 404; a retry that later succeeded: not this rule", async () => {
    const ns = 'observability';
    const image = 'quay.io/prometheus/alertmanager:v0.27.0';
    const world = (log: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('checkout'),
        podObj({
          name: 'alertmanager-main-0',
          ns,
          labels: { app: 'alertmanager' },
          owner: { kind: 'StatefulSet', name: 'alertmanager-main' },
          boxes: [{ name: 'alertmanager', image }],
        }),
        deploymentObj('cart', 'checkout', ['registry.example.com/cart:1.4.0'], 1, 0),
        podObj({
          name: 'cart-6f7d8c9b5-bbbbb',
          ns: 'checkout',
          labels: { app: 'cart' },
          owner: { kind: 'ReplicaSet', name: 'cart-6f7d8c9b5' },
          boxes: [
            {
              name: 'cart',
              image: 'registry.example.com/cart:1.4.0',
              restarts: 30,
              state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
              lastState: { terminated: { exitCode: 1, reason: 'Error' } },
            },
          ],
        }),
      ],
      logs: { 'alertmanager-main-0': log },
    });
    const ask =
      'cart crashloops since last night and we never got a slack alert about it. is alerting broken?';
    const failing = [
      'ts=2026-02-01T09:00:00.000Z caller=main.go:181 level=info msg="Starting Alertmanager" version="(version=0.27.0)"',
      `ts=${new Date(NOW - 20 * 60_000).toISOString()} caller=dispatch.go:353 level=error component=dispatcher msg="Notify for alerts failed" num_alerts=2 err="team-ops/slack[0]: notify retry canceled due to unrecoverable error after 1 attempts: channel \\"#ops\\": unexpected status code 404: no_service"`,
    ].join('\n');
    const bad = answerOf(
      (await investigateAt(apiTools(world(failing)), ask, NOW, 'checkout')).result,
    );
    expect(bad).toContain('cannot deliver them to receiver team-ops');
    expect(bad).toContain('unexpected status code 404: no_service');
    const retried = [
      'ts=2026-02-01T09:00:00.000Z caller=main.go:181 level=info msg="Starting Alertmanager" version="(version=0.27.0)"',
      `ts=${new Date(NOW - 20 * 60_000).toISOString()} caller=dispatch.go:353 level=warn component=dispatcher msg="Notify attempt failed, will retry later" receiver=team-ops integration=slack[0] attempts=1 err="context deadline exceeded"`,
    ].join('\n');
    const old = failing.replace(
      /ts=[^ ]+ caller=dispatch/,
      'ts=2026-03-01T10:00:00.000Z caller=dispatch',
    );
    const before = answerOf(
      (await investigateAt(apiTools(world(old)), ask, NOW, 'checkout')).result,
    );
    expect(before).not.toContain('cannot deliver them to receiver');
    const fine = answerOf(
      (await investigateAt(apiTools(world(retried)), ask, NOW, 'checkout')).result,
    );
    expect(fine).not.toContain('cannot deliver them to receiver');
  });

  it('a GKE Ingress backend UNHEALTHY while the pods run: the health check gets a redirect from the pods; the same backend HEALTHY: not this rule', async () => {
    const ns = 'storefront';
    const app = 'web-shop';
    const image = 'registry.example.com/web-shop:4.0.0';
    const world = (state: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 2, 2),
        podObj({
          name: `${app}-6c7d8e9f0-aaaaa`,
          ns,
          labels: { app },
          owner: { kind: 'ReplicaSet', name: `${app}-6c7d8e9f0` },
          boxes: [{ name: 'web', image }],
        }),
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: app, namespace: ns },
          spec: { type: 'NodePort', selector: { app }, ports: [{ port: 80, targetPort: 8080 }] },
        },
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: {
            name: app,
            namespace: ns,
            annotations: {
              'kubernetes.io/ingress.class': 'gce',
              'ingress.kubernetes.io/backends': JSON.stringify({
                [`k8s1-0a1b2c3d-${ns}-${app}-80-9e8d7c6b`]: state,
                'k8s1-0a1b2c3d-kube-system-default-http-backend-80-1a2b3c4d': 'HEALTHY',
              }),
            },
          },
          spec: {
            rules: [
              {
                host: 'shop.example.com',
                http: {
                  paths: [
                    {
                      path: '/*',
                      pathType: 'ImplementationSpecific',
                      backend: { service: { name: app, port: { number: 80 } } },
                    },
                  ],
                },
              },
            ],
          },
        },
      ],
      logs: {
        [`${app}-6c7d8e9f0-aaaaa`]: [
          `${new Date(NOW - 30 * 60_000).toISOString()} INFO listening on :8080`,
          `${new Date(NOW - 29 * 60_000).toISOString()} INFO 130.211.0.10 "GET / HTTP/1.1" 301 0 "-" "GoogleHC/1.0"`,
        ].join('\n'),
      },
    });
    const ask = `${app}: users get 502 Bad Gateway on shop.example.com since this morning; all pods Running`;
    const bad = answerOf((await investigateAt(apiTools(world('UNHEALTHY')), ask, NOW, ns)).result);
    expect(bad).toContain('marks their backend UNHEALTHY');
    expect(bad).toContain('gets 301 (a redirect)');
    expect(bad).toContain('no readinessProbe');
    const fine = answerOf((await investigateAt(apiTools(world('HEALTHY')), ask, NOW, ns)).result);
    expect(fine).not.toContain('UNHEALTHY');
  });

  it('logs late in Kibana while the shipper runs: Elasticsearch refuses its bulk requests with 429 es_rejected_execution_exception; a mapping error instead: not this rule', async () => {
    const ns = 'observability';
    const image = 'fluent/fluentd-kubernetes-daemonset:v1.17-debian-elasticsearch8-1';
    const world = (error: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          metadata: { name: 'fluentd', namespace: ns },
          spec: {
            selector: { matchLabels: { app: 'fluentd' } },
            template: { spec: { containers: [{ name: 'fluentd', image }] } },
          },
          status: {
            desiredNumberScheduled: 1,
            currentNumberScheduled: 1,
            numberReady: 1,
            numberAvailable: 1,
          },
        },
        podObj({
          name: 'fluentd-x7k2p',
          ns,
          labels: { app: 'fluentd' },
          owner: { kind: 'DaemonSet', name: 'fluentd' },
          boxes: [{ name: 'fluentd', image }],
        }),
        deploymentObj('kibana', ns, ['docker.elastic.co/kibana/kibana:8.15.0'], 1, 1),
        podObj({
          name: 'kibana-5b6c7d8e9-kkkkk',
          ns,
          labels: { app: 'kibana' },
          owner: { kind: 'ReplicaSet', name: 'kibana-5b6c7d8e9' },
          boxes: [{ name: 'kibana', image: 'docker.elastic.co/kibana/kibana:8.15.0' }],
        }),
      ],
      logs: {
        'fluentd-x7k2p': [
          `${new Date(NOW - 60 * 60_000).toISOString().replace(/\.\d+Z/, 'Z')} [info]: #0 starting fluentd worker pid=17`,
          `${new Date(NOW - 10 * 60_000).toISOString().replace(/\.\d+Z/, 'Z')} [warn]: #0 failed to flush the buffer. retry_times=3 error_class=Fluent::Plugin::ElasticsearchOutput::RecoverableRequestFailure error="could not push logs to Elasticsearch cluster: ${error}"`,
        ].join('\n'),
      },
    });
    const ask = 'kibana shows no logs newer than an hour. did the log shipper die?';
    const rejected =
      '[429] {\\"error\\":{\\"root_cause\\":[{\\"type\\":\\"es_rejected_execution_exception\\",\\"reason\\":\\"rejected execution of coordinating operation [coordinating_and_primary_bytes=210000000, max_coordinating_and_primary_bytes=214748364]\\"}]},\\"status\\":429}';
    const bad = answerOf((await investigateAt(apiTools(world(rejected)), ask, NOW, ns)).result);
    expect(bad).toContain('429 es_rejected_execution_exception');
    expect(bad).toContain('rejected execution of coordinating operation');
    const mapping =
      '[400] {\\"error\\":{\\"type\\":\\"mapper_parsing_exception\\",\\"reason\\":\\"failed to parse field [level]\\"},\\"status\\":400}';
    const other = answerOf((await investigateAt(apiTools(world(mapping)), ask, NOW, ns)).result);
    expect(other).not.toContain('es_rejected_execution_exception');
  });

  it('"which ingresses in X have rate limiting and what are the limits": every limit-* annotation with its value; an Ingress with other annotations is named as unlimited', async () => {
    const ns = 'gateway';
    const ingress = (name: string, annotations: Record<string, string>) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name, namespace: ns, annotations },
      spec: {
        ingressClassName: 'nginx',
        rules: [
          {
            host: `${name}.example.com`,
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name, port: { number: 80 } } },
                },
              ],
            },
          },
        ],
      },
    });
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        ingress('orders', {
          'nginx.ingress.kubernetes.io/limit-rps': '5',
          'nginx.ingress.kubernetes.io/limit-burst-multiplier': '2',
        }),
        ingress('search', { 'nginx.ingress.kubernetes.io/limit-rpm': '120' }),
        ingress('assets', { 'nginx.ingress.kubernetes.io/proxy-body-size': '16m' }),
      ],
    };
    const ask =
      'customers get 429s. which ingresses in gateway have rate limiting and what are the limits?';
    const text = answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);
    expect(text).toContain('2 Ingresses in namespace gateway have ingress-nginx rate limits');
    expect(text).toContain('orders (limit-rps "5", limit-burst-multiplier "2")');
    expect(text).toContain('search (limit-rpm "120" (2 per second))');
    expect(text).toContain('assets sets no rate limit');
    // a question for one annotation stays that question
    const one = answerOf(
      (
        await investigateAt(
          apiTools(world),
          'which ingresses in gateway set the proxy-body-size annotation, and to what value?',
          NOW,
          ns,
        )
      ).result,
    );
    expect(one).toContain('assets "16m"');
    expect(one).not.toContain('rate limit');
  });
});
