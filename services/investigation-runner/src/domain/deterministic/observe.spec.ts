import { ClusterModel } from './model';
import { observe, parseLogLine } from './observe';
import { NOW } from './spec-world';

const ctx = { tool: 'k8s:describe', verb: 'describe', now: NOW };

// The shape of `kubectl describe pod` after an OOM kill (Kubernetes docs, "Assign Memory
// Resources to Containers and Pods", memory-demo-2).
const OOM_POD = `Name:             memory-demo-2
Namespace:        mem-example
Priority:         0
Service Account:  default
Node:             worker-2/10.0.0.12
Start Time:       Tue, 10 Mar 2026 11:40:02 +0000
Labels:           app=memory-demo
Annotations:      <none>
Status:           Running
IP:               10.244.2.17
IPs:
  IP:  10.244.2.17
Containers:
  memory-demo-2-ctr:
    Container ID:  containerd://2a4c6a1f0b
    Image:         polinux/stress
    Image ID:      docker.io/polinux/stress@sha256:b6144f84
    Port:          <none>
    Host Port:     <none>
    Command:
      stress
    Args:
      --vm
      1
      --vm-bytes
      250M
      --vm-hang
      1
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Tue, 10 Mar 2026 11:55:10 +0000
      Finished:     Tue, 10 Mar 2026 11:55:11 +0000
    Ready:          False
    Restart Count:  4
    Limits:
      memory:  100Mi
    Requests:
      memory:     50Mi
    Environment:  <none>
    Mounts:
      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-xk2lp (ro)
Conditions:
  Type                        Status
  PodReadyToStartContainers   True
  Initialized                 True
  Ready                       False
  ContainersReady             False
  PodScheduled                True
Volumes:
  kube-api-access-xk2lp:
    Type:                    Projected (a volume that contains injected data from multiple sources)
    TokenExpirationSeconds:  3607
QoS Class:                   Burstable
Node-Selectors:              <none>
Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
Events:
  Type     Reason     Age                 From               Message
  ----     ------     ----                ----               -------
  Normal   Scheduled  20m                 default-scheduler  Successfully assigned mem-example/memory-demo-2 to worker-2
  Normal   Pulled     5m (x5 over 20m)    kubelet            Container image "polinux/stress" already present on machine
  Warning  BackOff    30s (x40 over 19m)  kubelet            Back-off restarting failed container memory-demo-2-ctr in pod memory-demo-2_mem-example(0f6b5a3c)
`;

// `kubectl describe node` of a node that stopped reporting (conditions table with Unknown).
const NOT_READY_NODE = `Name:               worker-3
Roles:              <none>
Labels:             kubernetes.io/arch=amd64
                    kubernetes.io/hostname=worker-3
                    kubernetes.io/os=linux
Annotations:        node.alpha.kubernetes.io/ttl: 0
CreationTimestamp:  Mon, 02 Feb 2026 08:21:47 +0000
Taints:             node.kubernetes.io/unreachable:NoExecute
                    node.kubernetes.io/unreachable:NoSchedule
Unschedulable:      false
Conditions:
  Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason              Message
  ----             ------    -----------------                 ------------------                ------              -------
  MemoryPressure   Unknown   Tue, 10 Mar 2026 11:31:02 +0000   Tue, 10 Mar 2026 11:32:10 +0000   NodeStatusUnknown   Kubelet stopped posting node status.
  DiskPressure     Unknown   Tue, 10 Mar 2026 11:31:02 +0000   Tue, 10 Mar 2026 11:32:10 +0000   NodeStatusUnknown   Kubelet stopped posting node status.
  PIDPressure      Unknown   Tue, 10 Mar 2026 11:31:02 +0000   Tue, 10 Mar 2026 11:32:10 +0000   NodeStatusUnknown   Kubelet stopped posting node status.
  Ready            Unknown   Tue, 10 Mar 2026 11:31:02 +0000   Tue, 10 Mar 2026 11:32:10 +0000   NodeStatusUnknown   Kubelet stopped posting node status.
Addresses:
  InternalIP:  10.0.0.13
  Hostname:    worker-3
Capacity:
  cpu:                4
  memory:             16378244Ki
  pods:               110
Allocatable:
  cpu:                3920m
  memory:             15228292Ki
  pods:               110
Events:
  Type    Reason        Age   From             Message
  ----    ------        ----  ----             -------
  Normal  NodeNotReady  28m   node-controller  Node worker-3 status is now: NodeNotReady
`;

