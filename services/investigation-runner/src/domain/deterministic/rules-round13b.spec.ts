/**
 * The engine rules of e935bec (and the long-record fact of ee9e5a0), one test per rule, each on a
 * small world of outputs shaped like real ones (Kubernetes API objects and events, kubectl text,
 * the logs of the AWS VPC CNI's ipamd, the EBS CSI node plugin, botocore and structlog): pods that
 * get no IP with the CNI agent's log on their node (in JSON, and in kubectl text whose pod
 * listing shows nodes only in its wide form), a CSI driver not registered on the node with its
 * crash-looping node plugin, an HPA whose scaleTargetRef names a workload that does not exist, a
 * CronJob's failed Job whose newest attempt alone logged why, a FailedScheduling of a pod placed
 * since, and a catalog phrase kept in the fact of a record longer than the clip. Two worlds where a
 * rule does not reach are kept as todos.
 */
import {
  NOW,
  ago,
  apiTools,
  deploymentObj,
  describePod,
  eventsTable,
  findingsOf,
  hpaObj,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  podsTable,
  table,
  textTools,
  warningEvent,
  type ApiWorld,
  type Box,
  type FakeTool,
  type TextWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

/** a container the kubelet has not started yet (no sandbox, or no volume) */
const creating = (name: string, image: string): Box => ({
  name,
  image,
  ready: false,
  started: false,
  state: { waiting: { reason: 'ContainerCreating' } },
});

/** a DaemonSet's pod in kube-system on `node` */
function agentPod(name: string, daemonSet: string, node: string, box: Box): Obj {
  return podObj({
    name,
    ns: 'kube-system',
    labels: { 'k8s-app': daemonSet },
    owner: { kind: 'DaemonSet', name: daemonSet },
    node,
    created: 60 * 24 * 6,
    boxes: [box],
  });
}

/** an ipamd JSON record (the AWS VPC CNI's aws-node container), `minutesAgo` */
const ipamd = (minutesAgo: number, level: string, caller: string, msg: string, more = '') =>
  `{"level":"${level}","ts":"${ago(minutesAgo).replace(/Z$/, '')}Z","caller":"${caller}","msg":"${msg}"${more}}`;

/** the kubelet's FailedCreatePodSandBox message when the AWS VPC CNI has no address to give */
const noIpSandbox = (sandbox: string) =>
  `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${sandbox}": plugin type="aws-cni" name="aws-cni" failed (add): add cmd: failed to assign an IP address to container`;

// ------------------------------------------------------------------------------------------------

describe('rules of e935bec', () => {
  it('pods stuck ContainerCreating on one node with FailedCreatePodSandBox "failed to assign an IP address", the aws-node pod there logging InsufficientFreeAddressesInSubnet: no IP, and that agent\'s line', async () => {
    const ns = 'parcel-routing';
    const image = 'registry.example.org/parcels/label-printer:5.2.1';
    const cni = '602401143452.dkr.ecr.eu-central-1.amazonaws.com/amazon-k8s-cni:v1.18.2-eksbuild.1';
    const full = 'ip-10-31-12-57.eu-central-1.compute.internal';
    const spare = 'ip-10-31-8-140.eu-central-1.compute.internal';
    const stuck = ['label-printer-6b8d7c9f54-z4k8m', 'label-printer-6b8d7c9f54-c9t3v'];
    const eni = 'eni-0d4b7a9c2e6f1a358';
    const subnetFull =
      'InsufficientFreeAddressesInSubnet: The specified subnet does not have enough free addresses to satisfy the request.\\n\\tstatus code: 400, request id: 5e0c2b7a-91d4-4f3a-b8e6-2c7d9a1f0b34';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('label-printer', ns, [image], 3, 1),
        podObj({
          name: 'label-printer-6b8d7c9f54-q7w2e',
          ns,
          labels: { app: 'label-printer' },
          owner: { kind: 'ReplicaSet', name: 'label-printer-6b8d7c9f54' },
          node: spare,
          created: 60 * 5,
          boxes: [{ name: 'label-printer', image }],
        }),
        ...stuck.map((name) =>
          podObj({
            name,
            ns,
            labels: { app: 'label-printer' },
            owner: { kind: 'ReplicaSet', name: 'label-printer-6b8d7c9f54' },
            node: full,
            phase: 'Pending',
            scheduled: true,
            created: 26,
            podIP: null,
            conditions: [
              { type: 'Initialized', status: 'True' },
              { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
              { type: 'PodScheduled', status: 'True' },
            ],
            boxes: [creating('label-printer', image)],
          }),
        ),
        agentPod('aws-node-4hx9z', 'aws-node', full, { name: 'aws-node', image: cni }),
        agentPod('aws-node-m2k8d', 'aws-node', spare, { name: 'aws-node', image: cni }),
      ],
      events: stuck.flatMap((name, i) => [
        kubeEvent(
          ns,
          { kind: 'Pod', name },
          'Normal',
          'Scheduled',
          `Successfully assigned ${ns}/${name} to ${full}`,
          26,
          26,
          1,
          'default-scheduler',
        ),
        warningEvent(
          ns,
          { kind: 'Pod', name },
          'FailedCreatePodSandBox',
          noIpSandbox(
            i
              ? '7c1e9a40b3d85f26e4a1c09b7d3f5e82a6c4b1d09e7f3a52c8b6d4e1f0a9c7b3'
              : 'e2f4a6c8b0d1e3f5a7c9b1d3e5f7a9c0b2d4e6f8a1c3e5b7d9f0a2c4e6b8d1f3',
          ),
          25,
          1,
          34 + i,
        ),
      ]),
      logs: {
        'aws-node-4hx9z': [
          ipamd(27, 'info', 'ipamd/ipamd.go:668', 'Starting to increase pool size'),
          ipamd(
            27,
            'debug',
            'ipamd/ipamd.go:1002',
            `Found ENI ${eni} that has less than the maximum number of IP/Prefixes addresses allocated: cur=11, max=14`,
          ),
          ipamd(
            27,
            'error',
            'ipamd/ipamd.go:1040',
            `Failed to allocate a private IP/Prefix addresses on ENI ${eni}: ${subnetFull}`,
          ),
          ipamd(
            2,
            'warn',
            'ipamd/ipamd.go:1009',
            `failed to allocate all available IP addresses on ENI ${eni}, err: ${subnetFull}`,
          ),
        ].join('\n'),
        'aws-node-m2k8d': [
          ipamd(60 * 5, 'info', 'aws-k8s-agent/main.go:42', 'Starting L-IPAMD v1.18.2  ...'),
          ipamd(60 * 5, 'info', 'ipamd/ipamd.go:470', 'Setting up host network... '),
        ].join('\n'),
      },
    };
    const { text, gateway } = await investigateAt(
      apiTools(world),
      'label-printer in parcel-routing: the new pods hang in ContainerCreating since the scale-out',
      NOW,
      ns,
    );
    // kube-system was listed for the agent of that node, and its log read
    expect(
      gateway.calls.some((c) => c.tool === 'k8s:pods_log' && c.params['name'] === 'aws-node-4hx9z'),
    ).toBe(true);
    expect(text).toContain(`on node ${full} get no IP address`);
    expect(text).toContain('failed to assign an IP address to container');
    expect(text).toMatch(
      /The CNI agent aws-node-4hx9z on that node logs "[^"]*InsufficientFreeAddressesInSubnet/,
    );
    expect(text).not.toContain('aws-node-m2k8d');
  });

  it("the same in kubectl text whose pod listings show nodes only when wide: kube-system is listed wide and the agent on the pod's node (known from describe) is read", async () => {
    const ns = 'media-transcode';
    const image = 'registry.example.org/media/clip-encoder:0.31.0';
    const cni = '602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni:v1.19.0-eksbuild.1';
    const full = 'ip-172-20-41-88.us-west-2.compute.internal';
    const other = 'ip-172-20-37-5.us-west-2.compute.internal';
    const stuck = 'clip-encoder-58f9c7b6d4-w2n6p';
    const running = 'clip-encoder-58f9c7b6d4-h8x3r';
    const agents: [string, string][] = [
      ['aws-node-r8v2n', full],
      ['aws-node-j5w7c', other],
    ];
    /** `kubectl get pods [-o wide]`: [name, ready, status, restarts, age, node] */
    const pods: Record<string, [string, string, string, string, string, string][]> = {
      [ns]: [
        [running, '1/1', 'Running', '0', '3h', other],
        [stuck, '0/1', 'ContainerCreating', '0', '18m', full],
      ],
      'kube-system': [
        ...agents.map(([n, node]): [string, string, string, string, string, string] => [
          n,
          '2/2',
          'Running',
          '0',
          '12d',
          node,
        ]),
        ['coredns-6b9575c64c-tq4zl', '1/1', 'Running', '0', '12d', other],
      ],
    };
    const world: TextWorld = {
      tables: {
        deployment: table(
          ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
          [['clip-encoder', '1/2', '2', '1', '61d']],
        ),
      },
      describe: {
        [`pod/${stuck}`]: describePod({
          name: stuck,
          namespace: ns,
          node: full,
          labels: ['app=clip-encoder', 'pod-template-hash=58f9c7b6d4'],
          controlledBy: 'ReplicaSet/clip-encoder-58f9c7b6d4',
          status: 'Pending',
          container: {
            name: 'clip-encoder',
            image,
            state: ['Waiting', 'Reason:       ContainerCreating'],
            ready: false,
            restarts: 0,
          },
          conditions: [
            ['PodReadyToStartContainers', 'False'],
            ['Initialized', 'True'],
            ['Ready', 'False'],
            ['ContainersReady', 'False'],
            ['PodScheduled', 'True'],
          ],
          events: [
            [
              'Normal',
              'Scheduled',
              '18m',
              'default-scheduler',
              `Successfully assigned ${ns}/${stuck} to ${full}`,
            ],
            [
              'Warning',
              'FailedCreatePodSandBox',
              '2m (x79 over 18m)',
              'kubelet',
              noIpSandbox('4a8c2e6f0b1d3a5c7e9f1b3d5a7c9e0f2b4d6a8c1e3f5b7d9a0c2e4f6b8d1a3c'),
            ],
          ],
        }),
        ...Object.fromEntries(
          agents.map(([n, node]) => [
            `pod/${n}`,
            describePod({
              name: n,
              namespace: 'kube-system',
              node,
              labels: ['k8s-app=aws-node'],
              controlledBy: 'DaemonSet/aws-node',
              status: 'Running',
              container: {
                name: 'aws-node',
                image: cni,
                state: [
                  'Running',
                  `Started:      ${new Date(NOW - 12 * 86_400_000).toUTCString()}`,
                ],
                ready: true,
                restarts: 0,
              },
              conditions: [
                ['Ready', 'True'],
                ['PodScheduled', 'True'],
              ],
            }),
          ]),
        ),
      },
      events: eventsTable([
        [
          '18m',
          'Normal',
          'Scheduled',
          `pod/${stuck}`,
          `Successfully assigned ${ns}/${stuck} to ${full}`,
        ],
        [
          '2m (x79 over 18m)',
          'Warning',
          'FailedCreatePodSandBox',
          `pod/${stuck}`,
          noIpSandbox('4a8c2e6f0b1d3a5c7e9f1b3d5a7c9e0f2b4d6a8c1e3f5b7d9a0c2e4f6b8d1a3c'),
        ],
      ]),
      logs: {
        'aws-node-r8v2n': [
          ipamd(
            19,
            'debug',
            'ipamd/ipamd.go:651',
            'IP pool is too low: available (0) < ENI target (1) * addrsPerENI (29)',
          ),
          ipamd(
            3,
            'error',
            'ipamd/ipamd.go:725',
            'Failed to increase pool size due to not able to allocate ENI',
            ',"error":"failed to allocate one IP addresses on ENI eni-07b3e1c9a5d2f4068, err: allocate IP address: InsufficientFreeAddressesInSubnet: The specified subnet does not have enough free addresses to satisfy the request."',
          ),
        ].join('\n'),
        'aws-node-j5w7c': ipamd(
          60,
          'info',
          'ipamd/ipamd.go:651',
          'IP pool stats: Total IPs/Prefixes = 58/0, AssignedIPs/CooldownIPs: 12/0',
        ),
      },
    };
    const tools: FakeTool[] = textTools(world).map((t) => {
      if (t.name === 'get_resources')
        return {
          ...t,
          properties: { ...t.properties, wide: { type: 'boolean' } },
          handler: (p) => {
            if (!/^pods?$/.test(String(p['kind']))) return t.handler(p);
            const rows = pods[String(p['namespace'])] ?? [];
            if (p['wide']) return podsTable(rows);
            return table(
              ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
              rows.map((r) => r.slice(0, 5)),
            );
          },
        };
      if (t.name === 'get_events')
        return {
          ...t,
          handler: (p) => (p['namespace'] === ns ? t.handler(p) : 'No resources found.'),
        };
      return t;
    });
    const { text, gateway } = await investigateAt(
      tools,
      'clip-encoder in media-transcode: a new pod has been ContainerCreating for 18 minutes',
      NOW,
      ns,
    );
    expect(
      gateway.calls.some(
        (c) =>
          c.tool === 'k8s:get_resources' &&
          c.params['namespace'] === 'kube-system' &&
          c.params['wide'] === true,
      ),
    ).toBe(true);
    expect(text).toContain(`on node ${full} get no IP address`);
    expect(text).toMatch(
      /The CNI agent aws-node-r8v2n on that node logs "Failed to increase pool size due to not able to allocate ENI: [^"]*InsufficientFreeAddressesInSubnet/,
    );
  });

  it('a FailedMount "driver name ebs.csi.aws.com not found in the list of registered CSI drivers" while the ebs-csi-node pod of that node crash-loops: the driver, the node, that pod and its error are said', async () => {
    const ns = 'feature-store';
    const image = 'registry.example.org/ml/feature-cache:2.7.3';
    const ebs = 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.37.0';
    const fresh = 'ip-10-44-21-9.ap-southeast-2.compute.internal';
    const old = 'ip-10-44-17-230.ap-southeast-2.compute.internal';
    const pod = 'feature-cache-2';
    const volume = 'pvc-8d2f1c6a-4b7e-4e19-9a3d-5c0b7f2e8a61';
    const imds =
      'could not get EC2 instance identity metadata: operation error ec2imds: GetInstanceIdentityDocument, exceeded maximum number of attempts, 3, request send failed, Get \\"http://169.254.169.254/latest/dynamic/instance-identity/document\\": dial tcp 169.254.169.254:80: connect: connection refused';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: {
            name: 'feature-cache',
            namespace: ns,
            labels: { app: 'feature-cache' },
            creationTimestamp: ago(60 * 24 * 30),
          },
          spec: {
            replicas: 3,
            serviceName: 'feature-cache',
            selector: { matchLabels: { app: 'feature-cache' } },
            template: {
              metadata: { labels: { app: 'feature-cache' } },
              spec: { containers: [{ name: 'feature-cache', image }] },
            },
          },
          status: { replicas: 3, readyReplicas: 2, currentReplicas: 3 },
        },
        ...[0, 1].map((i) =>
          podObj({
            name: `feature-cache-${i}`,
            ns,
            labels: { app: 'feature-cache' },
            owner: { kind: 'StatefulSet', name: 'feature-cache' },
            node: old,
            created: 60 * 24 * 30,
            claims: [`data-feature-cache-${i}`],
            boxes: [{ name: 'feature-cache', image }],
          }),
        ),
        podObj({
          name: pod,
          ns,
          labels: { app: 'feature-cache' },
          owner: { kind: 'StatefulSet', name: 'feature-cache' },
          node: fresh,
          phase: 'Pending',
          scheduled: true,
          created: 35,
          podIP: null,
          claims: ['data-feature-cache-2'],
          boxes: [creating('feature-cache', image)],
        }),
        agentPod('ebs-csi-node-7xk2p', 'ebs-csi-node', fresh, {
          name: 'ebs-plugin',
          image: ebs,
          restarts: 11,
          ready: false,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message:
                'back-off 5m0s restarting failed container=ebs-plugin pod=ebs-csi-node-7xk2p_kube-system(3a9e1f5c-0d7b-4c62-8e4f-b1a2c3d4e5f6)',
            },
          },
          lastState: {
            terminated: { reason: 'Error', exitCode: 1, startedAt: ago(3), finishedAt: ago(3) },
          },
        }),
        agentPod('ebs-csi-node-q4d9h', 'ebs-csi-node', old, { name: 'ebs-plugin', image: ebs }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: pod },
          'FailedMount',
          `MountVolume.MountDevice failed for volume "${volume}" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name ebs.csi.aws.com not found in the list of registered CSI drivers`,
          33,
          1,
          23,
        ),
      ],
      logs: {
        'ebs-csi-node-q4d9h': [
          'I0304 08:12:40.118204       1 driver.go:69] "Driver Information" Driver="ebs.csi.aws.com" Version="v1.37.0"',
          'I0304 08:12:40.120931       1 node.go:101] "regionFromSession Node service" region="ap-southeast-2"',
        ].join('\n'),
      },
      previous: {
        'ebs-csi-node-7xk2p': [
          'I0310 11:57:02.403117       1 driver.go:69] "Driver Information" Driver="ebs.csi.aws.com" Version="v1.37.0"',
          'I0310 11:57:02.403291       1 metadata.go:85] "retrieving instance data from ec2 metadata"',
          `E0310 11:57:05.511842       1 main.go:142] "Failed to initialize metadata" err="${imds}"`,
        ].join('\n'),
      },
    };
    const { text, gateway } = await investigateAt(
      apiTools(world),
      'feature-cache-2 in feature-store has been stuck in ContainerCreating since the new node joined',
      NOW,
      ns,
    );
    expect(
      gateway.calls.some(
        (c) => c.tool === 'k8s:pods_log' && c.params['name'] === 'ebs-csi-node-7xk2p',
      ),
    ).toBe(true);
    expect(text).toContain(
      `cannot be mounted on node ${fresh}: the CSI driver ebs.csi.aws.com is not registered there`,
    );
    expect(text).toContain('its pod there, ebs-csi-node-7xk2p, is CrashLoopBackOff and logs "');
    expect(text).toContain('GetInstanceIdentityDocument');
    expect(text).not.toContain('ebs-csi-node-q4d9h');
  });

  it('an HPA whose scaleTargetRef names Deployment pricer-api, which does not exist (FailedGetScale), while Deployment pricer runs at 2 with no HPA: the stale target and the Deployment nothing scales', async () => {
    const ns = 'quotes';
    const image = 'registry.example.org/quotes/pricer:11.0.2';
    const missing = 'deployments/scale.apps "pricer-api" not found';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('pricer', ns, [image], 2, 2, [], { created: 60 * 30 }),
        ...['k7m2q', 'v3x8d'].map((s) =>
          podObj({
            name: `pricer-6d4b8f9c57-${s}`,
            ns,
            labels: { app: 'pricer' },
            owner: { kind: 'ReplicaSet', name: 'pricer-6d4b8f9c57' },
            created: 60 * 30,
            boxes: [{ name: 'pricer', image }],
          }),
        ),
        deploymentObj('quote-gateway', ns, ['registry.example.org/quotes/gateway:3.1.0'], 3, 3),
        hpaObj('quote-gateway', ns, 'quote-gateway', { min: 3, max: 12, cpu: 65, current: 3 }),
        hpaObj('pricer-api', ns, 'pricer-api', {
          min: 2,
          max: 16,
          cpu: 60,
          current: 0,
          created: 60 * 24 * 200,
          conditions: [
            {
              type: 'AbleToScale',
              status: 'False',
              reason: 'FailedGetScale',
              message: `the HPA controller was unable to get the target's current scale: ${missing}`,
              lastTransitionTime: ago(60 * 30),
            },
          ],
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'HorizontalPodAutoscaler', name: 'pricer-api' },
          'FailedGetScale',
          missing,
          60 * 30,
          1,
          3600,
          'horizontal-pod-autoscaler',
        ),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'pricer in quotes stays at 2 pods under the morning load, latency is up; it used to scale out',
      NOW,
      ns,
    );
    expect(text).toContain(
      'HorizontalPodAutoscaler pricer-api scales nothing: its scaleTargetRef names the Deployment pricer-api, which does not exist',
    );
    expect(text).toContain(
      'The Deployment pricer runs instead, and no HorizontalPodAutoscaler scales it (it stays at 2)',
    );
    expect(text).toContain('(deployment pricer)');
  });

  it.each([
    ['asked about the Job', (job: string) => `why did job ${job} fail?`],
    ['asked without its name', () => 'a job in billing-ops failed tonight, why?'],
  ])(
    "a CronJob's failed Job with seven failed pods, the older ones returning no log and the newest one logging the error: %s, its newest pod is read and its error is the answer",
    async (_how, ask) => {
      const ns = 'billing-ops';
      const image = 'registry.example.org/billing/statement-export:4.0.0';
      const job = 'statement-export-29555040';
      // oldest first, as the API lists them
      const attempts: [string, number][] = [
        ['x7k2p', 70],
        ['m4q9d', 64],
        ['t8w3n', 55],
        ['f5h1c', 43],
        ['k9s4v', 30],
        ['d6j8g', 19],
        ['b2r6z', 9],
      ];
      const newest = `${job}-b2r6z`;
      const failedPod = ([suffix, created]: [string, number]) =>
        podObj({
          name: `${job}-${suffix}`,
          ns,
          labels: { 'job-name': job, 'batch.kubernetes.io/job-name': job },
          owner: { kind: 'Job', name: job },
          restartPolicy: 'Never',
          phase: 'Failed',
          created,
          boxes: [
            {
              name: 'statement-export',
              image,
              ready: false,
              started: false,
              state: {
                terminated: {
                  reason: 'Error',
                  exitCode: 1,
                  startedAt: ago(created - 1),
                  finishedAt: ago(created - 3),
                },
              },
            },
          ],
        });
      const world: ApiWorld = {
        objects: [
          namespaceObj(ns),
          {
            apiVersion: 'batch/v1',
            kind: 'CronJob',
            metadata: {
              name: 'statement-export',
              namespace: ns,
              creationTimestamp: ago(60 * 24 * 90),
            },
            spec: {
              schedule: '0 2 * * *',
              jobTemplate: { spec: { backoffLimit: 6 } },
            },
            status: { lastScheduleTime: ago(70) },
          },
          {
            apiVersion: 'batch/v1',
            kind: 'Job',
            metadata: {
              name: job,
              namespace: ns,
              creationTimestamp: ago(70),
              ownerReferences: [
                {
                  apiVersion: 'batch/v1',
                  kind: 'CronJob',
                  name: 'statement-export',
                  controller: true,
                },
              ],
            },
            spec: { completions: 1, parallelism: 1, backoffLimit: 6 },
            status: {
              startTime: ago(70),
              failed: 7,
              conditions: [
                {
                  type: 'Failed',
                  status: 'True',
                  reason: 'BackoffLimitExceeded',
                  message: 'Job has reached the specified backoff limit',
                },
              ],
            },
          },
          ...attempts.map(failedPod),
        ],
        events: [
          warningEvent(
            ns,
            { kind: 'Job', name: job },
            'BackoffLimitExceeded',
            'Job has reached the specified backoff limit',
            6,
            6,
            1,
            'job-controller',
          ),
        ],
        // the older attempts' containers are gone: their logs come back empty
        logs: {
          [newest]: [
            `${ago(8).slice(0, 19).replace('T', ' ')},114 INFO statement_export: exporting 18211 statements for 2026-02`,
            `${ago(6).slice(0, 19).replace('T', ' ')},902 ERROR statement_export: upload failed`,
            'Traceback (most recent call last):',
            '  File "/app/statement_export/upload.py", line 57, in push',
            '    s3.upload_file(path, bucket, key)',
            '  File "/usr/local/lib/python3.12/site-packages/boto3/s3/transfer.py", line 378, in upload_file',
            '    raise S3UploadFailedError(',
            'boto3.exceptions.S3UploadFailedError: Failed to upload /tmp/statements-2026-02.csv.gz to acme-statement-exports/2026/02/statements.csv.gz: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied',
          ].join('\n'),
        },
      };
      const { text, gateway } = await investigateAt(apiTools(world), ask(job), NOW, ns);
      expect(
        gateway.calls.some((c) => c.tool === 'k8s:pods_log' && c.params['name'] === newest),
      ).toBe(true);
      expect(text).toContain('when calling the PutObject operation: Access Denied');
    },
  );

  it.each([
    // matched by the catalog's missing_env entry
    'environment variable TILE_STYLE_URL is not set',
    // matched by no entry: only the generic crash loop explains it
    'TILE_STYLE_URL: required environment variable is not set',
  ])(
    'a pod with an old FailedScheduling "Insufficient cpu", placed on a node since, crash-looping on a missing setting (%s): the answer is the crash, not "Insufficient cpu"',
    async (fatal) => {
      const ns = 'geo-tiles';
      const image = 'registry.example.org/geo/tile-render:8.4.0';
      const pod = 'tile-render-7c5f8d9b64-p2m7s';
      const node = 'gke-maps-prod-pool-c-1e8f3a7d-w5kq';
      const world: ApiWorld = {
        objects: [
          namespaceObj(ns),
          deploymentObj('tile-render', ns, [image], 1, 0, [], { created: 60 }),
          podObj({
            name: pod,
            ns,
            labels: { app: 'tile-render' },
            owner: { kind: 'ReplicaSet', name: 'tile-render-7c5f8d9b64' },
            node,
            created: 58,
            boxes: [
              {
                name: 'tile-render',
                image,
                restarts: 9,
                resources: { requests: { cpu: '3500m', memory: '2Gi' } },
                state: {
                  waiting: {
                    reason: 'CrashLoopBackOff',
                    message: `back-off 5m0s restarting failed container=tile-render pod=${pod}_${ns}(0b7e4c2a-9d1f-4a83-b6e5-7f2c8d0a1e94)`,
                  },
                },
                lastState: {
                  terminated: {
                    reason: 'Error',
                    exitCode: 2,
                    startedAt: ago(4),
                    finishedAt: ago(4),
                  },
                },
              },
            ],
          }),
        ],
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: pod },
            'FailedScheduling',
            '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
            58,
            41,
            6,
            'default-scheduler',
          ),
          kubeEvent(
            ns,
            { kind: 'Pod', name: pod },
            'Normal',
            'Scheduled',
            `Successfully assigned ${ns}/${pod} to ${node}`,
            40,
            40,
            1,
            'default-scheduler',
          ),
          warningEvent(
            ns,
            { kind: 'Pod', name: pod },
            'BackOff',
            `Back-off restarting failed container tile-render in pod ${pod}_${ns}(0b7e4c2a-9d1f-4a83-b6e5-7f2c8d0a1e94)`,
            37,
            1,
            41,
          ),
        ],
        previous: {
          [pod]: [
            `time="${ago(4)}" level=info msg="tile-render 8.4.0 starting" zoom_levels=0-16`,
            `time="${ago(4)}" level=fatal msg="invalid configuration" error="${fatal}"`,
          ].join('\n'),
        },
      };
      const { text, result } = await investigateAt(
        apiTools(world),
        'tile-render in geo-tiles is not serving, what is wrong?',
        NOW,
        ns,
      );
      expect(result.root_cause.description).toContain('TILE_STYLE_URL');
      expect(text).not.toContain('Insufficient cpu');
    },
  );
});

