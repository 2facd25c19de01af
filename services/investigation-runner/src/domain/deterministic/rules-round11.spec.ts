/**
 * The engine rules of e60d0b9, c1aaacb, 9390e52 and e8c42a6, one test per rule, each on a small
 * world of outputs shaped like real ones (Kubernetes API objects and events, `kubectl get` /
 * `kubectl describe` text, client logs of MySQL, RabbitMQ and Redis): a lock wait timeout whose
 * holder is a Job still running, a moving tag that resolved to another digest in one pod, an
 * autoscaler flapping, a NotReady node that is Ready again, "502ing", a node's conntrack table
 * full, RabbitMQ's inequivalent queue argument, Redis NOAUTH, a paused Deployment and a request
 * that no node's allocatable can ever fit.
 */
import {
  NOW,
  ago,
  apiTools,
  deploymentObj,
  describeNode,
  describePod,
  eventsTable,
  findingsOf,
  hpaObj,
  ids,
  investigateAt,
  jsonOutputs,
  kubeEvent,
  namespaceObj,
  podObj,
  podsTable,
  table,
  textTools,
  type ApiWorld,
  type TextWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

/** a Pod of this cluster, labelled with its app */
const pod = ({ app, ...p }: Omit<Parameters<typeof podObj>[0], 'labels'> & { app: string }): Obj =>
  podObj({
    created: 60 * 24,
    node: 'ip-10-31-4-117.eu-central-1.compute.internal',
    podIP: '10.31.7.52',
    ...p,
    labels: { app },
  });

/** a Deployment of this cluster (40 days old) */
const deployment = (
  name: string,
  ns: string,
  image: string,
  replicas: number,
  ready: number,
  more: Parameters<typeof deploymentObj>[6] = {},
) => deploymentObj(name, ns, [image], replicas, ready, [], { created: 60 * 24 * 40, ...more });

const crashLoop = (container: string, podName: string): Obj => ({
  waiting: {
    reason: 'CrashLoopBackOff',
    message: `back-off 2m40s restarting failed container=${container} pod=${podName}`,
  },
});

const exited = (code: number, minutesAgo: number): Obj => ({
  terminated: {
    reason: 'Error',
    exitCode: code,
    startedAt: ago(minutesAgo + 1),
    finishedAt: ago(minutesAgo),
  },
});

// ------------------------------------------------------------------------------------------------

describe('rules of e60d0b9, c1aaacb, 9390e52 and e8c42a6', () => {
  it('a MySQL lock wait timeout the database does not explain: the Job of the namespace already running and still running is named', async () => {
    const ns = 'perks';
    const api = 'perks-api';
    const apiImage = 'registry.example.org/perks/perks-api:3.8.1';
    const jobName = 'tier-recalc-29411520';
    const jobObj: Obj = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: jobName,
        namespace: ns,
        creationTimestamp: ago(95),
        labels: { 'batch.kubernetes.io/job-name': jobName },
        ownerReferences: [
          { apiVersion: 'batch/v1', kind: 'CronJob', name: 'tier-recalc', controller: true },
        ],
      },
      spec: { backoffLimit: 1, completions: 1, parallelism: 1 },
      status: { startTime: ago(95), active: 1 },
    };
    // a finished Job of the same CronJob: not running, not the holder
    const doneJob: Obj = {
      ...jobObj,
      metadata: {
        ...(jobObj['metadata'] as Obj),
        name: 'tier-recalc-29410080',
        creationTimestamp: ago(60 * 24 + 95),
      },
      status: {
        startTime: ago(60 * 24 + 95),
        succeeded: 1,
        completionTime: ago(60 * 24 + 40),
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    };
    const world: ApiWorld = {
      objects: [
        deployment(api, ns, apiImage, 2, 2),
        pod({
          name: 'perks-api-7d9f6b5c8-x4q2m',
          ns,
          app: api,
          owner: { kind: 'ReplicaSet', name: 'perks-api-7d9f6b5c8' },
          boxes: [{ name: api, image: apiImage }],
        }),
        jobObj,
        pod({
          name: `${jobName}-v8k3p`,
          ns,
          app: 'tier-recalc',
          owner: { kind: 'Job', name: jobName },
          created: 95,
          boxes: [{ name: 'expiry', image: 'registry.example.org/perks/tier-recalc:1.2.0' }],
        }),
        doneJob,
      ],
      logs: {
        'perks-api-7d9f6b5c8-x4q2m': [
          '2026-03-10 11:41:07,212 INFO  [http-nio-8080-exec-4] c.e.l.PointsController: POST /v1/members/88213/redeem',
          '2026-03-10 11:41:57,219 ERROR [http-nio-8080-exec-4] o.h.e.j.s.SqlExceptionHelper: Lock wait timeout exceeded; try restarting transaction',
          '2026-03-10 11:41:57,221 ERROR [http-nio-8080-exec-4] c.e.l.PointsController: redeem failed for member 88213: could not execute statement; SQL [n/a]',
        ].join('\n'),
        [`${jobName}-v8k3p`]: [
          '2026-03-10 10:25:03 INFO expiry: scanning perk_grants for entries older than 24 months',
          '2026-03-10 11:52:40 INFO expiry: 1840000 of 3100000 rows marked expired, batch 184 (UPDATE ... in one transaction)',
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'redeeming perks fails in perks-api (perks) with lock wait timeouts since 11:40; nothing was deployed, only the scheduled jobs ran',
      NOW,
      ns,
    );
    expect(text).toContain(`Job ${jobName} was already running when it gave up`);
    expect(text).toContain(`still runs (pod ${jobName}-v8k3p)`);
    expect(text).not.toContain('tier-recalc-29410080');
  });

  describe('one pod of several crashing whose tag resolved to another digest than its siblings', () => {
    const ns = 'merch';
    const name = 'price-feed';
    const old = 'sha256:4b1e7f0a9c2d83e65f17a0c9d4b2e8f16a3c7d90e1b24f58a6c3d7e9f0b1a2c4';
    const fresh = 'sha256:9e3c5a7b1d0f42e8c6a9b3d5f7e1c0a2b4d6f8e0a1c3b5d7f9e2a4c6b8d0f1e3';
    const world = (tag: string): ApiWorld => {
      const image = `registry.example.org/merch/price-feed:${tag}`;
      const repo = 'registry.example.org/merch/price-feed';
      const sibling = (suffix: string) =>
        pod({
          name: `price-feed-5f8c7d9b4-${suffix}`,
          ns,
          app: name,
          owner: { kind: 'ReplicaSet', name: 'price-feed-5f8c7d9b4' },
          boxes: [{ name, image, imageID: `${repo}@${old}` }],
        });
      return {
        objects: [
          deployment(name, ns, image, 3, 2),
          sibling('k2w7r'),
          sibling('q9n4d'),
          pod({
            name: 'price-feed-5f8c7d9b4-z6t3h',
            ns,
            app: name,
            owner: { kind: 'ReplicaSet', name: 'price-feed-5f8c7d9b4' },
            created: 30,
            node: 'ip-10-31-9-204.eu-central-1.compute.internal',
            boxes: [
              {
                name,
                image,
                imageID: `${repo}@${fresh}`,
                restarts: 7,
                state: crashLoop(name, 'price-feed-5f8c7d9b4-z6t3h'),
                lastState: exited(2, 3),
              },
            ],
          }),
        ],
        logs: {
          'price-feed-5f8c7d9b4-k2w7r':
            'time=2026-03-10T11:58:02Z level=info msg="published 412 prices" source=erp',
          'price-feed-5f8c7d9b4-q9n4d':
            'time=2026-03-10T11:58:04Z level=info msg="published 409 prices" source=erp',
        },
        previous: {
          'price-feed-5f8c7d9b4-z6t3h': [
            'time=2026-03-10T11:56:58Z level=info msg="starting price-feed" version=unknown',
            'panic: runtime error: invalid memory address or nil pointer dereference',
            '[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x9a3f21]',
            '',
            'goroutine 1 [running]:',
            'main.loadCurrencies(0x0)',
            '\t/src/cmd/price-feed/main.go:88 +0x21',
          ].join('\n'),
        },
      };
    };
    const ask = 'one price-feed pod in merch keeps crashing, the other two are fine';

    it('with the moving tag :stable: the tag moved and only that pod pulled the new build; with a version tag: no such sentence', async () => {
      const moved = await investigateAt(apiTools(world('stable')), ask, NOW, ns);
      expect(moved.text).toContain('resolved to sha256:9e3c5a7b1d0f');
      expect(moved.text).toContain('the other pods run sha256:4b1e7f0a9c2d');
      expect(moved.text).toContain('the tag was pushed again (a moving tag)');

      const pinned = await investigateAt(apiTools(world('1.4.2')), ask, NOW, ns);
      expect(pinned.text).toContain('nil pointer dereference');
      expect(pinned.text).not.toContain('the tag was pushed again');
    });
  });

  describe('an autoscaler rescaled up and down again and again', () => {
    const ns = 'lookup';
    const hpa = hpaObj('query-router', ns, 'query-router', {
      min: 2,
      max: 12,
      cpu: 60,
      current: 3,
      created: 60 * 24 * 30,
      behavior: { scaleDown: { stabilizationWindowSeconds: 0 } },
    });
    const rescale = (size: number, up: boolean, count: number, first: number, last: number) => ({
      ...kubeEvent(
        ns,
        { kind: 'HorizontalPodAutoscaler', name: 'query-router' },
        'Normal',
        'SuccessfulRescale',
        up
          ? `New size: ${size}; reason: cpu resource utilization (percentage of request) above target`
          : `New size: ${size}; reason: All metrics below target`,
        first,
        last,
        count,
        'horizontal-pod-autoscaler',
      ),
      metadata: { name: `query-router.${up ? 'up' : 'down'}${size}`, namespace: ns },
    });
    const outputs = (times: number) =>
      jsonOutputs(
        {
          objects: [hpa],
          events: [rescale(7, true, times, 55, 4), rescale(3, false, times, 52, 1)],
        },
        ns,
      );

    it('3 times each way: flapping, with its stabilizationWindowSeconds; once each way: no flapping', () => {
      const flapping = findingsOf(outputs(3)).findings.find((f) => f.entry.id === 'hpa_flapping');
      expect(flapping?.groups).toMatchObject({ hpa: 'query-router', up: '3', down: '3' });
      expect(flapping?.fact).toContain('New size: 7 / 3');
      expect(flapping?.fact).toContain('behavior.scaleDown.stabilizationWindowSeconds: 0');

      expect(ids(findingsOf(outputs(1)).findings)).not.toContain('hpa_flapping');
    });
  });

  it('a NodeNotReady event of a node that is Ready again: no problem', async () => {
    const ns = 'invoicing';
    const node = 'aks-general-31557290-vmss00000b';
    const image = 'invoicing.azurecr.io/pdf-renderer:2.0.7';
    const nodeObj: Obj = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: node,
        labels: {
          'kubernetes.io/hostname': node,
          'node.kubernetes.io/instance-type': 'Standard_D4s_v5',
        },
        creationTimestamp: ago(60 * 24 * 20),
      },
      spec: {},
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
            lastHeartbeatTime: ago(1),
            lastTransitionTime: ago(150),
          },
        ],
        allocatable: { cpu: '3860m', memory: '12879248Ki', pods: '110' },
      },
    };
    const world: ApiWorld = {
      objects: [
        nodeObj,
        deployment('pdf-renderer', ns, image, 2, 2),
        ...['m4k8s', 'r7p2x'].map((s) =>
          pod({
            name: `pdf-renderer-66b9c8d7f-${s}`,
            ns,
            app: 'pdf-renderer',
            owner: { kind: 'ReplicaSet', name: 'pdf-renderer-66b9c8d7f' },
            node,
            created: 140,
            boxes: [{ name: 'pdf-renderer', image }],
          }),
        ),
      ],
      events: [
        {
          ...kubeEvent(
            ns,
            { kind: 'Node', name: node },
            'Normal',
            'NodeNotReady',
            `Node ${node} status is now: NodeNotReady`,
            158,
            158,
            1,
            'node-controller',
          ),
          involvedObject: { apiVersion: 'v1', kind: 'Node', name: node, uid: node },
        },
      ],
    };
    const { result, text } = await investigateAt(
      apiTools(world),
      'pdf-renderer in invoicing had errors around 09:20 this morning, is anything still wrong?',
      NOW,
      ns,
    );
    expect(result.summary).toMatch(/No problem found/);
    expect(text).not.toContain('is NotReady');
  });

  it('"checkout is 502ing since 10:40": the ingress controller is read', async () => {
    const controller = 'ingress-nginx-controller-7f5c9b6d48-wq2zk';
    const world: ApiWorld = {
      objects: [
        namespaceObj('webshop'),
        namespaceObj('ingress-nginx'),
        pod({
          name: controller,
          ns: 'ingress-nginx',
          app: 'ingress-nginx',
          owner: { kind: 'ReplicaSet', name: 'ingress-nginx-controller-7f5c9b6d48' },
          boxes: [
            { name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.11.2' },
          ],
        }),
      ],
      logs: {
        [controller]:
          '2026/03/10 10:41:12 [error] 31#31: *220417 connect() failed (111: Connection refused) while connecting to upstream, client: 10.31.0.7, server: shop.example.org, request: "POST /checkout/confirm HTTP/2.0", upstream: "http://10.31.6.88:8080/checkout/confirm", host: "shop.example.org"',
      },
    };
    const { gateway } = await investigateAt(apiTools(world), 'checkout is 502ing since 10:40', NOW);
    const read = gateway.calls.filter(
      (c) => c.tool === 'k8s:pods_log' && c.params['name'] === controller,
    );
    expect(read.length).toBeGreaterThan(0);
  });

  it('a node Warning "nf_conntrack: table full, dropping packet" under a subject pod that times out: the node\'s conntrack table named', async () => {
    const ns = 'partners';
    const node = 'ip-10-31-12-58.eu-central-1.compute.internal';
    const image = 'registry.example.org/partners/rate-sync:5.1.0';
    const podName = 'rate-sync-6c8d7b9f5-h3v9q';
    const world: ApiWorld = {
      objects: [
        deployment('rate-sync', ns, image, 1, 1),
        pod({
          name: podName,
          ns,
          app: 'rate-sync',
          owner: { kind: 'ReplicaSet', name: 'rate-sync-6c8d7b9f5' },
          node,
          boxes: [{ name: 'rate-sync', image }],
        }),
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'Node', name: node },
          'Warning',
          'ConntrackFull',
          'kernel: nf_conntrack: nf_conntrack: table full, dropping packet',
          35,
          1,
          214,
          'kernel-monitor',
        ),
      ],
      logs: {
        [podName]: [
          'time=2026-03-10T11:57:31Z level=error msg="sync failed" partner=hotelbeds err="Get \\"https://api.partner-rates.example.com/v3/rates\\": dial tcp 203.0.113.40:443: i/o timeout"',
          'time=2026-03-10T11:58:31Z level=error msg="sync failed" partner=hotelbeds err="Get \\"https://api.partner-rates.example.com/v3/rates\\": dial tcp 203.0.113.40:443: i/o timeout"',
        ].join('\n'),
      },
    };
    const conntrack = findingsOf(jsonOutputs(world, ns)).findings.find(
      (f) => f.entry.id === 'node_conntrack_full',
    );
    expect(conntrack?.object).toMatchObject({ kind: 'node', name: node });

    const { text } = await investigateAt(
      apiTools(world),
      'rate-sync in partners times out calling the partner API since 11:25',
      NOW,
      ns,
    );
    expect(text).toContain('connection-tracking table of the node is full');
    expect(text).toContain('nf_conntrack_max');
  });

  it('RabbitMQ "PRECONDITION_FAILED - inequivalent arg": the argument and the queue named', async () => {
    const ns = 'depot';
    const image = 'registry.example.org/depot/pick-slip-printer:4.0.0';
    const podName = 'pick-slip-printer-84c6f7d95-b8n2l';
    const world: ApiWorld = {
      objects: [
        deployment('pick-slip-printer', ns, image, 1, 0),
        pod({
          name: podName,
          ns,
          app: 'pick-slip-printer',
          owner: { kind: 'ReplicaSet', name: 'pick-slip-printer-84c6f7d95' },
          created: 25,
          boxes: [
            {
              name: 'pick-slip-printer',
              image,
              restarts: 6,
              state: crashLoop('pick-slip-printer', podName),
              lastState: exited(1, 2),
            },
          ],
        }),
      ],
      previous: {
        [podName]: [
          '2026-03-10 11:57:40,118 INFO pika.adapters.blocking_connection: Created channel=1',
          "2026-03-10 11:57:40,131 WARNING pika.channel: Received remote Channel.Close (406): \"PRECONDITION_FAILED - inequivalent arg 'x-dead-letter-exchange' for queue 'pickslips.print' in vhost 'depot': received the value 'pickslips.dlx' of type 'longstr' but current is none\" on <Channel number=1 OPEN conn=<SelectConnection OPEN transport=<pika.adapters.utils.io_services_utils._AsyncPlaintextTransport object at 0x7f3a2c1d9e50> params=<URLParameters host=rabbitmq.messaging port=5672 virtual_host=depot ssl=False>>>",
          "pika.exceptions.ChannelClosedByBroker: (406, \"PRECONDITION_FAILED - inequivalent arg 'x-dead-letter-exchange' for queue 'pickslips.print' in vhost 'depot': received the value 'pickslips.dlx' of type 'longstr' but current is none\")",
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'pick-slip-printer in depot crashloops since the 4.0.0 deploy',
      NOW,
      ns,
    );
    expect(text).toContain(
      'declares the queue pickslips.print with another x-dead-letter-exchange',
    );
    expect(text).toContain('406 PRECONDITION_FAILED');
  });

  it('Redis "NOAUTH Authentication required.": the password and requirepass named', async () => {
    const ns = 'edge-auth';
    const image = 'registry.example.org/web/session-gate:1.17.3';
    const podName = 'session-gate-5d7b8c6f9-t2m6x';
    const world: ApiWorld = {
      objects: [
        deployment('session-gate', ns, image, 1, 0),
        pod({
          name: podName,
          ns,
          app: 'session-gate',
          owner: { kind: 'ReplicaSet', name: 'session-gate-5d7b8c6f9' },
          created: 40,
          boxes: [
            {
              name: 'session-gate',
              image,
              restarts: 5,
              state: crashLoop('session-gate', podName),
              lastState: exited(1, 4),
            },
          ],
        }),
      ],
      previous: {
        [podName]: [
          '{"level":30,"time":1773143760112,"pid":1,"msg":"session-gate listening on :3000"}',
          '[ioredis] Unhandled error event: ReplyError: NOAUTH Authentication required.',
          '    at parseError (/app/node_modules/redis-parser/lib/parser.js:179:12)',
          '    at parseType (/app/node_modules/redis-parser/lib/parser.js:302:14)',
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'session-gate in edge-auth keeps restarting',
      NOW,
      ns,
    );
    expect(text).toContain('connects to Redis without the password it requires');
    expect(text).toContain('requirepass');
  });

  it('a Deployment whose Progressing condition is Unknown DeploymentPaused: paused, with the version its pods still run', async () => {
    const ns = 'profiles';
    const repo = 'registry.example.org/profiles/avatar-api';
    const world: ApiWorld = {
      objects: [
        deployment('avatar-api', ns, `${repo}:2.9.0`, 2, 2, {
          paused: true,
          conditions: [
            {
              type: 'Available',
              status: 'True',
              reason: 'MinimumReplicasAvailable',
              message: 'Deployment has minimum availability.',
              lastTransitionTime: ago(60 * 24 * 6),
            },
            {
              type: 'Progressing',
              status: 'Unknown',
              reason: 'DeploymentPaused',
              message: 'Deployment is paused',
              lastTransitionTime: ago(60 * 5),
            },
          ],
        }),
        ...['c5j8w', 'n2x7f'].map((s) =>
          pod({
            name: `avatar-api-74f8b6d9c-${s}`,
            ns,
            app: 'avatar-api',
            owner: { kind: 'ReplicaSet', name: 'avatar-api-74f8b6d9c' },
            created: 60 * 24 * 6,
            boxes: [{ name: 'avatar-api', image: `${repo}:2.8.4` }],
          }),
        ),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'we deployed avatar-api 2.9.0 in profiles two hours ago but it still serves the old version',
      NOW,
      ns,
    );
    expect(text).toContain('The Deployment avatar-api is paused (spec.paused: true');
    expect(text).toContain(`its pods still run the previous version (${repo}:2.8.4`);
    expect(text).toContain(`while the template says ${repo}:2.9.0`);
  });

  describe('a Pending pod "Insufficient memory"', () => {
    const ns = 'forecasting';
    const nodes = [
      'ip-10-31-20-11.eu-central-1.compute.internal',
      'ip-10-31-21-74.eu-central-1.compute.internal',
    ];
    /** `kubectl describe node` down to its allocatable */
    const nodeText = (name: string) =>
      describeNode({
        name,
        labels: [
          'beta.kubernetes.io/arch=amd64',
          'eks.amazonaws.com/nodegroup=batch-r6a',
          `kubernetes.io/hostname=${name}`,
          'node.kubernetes.io/instance-type=r6a.large',
          'topology.kubernetes.io/zone=eu-central-1b',
        ],
        created: 60 * 24 * 4,
        conditions: [['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status']],
        capacity: {
          cpu: '2',
          'ephemeral-storage': '83873772Ki',
          memory: '15896504Ki',
          pods: '29',
        },
        allocatable: {
          cpu: '1930m',
          'ephemeral-storage': '76224326324',
          memory: '15205304Ki',
          pods: '29',
        },
        systemInfo: {
          'Kernel Version': '6.1.112-122.189.amzn2023.x86_64',
          'Container Runtime Version': 'containerd://1.7.22',
        },
      });
    const podName = 'demand-model-0';
    const world = (memory: string): TextWorld => ({
      tables: {
        pod: podsTable([[podName, '0/1', 'Pending', '0', '20m']]),
        node: table(
          ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'],
          nodes.map((n) => [n, 'Ready', '<none>', '4d', 'v1.31.2-eks-7f9249a']),
        ),
      },
      describe: {
        [`pod/${podName}`]: describePod({
          name: podName,
          namespace: ns,
          labels: ['app=demand-model'],
          controlledBy: 'StatefulSet/demand-model',
          status: 'Pending',
          container: {
            name: 'trainer',
            image: 'registry.example.org/forecasting/demand-model:0.14.2',
            requests: { cpu: '1', memory },
            limits: { memory },
          },
          conditions: [['PodScheduled', 'False']],
          events: [
            [
              'Warning',
              'FailedScheduling',
              '2m (x5 over 20m)',
              'default-scheduler',
              '0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
            ],
          ],
        }),
        ...Object.fromEntries(nodes.map((n) => [`node/${n}`, nodeText(n)])),
      },
      events: eventsTable([
        [
          '2m',
          'Warning',
          'FailedScheduling',
          `pod/${podName}`,
          '0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
        ],
      ]),
    });
    const ask = 'demand-model-0 in forecasting has been Pending for 20 minutes';

    it('whose request exceeds every node\'s allocatable: "no node can ever fit it" with the instance type; one that fits: no such sentence', async () => {
      const never = await investigateAt(textTools(world('18Gi')), ask, NOW, ns);
      expect(never.text).toContain('no node can ever fit it');
      expect(never.text).toContain('the largest allocatable memory is 15205304Ki');
      expect(never.text).toContain('(instance type r6a.large)');

      const fits = await investigateAt(textTools(world('12Gi')), ask, NOW, ns);
      expect(fits.text).toContain('Insufficient memory');
      expect(fits.text).not.toContain('no node can ever fit it');
    });
  });
  it('uploads to a public host fail, small ones work: the ingress controller says the body is too large (413)', async () => {
    const ns = 'docs';
    const controller = 'ingress-nginx-controller-5b8f7c6d9-x7k2p';
    const image = 'registry.example.org/docs/files-api:2.2.0';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        namespaceObj('ingress-nginx'),
        deployment('files-api', ns, image, 2, 2),
        pod({
          name: 'files-api-7d9c8b6f5-q4m2n',
          ns,
          app: 'files-api',
          owner: { kind: 'ReplicaSet', name: 'files-api-7d9c8b6f5' },
          boxes: [{ name: 'files-api', image }],
        }),
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'files-api', namespace: ns },
          spec: { selector: { app: 'files-api' }, ports: [{ port: 80, targetPort: 8080 }] },
        },
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: { name: 'files-api', namespace: ns, creationTimestamp: ago(60 * 3) },
          spec: {
            ingressClassName: 'nginx',
            rules: [
              {
                host: 'files.example.org',
                http: {
                  paths: [
                    {
                      path: '/',
                      pathType: 'Prefix',
                      backend: { service: { name: 'files-api', port: { number: 80 } } },
                    },
                  ],
                },
              },
            ],
          },
        },
        pod({
          name: controller,
          ns: 'ingress-nginx',
          app: 'ingress-nginx',
          owner: { kind: 'ReplicaSet', name: 'ingress-nginx-controller-5b8f7c6d9' },
          boxes: [
            { name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.11.2' },
          ],
        }),
      ],
      logs: {
        [controller]: [
          '2026/03/10 09:12:44 [error] 29#29: *51237 client intended to send too large body: 5242881 bytes, client: 198.51.100.23, server: files.example.org, request: "PUT /v1/files/report.pdf HTTP/2.0", host: "files.example.org"',
          '198.51.100.23 - - [10/Mar/2026:09:12:44 +0000] "PUT /v1/files/report.pdf HTTP/2.0" 413 176 "-" "curl/8.5.0" 0 0.000 [] [] - - - - 3f1c9e2a7b6d5c4e',
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'uploads to files.example.org fail since this morning, small files still work',
      NOW,
    );
    expect(text).toContain('too large body');
    expect(text).toContain('413');
    expect(text).toContain('proxy-body-size');
    expect(text).toContain('files-api');
  });

  it('"which deployments in <ns> define no readiness probe?": the deployments whose containers have none, StatefulSets left out', async () => {
    const ns = 'ledgerops';
    const probed = {
      httpGet: { path: '/ready', port: 8080 },
      periodSeconds: 10,
    };
    const raw = (name: string, owner: { kind: string; name: string }, readiness: boolean): Obj => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: ns,
        labels: { app: owner.name.replace(/-[a-z0-9]{8,10}$/, '') },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: owner.kind, name: owner.name }],
        creationTimestamp: ago(60 * 24),
      },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'registry.example.org/ledgerops/app:1.0.0',
            ...(readiness ? { readinessProbe: probed } : {}),
            livenessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 20 },
          },
        ],
      },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            ready: true,
            restartCount: 0,
            state: { running: { startedAt: ago(60 * 24) } },
          },
        ],
      },
    });
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deployment('journal-api', ns, 'registry.example.org/ledgerops/app:1.0.0', 1, 1),
        deployment('audit-feed', ns, 'registry.example.org/ledgerops/app:1.0.0', 1, 1),
        raw(
          'journal-api-5c7d9f8b6-ab12c',
          { kind: 'ReplicaSet', name: 'journal-api-5c7d9f8b6' },
          true,
        ),
        raw(
          'audit-feed-6d8e7f9c5-cd34e',
          { kind: 'ReplicaSet', name: 'audit-feed-6d8e7f9c5' },
          false,
        ),
        raw('ledger-cache-0', { kind: 'StatefulSet', name: 'ledger-cache' }, false),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      "which deployments in ledgerops don't define a readiness probe?",
      NOW,
    );
    expect(text).toMatch(/\b1 deployment (?:in namespace ledgerops )?defines no readiness probe/);
    expect(text).toContain('audit-feed');
    expect(text).not.toMatch(/journal-api \(container/);
    expect(text).not.toContain('ledger-cache');
  });
  it('"which volumes in <ns> are still on gp2?": the claims of that storage class, others left out', async () => {
    const ns = 'warehouse';
    const pvc = (name: string, sc: string): Obj => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 90) },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: sc,
        resources: { requests: { storage: '50Gi' } },
        volumeName: `pvc-${name}`,
      },
      status: { phase: 'Bound', capacity: { storage: '50Gi' } },
    });
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        pvc('pg-data-pg-0', 'gp2'),
        pvc('minio-data-minio-1', 'gp3'),
        pvc('kafka-logs-kafka-0', 'gp2'),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'before the migration: which volumes in warehouse are still on gp2?',
      NOW,
    );
    expect(text).toMatch(
      /\b2 PersistentVolumeClaims (?:in namespace warehouse )?use the storage class gp2/,
    );
    expect(text).toContain('pg-data-pg-0');
    expect(text).toContain('kafka-logs-kafka-0');
    expect(text).not.toContain('minio-data-minio-1');
  });

  it('"which pods are still on the old image?" of a StatefulSet with a rollingUpdate partition: the pods of each version and the partition', async () => {
    const ns = 'streams';
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'ingestor', namespace: ns, creationTimestamp: ago(60 * 24 * 60) },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'ingestor' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
        template: {
          metadata: { labels: { app: 'ingestor' } },
          spec: {
            containers: [{ name: 'ingestor', image: 'registry.example.org/ingestor:3.1.0' }],
          },
        },
      },
      status: { replicas: 3, readyReplicas: 3, currentReplicas: 1, updatedReplicas: 2 },
    };
    const member = (i: number, image: string) =>
      pod({
        name: `ingestor-${i}`,
        ns,
        app: 'ingestor',
        owner: { kind: 'StatefulSet', name: 'ingestor' },
        boxes: [{ name: 'ingestor', image }],
      });
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        sts,
        member(0, 'registry.example.org/ingestor:3.0.4'),
        member(1, 'registry.example.org/ingestor:3.1.0'),
        member(2, 'registry.example.org/ingestor:3.1.0'),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'which ingestor pods in streams are still on the old image, and why?',
      NOW,
    );
    expect(text).toContain('3.0.4 (version 3.0.4) on 1 pod (ingestor-0)');
    expect(text).toContain('rollingUpdate partition is 1');
  });
});