// `kubectl describe pvc` of a claim whose StorageClass does not exist.
const PENDING_PVC = `Name:          data-postgres-0
Namespace:     db
StorageClass:  fast-ssd
Status:        Pending
Volume:
Labels:        app=postgres
Annotations:   <none>
Finalizers:    [kubernetes.io/pvc-protection]
Capacity:
Access Modes:
VolumeMode:    Filesystem
Used By:       postgres-0
Events:
  Type     Reason              Age                 From                         Message
  ----     ------              ----                ----                         -------
  Warning  ProvisioningFailed  2m (x26 over 8m)    persistentvolume-controller  storageclass.storage.k8s.io "fast-ssd" not found
`;

describe('observe: kubectl describe text', () => {
  it('reads a pod: container states (Last State Terminated OOMKilled), limits, conditions, events', () => {
    const o = observe(OOM_POD, ctx);
    const pod = o.objects.find((x) => x.kind === 'pod')!;
    expect(pod).toMatchObject({
      name: 'memory-demo-2',
      namespace: 'mem-example',
      node: 'worker-2',
    });
    expect(pod.labels).toEqual({ app: 'memory-demo' });
    expect(pod.restarts).toBe(4);
    expect(pod.status).toBe('CrashLoopBackOff');
    const c = pod.containers[0]!;
    expect(c.name).toBe('memory-demo-2-ctr');
    expect(c.waiting?.reason).toBe('CrashLoopBackOff');
    expect(c.last).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
    expect(c.last?.at).toBe(Date.parse('2026-03-10T11:55:11Z'));
    expect(c.limits).toEqual({ memory: '100Mi' });
    expect(c.requests).toEqual({ memory: '50Mi' });
    expect(pod.conditions.find((x) => x.type === 'Ready')?.status).toBe('False');
    const backoff = o.events.find((e) => e.reason === 'BackOff')!;
    expect(backoff).toMatchObject({
      type: 'Warning',
      count: 40,
      object: { kind: 'pod', name: 'memory-demo-2' },
    });
    expect(backoff.message).toMatch(/^Back-off restarting failed container memory-demo-2-ctr/);
    expect(backoff.last).toBe(NOW - 30_000);
    expect(backoff.first).toBe(NOW - 19 * 60_000);
  });

  it('reads a node: Ready from the conditions table, taints, its events', () => {
    const o = observe(NOT_READY_NODE, ctx);
    const node = o.objects[0]!;
    expect(node).toMatchObject({ kind: 'node', name: 'worker-3', status: 'NotReady' });
    expect(node.fields['taints']).toMatch(/node\.kubernetes\.io\/unreachable:NoExecute/);
    const ready = node.conditions.find((c) => c.type === 'Ready')!;
    expect(ready).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    expect(o.events[0]).toMatchObject({ reason: 'NodeNotReady', type: 'Normal' });
  });

  it('reads a PVC: status, StorageClass, the ProvisioningFailed event', () => {
    const o = observe(PENDING_PVC, ctx);
    expect(o.objects[0]).toMatchObject({
      kind: 'persistentvolumeclaim',
      name: 'data-postgres-0',
      namespace: 'db',
      status: 'Pending',
    });
    expect(o.objects[0]!.fields['storageClassName']).toBe('fast-ssd');
    expect(o.events[0]).toMatchObject({
      reason: 'ProvisioningFailed',
      count: 26,
      message: 'storageclass.storage.k8s.io "fast-ssd" not found',
    });
  });
});

