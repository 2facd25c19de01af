/**
 * Two kinds of question about pods, each asked in words other than the bench's and answered from
 * outputs shaped like real ones (`kubectl get` tables and `kubectl describe` text as libs/kube
 * prints them, Kubernetes API objects as JSON): which pods have been Pending for longer than a
 * time and what the scheduler says for each, which pods mount hostPath volumes and which host
 * paths.
 */
import { describe as kubeDescribe, getTable } from '@inquest/kube';
import { pendingLongerThan, scopeIncident } from './scope';
import {
  NOW,
  apiTools,
  investigateAt,
  kubeEvent,
  podObj,
  textTools,
  type ApiWorld,
  type TextWorld,
} from './spec-world';

type Obj = Record<string, unknown>;
const now = new Date(NOW);
const metaOf = (o: Obj) => o['metadata'] as Obj;
const nameOf = (o: Obj) => String(metaOf(o)['name']);
const eventsOf = (events: Obj[], o: Obj) =>
  events.filter((e) => (e['involvedObject'] as Obj)['name'] === nameOf(o));
const describedAll = (objs: Obj[], events: Obj[] = []) =>
  Object.fromEntries(
    objs.map((o) => [
      `${String(o['kind']).toLowerCase()}/${nameOf(o)}`,
      kubeDescribe(o, { events: eventsOf(events, o), now }),
    ]),
  );

describe('questions of round 17b: phrasings', () => {
  it.each([
    ['which pods in ml have been stuck Pending for more than 10 minutes, and why?', 'pending'],
    ['what has been stuck pending for over 10 minutes and why?', 'pending'],
    ["which pods can't be scheduled and why?", 'pending'],
    ['pods pending longer than 5m in ml?', 'pending'],
    ['list the pending pods', 'pending'],
    ['any unschedulable pods in batch?', 'pending'],
    ['who mounts host paths in monitoring?', 'host_path'],
    ['which workloads use hostPath volumes?', 'host_path'],
    ["what touches the node's filesystem directly?", 'host_path'],
    ['security review: which pods mount hostPath volumes, and which host paths?', 'host_path'],
    ['which pods mount directories from the host, not counting kube-system?', 'host_path'],
  ])('"%s" is a %s question', (message, type) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe(type);
  });

  it.each([
    'why is checkout-api pending?',
    'which nodes are unschedulable?',
    'the PVC data-0 is stuck pending, what is wrong?',
    'how many pods are pending?',
    "the node's filesystem is full, what is using it?",
    'hostPath volumes are forbidden by the restricted policy, why does fluent-bit fail?',
    'which pods use the uploads volume?',
  ])('"%s" asks no such question', (message) => {
    expect(['pending', 'host_path']).not.toContain(scopeIncident(message, {}, NOW).question?.type);
  });

  it('reads how long: "for more than 10 minutes", "longer than 5m", "over an hour", "15+ min"; none: every Pending pod', () => {
    expect(pendingLongerThan('pending for more than 10 minutes')).toBe(600_000);
    expect(pendingLongerThan('pods pending longer than 5m in ml?')).toBe(300_000);
    expect(pendingLongerThan('stuck pending for over an hour')).toBe(3_600_000);
    expect(pendingLongerThan('pending 15+ min')).toBe(900_000);
    expect(pendingLongerThan('pending for over half an hour')).toBe(1_800_000);
    expect(pendingLongerThan('which pods are pending over the weekend?')).toBeUndefined();
    const q = (m: string, ns?: string) =>
      scopeIncident(m, ns ? { namespace: ns } : {}, NOW).question as Obj;
    expect(q('pods pending longer than 5m in ml?')).toEqual(
      expect.objectContaining({ type: 'pending', over: 300_000, near: ['ml'] }),
    );
    expect(q('which pods cannot be scheduled?', 'ml')).toEqual(
      expect.objectContaining({ type: 'pending', namespace: 'ml' }),
    );
    expect(q('which pods cannot be scheduled?', 'ml')['over']).toBeUndefined();
    expect(q('which pods use hostPath, not counting kube-system?')).toEqual(
      expect.objectContaining({ type: 'host_path', excluded: ['kube-system'] }),
    );
  });
});

