/**
 * A tool server whose listings say little (strowk/mcp-k8s-go's shape): `list-k8s-resources`
 * answers one content item per object, each `{name, namespace}` only (a Service's a small struct:
 * type, clusterIP, ports; no selector, no status), and `get-k8s-resource` the whole object. What a
 * question needs that the listing does not show is read whole, each with a near miss:
 * Endpoints (their addresses), pods (phase, node: "which pods run on X", "which node runs the
 * most", "which pods cannot pull"), a LoadBalancer's address, a claim's storage class, and a
 * Service's selector against its pods' labels.
 */
import { NOW, answerOf, goTools, investigateAt, podObj, serviceObj } from './spec-world';

type Obj = Record<string, unknown>;

const app = (name: string) => ({ app: name });
const pod = (name: string, ns: string, o: Partial<Parameters<typeof podObj>[0]> = {}) =>
  podObj({
    name,
    ns,
    labels: app(name.replace(/-[a-z0-9]+-[a-z0-9]+$/, '')),
    owner: { kind: 'ReplicaSet', name: name.replace(/-[a-z0-9]+$/, '') },
    boxes: [{ name: 'app', image: `registry.example/${name.split('-')[0]}:1.0` }],
    ...o,
  });

const endpointsObj = (name: string, ns: string, ips: string[]): Obj => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { name, namespace: ns },
  subsets: ips.length ? [{ addresses: ips.map((ip) => ({ ip })), ports: [{ port: 8080 }] }] : [],
});

/** a second namespace, so that the namespaces' listing is a list */
const other = pod('cache-1a2b3c-aaaaa', 'infra');

const run = async (objects: Obj[], message: string) => {
  const { result, gateway } = await investigateAt(goTools([...objects, other]), message, NOW);
  const gets = gateway.calls
    .filter((c) => c.tool === 'k8s:get-k8s-resource')
    .map((c) => `${String(c.params['kind'])}/${String(c.params['name'])}`);
  return { text: answerOf(result), gets };
};