describe('observe: a pod with init containers', () => {
  it('reads both sections and marks the init container', () => {
    const text = [
      'Name:             ledger-api-dktmpzw647-jlxgb',
      'Namespace:        payments',
      'Node:             worker-1/10.0.1.5',
      'Status:           Pending',
      'IP:               10.0.3.4',
      'Init Containers:',
      '  wait-for-db:',
      '    Image:         busybox:1.36',
      '    State:         Running',
      '      Started:     Tue, 10 Mar 2026 11:40:00 +0000',
      '    Ready:         False',
      '    Restart Count: 0',
      'Containers:',
      '  api:',
      '    Image:         ledger-api:2.8.0',
      '    State:         Waiting',
      '      Reason:      PodInitializing',
      '    Ready:         False',
      '    Restart Count: 0',
      'Conditions:',
      '  Type              Status',
      '  Initialized       False',
      'Events:            <none>',
    ].join('\n');
    const pod = observe(text, ctx).objects.find((x) => x.kind === 'pod')!;
    expect(pod.containers.map((c) => [c.name, c.init ?? false])).toEqual([
      ['wait-for-db', true],
      ['api', false],
    ]);
    expect(pod.containers[1]!.waiting?.reason).toBe('PodInitializing');
  });
});

describe('observe: the pod template of a ReplicaSet', () => {
  it('keeps its annotations (a checksum/config change is a configuration change)', () => {
    const text = [
      'Name:           checkout-web-qnqffqmrs7',
      'Namespace:      shop',
      'Selector:       app=checkout-web,pod-template-hash=qnqffqmrs7',
      'Controlled By:  Deployment/checkout-web',
      'Replicas:       3 current / 3 desired',
      'Pods Status:    3 Running / 0 Waiting / 0 Succeeded / 0 Failed',
      'Pod Template:',
      '  Labels:       app=checkout-web',
      '  Annotations:  checksum/config: b94d27b9',
      '                team: web',
      '  Containers:',
      '   web:',
      '    Image:      checkout-web:5.2.0',
      'Events:         <none>',
    ].join('\n');
    const rs = observe(text, ctx).objects.find((x) => x.kind === 'replicaset')!;
    expect(JSON.parse(rs.fields['templateAnnotations']!)).toEqual({
      'checksum/config': 'b94d27b9',
      team: 'web',
    });
  });
});

