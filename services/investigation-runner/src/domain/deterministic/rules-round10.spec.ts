/**
 * The engine rules of 7232ec3, 35caad5, 5748c7d and 1da9ed7, one test per rule, each on a small
 * world of outputs shaped like real ones (`kubectl get` / `kubectl describe` text, Kubernetes API
 * objects and events, `kubectl logs` lines of a JVM, gunicorn and two Python apps):
 * a drain held by a PodDisruptionBudget at 0 (the node's description telling what runs there), a
 * DaemonSet kept off tainted nodes, a Service whose named targetPort no pod declares, a completed
 * Job pod with an old FailedScheduling, long GC pauses behind probe timeouts, pods preempted by a
 * higher priority, a node out of inodes, API calls as system:anonymous, and gunicorn WORKER
 * TIMEOUTs with the CPU at its limit and the autoscaler at its maximum.
 */
import {
  NOW,
  ago,
  apiTools,
  deploymentObj,
  describeNode,
  findingsOf,
  hpaObj,
  ids,
  investigateAt,
  jsonOutputs,
  kubeEvent,
  podObj,
  stamped,
  str,
  table,
  textTools,
  warningEvent,
  type ApiWorld,
  type Box,
  type FakeTool,
  type TextWorld,
  answerOf,
} from './spec-world';

type Obj = Record<string, unknown>;

// ------------------------------------------------------------------------------------------------
// kubectl text

/** `kubectl describe pdb` text, as kubectl prints it */
const describePdb = (b: {
  name: string;
  ns: string;
  minAvailable: number;
  selector: string;
  allowed: number;
  healthy: number;
}) =>
  [
    `Name:           ${b.name}`,
    `Namespace:      ${b.ns}`,
    `Min available:  ${b.minAvailable}`,
    `Selector:       ${b.selector}`,
    'Status:',
    `    Allowed disruptions:  ${b.allowed}`,
    `    Current:              ${b.healthy}`,
    `    Desired:              ${b.minAvailable}`,
    `    Total:                ${b.healthy}`,
    'Events:                   <none>',
  ].join('\n');

// ------------------------------------------------------------------------------------------------
// API objects

type PodArgs = Parameters<typeof podObj>[0];

/** a Pod of this cluster: its uid and resources listed, conditions only when given */
const pod = (p: PodArgs): Obj =>
  podObj({
    uid: `0f6c2a8e-${p.name.length.toString(16).padStart(4, '0')}-4b1d-9e7a-53c1d8f2a406`,
    created: 60 * 24 * 3,
    conditions: null,
    podIP: '10.244.6.23',
    ...p,
    boxes: p.boxes.map((b) => ({ resources: {}, started: null, ...b })),
  });

/** a Deployment of this cluster (120 days old, its status without unavailableReplicas) */
const deployment = (name: string, ns: string, image: string, replicas: number, ready = replicas) =>
  deploymentObj(name, ns, [image], replicas, ready, [], {
    created: 60 * 24 * 120,
    unavailable: false,
  });

/** the pods of a Deployment's current ReplicaSet */
const replicaPod = (
  app: string,
  hash: string,
  suffix: string,
  ns: string,
  boxes: Box[],
  more: Partial<PodArgs> = {},
): Obj =>
  pod({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    node: 'ip-10-42-5-12.eu-central-1.compute.internal',
    boxes,
    ...more,
  });

function node(name: string, taints: Obj[] = []): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' },
      creationTimestamp: ago(60 * 24 * 2),
    },
    spec: { providerID: `aws:///eu-central-1a/i-0${name.length}b7e4c1d9a2f5360`, taints },
    status: {
      allocatable: { cpu: '3920m', memory: '15103212Ki', pods: '58' },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastTransitionTime: ago(60 * 24 * 2),
        },
      ],
    },
  };
}

// ------------------------------------------------------------------------------------------------