describe('a server whose listings show names only: what a question needs is read whole', () => {
  it('reads the Endpoints whole for "which services have no endpoints"', async () => {
    const objects = [
      serviceObj('cart', 'shop', app('cart'), 8080),
      serviceObj('legacy', 'shop', app('legacy'), 8080),
      endpointsObj('cart', 'shop', ['10.1.0.4']),
      endpointsObj('legacy', 'shop', []),
    ];
    const { text, gets } = await run(
      objects,
      'which services in the shop namespace have no endpoints behind them?',
    );
    expect(gets).toEqual(expect.arrayContaining(['endpoints/cart', 'endpoints/legacy']));
    expect(text).toMatch(/1 Service in namespace shop has no endpoints \(of 2 checked\): legacy\./);
    // the listing did not show the selector: nothing is said of it
    expect(text).not.toMatch(/no selector/);
  });

  it('near miss: every Endpoints has an address', async () => {
    const { text } = await run(
      [serviceObj('cart', 'shop', app('cart'), 8080), endpointsObj('cart', 'shop', ['10.1.0.4'])],
      'which services in the shop namespace have no endpoints behind them?',
    );
    expect(text).toMatch(/Every Service in namespace shop has endpoints \(1 checked\)/);
  });

  const nodePods = [
    pod('cart-api-7f9c8d-abcde', 'shop', { node: 'ip-10-0-1-5.internal' }),
    pod('web-5b6c7d-fghij', 'shop', { node: 'ip-10-0-1-5.internal' }),
    pod('search-8d9e0f-klmno', 'shop', { node: 'ip-10-0-2-9.internal' }),
  ];
  const nodeObj = (name: string): Obj => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  });

  it('reads the pods whole for "which pods run on node X" (the listing shows no node)', async () => {
    const { text, gets } = await run(
      [...nodePods, nodeObj('ip-10-0-1-5.internal'), nodeObj('ip-10-0-2-9.internal')],
      'which pods are running on ip-10-0-1-5.internal right now?',
    );
    expect(gets).toEqual(expect.arrayContaining(['pod/cart-api-7f9c8d-abcde']));
    expect(text).toMatch(/cart-api-7f9c8d-abcde/);
    expect(text).toMatch(/web-5b6c7d-fghij/);
    expect(text).not.toMatch(/search-8d9e0f-klmno/);
    expect(text).not.toMatch(/could not list any pods/);
  });

  it('reads the pods whole for "which node runs the most pods"', async () => {
    const { text } = await run(
      [...nodePods, nodeObj('ip-10-0-1-5.internal'), nodeObj('ip-10-0-2-9.internal')],
      'which node is running the most pods right now, and how many?',
    );
    expect(text).toMatch(/ip-10-0-1-5\.internal runs the most pods[^.]*: 2/);
  });

  it('near miss: a question on pods with no status or node reads no pod whole', async () => {
    const { gets } = await run(nodePods, 'how many pods are there in shop?');
    expect(gets.filter((g) => g.startsWith('pod/'))).toEqual([]);
  });

  it('reads the pods whole for "which pods cannot pull their image"', async () => {
    const pulling = pod('etl-1a2b3c-pqrst', 'data', {
      boxes: [
        {
          name: 'etl',
          image: 'registry.example/etl:3.1.0',
          state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image' } },
        },
      ],
    });
    const { text } = await run(
      [pulling, ...nodePods],
      'which pods are stuck in ImagePullBackOff or ErrImagePull right now, any namespace?',
    );
    expect(text).toMatch(
      /1 pod is in ImagePullBackOff or ErrImagePull[^:]*: data\/etl-1a2b3c-pqrst/,
    );
  });

  const lb = (name: string, address?: string): Obj => ({
    ...serviceObj(name, 'shop', app(name), 8080, { spec: { type: 'LoadBalancer' } }),
    status: { loadBalancer: address ? { ingress: [{ hostname: address }] } : {} },
  });

  it("takes a Service's type from its listing row and reads a LoadBalancer whole (its address)", async () => {
    const { text } = await run(
      [
        lb('public', 'lb-1.example.com'),
        lb('sftp'),
        serviceObj('cart', 'shop', app('cart'), 8080),
        ...nodePods,
      ],
      "which services in the shop namespace are exposed through a LoadBalancer, and what's the external address of each?",
    );
    expect(text).toMatch(/2 Services are of type LoadBalancer in namespace shop/);
    expect(text).toMatch(/public at lb-1\.example\.com/);
    expect(text).toMatch(/sftp has no external address yet/);
  });

  it('near miss: no LoadBalancer in the listing', async () => {
    const { text } = await run(
      [serviceObj('cart', 'shop', app('cart'), 8080), ...nodePods],
      "which services in the shop namespace are exposed through a LoadBalancer, and what's the external address of each?",
    );
    expect(text).toMatch(
      /No Service in namespace shop is of type LoadBalancer \(of 1 Services seen\)/,
    );
  });

  const pvc = (name: string, cls: string): Obj => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'data' },
    spec: { storageClassName: cls, resources: { requests: { storage: '20Gi' } } },
    status: { phase: 'Bound', capacity: { storage: '20Gi' } },
  });

  it('reads the claims whole for "which volumes are on storage class X"', async () => {
    const { text } = await run(
      [
        pvc('redis-data-redis-0', 'gp2'),
        pvc('pg-data-pg-0', 'gp3'),
        pod('pg-0a1b2c-uvwxy', 'data'),
      ],
      'before we migrate: which volumes in the data namespace are still on gp2?',
    );
    expect(text).toMatch(
      /1 PersistentVolumeClaim in namespace data uses the storage class gp2 \(of 2 seen\): redis-data-redis-0/,
    );
  });

  const storefront = (selector: Record<string, string>): Obj[] => [
    serviceObj('storefront', 'web', selector, 8080),
    pod('storefront-6d7e8f-zzzzz', 'web', {
      labels: { 'app.kubernetes.io/name': 'storefront' },
    }),
  ];

  it('reads a Service and one of its pods whole when the listing shows no selector', async () => {
    const { text } = await run(
      storefront({ app: 'storefront', tier: 'frontend' }),
      'site returns 503 for everyone since half an hour. pods are all green',
    );
    expect(text).toMatch(/Service selector matches no pod/);
    expect(text).toMatch(/storefront/);
  });

  it('near miss: the selector matches the pod labels', async () => {
    const { text } = await run(
      storefront({ 'app.kubernetes.io/name': 'storefront' }),
      'site returns 503 for everyone since half an hour. pods are all green',
    );
    expect(text).not.toMatch(/Service selector matches no pod/);
  });
});
