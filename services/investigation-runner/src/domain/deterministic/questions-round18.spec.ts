/**
 * Two kinds of question of round 18, each asked in words other than the bench's and answered from
 * outputs shaped like real ones (`kubectl get` tables and `kubectl describe` text as libs/kube
 * prints them, Kubernetes API objects as JSON): which node runs the most pods (the pods that
 * occupy each node: bound to it and not finished), which PersistentVolumeClaims are larger (or
 * smaller) than a size and which pods mount each.
 */
import { describe as kubeDescribe, getTable } from '@inquest/kube';
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  apiTools,
  investigateAt,
  podObj,
  textTools,
  type ApiWorld,
  type TextWorld,
} from './spec-world';

type Obj = Record<string, unknown>;
const now = new Date(NOW);
const nameOf = (o: Obj) => String((o['metadata'] as Obj)['name']);

describe('questions of round 18: phrasings', () => {
  it.each([
    'which node has the most pods?',
    'what node is hosting the most running pods at the moment?',
    'busiest node by pod count?',
    'how many pods per node?',
    'show me the pod count per node',
    'how many pods are running on each node?',
    'list pods by node, which one is the most crowded?',
    'which worker node carries the fewest pods?',
    'node with the highest number of pods?',
  ])('"%s" asks for pods per node', (message) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe('pods_per_node');
  });

  it('reads a namespace the message names, not the one of the context', () => {
    expect(
      scopeIncident('which node runs the most pods of the shop namespace?', {}, NOW).question,
    ).toEqual(expect.objectContaining({ type: 'pods_per_node', near: ['shop', 'shop'] }));
    expect(
      scopeIncident('which node has the most pods?', { namespace: 'shop' }, NOW).question,
    ).toEqual(expect.objectContaining({ type: 'pods_per_node', namespace: undefined }));
  });

  it.each([
    'which node is kafka-2 running on?',
    'which node uses the most memory?',
    'which pods are running on ip-10-0-41-7?',
    'how many nodes per zone and instance type?',
    'why does node ip-10-0-3-7 have so many pods evicted?',
    'the node with the most pods keeps failing, pods are pending',
    'most pods on worker-3 are crashing, which node should I drain?',
  ])('"%s" asks no pods-per-node question', (message) => {
    expect(scopeIncident(message, {}, NOW).question?.type).not.toBe('pods_per_node');
  });

  it.each([
    ['which PVCs are larger than 500Gi?', 500 * 1024 ** 3, '500Gi', false, undefined],
    ['any volumes over 2TiB in analytics?', 2 * 1024 ** 4, '2Ti', false, undefined],
    ['list claims bigger than 750GB and who mounts them', 750e9, '750G', false, undefined],
    ['which persistent volume claims are at least 1Ti?', 1024 ** 4, '1Ti', true, undefined],
    ['PVCs of 200Gi or more, and their pods?', 200 * 1024 ** 3, '200Gi', true, undefined],
    ['which pvcs exceed 50Gi', 50 * 1024 ** 3, '50Gi', false, undefined],
    ['show PVCs > 100Gi', 100 * 1024 ** 3, '100Gi', false, undefined],
    ['which PVCs are smaller than 10Gi?', 10 * 1024 ** 3, '10Gi', false, true],
    ['which claims have no more than 512Mi?', 512 * 1024 ** 2, '512Mi', true, true],
  ])('"%s" asks for claims by size', (message, bytes, size, inclusive, below) => {
    expect(scopeIncident(message, {}, NOW).question).toEqual(
      expect.objectContaining({
        type: 'claims_by_size',
        bytes,
        size,
        inclusive,
        ...(below ? { below } : {}),
      }),
    );
  });

  it.each([
    'we expanded the orders-db PVC to 100Gi, why does postgres still see 50Gi?',
    'which pods use the data-0 pvc?',
    'which PVCs are not mounted by any pod?',
    'which pods use more than 2Gi of memory?',
    'which PVCs are on gp2?',
    'the PVC of kafka-0 is over 90% full, what is writing to it?',
    'which PVCs were created more than 5m ago?',
  ])('"%s" asks no claims-by-size question', (message) => {
    expect(scopeIncident(message, {}, NOW).question?.type).not.toBe('claims_by_size');
  });
});

// ---------------------------------------------------------------- pods per node

function node(name: string, pods = '110'): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      creationTimestamp: ago(60 * 24 * 30),
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' },
    },
    spec: {},
    status: {
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(60 * 24 * 30) }],
      allocatable: { cpu: '7910m', memory: '28Gi', pods },
      capacity: { cpu: '8', memory: '32Gi', pods },
      nodeInfo: { kubeletVersion: 'v1.30.4' },
    },
  };
}

