/**
 * The engine rules of round29 (r29a) (cause-catalog.data.ts, its "round29 (r29a)" block; the
 * findings in diagnose-r29a.ts), one test per rule, each with a near miss: CoreDNS's NXDOMAIN
 * answers for the search-list walk of external names that resolve in the end (no DNS failure);
 * a Service with internalTrafficPolicy: Local whose clients on nodes without one of its pods time
 * out; an Istio DestinationRule subset a VirtualService routes to while no pod carries its labels.
 */
import { searchListExpansions } from './diagnose-r29a';
import { readyPodsByNodeQuestion } from './questions-r29a';
import {
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  NOW,
  podObj,
  serviceObj,
  stamped,
  type ApiWorld,
} from './spec-world';

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

const query = (client: string, name: string, rcode = 'NXDOMAIN') =>
  `[INFO] ${client}:40037 - 7919 "A IN ${name} udp 53 false 512" ${rcode} qr,aa,rd 167 0.000081s`;

/** what a pod with ndots:5 asks for an external name: the search list, then the absolute name */
const walk = (client: string, name: string, ns: string) => [
  query(client, `${name}.${ns}.svc.cluster.local.`),
  query(client, `${name}.svc.cluster.local.`),
  query(client, `${name}.cluster.local.`),
  query(client, `${name}.ec2.internal.`),
];