describe('observe: kubectl get tables', () => {
  it('reads a pods table (READY, STATUS, RESTARTS with "(5m ago)", NODE)', () => {
    const t = `NAME                        READY   STATUS             RESTARTS       AGE   IP            NODE       NOMINATED NODE   READINESS GATES
web-6d4cf56db6-2xk9p        0/1     CrashLoopBackOff   6 (2m1s ago)   9m    10.244.1.5    worker-1   <none>           <none>
web-6d4cf56db6-lm4wt        1/1     Running            0              22h   10.244.2.9    worker-2   <none>           <none>
batch-28514400-q7w2x        0/1     Completed          0              3h    <none>        worker-1   <none>           <none>`;
    const o = observe(t, { now: NOW, tool: 'k8s:get', verb: 'list', namespace: 'shop' });
    expect(o.objects.map((x) => [x.kind, x.name, x.status, x.restarts, x.node])).toEqual([
      ['pod', 'web-6d4cf56db6-2xk9p', 'CrashLoopBackOff', 6, 'worker-1'],
      ['pod', 'web-6d4cf56db6-lm4wt', 'Running', 0, 'worker-2'],
      ['pod', 'batch-28514400-q7w2x', 'Completed', 0, 'worker-1'],
    ]);
    expect(o.objects[0]!.fields['ready']).toBe('0/1');
    expect(o.objects[0]!.namespace).toBe('shop');
  });

  it('reads an events table whose messages have several words and single spaces', () => {
    const t = `LAST SEEN   TYPE      REASON             OBJECT                          MESSAGE
2m          Warning   FailedScheduling   pod/api-7c9d8b7f6-x2x4z         0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.
45s         Normal    Pulling            pod/web-6d4cf56db6-2xk9p        Pulling image "nginx:1.25"
10m         Warning   FailedCreate       replicaset/api-7c9d8b7f6        Error creating: pods "api-7c9d8b7f6-abcde" is forbidden: exceeded quota: compute-quota, requested: limits.cpu=2, used: limits.cpu=7, limited: limits.cpu=8`;
    const o = observe(t, { now: NOW, tool: 'k8s:events', verb: 'events', namespace: 'shop' });
    expect(o.events).toHaveLength(3);
    expect(o.events[0]).toMatchObject({
      type: 'Warning',
      reason: 'FailedScheduling',
      object: { kind: 'pod', name: 'api-7c9d8b7f6-x2x4z' },
      namespace: 'shop',
      last: NOW - 2 * 60_000,
    });
    expect(o.events[0]!.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    );
    expect(o.events[2]).toMatchObject({
      reason: 'FailedCreate',
      object: { kind: 'replicaset', name: 'api-7c9d8b7f6' },
    });
    expect(o.events[2]!.message).toMatch(/exceeded quota: compute-quota, requested/);
  });

  it('reads nodes and PVC tables', () => {
    const nodes = `NAME       STATUS                        ROLES           AGE   VERSION
cp-1       Ready                         control-plane   40d   v1.30.2
worker-1   Ready                         <none>          40d   v1.30.2
worker-3   NotReady,SchedulingDisabled   <none>          40d   v1.30.2`;
    const pvcs = `NAME              STATUS    VOLUME                                     CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE
data-postgres-0   Pending                                                                        fast-ssd       <unset>                 8m
data-redis-0      Bound     pvc-3f1c2a9e-1b7d-4c55-9b0e-4f3e8f7a2d11   1Gi        RWO            standard       <unset>                 12d`;
    const n = observe(nodes, { now: NOW, tool: 't', verb: 'list' }).objects;
    expect(n.map((x) => [x.kind, x.name, x.status])).toEqual([
      ['node', 'cp-1', 'Ready'],
      ['node', 'worker-1', 'Ready'],
      ['node', 'worker-3', 'NotReady,SchedulingDisabled'],
    ]);
    const p = observe(pvcs, { now: NOW, tool: 't', verb: 'list', namespace: 'db' }).objects;
    expect(p.map((x) => [x.kind, x.name, x.status, x.fields['storageClassName']])).toEqual([
      ['persistentvolumeclaim', 'data-postgres-0', 'Pending', 'fast-ssd'],
      ['persistentvolumeclaim', 'data-redis-0', 'Bound', 'standard'],
    ]);
  });
});