const onNode = (
  name: string,
  ns: string,
  nodeName: string | undefined,
  phase: 'Running' | 'Pending' | 'Succeeded' | 'Failed' = 'Running',
  extra: { reason?: string } = {},
) =>
  podObj({
    name,
    ns,
    labels: { app: name.replace(/-[a-z0-9]{5}$/, '') },
    owner: {
      kind: phase === 'Succeeded' ? 'Job' : 'ReplicaSet',
      name: name.replace(/-[a-z0-9]{5}$/, ''),
    },
    boxes: [
      {
        name: 'main',
        image: 'registry.example.com/app:1.4.2',
        ...(phase === 'Succeeded'
          ? { state: { terminated: { exitCode: 0, reason: 'Completed' } }, ready: false }
          : phase === 'Failed'
            ? { state: { terminated: { exitCode: 137, reason: 'Error' } }, ready: false }
            : phase === 'Pending' && nodeName
              ? { state: { waiting: { reason: 'ContainerCreating' } }, ready: false }
              : {}),
      },
    ],
    phase,
    ...(nodeName ? { node: nodeName, scheduled: true } : { scheduled: false }),
    ...extra,
  });

const A = 'aks-general-31415926-vmss000000';
const B = 'aks-general-31415926-vmss000001';
const C = 'aks-general-31415926-vmss000002';
const D = 'aks-general-31415926-vmss000003';

/**
 * B runs 5 pods; A runs 4 and held 3 Job pods that finished (7 if they counted); C runs 1 and
 * holds an evicted pod; D runs nothing; one pod waits unscheduled.
 */
const fleet = [
  onNode('web-7c9d4-aaaa1', 'shop', B),
  onNode('web-7c9d4-aaaa2', 'shop', B),
  onNode('cart-5f6b7-bbbb1', 'shop', B),
  onNode('kube-proxy-ccc01', 'kube-system', B),
  onNode('coredns-6d8c-dd001', 'kube-system', B),
  onNode('web-7c9d4-aaaa3', 'shop', A),
  onNode('cart-5f6b7-bbbb2', 'shop', A),
  onNode('kube-proxy-ccc02', 'kube-system', A),
  onNode('metrics-5b7c-ee001', 'monitoring', A),
  onNode('report-2961-ff001', 'batch', A, 'Succeeded'),
  onNode('report-2962-ff002', 'batch', A, 'Succeeded'),
  onNode('report-2963-ff003', 'batch', A, 'Succeeded'),
  onNode('kube-proxy-ccc03', 'kube-system', C),
  onNode('search-9a8b-gg001', 'shop', C, 'Failed', {
    reason: 'Evicted',
  }),
  onNode('warehouse-4c3d-hh001', 'shop', undefined, 'Pending'),
];
const nodes = [node(A), node(B), node(C), node(D)];