// ---------------------------------------------------------------- Pending pods

const ml = 'ml';
const unschedulable = (minutes: number, message: string) => [
  {
    type: 'PodScheduled',
    status: 'False',
    reason: 'Unschedulable',
    message,
    lastTransitionTime: new Date(NOW - minutes * 60_000).toISOString(),
  },
];
const PREEMPTION =
  ' preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
const SAYS: Record<string, string> = {
  'feature-store': "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
  'ranker-trainer': '0/3 nodes are available: 3 Insufficient memory.',
  embedder:
    '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient nvidia.com/gpu.',
  ledger: '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.',
  scorer: '0/3 nodes are available: 3 Insufficient cpu.',
};
const pendingPod = (app: string, hash: string, minutes: number, extra: Obj = {}): Obj => {
  const p = podObj({
    name: `${app}-${hash}-x7k2p`,
    ns: ml,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    phase: 'Pending',
    created: minutes,
    boxes: [
      {
        name: app,
        image: `registry.example.org/ml/${app}:1.0.0`,
        resources: { requests: { cpu: '500m', memory: app === 'ranker-trainer' ? '24Gi' : '1Gi' } },
      },
    ],
    conditions: unschedulable(minutes, `${SAYS[app]}${PREEMPTION}`),
    ...(app === 'ledger' ? { claims: ['data-ledger-0'] } : {}),
  });
  return { ...p, spec: { ...(p['spec'] as Obj), ...extra } };
};
const pendingPods: Obj[] = [
  pendingPod('feature-store', 'ddzz6fwd2j', 130, {
    nodeSelector: { 'node.acme.io/storage': 'nvme' },
  }),
  pendingPod('ranker-trainer', '494s5fswtx', 47),
  pendingPod('embedder', '622ms8652w', 19),
  pendingPod('ledger', '7c9d5f6b8d', 31),
  pendingPod('scorer', 'sd24jlt86r', 4),
  podObj({
    name: 'notebook-ana-c6wngd4xf6-jzgn4',
    ns: ml,
    labels: { app: 'notebook-ana' },
    owner: { kind: 'ReplicaSet', name: 'notebook-ana-c6wngd4xf6' },
    created: 30,
    boxes: [{ name: 'notebook', image: 'jupyter/base-notebook:2026-01' }],
  }),
];
const schedulingEvents = pendingPods
  .filter((p) => (p['status'] as Obj)['phase'] === 'Pending')
  .map((p) => {
    const app = String((metaOf(p)['labels'] as Obj)['app']);
    const age = Math.round((NOW - Date.parse(String(metaOf(p)['creationTimestamp']))) / 60_000);
    return kubeEvent(
      ml,
      { kind: 'Pod', name: nameOf(p) },
      'Warning',
      'FailedScheduling',
      `${SAYS[app]}${PREEMPTION}`,
      age,
      1,
      Math.max(1, Math.floor(age / 5)),
      'default-scheduler',
    );
  });

