/**
 * A tool server whose listings say little (strowk/mcp-k8s-go's shape): `list-k8s-resources`
 * answers one content item per object, each `{name, namespace}` only (a Service's a small struct:
 * type, clusterIP, ports; no selector, no status), and `get-k8s-resource` the whole object. What a
 * question needs that the listing does not show is read whole, each with a near miss:
 * Endpoints (their addresses), pods (phase, node: "which pods run on X", "which node runs the
 * most", "which pods cannot pull"), a LoadBalancer's address, a claim's storage class, and a
 * Service's selector against its pods' labels.
 */
import {
  NOW,
  answerOf,
  investigateAt,
  metaOf,
  podObj,
  serviceObj,
  str,
  type FakeTool,
} from './spec-world';

type Obj = Record<string, unknown>;

/** the required kubeconfig context, described as the real server does */
const ctx = { type: 'string', description: 'Name of the Kubernetes context to use' };

/** one text content item per object, as the proxy hands a list of several to the engine */
const items = (texts: string[]): unknown =>
  texts.length === 1
    ? (JSON.parse(texts[0]!) as unknown)
    : { content: texts.map((text) => ({ type: 'text', text })) };

function goTools(objects: Obj[], logs: Record<string, string> = {}): FakeTool[] {
  const kindIs = (o: Obj, kind: unknown) =>
    String(o['kind']).toLowerCase() === String(kind).toLowerCase();
  const small = (o: Obj): string => {
    const m = metaOf(o);
    if (kindIs(o, 'service')) {
      const spec = (o['spec'] ?? {}) as Obj;
      return JSON.stringify({
        name: m['name'],
        namespace: m['namespace'],
        type: spec['type'] ?? 'ClusterIP',
        clusterIP: spec['clusterIP'] ?? '',
        externalIPs: null,
        ports: ((spec['ports'] ?? []) as Obj[]).map((p) => `${String(p['port'])}/TCP`),
      });
    }
    return JSON.stringify({
      name: m['name'],
      ...(m['namespace'] ? { namespace: m['namespace'] } : {}),
    });
  };
  return [
    {
      name: 'list-k8s-contexts',
      description: 'List Kubernetes contexts from configuration files such as kubeconfig',
      properties: {},
      handler: () => ({
        context: { cluster: 'bench', user: 'bench' },
        name: 'bench',
        current: true,
      }),
    },
    {
      name: 'list-k8s-nodes',
      description: 'List Kubernetes nodes using specific context',
      properties: { context: ctx },
      required: ['context'],
      handler: () =>
        items(
          objects
            .filter((o) => kindIs(o, 'node'))
            .map((o) => JSON.stringify({ name: metaOf(o)['name'], status: 'Ready', age: '30d' })),
        ),
    },
    {
      name: 'list-k8s-namespaces',
      description: 'List Kubernetes namespaces',
      properties: { context: ctx },
      required: ['context'],
      handler: () =>
        items(
          [...new Set(objects.map((o) => metaOf(o)['namespace']).filter(Boolean))].map((n) =>
            JSON.stringify({ name: n }),
          ),
        ),
    },
    {
      name: 'list-k8s-resources',
      description: 'List arbitrary Kubernetes resources',
      properties: { context: ctx, kind: str, namespace: str, group: str, version: str },
      required: ['context', 'kind'],
      handler: (p) =>
        items(
          objects
            .filter((o) => kindIs(o, p['kind']))
            .filter((o) => !p['namespace'] || metaOf(o)['namespace'] === p['namespace'])
            .map(small),
        ),
    },
    {
      name: 'get-k8s-resource',
      description: 'Get details of any Kubernetes resource',
      properties: { context: ctx, kind: str, name: str, namespace: str, group: str, version: str },
      required: ['context', 'kind', 'name'],
      handler: (p) =>
        objects.find(
          (o) =>
            kindIs(o, p['kind']) &&
            metaOf(o)['name'] === p['name'] &&
            (!p['namespace'] || metaOf(o)['namespace'] === p['namespace']),
        ) ?? { error: 'not found' },
    },
    {
      name: 'list-k8s-events',
      description: 'List Kubernetes events',
      properties: { context: ctx, namespace: str },
      required: ['context', 'namespace'],
      handler: () => items([]),
    },
    {
      name: 'get-k8s-pod-logs',
      description: 'Get logs for a Kubernetes pod',
      properties: { context: ctx, namespace: str, pod: str },
      required: ['context', 'namespace', 'pod'],
      handler: (p) => logs[String(p['pod'])] ?? '',
    },
  ];
}

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