describe('questions of round 18: which node runs the most pods', () => {
  it('"which node has the most pods?": `kubectl get pods -A -o wide` (NODE column); finished and unscheduled pods said apart, not counted', async () => {
    const world: TextWorld = {
      tables: {
        pod: getTable('Pod', fleet, { now, allNamespaces: true, wide: true }),
        node: getTable('Node', nodes, { now }),
      },
      describe: {},
    };
    const { text } = await investigateAt(textTools(world), 'which node has the most pods?', NOW);
    expect(text).toContain(
      `${B} runs the most pods across all namespaces: 5. Next: ${A} 4, ${C} 1, ${D} 0.`,
    );
    expect(text).toMatch(/Not counted: 4 finished pods \(Succeeded\/Failed/);
    expect(text).toContain('report-2961-ff001 [Completed]');
    expect(text).toMatch(/search-9a8b-gg001 \[(?:Error|Evicted|Failed)\] on /);
    expect(text).toContain('1 Pending pod not scheduled to any node: warehouse-4c3d-hh001.');
  });

  it('"how many pods per node?": API objects (spec.nodeName); a pod Pending on its node while it starts counts, a tie is said as one', async () => {
    const world: ApiWorld = {
      objects: [
        node(A, '58'),
        node(B, '58'),
        onNode('web-7c9d4-aaaa1', 'shop', A),
        onNode('web-7c9d4-aaaa2', 'shop', A),
        onNode('cart-5f6b7-bbbb1', 'shop', B),
        onNode('cart-5f6b7-bbbb2', 'shop', B, 'Pending'),
        onNode('report-2961-ff001', 'batch', B, 'Succeeded'),
      ],
    };
    const { text } = await investigateAt(apiTools(world), 'how many pods per node?', NOW);
    expect(text).toContain(
      `${A} and ${B} run the most pods across all namespaces: 2 each. Each node allows 58 pods.`,
    );
    expect(text).toContain('Not counted: 1 finished pod');
  });

  it('"busiest node by pod count?": a listing without the NODE column, the nodes\' descriptions (Non-terminated Pods) count', async () => {
    const running = fleet.filter((p) => {
      const phase = String((p['status'] as Obj)['phase']);
      return phase === 'Running';
    });
    const nodeOf = (p: Obj) => String((p['spec'] as Obj)['nodeName'] ?? '');
    const world: TextWorld = {
      tables: {
        pod: getTable('Pod', fleet, { now, allNamespaces: true }),
        node: getTable('Node', nodes, { now }),
      },
      describe: Object.fromEntries(
        nodes.map((n) => [
          `node/${nameOf(n)}`,
          kubeDescribe(n, {
            events: [],
            now,
            related: running.filter((p) => nodeOf(p) === nameOf(n)),
          }),
        ]),
      ),
    };
    const { text } = await investigateAt(textTools(world), 'busiest node by pod count?', NOW);
    expect(text).toContain(`${B} runs the most pods across all namespaces: 5.`);
    expect(text).toContain(`Next: ${A} 4, ${C} 1, ${D} 0.`);
  });

  it('"which node runs the most pods of the shop namespace?": only that namespace\'s pods', async () => {
    const world: ApiWorld = { objects: [...nodes, ...fleet] };
    const { text } = await investigateAt(
      apiTools(world),
      'which node runs the most pods of the shop namespace?',
      NOW,
    );
    expect(text).toContain(`${B} runs the most pods in namespace shop: 3.`);
    expect(text).toContain(`Next: ${A} 2, ${C} 0, ${D} 0.`);
  });
});

// ---------------------------------------------------------------- claims by size

/** a claim: `size` provisioned (Bound), else only requested (Pending); `asked` differs on a resize */
function claim(
  name: string,
  ns: string,
  size: string,
  o: { pending?: boolean; asked?: string } = {},
) {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 20) },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'managed-csi-premium',
      ...(o.pending ? {} : { volumeName: `pvc-${name}` }),
      resources: { requests: { storage: o.asked ?? size } },
    },
    status: o.pending
      ? { phase: 'Pending' }
      : { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: size } },
  };
}

const mounting = (
  name: string,
  ns: string,
  owner: { kind: string; name: string },
  claims: string[],
  phase: 'Running' | 'Succeeded' = 'Running',
) =>
  podObj({
    name,
    ns,
    labels: { app: owner.name },
    owner,
    boxes: [
      {
        name: 'main',
        image: 'registry.example.com/store:2.1.0',
        ...(phase === 'Succeeded'
          ? { state: { terminated: { exitCode: 0, reason: 'Completed' } }, ready: false }
          : {}),
      },
    ],
    phase,
    claims,
    node: A,
  });