describe('"which pods have been Pending for more than N minutes, and why?"', () => {
  it('from API objects: the pods Pending longer than asked, each with its PodScheduled message in a few words; shorter ones left out, running ones not named', async () => {
    const world: ApiWorld = { objects: pendingPods };
    const { text } = await investigateAt(
      apiTools(world),
      'what in ml has been stuck pending for over 10 minutes and why?',
      NOW,
      ml,
    );
    expect(text).toMatch(
      /^4 pods in namespace ml have been Pending for more than 10 min \(of 6 pods read\): feature-store-ddzz6fwd2j-x7k2p \(deployment feature-store\) Pending for 2 h 10 min: the scheduler says "0\/3 nodes are available: 3 node\(s\) didn't match Pod's node affinity\/selector\." \(no node matches its node selector \/ affinity \(nodeSelector node\.acme\.io\/storage=nvme\) on 3 nodes\); /m,
    );
    expect(text).toContain(
      'ranker-trainer-494s5fswtx-x7k2p (deployment ranker-trainer) Pending for 47 min: the scheduler says "0/3 nodes are available: 3 Insufficient memory." (not enough free memory on 3 nodes (it requests 24Gi))',
    );
    expect(text).toContain(
      '(a taint it does not tolerate (dedicated: gpu) on 1 node; not enough free nvidia.com/gpu on 2 nodes',
    );
    expect(text).toContain('(its PersistentVolumeClaim is not bound (data-ledger-0))');
    expect(text).toContain(
      'Pending for 10 min or less, left out: scorer-sd24jlt86r-x7k2p (4 min).',
    );
    expect(text).not.toMatch(/notebook-ana[^.]*Pending/);
  });

  it('from `kubectl get pods` ages and each Pending pod described (its FailedScheduling events): every Pending pod when no time is said', async () => {
    const world: TextWorld = {
      tables: { pod: getTable('Pod', pendingPods, { now, namespace: ml }) },
      describe: describedAll(pendingPods, schedulingEvents),
    };
    const { text } = await investigateAt(
      textTools(world),
      "which pods can't be scheduled in ml, and why?",
      NOW,
      ml,
    );
    expect(text).toMatch(
      /^5 pods in namespace ml have been Pending \(of 6 pods read\): feature-store-ddzz6fwd2j-x7k2p \(deployment feature-store\) Pending for 2 h 10 min: the scheduler says/m,
    );
    expect(text).toContain(
      'scorer-sd24jlt86r-x7k2p (deployment scorer) Pending for 4 min: the scheduler says "0/3 nodes are available: 3 Insufficient cpu." (not enough free cpu on 3 nodes (it requests 500m))',
    );
    expect(text).toContain('embedder-622ms8652w-x7k2p (deployment embedder) Pending for 19 min');
    expect(text).not.toContain('left out');
  });

  it('"pods pending longer than 5m in ml?": none when all are younger; those said apart', async () => {
    const young = [pendingPods[4]!, pendingPods[5]!];
    const world: ApiWorld = { objects: young };
    const { text } = await investigateAt(
      apiTools(world),
      'pods pending longer than 5m in ml?',
      NOW,
      ml,
    );
    expect(text).toMatch(
      /^No pod in namespace ml has been Pending for more than 5 min \(2 pods read\)\. Pending for 5 min or less, left out: scorer-sd24jlt86r-x7k2p \(4 min\)\./m,
    );
  });
});

// ---------------------------------------------------------------- hostPath volumes

const mon = 'monitoring';
const hostPod = (
  name: string,
  ns: string,
  owner: { kind: string; name: string },
  volumes: Obj[],
  mounts: Obj[],
): Obj => {
  const p = podObj({
    name,
    ns,
    labels: { 'app.kubernetes.io/name': owner.name },
    owner,
    boxes: [{ name: owner.name, image: `registry.example.org/${owner.name}:1.0.0` }],
  });
  const spec = p['spec'] as { containers: Obj[] };
  return {
    ...p,
    spec: {
      ...spec,
      containers: [{ ...spec.containers[0], volumeMounts: mounts }],
      volumes,
    },
  };
};
const exporterVolumes = [
  { name: 'proc', hostPath: { path: '/proc' } },
  { name: 'sys', hostPath: { path: '/sys' } },
  { name: 'root', hostPath: { path: '/' } },
];
const exporterMounts = [
  { name: 'proc', mountPath: '/host/proc', readOnly: true },
  { name: 'sys', mountPath: '/host/sys', readOnly: true },
  { name: 'root', mountPath: '/host/root', readOnly: true },
];
const exporter = ['node-exporter-jlnl5', 'node-exporter-kmmhb'].map((n) =>
  hostPod(n, mon, { kind: 'DaemonSet', name: 'node-exporter' }, exporterVolumes, exporterMounts),
);
const archiver = hostPod(
  'log-archiver-x5n97wr984-vjmp7',
  mon,
  { kind: 'ReplicaSet', name: 'log-archiver-x5n97wr984' },
  [
    { name: 'app-logs', hostPath: { path: '/var/lib/app-logs', type: 'Directory' } },
    { name: 'config', configMap: { name: 'log-archiver' } },
  ],
  [
    { name: 'app-logs', mountPath: '/data/app-logs' },
    { name: 'config', mountPath: '/etc/log-archiver' },
  ],
);
const grafana = hostPod(
  'grafana-k24cgptcrm-jktt6',
  mon,
  { kind: 'ReplicaSet', name: 'grafana-k24cgptcrm' },
  [{ name: 'storage', emptyDir: {} }],
  [{ name: 'storage', mountPath: '/var/lib/grafana' }],
);
const prometheus = hostPod(
  'prometheus-0',
  mon,
  { kind: 'StatefulSet', name: 'prometheus' },
  [{ name: 'db', persistentVolumeClaim: { claimName: 'prometheus-db-prometheus-0' } }],
  [{ name: 'db', mountPath: '/prometheus' }],
);
const kubeProxy = hostPod(
  'kube-proxy-62tmr',
  'kube-system',
  { kind: 'DaemonSet', name: 'kube-proxy' },
  [{ name: 'lib-modules', hostPath: { path: '/lib/modules' } }],
  [{ name: 'lib-modules', mountPath: '/lib/modules', readOnly: true }],
);
const monitoringPods = [...exporter, archiver, grafana, prometheus];

