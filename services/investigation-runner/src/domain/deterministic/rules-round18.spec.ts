/**
 * The engine rules of d1b4066 (and c55694e's node condition), one test per rule, each with a
 * near-miss world where it must not fire, on real-shaped API objects and outputs: an old
 * eviction replaced since (and the questions only a sentence that asks them asks), a hostNetwork
 * pod found by its IP being its node's (describe-only tools), a StatefulSet pod stuck
 * Terminating on a silent node, a claim whose file system resize waits for a restart, a Kafka
 * client's LEADER_NOT_AVAILABLE, a connection limit after a scale-up (and with per-object event
 * tools), Redis at its maxmemory with its redis.conf, a keystore password after an ExternalSecret
 * update, an app listening on another port than its Service's targetPort, a drain longer than
 * the grace period, a JWKS without the rotated key, MongoDB not authorized on a database, and the
 * kubelet's "has insufficient memory available" that is not the scheduler's.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  describePod,
  investigateAt,
  kubeEvent,
  metaOf,
  namespaceObj,
  podObj,
  serviceObj,
  statefulSetObj,
  str,
  table,
  textTools,
  warningEvent,
  withEnv,
  type ApiWorld,
  type Box,
  type FakeTool,
  type TextWorld,
} from './spec-world';
import { scopeIncident } from './scope';
import { stringify as stringifyYaml } from 'yaml';

type Obj = Record<string, unknown>;

const NODE = 'ip-10-31-7-142.eu-west-1.compute.internal';

/** a pod of a Deployment's ReplicaSet */
const appPod = (
  app: string,
  hash: string,
  suffix: string,
  ns: string,
  boxes: Box[],
  more: Partial<Parameters<typeof podObj>[0]> = {},
): Obj =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    node: NODE,
    created: 60 * 3,
    podIP: '10.31.88.14',
    boxes,
    ...more,
  });

/** minutes in an hour */
const H = 60;