describe('questions of round 18: which PVCs are larger than a size, and their pods', () => {
  const ns = 'warehouse';
  const pods = [
    mounting('timescale-0', ns, { kind: 'StatefulSet', name: 'timescale' }, ['data-timescale-0']),
    mounting('timescale-1', ns, { kind: 'StatefulSet', name: 'timescale' }, ['data-timescale-1']),
    mounting('loader-6c7d8e9f5b-k2m4p', ns, { kind: 'ReplicaSet', name: 'loader-6c7d8e9f5b' }, [
      'staging-area',
    ]),
    mounting(
      'compact-28100-x7q2w',
      ns,
      { kind: 'Job', name: 'compact-28100' },
      ['compaction-tmp'],
      'Succeeded',
    ),
    mounting('grafana-5d4c3b2a19-p9z8y', ns, { kind: 'ReplicaSet', name: 'grafana-5d4c3b2a19' }, [
      'grafana-data',
    ]),
  ];
  const claims = [
    claim('data-timescale-0', ns, '2Ti'),
    claim('data-timescale-1', ns, '2Ti'),
    claim('staging-area', ns, '500Gi'),
    // exactly the size asked: not larger
    claim('backups-weekly', ns, '400Gi'),
    // 450G is 419Gi: larger than 400Gi
    claim('compaction-tmp', ns, '450G'),
    // 420G is 391Gi: not larger than 400Gi
    claim('cold-archive', ns, '420G'),
    claim('grafana-data', ns, '10Gi'),
  ];
  const elsewhere = claim('scratch-big', 'sandbox', '5Ti');

  it('"which PVCs are larger than 400Gi, and which pods mount them?": `kubectl get pvc` (CAPACITY) and each pod described; decimal and binary units compared, a claim no pod mounts and one only a finished pod named said', async () => {
    const world: TextWorld = {
      tables: {
        pod: getTable('Pod', pods, { now, namespace: ns }),
        persistentvolumeclaim: getTable('PersistentVolumeClaim', claims, { now, namespace: ns }),
      },
      describe: Object.fromEntries(
        pods.map((p) => [`pod/${nameOf(p)}`, kubeDescribe(p, { events: [], now })]),
      ),
    };
    const { text } = await investigateAt(
      textTools(world),
      'which PVCs in warehouse are larger than 400Gi, and which pods mount them?',
      NOW,
      ns,
    );
    expect(text).toContain(
      '4 of the 7 PersistentVolumeClaims in namespace warehouse are larger than 400Gi (by provisioned capacity, else request): data-timescale-0 (2Ti): used by timescale-0 of statefulset timescale; data-timescale-1 (2Ti): used by timescale-1 of statefulset timescale; staging-area (500Gi): used by loader-6c7d8e9f5b-k2m4p of deployment loader; compaction-tmp (450G): no pod mounts it; finished: compact-28100-x7q2w [Succeeded].',
    );
    expect(text).toContain(
      'Not larger: backups-weekly 400Gi, cold-archive 420G, grafana-data 10Gi.',
    );
  });

  it('"PVCs of at least 400Gi?": API objects; the size itself counts, a claim of another namespace is left out, a Pending claim is judged by its request and a resize not done yet by its capacity', async () => {
    const world: ApiWorld = {
      objects: [
        ...pods,
        ...claims,
        elsewhere,
        claim('replica-seed', ns, '800Gi', { pending: true }),
        // asked for 600Gi, still 300Gi until the file system grows
        claim('wal-archive', ns, '300Gi', { asked: '600Gi' }),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'PVCs of at least 400Gi in warehouse, and their pods?',
      NOW,
      ns,
    );
    expect(text).toContain(
      '6 of the 9 PersistentVolumeClaims in namespace warehouse are at least 400Gi',
    );
    expect(text).toContain('replica-seed (800Gi requested, Pending): no pod mounts it');
    expect(text).toContain('backups-weekly (400Gi): no pod mounts it');
    expect(text).toContain('wal-archive 300Gi');
    expect(text).not.toContain('scratch-big');
  });

  it('"any claims over 4Ti?": none is, each claim said with its size', async () => {
    const world: ApiWorld = { objects: [...pods, ...claims] };
    const { text } = await investigateAt(apiTools(world), 'any claims over 4Ti?', NOW, ns);
    expect(text).toContain(
      'No PersistentVolumeClaim in namespace warehouse is larger than 4Ti (7 claims read). Not larger: data-timescale-0 2Ti, data-timescale-1 2Ti,',
    );
  });

  it('"which PVCs across the cluster are bigger than 1Ti?": no namespace, each claim named with its own and mounted only by its own pods', async () => {
    const world: ApiWorld = {
      objects: [
        ...pods,
        ...claims,
        claim('data-timescale-0', 'staging', '1536Gi'),
        mounting('timescale-0', 'staging', { kind: 'StatefulSet', name: 'timescale' }, [
          'other-claim',
        ]),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'which PVCs across the cluster are bigger than 1Ti?',
      NOW,
    );
    expect(text).toContain(
      '3 of the 8 PersistentVolumeClaims are larger than 1Ti (by provisioned capacity, else request): warehouse/data-timescale-0 (2Ti): used by timescale-0 of statefulset timescale; warehouse/data-timescale-1 (2Ti): used by timescale-1 of statefulset timescale; staging/data-timescale-0 (1536Gi): no pod mounts it.',
    );
  });

  it('"which PVCs are smaller than 20Gi?": the other way round', async () => {
    const world: ApiWorld = { objects: [...pods, ...claims] };
    const { text } = await investigateAt(
      apiTools(world),
      'which PVCs are smaller than 20Gi?',
      NOW,
      ns,
    );
    expect(text).toContain(
      '1 of the 7 PersistentVolumeClaims in namespace warehouse is smaller than 20Gi (by provisioned capacity, else request): grafana-data (10Gi): used by grafana-5d4c3b2a19-p9z8y of deployment grafana.',
    );
  });
});