describe('"which pods mount hostPath volumes, and which host paths?"', () => {
  it('from API objects: per workload its pods and host paths (where mounted, read-only); emptyDir and PVC volumes are none', async () => {
    const world: ApiWorld = { objects: [...monitoringPods, kubeProxy] };
    const { text } = await investigateAt(
      apiTools(world),
      'who mounts host paths in monitoring?',
      NOW,
      mon,
    );
    expect(text).toMatch(
      /^3 pods in namespace monitoring mount hostPath volumes \(of 5 pods read\), 2 workloads: /m,
    );
    expect(text).toContain(
      'daemonset node-exporter (2 pods: node-exporter-jlnl5, node-exporter-kmmhb) mounts /proc (volume proc, mounted at /host/proc read-only), /sys (volume sys, mounted at /host/sys read-only), / (volume root, mounted at /host/root read-only)',
    );
    expect(text).toContain(
      'deployment log-archiver (1 pod: log-archiver-x5n97wr984-vjmp7) mounts /var/lib/app-logs (volume app-logs, type Directory, mounted at /data/app-logs)',
    );
    expect(text).toContain(
      'No hostPath volume in the other 2 pods read (deployment grafana, statefulset prometheus).',
    );
    expect(text).not.toContain('/lib/modules');
  });

  it('from `kubectl get pods` and each pod described (its Volumes section), every namespace but the one left out', async () => {
    const all = [...monitoringPods, kubeProxy];
    const world: TextWorld = {
      tables: { pod: getTable('Pod', all, { now, allNamespaces: true }) },
      describe: describedAll(all),
    };
    const { text } = await investigateAt(
      textTools(world),
      'which workloads use hostPath volumes, not counting kube-system?',
      NOW,
    );
    expect(text).toMatch(/^3 pods outside kube-system mount hostPath volumes \(of 5 pods read\)/m);
    expect(text).toContain('mounts /var/lib/app-logs (volume app-logs, type Directory');
    expect(text).toContain('/ (volume root, mounted at /host/root read-only)');
    expect(text).not.toContain('/lib/modules');
  });

  it('"what touches the node\'s filesystem directly?" where nothing does: said so, with what was read', async () => {
    const world: ApiWorld = { objects: [grafana, prometheus] };
    const { text } = await investigateAt(
      apiTools(world),
      "what touches the node's filesystem directly?",
      NOW,
      mon,
    );
    expect(text).toMatch(
      /^No pod in namespace monitoring mounts a hostPath volume \(2 pods read: deployment grafana, statefulset prometheus\)\./m,
    );
  });
});