/** a container in CrashLoopBackOff after its last run exited 1, 3 min ago */
const crashing = (name: string, image: string, restarts = 9): Box => ({
  name,
  image,
  ready: false,
  restarts,
  state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting ${name}` } },
  lastState: {
    terminated: { reason: 'Error', exitCode: 1, startedAt: ago(4), finishedAt: ago(3) },
  },
});

/** the kubelet's BackOff event of a crash-looping pod */
const backOff = (ns: string, pod: string, container: string) =>
  warningEvent(
    ns,
    { kind: 'Pod', name: pod },
    'BackOff',
    `Back-off restarting failed container ${container} in pod ${pod}_${ns}(7a1c3e5f-2b4d-4f6a-8c0e-9d1b3f5a7c20)`,
    45,
    1,
    38,
  );

describe('rules of d1b4066', () => {
  // ---------------------------------------------------------------- 1. an old eviction, replaced
  describe('1. an Evicted pod of an old ReplicaSet, replaced since', () => {
    const ns = 'treasury';
    const app = 'fx-quoter';
    const image = 'registry.example.net/treasury/fx-quoter:3.8.2';
    /** the old pod created `createdMinAgo`, evicted `evictedMinAgo`; its replacements 2 h ago */
    const world = (createdMinAgo: number, evictedMinAgo: number): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 2, 2),
        appPod(app, '9b4c7d2f61', 'r8t2w', ns, [{ name: app, image }], {
          created: 2 * H,
          podIP: '10.31.88.21',
        }),
        appPod(app, '9b4c7d2f61', 'm3q9z', ns, [{ name: app, image }], {
          created: 2 * H,
          podIP: '10.31.88.22',
        }),
        appPod(
          app,
          '6d1e8a5c37',
          'k4v7n',
          ns,
          [
            {
              name: app,
              image: 'registry.example.net/treasury/fx-quoter:3.8.1',
              ready: false,
              state: {
                terminated: {
                  reason: 'ContainerStatusUnknown',
                  exitCode: 137,
                  startedAt: ago(60 * 24 * 3),
                  finishedAt: ago(evictedMinAgo),
                },
              },
            },
          ],
          {
            created: createdMinAgo,
            phase: 'Failed',
            reason: 'Evicted',
            message:
              'The node was low on resource: memory. Threshold quantity: 100Mi, available: 81240Ki. Container fx-quoter was using 1733412Ki, request is 512Mi, has larger consumption of memory.',
            podIP: null,
          },
        ),
      ],
      events: [],
    });
    const ask =
      'fx-quoter in treasury looks fine now. also saw an Evicted pod in the list. anything we still need to do?';

    it('a pod of 3 days ago evicted 9 h ago, both pods of the new ReplicaSet running since 2 h: "No problem found", and no eviction listed ("the list" is not "list", the sentence naming it asks nothing)', async () => {
      const r = await investigateAt(apiTools(world(3 * 24 * H, 9 * H)), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toMatch(/^No problem found/);
      expect(a).not.toContain('fx-quoter-6d1e8a5c37-k4v7n');
      expect(a).not.toMatch(/evicted/i);
    });

    it('near miss (time): the old pod started 4 h ago and was evicted 3 h ago, inside the 6 h: the eviction is answered', async () => {
      const r = await investigateAt(apiTools(world(4 * H, 3 * H)), ask, NOW, ns);
      expect(answerOf(r.result)).not.toContain('No problem found');
      expect(answerOf(r.result)).toContain('The node was low on resource: memory');
    });

    it('near miss (no time): a pod of 3 days ago whose eviction has no time (no container end, no Evicted event): its creation says nothing of when it was evicted, so it is not history', async () => {
      const w = world(3 * 24 * H, 9 * H);
      const evicted = w.objects.find(
        (o) => (o['metadata'] as Record<string, unknown>)['name'] === 'fx-quoter-6d1e8a5c37-k4v7n',
      )!;
      delete (evicted['status'] as Record<string, unknown>)['containerStatuses'];
      const r = await investigateAt(apiTools(w), ask, NOW, ns);
      expect(answerOf(r.result)).not.toMatch(/^No problem found/);
      expect(answerOf(r.result)).toMatch(/evicted by the kubelet/);
    });

    it('near miss (question): the same old eviction when the sentence naming it asks ("which pods were evicted ... and why?"): the evicted pod is listed', async () => {
      const r = await investigateAt(
        apiTools(world(3 * 24 * H, 9 * H)),
        'fx-quoter in treasury looks fine now. which pods were evicted in the last day and why?',
        NOW,
        ns,
      );
      expect(answerOf(r.result)).toContain('fx-quoter-6d1e8a5c37-k4v7n');
    });
  });

  describe('1b. a count or status question is one the sentence naming it asks', () => {
    it('"how many pods are running in treasury?": a count; an alert quoting "the expected number of replicas" followed by another question: no count', () => {
      expect(scopeIncident('how many pods are running in treasury?', {}, NOW).question?.type).toBe(
        'count',
      );
      expect(
        scopeIncident(
          'KubeDeploymentReplicasMismatch: Deployment treasury/fx-quoter has not matched the expected number of replicas for longer than 15 minutes. Should we be worried?',
          {},
          NOW,
        ).question?.type,
      ).not.toBe('count');
    });

    it('"how many pods are there in treasury? also saw an Evicted pod in the list.": a count of every pod, not of the Evicted ones; "how many pods are pending?": of the Pending ones', () => {
      const q = scopeIncident(
        'how many pods are there in treasury? also saw an Evicted pod in the list.',
        {},
        NOW,
      ).question;
      expect(q?.type).toBe('count');
      expect(q && 'status' in q ? q.status : undefined).toBeUndefined();
      // near miss: the sentence that names the status asks
      const asked = scopeIncident('how many pods are pending in treasury?', {}, NOW).question;
      expect(asked && 'status' in asked ? asked.status : undefined).toBe('Pending');
    });
  });

  // ---------------------------------------------------------------- 2. a hostNetwork pod's dnsPolicy
  describe("2. a pod failing DNS lookups whose IP is its node's (host network)", () => {
    const ns = 'netobs';
    const app = 'flow-collector';
    const pod = 'flow-collector-5c8d7b9f4-q7w2e';
    const image = 'registry.example.net/netobs/flow-collector:0.19.4';
    const nodeIP = '10.31.7.142';
    /** describe-only kubectl text tools, and one `kubectl get -o yaml` by name */
    const world = (o: { podIP: string; hostNetwork: boolean; dnsPolicy: string }) => {
      const described = describePod({
        name: pod,
        namespace: ns,
        node: NODE,
        labels: [`app=${app}`, 'pod-template-hash=5c8d7b9f4'],
        controlledBy: `ReplicaSet/${app}-5c8d7b9f4`,
        status: 'Running',
        container: {
          name: app,
          image,
          port: '2055/UDP',
          state: ['Running', `Started:      ${new Date(NOW - 60 * 60_000).toUTCString()}`],
          ready: true,
        },
        conditions: [
          ['Ready', 'True'],
          ['PodScheduled', 'True'],
        ],
      })
        .replace(`${NODE}/10.0.0.11`, `${NODE}/${nodeIP}`)
        .replace('IP:               10.244.1.5', `IP:               ${o.podIP}`);
      const whole = podObj({
        name: pod,
        ns,
        labels: { app, 'pod-template-hash': '5c8d7b9f4' },
        owner: { kind: 'ReplicaSet', name: `${app}-5c8d7b9f4` },
        node: NODE,
        created: 60,
        podIP: o.podIP,
        boxes: [{ name: app, image }],
      });
      const spec = whole['spec'] as Obj;
      spec['dnsPolicy'] = o.dnsPolicy;
      if (o.hostNetwork) spec['hostNetwork'] = true;
      (whole['status'] as Obj)['hostIP'] = nodeIP;
      const w: TextWorld = {
        tables: {
          pod: table(
            ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
            [[pod, '1/1', 'Running', '0', '60m']],
          ),
          deployment: table(
            ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
            [[app, '1/1', '1', '1', '60m']],
          ),
        },
        describe: { [`pod/${pod}`]: described },
        logs: {
          [pod]: [9, 7, 5, 3, 1]
            .map(
              (m) =>
                `${ago(m)} level=error msg="export failed" err="dial tcp: lookup flow-store.${ns}.svc.cluster.local on 10.31.0.2:53: no such host"`,
            )
            .join('\n'),
        },
      };
      const getYaml: FakeTool = {
        name: 'get_resource_yaml',
        description: 'Get one Kubernetes resource by kind and name as YAML (kubectl get -o yaml).',
        properties: { kind: str, name: str, namespace: str },
        required: ['kind', 'name'],
        handler: (p) =>
          p['kind'] === 'pod' || p['kind'] === 'pods' || p['kind'] === 'Pod'
            ? p['name'] === pod
              ? stringifyYaml(whole)
              : `Error from server (NotFound): pods "${String(p['name'])}" not found`
            : `Error from server (NotFound): ${String(p['kind'])} "${String(p['name'])}" not found`,
      };
      return [...textTools(w), getYaml];
    };
    const ask = 'flow-collector in netobs cannot reach flow-store';
    const readWhole = (calls: { tool: string; params: Obj }[]) =>
      calls.some((c) => c.tool === 'k8s:get_resource_yaml' && c.params['name'] === pod);

    it('its description says "IP 10.31.7.142" and "Node: <node>/10.31.7.142": the pod is read whole, and hostNetwork with dnsPolicy ClusterFirst is answered with ClusterFirstWithHostNet', async () => {
      const r = await investigateAt(
        world({ podIP: nodeIP, hostNetwork: true, dnsPolicy: 'ClusterFirst' }),
        ask,
        NOW,
        ns,
      );
      expect(readWhole(r.gateway.calls)).toBe(true);
      expect(answerOf(r.result)).toContain('no such host');
      expect(answerOf(r.result)).toContain('ClusterFirstWithHostNet');
    });

    it("near miss: a pod IP of the pod network (10.31.88.40, not its node's): not read whole, no ClusterFirstWithHostNet", async () => {
      const r = await investigateAt(
        world({ podIP: '10.31.88.40', hostNetwork: false, dnsPolicy: 'ClusterFirst' }),
        ask,
        NOW,
        ns,
      );
      expect(readWhole(r.gateway.calls)).toBe(false);
      expect(answerOf(r.result)).toContain('no such host');
      expect(r.text).not.toContain('ClusterFirstWithHostNet');
    });

    it('near miss: on the host network, already with dnsPolicy ClusterFirstWithHostNet: no hostNetwork claim', async () => {
      const r = await investigateAt(
        world({ podIP: nodeIP, hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' }),
        ask,
        NOW,
        ns,
      );
      expect(readWhole(r.gateway.calls)).toBe(true);
      expect(r.text).not.toContain('hostNetwork: true');
    });
  });

  // ---------------------------------------------------------------- 3. stuck Terminating
  describe('3. a pod stuck Terminating on a node that stopped posting status', () => {
    const ns = 'ledger';
    const silent = 'ip-10-31-9-77.eu-west-1.compute.internal';
    const healthy = 'ip-10-31-9-12.eu-west-1.compute.internal';
    const nodeObj = (name: string, ready: boolean): Obj => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'kubernetes.io/hostname': name,
          'node.kubernetes.io/instance-type': 'm6i.xlarge',
        },
        creationTimestamp: ago(60 * 24 * 41),
      },
      spec: ready
        ? {}
        : {
            taints: [
              { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: ago(39) },
              { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: ago(39) },
            ],
          },
      status: {
        conditions: ready
          ? [
              {
                type: 'Ready',
                status: 'True',
                reason: 'KubeletReady',
                message: 'kubelet is posting ready status',
                lastHeartbeatTime: ago(1),
                lastTransitionTime: ago(60 * 24 * 41),
              },
            ]
          : ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map((type) => ({
              type,
              status: 'Unknown',
              reason: 'NodeStatusUnknown',
              message: 'Kubelet stopped posting node status.',
              lastHeartbeatTime: ago(40),
              lastTransitionTime: ago(39),
            })),
        addresses: [{ type: 'InternalIP', address: name === silent ? '10.31.9.77' : '10.31.9.12' }],
        allocatable: { cpu: '3920m', memory: '15136700Ki', pods: '58' },
      },
    });
    /** the member on the silent node, deleted 34 min ago (the taint manager's eviction) */
    const deleting = (pod: Obj): Obj => {
      metaOf(pod)['deletionTimestamp'] = ago(34);
      metaOf(pod)['deletionGracePeriodSeconds'] = 30;
      const status = pod['status'] as Obj;
      status['conditions'] = [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'False', lastTransitionTime: ago(39) },
      ];
      return pod;
    };
    const kvImage = 'registry.example.net/ledger/quorum-kv:2.4.1';
    const apiImage = 'registry.example.net/ledger/ledger-api:7.0.3';
    const world = (owner: 'statefulset' | 'deployment'): ApiWorld => {
      const objects: Obj[] = [namespaceObj(ns), nodeObj(silent, false), nodeObj(healthy, true)];
      if (owner === 'statefulset') {
        const [set, ...pods] = statefulSetObj('quorum-kv', ns, kvImage, 3, {
          ready: 2,
          node: healthy,
          member: (i) => (i === 1 ? { node: silent } : {}),
        });
        objects.push(
          set!,
          ...pods.map((p) => (metaOf(p)['name'] === 'quorum-kv-1' ? deleting(p) : p)),
        );
      } else {
        objects.push(
          deploymentObj('ledger-api', ns, [apiImage], 2, 1),
          deleting(
            appPod(
              'ledger-api',
              '6f7d9c8b45',
              'h2k9p',
              ns,
              [{ name: 'ledger-api', image: apiImage }],
              {
                node: silent,
                created: 60 * 24 * 4,
              },
            ),
          ),
          appPod(
            'ledger-api',
            '6f7d9c8b45',
            'w5n3x',
            ns,
            [{ name: 'ledger-api', image: apiImage }],
            {
              node: healthy,
              created: 33,
              podIP: '10.31.88.61',
            },
          ),
        );
      }
      return {
        objects,
        events: [
          {
            ...kubeEvent(
              ns,
              { kind: 'Node', name: silent },
              'Normal',
              'NodeNotReady',
              `Node ${silent} status is now: NodeNotReady`,
              39,
              39,
              1,
              'node-controller',
            ),
            involvedObject: { apiVersion: 'v1', kind: 'Node', name: silent, uid: silent },
          },
        ],
      };
    };

    it('a StatefulSet member with a deletionTimestamp on the NotReady (Unknown) node: stuck Terminating, no second pod of the same identity, force-delete or delete the Node', async () => {
      const r = await investigateAt(
        apiTools(world('statefulset')),
        'quorum-kv in ledger has had only 2 members since 11:20',
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain(`quorum-kv-1 (StatefulSet quorum-kv) is stuck Terminating on ${silent}`);
      expect(a).toContain('a StatefulSet never starts a second pod of the same identity');
      expect(a).toMatch(/force-delete the pod|delete the Node object/);
    });

    it("near miss: a Deployment's pod Terminating on the same node (its ReplicaSet has replaced it already): no stuck-Terminating claim", async () => {
      const r = await investigateAt(
        apiTools(world('deployment')),
        'ledger-api in ledger has had only 1 ready pod since 11:20',
        NOW,
        ns,
      );
      expect(r.text).toContain(silent);
      expect(r.text).not.toMatch(/stuck Terminating|same identity/);
    });
  });

  // ---------------------------------------------------------------- 4. FileSystemResizePending
  describe('4. "No space left on device" with a claim whose file system resize waits for a restart', () => {
    const ns = 'search';
    const pvc = (name: string, asked: string, actual: string, pending: boolean): Obj => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name,
        namespace: ns,
        creationTimestamp: ago(60 * 24 * 120),
        annotations: { 'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com' },
      },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'gp3-expandable',
        volumeName: `pvc-${name.length}1c7e2a9-4b3d-4f0e-9a6b-2d8c5e7f1a30`,
        resources: { requests: { storage: asked } },
      },
      status: {
        phase: 'Bound',
        accessModes: ['ReadWriteOnce'],
        capacity: { storage: actual },
        ...(pending
          ? {
              conditions: [
                {
                  type: 'FileSystemResizePending',
                  status: 'True',
                  lastProbeTime: null,
                  lastTransitionTime: ago(50),
                  message:
                    'Waiting for user to (re-)start a pod to finish file system resize of volume on node.',
                },
              ],
            }
          : {}),
      },
    });
    const full = (what: string) =>
      [14, 11, 8, 5, 2]
        .map(
          (m) =>
            `{"level":"error","ts":"${ago(m)}","logger":"${what}","msg":"segment flush failed","error":"write /data/segments/000${4410 + m}.seg: no space left on device"}`,
        )
        .join('\n');
    const indexImage = 'registry.example.net/search/term-index:5.1.0';
    /** `kubectl get pvc`: a claim's status capacity, not its request nor its conditions */
    const claimsTable = (rows: [string, string][]) =>
      table(
        ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'AGE'],
        rows.map(([name, cap]) => [
          name,
          'Bound',
          `pvc-${name.length}1c7e2a9-4b3d-4f0e-9a6b-2d8c5e7f1a30`,
          cap,
          'RWO',
          'gp3-expandable',
          '120d',
        ]),
      );

    /** a StatefulSet term-index of one member, its claim data-term-index-0 (named <template>-<pod>) */
    const setWorld = (pending: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSetObj('term-index', ns, indexImage, 1, { node: NODE }),
        pvc('data-term-index-0', '80Gi', pending ? '40Gi' : '80Gi', pending),
      ],
      tables: {
        persistentvolumeclaim: claimsTable([['data-term-index-0', pending ? '40Gi' : '80Gi']]),
      },
      logs: { 'term-index-0': full('indexer') },
    });

    it('a StatefulSet member: the claim data-term-index-0, 80Gi asked and 40Gi still, the resize waiting for term-index-0 to restart', async () => {
      const r = await investigateAt(
        apiTools(setWorld(true)),
        'term-index in search cannot write segments, we grew its volume an hour ago',
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain('no space left on device');
      expect(a).toContain(
        'The claim data-term-index-0 was grown (it asks for 80Gi, its file system is still 40Gi)',
      );
      expect(a).toContain('FileSystemResizePending');
      expect(a).toContain('so term-index-0 still sees the old, full volume');
      expect(r.text).toContain('Restart term-index-0');
    });

    it('a Deployment pod that mounts the claim (volumes.persistentVolumeClaim): that pod is named', async () => {
      const app = 'report-builder';
      const image = 'registry.example.net/search/report-builder:1.12.0';
      const pod = `${app}-58c9d7f6b4-t4x8m`;
      const world: ApiWorld = {
        objects: [
          namespaceObj(ns),
          deploymentObj(app, ns, [image], 1, 1),
          appPod(app, '58c9d7f6b4', 't4x8m', ns, [{ name: app, image }], {
            claims: ['report-scratch'],
          }),
          pvc('report-scratch', '30Gi', '10Gi', true),
        ],
        logs: { [pod]: full('reports') },
      };
      const r = await investigateAt(
        apiTools(world),
        'report-builder in search fails every report',
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain(
        'The claim report-scratch was grown (it asks for 30Gi, its file system is still 10Gi)',
      );
      expect(a).toContain(`so ${pod} still sees the old, full volume`);
    });

    it('near miss: the claim at its requested size, no FileSystemResizePending: the full disk, no resize claim', async () => {
      const r = await investigateAt(
        apiTools(setWorld(false)),
        'term-index in search cannot write segments, we grew its volume an hour ago',
        NOW,
        ns,
      );
      expect(answerOf(r.result)).toContain('no space left on device');
      expect(r.text).not.toMatch(/resize|was grown/);
    });
  });

  // ---------------------------------------------------------------- 5. a Kafka client's "no leader"
  describe('5. a Kafka client failing because a broker it uses fails', () => {
    const ns = 'logistics';
    const kafkaNs = 'streaming';
    const app = 'shipment-feed';
    const image = 'registry.example.net/logistics/shipment-feed:4.2.7';
    const kafkaImage = 'docker.io/bitnami/kafka:3.7.1';
    const client = `${app}-6b8f5d9c72-v3m8q`;
    const broker = (i: number): Obj =>
      podObj({
        name: `shipping-kafka-${i}`,
        ns: kafkaNs,
        labels: {
          'app.kubernetes.io/name': 'shipping-kafka',
          'app.kubernetes.io/component': 'broker',
        },
        owner: { kind: 'StatefulSet', name: 'shipping-kafka' },
        created: 60 * 24 * 30,
        podIP: `10.31.92.${10 + i}`,
        claims: [`data-shipping-kafka-${i}`],
        boxes: [
          i === 2
            ? {
                name: 'kafka',
                image: kafkaImage,
                ready: false,
                restarts: 6,
                state: {
                  waiting: {
                    reason: 'CrashLoopBackOff',
                    message:
                      'back-off 2m40s restarting failed container=kafka pod=shipping-kafka-2_streaming',
                  },
                },
                lastState: {
                  terminated: {
                    reason: 'Error',
                    exitCode: 1,
                    startedAt: ago(4),
                    finishedAt: ago(3),
                  },
                },
              }
            : { name: 'kafka', image: kafkaImage },
        ],
      });
    /** the client's log: its send timeouts, and the leader errors before them when `leader` */
    const world = (leader: string | undefined): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj(kafkaNs),
        deploymentObj(app, ns, [image], 1, 1),
        podObj({
          name: client,
          ns,
          labels: { app },
          owner: { kind: 'ReplicaSet', name: `${app}-6b8f5d9c72` },
          created: 60 * 24 * 2,
          boxes: [{ name: app, image }],
        }),
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: {
            name: 'shipping-kafka',
            namespace: kafkaNs,
            creationTimestamp: ago(60 * 24 * 30),
          },
          spec: {
            replicas: 3,
            serviceName: 'shipping-kafka-headless',
            selector: { matchLabels: { 'app.kubernetes.io/name': 'shipping-kafka' } },
            template: {
              metadata: { labels: { 'app.kubernetes.io/name': 'shipping-kafka' } },
              spec: { containers: [{ name: 'kafka', image: kafkaImage }] },
            },
          },
          status: { replicas: 3, readyReplicas: 2, currentReplicas: 3 },
        },
        broker(0),
        broker(1),
        broker(2),
      ],
      events: [
        warningEvent(
          kafkaNs,
          { kind: 'Pod', name: 'shipping-kafka-2' },
          'BackOff',
          'Back-off restarting failed container kafka in pod shipping-kafka-2_streaming(4c2e8a1f-6b3d-4d7e-9a5c-1f8b2e6d4a90)',
          24,
          1,
          19,
        ),
      ],
      logs: {
        [client]: [22, 15, 8]
          .flatMap((m, i) => [
            ...(leader
              ? [
                  `${ago(m).slice(0, 19).replace('T', ' ')}.204  WARN 1 --- [ad | producer-1] org.apache.kafka.clients.NetworkClient   : [Producer clientId=producer-1] Error while fetching metadata with correlation id ${9120 + i * 13} : {shipment-status=${leader}}`,
                ]
              : []),
            `${ago(m - 2)
              .slice(0, 19)
              .replace(
                'T',
                ' ',
              )}.871 ERROR 1 --- [ad | producer-1] o.s.k.support.LoggingProducerListener    : Exception thrown when sending a message with key='SHP-${77310 + i}' to topic shipment-status and partition 5:`,
            `org.apache.kafka.common.errors.TimeoutException: Expiring ${7 + i} record(s) for shipment-status-5:120000 ms has passed since batch creation`,
          ])
          .join('\n'),
      },
      previous: {
        'shipping-kafka-2': [
          '[2026-03-10 11:56:40,118] INFO [KafkaServer id=2] started (kafka.server.KafkaServer)',
          '[2026-03-10 11:56:52,430] ERROR Error while writing to checkpoint file /bitnami/kafka/data/recovery-point-offset-checkpoint (kafka.server.LogDirFailureChannel)',
          'java.io.IOException: Input/output error',
          '\tat java.base/sun.nio.ch.FileDispatcherImpl.force0(Native Method)',
          '[2026-03-10 11:56:52,466] ERROR Shutdown broker because all log dirs in /bitnami/kafka/data have failed (kafka.log.LogManager)',
        ].join('\n'),
      },
    });
    const ask = 'shipment-feed stopped publishing shipment status updates around 11:35';

    it('the client also logs {shipment-status=LEADER_NOT_AVAILABLE}: the answer quotes it, "finds no leader"', async () => {
      const r = await investigateAt(apiTools(world('LEADER_NOT_AVAILABLE')), ask, NOW);
      const a = answerOf(r.result);
      expect(a).toContain(
        'shipment-feed fails because shipping-kafka (pod shipping-kafka-2), which it calls',
      );
      expect(a).toContain('its Kafka client finds no leader for the partitions that broker led');
      expect(a).toContain('{shipment-status=LEADER_NOT_AVAILABLE}');
    });

    it('near miss: only "Expiring N record(s)" timeouts, no leader error logged: the broker, no "finds no leader"', async () => {
      const r = await investigateAt(apiTools(world(undefined)), ask, NOW);
      const a = answerOf(r.result);
      expect(a).toContain(
        'shipment-feed fails because shipping-kafka (pod shipping-kafka-2), which it calls',
      );
      expect(a).not.toContain('finds no leader');
    });
  });

  // ---------------------------------------------------------------- 6. connection limit after a scale-up
  describe('6. a database refusing connections after another Deployment was scaled up', () => {
    const ns = 'loyalty';
    const api = 'points-api';
    const batch = 'points-recalc';
    const apiImage = 'registry.example.net/loyalty/points-api:2.30.1';
    const batchImage = 'registry.example.net/loyalty/points-recalc:2.30.1';
    const apiPod = `${api}-5f8c7d6b94-p2k7r`;
    /** the first refusal 28 min ago; `scaled` the ScalingReplicaSet message of 52 min ago */
    const world = (
      scaledMessage: string,
      batchHash: string,
      batchPods: number,
      error = 'Error 1040: Too many connections',
      batchCreated = 52,
    ): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSetObj('points-mysql', ns, 'docker.io/library/mysql:8.0.36', 1, {
          container: 'mysql',
          node: NODE,
        }),
        serviceObj('points-mysql', ns, { app: 'points-mysql' }, 3306, { portName: 'mysql' }),
        deploymentObj(api, ns, [apiImage], 1, 1),
        withEnv(
          appPod(api, '5f8c7d6b94', 'p2k7r', ns, [{ name: api, image: apiImage }], {
            created: 60 * 26,
          }),
          {
            DB_DSN: `points:$(DB_PASSWORD)@tcp(points-mysql.${ns}.svc.cluster.local:3306)/points?parseTime=true`,
            DB_MAX_OPEN_CONNS: '20',
          },
        ),
        deploymentObj(batch, ns, [batchImage], 16, 16),
        ...Array.from({ length: batchPods }, (_, i) =>
          appPod(batch, batchHash, `w${i}x${i + 3}q`, ns, [{ name: batch, image: batchImage }], {
            created: batchCreated,
            podIP: `10.31.88.${100 + i}`,
          }),
        ),
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'Deployment', name: batch },
          'Normal',
          'ScalingReplicaSet',
          scaledMessage,
          batchCreated,
          batchCreated,
          1,
          'deployment-controller',
        ),
      ],
      logs: {
        [apiPod]: [28, 24, 19, 13, 9, 4, 1]
          .map(
            (m, i) =>
              `{"level":"error","time":"${ago(m)}","caller":"store/points.go:88","msg":"redeem failed","member":"M-${40210 + i}","error":"${error}"}`,
          )
          .join('\n'),
      },
    });
    const ask = 'points-api in loyalty fails redemptions since about 11:30';

    it.each([
      [`Scaled up replica set ${batch}-7d9c6b5f48 from 4 to 16`],
      [`Scaled up replica set ${batch}-7d9c6b5f48 to 16 from 4`],
    ])(
      '"%s" 24 min before the first "Error 1040: Too many connections": that Deployment and both counts',
      async (scaled) => {
        const r = await investigateAt(apiTools(world(scaled, '7d9c6b5f48', 12)), ask, NOW, ns);
        const a = answerOf(r.result);
        expect(a).toContain('Too many connections');
        expect(a).toContain(
          `${batch} was scaled up from 4 to 16 replicas at ${ago(52)}, 24 min before the first refusal`,
        );
        expect(r.text).toContain(`Scale ${batch} back to 4 replicas`);
      },
    );

    it.each([
      [`Scaled up replica set ${batch}-85f7c4d9b2 to 1`],
      [`Scaled up replica set ${batch}-85f7c4d9b2 to 1 from 0`],
    ])(
      'near miss: a rollout ("%s", a ReplicaSet started from 0): no scale-up claim',
      async (rollout) => {
        const r = await investigateAt(apiTools(world(rollout, '85f7c4d9b2', 1)), ask, NOW, ns);
        expect(answerOf(r.result)).toContain('Too many connections');
        expect(r.text).not.toMatch(/was scaled up|Scale points-recalc back/);
      },
    );

    /** the tools without a namespace event list: a Deployment's events only in its description */
    const perObject = (w: ApiWorld, scaledMessage: string, age: string): FakeTool[] => [
      ...apiTools(w).filter((t) => t.name !== 'events_list'),
      {
        name: 'describe_resource',
        description: 'Describe one Kubernetes resource (kubectl describe), with its events.',
        properties: { kind: str, name: str, namespace: str },
        required: ['kind', 'name'],
        handler: (p) =>
          /^deployments?$/i.test(String(p['kind'])) && p['name'] === batch
            ? [
                `Name:                   ${batch}`,
                `Namespace:              ${ns}`,
                'CreationTimestamp:      Mon, 01 Dec 2025 09:12:40 +0000',
                `Labels:                 app=${batch}`,
                'Annotations:            deployment.kubernetes.io/revision: 14',
                `Selector:               app=${batch}`,
                'Replicas:               16 desired | 16 updated | 16 total | 16 available | 0 unavailable',
                'StrategyType:           RollingUpdate',
                'MinReadySeconds:        0',
                'RollingUpdateStrategy:  25% max unavailable, 25% max surge',
                'Pod Template:',
                `  Labels:  app=${batch}`,
                '  Containers:',
                `   ${batch}:`,
                `    Image:      ${batchImage}`,
                '    Port:       <none>',
                '    Host Port:  <none>',
                'Conditions:',
                '  Type           Status  Reason',
                '  ----           ------  ------',
                '  Progressing    True    NewReplicaSetAvailable',
                '  Available      True    MinimumReplicasAvailable',
                `OldReplicaSets:  <none>`,
                `NewReplicaSet:   ${batch}-7d9c6b5f48 (16/16 replicas created)`,
                'Events:',
                '  Type    Reason             Age   From                   Message',
                '  ----    ------             ----  ----                   -------',
                `  Normal  ScalingReplicaSet  ${age}   deployment-controller  ${scaledMessage}`,
              ].join('\n')
            : `Error from server (NotFound): ${String(p['kind'])} "${String(p['name'])}" not found`,
      },
    ];
    const described = (calls: { tool: string; params: Obj }[]) =>
      calls.some((c) => c.tool === 'k8s:describe_resource' && c.params['name'] === batch);
    const bouncer = 'no more connections allowed (max_client_conn)';

    it('per-object event tools only, PgBouncer "no more connections allowed (max_client_conn)": points-recalc, whose pods started 52 min ago, is described and its "from 4 to 16" named', async () => {
      const scaled = `Scaled up replica set ${batch}-7d9c6b5f48 from 4 to 16`;
      const w = world(scaled, '7d9c6b5f48', 12, `pq: ${bouncer}`);
      const r = await investigateAt(perObject(w, scaled, '52m'), ask, NOW, ns);
      expect(described(r.gateway.calls)).toBe(true);
      expect(answerOf(r.result)).toContain(bouncer);
      expect(answerOf(r.result)).toContain(`${batch} was scaled up from 4 to 16 replicas`);
    });

    it("near miss: per-object event tools, points-recalc's pods started 3 h before the first refusal (outside the 2 h): not described, no scale-up claim", async () => {
      const scaled = `Scaled up replica set ${batch}-7d9c6b5f48 from 4 to 16`;
      const w = world(scaled, '7d9c6b5f48', 12, `pq: ${bouncer}`, 3 * H + 28);
      const r = await investigateAt(perObject(w, scaled, '3h28m'), ask, NOW, ns);
      expect(described(r.gateway.calls)).toBe(false);
      expect(answerOf(r.result)).toContain(bouncer);
      expect(r.text).not.toContain('was scaled up');
    });
  });

  // ---------------------------------------------------------------- 7. Redis at its maxmemory
  describe('7. Redis refusing writes at its maxmemory', () => {
    const ns = 'storefront';
    const app = 'cart-service';
    const image = 'registry.example.net/storefront/cart-service:8.4.0';
    const pod = `${app}-74c9b8d5f6-z9m4t`;
    const configMap = (name: string, data: Record<string, string>): Obj => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 60) },
      data,
    });
    const world = (error: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 1, 1),
        withEnv(appPod(app, '74c9b8d5f6', 'z9m4t', ns, [{ name: app, image }]), {
          REDIS_URL: `redis://cart-redis.${ns}.svc.cluster.local:6379/0`,
        }),
        ...statefulSetObj('cart-redis', ns, 'docker.io/library/redis:7.2.4', 1, {
          container: 'redis',
          node: NODE,
          limits: { memory: '1Gi' },
        }),
        serviceObj('cart-redis', ns, { app: 'cart-redis' }, 6379, { portName: 'redis' }),
        configMap('cart-redis-config', {
          'redis.conf': [
            'bind 0.0.0.0',
            'port 6379',
            'appendonly no',
            'maxmemory 768mb',
            'maxmemory-policy noeviction',
          ].join('\n'),
        }),
        configMap('cart-service-flags', { 'flags.yaml': 'express_checkout: true\n' }),
      ],
      // the lister answers names only: what a ConfigMap holds is read by name
      tables: {
        configmap: table(
          ['NAME', 'DATA', 'AGE'],
          [
            ['cart-redis-config', '1', '60d'],
            ['cart-service-flags', '1', '60d'],
            ['kube-root-ca.crt', '1', '200d'],
          ],
        ),
      },
      logs: {
        [pod]: [17, 13, 9, 6, 3, 1]
          .map(
            (m, i) =>
              `${ago(m)} ERROR cart.store: add item failed cart=c_${9120 + i} err="${error}"`,
          )
          .join('\n'),
      },
    });
    const ask = 'cart-service in storefront: adding to cart fails since 11:40';
    const readConfig = (calls: { tool: string; params: Obj }[]) =>
      calls.some((c) => c.tool === 'k8s:resources_get' && c.params['name'] === 'cart-redis-config');

    it('"OOM command not allowed when used memory > \'maxmemory\'": Redis refuses writes at its maxmemory, not an OOM kill; maxmemory-policy and maxmemory from the redis.conf ConfigMap', async () => {
      const r = await investigateAt(
        apiTools(world("OOM command not allowed when used memory > 'maxmemory'.")),
        ask,
        NOW,
        ns,
      );
      expect(readConfig(r.gateway.calls)).toBe(true);
      const a = answerOf(r.result);
      expect(a).toContain("Redis refuses cart-service's writes: it is at its maxmemory");
      expect(a).toContain(
        '(maxmemory-policy noeviction, maxmemory 768mb in ConfigMap cart-redis-config)',
      );
      expect(a).toContain('not a Kubernetes OOM kill');
    });

    it('near miss: Redis refusing writes as a read-only replica ("READONLY You can\'t write against a read only replica."): no maxmemory claim, its ConfigMap not read', async () => {
      const r = await investigateAt(
        apiTools(world("READONLY You can't write against a read only replica.")),
        ask,
        NOW,
        ns,
      );
      expect(readConfig(r.gateway.calls)).toBe(false);
      expect(r.text).not.toMatch(/maxmemory/);
    });
  });

  // ---------------------------------------------------------------- 8. a keystore password
  describe('8. a keystore that does not open ("keystore password was incorrect")', () => {
    const ns = 'edge';
    const app = 'partner-gateway';
    const image = 'registry.example.net/edge/partner-gateway:11.2.0';
    const pod = `${app}-69d7c5b8f3-k8r2v`;
    /** a Spring Boot trace: its "Caused by:" lines carry no time of their own */
    const spring = [
      `${ago(4).replace('T', ' ').replace('Z', '')}  INFO 1 --- [           main] c.e.edge.PartnerGatewayApplication       : Starting PartnerGatewayApplication v11.2.0 using Java 21.0.2`,
      `${ago(3).replace('T', ' ').replace('Z', '')} ERROR 1 --- [           main] o.s.boot.SpringApplication               : Application run failed`,
      "org.springframework.context.ApplicationContextException: Failed to start bean 'webServerStartStop'",
      '\tat org.springframework.context.support.DefaultLifecycleProcessor.doStart(DefaultLifecycleProcessor.java:288)',
      'Caused by: java.lang.IllegalArgumentException: java.io.IOException: keystore password was incorrect',
      '\tat org.apache.tomcat.util.net.AbstractJsseEndpoint.createSSLContext(AbstractJsseEndpoint.java:107)',
      'Caused by: java.io.IOException: keystore password was incorrect',
      '\tat java.base/sun.security.pkcs12.PKCS12KeyStore.engineLoad(PKCS12KeyStore.java:2159)',
      'Caused by: java.security.UnrecoverableKeyException: failed to decrypt safe contents entry: javax.crypto.BadPaddingException: Given final block not properly padded. Such issues can arise if a bad key is used during decryption.',
      '\t... 25 common frames omitted',
    ].join('\n');
    /** JSON records (a timestamp on the error itself) */
    const json = [
      `{"timestamp":"${ago(4)}","level":"INFO","logger":"io.quarkus","message":"partner-gateway 11.2.0 starting"}`,
      `{"timestamp":"${ago(3)}","level":"ERROR","logger":"io.quarkus.runtime.Application","message":"Failed to start application: java.io.IOException: keystore password was incorrect","exception":"java.io.IOException"}`,
    ].join('\n');
    /** the ExternalSecret's Updated event `updatedMinAgo` minutes ago */
    const world = (log: string, updatedMinAgo: number): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 1, 0),
        appPod(app, '69d7c5b8f3', 'k8r2v', ns, [crashing(app, image)], { created: 50 }),
      ],
      events: [
        backOff(ns, pod, app),
        {
          ...kubeEvent(
            ns,
            { kind: 'ExternalSecret', name: 'partner-gateway-tls' },
            'Normal',
            'Updated',
            'Updated Secret',
            updatedMinAgo,
            updatedMinAgo,
            1,
            'external-secrets',
          ),
          involvedObject: {
            apiVersion: 'external-secrets.io/v1beta1',
            kind: 'ExternalSecret',
            name: 'partner-gateway-tls',
            namespace: ns,
          },
        },
      ],
      previous: { [pod]: log },
    });
    const ask = 'partner-gateway in edge crash-loops since this morning';

    it.each([
      ['a Spring Boot trace', spring],
      ['JSON records', json],
    ])(
      '%s; the ExternalSecret partner-gateway-tls was Updated 3 h before: the keystore password does not match, and that update is named with its time',
      async (_, log) => {
        const r = await investigateAt(apiTools(world(log, 3 * H)), ask, NOW, ns);
        const a = answerOf(r.result);
        expect(a).toContain(
          "cannot open its keystore: the password it is given is not the keystore's",
        );
        expect(a).toContain('keystore password was incorrect');
        expect(a).toContain(`ExternalSecret partner-gateway-tls was updated at ${ago(3 * H)}`);
      },
    );

    it("near miss: JSON records, the ExternalSecret's last update 2 days before the error (outside the day before): the keystore answer, no update named", async () => {
      const r = await investigateAt(apiTools(world(json, 2 * 24 * H)), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain('cannot open its keystore');
      expect(a).not.toContain('was updated at');
    });
  });

  // ---------------------------------------------------------------- 9. listening on another port
  describe("9. an app listening on another port than its Service's targetPort", () => {
    const ns = 'billing';
    const app = 'invoice-portal';
    const image = 'registry.example.net/billing/invoice-portal:6.0.0';
    const controller = 'ingress-nginx-controller-5d9b8c7f46-h4n8s';
    const ips = ['10.31.88.71', '10.31.88.72'];
    const pods = [`${app}-7b6c5d9f84-c2v6n`, `${app}-7b6c5d9f84-j9x3t`];
    /** the app listens on `listen` (env HTTP_PORT); its Service sends to 8080 */
    const world = (listen: number, readiness: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('ingress-nginx'),
        deploymentObj(app, ns, [image], 2, 2, [], { created: 60 * 24 * 200 }),
        ...pods.map((name, i) => {
          const pod = withEnv(
            appPod(
              app,
              '7b6c5d9f84',
              name.slice(-5),
              ns,
              [{ name: app, image, ports: [{ containerPort: 8080, protocol: 'TCP' }] }],
              {
                created: 38,
                podIP: ips[i],
              },
            ),
            { HTTP_PORT: String(listen), LOG_FORMAT: 'json' },
          );
          if (readiness) {
            const c = (pod['spec'] as { containers: Obj[] }).containers[0]!;
            c['readinessProbe'] = { tcpSocket: { port: 8080 }, periodSeconds: 10 };
          }
          return pod;
        }),
        serviceObj(app, ns, { app }, 8080, { port: 80 }),
        podObj({
          name: controller,
          ns: 'ingress-nginx',
          labels: {
            'app.kubernetes.io/name': 'ingress-nginx',
            'app.kubernetes.io/component': 'controller',
          },
          owner: { kind: 'ReplicaSet', name: 'ingress-nginx-controller-5d9b8c7f46' },
          boxes: [
            { name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.11.3' },
          ],
        }),
      ],
      logs: {
        ...Object.fromEntries(
          pods.map((name) => [
            name,
            [
              `{"level":"info","time":"${ago(37)}","msg":"loading invoice templates","count":42}`,
              `{"level":"info","time":"${ago(37)}","msg":"http server listening","addr":"0.0.0.0:${listen}"}`,
            ].join('\n'),
          ]),
        ),
        [controller]: [31, 22, 14, 6, 2]
          .map(
            (m, i) =>
              `${ago(m).slice(0, 19).replace(/-/g, '/').replace('T', ' ')} [error] 28#28: *${51220 + i * 37} connect() failed (111: Connection refused) while connecting to upstream, client: 10.31.0.9, server: invoices.example.net, request: "GET /invoices/2026-02 HTTP/2.0", upstream: "http://${ips[i % 2]}:8080/invoices/2026-02", host: "invoices.example.net"`,
          )
          .join('\n'),
      },
    });
    const ask = 'invoice-portal in billing answers 502 since the deploy at 11:20';

    it('"listening","addr":"0.0.0.0:9090" (env HTTP_PORT=9090), Service targetPort 8080, ingress-nginx refused at <podIP>:8080, no readiness probe: both ports, the Service, the env var, the endpoints', async () => {
      const r = await investigateAt(apiTools(world(9090, false)), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain(
        `${app} listens on port 9090 (env HTTP_PORT=9090), but its Service ${app} sends traffic to port 8080 (targetPort)`,
      );
      expect(a).toContain('Connection refused');
      expect(a).toContain('with no readiness probe the pods stay in its endpoints');
    });

    it('with a readiness probe on 8080: the port claim, without the endpoints sentence', async () => {
      const r = await investigateAt(apiTools(world(9090, true)), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain('listens on port 9090 (env HTTP_PORT=9090)');
      expect(a).not.toContain('no readiness probe');
    });

    it("near miss: the app listens on 8080, the targetPort (the same refusals in ingress-nginx's log): no port claim", async () => {
      const r = await investigateAt(apiTools(world(8080, false)), ask, NOW, ns);
      expect(r.text).not.toMatch(/targetPort|listens on port/);
    });
  });

  // ---------------------------------------------------------------- 10. drain longer than the grace period
  describe("10. a drain timeout longer than the pods' grace period", () => {
    const ns = 'media';
    const app = 'stream-relay';
    const image = 'registry.example.net/media/stream-relay:3.3.5';
    const hash = '5c7b9d8f62';
    const live = [`${app}-${hash}-b7k4m`, `${app}-${hash}-n2w8r`];
    const gone = [`${app}-8d6f4c9b17-q5t1x`, `${app}-8d6f4c9b17-v3p6z`];
    const world = (o: {
      env?: Record<string, string>;
      grace?: number;
      log?: string[];
      /** Killing events of the old ReplicaSet's pods, still listed Terminating when `listed` */
      killing?: boolean;
      listed?: boolean;
    }): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 2, 2),
        ...live.map((name, i) => {
          let pod = appPod(app, hash, name.slice(-5), ns, [{ name: app, image }], {
            created: 12,
            podIP: `10.31.88.${140 + i}`,
          });
          if (o.env) pod = withEnv(pod, o.env);
          if (o.grace !== undefined)
            (pod['spec'] as Obj)['terminationGracePeriodSeconds'] = o.grace;
          return pod;
        }),
        ...(o.listed ? gone : []).map((name, i) => {
          const pod = appPod(app, '8d6f4c9b17', name.slice(-5), ns, [{ name: app, image }], {
            created: 60 * 24 * 6,
            podIP: `10.31.88.${150 + i}`,
          });
          metaOf(pod)['deletionTimestamp'] = ago(0.5);
          metaOf(pod)['deletionGracePeriodSeconds'] = o.grace ?? 30;
          if (o.grace !== undefined)
            (pod['spec'] as Obj)['terminationGracePeriodSeconds'] = o.grace;
          return o.env ? withEnv(pod, o.env) : pod;
        }),
      ],
      events: o.killing
        ? gone.map((name) =>
            kubeEvent(
              ns,
              { kind: 'Pod', name },
              'Normal',
              'Killing',
              `Stopping container ${app}`,
              1,
            ),
          )
        : [],
      logs: o.log ? Object.fromEntries(live.map((name) => [name, o.log!.join('\n')])) : undefined,
    });
    const ask = 'stream-relay in media drops live connections on every deploy';

    it('env SHUTDOWN_DRAIN_TIMEOUT=60s, no terminationGracePeriodSeconds (30), Killing events of the old pods still Terminating: killed before the graceful shutdown ends, 60s and 30', async () => {
      const r = await investigateAt(
        apiTools(
          world({
            env: { SHUTDOWN_DRAIN_TIMEOUT: '60s', LISTEN_ADDR: ':8443' },
            killing: true,
            listed: true,
          }),
        ),
        ask,
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain("stream-relay's pods are killed before their graceful shutdown ends");
      expect(a).toContain('it drains for up to 60s (env SHUTDOWN_DRAIN_TIMEOUT=60s)');
      expect(a).toContain('terminationGracePeriodSeconds is 30');
    });

    it('"drain_timeout":"45s" logged and a SIGTERM logged, grace period 20: the same, with both values', async () => {
      const r = await investigateAt(
        apiTools(
          world({
            grace: 20,
            log: [
              `{"level":"info","ts":"${ago(11)}","msg":"relay started","listen":":8443","drain_timeout":"45s"}`,
              `{"level":"warn","ts":"${ago(2)}","msg":"received SIGTERM, draining 311 connections"}`,
            ],
          }),
        ),
        ask,
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain("stream-relay's pods are killed before their graceful shutdown ends");
      expect(a).toContain('it drains for up to 45s');
      expect(a).toContain('terminationGracePeriodSeconds is 20');
    });

    it('near miss: SHUTDOWN_DRAIN_TIMEOUT=60s with terminationGracePeriodSeconds 90 (the drain fits), Killing events: no claim', async () => {
      const r = await investigateAt(
        apiTools(
          world({
            env: { SHUTDOWN_DRAIN_TIMEOUT: '60s', LISTEN_ADDR: ':8443' },
            grace: 90,
            killing: true,
            listed: true,
          }),
        ),
        ask,
        NOW,
        ns,
      );
      expect(r.text).not.toMatch(/graceful shutdown ends|terminationGracePeriodSeconds/);
    });
  });

  // ---------------------------------------------------------------- 11. a JWKS without the rotated key
  describe('11. a service logging JWKSNoMatchingKey', () => {
    const ns = 'identity-edge';
    const app = 'orders-bff';
    const image = 'registry.example.net/web/orders-bff:2.18.0';
    const pod = `${app}-84f6d7c9b5-s6q2h`;
    const cronJob = (name: string, suspend: boolean): Obj => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 150) },
      spec: {
        schedule: '0 */6 * * *',
        suspend,
        jobTemplate: {
          spec: {
            template: {
              spec: {
                restartPolicy: 'OnFailure',
                containers: [
                  { name: 'sync', image: 'registry.example.net/platform/jwks-fetch:1.4.0' },
                ],
              },
            },
          },
        },
      },
      status: { lastScheduleTime: ago(60 * 24 * 9), lastSuccessfulTime: ago(60 * 24 * 9) },
    });
    const configMap = (name: string): Obj => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 150) },
      data: {
        'keys.json':
          '{"keys":[{"kty":"RSA","kid":"sig-2025-11","use":"sig","alg":"RS256","n":"0vx7agoebGcQSuuPiLJXZpt","e":"AQAB"}]}',
      },
    });
    const noKey = {
      type: 'JWKSNoMatchingKey',
      message: 'no applicable key found in the JSON Web Key Set',
      code: 'ERR_JWKS_NO_MATCHING_KEY',
    };
    const world = (more: Obj[], err: Record<string, string> = noKey): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 1, 1),
        appPod(app, '84f6d7c9b5', 's6q2h', ns, [{ name: app, image }]),
        ...more,
      ],
      logs: {
        [pod]: [21, 16, 12, 7, 3]
          .map(
            (m, i) =>
              `{"level":50,"time":${NOW - m * 60_000},"pid":1,"hostname":"${pod}","req":{"method":"GET","url":"/api/orders?page=${i + 1}"},"err":${JSON.stringify(err)},"msg":"token verification failed"}`,
          )
          .join('\n'),
      },
    });
    const ask =
      'orders-bff in identity-edge answers 401 to every signed-in user since this morning';

    it('with ConfigMap orders-bff-jwks and the suspended CronJob jwks-refresh: the rotated signing key, the old key set, both named', async () => {
      const r = await investigateAt(
        apiTools(world([configMap('orders-bff-jwks'), cronJob('jwks-refresh', true)])),
        ask,
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain('the identity provider rotated its signing key');
      expect(a).toContain('still verifies with the old key set from ConfigMap orders-bff-jwks');
      expect(a).toContain('the CronJob jwks-refresh that should refresh it is suspended');
    });

    it('near miss: its ConfigMap named for something else and the CronJob jwks-refresh running (not suspended): the rotated key, no ConfigMap or CronJob named', async () => {
      const r = await investigateAt(
        apiTools(world([configMap('orders-bff-settings'), cronJob('jwks-refresh', false)])),
        ask,
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain('the identity provider rotated its signing key');
      expect(a).not.toMatch(/ConfigMap|CronJob|suspended/);
    });

    it('near miss: JWTExpired ("exp" claim timestamp check failed) with the same ConfigMap and suspended CronJob: no rotated-key claim', async () => {
      const r = await investigateAt(
        apiTools(
          world([configMap('orders-bff-jwks'), cronJob('jwks-refresh', true)], {
            type: 'JWTExpired',
            message: '"exp" claim timestamp check failed',
            code: 'ERR_JWT_EXPIRED',
          }),
        ),
        ask,
        NOW,
        ns,
      );
      expect(r.text).not.toMatch(/rotated its signing key|JSON Web Key Set does not hold/);
    });
  });

  // ---------------------------------------------------------------- 12. MongoDB not authorized
  describe('12. MongoDB "not authorized on <db> to execute command"', () => {
    const ns = 'catalog';
    const app = 'review-service';
    const image = 'registry.example.net/catalog/review-service:4.9.2';
    const pod = `${app}-6c8d9f7b53-f3j8d`;
    const world = (error: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 1, 1),
        withEnv(appPod(app, '6c8d9f7b53', 'f3j8d', ns, [{ name: app, image }]), {
          MONGODB_URI: `mongodb://reviews@reviews-mongo-0.reviews-mongo.${ns}.svc.cluster.local:27017/reviews?authSource=admin`,
        }),
      ],
      logs: {
        [pod]: [19, 14, 10, 6, 2]
          .map(
            (m, i) =>
              `${ago(m)} ERROR reviews.api: GET /products/SKU-${5530 + i}/reviews failed: ${error}`,
          )
          .join('\n'),
      },
    });
    const ask = 'review-service in catalog: product reviews fail to load since 11:40';

    it('"(Unauthorized) not authorized on reviews to execute command { find: ... }": authenticated but not authorized on reviews, code 13', async () => {
      const r = await investigateAt(
        apiTools(
          world(
            `MongoServerError: (Unauthorized) not authorized on reviews to execute command { find: "reviews", filter: { productId: "SKU-5530" }, limit: 20, lsid: { id: UUID("4f1c2a9e-8b7d-4e3f-a6c5-0d9b8e7f6a21") }, $db: "reviews" }`,
          ),
        ),
        ask,
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain('is authenticated to MongoDB but not authorized on database reviews');
      expect(a).toContain('code 13');
    });

    it('near miss: "Authentication failed." (code 18, the user itself refused): no "authenticated but not authorized" claim', async () => {
      const r = await investigateAt(
        apiTools(world('MongoServerError: Authentication failed.')),
        ask,
        NOW,
        ns,
      );
      expect(r.text).toContain('Authentication failed');
      expect(r.text).not.toMatch(/not authorized on|code 13/);
    });
  });
});

