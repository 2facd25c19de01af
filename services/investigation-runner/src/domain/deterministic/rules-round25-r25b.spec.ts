/**
 * Round25 (r25b): "which nodes are the X pods on? are any two on the same node?" (placement): each
 * pod's node and which replicas share a node (draining it takes them out together); "before I
 * cordon nodes" names no node called "cordon". Near miss: replicas on distinct nodes share none.
 * "We rotated Secret X at HH:MM: which pods still need a restart?": the env readers started before.
 * A host routed to a proxy in front of the service named: the proxy's logs are read first.
 */
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  serviceObj,
} from './spec-world';

type Obj = Record<string, unknown>;

const ns = 'shop';
const pod = (suffix: string, node: string) =>
  podObj({
    name: `search-api-5d8f7c6b9-${suffix}`,
    ns,
    labels: { app: 'search-api' },
    owner: { kind: 'ReplicaSet', name: 'search-api-5d8f7c6b9' },
    boxes: [{ name: 'search-api', image: 'registry.example.com/search-api:2.0.1' }],
    node,
  });
const ASK =
  'before I cordon nodes for the kernel patch: which nodes are the search-api pods on? are any two on the same node?';

describe('round25 question (r25b): which nodes the pods of a workload run on', () => {
  it('is a placement question; "cordon nodes" names no node', () => {
    const scope = scopeIncident(ASK, { namespace: ns }, NOW);
    expect(scope.question?.type).toBe('placement');
    expect(scope.subjects.some((s) => s.name === 'cordon')).toBe(false);
  });

  it('says which replicas share a node; replicas on distinct nodes share none', async () => {
    const world = (nodes: string[]) =>
      apiTools({
        objects: [
          namespaceObj(ns),
          deploymentObj('search-api', ns, ['registry.example.com/search-api:2.0.1'], 3, 3),
          ...nodes.map((n, i) => pod(['a1b2c', 'd3e4f', 'g5h6j'][i]!, n)),
        ],
      });
    const shared = await investigateAt(world(['node-a', 'node-b', 'node-a']), ASK, NOW, ns);
    expect(shared.text).toContain(
      'search-api-5d8f7c6b9-a1b2c and search-api-5d8f7c6b9-g5h6j share node node-a',
    );
    const apart = await investigateAt(world(['node-a', 'node-b', 'node-c']), ASK, NOW, ns);
    expect(apart.text).toContain('no two of them share a node');
    expect(apart.text).not.toMatch(/share node/);
  });
});

describe('round25 question (r25b): which pods still hold the old value of a rotated Secret', () => {
  const ns = 'billing';
  // the change 40 minutes ago, said as a time of day
  const changed = new Date(NOW - 40 * 60_000).toISOString().slice(11, 16);
  const ask = `we rotated stripe-key in billing at about ${changed}. which pods still need a restart to pick up the new key?`;
  const app = (name: string, created: number, use: (spec: Obj) => void) => {
    const p = podObj({
      name: `${name}-6f9c8d7b5-q2w3e`,
      ns,
      labels: { app: name },
      owner: { kind: 'ReplicaSet', name: `${name}-6f9c8d7b5` },
      boxes: [{ name, image: `registry.example.com/${name}:1.0.0` }],
      created,
    });
    use(p['spec'] as Obj);
    return p;
  };
  const container = (spec: Obj) => (spec['containers'] as Obj[])[0]!;
  const envRef = (secret: string) => (spec: Obj) => {
    container(spec)['env'] = [
      { name: 'API_KEY', valueFrom: { secretKeyRef: { name: secret, key: 'api-key' } } },
    ];
  };
  const mounted = (spec: Obj) => {
    container(spec)['volumeMounts'] = [{ name: 'key', mountPath: '/etc/key' }];
    spec['volumes'] = [{ name: 'key', secret: { secretName: 'stripe-key' } }];
  };

  it('is asked as such; "which pods use the stripe-key secret?" stays the plain question', () => {
    const q = scopeIncident(ask, {}, NOW).question;
    expect(q).toMatchObject({ type: 'uses', kind: 'secret', name: 'stripe-key', stale: true });
    expect(q?.type === 'uses' && q.changedAt).toBe(Date.parse(ago(40).slice(0, 16) + ':00Z'));
    const plain = scopeIncident('which pods use the stripe-key secret?', {}, NOW).question;
    expect(plain?.type === 'uses' && plain.stale).toBeFalsy();
  });

  it('names the env readers started before the change; not those started after, mounting it, or reading another', async () => {
    const world = apiTools({
      objects: [
        namespaceObj(ns),
        deploymentObj('charges', ns, ['registry.example.com/charges:1.0.0'], 1, 1),
        app('charges', 60 * 24 * 2, envRef('stripe-key')),
        app('refunds', 10, envRef('stripe-key')),
        app('hooks', 60 * 24 * 5, mounted),
        app('ledger', 60 * 24 * 5, envRef('ledger-db')),
      ],
    });
    const { text } = await investigateAt(world, ask, NOW, ns);
    expect(text).toContain(
      '1 pod in namespace billing still holds the old value of Secret stripe-key and needs a restart: charges-6f9c8d7b5-q2w3e',
    );
    expect(text).toContain('refunds-6f9c8d7b5-q2w3e (started');
    expect(text).toMatch(/refunds[^.]*started after the change/);
    expect(text).toContain('hooks-6f9c8d7b5-q2w3e mounts it as a volume');
    expect(text).not.toMatch(/ledger-6f9c8d7b5/);
    // near miss: every reader restarted after the rotation
    const after = await investigateAt(
      apiTools({ objects: [namespaceObj(ns), app('refunds', 10, envRef('stripe-key'))] }),
      ask,
      NOW,
      ns,
    );
    expect(after.text).toContain('none still holds the old value');
  });
});

