/**
 * The engine rules of 9e1033d, 0e6300f, bca232e and d39f4e9, one test per rule, each on a small
 * world of outputs shaped like real ones (Kubernetes API objects and events, klog lines of
 * kube-proxy, the API server, ingress-nginx and cert-manager, runc's mount error, Vault agent's
 * hclog records): a node's network agent down behind the timeouts of the pods on that node, a
 * health check that checks a dependency (readiness / liveness), a readiness probe timeout, "503
 * Service Temporarily" in a message, a subPath whose key is missing, a kubelet client certificate
 * that expired when the node went silent, Vault's Kubernetes login refused, a missing TLS Secret
 * attributed to the Ingress's workload, and an ACME rate limit.
 */
import type { CallContext } from './observe';
import { conclude } from './conclude';
import { CAUSE_CATALOG } from './cause-catalog.data';
import { compile } from './diagnose';
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  apiTools,
  conclusion,
  deploymentObj,
  engineRun,
  findingsOf,
  investigateAt,
  jsonOutputs,
  kubeEvent,
  podObj,
  type ApiWorld,
  type Box,
  type JsonWorld,
} from './spec-world';

type Obj = Record<string, unknown>;
type Outputs = { output: unknown; ctx?: Partial<CallContext> }[];

/** the conclusion the engine draws from these outputs for this request */
function concludeOn(outputs: Outputs, message: string, ns: string): string {
  const { model } = findingsOf(outputs);
  const result = conclude(
    engineRun(message, { namespace: ns }),
    scopeIncident(message, { namespace: ns }, NOW),
    model,
    compile(CAUSE_CATALOG),
    { runbooks: [], incidents: [], patterns: [] },
    NOW,
    0,
    [],
  );
  return conclusion(result);
}

/** a Deployment's pod, named after its ReplicaSet */
const replica = (
  deploy: string,
  rs: string,
  suffix: string,
  ns: string,
  box: Partial<Box> & { image: string },
  more: Partial<Parameters<typeof podObj>[0]> = {},
) =>
  podObj({
    name: `${deploy}-${rs}-${suffix}`,
    ns,
    labels: { app: deploy },
    owner: { kind: 'ReplicaSet', name: `${deploy}-${rs}` },
    boxes: [{ name: deploy, ...box }],
    ...more,
  });