describe('rules of 7232ec3, 35caad5, 5748c7d and 1da9ed7', () => {
  describe('a drain that hangs, weighed against the budgets of the pods left on the node', () => {
    const node = 'ip-10-42-7-61.eu-central-1.compute.internal';
    const ns = 'billing';
    // the node's own pods: the DaemonSet ones stay (drain ignores them), invoice-store-1 is left
    const left: [string, string][] = [
      ['kube-system', 'aws-node-q8z4c'],
      ['kube-system', 'kube-proxy-7hx2m'],
      [ns, 'invoice-store-1'],
    ];
    const world = (minAvailable: number, allowed: number): TextWorld => ({
      tables: {
        // `kubectl get pods -A`: no NODE column
        pod: table(
          ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
          [
            ['kube-system', 'aws-node-q8z4c', '2/2', 'Running', '0', '9d'],
            ['kube-system', 'kube-proxy-7hx2m', '1/1', 'Running', '0', '9d'],
            [ns, 'invoice-store-0', '1/1', 'Running', '0', '9d'],
            [ns, 'invoice-store-1', '1/1', 'Running', '0', '9d'],
            [ns, 'invoice-store-2', '1/1', 'Running', '0', '9d'],
          ],
        ),
        node: table(
          ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'],
          [
            [
              'ip-10-42-5-12.eu-central-1.compute.internal',
              'Ready',
              '<none>',
              '9d',
              'v1.30.4-eks-a737599',
            ],
            [node, 'Ready,SchedulingDisabled', '<none>', '9d', 'v1.30.4-eks-a737599'],
            [
              'ip-10-42-9-203.eu-central-1.compute.internal',
              'Ready',
              '<none>',
              '9d',
              'v1.30.4-eks-a737599',
            ],
          ],
        ),
        // `kubectl get pdb -n billing`: no selector shown, so the engine reads it whole
        poddisruptionbudget: table(
          ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'],
          [['invoice-store-pdb', String(minAvailable), 'N/A', String(allowed), '41d']],
        ),
      },
      describe: {
        [`node/${node}`]: describeNode({
          name: node,
          labels: [
            'kubernetes.io/arch=amd64',
            `kubernetes.io/hostname=${node}`,
            'kubernetes.io/os=linux',
          ],
          annotations: [
            'node.alpha.kubernetes.io/ttl: 0',
            'volumes.kubernetes.io/controller-managed-attach-detach: true',
          ],
          created: 60 * 24 * 9,
          taints: ['node.kubernetes.io/unschedulable:NoSchedule'],
          unschedulable: true,
          lease: true,
          conditions: [
            [
              'MemoryPressure',
              'False',
              'KubeletHasSufficientMemory',
              'kubelet has sufficient memory available',
            ],
            ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
            [
              'PIDPressure',
              'False',
              'KubeletHasSufficientPID',
              'kubelet has sufficient PID available',
            ],
            ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
          ],
          internalIP: '10.42.7.61',
          capacity: { cpu: '4', memory: '16069936Ki', pods: '58' },
          systemInfo: {
            'Kernel Version': '6.1.112-124.190.amzn2023.x86_64',
            'OS Image': 'Amazon Linux 2023.6.20241010',
            'Container Runtime Version': 'containerd://1.7.22',
            'Kubelet Version': 'v1.30.4-eks-a737599',
          },
          providerID: 'aws:///eu-central-1b/i-0c4d2e9a7f1b36e50',
          pods: left.map(([podNs, pod]) => [
            podNs,
            pod,
            '250m (6%)',
            '0 (0%)',
            '512Mi (3%)',
            '512Mi (3%)',
            '9d',
          ]),
          allocated: true,
          events: [
            [
              'Normal',
              'NodeNotSchedulable',
              '22m',
              'kubelet',
              `Node ${node} status is now: NodeNotSchedulable`,
            ],
          ],
        }),
        'poddisruptionbudget/invoice-store-pdb': describePdb({
          name: 'invoice-store-pdb',
          ns,
          minAvailable,
          selector: 'app.kubernetes.io/name=invoice-store',
          allowed,
          healthy: 3,
        }),
      },
    });
    const ask = `kubectl drain ${node} has been hanging for 20 minutes, what is it waiting for?`;
    /** kubectl text tools; the budget exists in billing only */
    const tools = (w: TextWorld): FakeTool[] =>
      textTools(w).map((t) =>
        t.name === 'get_resources'
          ? {
              ...t,
              handler: (p) =>
                p['kind'] === 'poddisruptionbudget' && p['namespace'] && p['namespace'] !== ns
                  ? `No resources found in ${String(p['namespace'])} namespace.`
                  : t.handler(p),
            }
          : t,
      );

    it('names the budget at 0 allowed disruptions (minAvailable = replicas), the pods known from the node description', async () => {
      const { text, result } = await investigateAt(tools(world(3, 0)), ask, NOW);
      expect(result.summary).not.toMatch(/No problem found/);
      expect(text).toContain(
        'PodDisruptionBudget billing/invoice-store-pdb has minAvailable 3 and allows 0 disruptions',
      );
      expect(text).toContain(`pod invoice-store-1 still runs on cordoned node ${node}`);
    });

    it('gives no budget finding when the budget allows one disruption', async () => {
      const { text, gateway } = await investigateAt(tools(world(2, 1)), ask, NOW);
      // the budgets were read, and weighed
      expect(
        gateway.calls.some(
          (c) => c.params['kind'] === 'poddisruptionbudget' && c.params['namespace'] === ns,
        ),
      ).toBe(true);
      expect(text).not.toMatch(/PodDisruptionBudget|allows 0 disruptions/);
    });
  });

  describe('a DaemonSet meant for every node that does not tolerate the taint of new nodes', () => {
    const ns = 'telemetry';
    const general = [
      'ip-10-42-1-34.eu-central-1.compute.internal',
      'ip-10-42-2-77.eu-central-1.compute.internal',
    ];
    const arm = [
      'ip-10-42-11-5.eu-central-1.compute.internal',
      'ip-10-42-12-90.eu-central-1.compute.internal',
    ];
    const poolTaint = { key: 'example.com/pool', value: 'arm64-builders', effect: 'NoSchedule' };
    const image = 'docker.io/timberio/vector:0.41.1-distroless-libc';
    const daemonSet = (tolerations: Obj[], desired: number): Obj => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'vector-agent', namespace: ns, creationTimestamp: ago(60 * 24 * 200) },
      spec: {
        selector: { matchLabels: { 'app.kubernetes.io/name': 'vector-agent' } },
        template: {
          metadata: { labels: { 'app.kubernetes.io/name': 'vector-agent' } },
          spec: {
            serviceAccountName: 'vector-agent',
            tolerations,
            containers: [
              { name: 'vector-agent', image, ports: [{ name: 'api', containerPort: 8686 }] },
            ],
          },
        },
      },
      status: {
        currentNumberScheduled: desired,
        desiredNumberScheduled: desired,
        numberAvailable: desired,
        numberReady: desired,
        updatedNumberScheduled: desired,
      },
    });
    const agent = (on: string, i: number): Obj =>
      pod({
        name: `vector-agent-${['k2v8d', 'p7x4q', 'm3n9w', 'z6c1r'][i]}`,
        ns,
        labels: {
          'app.kubernetes.io/name': 'vector-agent',
          'controller-revision-hash': '7c5b9d8f46',
        },
        owner: { kind: 'DaemonSet', name: 'vector-agent' },
        node: on,
        boxes: [{ name: 'vector-agent', image }],
      });
    const world = (tolerations: Obj[], on: string[]): ApiWorld => ({
      objects: [
        ...general.map((n) => node(n)),
        ...arm.map((n) => node(n, [poolTaint])),
        daemonSet(tolerations, on.length),
        ...on.map(agent),
      ],
    });
    const ask =
      'no logs arrive in Loki from the new arm64 builder nodes since they joined yesterday';
    const controlPlane = {
      key: 'node-role.kubernetes.io/control-plane',
      operator: 'Exists',
      effect: 'NoSchedule',
    };

    it('names the DaemonSet and the taint it does not tolerate', async () => {
      const { text, result } = await investigateAt(
        apiTools(world([controlPlane], general)),
        ask,
        NOW,
      );
      expect(result.summary).not.toMatch(/No problem found/);
      expect(text).toContain(
        'The DaemonSet vector-agent does not tolerate the taint example.com/pool=arm64-builders:NoSchedule',
      );
      expect(text).toContain(arm[0]);
    });

    it.each([
      [
        'a toleration of that key',
        { key: 'example.com/pool', operator: 'Exists', effect: 'NoSchedule' },
      ],
      ['operator: Exists alone', { operator: 'Exists' }],
    ])('gives no finding when it tolerates the taint (%s)', async (_, toleration) => {
      // the whole engine, the agent running on every node
      const { text } = await investigateAt(
        apiTools(world([controlPlane, toleration], [...general, ...arm])),
        ask,
        NOW,
      );
      expect(text).not.toMatch(/does not tolerate/);
      // the toleration alone decides: the same outputs before its pods reached the arm64 nodes
      const kept = (tolerations: Obj[]) =>
        ids(findingsOf(jsonOutputs(world(tolerations, general), ns)).findings);
      expect(kept([controlPlane])).toContain('daemonset_untolerated_taint');
      expect(kept([controlPlane, toleration])).not.toContain('daemonset_untolerated_taint');
    });
  });

  describe('a Service whose named targetPort no container port of its pods declares', () => {
    const ns = 'quotes';
    const image = 'registry.example.com/quotes/rate-quoter:7.4.0';
    const world = (targetPort: string, ready: boolean): ApiWorld => {
      const pods = ['c5x8v', 'f2k9p'].map((suffix) =>
        replicaPod('rate-quoter', '7b4d9c6f8', suffix, ns, [
          {
            name: 'rate-quoter',
            image,
            ports: [{ name: 'app-http', containerPort: 9000, protocol: 'TCP' }],
          },
        ]),
      );
      return {
        objects: [
          deployment('rate-quoter', ns, image, 2),
          ...pods,
          {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: 'rate-quoter', namespace: ns, creationTimestamp: ago(60 * 24 * 300) },
            spec: {
              type: 'ClusterIP',
              clusterIP: '172.20.118.41',
              selector: { app: 'rate-quoter' },
              ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort }],
            },
          },
          {
            apiVersion: 'v1',
            kind: 'Endpoints',
            metadata: { name: 'rate-quoter', namespace: ns },
            ...(ready
              ? {
                  subsets: [
                    {
                      addresses: [{ ip: '10.244.6.23' }, { ip: '10.244.7.41' }],
                      ports: [{ name: 'http', port: 9000, protocol: 'TCP' }],
                    },
                  ],
                }
              : {}),
          },
        ],
      };
    };
    const ask =
      'rate-quoter answers 503 through its Service since the chart upgrade, yet its pods are all Ready';

    it('names the Service and the port name no pod declares', async () => {
      const { text, result } = await investigateAt(apiTools(world('rest', false)), ask, NOW, ns);
      expect(result.summary).not.toMatch(/No problem found/);
      expect(text).toContain(
        'The Service rate-quoter sends traffic to the port named "rest", which its pods do not declare',
      );
      expect(text).toContain('app-http (9000)');
    });

    it('gives no such finding when the named targetPort matches a container port', async () => {
      const { text } = await investigateAt(apiTools(world('app-http', true)), ask, NOW, ns);
      expect(text).not.toMatch(/which its pods do not declare/);
    });
  });

  it('a Job pod that ran to completion (READY 0/1) with an old FailedScheduling is no failure', async () => {
    const ns = 'reports';
    const podName = 'ledger-export-29545920-h8q2t';
    const w: TextWorld = {
      tables: {
        pod: table(
          ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
          [[podName, '0/1', 'Completed', '0', '4h12m']],
        ),
        job: table(
          ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'],
          [['ledger-export-29545920', 'Complete', '1/1', '3h58m', '4h12m']],
        ),
        cronjob: table(
          ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE'],
          [['ledger-export', '0 8 * * *', '<none>', 'False', '0', '4h12m', '210d']],
        ),
      },
      describe: {},
      // the scheduler waited for a node with room before the cluster autoscaler added one
      events: table(
        ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
        [
          [
            '4h12m',
            'Normal',
            'SuccessfulCreate',
            'job/ledger-export-29545920',
            `Created pod: ${podName}`,
          ],
          [
            '4h11m',
            'Warning',
            'FailedScheduling',
            `pod/${podName}`,
            '0/5 nodes are available: 5 Insufficient memory. preemption: 0/5 nodes are available: 5 No preemption victims found for incoming pod.',
          ],
          [
            '4h10m',
            'Normal',
            'TriggeredScaleUp',
            `pod/${podName}`,
            'pod triggered scale-up: [{eks-batch-2026030312 2->3 (max: 6)}]',
          ],
          [
            '4h8m',
            'Normal',
            'Scheduled',
            `pod/${podName}`,
            `Successfully assigned ${ns}/${podName} to ip-10-42-14-3.eu-central-1.compute.internal`,
          ],
          ['14m', 'Normal', 'Completed', 'job/ledger-export-29545920', 'Job completed'],
        ],
      ),
      logs: {
        [podName]:
          '2026-03-10T11:45:51Z INFO export finished: 1843302 ledger rows written to s3://acme-reports/ledger/2026-03-10/',
      },
    };
    const { result, text } = await investigateAt(
      textTools(w),
      'I see a FailedScheduling warning on the ledger-export job pod in reports, is something wrong?',
      NOW,
      ns,
    );
    expect(result.summary).toMatch(/No problem found/);
    expect(text).not.toMatch(/Insufficient memory/);
  });

  it('long JVM GC pauses behind readiness probe timeouts: the pause is the cause', async () => {
    const ns = 'indexing';
    const image = 'registry.example.com/indexing/catalog-indexer:12.3.1';
    const name = 'catalog-indexer-5c8f7d9b6-w4t7n';
    const gc = (m: number, id: number, ms: string): [number, string] => [
      m,
      `[${ago(m).replace('Z', '+0000')}][info][gc] GC(${id}) Pause Full (G1 Compaction Pause) 2038M->1991M(2048M) ${ms}ms`,
    ];
    const world: ApiWorld = {
      objects: [
        deployment('catalog-indexer', ns, image, 1, 0),
        replicaPod('catalog-indexer', '5c8f7d9b6', 'w4t7n', ns, [
          {
            name: 'catalog-indexer',
            image,
            resources: { limits: { memory: '3Gi' }, requests: { cpu: '1', memory: '3Gi' } },
            ready: false,
          },
        ]),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name },
          'Unhealthy',
          'Readiness probe failed: Get "http://10.244.6.23:8081/actuator/health/readiness": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
          38,
          1,
          27,
          'kubelet',
        ),
      ],
      logs: {
        [name]: stamped([
          [
            40,
            `[${ago(40).replace('Z', '+0000')}][info][gc] GC(388) Pause Young (Normal) (G1 Evacuation Pause) 1712M->1544M(2048M) 48.772ms`,
          ],
          gc(31, 401, '2711.904'),
          [
            30,
            '2026-03-10 11:30:02.118  INFO 1 --- [indexer-3] c.e.s.CatalogIndexer : indexed batch 9912 (500 docs)',
          ],
          gc(17, 415, '3048.337'),
          gc(4, 430, '2964.115'),
        ]),
      },
    };
    const { result, text } = await investigateAt(
      apiTools(world),
      'catalog-indexer keeps dropping out of its Service, readiness probe timeouts',
      NOW,
      ns,
    );
    expect(answerOf(result)).toMatch(/stops for seconds in garbage collection/);
    // not the probe's own timeout
    expect(result.root_cause.description).not.toMatch(/probe times out/);
    expect(text).toContain('Pause Full (G1 Compaction Pause)');
  });

  it('pods preempted by a pod of higher priority, their replacements Pending on cpu', async () => {
    const ns = 'recs';
    const image = 'registry.example.com/recs/feature-scorer:3.8.2';
    const victim = 'feature-scorer-6d4b8f7c5-r9m2k';
    const replacement = 'feature-scorer-6d4b8f7c5-t5j8w';
    const nodeName = 'ip-10-42-3-150.eu-central-1.compute.internal';
    const world: ApiWorld = {
      objects: [
        deployment('feature-scorer', ns, image, 3, 2),
        replicaPod('feature-scorer', '6d4b8f7c5', 'b3x7c', ns, [{ name: 'feature-scorer', image }]),
        replicaPod('feature-scorer', '6d4b8f7c5', 'n1q6z', ns, [{ name: 'feature-scorer', image }]),
        replicaPod(
          'feature-scorer',
          '6d4b8f7c5',
          'r9m2k',
          ns,
          [{ name: 'feature-scorer', image }],
          {
            phase: 'Failed',
            node: nodeName,
            conditions: [
              {
                type: 'DisruptionTarget',
                status: 'True',
                reason: 'PreemptionByScheduler',
                message: 'default-scheduler: preempting to accommodate a higher priority pod',
                lastTransitionTime: ago(26),
              },
            ],
          },
        ),
        replicaPod(
          'feature-scorer',
          '6d4b8f7c5',
          't5j8w',
          ns,
          [
            {
              name: 'feature-scorer',
              image,
              resources: { requests: { cpu: '1500m', memory: '2Gi' } },
            },
          ],
          { phase: 'Pending', node: undefined, created: 26 },
        ),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: victim },
          'Preempted',
          `Preempted by pod 7e1f0c3a-58b2-4d96-a0c4-2b9e61d7f835 on node ${nodeName}`,
          26,
          26,
          1,
          'default-scheduler',
        ),
        warningEvent(
          ns,
          { kind: 'Pod', name: replacement },
          'FailedScheduling',
          '0/6 nodes are available: 6 Insufficient cpu. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod.',
          26,
          2,
          14,
          'default-scheduler',
        ),
      ],
    };
    const { result, text } = await investigateAt(
      apiTools(world),
      'feature-scorer lost a replica 25 minutes ago and the new pod stays Pending',
      NOW,
      ns,
    );
    expect(answerOf(result)).toMatch(/preempted/);
    expect(text).toMatch(/higher priority/);
    expect(text).toContain('Preempted by pod 7e1f0c3a-58b2-4d96-a0c4-2b9e61d7f835');
  });

  it('a node out of inodes while the app logs "no space left on device": inodes named', async () => {
    const ns = 'imaging';
    const image = 'registry.example.com/imaging/thumb-cache:2.2.0';
    const nodeName = 'ip-10-42-8-19.eu-central-1.compute.internal';
    const evicted = 'thumb-cache-84c6f9d7b-j6v3s';
    const live = 'thumb-cache-84c6f9d7b-q2w8e';
    const world: ApiWorld = {
      objects: [
        deployment('thumb-cache', ns, image, 2, 1),
        node(nodeName),
        replicaPod(
          'thumb-cache',
          '84c6f9d7b',
          'j6v3s',
          ns,
          [
            {
              name: 'thumb-cache',
              image,
              state: {
                terminated: {
                  exitCode: 137,
                  reason: 'ContainerStatusUnknown',
                  finishedAt: ago(12),
                },
              },
            },
          ],
          {
            phase: 'Failed',
            node: nodeName,
            reason: 'Evicted',
            message: 'The node was low on resource: inodes. ',
          },
        ),
        replicaPod('thumb-cache', '84c6f9d7b', 'q2w8e', ns, [{ name: 'thumb-cache', image }], {
          node: nodeName,
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: evicted },
          'Evicted',
          'The node was low on resource: inodes. ',
          12,
          12,
          1,
          'kubelet',
        ),
        kubeEvent(
          ns,
          { kind: 'Node', name: nodeName },
          'Warning',
          'EvictionThresholdMet',
          'Attempting to reclaim inodes',
          13,
          3,
          4,
          'kubelet',
        ),
      ],
      logs: {
        [live]: stamped([
          [20, 'INFO:thumbcache:stored 240x240/9f/3c/9f3c51e2.webp'],
          [
            9,
            "ERROR:thumbcache:store failed: [Errno 28] No space left on device: '/var/cache/thumbs/120x120/a4/07/a4077be1.webp'",
          ],
          [
            2,
            "ERROR:thumbcache:store failed: [Errno 28] No space left on device: '/var/cache/thumbs/480x480/0e/d2/0ed2c9f4.webp'",
          ],
        ]),
      },
    };
    const { result, text } = await investigateAt(
      apiTools(world),
      'thumb-cache fails with no space left on device, but df shows the disk 40% used',
      NOW,
      ns,
    );
    expect(answerOf(result)).toMatch(/ran out of inodes, not bytes/);
    expect(text).toContain('df -i');
  });

  it('"system:anonymous cannot create jobs": no ServiceAccount token mounted, not a missing RoleBinding', async () => {
    const ns = 'ci';
    const image = 'registry.example.com/ci/build-dispatcher:1.15.0';
    const name = 'build-dispatcher-7f9c5b8d4-x2h6m';
    const body =
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"jobs.batch is forbidden: User \\"system:anonymous\\" cannot create resource \\"jobs\\" in API group \\"batch\\" in the namespace \\"ci\\"","reason":"Forbidden","details":{"group":"batch","kind":"jobs"},"code":403}';
    const world: ApiWorld = {
      objects: [
        deployment('build-dispatcher', ns, image, 1),
        replicaPod('build-dispatcher', '7f9c5b8d4', 'x2h6m', ns, [
          { name: 'build-dispatcher', image },
        ]),
      ],
      logs: {
        [name]: stamped([
          [16, 'INFO dispatcher: picked build 48213 (repo=payments-api ref=main)'],
          [16, 'ERROR dispatcher: could not start build 48213'],
          [16, 'kubernetes.client.exceptions.ApiException: (403)'],
          [16, 'Reason: Forbidden'],
          [16, `HTTP response body: ${body}`],
          [5, 'ERROR dispatcher: could not start build 48230'],
          [5, `HTTP response body: ${body}`],
        ]),
      },
    };
    const { result } = await investigateAt(
      apiTools(world),
      'build-dispatcher cannot start build jobs since the security hardening change',
      NOW,
      ns,
    );
    const answer = answerOf(result);
    expect(answer).toMatch(/no ServiceAccount token is mounted/);
    expect(answer).toContain('automountServiceAccountToken');
    expect(answer).not.toMatch(/lacks a Role\/RoleBinding/);
  });

  it('gunicorn WORKER TIMEOUT with the pods at their CPU limit and the HPA at maxReplicas', async () => {
    const ns = 'price-serving';
    const image = 'registry.example.com/price-serving/pricing-web:4.12.0';
    const suffixes = ['d4f7g', 'k8l2m', 'p5r9s', 'v3w6x'];
    const pods = suffixes.map((s) => `pricing-web-66b9d7c8f-${s}`);
    const top: FakeTool = {
      name: 'pods_top',
      description: 'List the resource consumption (CPU and memory) of pods, as kubectl top pod',
      properties: { namespace: str, all_namespaces: { type: 'boolean' } },
      handler: () =>
        table(
          ['NAME', 'CPU(cores)', 'MEMORY(bytes)'],
          pods.map((p, i) => [p, ['998m', '1000m', '991m', '1000m'][i]!, '412Mi']),
        ),
    };
    const world: ApiWorld = {
      objects: [
        deployment('pricing-web', ns, image, 4),
        ...suffixes.map((s) =>
          replicaPod('pricing-web', '66b9d7c8f', s, ns, [
            {
              name: 'pricing-web',
              image,
              resources: {
                limits: { cpu: '1', memory: '1Gi' },
                requests: { cpu: '500m', memory: '512Mi' },
              },
            },
          ]),
        ),
        hpaObj('pricing-web', ns, 'pricing-web', {
          min: 2,
          max: 4,
          cpu: 70,
          current: 4,
          conditions: [
            {
              type: 'ScalingLimited',
              status: 'True',
              reason: 'TooManyReplicas',
              message: 'the desired replica count is more than the maximum replica count',
            },
          ],
        }),
      ],
      logs: Object.fromEntries(
        pods.map((p, i) => [
          p,
          [
            `[2026-03-10 11:4${i}:07 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:${31 + i})`,
            `[2026-03-10 11:4${i}:07 +0000] [${31 + i}] [INFO] Worker exiting (pid: ${31 + i})`,
            `[2026-03-10 11:4${i}:08 +0000] [${44 + i}] [INFO] Booting worker with pid: ${44 + i}`,
            `[2026-03-10 11:5${i}:12 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:${44 + i})`,
          ].join('\n'),
        ]),
      ),
    };
    const { result, text } = await investigateAt(
      [...apiTools(world), top],
      'pricing-web returns 502 for a part of the requests since noon traffic picked up',
      NOW,
      ns,
    );
    expect(answerOf(result)).toMatch(/gunicorn workers do not answer within/);
    expect(text).toContain('WORKER TIMEOUT');
    expect(text).toMatch(/of their 1 CPU limit/);
    expect(text).toContain('its HorizontalPodAutoscaler pricing-web is at its maxReplicas 4');
  });
});