describe('round25 (r25b): the proxy in front of the service named is read before the budget goes', () => {
  const ns = 'store';
  const host = 'www.example-store.test';
  const pod = (app: string, suffix: string) =>
    podObj({
      name: `${app}-7c9d8f6b5-${suffix}`,
      ns,
      labels: { app },
      owner: { kind: 'ReplicaSet', name: `${app}-7c9d8f6b5` },
      boxes: [{ name: app, image: `registry.example.com/${app}:1.0.0` }],
    });
  const ingress = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'store', namespace: ns, creationTimestamp: ago(60 * 24 * 90) },
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
                backend: { service: { name: 'edge-proxy', port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  };
  const world = () =>
    apiTools({
      objects: [
        namespaceObj(ns),
        deploymentObj('edge-proxy', ns, ['registry.example.com/edge-proxy:1.0.0'], 1, 1),
        deploymentObj('inventory-api', ns, ['registry.example.com/inventory-api:1.0.0'], 2, 2),
        serviceObj('edge-proxy', ns, { app: 'edge-proxy' }, 8080, { port: 80 }),
        serviceObj('inventory-api', ns, { app: 'inventory-api' }, 8080, { clusterIP: 'None' }),
        ingress,
        pod('edge-proxy', 'a1b2c'),
        pod('inventory-api', 'd3e4f'),
        pod('inventory-api', 'g5h6j'),
      ],
      logs: {
        'edge-proxy-7c9d8f6b5-a1b2c':
          '2026/03/10 11:58:02 [error] 29#29: *881 connect() failed (113: Host is unreachable) while connecting to upstream, upstream: "http://10.52.9.87:8080/items"',
      },
    });
  const logOrder = (calls: { tool: string; params: Record<string, unknown> }[]) =>
    calls.filter((c) => /pods_log/.test(c.tool)).map((c) => String(c.params['name']));

  it('reads the logs of a pod behind the Service the named host routes to first', async () => {
    const { gateway } = await investigateAt(
      world(),
      `product pages on ${host} show "inventory unavailable" since about 11:58. inventory-api pods look healthy to me`,
      NOW,
    );
    expect(logOrder(gateway.calls)[0]).toBe('edge-proxy-7c9d8f6b5-a1b2c');
  });

  it('near miss: no host named, the named service is read first', async () => {
    const { gateway } = await investigateAt(
      world(),
      'inventory-api in store returns errors since about 11:58, what is wrong?',
      NOW,
    );
    expect(logOrder(gateway.calls)[0]).toMatch(/^inventory-api-/);
  });
});