/** klog's header: "E0310 11:41:07.118203       1 file.go:42] " at `minutesAgo` */
const klog = (sev: 'I' | 'W' | 'E' | 'F', minutesAgo: number, at: string) => {
  const t = new Date(NOW - minutesAgo * 60_000);
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${sev}${p2(t.getUTCMonth() + 1)}${p2(t.getUTCDate())} ${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}.118203       1 ${at}] `;
};

// ------------------------------------------------------------------------------------------------

describe('rules of 9e1033d, 0e6300f, bca232e and d39f4e9', () => {
  it('kube-proxy in CrashLoopBackOff on the node where a pod logs i/o timeouts (its siblings elsewhere fine): the agent, the node and its error; with kube-proxy running: no such finding', () => {
    const ns = 'fleet-tracking';
    const sick = 'aks-nodepool1-31718369-vmss000004';
    const fine = 'aks-nodepool1-31718369-vmss000001';
    const image = 'fleetacr.azurecr.io/fleet/position-ingest:3.8.2';
    const kubeProxy = (crashing: boolean) =>
      podObj({
        name: 'kube-proxy-7xq2m',
        ns: 'kube-system',
        labels: { 'k8s-app': 'kube-proxy' },
        owner: { kind: 'DaemonSet', name: 'kube-proxy' },
        node: sick,
        boxes: [
          crashing
            ? {
                name: 'kube-proxy',
                image: 'mcr.microsoft.com/oss/kubernetes/kube-proxy:v1.29.4',
                restarts: 14,
                state: {
                  waiting: {
                    reason: 'CrashLoopBackOff',
                    message:
                      'back-off 5m0s restarting failed container=kube-proxy pod=kube-proxy-7xq2m_kube-system',
                  },
                },
                lastState: {
                  terminated: { reason: 'Error', exitCode: 1, finishedAt: ago(3) },
                },
              }
            : {
                name: 'kube-proxy',
                image: 'mcr.microsoft.com/oss/kubernetes/kube-proxy:v1.29.4',
              },
        ],
      });
    const world = (crashing: boolean): JsonWorld => ({
      objects: [
        deploymentObj('position-ingest', ns, [image], 2, 1),
        replica(
          'position-ingest',
          '6c9f8d7b5',
          'h2kqw',
          ns,
          { image, ready: false },
          { node: sick },
        ),
        replica('position-ingest', '6c9f8d7b5', 'pl8dn', ns, { image }, { node: fine }),
        kubeProxy(crashing),
      ],
      logs: {
        'position-ingest-6c9f8d7b5-h2kqw': [
          '2026-03-10T11:52:14.211Z ERROR consumer: fetch failed: dial tcp 10.0.118.42:9092: i/o timeout',
          '2026-03-10T11:53:14.322Z ERROR consumer: fetch failed: dial tcp 10.0.118.42:9092: i/o timeout',
        ].join('\n'),
        'position-ingest-6c9f8d7b5-pl8dn':
          '2026-03-10T11:53:02.004Z INFO consumer: committed offsets partition=3 offset=88123410',
      },
      previous: crashing
        ? {
            'kube-proxy-7xq2m': [
              `${klog('I', 4, 'server_linux.go:69')}"Using iptables proxy"`,
              `${klog('E', 4, 'server.go:558')}"Error running ProxyServer" err="can't set sysctl net/ipv4/conf/all/route_localnet to 1: open /proc/sys/net/ipv4/conf/all/route_localnet: read-only file system"`,
            ].join('\n'),
          }
        : undefined,
    });
    const agentDown = (w: JsonWorld) =>
      findingsOf(jsonOutputs(w, ns)).findings.filter(
        (f) => f.entry.id === 'node_network_agent_down',
      );

    const found = agentDown(world(true));
    expect(found).toHaveLength(1);
    expect(found[0]!.object?.name).toBe('position-ingest-6c9f8d7b5-h2kqw');
    expect(found[0]!.groups).toMatchObject({ agent: 'kube-proxy-7xq2m', node: sick });
    expect(found[0]!.groups['elsewhere']).toContain('on other nodes work');
    expect(found[0]!.fact).toContain('CrashLoopBackOff');
    expect(found[0]!.fact).toContain('route_localnet');

    expect(agentDown(world(false))).toHaveLength(0);
  });

  describe('a health check that checks a dependency', () => {
    const ns = 'pricing';
    const image = 'ghcr.io/acme-pricing/quote-engine:5.2.0';
    const pods = ['x7tq2', 'm4rz9', 'c8wn5'];
    const world = (probe: 'Readiness' | 'Liveness'): JsonWorld => ({
      objects: [
        deploymentObj('quote-engine', ns, [image], 3, probe === 'Readiness' ? 0 : 3),
        ...pods.map((s) =>
          replica('quote-engine', '84d6b7f9c', s, ns, {
            image,
            ready: probe !== 'Readiness',
            restarts: probe === 'Liveness' ? 4 : 0,
            ...(probe === 'Liveness'
              ? { lastState: { terminated: { reason: 'Error', exitCode: 2, finishedAt: ago(6) } } }
              : {}),
          }),
        ),
      ],
      events: pods.map((s) =>
        kubeEvent(
          ns,
          { kind: 'Pod', name: `quote-engine-84d6b7f9c-${s}` },
          'Warning',
          'Unhealthy',
          `${probe} probe failed: HTTP probe failed with statuscode: 503`,
          30,
          1,
          57,
        ),
      ),
      logs: Object.fromEntries(
        pods.map((s) => [
          `quote-engine-84d6b7f9c-${s}`,
          [
            '{"level":"info","ts":"2026-03-10T11:57:40.002Z","caller":"server/http.go:61","msg":"serving","addr":":8080"}',
            `{"level":"error","ts":"2026-03-10T11:58:02.114Z","caller":"health/handler.go:88","msg":"${probe.toLowerCase()} check failed","check":"fx-rates-db","error":"context deadline exceeded"}`,
          ].join('\n'),
        ]),
      ),
    });
    const ask = 'quote-engine in pricing answers 503 since this morning';

    it('Readiness Unhealthy events: readiness, every replica unready, 503, the dependency; Liveness Unhealthy events: liveness, restarts', () => {
      const ready = concludeOn(jsonOutputs(world('Readiness'), ns), ask, ns);
      expect(ready).toContain('readiness check also checks its dependency fx-rates-db');
      expect(ready).toContain('every replica turns unready at once');
      expect(ready).toContain('503');
      expect(ready).not.toMatch(/kubelet restarts/);

      const live = concludeOn(jsonOutputs(world('Liveness'), ns), ask, ns);
      expect(live).toContain('liveness check also checks its dependency fx-rates-db');
      expect(live).toContain('the kubelet restarts pods that are themselves fine');
    });
  });

  it('a Readiness probe that times out: taken out of the Service, never restarted', () => {
    const ns = 'docs-portal';
    const image = 'quay.io/docsteam/search-api:1.14.0';
    const pod = 'search-api-5f7c9d8b6-tq4vx';
    const world: JsonWorld = {
      objects: [
        deploymentObj('search-api', ns, [image], 1, 0),
        replica('search-api', '5f7c9d8b6', 'tq4vx', ns, { image, ready: false }),
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'Pod', name: pod },
          'Warning',
          'Unhealthy',
          'Readiness probe failed: Get "http://10.52.3.18:9200/ready": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
          20,
          1,
          41,
        ),
      ],
    };
    const text = concludeOn(
      jsonOutputs(world, ns),
      'search-api in docs-portal gets no traffic',
      ns,
    );
    expect(text).toContain('Readiness probe times out');
    expect(text).toContain('taken out of the Service endpoints');
    expect(text).not.toMatch(/restarts? it/);
  });

  it('"shows 503 Service Temporarily Unavailable": no subject "503" or "temporarily"', () => {
    const scope = scopeIncident(
      'the members login page shows 503 Service Temporarily Unavailable in the loyalty namespace',
      {},
      NOW,
    );
    const names = scope.subjects.map((s) => s.name.toLowerCase());
    expect(names).not.toContain('503');
    expect(names).not.toContain('temporarily');
  });

  it('runc "error mounting .../volume-subpaths/<vol>/... to rootfs at <file>: not a directory": subPath, the volume, the path', () => {
    const ns = 'edge-proxy';
    const image = 'docker.io/library/haproxy:2.9.7';
    const pod = 'lb-front-7d9c6b5f4-wm2zs';
    const message =
      'Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error mounting "/var/lib/kubelet/pods/9b1e7c52-4d2a-4f4e-8f61-0c3a5d2e7b19/volume-subpaths/haproxy-cfg/lb-front/0" to rootfs at "/usr/local/etc/haproxy/haproxy.cfg": mount /var/lib/kubelet/pods/9b1e7c52-4d2a-4f4e-8f61-0c3a5d2e7b19/volume-subpaths/haproxy-cfg/lb-front/0:/usr/local/etc/haproxy/haproxy.cfg (via /proc/self/fd/6), flags: 0x5001: not a directory: unknown';
    const world: JsonWorld = {
      objects: [
        deploymentObj('lb-front', ns, [image], 1, 0),
        replica('lb-front', '7d9c6b5f4', 'wm2zs', ns, {
          image,
          restarts: 5,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: `back-off 2m40s restarting failed container=lb-front pod=${pod}_${ns}`,
            },
          },
          lastState: {
            terminated: { reason: 'StartError', exitCode: 128, message, finishedAt: ago(2) },
          },
        }),
      ],
      events: [kubeEvent(ns, { kind: 'Pod', name: pod }, 'Warning', 'Failed', message, 12, 2, 6)],
    };
    const found = findingsOf(jsonOutputs(world, ns)).findings.filter(
      (f) => f.entry.id === 'subpath_key_missing',
    );
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]!.groups).toMatchObject({
      volume: 'haproxy-cfg',
      target: '/usr/local/etc/haproxy/haproxy.cfg',
    });
    expect(found[0]!.entry.cause).toContain('subPath');
  });

  describe('a node whose kubelet stopped posting', () => {
    const node = 'bm-rack2-node07';
    const node$: Obj = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: node,
        labels: { 'kubernetes.io/hostname': node },
        creationTimestamp: ago(60 * 24 * 366),
      },
      spec: {},
      status: {
        conditions: [
          {
            type: 'MemoryPressure',
            status: 'Unknown',
            reason: 'NodeStatusUnknown',
            message: 'Kubelet stopped posting node status.',
            lastHeartbeatTime: ago(44),
            lastTransitionTime: ago(40),
          },
          {
            type: 'Ready',
            status: 'Unknown',
            reason: 'NodeStatusUnknown',
            message: 'Kubelet stopped posting node status.',
            lastHeartbeatTime: ago(44),
            lastTransitionTime: ago(40),
          },
        ],
      },
    };
    const apiServer = podObj({
      name: 'kube-apiserver-bm-rack1-cp01',
      ns: 'kube-system',
      labels: { component: 'kube-apiserver', tier: 'control-plane' },
      owner: { kind: 'Node', name: 'bm-rack1-cp01' },
      node: 'bm-rack1-cp01',
      boxes: [{ name: 'kube-apiserver', image: 'registry.k8s.io/kube-apiserver:v1.28.9' }],
    });
    /** the API server (its log served only when asked) refusing a certificate that expired `expiredAgo` minutes ago */
    const stamp = (m: number) => ago(m).replace('.000', '');
    const world = (expiredAgo: number): ApiWorld => ({
      objects: [node$, apiServer],
      logs: {
        'kube-apiserver-bm-rack1-cp01': [
          `${klog('I', 50, 'controller.go:624')}quota admission added evaluator for: leases.coordination.k8s.io`,
          `${klog('E', 39, 'authentication.go:73')}"Unable to authenticate the request" err="[x509: certificate has expired or is not yet valid: current time ${stamp(39)} is after ${stamp(expiredAgo)}, verifying certificate SN=284719203847120394857, SKID=, AKID=5E:21:AF:08 failed: x509: certificate has expired or is not yet valid: current time ${stamp(39)} is after ${stamp(expiredAgo)}]"`,
        ].join('\n'),
      },
    });
    const ask = `node ${node} went NotReady and its pods were evicted`;

    it('an expiry just before the node went silent: the API server log is read and the kubelet client certificate named, renewed; an expiry long before: no such sentence', async () => {
      const near = (await investigateAt(apiTools(world(41)), ask, NOW)).text;
      expect(near).toContain(`the kubelet's client certificate on ${node} expired`);
      expect(near).toContain(`Renew the kubelet client certificate of ${node}`);

      const far = (await investigateAt(apiTools(world(60 * 24 * 20)), ask, NOW)).text;
      expect(far).toMatch(new RegExp(`node ${node} is NotReady`, 'i'));
      expect(far).not.toContain('client certificate');
    });
  });

  it("Vault agent's hclog record (error= then '| ...' lines) with 403 permission denied on the kubernetes login: Vault login refused, with the pod's ServiceAccount", () => {
    const ns = 'payments';
    const image = 'registry.example.io/payments/ledger-api:7.0.1';
    const rs = 'ledger-api-69b8c7d5f4';
    const refused = `${rs}-s9vkd`;
    const working = 'ledger-api-5c7d9f6b88-q2lxn';
    const vault = { name: 'vault-agent', image: 'hashicorp/vault:1.15.6' };
    const world: JsonWorld = {
      objects: [
        deploymentObj('ledger-api', ns, [image], 2, 1),
        podObj({
          name: refused,
          ns,
          labels: { app: 'ledger-api' },
          owner: { kind: 'ReplicaSet', name: rs },
          serviceAccount: 'ledger-api-sa',
          created: 20,
          boxes: [
            { name: 'ledger-api', image, ready: false },
            { ...vault, ready: false },
          ],
        }),
        podObj({
          name: working,
          ns,
          labels: { app: 'ledger-api' },
          owner: { kind: 'ReplicaSet', name: 'ledger-api-5c7d9f6b88' },
          serviceAccount: 'ledger-api',
          boxes: [{ name: 'ledger-api', image }, vault],
        }),
      ],
      logs: {
        [refused]: [
          '==> Vault Agent started! Log data will stream in below:',
          '',
          '2026-03-10T11:55:03.412Z [INFO]  agent.auth.handler: starting auth handler',
          '2026-03-10T11:55:03.412Z [INFO]  agent.auth.handler: authenticating',
          '2026-03-10T11:55:03.431Z [ERROR] agent.auth.handler: error authenticating:',
          '  error=',
          '  | Error making API request.',
          '  | ',
          '  | URL: PUT http://vault.vault-system.svc:8200/v1/auth/kubernetes/login',
          '  | Code: 403. Errors:',
          '  | ',
          '  | * permission denied',
          '   backoff=1.94s',
          '2026-03-10T11:55:05.372Z [INFO]  agent.auth.handler: authenticating',
        ].join('\n'),
      },
    };
    const text = concludeOn(
      jsonOutputs(world, ns),
      'new ledger-api pods in payments never get ready after the helm upgrade',
      ns,
    );
    expect(text).toContain('cannot log in to Vault');
    expect(text).toContain('403 permission denied');
    expect(text).toContain('(ledger-api-sa; its older pods run as ledger-api and still log in)');
  });

  describe('a TLS Secret the ingress controller cannot find', () => {
    const ns = 'storefront';
    const controller = 'ingress-nginx-controller-6f8d9c7b54-k2vfx';
    const ingress = (name: string, service: string, host: string, tls?: string): Obj => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 30) },
      spec: {
        ingressClassName: 'nginx',
        ...(tls ? { tls: [{ hosts: [host], secretName: tls }] } : {}),
        rules: [
          {
            host,
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: service, port: { number: 80 } } },
                },
              ],
            },
          },
        ],
      },
    });
    const service = (name: string): Obj => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: ns },
      spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }] },
    });
    const nginxLog = [
      `${klog('W', 9, 'backend_ssl.go:47')}Error obtaining X.509 certificate: no object matching key "${ns}/checkout-web-tls" in local store`,
      `${klog('W', 9, 'controller.go:1372')}Error getting SSL certificate "${ns}/checkout-web-tls": local SSL certificate ${ns}/checkout-web-tls was not found. Using default certificate`,
    ].join('\n');
    const appOutputs = (): Outputs => [
      ...[
        ingress('catalog', 'catalog-web', 'catalog.shop.example.com'),
        ingress('checkout', 'checkout-web', 'pay.shop.example.com', 'checkout-web-tls'),
        service('catalog-web'),
        service('checkout-web'),
        deploymentObj('catalog-web', ns, ['ghcr.io/shop/catalog-web:2.3.1'], 2, 2),
        deploymentObj('checkout-web', ns, ['ghcr.io/shop/checkout-web:4.0.7'], 2, 2),
      ].map((output) => ({ output, ctx: { namespace: ns } })),
      {
        output: podObj({
          name: controller,
          ns: 'ingress-nginx',
          labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
          owner: { kind: 'ReplicaSet', name: 'ingress-nginx-controller-6f8d9c7b54' },
          boxes: [
            { name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.10.1' },
          ],
        }),
        ctx: { namespace: 'ingress-nginx' },
      },
      { output: nginxLog, ctx: { pod: controller, namespace: 'ingress-nginx', verb: 'logs' } },
    ];

    it('ingress-nginx "Error getting SSL certificate ns/x-tls ... Using default certificate": attributed to the workload behind the Ingress with that tls secretName', () => {
      const found = findingsOf(appOutputs()).findings.filter(
        (f) => f.entry.id === 'ingress_tls_secret_missing',
      );
      expect(found.length).toBeGreaterThan(0);
      expect(found.map((f) => f.workload)).toContain('checkout-web');
      expect(found.map((f) => f.workload)).not.toContain('ingress-nginx-controller');
      expect(found.map((f) => f.workload)).not.toContain('catalog-web');
    });

    it('cert-manager refused by the ACME rate limit after the controller served the default certificate: the rate limit named', () => {
      const certManager = 'cert-manager-7c9b8d6f5-zr4pt';
      const outputs: Outputs = [
        ...appOutputs(),
        {
          output: podObj({
            name: certManager,
            ns: 'cert-manager',
            labels: { 'app.kubernetes.io/name': 'cert-manager' },
            owner: { kind: 'ReplicaSet', name: 'cert-manager-7c9b8d6f5' },
            boxes: [
              {
                name: 'cert-manager-controller',
                image: 'quay.io/jetstack/cert-manager-controller:v1.14.5',
              },
            ],
          }),
          ctx: { namespace: 'cert-manager' },
        },
        {
          output: [
            `${klog('I', 12, 'conditions.go:263')}Setting lastTransitionTime for Certificate "checkout-web-tls" condition "Issuing" to ${ago(12)}`,
            `${klog('E', 11, 'controller.go:167')}"re-queuing item due to error processing" err="failed to create Order resource due to bad request, marking Order as failed: 429 urn:ietf:params:acme:error:rateLimited: Error creating new order :: too many certificates (5) already issued for this exact set of domains in the last 168 hours: pay.shop.example.com, retry after 2026-03-12T07:41:19Z: see https://letsencrypt.org/docs/rate-limits/#new-certificates-per-exact-set-of-hostnames" logger="cert-manager.controller" key="${ns}/checkout-web-tls-1-3417429901"`,
          ].join('\n'),
          ctx: { pod: certManager, namespace: 'cert-manager', verb: 'logs' },
        },
      ];
      const text = concludeOn(
        outputs,
        'browsers say the certificate of pay.shop.example.com is not trusted (Fake Certificate) in storefront',
        ns,
      );
      expect(text).toContain('refuses new orders with its rate limit');
      expect(text).toContain('urn:ietf:params:acme:error:rateLimited');
    });
  });
});