describe('a long JSON record whose catalog match lies beyond the clipped message (ee9e5a0)', () => {
  it('a structlog record whose exc_info traceback ends with redis-py\'s "MISCONF Redis is configured to save RDB snapshots...": the quoted fact keeps the matched phrase', () => {
    const frames = [
      ['/app/cart/service.py', 212, 'save_cart', 'pipe.execute()'],
      [
        '/usr/local/lib/python3.11/site-packages/redis/client.py',
        1522,
        'execute',
        'return conn.retry.call_with_retry(',
      ],
      [
        '/usr/local/lib/python3.11/site-packages/redis/retry.py',
        46,
        'call_with_retry',
        'return do()',
      ],
      [
        '/usr/local/lib/python3.11/site-packages/redis/client.py',
        1523,
        '<lambda>',
        'lambda: execute(conn, stack, raise_on_error),',
      ],
      [
        '/usr/local/lib/python3.11/site-packages/redis/client.py',
        1396,
        '_execute_transaction',
        'raise r',
      ],
    ];
    const traceback = [
      'Traceback (most recent call last):',
      ...frames.map(
        ([file, line, fn, code]) => `  File "${file}", line ${line}, in ${fn}\n    ${code}`,
      ),
      "redis.exceptions.ResponseError: Command # 1 (HSET cart:7f3e2a91 items 4) of pipeline caused error: MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error.",
    ].join('\n');
    const record = JSON.stringify({
      event: 'cart save failed',
      level: 'error',
      logger: 'cart.service',
      timestamp: ago(3),
      cart_id: '7f3e2a91',
      exc_info: traceback,
    });
    // the service's log: records before the failing one
    const output = [
      JSON.stringify({
        event: 'cart loaded',
        level: 'info',
        logger: 'cart.service',
        timestamp: ago(5),
        cart_id: '7f3e2a91',
        items: 3,
      }),
      record,
    ].join('\n');
    const { findings } = findingsOf([
      {
        output,
        ctx: { verb: 'logs', pod: 'basket-api-5d9c7b8f46-j4t7w', namespace: 'shop-cart' },
      },
    ]);
    const found = findings.find((f) => f.entry.id === 'redis_misconf_bgsave');
    expect(found?.fact).toContain(
      "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk",
    );
    // the record was clipped: the traceback's start is what comes first
    expect(found?.fact).toMatch(/^.{0,80}Traceback \(most recent call last\)/);
  });
});
