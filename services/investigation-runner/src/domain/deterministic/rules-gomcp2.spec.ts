/**
 * A tool server whose listings say little (strowk/mcp-k8s-go's shape: pods listed by name only,
 * events per namespace, objects read whole): what a vague request with nothing in scope reads,
 * each with a near miss.
 */
import { NOW, answerOf, goTools, kubeEvent, investigateAt, podObj } from './spec-world';

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

/** a second namespace, so that the namespaces' listing is a list */
const other = pod('cache-1a2b3c-aaaaa', 'infra');

// a vague request, no namespace named, every pod listed by name only
const crashing = pod('gateway-5c6d7e-qqqqq', 'identity', {
  boxes: [
    {
      name: 'app',
      image: 'registry.example/gateway:2.0',
      restarts: 7,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
      lastState: {
        terminated: {
          reason: 'Error',
          exitCode: 2,
          finishedAt: new Date(NOW - 120_000).toISOString(),
        },
      },
    },
  ],
});
const backOff = kubeEvent(
  'identity',
  { kind: 'Pod', name: 'gateway-5c6d7e-qqqqq' },
  'Warning',
  'BackOff',
  'Back-off restarting failed container app',
  30,
  1,
  40,
);
const panicLog = 'fatal error: concurrent map writes\ngoroutine 41 [running]:\nmain.refresh()';
const vague = 'customers keep getting logged out randomly since this morning';

describe('a server whose listings show names only: a vague request with nothing in scope', () => {
  it('reads the events of the namespaces, then the pods their warnings name', async () => {
    const { result, gateway } = await investigateAt(
      goTools([crashing, pod('web-5b6c7d-fghij', 'shop'), other, backOff], {
        'gateway-5c6d7e-qqqqq': panicLog,
      }),
      vague,
      NOW,
    );
    const text = answerOf(result);
    expect(gateway.calls.some((c) => c.tool === 'k8s:list-k8s-events')).toBe(true);
    expect(text).toMatch(/gateway/);
    expect(text).not.toMatch(/^No problem found/);
  });

  it('near miss: no warning names a pod, none is read whole', async () => {
    const { gateway } = await investigateAt(
      goTools([crashing, pod('web-5b6c7d-fghij', 'shop'), other]),
      vague,
      NOW,
    );
    expect(gateway.calls.filter((c) => c.tool === 'k8s:get-k8s-resource')).toEqual([]);
  });

  it('near miss: every pod healthy, nothing is found', async () => {
    const { result } = await investigateAt(
      goTools([pod('web-5b6c7d-fghij', 'shop'), other]),
      vague,
      NOW,
    );
    expect(answerOf(result)).toMatch(/^No problem found/);
  });

  it('near miss: a question reads no pod a warning names', async () => {
    const { gateway } = await investigateAt(
      goTools([crashing, pod('web-5b6c7d-fghij', 'shop'), other, backOff]),
      'how many pods are there in the cluster?',
      NOW,
    );
    expect(gateway.calls.filter((c) => c.tool === 'k8s:get-k8s-resource')).toEqual([]);
  });
});

describe('a server whose events carry no time: a node-level failure echoed on a pod', () => {
  const down = 'ip-10-9-8-7.internal';
  const gone = {
    type: 'Ready',
    status: 'Unknown',
    reason: 'NodeStatusUnknown',
    message: 'Kubelet stopped posting node status.',
    lastTransitionTime: new Date(NOW - 4 * 3600_000).toISOString(),
  };
  const nodeObj = (name: string, ready: Record<string, unknown>): Obj => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { conditions: [ready] },
  });
  const member = (i: number, node: string, deleting: boolean): Obj => {
    const o = pod(`queue-${i}`, 'messaging', {
      node,
      labels: app('queue'),
      owner: { kind: 'StatefulSet', name: 'queue' },
      boxes: [{ name: 'queue', image: 'registry.example/queue:3.13' }],
    });
    if (deleting)
      (o['metadata'] as Obj)['deletionTimestamp'] = new Date(NOW - 3 * 3600_000).toISOString();
    return o;
  };
  const world = (nodeDown: boolean) => [
    nodeObj(down, nodeDown ? gone : { type: 'Ready', status: 'True' }),
    nodeObj('ip-10-9-1-1.internal', { type: 'Ready', status: 'True' }),
    member(0, 'ip-10-9-1-1.internal', false),
    member(1, down, nodeDown),
    other,
    kubeEvent(
      'messaging',
      { kind: 'Pod', name: 'queue-1' },
      'Warning',
      'NodeNotReady',
      'Node is not ready',
      240,
    ),
  ];
  const ask = "queue-1 has been gone for hours and never came back; why isn't it recreated?";

  it("names the node and its own condition, not the pod's echo of it", async () => {
    const { result } = await investigateAt(goTools(world(true)), ask, NOW, 'messaging');
    const text = answerOf(result);
    expect(text).toMatch(/Node ip-10-9-8-7\.internal is NotReady[^\n]*Kubelet stopped posting/);
    expect(text).toMatch(/queue-1[^\n]*stuck Terminating/);
  });

  it('near miss: the node is Ready, no stuck pod is claimed', async () => {
    const { result } = await investigateAt(goTools(world(false)), ask, NOW, 'messaging');
    expect(answerOf(result)).not.toMatch(/stuck Terminating|Kubelet stopped posting/);
  });
});

