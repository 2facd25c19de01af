/**
 * The engine rules of round26 (r26b) (cause-catalog.data.ts, its "round26 (r26b)" block, compared
 * in diagnose-r26b.ts; the question in questions-r26b.ts), one test per rule, each with a near
 * miss: ingress-nginx cutting requests and websockets at its proxy read timeout, ingress-nginx
 * sending plain HTTP to a pod that serves TLS, lookups walking the search list (ndots) whose
 * expansions CoreDNS fails, and "which Ingresses set annotation K".
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
  type ApiWorld,
} from './spec-world';

const rsPod = (app: string, hash: string, suffix: string, ns: string, more = {}) =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    boxes: [{ name: app, image: `registry.example/${app}:1.2.0` }],
    ...more,
  });

const ingressObj = (
  name: string,
  ns: string,
  host: string,
  service: string,
  port: number,
  annotations: Record<string, string> = {},
): Record<string, unknown> => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name, namespace: ns, annotations, creationTimestamp: ago(60 * 24 * 30) },
  spec: {
    ingressClassName: 'nginx',
    rules: [
      {
        host,
        http: {
          paths: [
            {
              path: '/',
              pathType: 'Prefix',
              backend: { service: { name: service, port: { number: port } } },
            },
          ],
        },
      },
    ],
  },
});

const CONTROLLER = 'ingress-nginx-controller-6b9f7c5d84-q7w2v';
const controllerPod = () =>
  rsPod('ingress-nginx-controller', '6b9f7c5d84', 'q7w2v', 'ingress-nginx');

/** an ingress-nginx access line (its default log format) */
const access = (min: number, req: string, status: number, rt: string, up: string) =>
  `${ago(min)} 10.0.19.7 - - [10/Mar/2026:11:00:00 +0000] "${req} HTTP/1.1" ${status} 160 "-" "Mozilla/5.0" 412 ${rt} [${up}] [] 10.52.3.18:8080 0 ${rt} ${status} f48d6683456a9fee85045420617c59c8`;

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

