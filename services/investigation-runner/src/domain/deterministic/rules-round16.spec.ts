/**
 * The engine rules of 9d96e7a, one test per rule, each with a world where the rule must not fire,
 * on outputs shaped like real ones (Kubernetes API objects and events, node-problem-detector's
 * node conditions, Python requests and redis-py, the Node MongoDB driver, a Go service's JSON
 * log, nginx, a Linkerd proxy): a gRPC DeadlineExceeded that is no Job deadline, a kernel
 * deadlock on a node, TLS spoken to a plain-HTTP targetPort, Redis maxclients, a claim being
 * deleted while a Job still mounts it, a MongoDB client pinned to one member, an init container's
 * missing image, a log agent OOM-killed on the subject's nodes only, the subject the failure is on
 * not called healthy, a volume mounted over /usr/local/bin, GOMAXPROCS over a CPU limit, short
 * log levels in upper case only, a ClusterIP of another namespace, and a Linkerd client failing
 * fast to pods without the proxy.
 */
import { CAUSE_CATALOG } from './cause-catalog.data';
import { conclude } from './conclude';
import { compile } from './diagnose';
import { parseLogLine } from './observe/logs';
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  describePod,
  engineRun,
  eventsTable,
  findingsOf,
  investigateAt,
  jsonOutputs,
  namespaceObj,
  podObj,
  podsTable,
  serviceObj,
  str,
  table,
  textTools,
  warningEvent,
  statefulSetObj,
  withEnv,
  type ApiWorld,
  type Box,
  type FakeTool,
} from './spec-world';

type Obj = Record<string, unknown>;

const WORKER = 'ip-10-44-7-19.eu-west-1.compute.internal';

/** a pod of a Deployment's ReplicaSet on `node` */
const rsPod = (
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
    node: WORKER,
    created: 60 * 6,
    podIP: '10.44.12.31',
    boxes,
    ...more,
  });

/** a container in CrashLoopBackOff whose last run ended as `last` says */
const looping = (
  name: string,
  image: string,
  last: Record<string, unknown>,
  restarts = 9,
  limits?: Record<string, string>,
): Box => ({
  name,
  image,
  ready: false,
  restarts,
  state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting ${name}` } },
  lastState: { terminated: { ...last, startedAt: ago(6), finishedAt: ago(5) } },
  ...(limits ? { resources: { limits, requests: limits } } : {}),
});

/** a pod object with its spec (or status) changed by `edit` (a copy) */
const edited = (pod: Obj, edit: (spec: Obj, status: Obj) => void): Obj => {
  const copy = JSON.parse(JSON.stringify(pod)) as Obj;
  edit(copy['spec'] as Obj, copy['status'] as Obj);
  return copy;
};

/** a StatefulSet of `n` members, `ready` of them ready; `member` changes member i */
const members = (
  name: string,
  ns: string,
  image: string,
  n: number,
  ready: number,
  member?: (i: number) => Partial<Parameters<typeof podObj>[0]>,
): Obj[] =>
  statefulSetObj(name, ns, image, n, {
    ready,
    member,
    node: WORKER,
    podAge: 12,
    ipPrefix: '10.44.20',
    ipBase: 10,
  });

/** `kubectl top pod` as a tool: [pod, cpu, memory] */
const podsTop = (rows: [string, string, string][]): FakeTool => ({
  name: 'pods_top',
  description: 'List the resource consumption (CPU and memory) of pods, as kubectl top pod',
  properties: { namespace: str, all_namespaces: { type: 'boolean' } },
  handler: () => table(['NAME', 'CPU(cores)', 'MEMORY(bytes)'], rows),
});

/** a Node object with node-problem-detector's conditions beside Ready */
const nodeObj = (name: string, conditions: [string, string, string, string][]): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name,
    labels: { 'kubernetes.io/hostname': name, 'node.kubernetes.io/instance-type': 'm6i.2xlarge' },
    creationTimestamp: ago(60 * 24 * 40),
  },
  spec: { providerID: `aws:///eu-west-1b/i-0${name.length}7c3e9a51d2f4b8` },
  status: {
    conditions: conditions.map(([type, status, reason, message]) => ({
      type,
      status,
      reason,
      message,
      lastHeartbeatTime: ago(1),
      lastTransitionTime: ago(type === 'Ready' ? 60 * 24 * 40 : 34),
    })),
    allocatable: { cpu: '7910m', memory: '31189000Ki', pods: '58' },
    capacity: { cpu: '8', memory: '32329672Ki', pods: '58' },
  },
});

/** the Ready=True and pressure conditions of a node that works */
const kubeletOk: [string, string, string, string][] = [
  [
    'MemoryPressure',
    'False',
    'KubeletHasSufficientMemory',
    'kubelet has sufficient memory available',
  ],
  ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
];

// ------------------------------------------------------------------------------------------------