describe('round29 rules (r29a)', () => {
  it('CoreDNS logs only NXDOMAINs of the search-list walk of external names: no DNS failure; a name whose absolute lookup fails too, or a short name that exists nowhere, is one', async () => {
    const walked = [
      ...walk('10.30.2.150', 'api.stripe.com', 'payments'),
      ...walk('10.30.2.151', 'sqs.us-east-1.amazonaws.com', 'payments'),
    ];
    expect(searchListExpansions(walked).size).toBe(walked.length);
    // the absolute name fails as well: a real NXDOMAIN
    const broken = [
      ...walk('10.30.2.150', 'api.stripe.com', 'payments'),
      query('10.30.2.150', 'api.stripe.com.'),
    ];
    expect(searchListExpansions(broken).size).toBe(0);
    // a Service name that does not exist (one label): not a search-list expansion of an external name
    const missing = walk('10.30.2.150', 'orders-db', 'shop');
    expect(searchListExpansions(missing).size).toBe(0);

    const ns = 'kube-system';
    const world = (lines: string[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('coredns', ns, ['registry.k8s.io/coredns/coredns:v1.11.3'], 1, 1),
        podObj({
          name: 'coredns-5b9dfb9c8d-x7kqp',
          ns,
          labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '5b9dfb9c8d' },
          owner: { kind: 'ReplicaSet', name: 'coredns-5b9dfb9c8d' },
          boxes: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.3' }],
        }),
      ],
      logs: { 'coredns-5b9dfb9c8d-x7kqp': ['.:53', 'CoreDNS-1.11.3', ...lines].join('\n') },
    });
    const ask = 'CoreDNSNXDOMAINRatioHigh: 70% of CoreDNS responses are NXDOMAIN. is DNS broken?';
    const fine = await answer(world([...walked, ...walked, ...walked]), ask, ns);
    expect(fine).toMatch(/No problem found/);
    const bad = await answer(
      world([...broken, ...broken, ...broken, ...walked, ...walked]),
      ask,
      ns,
    );
    expect(bad).not.toMatch(/No problem found/);
  });

  it('a Service with internalTrafficPolicy: Local: clients on nodes without its pods time out, the policy is named; with policy Cluster, or a client beside a pod timing out too: no such cause', async () => {
    const ns = 'shop';
    const nodes = ['node-a', 'node-b', 'node-c', 'node-d'];
    const timeout =
      'level=error msg="reservation failed" err="Post \\"http://stock-api.shop.svc.cluster.local:8080/v1/reserve\\": dial tcp 10.96.88.41:8080: i/o timeout"';
    const ok = 'level=info msg="reserved" status=201';
    const world = (policy: string, failingNodes: string[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('web-api', ns, ['registry.example.com/web-api:1.4.0'], 4, 4),
        deploymentObj('stock-api', ns, ['registry.example.com/stock-api:2.0.1'], 2, 2),
        serviceObj('stock-api', ns, { app: 'stock-api' }, 8080, {
          clusterIP: '10.96.88.41',
          spec: { internalTrafficPolicy: policy },
        }),
        ...['node-a', 'node-b'].map((node, i) =>
          podObj({
            name: `stock-api-6d8c9f7b54-${'qt'[i]}8w2n`,
            ns,
            node,
            labels: { app: 'stock-api', 'pod-template-hash': '6d8c9f7b54' },
            owner: { kind: 'ReplicaSet', name: 'stock-api-6d8c9f7b54' },
            boxes: [{ name: 'stock-api', image: 'registry.example.com/stock-api:2.0.1' }],
          }),
        ),
        ...nodes.map((node, i) =>
          podObj({
            name: `web-api-7f4b6d9c85-${'abcd'[i]}hx9d`,
            ns,
            node,
            labels: { app: 'web-api', 'pod-template-hash': '7f4b6d9c85' },
            owner: { kind: 'ReplicaSet', name: 'web-api-7f4b6d9c85' },
            boxes: [{ name: 'web-api', image: 'registry.example.com/web-api:1.4.0' }],
          }),
        ),
      ],
      logs: Object.fromEntries(
        nodes.map((node, i) => [
          `web-api-7f4b6d9c85-${'abcd'[i]}hx9d`,
          stamped(
            [30, 20, 10, 5].map(
              (m) => [m, failingNodes.includes(node) ? timeout : ok] as [number, string],
            ),
          ),
        ]),
      ),
    });
    const ask = 'web-api is flaky since lunch, about half of its requests fail with timeouts';
    const bad = await answer(world('Local', ['node-c', 'node-d']), ask, ns);
    expect(bad).toMatch(/internalTrafficPolicy: Local/);
    expect(bad).toMatch(/node-c/);
    const cluster = await answer(world('Cluster', ['node-c', 'node-d']), ask, ns);
    expect(cluster).not.toMatch(/internalTrafficPolicy/);
    const everywhere = await answer(world('Local', ['node-a', 'node-c', 'node-d']), ask, ns);
    expect(everywhere).not.toMatch(/internalTrafficPolicy/);
  });

  it('a VirtualService routes to a DestinationRule subset whose labels no pod carries any more: the subset and its label are named; with the pods still labelled so: no such cause', async () => {
    const ns = 'catalog';
    const world = (version: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('quote-api', ns, ['registry.example.com/quote-api:2.1.0'], 2, 2),
        serviceObj('quote-api', ns, { app: 'quote-api' }, 8080, { clusterIP: '10.96.61.144' }),
        ...['x', 'y'].map((c) =>
          podObj({
            name: `quote-api-6b97dc5f48-${c}vq4m`,
            ns,
            labels: { app: 'quote-api', version, 'pod-template-hash': '6b97dc5f48' },
            owner: { kind: 'ReplicaSet', name: 'quote-api-6b97dc5f48' },
            boxes: [{ name: 'quote-api', image: 'registry.example.com/quote-api:2.1.0' }],
          }),
        ),
        {
          apiVersion: 'networking.istio.io/v1',
          kind: 'DestinationRule',
          metadata: { name: 'quote-api', namespace: ns },
          spec: {
            host: 'quote-api.catalog.svc.cluster.local',
            subsets: [
              { name: 'stable', labels: { version: 'v2' } },
              { name: 'canary', labels: { version: 'v2-canary' } },
            ],
          },
        },
        {
          apiVersion: 'networking.istio.io/v1',
          kind: 'VirtualService',
          metadata: { name: 'quote-api', namespace: ns },
          spec: {
            hosts: ['quote-api.catalog.svc.cluster.local'],
            http: [
              {
                route: [
                  {
                    destination: { host: 'quote-api.catalog.svc.cluster.local', subset: 'stable' },
                    weight: 100,
                  },
                  {
                    destination: { host: 'quote-api.catalog.svc.cluster.local', subset: 'canary' },
                    weight: 0,
                  },
                ],
              },
            ],
          },
        },
      ],
    });
    const ask =
      'quote-api returns 503 "no healthy upstream" to every caller, but its pods are Ready';
    const bad = await answer(world('2.1.0'), ask, ns);
    expect(bad).toMatch(/subset stable/);
    expect(bad).toMatch(/version: v2\b/);
    expect(bad).not.toMatch(/subset canary/);
    const fine = await answer(world('v2'), ask, ns);
    expect(fine).not.toMatch(/subset stable/);
  });

  it('an HTTPRoute whose backend in another namespace is not permitted (ResolvedRefs False, RefNotPermitted): the ReferenceGrant and what it allows are named; with the references resolved: no such cause', async () => {
    const route = (resolved: boolean) => ({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'shop-site', namespace: 'front' },
      spec: {
        hostnames: ['shop.example.com'],
        rules: [
          {
            backendRefs: [
              { kind: 'Service', name: 'catalog-api', namespace: 'catalog', port: 8080 },
            ],
          },
          { backendRefs: [{ kind: 'Service', name: 'reviews', namespace: 'catalog', port: 8080 }] },
        ],
      },
      status: {
        parents: [
          {
            parentRef: { name: 'public-gw', namespace: 'gateway' },
            conditions: [
              { type: 'Accepted', status: 'True', reason: 'Accepted' },
              resolved
                ? { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs' }
                : {
                    type: 'ResolvedRefs',
                    status: 'False',
                    reason: 'RefNotPermitted',
                    message:
                      'Failed to process route rule 1 backendRef 0: backend ref to Service catalog/reviews not permitted by any ReferenceGrant.',
                  },
            ],
          },
        ],
      },
    });
    const world = (resolved: boolean): ApiWorld => ({
      objects: [
        namespaceObj('catalog'),
        namespaceObj('front'),
        deploymentObj('reviews', 'catalog', ['registry.example.com/reviews:1.2.0'], 1, 1),
        serviceObj('reviews', 'catalog', { app: 'reviews' }, 8080),
        podObj({
          name: 'reviews-7b5d9f6c8c-r2kfx',
          ns: 'catalog',
          labels: { app: 'reviews', 'pod-template-hash': '7b5d9f6c8c' },
          owner: { kind: 'ReplicaSet', name: 'reviews-7b5d9f6c8c' },
          boxes: [{ name: 'reviews', image: 'registry.example.com/reviews:1.2.0' }],
        }),
        route(resolved),
        {
          apiVersion: 'gateway.networking.k8s.io/v1beta1',
          kind: 'ReferenceGrant',
          metadata: { name: 'allow-front', namespace: 'catalog' },
          spec: {
            from: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: 'front' }],
            to: [{ group: '', kind: 'Service', name: 'catalog-api' }],
          },
        },
      ],
    });
    const ask =
      'reviews on shop.example.com return 500 since the release; the reviews pods look fine';
    const bad = await answer(world(false), ask, 'catalog');
    expect(bad).toMatch(/ReferenceGrant allow-front/);
    expect(bad).toMatch(/only the Service catalog-api/);
    const fine = await answer(world(true), ask, 'catalog');
    expect(fine).not.toMatch(/RefNotPermitted/);
  });

  it('an app whose calls to an external host fail with EOF while its sidecar logs BlackHoleCluster: REGISTRY_ONLY and the unregistered host are named; with a ServiceEntry for the host and no black hole: no such cause', async () => {
    const ns = 'billing';
    const pod = 'invoicer-5c7d9b8f66-8fj2k';
    const app = (m: number) =>
      `{"time":"${new Date(NOW - m * 60_000).toISOString()}","level":"ERROR","msg":"submit failed","error":"Post \\"https://api.paybank.example/v2/transfers\\": EOF"}`;
    const proxyLine = (m: number, hole: boolean) =>
      hole
        ? `[${new Date(NOW - m * 60_000).toISOString()}] "- - -" 0 - - - "-" 0 0 0 - "-" "-" "-" "-" "-" BlackHoleCluster - 34.117.59.81:443 10.60.3.44:43026 - -`
        : `[${new Date(NOW - m * 60_000).toISOString()}] "- - -" 0 - - - "-" 1841 6120 214 - "-" "-" "-" "-" "34.117.59.81:443" outbound|443||api.paybank.example 10.60.3.44:41204 34.117.59.81:443 10.60.3.44:41204 - -`;
    const world = (hole: boolean, hosts: string[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('invoicer', ns, ['registry.example.com/invoicer:3.0.0'], 1, 1),
        podObj({
          name: pod,
          ns,
          labels: { app: 'invoicer', 'pod-template-hash': '5c7d9b8f66' },
          owner: { kind: 'ReplicaSet', name: 'invoicer-5c7d9b8f66' },
          boxes: [
            { name: 'invoicer', image: 'registry.example.com/invoicer:3.0.0' },
            { name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.23.2' },
          ],
        }),
        {
          apiVersion: 'networking.istio.io/v1',
          kind: 'ServiceEntry',
          metadata: { name: 'paybank', namespace: ns },
          spec: {
            hosts,
            location: 'MESH_EXTERNAL',
            resolution: 'DNS',
            ports: [{ number: 443, name: 'tls', protocol: 'TLS' }],
          },
        },
      ],
      logs: {
        [`${pod}/invoicer`]: [20, 15, 10, 5].map(app).join('\n'),
        [pod]: [20, 15, 10, 5].map(app).join('\n'),
        [`${pod}/istio-proxy`]: [20, 15, 10, 5].map((m) => proxyLine(m, hole)).join('\n'),
      },
    });
    const ask = 'invoicer fails every transfer to the bank since this morning';
    const bad = await answer(world(true, ['api.sandbox.paybank.example']), ask, ns);
    expect(bad).toMatch(/BlackHoleCluster/);
    expect(bad).toMatch(/REGISTRY_ONLY/);
    expect(bad).toMatch(/cannot call api\.paybank\.example/);
    const fine = await answer(world(false, ['api.paybank.example']), ask, ns);
    expect(fine).not.toMatch(/BlackHoleCluster/);
    // the host is registered: the black hole is about another connection, not this host
    const registered = await answer(world(true, ['*.paybank.example']), ask, ns);
    expect(registered).not.toMatch(/cannot call api\.paybank\.example: its Istio sidecar/);
  });

  it('"which nodes have a ready controller pod?" behind a LoadBalancer with externalTrafficPolicy Local: the nodes with and without one, and why the others fail the health check; with policy Cluster: not called by design', async () => {
    const ns = 'edge';
    const nodes = ['node-1', 'node-2', 'node-3', 'node-4'];
    const world = (policy: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...nodes.map((n) => ({
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: n, labels: { 'kubernetes.io/hostname': n } },
          status: { conditions: [{ type: 'Ready', status: 'True' }] },
        })),
        deploymentObj('edge-proxy', ns, ['registry.example.com/edge-proxy:1.0.0'], 3, 3),
        serviceObj('edge-proxy', ns, { app: 'edge-proxy' }, 8443, {
          spec: {
            type: 'LoadBalancer',
            externalTrafficPolicy: policy,
            ...(policy === 'Local' ? { healthCheckNodePort: 31842 } : {}),
          },
        }),
        ...[
          ['a', 'node-1'],
          ['b', 'node-1'],
          ['c', 'node-3'],
        ].map(([c, node]) =>
          podObj({
            name: `edge-proxy-5d4c8b7f96-${c}tq2m`,
            ns,
            node,
            labels: { app: 'edge-proxy', 'pod-template-hash': '5d4c8b7f96' },
            owner: { kind: 'ReplicaSet', name: 'edge-proxy-5d4c8b7f96' },
            boxes: [{ name: 'proxy', image: 'registry.example.com/edge-proxy:1.0.0' }],
          }),
        ),
      ],
    });
    const ask =
      'the load balancer in front of edge-proxy shows only 2 of 4 instances healthy. which nodes actually have a ready edge-proxy pod?';
    const local = await answer(world('Local'), ask, ns);
    expect(local).toMatch(/node-1 \(2 ready pods/);
    expect(local).toMatch(/node-3 \(1 ready pod/);
    expect(local).toMatch(/node-2 and node-4 have none/);
    expect(local).toMatch(/externalTrafficPolicy: Local \(healthCheckNodePort 31842\)/);
    // a count of pods per node is another question
    expect(
      readyPodsByNodeQuestion('which node is running the most pods right now?', [], []),
    ).toBeUndefined();
    expect(
      readyPodsByNodeQuestion('which nodes have a ready edge-proxy pod?', [], []),
    ).toBeDefined();
    const cluster = await answer(world('Cluster'), ask, ns);
    expect(cluster).not.toMatch(/by design/);
  });
});