describe('observe: YAML and JSON', () => {
  it('reads an event list given as YAML after a sentence', () => {
    const t = `The following events (YAML format) were found:
- apiVersion: v1
  count: 12
  eventTime: null
  firstTimestamp: "2026-03-10T11:30:00Z"
  involvedObject:
    apiVersion: v1
    kind: Pod
    name: api-7c9d8b7f6-x2x4z
    namespace: shop
  kind: Event
  lastTimestamp: "2026-03-10T11:58:00Z"
  message: 'Failed to pull image "registry.example.com/shop/api:2.7.1": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/shop/api:2.7.1": failed to resolve reference "registry.example.com/shop/api:2.7.1": registry.example.com/shop/api:2.7.1: not found'
  metadata:
    name: api-7c9d8b7f6-x2x4z.17c3a2b1d0e9f8a7
    namespace: shop
  reason: Failed
  source:
    component: kubelet
    host: worker-1
  type: Warning
- apiVersion: v1
  count: 40
  firstTimestamp: "2026-03-10T11:30:05Z"
  involvedObject:
    kind: Pod
    name: api-7c9d8b7f6-x2x4z
    namespace: shop
  kind: Event
  lastTimestamp: "2026-03-10T11:59:30Z"
  message: Back-off pulling image "registry.example.com/shop/api:2.7.1"
  metadata:
    name: api-7c9d8b7f6-x2x4z.17c3a2b1d0e9f8b8
    namespace: shop
  reason: BackOff
  type: Normal
`;
    const o = observe(t, { now: NOW, tool: 'k8s:events', verb: 'events' });
    expect(o.events).toHaveLength(2);
    expect(o.events[0]).toMatchObject({
      type: 'Warning',
      reason: 'Failed',
      count: 12,
      namespace: 'shop',
      object: { kind: 'pod', name: 'api-7c9d8b7f6-x2x4z' },
      first: Date.parse('2026-03-10T11:30:00Z'),
      last: Date.parse('2026-03-10T11:58:00Z'),
    });
    expect(o.events[0]!.message).toMatch(/api:2\.7\.1: not found$/);
  });

  it('reads a Pod API object: lastState, resources, volumes, owner', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'api-7c9d8b7f6-x2x4z',
        namespace: 'shop',
        labels: { app: 'api', 'pod-template-hash': '7c9d8b7f6' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api-7c9d8b7f6' }],
      },
      spec: {
        nodeName: 'worker-1',
        containers: [
          {
            name: 'api',
            image: 'registry.example.com/shop/api:2.7.0',
            resources: { limits: { memory: '256Mi', cpu: '500m' }, requests: { memory: '128Mi' } },
            env: [
              {
                name: 'DB_PASSWORD',
                valueFrom: { secretKeyRef: { name: 'api-db', key: 'password' } },
              },
            ],
          },
        ],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'api-data' } }],
      },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'api',
            ready: false,
            restartCount: 3,
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s' } },
            lastState: {
              terminated: { exitCode: 1, reason: 'Error', finishedAt: '2026-03-10T11:58:00Z' },
            },
          },
        ],
      },
    };
    const m = new ClusterModel();
    m.add(observe(pod, { now: NOW, tool: 't', verb: 'get' }), 't');
    const p = m.get('pod', 'api-7c9d8b7f6-x2x4z', 'shop')!;
    expect(p.status).toBe('CrashLoopBackOff');
    expect(p.fields['claims']).toBe('api-data');
    expect(p.containers[0]!.last).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(p.containers[0]!.envRefs).toEqual(['DB_PASSWORD <- secret api-db key password']);
    expect(m.workloadOf(p)).toEqual({ kind: 'deployment', name: 'api' });
  });
});

describe('observe: log lines', () => {
  it('reads klog lines: level from the letter, time from the line', () => {
    const l = parseLogLine(
      'E0310 11:58:02.123456       1 reflector.go:147] failed to list *v1.Pod: pods is forbidden: User "system:serviceaccount:shop:api" cannot list resource "pods" in API group "" in the namespace "shop"',
    );
    expect(l.level).toBe('error');
    const w = parseLogLine(
      'W0310 11:58:02.123456       1 warnings.go:70] v1 Endpoints is deprecated',
    );
    expect(w.level).toBe('warn');
  });

  it('reads JSON log lines and ISO timestamps', () => {
    const l = parseLogLine(
      '{"level":"error","ts":"2026-03-10T11:58:02.512Z","msg":"failed to connect","error":"dial tcp 10.96.14.2:5432: connect: connection refused"}',
    );
    expect(l.level).toBe('error');
    const t = parseLogLine('2026-03-10T11:58:02.512Z INFO server started on :8080');
    expect(t.at).toBe(Date.parse('2026-03-10T11:58:02.512Z'));
    expect(t.level).toBeUndefined();
  });

  it('reads a log output into one LogView of the pod it was asked for', () => {
    const o = observe(
      '2026-03-10T11:58:01Z INFO starting\n2026-03-10T11:58:02Z FATAL missing required env var PAYMENT_GATEWAY_URL\n',
      { tool: 'k8s:logs', verb: 'logs', pod: 'pay-1', namespace: 'shop', previous: true },
    );
    expect(o.logs).toHaveLength(1);
    expect(o.logs[0]).toMatchObject({ pod: 'pay-1', namespace: 'shop', previous: true });
    expect(o.logs[0]!.lines.map((l) => l.level)).toEqual([undefined, 'error']);
  });
});