describe('rules of 9d96e7a', () => {
  it('"Readiness probe errored: rpc error: code = DeadlineExceeded" on a Deployment pod: no Job deadline claim; a Job with condition Failed/DeadlineExceeded: activeDeadlineSeconds', async () => {
    const ns = 'fulfilment';
    const image = 'registry.example.io/fulfil/route-planner:3.9.2';
    const hash = '6c8f7d9b41';
    const pod = `route-planner-${hash}-q8v2n`;
    const probe = await investigateAt(
      apiTools({
        objects: [
          namespaceObj(ns),
          deploymentObj('route-planner', ns, [image], 1, 0, [], { created: 60 * 24 * 80 }),
          rsPod('route-planner', hash, 'q8v2n', ns, [
            { name: 'route-planner', image, ready: false, started: true },
          ]),
        ],
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: pod },
            'Unhealthy',
            'Readiness probe errored: rpc error: code = DeadlineExceeded desc = context deadline exceeded',
            25,
            1,
            140,
          ),
        ],
        logs: {
          [pod]: [
            '2026-03-10T11:36:40.118Z INFO  grpc server listening on :50051',
            '2026-03-10T11:37:02.554Z WARN  solver: plan for depot 14 took 31.2s',
          ].join('\n'),
        },
      }),
      'route-planner in fulfilment is not ready for 25 minutes, readiness keeps failing',
      NOW,
      ns,
    );
    expect(probe.text).toContain('route-planner');
    expect(probe.text).not.toMatch(/activeDeadlineSeconds/);
    expect(probe.text).not.toMatch(/failed with DeadlineExceeded/);

    const job = 'manifest-export-29561040';
    const deadline = await investigateAt(
      apiTools({
        objects: [
          namespaceObj(ns),
          {
            apiVersion: 'batch/v1',
            kind: 'Job',
            metadata: {
              name: job,
              namespace: ns,
              labels: { 'job-name': job },
              creationTimestamp: ago(75),
              ownerReferences: [
                {
                  apiVersion: 'batch/v1',
                  kind: 'CronJob',
                  name: 'manifest-export',
                  controller: true,
                },
              ],
            },
            spec: {
              activeDeadlineSeconds: 1800,
              backoffLimit: 2,
              template: {
                spec: {
                  restartPolicy: 'Never',
                  containers: [
                    { name: 'export', image: 'registry.example.io/fulfil/export:1.4.0' },
                  ],
                },
              },
            },
            status: {
              startTime: ago(75),
              failed: 1,
              conditions: [
                {
                  type: 'Failed',
                  status: 'True',
                  reason: 'DeadlineExceeded',
                  message: 'Job was active longer than specified deadline',
                  lastTransitionTime: ago(45),
                },
              ],
            },
          },
        ],
        events: [
          warningEvent(
            ns,
            { kind: 'Job', name: job },
            'DeadlineExceeded',
            'Job was active longer than specified deadline',
            45,
            45,
            1,
            'job-controller',
          ),
        ],
      }),
      `the job ${job} in fulfilment failed, no manifest export this morning`,
      NOW,
      ns,
    );
    expect(answerOf(deadline.result)).toMatch(/activeDeadlineSeconds/);
  });

  it('a node with KernelDeadlock=True (DockerHung, "task docker:… blocked for more than 120 seconds") under a hanging pod: KernelDeadlock and the node; KernelDeadlock=False: not said', async () => {
    const ns = 'catalog';
    const image = 'registry.example.io/catalog/facet-index:2.2.7';
    const hash = '4d7b9c8f25';
    const pod = `facet-index-${hash}-m5t9w`;
    const world = (deadlock: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('facet-index', ns, [image], 1, 0, [], { created: 60 * 24 * 120 }),
        rsPod(
          'facet-index',
          hash,
          'm5t9w',
          ns,
          [
            {
              name: 'facet-index',
              image,
              ready: false,
              started: null,
              state: { waiting: { reason: 'ContainerCreating' } },
            },
          ],
          { phase: 'Pending', scheduled: true, created: 28 },
        ),
        nodeObj(WORKER, [
          deadlock
            ? [
                'KernelDeadlock',
                'True',
                'DockerHung',
                'kernel: INFO: task docker:1234 blocked for more than 120 seconds.',
              ]
            : ['KernelDeadlock', 'False', 'KernelHasNoDeadlock', 'kernel has no deadlock'],
          ['ReadonlyFilesystem', 'False', 'FilesystemIsNotReadOnly', 'Filesystem is not read-only'],
          ...kubeletOk,
        ]),
      ],
      events: [],
    });
    const ask = `pod ${pod} in catalog hangs in ContainerCreating for almost 30 minutes`;

    const hung = await investigateAt(apiTools(world(true)), ask, NOW, ns);
    const a = answerOf(hung.result);
    expect(a).toMatch(/KernelDeadlock/);
    expect(a).toContain(WORKER);

    const fine = await investigateAt(apiTools(world(false)), ask, NOW, ns);
    expect(fine.text).not.toMatch(/kernel deadlock|KernelDeadlock|DockerHung/i);
  });

  it('"[SSL: WRONG_VERSION_NUMBER] wrong version number" calling a Service whose 8443 maps to targetPort 8080: plain HTTP and the targetPort; CERTIFICATE_VERIFY_FAILED: no plain-HTTP claim', async () => {
    const ns = 'treasury';
    const image = 'registry.example.io/treasury/settlement-sync:5.0.3';
    const hash = '8b6c9d7f12';
    const pod = `settlement-sync-${hash}-z7k4p`;
    const ledgerImage = 'registry.example.io/treasury/ledger:12.1.0';
    const world = (ssl: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('settlement-sync', ns, [image], 1, 1, [], { created: 60 * 24 * 90 }),
        rsPod('settlement-sync', hash, 'z7k4p', ns, [{ name: 'settlement-sync', image }]),
        deploymentObj('ledger', ns, [ledgerImage], 2, 2),
        ...['c4n8r', 'x2w6j'].map((s, i) =>
          rsPod('ledger', '7f5d8c6b93', s, ns, [{ name: 'ledger', image: ledgerImage }], {
            podIP: `10.44.15.${60 + i}`,
            created: 60 * 24 * 3,
          }),
        ),
        serviceObj('ledger', ns, { app: 'ledger' }, 8080, { port: 8443, portName: 'https' }),
      ],
      logs: {
        [pod]: [0, 1, 2]
          .map(
            (i) =>
              `2026-03-10 11:4${5 + i}:0${i},221 ERROR settlement_sync.worker: batch ${8812 + i} failed: HTTPSConnectionPool(host='ledger.${ns}.svc.cluster.local', port=8443): Max retries exceeded with url: /v2/postings (Caused by SSLError(SSLError(1, '[SSL: ${ssl}] ${ssl === 'WRONG_VERSION_NUMBER' ? 'wrong version number' : 'certificate verify failed: unable to get local issuer certificate'} (_ssl.c:1006)')))`,
          )
          .join('\n'),
      },
    });
    const ask = 'settlement-sync in treasury fails every batch since 11:40';

    const plain = await investigateAt(apiTools(world('WRONG_VERSION_NUMBER')), ask, NOW, ns);
    const a = answerOf(plain.result);
    expect(a).toMatch(/plain HTTP/);
    expect(a).toMatch(/targetPort 8080/);

    const verify = await investigateAt(apiTools(world('CERTIFICATE_VERIFY_FAILED')), ask, NOW, ns);
    expect(verify.text).toMatch(/does not trust/);
    expect(verify.text).not.toMatch(/plain HTTP|plain-HTTP/);
  });

  it('"ERR max number of clients reached" from Redis: maxclients and a connection leak; "NOAUTH Authentication required": no maxclients claim', async () => {
    const ns = 'basket';
    const image = 'registry.example.io/basket/basket-api:8.3.1';
    const hash = '5e9c7b8d64';
    const pod = `basket-api-${hash}-h3r8d`;
    const world = (err: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('basket-api', ns, [image], 1, 1, [], { created: 60 * 24 * 60 }),
        withEnv(rsPod('basket-api', hash, 'h3r8d', ns, [{ name: 'basket-api', image }]), {
          REDIS_URL: `redis://basket-cache.${ns}.svc.cluster.local:6379/0`,
        }),
        ...members('basket-cache', ns, 'docker.io/library/redis:7.2.5', 1, 1),
        serviceObj('basket-cache', ns, { app: 'basket-cache' }, 6379, { portName: 'redis' }),
      ],
      logs: {
        [pod]: [0, 1, 2]
          .map(
            (i) =>
              `2026-03-10 11:4${4 + i}:1${i},508 ERROR basket.routes: POST /basket/items failed: redis.exceptions.${err.startsWith('NOAUTH') ? 'AuthenticationError' : 'ConnectionError'}: ${err}`,
          )
          .join('\n'),
      },
    });
    const ask = 'basket-api in basket answers 500 on every add-to-basket since 11:44';

    const full = await investigateAt(
      apiTools(world('ERR max number of clients reached')),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(full.result);
    expect(a).toMatch(/maxclients/);
    expect(a).toMatch(/leak/);

    const auth = await investigateAt(
      apiTools(world('NOAUTH Authentication required.')),
      ask,
      NOW,
      ns,
    );
    expect(auth.text).toContain('NOAUTH');
    expect(auth.text).not.toMatch(/maxclients|max number of clients/);
  });

  it('FailedScheduling "persistentvolumeclaim \\"data\\" is being deleted" while a Job pod still mounts it (its pod volumes, or the claim\'s describe "Used By"): the claim and that pod named; an unbound claim: no deletion claim', async () => {
    const ns = 'insights';
    const image = 'registry.example.io/insights/kpi-api:4.6.0';
    const hash = '9a7c5d8e36';
    const pod = `kpi-api-${hash}-p6x2b`;
    const holder = 'cube-rollup-29561100-w8l3f';
    const world = (message: string, withHolder: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('kpi-api', ns, [image], 1, 0, [], { created: 60 * 24 * 100 }),
        rsPod('kpi-api', hash, 'p6x2b', ns, [{ name: 'kpi-api', image, ready: false }], {
          phase: 'Pending',
          scheduled: false,
          created: 35,
          claims: ['data'],
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              reason: 'Unschedulable',
              message,
            },
          ],
        }),
        ...(withHolder
          ? [
              podObj({
                name: holder,
                ns,
                labels: { 'job-name': 'cube-rollup-29561100' },
                owner: { kind: 'Job', name: 'cube-rollup-29561100' },
                node: WORKER,
                created: 70,
                restartPolicy: 'Never',
                claims: ['data'],
                boxes: [{ name: 'rollup', image: 'registry.example.io/insights/rollup:2.0.9' }],
              }),
            ]
          : []),
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: {
            name: 'data',
            namespace: ns,
            creationTimestamp: ago(60 * 24 * 100),
            ...(withHolder
              ? { deletionTimestamp: ago(40), finalizers: ['kubernetes.io/pvc-protection'] }
              : {}),
          },
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '50Gi' } },
            storageClassName: 'gp3',
          },
          status: withHolder
            ? { phase: 'Bound', capacity: { storage: '50Gi' } }
            : { phase: 'Pending' },
        },
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: pod },
          'FailedScheduling',
          message,
          35,
          1,
          14,
          'default-scheduler',
        ),
      ],
    });
    const ask =
      'kpi-api in insights is down since 11:25, I cleaned up some old volumes this morning';

    const deleting = await investigateAt(
      apiTools(
        world(
          '0/3 nodes are available: persistentvolumeclaim "data" is being deleted. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
          true,
        ),
      ),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(deleting.result);
    expect(a).toMatch(/PersistentVolumeClaim data is being deleted/);
    expect(a).toContain(holder);

    // kubectl text: the holder is only a row of the pod table; the claim's describe names it
    const podName = `kpi-api-${hash}-p6x2b`;
    const deleting2 = await investigateAt(
      textTools({
        tables: {
          pod: podsTable([
            [podName, '0/1', 'Pending', '0', '35m'],
            [holder, '1/1', 'Running', '0', '70m', WORKER],
          ]),
        },
        describe: {
          [`pod/${podName}`]: describePod({
            name: podName,
            namespace: ns,
            labels: ['app=kpi-api', `pod-template-hash=${hash}`],
            controlledBy: `ReplicaSet/kpi-api-${hash}`,
            status: 'Pending',
            container: { name: 'kpi-api', image },
            conditions: [['PodScheduled', 'False']],
            claims: ['data'],
            events: [
              [
                'Warning',
                'FailedScheduling',
                '35m (x14 over 35m)',
                'default-scheduler',
                '0/3 nodes are available: persistentvolumeclaim "data" is being deleted. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
              ],
            ],
          }),
          'persistentvolumeclaim/data': [
            'Name:          data',
            `Namespace:     ${ns}`,
            'StorageClass:  gp3',
            'Status:        Terminating (lasts 40m)',
            'Volume:        pvc-3b1f7c2e-5d8a-4e96-b0c7-9a2d6e4f1b83',
            'Labels:        <none>',
            'Annotations:   pv.kubernetes.io/bind-completed: yes',
            'Finalizers:    [kubernetes.io/pvc-protection]',
            'Capacity:      50Gi',
            'Access Modes:  RWO',
            'VolumeMode:    Filesystem',
            `Used By:       ${holder}`,
            'Events:        <none>',
            '',
          ].join('\n'),
        },
        events: eventsTable([
          [
            '1m',
            'Warning',
            'FailedScheduling',
            `pod/${podName}`,
            '0/3 nodes are available: persistentvolumeclaim "data" is being deleted. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
          ],
        ]),
      }),
      ask,
      NOW,
      ns,
    );
    const t = answerOf(deleting2.result);
    expect(t).toMatch(/PersistentVolumeClaim data is being deleted/);
    expect(t).toContain(`pod ${holder}`);

    const unbound = await investigateAt(
      apiTools(
        world(
          '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
          false,
        ),
      ),
      ask,
      NOW,
      ns,
    );
    expect(unbound.text).toMatch(/unbound/);
    expect(unbound.text).not.toMatch(/being deleted|pvc-protection/);
  });

  it('MongoDB "not primary" from a client with directConnection=true while every member runs: directConnection and the single member; a replica-set URI with two members down: the majority, no directConnection claim', async () => {
    const ns = 'favourites';
    const image = 'registry.example.io/favourites/fav-api:3.3.0';
    const hash = '7d8b6c9f52';
    const pod = `fav-api-${hash}-k9s3m`;
    const mongoImage = 'docker.io/library/mongo:7.0.14';
    const world = (uri: string, down: number): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('fav-api', ns, [image], 1, 1, [], { created: 60 * 24 * 70 }),
        withEnv(rsPod('fav-api', hash, 'k9s3m', ns, [{ name: 'fav-api', image }]), {
          MONGODB_URI: uri,
        }),
        ...members('mongo', ns, mongoImage, 3, 3 - down, (i) =>
          i >= 3 - down
            ? {
                boxes: [looping('mongo', mongoImage, { reason: 'Error', exitCode: 14 })],
              }
            : {},
        ),
        serviceObj('mongo', ns, { app: 'mongo' }, 27017, {
          portName: 'mongo',
          spec: { clusterIP: 'None' },
        }),
      ],
      logs: {
        [pod]: [0, 1, 2]
          .map(
            (i) =>
              `{"level":50,"time":${NOW - (9 - i) * 60_000},"pid":1,"hostname":"${pod}","err":{"type":"MongoServerError","message":"not primary","code":10107,"codeName":"NotWritablePrimary"},"msg":"POST /favourites failed: MongoServerError: not primary"}`,
          )
          .join('\n'),
      },
    });
    const ask = 'fav-api in favourites fails every write since 11:50';

    const pinned = await investigateAt(
      apiTools(world('mongodb://mongo-0.mongo:27017/app?directConnection=true', 0)),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(pinned.result);
    expect(a).toMatch(/directConnection=true/);
    expect(a).toMatch(/single member mongo-0\.mongo:27017/);
    expect(a).not.toMatch(/majority/);

    const majority = await investigateAt(
      apiTools(
        world(
          'mongodb://mongo-0.mongo:27017,mongo-1.mongo:27017,mongo-2.mongo:27017/app?replicaSet=rs0',
          2,
        ),
      ),
      ask,
      NOW,
      ns,
    );
    expect(majority.text).toMatch(/majority/);
    expect(majority.text).not.toMatch(/directConnection|single member/);
  });

  it('an init container\'s image not found: "init container <name>"; the main container\'s image not found: no init-container claim', async () => {
    const ns = 'payouts';
    const image = 'registry.example.io/payouts/reconcile:6.1.0';
    const initImage = 'registry.example.io/payouts/schema-gate:1.9.3';
    const job = 'reconcile-29561000';
    const pod = `${job}-t4d8q`;
    const world = (missing: 'init' | 'main'): ApiWorld => {
      const bad = missing === 'init' ? initImage : image;
      const pullError = `rpc error: code = NotFound desc = failed to pull and unpack image "${bad}": failed to resolve reference "${bad}": ${bad}: not found`;
      const waiting = {
        waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${bad}"` },
      };
      const base = podObj({
        name: pod,
        ns,
        labels: { 'job-name': job },
        owner: { kind: 'Job', name: job },
        node: WORKER,
        created: 50,
        phase: 'Pending',
        restartPolicy: 'Never',
        boxes: [
          {
            name: 'reconcile',
            image,
            ready: false,
            started: false,
            state: missing === 'main' ? waiting : { waiting: { reason: 'PodInitializing' } },
          },
        ],
      });
      return {
        objects: [
          namespaceObj(ns),
          {
            apiVersion: 'batch/v1',
            kind: 'Job',
            metadata: { name: job, namespace: ns, creationTimestamp: ago(50) },
            spec: {
              backoffLimit: 1,
              template: { spec: { containers: [{ name: 'reconcile', image }] } },
            },
            status: { startTime: ago(50), active: 1 },
          },
          edited(base, (spec, status) => {
            spec['initContainers'] = [{ name: 'schema-gate', image: initImage }];
            status['initContainerStatuses'] = [
              {
                name: 'schema-gate',
                image: initImage,
                ready: false,
                restartCount: 0,
                state:
                  missing === 'init'
                    ? waiting
                    : { terminated: { reason: 'Completed', exitCode: 0, finishedAt: ago(48) } },
              },
            ];
          }),
        ],
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: pod },
            'Failed',
            `Failed to pull image "${bad}": ${pullError}`,
            49,
            2,
            12,
          ),
        ],
      };
    };
    const ask = `no payout reconciliation this morning, the job ${job} in payouts never finished`;

    const init = await investigateAt(apiTools(world('init')), ask, NOW, ns);
    const a = answerOf(init.result);
    expect(a).toContain(initImage);
    expect(a).toMatch(/init container schema-gate/);

    const main = await investigateAt(apiTools(world('main')), ask, NOW, ns);
    expect(answerOf(main.result)).toContain(`${image} of`);
    expect(main.text).not.toMatch(/init container/);
  });

  it('"logs from X are missing" while the log shipper DaemonSet is OOMKilled (restarts > 2) on X\'s nodes only: the DaemonSet, OOMKilled and those nodes; all agents healthy: no agent claim', async () => {
    const ns = 'storefront';
    const image = 'registry.example.io/storefront/clickpath:2.8.4';
    const hash = '3f9b7c6d18';
    const busy = [
      'ip-10-44-1-21.eu-west-1.compute.internal',
      'ip-10-44-2-37.eu-west-1.compute.internal',
    ];
    const quiet = 'ip-10-44-3-58.eu-west-1.compute.internal';
    const agentImage = 'docker.io/fluent/fluent-bit:3.1.9';
    const world = (oom: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('telemetry'),
        deploymentObj('clickpath', ns, [image], 2, 2, [], { created: 60 * 24 * 200 }),
        ...['g7k2x', 'v3n9q'].map((s, i) =>
          rsPod('clickpath', hash, s, ns, [{ name: 'clickpath', image }], {
            node: busy[i],
            podIP: `10.44.30.${11 + i}`,
          }),
        ),
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          metadata: {
            name: 'log-forwarder',
            namespace: 'telemetry',
            labels: { app: 'log-forwarder' },
            creationTimestamp: ago(60 * 24 * 300),
          },
          spec: {
            selector: { matchLabels: { app: 'log-forwarder' } },
            template: {
              metadata: { labels: { app: 'log-forwarder' } },
              spec: { containers: [{ name: 'fluent-bit', image: agentImage }] },
            },
          },
          status: {
            desiredNumberScheduled: 3,
            currentNumberScheduled: 3,
            numberReady: oom ? 1 : 3,
            numberAvailable: oom ? 1 : 3,
            updatedNumberScheduled: 3,
          },
        },
        ...[...busy, quiet].map((node, i) =>
          podObj({
            name: `log-forwarder-${['d8f2k', 'm4q7s', 'x9c3v'][i]}`,
            ns: 'telemetry',
            labels: { app: 'log-forwarder', 'controller-revision-hash': '6b9d4c7f8' },
            owner: { kind: 'DaemonSet', name: 'log-forwarder' },
            node,
            created: 60 * 24 * 20,
            podIP: `10.44.40.${21 + i}`,
            boxes: [
              oom && node !== quiet
                ? looping(
                    'fluent-bit',
                    agentImage,
                    { reason: 'OOMKilled', exitCode: 137 },
                    14 + i,
                    { memory: '128Mi', cpu: '200m' },
                  )
                : {
                    name: 'fluent-bit',
                    image: agentImage,
                    resources: { limits: { memory: '128Mi', cpu: '200m' } },
                  },
            ],
          }),
        ),
        ...[...busy, quiet].map((n) => nodeObj(n, kubeletOk)),
      ],
      logs: {
        [`clickpath-${hash}-g7k2x`]:
          '2026-03-10T11:58:01.002Z INFO  flushed 1840 click events to kafka',
        [`clickpath-${hash}-v3n9q`]:
          '2026-03-10T11:58:02.417Z INFO  flushed 1911 click events to kafka',
      },
    });
    const ask = 'logs from clickpath are missing in grafana since 11:20, other services look fine';

    const oom = await investigateAt(apiTools(world(true)), ask, NOW, ns);
    const a = answerOf(oom.result);
    expect(a).toContain('log-forwarder');
    expect(a).toMatch(/OOMKilled/);
    for (const n of busy) expect(a).toContain(n);
    expect(a).not.toContain(quiet);

    const healthy = await investigateAt(apiTools(world(false)), ask, NOW, ns);
    expect(answerOf(healthy.result)).not.toMatch(/log-forwarder|OOMKilled/);
  });

  it('the named subject the failure is on, found after widening, is not called "itself looks healthy"; a named subject that is not: still is', () => {
    const ns = 'treasury';
    const image = 'registry.example.io/treasury/settlement-sync:5.0.3';
    const hash = '8b6c9d7f12';
    const pod = `settlement-sync-${hash}-z7k4p`;
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('settlement-sync', ns, [image], 1, 1, [], { created: 60 * 24 * 90 }),
        rsPod('settlement-sync', hash, 'z7k4p', ns, [{ name: 'settlement-sync', image }]),
        deploymentObj('treasury-api', ns, ['registry.example.io/treasury/api:2.0.0'], 1, 1),
        serviceObj('ledger', ns, { app: 'ledger' }, 8080, { port: 8443, portName: 'https' }),
      ],
      logs: {
        [pod]: `2026-03-10 11:45:00,221 ERROR settlement_sync.worker: batch 8812 failed: HTTPSConnectionPool(host='ledger.${ns}.svc.cluster.local', port=8443): Max retries exceeded with url: /v2/postings (Caused by SSLError(SSLError(1, '[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)')))`,
      },
    };
    // an alert naming the workload and its namespace word
    const message =
      '[FIRING:1] SettlementBatchFailures treasury (settlement-sync critical)\nLabels:\n  namespace = treasury\n  deployment = settlement-sync\nAnnotations:\n  summary = every settlement batch fails since 11:45';
    const scope = scopeIncident(message, { namespace: ns }, NOW);
    const { model } = findingsOf(jsonOutputs(world, ns));
    /** the wider conclusion, as the engine draws it when what the request named looked healthy */
    const wider = (named: string[]) =>
      answerOf(
        conclude(
          engineRun(message, { namespace: ns }),
          scope,
          model,
          compile(CAUSE_CATALOG),
          { runbooks: [], incidents: [], patterns: [] },
          NOW,
          0,
          [],
          named,
        ),
      );
    const named = [...new Set(scope.subjects.map((s) => s.name))];
    expect(named).toContain('settlement-sync');

    const a = wider(named);
    expect(a).toMatch(/speaks TLS to a port that answers plain HTTP/);
    // only the namespace word is said to look healthy, not the workload the failure is on
    expect(/: ([\w, -]+) itself looks healthy/.exec(a)?.[1]).toBe('Treasury');

    const other = wider(['ledger', 'settlement-sync']);
    expect(other).toMatch(/Ledger itself looks healthy; the failure is in settlement-sync/);
  });

  it('exec: "docker-entrypoint.sh": executable file not found with a volume mounted over /usr/local/bin (pod JSON volumeMounts, or describe "/usr/local/bin from probes (rw)"): the mountPath named; without that mount: no mount claim', async () => {
    const ns = 'sessions';
    const image = 'docker.io/library/redis:7.4.1';
    const world = (mounted: boolean): ApiWorld => {
      const last = {
        reason: 'StartError',
        exitCode: 128,
        message:
          'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "docker-entrypoint.sh": executable file not found in $PATH: unknown',
      };
      const objs = members('token-cache', ns, image, 1, 0, () => ({
        boxes: [looping('token-cache', image, last, 7)],
      }));
      const pod = edited(objs[1]!, (spec) => {
        const c = (spec['containers'] as Obj[])[0]!;
        c['volumeMounts'] = [
          { name: 'data', mountPath: '/data' },
          ...(mounted ? [{ name: 'probes', mountPath: '/usr/local/bin' }] : []),
        ];
        spec['volumes'] = [
          { name: 'data', emptyDir: {} },
          ...(mounted
            ? [{ name: 'probes', configMap: { name: 'token-cache-probes', defaultMode: 0o755 } }]
            : []),
        ];
      });
      return {
        objects: [namespaceObj(ns), objs[0]!, pod],
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: 'token-cache-0' },
            'BackOff',
            'Back-off restarting failed container token-cache in pod token-cache-0',
            30,
            1,
            40,
          ),
        ],
      };
    };
    const ask = "token-cache-0 in sessions won't start since the chart upgrade added probe scripts";

    const over = await investigateAt(apiTools(world(true)), ask, NOW, ns);
    const a = answerOf(over.result);
    expect(a).toMatch(/cannot start its command docker-entrypoint\.sh/);
    expect(a).toMatch(/Volume probes is mounted at \/usr\/local\/bin/);

    // kubectl describe: "/usr/local/bin from probes (rw)" under Mounts
    const startError = [
      'Terminated',
      'Reason:    StartError',
      'Message:   failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "docker-entrypoint.sh": executable file not found in $PATH: unknown',
      'Exit Code: 128',
    ];
    const described = await investigateAt(
      textTools({
        tables: {
          pod: podsTable([['token-cache-0', '0/1', 'CrashLoopBackOff', '7', '12d', WORKER]]),
        },
        describe: {
          'pod/token-cache-0': describePod({
            name: 'token-cache-0',
            namespace: ns,
            node: WORKER,
            labels: ['app=token-cache', 'statefulset.kubernetes.io/pod-name=token-cache-0'],
            controlledBy: 'StatefulSet/token-cache',
            status: 'Running',
            container: {
              name: 'token-cache',
              image,
              state: ['Waiting', 'Reason:       CrashLoopBackOff'],
              last: startError,
              restarts: 7,
            },
            conditions: [
              ['Ready', 'False'],
              ['ContainersReady', 'False'],
            ],
          }).replace(
            '    Mounts:\n',
            '    Mounts:\n      /data from data (rw)\n      /usr/local/bin from probes (rw)\n',
          ),
        },
        events: eventsTable([
          [
            '1m',
            'Warning',
            'BackOff',
            'pod/token-cache-0',
            'Back-off restarting failed container token-cache in pod token-cache-0',
          ],
        ]),
      }),
      ask,
      NOW,
      ns,
    );
    expect(answerOf(described.result)).toMatch(/Volume probes is mounted at \/usr\/local\/bin/);

    const plain = await investigateAt(apiTools(world(false)), ask, NOW, ns);
    expect(answerOf(plain.result)).toMatch(/cannot start its command docker-entrypoint\.sh/);
    expect(plain.text).not.toMatch(/mounted at|mountPath/);
  });

  it('a Go service logging {"GOMAXPROCS":64} under a CPU limit of 1, at 998m in kubectl top, with liveness timeouts: GOMAXPROCS and throttling; GOMAXPROCS 2 under a limit of 2: no GOMAXPROCS claim', async () => {
    const ns = 'ingest';
    const image = 'registry.example.io/ingest/beacon-relay:1.17.0';
    const hash = '2c7e9d8b45';
    const suffixes = ['f3h8w', 'r6p2z'];
    const pods = suffixes.map((s) => `beacon-relay-${hash}-${s}`);
    const world = (procs: number, cpu: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('beacon-relay', ns, [image], 2, 1, [], { created: 60 * 24 * 45 }),
        ...suffixes.map((s, i) =>
          rsPod(
            'beacon-relay',
            hash,
            s,
            ns,
            [
              {
                name: 'beacon-relay',
                image,
                restarts: 12 + i,
                ready: i === 1,
                lastState: {
                  terminated: {
                    reason: 'Error',
                    exitCode: 2,
                    startedAt: ago(9),
                    finishedAt: ago(4),
                  },
                },
                resources: {
                  limits: { cpu, memory: '512Mi' },
                  requests: { cpu, memory: '512Mi' },
                },
              },
            ],
            { podIP: `10.44.50.${3 + i}` },
          ),
        ),
      ],
      events: pods.map((p) =>
        warningEvent(
          ns,
          { kind: 'Pod', name: p },
          'Unhealthy',
          'Liveness probe failed: Get "http://10.44.50.3:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
          50,
          2,
          33,
        ),
      ),
      logs: Object.fromEntries(
        pods.map((p) => [
          p,
          [
            `{"time":"2026-03-10T11:55:00.101Z","level":"INFO","msg":"starting beacon-relay","version":"1.17.0","GOMAXPROCS":${procs}}`,
            '{"time":"2026-03-10T11:55:00.140Z","level":"INFO","msg":"listening","addr":":8080"}',
            '{"time":"2026-03-10T11:58:31.520Z","level":"WARN","msg":"slow batch","took":"4.81s"}',
          ].join('\n'),
        ]),
      ),
    });
    const ask =
      'beacon-relay in ingest is slow and restarts over and over since the traffic peak at 11:10';

    const over = await investigateAt(
      [
        ...apiTools(world(64, '1')),
        podsTop([
          [pods[0]!, '998m', '201Mi'],
          [pods[1]!, '991m', '188Mi'],
        ]),
      ],
      ask,
      NOW,
      ns,
    );
    const a = answerOf(over.result);
    expect(a).toMatch(/GOMAXPROCS 64/);
    expect(a).toMatch(/throttled/);
    expect(a).toMatch(/998m/);

    const sized = await investigateAt(
      [
        ...apiTools(world(2, '2')),
        podsTop([
          [pods[0]!, '1990m', '201Mi'],
          [pods[1]!, '1985m', '188Mi'],
        ]),
      ],
      ask,
      NOW,
      ns,
    );
    expect(sized.text).not.toMatch(/GOMAXPROCS/);
  });

  it('short log levels in upper case only: an info line naming apiserver.crt is no error line; nginx [alert] and level=error still are', () => {
    expect(
      parseLogLine(
        '2026-03-10T11:50:01.220Z INFO  loaded serving certificate from /etc/kubernetes/pki/apiserver.crt',
      ).level,
    ).toBeUndefined();
    expect(
      parseLogLine('I0310 11:50:01.220118       1 cert.go:88] watching apiserver.crt').level,
    ).toBeUndefined();
    expect(
      parseLogLine(
        '2026/03/10 11:50:03 [alert] 29#29: 1024 worker_connections are not enough while connecting to upstream',
      ).level,
    ).toBe('error');
    expect(
      parseLogLine('time="2026-03-10T11:50:04Z" level=error msg="flush failed" err="broken pipe"')
        .level,
    ).toBe('error');
    expect(parseLogLine('2026-03-10T11:50:05Z CRT disk controller reset').level).toBe('error');
  });

  it('"connect ECONNREFUSED" to a ClusterIP of a Service in another namespace (not listed at first): Services are listed cluster-wide and its pods read; an IP no Service has: no such dependency', async () => {
    const ns = 'marketplace';
    const image = 'registry.example.io/marketplace/listing-search:4.4.2';
    const hash = '6e8d7c9b21';
    const pod = `listing-search-${hash}-n2v7c`;
    const esImage = 'docker.elastic.co/elasticsearch/elasticsearch:8.15.1';
    const world = (ip: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('search-infra'),
        deploymentObj('listing-search', ns, [image], 1, 1, [], { created: 60 * 24 * 120 }),
        rsPod('listing-search', hash, 'n2v7c', ns, [{ name: 'listing-search', image }]),
        serviceObj('listing-search', ns, { app: 'listing-search' }, 8080, {
          clusterIP: '172.20.14.9',
        }),
        serviceObj('offers-index', 'search-infra', { app: 'offers-index' }, 9200, {
          clusterIP: '172.20.61.44',
        }),
        ...members('offers-index', 'search-infra', esImage, 2, 0, () => ({
          boxes: [
            looping('offers-index', esImage, { reason: 'OOMKilled', exitCode: 137 }, 15, {
              memory: '4Gi',
            }),
          ],
        })),
      ],
      events: [
        warningEvent(
          'search-infra',
          { kind: 'Pod', name: 'offers-index-0' },
          'BackOff',
          'Back-off restarting failed container offers-index in pod offers-index-0',
          40,
          1,
          30,
        ),
      ],
      logs: {
        [pod]: [0, 1, 2]
          .map(
            (i) =>
              `2026-03-10T11:4${6 + i}:33.11${i}Z ERROR [search] listing query failed: ConnectionError: connect ECONNREFUSED ${ip}:9200`,
          )
          .join('\n'),
      },
    });
    const ask = 'listing-search in marketplace returns errors for every query since 11:45';

    const far = await investigateAt(apiTools(world('172.20.61.44')), ask, NOW, ns);
    const a = answerOf(far.result);
    expect(a).toContain('offers-index');
    expect(a).toMatch(/OOMKilled/);
    expect(
      far.gateway.calls.some(
        (c) =>
          c.params['namespace'] === 'search-infra' ||
          /offers-index-\d/.test(JSON.stringify(c.params)),
      ),
    ).toBe(true);

    const nowhere = await investigateAt(apiTools(world('172.20.99.7')), ask, NOW, ns);
    expect(nowhere.text).toContain('ECONNREFUSED');
    expect(nowhere.text).not.toMatch(/offers-index|OOMKilled/);
  });

  it('a Linkerd client whose app logs 503s and whose proxy fails fast to service{ns=… name=…} whose pods have no linkerd-proxy: not injected, the sidecar named; destination pods with the proxy: no injection claim', async () => {
    const ns = 'shop';
    const image = 'registry.example.io/shop/checkout-web:9.2.0';
    const hash = '4b7d9c6e83';
    const pod = `checkout-web-${hash}-j5m8t`;
    const payImage = 'registry.example.io/billing/charge-api:3.0.7';
    const proxyImage = 'cr.l5d.io/linkerd/proxy:stable-2.14.10';
    const proxy: Box = { name: 'linkerd-proxy', image: proxyImage };
    const world = (destMeshed: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('billing'),
        deploymentObj(
          'checkout-web',
          ns,
          [image, proxyImage],
          1,
          1,
          ['checkout-web', 'linkerd-proxy'],
          {
            created: 60 * 24 * 150,
          },
        ),
        rsPod('checkout-web', hash, 'j5m8t', ns, [{ name: 'checkout-web', image }, proxy], {
          annotations: { 'linkerd.io/inject': 'enabled' },
        }),
        deploymentObj('charge-api', 'billing', [payImage], 2, 2, [], { created: 60 * 24 * 150 }),
        ...['a3k9p', 'w8d2r'].map((s, i) =>
          rsPod(
            'charge-api',
            '5c8e7d9f62',
            s,
            'billing',
            [{ name: 'charge-api', image: payImage }, ...(destMeshed ? [proxy] : [])],
            { podIP: `10.44.60.${14 + i}`, created: 35 },
          ),
        ),
        serviceObj('charge-api', 'billing', { app: 'charge-api' }, 8080, {
          port: 80,
          clusterIP: '172.20.33.12',
        }),
      ],
      logs: {
        [pod]: [0, 1, 2]
          .map(
            (i) =>
              `2026-03-10T11:4${5 + i}:2${i}.330Z ERROR [payments] charge failed: POST http://charge-api.billing.svc.cluster.local/v1/charges -> 503 Service Unavailable`,
          )
          .join('\n'),
        [`${pod}/linkerd-proxy`]: [
          '[  2710.118402s]  WARN ThreadId(01) outbound:proxy{addr=172.20.33.12:80}:service{ns=billing name=charge-api port=80}:endpoint{addr=10.44.60.14:8080}:connect: linkerd_reconnect: Failed to connect error=connect timed out after 1s',
          '[  2713.120977s]  WARN ThreadId(01) outbound:proxy{addr=172.20.33.12:80}:service{ns=billing name=charge-api port=80}: linkerd_stack::failfast: Service entering failfast after 3s',
          '[  2713.121503s]  INFO ThreadId(01) outbound:proxy{addr=172.20.33.12:80}:rescue{client.addr=10.44.12.31:48122}: linkerd_app_core::errors::respond: HTTP/1.1 request failed error=logical service charge-api.billing.svc.cluster.local:80: service in fail-fast',
        ].join('\n'),
      },
    });
    const ask =
      'checkout-web in shop: charges failing with 503 since 11:45, the billing team says their pods are healthy';

    const unmeshed = await investigateAt(apiTools(world(false)), ask, NOW, ns);
    const a = answerOf(unmeshed.result);
    expect(a).toMatch(/fail-fast/);
    expect(a).toMatch(/without the linkerd-proxy sidecar/);
    expect(a).toMatch(/not injected/);

    const meshed = await investigateAt(apiTools(world(true)), ask, NOW, ns);
    expect(meshed.text).toMatch(/fail-fast/);
    expect(meshed.text).not.toMatch(/not injected|without the linkerd-proxy/);
  });
});