describe('rules of c55694e', () => {
  // ---------------------------------------------------------------- 13. the kubelet's memory condition
  describe('13. a node whose kubelet "has insufficient memory available" (MemoryPressure)', () => {
    const ns = 'reporting';
    const app = 'pdf-export';
    const image = 'registry.example.net/reporting/pdf-export:1.7.3';
    const pressed = 'ip-10-31-12-205.eu-west-1.compute.internal';
    const nodeObj: Obj = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: pressed,
        labels: { 'kubernetes.io/hostname': pressed },
        creationTimestamp: ago(60 * 24 * 33),
      },
      spec: {
        taints: [
          { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule', timeAdded: ago(16) },
        ],
      },
      status: {
        conditions: [
          {
            type: 'MemoryPressure',
            status: 'True',
            reason: 'KubeletHasInsufficientMemory',
            message: 'kubelet has insufficient memory available',
            lastHeartbeatTime: ago(1),
            lastTransitionTime: ago(16),
          },
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
            lastHeartbeatTime: ago(1),
            lastTransitionTime: ago(60 * 24 * 33),
          },
        ],
        allocatable: { cpu: '3920m', memory: '15136700Ki', pods: '58' },
      },
    };
    const pods = (pending: boolean): Obj[] =>
      pending
        ? [
            appPod(app, '7f4b6c9d28', 'l8m2c', ns, [{ name: app, image }], {
              phase: 'Pending',
              created: 14,
              podIP: null,
            }),
          ]
        : [
            appPod(app, '7f4b6c9d28', 'l8m2c', ns, [{ name: app, image }], {
              node: pressed,
              created: 60 * 24,
            }),
          ];

    it('the node condition only, the pod running on that node: not answered as "stays Pending"', async () => {
      const r = await investigateAt(
        apiTools({
          objects: [
            namespaceObj(ns),
            nodeObj,
            deploymentObj(app, ns, [image], 1, 1),
            ...pods(false),
          ],
        }),
        `pdf-export in ${ns} is slow, its node ${pressed} looks under pressure`,
        NOW,
        ns,
      );
      expect(r.text).toContain('kubelet has insufficient memory available');
      expect(r.text).not.toMatch(/stays Pending|no node has enough free memory/);
    });

    it('near miss: the scheduler\'s FailedScheduling "Insufficient memory" for a Pending pod: stays Pending', async () => {
      const r = await investigateAt(
        apiTools({
          objects: [
            namespaceObj(ns),
            nodeObj,
            deploymentObj(app, ns, [image], 1, 0),
            ...pods(true),
          ],
          events: [
            warningEvent(
              ns,
              { kind: 'Pod', name: `${app}-7f4b6c9d28-l8m2c` },
              'FailedScheduling',
              '0/4 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/memory-pressure: }, 3 Insufficient memory. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.',
              14,
              1,
              9,
              'default-scheduler',
            ),
          ],
        }),
        `pdf-export in ${ns} is slow, its node ${pressed} looks under pressure`,
        NOW,
        ns,
      );
      expect(answerOf(r.result)).toContain('stays Pending: no node has enough free memory');
    });
  });
});