describe('observe: events a result dict lists without their object', () => {
  const out = (events: unknown[]) =>
    observe(
      { success: true, events },
      { tool: 'k8s:get_events', verb: 'events', namespace: 'shop' },
    );

  it('ties an event to the object its own name starts with ("<object>.<hex>", as the API names events)', () => {
    const o = out([
      {
        name: 'cart-api-5d8f9c7b6d-q2x7p.17f3a2b4c5d6e7f8',
        type: 'Warning',
        reason: 'BackOff',
        message: 'Back-off restarting failed container api',
        timestamp: '2026-11-18 14:15:58+00:00',
      },
    ]);
    expect(o.events).toHaveLength(1);
    expect(o.events[0]!.object).toEqual({ name: 'cart-api-5d8f9c7b6d-q2x7p' });
    expect(o.events[0]!.reason).toBe('BackOff');
  });

  it('leaves an event whose name is not "<object>.<hex>" without an object', () => {
    const o = out([
      { name: 'nightly-report', type: 'Warning', reason: 'Failed', message: 'something failed' },
    ]);
    expect(o.events[0]!.object).toBeUndefined();
  });
});

// The metrics API's objects as a server that calls it answers them (kubectl top reads the same:
// https://kubernetes.io/docs/tasks/debug/debug-cluster/resource-metrics-pipeline/).
describe('observe: metrics.k8s.io objects', () => {
  const top = { tool: 'k8s:pods_metrics', verb: 'metrics', namespace: 'shop', now: NOW };

  it("reads a PodMetricsList (items without kind): each pod's containers summed, as kubectl top", () => {
    const o = observe(
      JSON.stringify({
        kind: 'PodMetricsList',
        apiVersion: 'metrics.k8s.io/v1beta1',
        metadata: {},
        items: [
          {
            metadata: { name: 'cart-7c9d8b7f6-x2x4z', namespace: 'shop' },
            timestamp: '2026-03-10T11:58:00Z',
            window: '20s',
            containers: [
              { name: 'cart', usage: { cpu: '251234567n', memory: '524288Ki' } },
              { name: 'envoy', usage: { cpu: '12m', memory: '64Mi' } },
            ],
          },
        ],
      }),
      top,
    );
    expect(o.metrics).toEqual([
      expect.objectContaining({
        kind: 'pod',
        name: 'cart-7c9d8b7f6-x2x4z',
        namespace: 'shop',
        cpu: '263m',
        memory: '576Mi',
      }),
    ]);
    expect(o.objects.filter((x) => x.kind === 'pod')).toEqual([]);
  });

  it('reads a NodeMetricsList', () => {
    const o = observe(
      {
        kind: 'NodeMetricsList',
        items: [{ metadata: { name: 'worker-2' }, usage: { cpu: '3890m', memory: '15Gi' } }],
      },
      top,
    );
    expect(o.metrics).toEqual([
      expect.objectContaining({ kind: 'node', name: 'worker-2', cpu: '3890m', memory: '15Gi' }),
    ]);
  });

  it('near miss: a pod whose containers declare resources, not usage, is a pod, not a metric', () => {
    const o = observe(
      {
        kind: 'Pod',
        metadata: { name: 'cart-7c9d8b7f6-x2x4z', namespace: 'shop' },
        spec: {
          containers: [{ name: 'cart', resources: { limits: { cpu: '1', memory: '1Gi' } } }],
        },
        status: { phase: 'Running' },
      },
      top,
    );
    expect(o.metrics).toEqual([]);
    expect(o.objects.map((x) => x.kind)).toContain('pod');
  });
});