describe('a server that lists budgets and pods by name only: what holds a drain', () => {
  const node = 'ip-10-9-4-4.internal';
  const cordoned: Obj = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: node, labels: { 'kubernetes.io/hostname': node } },
    spec: {
      unschedulable: true,
      taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
    },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
  const budget = (allowed: number): Obj => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'books', namespace: 'ledger' },
    spec: { minAvailable: 2, selector: { matchLabels: { app: 'books' } } },
    status: { disruptionsAllowed: allowed, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2 },
  });
  const world = (allowed: number) => [
    cordoned,
    budget(allowed),
    pod('books-7d8e9f-aaaaa', 'ledger', { node, labels: app('books') }),
    pod('books-7d8e9f-bbbbb', 'ledger', { node: 'ip-10-9-5-5.internal', labels: app('books') }),
    other,
  ];
  const ask = `the drain of ${node} has been hanging for 25 min, everything else moved off. what is holding it?`;

  it('reads the budgets whole, then the pods of the one at 0 allowed disruptions', async () => {
    const { result } = await investigateAt(goTools(world(0)), ask, NOW);
    const text = answerOf(result);
    expect(text).toMatch(/PodDisruptionBudget/);
    expect(text).toMatch(/books-7d8e9f-aaaaa/);
    expect(text).toMatch(/allows 0 disruptions/);
  });

  it('near miss: the budget allows a disruption, no pod is read for it and none is blamed', async () => {
    const { result, gateway } = await investigateAt(goTools(world(1)), ask, NOW);
    expect(answerOf(result)).not.toMatch(/allows 0 disruptions/);
    expect(
      gateway.calls.filter((c) => c.tool === 'k8s:get-k8s-resource' && c.params['kind'] === 'pod'),
    ).toEqual([]);
  });
});

describe('a server that lists pods by name only: which pod of a failing dependency fails', () => {
  const sts: Obj = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'kv', namespace: 'cache' },
    spec: { replicas: 3, selector: { matchLabels: { app: 'kv' } } },
    status: { replicas: 3, readyReplicas: 2 },
  };
  const member = (i: number, failing: boolean): Obj =>
    pod(`kv-${i}`, 'cache', {
      labels: app('kv'),
      owner: { kind: 'StatefulSet', name: 'kv' },
      boxes: [
        failing
          ? {
              name: 'kv',
              image: 'registry.example/kv:7.2',
              restarts: 9,
              ready: false,
              state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
              lastState: {
                terminated: {
                  reason: 'Error',
                  exitCode: 1,
                  finishedAt: new Date(NOW - 60_000).toISOString(),
                },
              },
            }
          : { name: 'kv', image: 'registry.example/kv:7.2' },
      ],
    });
  const client = pod('cart-api-5d6e7f-ccccc', 'shop');
  const world = [sts, member(0, false), member(1, false), member(2, true), client, other];
  const failingLog = Array.from(
    { length: 5 },
    (_, i) =>
      `${new Date(NOW - (5 - i) * 60_000).toISOString()} ERROR cart lookup failed: dial tcp kv.cache.svc.cluster.local:6379: connect: connection refused`,
  ).join('\n');
  const ask = 'cart-api in shop keeps failing requests since this morning';
  const podGets = (calls: { tool: string; params: Record<string, unknown> }[]) =>
    calls
      .filter((c) => c.tool === 'k8s:get-k8s-resource' && c.params['kind'] === 'pod')
      .map((c) => String(c.params['name']));

  it('reads every pod of the dependency whole (its listing does not say which one fails)', async () => {
    const { result, gateway } = await investigateAt(
      goTools(world, { 'cart-api-5d6e7f-ccccc': failingLog }),
      ask,
      NOW,
    );
    expect(podGets(gateway.calls)).toEqual(expect.arrayContaining(['kv-0', 'kv-1', 'kv-2']));
    expect(answerOf(result)).toMatch(/kv/);
  });

  it('near miss: the client logs no failure, the pods of kv are not read', async () => {
    const { gateway } = await investigateAt(
      goTools(world, { 'cart-api-5d6e7f-ccccc': 'INFO served 120 requests' }),
      ask,
      NOW,
    );
    expect(podGets(gateway.calls).filter((n) => n.startsWith('kv-'))).toEqual([]);
  });
});