describe('round26 rules (r26b)', () => {
  it('504s at request_time 60.00x while the backend logs the work taking longer: the answer names the 60s default proxy-read-timeout and the durations; a ConfigMap timeout of 120 the 504s do not match: not this rule', async () => {
    const ns = 'office';
    const world = (global?: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('ingress-nginx'),
        controllerPod(),
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'ingress-nginx-controller', namespace: 'ingress-nginx' },
          data: { 'proxy-body-size': '8m', ...(global ? { 'proxy-read-timeout': global } : {}) },
        },
        rsPod('reports', '6f8d7b9c5', 'zx4kt', ns),
        serviceObj('reports', ns, { app: 'reports' }, 8080, { port: 80 }),
        ingressObj('reports', ns, 'reports.example.com', 'reports', 80),
      ],
      logs: {
        [CONTROLLER]: [1, 2, 3]
          .flatMap((i) => [
            `${ago(10 * i)} 2026/03/10 11:00:00 [error] 41#41: *118316${i} upstream timed out (110: Operation timed out) while reading response header from upstream, client: 10.0.19.7, server: reports.example.com, request: "GET /api/export HTTP/1.1", upstream: "http://10.52.3.18:8080/api/export", host: "reports.example.com"`,
            access(10 * i, 'GET /api/export', 504, '60.001', `${ns}-reports-80`),
          ])
          .join('\n'),
        'reports-6f8d7b9c5-zx4kt': [
          `time=${ago(31)} level=INFO msg="export started" report=ledger`,
          `time=${ago(29)} level=INFO msg="export finished" report=ledger duration=83.1s`,
          `time=${ago(29)} level=WARN msg="write response failed" err="write tcp 10.52.3.18:8080->10.0.39.54:43118: write: broken pipe"`,
        ].join('\n'),
      },
    });
    const ask = 'the export on reports.example.com gives 504 Gateway Time-out after a minute, why?';
    const bad = await answer(world(), ask, ns);
    expect(bad).toContain('proxy read timeout is 60s');
    expect(bad).toContain('sets no nginx.ingress.kubernetes.io/proxy-read-timeout');
    expect(bad).toContain('83.1s');
    const other = await answer(world('120'), ask, ns);
    expect(other).not.toContain('proxy read timeout is');
  });

  it('websockets (101) all closed at request_time 60.00x, the server heartbeat 120 s: the answer names the timeout and the heartbeat; upgrades of every length: not this rule', async () => {
    const ns = 'support';
    const world = (rts: string[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('ingress-nginx'),
        controllerPod(),
        rsPod('chat', '66d8b7c5f9', 'vz7kd', ns),
        serviceObj('chat', ns, { app: 'chat' }, 8080, { port: 80 }),
        ingressObj('chat', ns, 'chat.example.com', 'chat', 80),
      ],
      logs: {
        [CONTROLLER]: rts
          .map((rt, i) => access(20 - i, 'GET /socket', 101, rt, `${ns}-chat-80`))
          .join('\n'),
        'chat-66d8b7c5f9-vz7kd': [
          `{"level":30,"time":"${ago(600)}","msg":"websocket server ready","path":"/socket","heartbeatIntervalMs":120000}`,
          ...rts.map(
            (_, i) =>
              `{"level":40,"time":"${ago(20 - i)}","msg":"ws closed","code":1006,"durationMs":60000}`,
          ),
        ].join('\n'),
      },
    });
    const ask = 'chat agents keep getting "connection lost, reconnecting" every minute, why?';
    const bad = await answer(world(['60.001', '60.003', '60.002', '60.004']), ask, ns);
    expect(bad).toContain('proxy read timeout is 60s');
    expect(bad).toContain('heartbeat only every 120s');
    const other = await answer(world(['12.301', '340.113', '61.9', '1800.2']), ask, ns);
    expect(other).not.toContain('proxy read timeout is');
  });

  it('a pod that logs OpenSSL "http request" behind an Ingress without backend-protocol HTTPS: the answer says the ingress sends plain HTTP; the same Ingress with backend-protocol HTTPS: not this rule', async () => {
    const ns = 'accounts';
    const world = (annotations: Record<string, string>): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        rsPod('portal', '5d9c8b7f46', 'x8w2n', ns),
        serviceObj('portal', ns, { app: 'portal' }, 8443, { port: 443, portName: 'https' }),
        ingressObj('portal', ns, 'portal.example.com', 'portal', 443, annotations),
      ],
      logs: {
        'portal-5d9c8b7f46-x8w2n': [
          `${ago(40)} [1] * Listening on ssl://0.0.0.0:8443?cert=/etc/tls/tls.crt&key=/etc/tls/tls.key`,
          `${ago(10)} SSL error, peer: 10.0.21.9, peer cert: , #<Puma::MiniSSL::SSLError: OpenSSL error: error:0A00009C:SSL routines::http request - 1>`,
          `${ago(5)} SSL error, peer: 10.0.21.9, peer cert: , #<Puma::MiniSSL::SSLError: OpenSSL error: error:0A00009C:SSL routines::http request - 1>`,
        ].join('\n'),
      },
    });
    const ask = 'portal.example.com shows 502 Bad Gateway since this morning, why?';
    const bad = await answer(world({}), ask, ns);
    expect(bad).toContain('sends plain HTTP to portal');
    expect(bad).toContain('no nginx.ingress.kubernetes.io/backend-protocol annotation');
    const other = await answer(
      world({ 'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS' }),
      ask,
      ns,
    );
    expect(other).not.toContain('sends plain HTTP');
  });

  it('a 4-dot name that fails to resolve while CoreDNS logs <name>.<node search suffix> timing out: the answer names ndots and the search list; CoreDNS errors on other names only: not this rule', async () => {
    const ns = 'orders';
    const host = 'mq.eu-central-1.aws.example.prod';
    const world = (failing: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('kube-system'),
        rsPod('publisher', '5c7d9f8b6', 'tq4xn', ns),
        podObj({
          name: 'coredns-7d8c5f6b9d-x8kq2',
          ns: 'kube-system',
          labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '7d8c5f6b9d' },
          owner: { kind: 'ReplicaSet', name: 'coredns-7d8c5f6b9d' },
          boxes: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.1' }],
        }),
      ],
      logs: {
        'publisher-5c7d9f8b6-tq4xn': [
          `${ago(30)} INFO connecting to amqps://${host}:5671/orders`,
          `${ago(20)} WARNING publish batch failed host=${host} port=5671 error="[Errno -3] Temporary failure in name resolution"`,
          `${ago(10)} WARNING publish batch failed host=${host} port=5671 error="[Errno -3] Temporary failure in name resolution"`,
        ].join('\n'),
        'coredns-7d8c5f6b9d-x8kq2': [
          `${ago(21)} [ERROR] plugin/errors: 2 ${failing}.eu-central-1.compute.internal. A: read udp 10.0.11.23:40000->10.0.0.2:53: i/o timeout`,
          `${ago(11)} [ERROR] plugin/errors: 2 ${failing}.eu-central-1.compute.internal. AAAA: read udp 10.0.11.23:40311->10.0.0.2:53: i/o timeout`,
        ].join('\n'),
      },
    });
    const ask =
      'publisher keeps logging Temporary failure in name resolution since last night, why?';
    const bad = await answer(world(host), ask, ns);
    expect(bad).toContain('ndots:5');
    expect(bad).toContain(`${host}.eu-central-1.compute.internal`);
    const other = await answer(world('telemetry.example.org'), ask, ns);
    expect(other).not.toContain('ndots');
    // CoreDNS failing the name itself (fully qualified, no search suffix): an upstream outage
    const bare = world(host);
    bare.logs!['coredns-7d8c5f6b9d-x8kq2'] =
      `${ago(21)} [ERROR] plugin/errors: 2 ${host}. A: read udp 10.0.11.23:40000->10.0.0.2:53: i/o timeout`;
    expect(await answer(bare, ask, ns)).not.toContain('ndots');
  });

  it('"which ingresses in X override proxy-read-timeout": those that set the annotation, with their values; another annotation or namespace is left out', async () => {
    const ns = 'partner';
    const rt = 'nginx.ingress.kubernetes.io/proxy-read-timeout';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        namespaceObj('marketing'),
        ingressObj('portal', ns, 'portal.example.com', 'portal', 80, { [rt]: '300' }),
        ingressObj('hooks', ns, 'hooks.example.com', 'hooks', 80, { [rt]: '30' }),
        ingressObj('docs', ns, 'docs.example.com', 'docs', 80, {
          'nginx.ingress.kubernetes.io/proxy-send-timeout': '120',
        }),
        ingressObj('campaign', 'marketing', 'campaign.example.com', 'campaign', 80, {
          [rt]: '180',
        }),
      ],
    };
    const text = await answer(
      world,
      'which ingresses in the partner namespace override proxy-read-timeout with their own annotation, and what values do they use?',
      ns,
    );
    expect(text).toContain(
      '2 Ingresses in namespace partner set nginx.ingress.kubernetes.io/proxy-read-timeout',
    );
    expect(text).toContain('hooks "30"');
    expect(text).toContain('portal "300"');
    expect(text).toContain('docs does not set it');
    expect(text).not.toContain('campaign');
    // the setting asked about is no object the answer looked for
    expect(text).not.toContain('no object named');
  });
});
