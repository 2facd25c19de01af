/**
 * The engine behaviours of round 7 (b2e9f6c, 41ca47b, 79412dd, fd72334, 610caa0), one test per
 * behaviour, on outputs shaped like real ones (Kubernetes API objects, `kubectl describe` text,
 * `kubectl get` tables, application and access-log lines): an HPA at its minimum is no ceiling,
 * cloud API refusals (and a volume event that is no image pull), a claim the provisioner refuses,
 * a LimitRange limit-to-request ratio, ACME only as a word, Vault sealed (and the callers a
 * dependency's failure explains), a RAM-backed emptyDir behind an OOMKill, a hostNetwork pod
 * without ClusterFirstWithHostNet, three questions, an init container's previous run, evictions
 * for want of process IDs, and an ingress-nginx rewrite-target without a capture group.
 */
import {
  type FakeGateway,
  NOW,
  ago,
  describePod,
  findingsOf,
  ids,
  kubeEvent,
  kubeTime,
  podsTable,
  table,
  textOutputs,
  textTools,
  type TextWorld,
  apiTools,
  investigateAt,
  stamp,
  stamped,
  type ApiWorld,
  metaOf,
} from './spec-world';

// ------------------------------------------------------------------------------------------------
// API objects and a tool server that answers per namespace (and per container for logs)
// (copied from rules-round6.spec.ts, whose helpers are not exported)

type Obj = Record<string, unknown>;

interface Ctr {
  name: string;
  image: string;
  ports?: number[];
  ready?: boolean;
  state?: Obj;
  lastState?: Obj;
  restarts?: number;
  limits?: Record<string, string>;
  requests?: Record<string, string>;
  volumeMounts?: Obj[];
  env?: Obj[];
  envFrom?: Obj[];
}

interface PodSpec {
  name: string;
  ns: string;
  app: string;
  node?: string;
  containers: Ctr[];
  initContainers?: Ctr[];
  volumes?: Obj[];
  owner?: { kind: string; name: string };
  phase?: string;
  reason?: string;
  message?: string;
  spec?: Obj;
  labels?: Record<string, string>;
}

const containerSpec = (c: Ctr) => ({
  name: c.name,
  image: c.image,
  ...(c.ports ? { ports: c.ports.map((n) => ({ containerPort: n, protocol: 'TCP' })) } : {}),
  ...(c.volumeMounts ? { volumeMounts: c.volumeMounts } : {}),
  ...(c.env ? { env: c.env } : {}),
  ...(c.envFrom ? { envFrom: c.envFrom } : {}),
  resources: {
    ...(c.limits ? { limits: c.limits } : {}),
    ...(c.requests ? { requests: c.requests } : {}),
  },
});

const containerStatus = (c: Ctr, running: boolean) => ({
  name: c.name,
  image: c.image,
  ready: c.ready ?? running,
  restartCount: c.restarts ?? 0,
  state: c.state ?? (running ? { running: { startedAt: ago(120) } } : {}),
  lastState: c.lastState ?? {},
});

function pod(p: PodSpec): Obj {
  const hash = p.name.split('-').slice(-2, -1)[0] ?? '';
  const owner = p.owner ?? { kind: 'ReplicaSet', name: `${p.app}-${hash}` };
  const phase = p.phase ?? 'Running';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.ns,
      labels: p.labels ?? { app: p.app, ...(p.owner ? {} : { 'pod-template-hash': hash }) },
      creationTimestamp: ago(60),
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, controller: true },
      ],
    },
    spec: {
      ...(p.node ? { nodeName: p.node } : {}),
      ...(p.initContainers ? { initContainers: p.initContainers.map(containerSpec) } : {}),
      containers: p.containers.map(containerSpec),
      volumes: p.volumes ?? [],
      serviceAccountName: 'default',
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      ...p.spec,
    },
    status: {
      phase,
      ...(p.reason ? { reason: p.reason } : {}),
      ...(p.message ? { message: p.message } : {}),
      conditions: [],
      ...(p.initContainers
        ? { initContainerStatuses: p.initContainers.map((c) => containerStatus(c, false)) }
        : {}),
      containerStatuses: p.containers.map((c) => containerStatus(c, phase === 'Running')),
    },
  };
}

function deployment(name: string, ns: string, image: string, replicas: number, ready: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: ns,
      labels: { app: name },
      creationTimestamp: ago(60 * 24 * 30),
      annotations: { 'deployment.kubernetes.io/revision': '7' },
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { spec: { containers: [{ name, image }] } },
    },
    status: {
      replicas,
      readyReplicas: ready,
      availableReplicas: ready,
      updatedReplicas: replicas,
      conditions: [
        {
          type: 'Available',
          status: ready < replicas ? 'False' : 'True',
          reason: ready < replicas ? 'MinimumReplicasUnavailable' : 'MinimumReplicasAvailable',
        },
      ],
    },
  };
}

function service(name: string, ns: string, port: number, targetPort: number, clusterIP: string) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns, labels: { app: name }, creationTimestamp: ago(60 * 24 * 90) },
    spec: {
      type: 'ClusterIP',
      clusterIP,
      selector: { app: name },
      ports: [{ name: 'http', port, protocol: 'TCP', targetPort }],
    },
  };
}

/** the logs calls the engine made, as [pod, container, previous] */
const logCalls = (g: FakeGateway) =>
  g.calls
    .filter((c) => c.tool === 'k8s:pods_log')
    .map((c) => [
      String(c.params['name']),
      String(c.params['container'] ?? ''),
      !!c.params['previous'],
    ]);

/** a world's objects, events and logs as observe() inputs */
const apiOutputs = (w: ApiWorld) => [
  ...w.objects.map((o) => ({
    output: o,
    ctx: { namespace: String(metaOf(o)['namespace'] ?? '') },
  })),
  ...(w.events?.length
    ? [
        {
          output: { apiVersion: 'v1', kind: 'EventList', items: w.events },
          ctx: { verb: 'events' },
        },
      ]
    : []),
  ...Object.entries(w.logs ?? {}).map(([k, output]) => ({
    output,
    ctx: { pod: k.split('/')[0], container: k.split('/')[1], verb: 'logs' },
  })),
  ...Object.entries(w.previous ?? {}).map(([k, output]) => ({
    output,
    ctx: { pod: k.split('/')[0], container: k.split('/')[1], verb: 'logs', previous: true },
  })),
];

const crashLoop = (exitCode: number, reason = 'Error') => ({
  ready: false,
  restarts: 6,
  state: {
    waiting: { reason: 'CrashLoopBackOff', message: 'back-off 2m40s restarting failed container' },
  },
  lastState: {
    terminated: { exitCode, reason, startedAt: ago(1.2), finishedAt: ago(1) },
  },
});

// ------------------------------------------------------------------------------------------------

describe('1. an HPA at its minimum (ScalingLimited True, TooFewReplicas)', () => {
  const hpa = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'checkout', namespace: 'shop', creationTimestamp: ago(60 * 24 * 60) },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout' },
      minReplicas: 3,
      maxReplicas: 12,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
        },
      ],
    },
    status: {
      currentReplicas: 3,
      desiredReplicas: 3,
      currentMetrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', current: { averageUtilization: 9, averageValue: '18m' } },
        },
      ],
      conditions: [
        {
          type: 'AbleToScale',
          status: 'True',
          lastTransitionTime: ago(60 * 24 * 3),
          reason: 'ReadyForNewScale',
          message: 'recommended size matches current size',
        },
        {
          type: 'ScalingActive',
          status: 'True',
          lastTransitionTime: ago(60 * 24 * 3),
          reason: 'ValidMetricFound',
          message:
            'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
        },
        {
          type: 'ScalingLimited',
          status: 'True',
          lastTransitionTime: ago(60 * 24 * 3),
          reason: 'TooFewReplicas',
          message: 'the desired replica count is less than the minimum replica count',
        },
      ],
    },
  };
  const world: ApiWorld = {
    objects: [
      deployment('checkout', 'shop', 'registry.example.com/shop/checkout:4.2.1', 3, 3),
      ...['k2j9x', 'p4q7r', 'z8m3n'].map((s) =>
        pod({
          name: `checkout-6b7f9c8d4-${s}`,
          ns: 'shop',
          app: 'checkout',
          node: 'worker-1',
          containers: [
            {
              name: 'checkout',
              image: 'registry.example.com/shop/checkout:4.2.1',
              ports: [8080],
              requests: { cpu: '200m', memory: '256Mi' },
            },
          ],
        }),
      ),
      hpa,
    ],
    logs: Object.fromEntries(
      ['k2j9x', 'p4q7r', 'z8m3n'].map((s) => [
        `checkout-6b7f9c8d4-${s}`,
        stamped([
          [9, 'INFO  POST /api/checkout 201 38ms'],
          [4, 'INFO  GET /api/cart 200 12ms'],
        ]),
      ]),
    ),
  };

  it('is no ceiling: a healthy world is "No problem found", without hpa_maxed', async () => {
    const { findings } = findingsOf(apiOutputs(world));
    expect(ids(findings)).not.toContain('hpa_maxed');
    const { result, text } = await investigateAt(
      apiTools(world),
      'is the checkout autoscaler maxed out? it feels slow',
      NOW,
      'shop',
    );
    expect(result.summary).toMatch(/No problem found/);
    expect(text).not.toMatch(/at its maximum/);
  });
});

describe('2. cloud API refusals', () => {
  it("AWS AccessDenied in a failed Job's pod logs: cloud_access_denied, with the role annotation hint", async () => {
    const job = 'orders-export-29552370';
    const podName = `${job}-7xk2p`;
    const world: ApiWorld = {
      objects: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: {
            name: job,
            namespace: 'data',
            creationTimestamp: ago(30),
            ownerReferences: [
              { apiVersion: 'batch/v1', kind: 'CronJob', name: 'orders-export', controller: true },
            ],
          },
          spec: { backoffLimit: 0, completions: 1, parallelism: 1 },
          status: {
            startTime: ago(30),
            failed: 1,
            conditions: [
              {
                type: 'Failed',
                status: 'True',
                reason: 'BackoffLimitExceeded',
                message: 'Job has reached the specified backoff limit',
                lastTransitionTime: ago(28),
              },
            ],
          },
        },
        pod({
          name: podName,
          ns: 'data',
          app: 'orders-export',
          node: 'worker-2',
          owner: { kind: 'Job', name: job },
          labels: { 'job-name': job, 'batch.kubernetes.io/job-name': job },
          phase: 'Failed',
          containers: [
            {
              name: 'export',
              image: 'registry.example.com/data/orders-export:1.8.0',
              ready: false,
              state: {
                terminated: {
                  exitCode: 1,
                  reason: 'Error',
                  startedAt: ago(30),
                  finishedAt: ago(28),
                },
              },
            },
          ],
          spec: { restartPolicy: 'Never', serviceAccountName: 'orders-export' },
        }),
      ],
      events: [
        kubeEvent(
          'data',
          { kind: 'Job', name: job },
          'Warning',
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
          28,
        ),
      ],
      logs: {
        [podName]: stamped([
          [30, '2026-03-10 11:30:01,112 INFO exporting orders for 2026-03-09 (48211 rows)'],
          [29, '2026-03-10 11:31:12,480 INFO wrote /tmp/orders-2026-03-09.csv.gz (7.1 MiB)'],
          [
            28.5,
            '2026-03-10 11:31:13,007 ERROR upload failed: An error occurred (AccessDenied) when calling the PutObject operation: User: arn:aws:sts::123456789012:assumed-role/eks-nodegroup-role/i-0abc is not authorized to perform: s3:PutObject on resource: "arn:aws:s3:::acme-exports/orders/2026-03-09.csv.gz" because no identity-based policy allows the s3:PutObject action',
          ],
        ]),
      },
    };
    const { findings } = findingsOf(apiOutputs(world));
    expect(ids(findings)).toContain('cloud_access_denied');
    const { text } = await investigateAt(
      apiTools(world),
      'the orders-export job failed last night',
      NOW,
      'data',
    );
    expect(text).toMatch(/refused by the cloud API/);
    expect(text).toContain('eks.amazonaws.com/role-arn');
    expect(text).toContain('PutObject');
  });

  it('an EBS CSI "UnauthorizedOperation" on a claim is not read as an image-pull auth failure', () => {
    const { findings } = findingsOf([
      {
        output: {
          apiVersion: 'v1',
          kind: 'EventList',
          items: [
            kubeEvent(
              'media',
              { kind: 'PersistentVolumeClaim', name: 'media-cache' },
              'Warning',
              'ProvisioningFailed',
              'failed to provision volume with StorageClass "gp3": rpc error: code = Internal desc = Could not create volume "pvc-5f1c2d3e-8a9b-4c7d-9e0f-1a2b3c4d5e6f": could not create volume in EC2: UnauthorizedOperation: You are not authorized to perform this operation. Encoded authorization failure message: 4xZ3mQ9kL2pR\n\tstatus code: 403, request id: 9a8b7c6d-1e2f-4a3b-8c9d-0e1f2a3b4c5d',
              10,
              1,
              6,
            ),
          ],
        },
        ctx: { namespace: 'media', verb: 'events' },
      },
    ]);
    expect(ids(findings)).not.toContain('image_pull_auth');
    expect(ids(findings)).toContain('pvc_provisioning_failed');
  });
});

describe('3. a claim the provisioner refuses (ProvisioningFailed)', () => {
  it('ReadWriteMany on EBS: MULTI_NODE_MULTI_WRITER not supported -> pvc_provisioning_failed', async () => {
    const name = 'media-api-5d7c9b8f6-q2w3e';
    const pvc = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'media-uploads',
        namespace: 'media',
        creationTimestamp: ago(25),
        annotations: {
          'volume.beta.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com',
          'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com',
        },
      },
      spec: {
        accessModes: ['ReadWriteMany'],
        resources: { requests: { storage: '50Gi' } },
        storageClassName: 'gp3',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Pending' },
    };
    const world: ApiWorld = {
      objects: [
        deployment('media-api', 'media', 'registry.example.com/media/media-api:2.3.0', 1, 0),
        pod({
          name,
          ns: 'media',
          app: 'media-api',
          phase: 'Pending',
          containers: [
            {
              name: 'media-api',
              image: 'registry.example.com/media/media-api:2.3.0',
              volumeMounts: [{ name: 'uploads', mountPath: '/var/lib/media' }],
            },
          ],
          volumes: [{ name: 'uploads', persistentVolumeClaim: { claimName: 'media-uploads' } }],
        }),
        pvc,
      ],
      events: [
        kubeEvent(
          'media',
          { kind: 'Pod', name },
          'Warning',
          'FailedScheduling',
          '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
          24,
          1,
          9,
        ),
        kubeEvent(
          'media',
          { kind: 'PersistentVolumeClaim', name: 'media-uploads' },
          'Normal',
          'ExternalProvisioning',
          "Waiting for a volume to be created either by the external provisioner 'ebs.csi.aws.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
          24,
          1,
          100,
        ),
        kubeEvent(
          'media',
          { kind: 'PersistentVolumeClaim', name: 'media-uploads' },
          'Warning',
          'ProvisioningFailed',
          'failed to provision volume with StorageClass "gp3": rpc error: code = InvalidArgument desc = Volume capabilities MULTI_NODE_MULTI_WRITER not supported. Only AccessModes[ReadWriteOnce] supported.',
          24,
          1,
          12,
        ),
      ],
    };
    const { findings } = findingsOf(apiOutputs(world));
    expect(ids(findings)).toContain('pvc_provisioning_failed');
    const { text } = await investigateAt(
      apiTools(world),
      'media-api pod is stuck Pending',
      NOW,
      'media',
    );
    expect(text).toMatch(/the claim media-uploads cannot be provisioned/i);
    expect(text).toContain('MULTI_NODE_MULTI_WRITER not supported');
  });
});

describe('4. a LimitRange limit-to-request ratio', () => {
  it('FailedCreate "cpu max limit to request ratio per Container is 4" -> limitrange_rejected', async () => {
    const rs = 'stream-api-6c7d8e9f1';
    const world: ApiWorld = {
      objects: [
        {
          ...deployment('stream-api', 'media', 'registry.example.com/media/stream-api:3.0.0', 2, 0),
          status: {
            replicas: 0,
            conditions: [
              {
                type: 'Available',
                status: 'False',
                reason: 'MinimumReplicasUnavailable',
                message: 'Deployment does not have minimum availability.',
              },
              {
                type: 'ReplicaFailure',
                status: 'True',
                reason: 'FailedCreate',
                message: `pods "${rs}-x2x4z" is forbidden: cpu max limit to request ratio per Container is 4, but provided ratio is 20.000000`,
              },
            ],
          },
        },
      ],
      events: [
        kubeEvent(
          'media',
          { kind: 'ReplicaSet', name: rs },
          'Warning',
          'FailedCreate',
          `Error creating: pods "${rs}-x2x4z" is forbidden: cpu max limit to request ratio per Container is 4, but provided ratio is 20.000000`,
          14,
          1,
          17,
        ),
      ],
    };
    const { findings } = findingsOf(apiOutputs(world));
    expect(ids(findings)).toContain('limitrange_rejected');
    const { text } = await investigateAt(
      apiTools(world),
      'stream-api has no pods after the deploy',
      NOW,
      'media',
    );
    expect(text).toMatch(/rejected by the namespace LimitRange/);
    expect(text).toMatch(/limit-to-request ratio 4/);
  });
});

describe('5. ACME only as a word', () => {
  it('"upload failed ... s3://acme-data-exports/... AccessDenied" is no certificate renewal', () => {
    const name = 'report-uploader-5f6d7c8b9-h4j5k';
    const { model, findings } = findingsOf([
      {
        output: pod({
          name,
          ns: 'reports',
          app: 'report-uploader',
          node: 'worker-1',
          containers: [
            { name: 'report-uploader', image: 'registry.example.com/report-uploader:0.9.1' },
          ],
        }),
        ctx: { namespace: 'reports' },
      },
      {
        output: stamped([
          [
            6,
            'level=error msg="upload failed" key=s3://acme-data-exports/daily/2026-03-10/report.parquet error="AccessDenied: Access Denied\\n\\tstatus code: 403, request id: 5KQ8W1ZJ3T9B0XAM"',
          ],
          [
            3,
            'level=error msg="upload failed" key=s3://acme-data-exports/daily/2026-03-10/summary.parquet error="AccessDenied: Access Denied\\n\\tstatus code: 403, request id: 8N2PD7Q4HV6C1YEF"',
          ],
        ]),
        ctx: { pod: name, namespace: 'reports', verb: 'logs' },
      },
    ]);
    // both lines were read
    expect(model.logs.flatMap((l) => l.lines.map((x) => x.text)).join('\n')).toMatch(
      /upload failed[^\n]*s3:\/\/acme-data-exports[^\n]*AccessDenied[^]*upload failed/,
    );
    expect(ids(findings)).not.toContain('tls_renewal_failed');
  });
});

describe('6. Vault sealed', () => {
  const vaultStatus = [
    'Readiness probe failed: Key                Value',
    '---                -----',
    'Seal Type          shamir',
    'Initialized        true',
    'Sealed             true',
    'Total Shares       5',
    'Threshold          3',
    'Unseal Progress    0/3',
    'Unseal Nonce       n/a',
    'Version            1.17.6',
    'Build Date         2024-09-24T19:48:40Z',
    'Storage Type       raft',
    'HA Enabled         true',
  ].join('\n');
  const client = 'ledger-sync-7d9f8b6c5-m2n4p';
  const vaultPods = ['vault-0', 'vault-1', 'vault-2'];
  const world = (clientLog: string): ApiWorld => ({
    objects: [
      deployment('ledger-sync', 'finance', 'registry.example.com/finance/ledger-sync:5.1.0', 1, 0),
      pod({
        name: client,
        ns: 'finance',
        app: 'ledger-sync',
        node: 'worker-1',
        containers: [
          {
            name: 'ledger-sync',
            image: 'registry.example.com/finance/ledger-sync:5.1.0',
            ...crashLoop(1),
          },
        ],
      }),
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'vault', namespace: 'vault', creationTimestamp: ago(60 * 24 * 200) },
        spec: {
          replicas: 3,
          serviceName: 'vault-internal',
          selector: { matchLabels: { 'app.kubernetes.io/name': 'vault' } },
        },
        status: { replicas: 3, readyReplicas: 0, currentReplicas: 3 },
      },
      service('vault', 'vault', 8200, 8200, '172.20.14.7'),
      ...vaultPods.map((n) =>
        pod({
          name: n,
          ns: 'vault',
          app: 'vault',
          node: 'worker-2',
          owner: { kind: 'StatefulSet', name: 'vault' },
          labels: { 'app.kubernetes.io/name': 'vault', component: 'server' },
          containers: [{ name: 'vault', image: 'hashicorp/vault:1.17.6', ready: false }],
        }),
      ),
    ],
    events: vaultPods.map((n) =>
      kubeEvent('vault', { kind: 'Pod', name: n }, 'Warning', 'Unhealthy', vaultStatus, 90, 1, 540),
    ),
    logs: {
      [client]: '',
      ...Object.fromEntries(
        vaultPods.map((n) => [
          n,
          stamped([
            [92, '==> Vault server started! Log data will stream in below:'],
            [92, '[INFO]  proxy environment: http_proxy="" https_proxy="" no_proxy=""'],
            [91, '[INFO]  core: security barrier not unsealed'],
          ]),
        ]),
      ),
    },
    previous: { [client]: clientLog },
  });

  const sealedLogin = stamped([
    [1.3, '{"level":"info","msg":"ledger-sync 5.1.0 starting"}'],
    [
      1.2,
      '{"level":"fatal","msg":"vault login failed","error":"Error making API request.\\n\\nURL: PUT http://vault.vault.svc.cluster.local:8200/v1/auth/kubernetes/login\\nCode: 503. Errors:\\n\\n* Vault is sealed"}',
    ],
  ]);

  it('a client app\'s log "Code: 503. Errors: * Vault is sealed" -> vault_sealed', async () => {
    const w = world(sealedLogin);
    const { findings } = findingsOf(apiOutputs(w));
    expect(findings.filter((f) => f.entry.id === 'vault_sealed').map((f) => f.workload)).toContain(
      'ledger-sync',
    );
    const { result, text } = await investigateAt(
      apiTools(w),
      'ledger-sync is crashlooping',
      NOW,
      'finance',
    );
    expect(result.summary).toMatch(/Vault is sealed/i);
    expect(text).toMatch(/vault operator unseal/);
  });

  it('on vault, a dependency of the subject: "ledger-sync fails because vault, which it calls, fails"', async () => {
    const w = world(
      stamped([
        [1.3, '{"level":"info","msg":"ledger-sync 5.1.0 starting"}'],
        [
          1.2,
          '{"level":"fatal","msg":"vault login failed","error":"Put \\"http://vault.vault.svc.cluster.local:8200/v1/auth/kubernetes/login\\": context deadline exceeded"}',
        ],
      ]),
    );
    const { result } = await investigateAt(
      apiTools(w),
      'ledger-sync is crashlooping',
      NOW,
      'finance',
    );
    expect(result.root_cause.description).toMatch(
      /^ledger-sync fails because vault \(pod vault-0\), which it calls, fails \(it logs "\{.*vault login failed.*"\)\. Vault is sealed/,
    );
  });
});

describe('7. an OOMKill with a RAM-backed emptyDir', () => {
  const name = 'catalog-feed-builder-6f7d8c9b5-w4x5y';
  const oom = {
    terminated: {
      exitCode: 137,
      reason: 'OOMKilled',
      startedAt: ago(3),
      finishedAt: ago(1),
    },
  };
  const logs = stamped([
    [3, 'INFO building feed for 412337 products into /scratch/feed.xml'],
    [2, 'INFO wrote 1.6 GiB so far'],
  ]);

  it('from API objects: "emptyDir volume scratch at /scratch has medium: Memory"', async () => {
    const world: ApiWorld = {
      objects: [
        deployment(
          'catalog-feed-builder',
          'catalog',
          'registry.example.com/catalog/feed-builder:2.0.4',
          1,
          0,
        ),
        pod({
          name,
          ns: 'catalog',
          app: 'catalog-feed-builder',
          node: 'worker-3',
          containers: [
            {
              name: 'feed-builder',
              image: 'registry.example.com/catalog/feed-builder:2.0.4',
              limits: { memory: '2Gi' },
              requests: { cpu: '500m', memory: '2Gi' },
              volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
              ready: false,
              restarts: 5,
              state: {
                waiting: {
                  reason: 'CrashLoopBackOff',
                  message: 'back-off 2m40s restarting failed container',
                },
              },
              lastState: oom,
            },
          ],
          volumes: [{ name: 'scratch', emptyDir: { medium: 'Memory' } }],
        }),
      ],
      logs: { [name]: '' },
      previous: { [name]: logs },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'catalog-feed-builder keeps restarting',
      NOW,
      'catalog',
    );
    expect(text).toMatch(/OOMKilled/);
    expect(text).toContain('emptyDir volume scratch at /scratch has medium: Memory');
  });

  it('from describe text: the same, read from "Medium: Memory" and "/scratch from scratch (rw)"', async () => {
    const described = describePod({
      name,
      namespace: 'catalog',
      node: 'worker-3',
      labels: ['app=catalog-feed-builder', 'pod-template-hash=6f7d8c9b5'],
      controlledBy: 'ReplicaSet/catalog-feed-builder-6f7d8c9b5',
      status: 'Running',
      container: {
        name: 'feed-builder',
        image: 'registry.example.com/catalog/feed-builder:2.0.4',
        state: ['Waiting', 'Reason:       CrashLoopBackOff'],
        last: [
          'Terminated',
          'Reason:       OOMKilled',
          'Exit Code:    137',
          `Started:      ${kubeTime(3)}`,
          `Finished:     ${kubeTime(1)}`,
        ],
        ready: false,
        restarts: 5,
        limits: { memory: '2Gi' },
        requests: { cpu: '500m', memory: '2Gi' },
      },
      conditions: [
        ['Initialized', 'True'],
        ['Ready', 'False'],
        ['ContainersReady', 'False'],
        ['PodScheduled', 'True'],
      ],
    })
      .replace('    Mounts:\n', '    Mounts:\n      /scratch from scratch (rw)\n')
      .replace(
        'Volumes:\n',
        [
          'Volumes:',
          '  scratch:',
          "    Type:       EmptyDir (a temporary directory that shares a pod's lifetime)",
          '    Medium:     Memory',
          '    SizeLimit:  <unset>',
          '',
        ].join('\n'),
      );
    const world: TextWorld = {
      tables: { pod: podsTable([[name, '0/1', 'CrashLoopBackOff', '5', '1h', 'worker-3']]) },
      describe: { [`pod/${name}`]: described },
      logs: { [name]: '' },
      previous: { [name]: logs },
    };
    const { model } = findingsOf(textOutputs(world, 'catalog'));
    expect(model.get('pod', name, 'catalog')?.fields['memoryVolumes']).toBe('scratch at /scratch');
    const { text } = await investigateAt(
      textTools(world),
      'catalog-feed-builder keeps restarting',
      NOW,
      'catalog',
    );
    expect(text).toContain('emptyDir volume scratch at /scratch has medium: Memory');
  });
});

describe('8. a hostNetwork pod without ClusterFirstWithHostNet', () => {
  it('"no such host" for a cluster name: the conclusion names ClusterFirstWithHostNet', async () => {
    const name = 'edge-metrics-agent-4k7lm';
    const world: ApiWorld = {
      objects: [
        pod({
          name,
          ns: 'monitoring',
          app: 'edge-metrics-agent',
          node: 'ip-10-0-25-91.eu-west-1.compute.internal',
          owner: { kind: 'DaemonSet', name: 'edge-metrics-agent' },
          containers: [
            {
              name: 'agent',
              image: 'registry.example.com/edge-metrics-agent:1.3.2',
              ports: [9100],
            },
          ],
          spec: { hostNetwork: true, dnsPolicy: 'ClusterFirst' },
        }),
      ],
      logs: {
        [name]: stamped(
          [9, 7, 5, 3, 1].map((m): [number, string] => [
            m,
            `level=error msg="flush failed" err="dial tcp: lookup orders-db.data.svc.cluster.local on 10.0.0.2:53: no such host"`,
          ]),
        ),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'edge-metrics-agent cannot reach orders-db',
      NOW,
      'monitoring',
    );
    expect(text).toMatch(/no such host/);
    expect(text).toContain('ClusterFirstWithHostNet');
  });
});

describe('9. questions', () => {
  describe('"which pods in payments use the stripe-api-key secret (env or mounted)?"', () => {
    const image = 'registry.example.com/payments/app:1.0.0';
    const world: ApiWorld = {
      objects: [
        ...['default', 'kube-system', 'payments', 'payments-sandbox'].map((n) => ({
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: n, creationTimestamp: ago(60 * 24 * 300) },
          status: { phase: 'Active' },
        })),
        // the same Secret name in another namespace: not asked about
        pod({
          name: 'charge-api-5b6c7d8e9-s4t5u',
          ns: 'payments-sandbox',
          app: 'charge-api',
          node: 'worker-3',
          containers: [
            {
              name: 'charge-api',
              image,
              envFrom: [{ secretRef: { name: 'stripe-api-key' } }],
            },
          ],
        }),
        pod({
          name: 'charge-api-7c9d8b7f6-x2x4z',
          ns: 'payments',
          app: 'charge-api',
          node: 'worker-1',
          containers: [
            {
              name: 'charge-api',
              image,
              env: [
                {
                  name: 'STRIPE_API_KEY',
                  valueFrom: { secretKeyRef: { name: 'stripe-api-key', key: 'api-key' } },
                },
              ],
            },
          ],
        }),
        pod({
          name: 'refund-worker-5d4c3b2a1-p9q8r',
          ns: 'payments',
          app: 'refund-worker',
          node: 'worker-1',
          containers: [
            { name: 'refund-worker', image, envFrom: [{ secretRef: { name: 'stripe-api-key' } }] },
          ],
        }),
        pod({
          name: 'webhook-relay-6b7f9c8d4-k2j9x',
          ns: 'payments',
          app: 'webhook-relay',
          node: 'worker-2',
          containers: [
            {
              name: 'webhook-relay',
              image,
              volumeMounts: [{ name: 'stripe', mountPath: '/etc/stripe', readOnly: true }],
            },
          ],
          volumes: [{ name: 'stripe', secret: { secretName: 'stripe-api-key' } }],
        }),
        pod({
          name: 'ledger-api-8e9f7d6c5-z1y2x',
          ns: 'payments',
          app: 'ledger-api',
          node: 'worker-2',
          containers: [
            {
              name: 'ledger-api',
              image,
              env: [
                {
                  name: 'DB_PASSWORD',
                  valueFrom: { secretKeyRef: { name: 'ledger-db', key: 'password' } },
                },
              ],
            },
          ],
        }),
      ],
    };
    const question = 'which pods in payments use the stripe-api-key secret (env or mounted)?';

    it('env secretKeyRef, envFrom and a secret volume, in the namespace of the request', async () => {
      const { text } = await investigateAt(apiTools(world), question, NOW, 'payments');
      expect(text).toMatch(
        /3 pods in namespace payments use the Secret stripe-api-key \(of 4 read\)/,
      );
      expect(text).toContain('charge-api-7c9d8b7f6-x2x4z (env)');
      expect(text).toContain('refund-worker-5d4c3b2a1-p9q8r (env)');
      expect(text).toContain('webhook-relay-6b7f9c8d4-k2j9x (volume)');
      expect(text).not.toContain('ledger-api-8e9f7d6c5-z1y2x');
      expect(text).not.toContain('charge-api-5b6c7d8e9-s4t5u');
    });

    // "in payments" (a bare namespace name, no context): the refined scope's namespace, so a pod
    // of payments-sandbox is not counted
    it('"in payments" alone scopes the answer to that namespace', async () => {
      const { text } = await investigateAt(apiTools(world), question, NOW);
      expect(text).toMatch(/3 pods in namespace payments use the Secret stripe-api-key/);
      expect(text).not.toContain('charge-api-5b6c7d8e9-s4t5u');
    });
  });

  it('"what did order-router log about its circuit breakers since 14:00?": the lines on the topic, in the window', async () => {
    const now = Date.parse('2026-03-10T15:30:00Z');
    const at = (hhmm: string) => `2026-03-10T${hhmm}:00.482913Z`;
    const pods = ['order-router-6d7f8c9b5-aaaaa', 'order-router-6d7f8c9b5-bbbbb'];
    const world: ApiWorld = {
      objects: pods.map((n) =>
        pod({
          name: n,
          ns: 'orders',
          app: 'order-router',
          node: 'worker-1',
          containers: [{ name: 'order-router', image: 'registry.example.com/order-router:7.2.0' }],
        }),
      ),
      logs: {
        [pods[0]!]: [
          `${at('13:20')} 2026-03-10 13:20:00.481  WARN 1 --- [pool-3-thread-7] i.g.r.c.i.CircuitBreakerStateMachine : Event STATE_TRANSITION published: CircuitBreaker 'inventory-early' changed state from CLOSED to OPEN`,
          `${at('14:07')} 2026-03-10 14:07:00.481  WARN 1 --- [pool-3-thread-2] i.g.r.c.i.CircuitBreakerStateMachine : Event STATE_TRANSITION published: CircuitBreaker 'inventory' changed state from CLOSED to OPEN`,
          `${at('14:09')} 2026-03-10 14:09:00.112  INFO 1 --- [nio-8080-exec-4] c.a.o.r.RouteController : routed order ord_81730 to warehouse eu-2`,
          `${at('14:08')} 2026-03-10 14:08:00.200  INFO 1 --- [pool-3-thread-2] i.g.r.c.i.CircuitBreakerStateMachine : Event STATE_TRANSITION published: CircuitBreaker 'inventory' changed state from OPEN to HALF_OPEN`,
        ].join('\n'),
        [pods[1]!]: [
          `${at('14:40')} 2026-03-10 14:40:00.903  INFO 1 --- [nio-8080-exec-9] c.a.o.r.RouteController : routed order ord_81744 to warehouse eu-1`,
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'what did order-router log about its circuit breakers since 14:00?',
      now,
      'orders',
    );
    expect(text).toContain(
      '1 of the 2 pod(s) whose logs I read logged lines about circuit breaker since 2026-03-10T14:00:00.000Z, 2 times in all',
    );
    expect(text).toContain("CircuitBreaker 'inventory' changed state from CLOSED to OPEN");
    expect(text).not.toContain('inventory-early');
    expect(text).not.toContain('ord_81730');
  });

  describe('"when did nightly-billing-rollup last succeed, and how long did that run take?"', () => {
    const question =
      'when did nightly-billing-rollup last succeed, and how long did that run take?';
    // three runs: 2 days ago (ok), yesterday (ok, 13m37s), today (failed)
    // five nightly runs (01:00): two that completed, then three that failed; the Jobs are named
    // by the CronJob after their schedule in minutes since the epoch
    const runs = [
      { id: '29545980', start: 60 * 107, took: 12 * 60 + 5, ok: true, age: '4d11h' },
      { id: '29547420', start: 60 * 83, took: 13 * 60 + 37, ok: true, age: '3d11h' },
      { id: '29548860', start: 60 * 59, took: 41 * 60, ok: false, age: '2d11h' },
      { id: '29550300', start: 60 * 35, took: 38 * 60, ok: false, age: '35h' },
      { id: '29551740', start: 60 * 11, took: 44 * 60, ok: false, age: '11h' },
    ];
    const iso = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();
    const startOf = (r: (typeof runs)[number]) => r.start;
    const endOf = (r: (typeof runs)[number]) => r.start - r.took / 60;
    const expected = [
      'nightly-billing-rollup last succeeded with Job nightly-billing-rollup-29547420:',
      `started ${iso(60 * 83)}, completed ${iso(60 * 83 - 13 - 37 / 60)}`,
      'took 13m37s.',
      'Since then 3 run(s) failed:',
      'nightly-billing-rollup-29548860',
      'nightly-billing-rollup-29550300',
      'nightly-billing-rollup-29551740',
    ];

    it('from Job objects (status.startTime, status.completionTime)', async () => {
      const world: ApiWorld = {
        objects: [
          {
            apiVersion: 'batch/v1',
            kind: 'CronJob',
            metadata: { name: 'nightly-billing-rollup', namespace: 'billing' },
            spec: { schedule: '0 1 * * *', jobTemplate: { spec: {} } },
            status: { lastScheduleTime: iso(60 * 11), lastSuccessfulTime: iso(endOf(runs[1]!)) },
          },
          ...runs.map((r) => ({
            apiVersion: 'batch/v1',
            kind: 'Job',
            metadata: {
              name: `nightly-billing-rollup-${r.id}`,
              namespace: 'billing',
              creationTimestamp: iso(startOf(r)),
              ownerReferences: [
                {
                  apiVersion: 'batch/v1',
                  kind: 'CronJob',
                  name: 'nightly-billing-rollup',
                  controller: true,
                },
              ],
            },
            spec: { backoffLimit: 2, completions: 1, parallelism: 1 },
            status: r.ok
              ? {
                  startTime: iso(startOf(r)),
                  completionTime: iso(endOf(r)),
                  succeeded: 1,
                  conditions: [
                    { type: 'Complete', status: 'True', lastTransitionTime: iso(endOf(r)) },
                  ],
                }
              : {
                  startTime: iso(startOf(r)),
                  failed: 3,
                  conditions: [
                    {
                      type: 'Failed',
                      status: 'True',
                      reason: 'BackoffLimitExceeded',
                      message: 'Job has reached the specified backoff limit',
                      lastTransitionTime: iso(endOf(r)),
                    },
                  ],
                },
          })),
        ],
      };
      const { text } = await investigateAt(apiTools(world), question, NOW, 'billing');
      for (const e of expected) expect(text).toContain(e);
    });

    it('from describe text ("Start Time:", "Completed At:") when the listing has no times', async () => {
      const describeJob = (r: (typeof runs)[number]) =>
        [
          `Name:             nightly-billing-rollup-${r.id}`,
          'Namespace:        billing',
          'Selector:         batch.kubernetes.io/controller-uid=3f1c9a7e-2b4d-4e6f-8a0b-1c2d3e4f5a6b',
          'Labels:           batch.kubernetes.io/controller-uid=3f1c9a7e-2b4d-4e6f-8a0b-1c2d3e4f5a6b',
          `                  batch.kubernetes.io/job-name=nightly-billing-rollup-${r.id}`,
          `                  job-name=nightly-billing-rollup-${r.id}`,
          `Annotations:      batch.kubernetes.io/cronjob-scheduled-timestamp: ${iso(startOf(r))}`,
          'Controlled By:    CronJob/nightly-billing-rollup',
          'Parallelism:      1',
          'Completions:      1',
          'Completion Mode:  NonIndexed',
          'Suspend:          false',
          'Backoff Limit:    2',
          `Start Time:       ${kubeTime(startOf(r))}`,
          ...(r.ok
            ? [
                `Completed At:     ${kubeTime(endOf(r))}`,
                `Duration:         ${Math.floor(r.took / 60)}m${r.took % 60}s`,
              ]
            : []),
          `Pods Statuses:    0 Active (0 Ready) / ${r.ok ? 1 : 0} Succeeded / ${r.ok ? 0 : 3} Failed`,
          'Pod Template:',
          '  Labels:  batch.kubernetes.io/job-name=nightly-billing-rollup-' + r.id,
          '  Containers:',
          '   rollup:',
          '    Image:      registry.example.com/billing/rollup:3.4.0',
          '    Port:       <none>',
          '    Host Port:  <none>',
          '    Environment:  <none>',
          '    Mounts:       <none>',
          '  Volumes:        <none>',
          'Events:           <none>',
          '',
        ].join('\n');
      const world: TextWorld = {
        tables: {
          job: table(
            ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'],
            runs.map((r) => [
              `nightly-billing-rollup-${r.id}`,
              r.ok ? 'Complete' : 'Failed',
              r.ok ? '1/1' : '0/1',
              `${Math.floor(r.took / 60)}m`,
              r.age,
            ]),
          ),
        },
        describe: Object.fromEntries(
          runs.map((r) => [`job/nightly-billing-rollup-${r.id}`, describeJob(r)]),
        ),
      };
      const { text } = await investigateAt(textTools(world), question, NOW, 'billing');
      for (const e of expected) expect(text).toContain(e);
    });
  });
});

describe('10. an init container in Init:CrashLoopBackOff', () => {
  it('its previous run is read by container, and its error quoted', async () => {
    const name = 'orders-api-7b9f6c5d48-x7k2p';
    const error =
      'django.db.utils.OperationalError: connection to server at "orders-db.shop.svc.cluster.local" (10.96.44.12), port 5432 failed: FATAL:  password authentication failed for user "orders"';
    const world: ApiWorld = {
      objects: [
        deployment('orders-api', 'shop', 'registry.example.com/shop/orders-api:6.0.0', 1, 0),
        pod({
          name,
          ns: 'shop',
          app: 'orders-api',
          node: 'worker-1',
          phase: 'Pending',
          initContainers: [
            {
              name: 'migrate',
              image: 'registry.example.com/shop/orders-api:6.0.0',
              ...crashLoop(1),
            },
          ],
          containers: [
            {
              name: 'orders-api',
              image: 'registry.example.com/shop/orders-api:6.0.0',
              ready: false,
              state: { waiting: { reason: 'PodInitializing' } },
            },
          ],
        }),
      ],
      events: [
        kubeEvent(
          'shop',
          { kind: 'Pod', name },
          'Warning',
          'BackOff',
          `Back-off restarting failed container migrate in pod ${name}_shop(2d3e4f5a)`,
          20,
          1,
          40,
        ),
      ],
      // the current run has only just started; its last words are in the previous one
      logs: { [`${name}/migrate`]: '' },
      previous: {
        [`${name}/migrate`]: stamped([
          [1.3, 'Operations to perform:'],
          [1.3, '  Apply all migrations: admin, auth, contenttypes, orders, sessions'],
          [1.2, 'Traceback (most recent call last):'],
          [
            1.2,
            '  File "/usr/local/lib/python3.12/site-packages/django/db/backends/base/base.py", line 279, in ensure_connection',
          ],
          [1.2, '    self.connect()'],
          [1.1, error],
        ]),
      },
    };
    const { gateway, text } = await investigateAt(
      apiTools(world),
      'orders-api pods are stuck in Init:CrashLoopBackOff',
      NOW,
      'shop',
    );
    expect(logCalls(gateway)).toContainEqual([name, 'migrate', true]);
    expect(text).toContain('password authentication failed for user "orders"');
  });
});

describe('11. evictions for want of process IDs', () => {
  const node = 'ip-10-0-44-12.eu-west-1.compute.internal';
  const evicted = (n: string, app: string, container: string): Obj =>
    pod({
      name: n,
      ns: 'web',
      app,
      node,
      phase: 'Failed',
      reason: 'Evicted',
      message: 'The node was low on resource: pids. Threshold quantity: 1024, available: 987. ',
      containers: [
        {
          name: container,
          image: `registry.example.com/web/${app}:1.0.0`,
          ready: false,
          state: {
            terminated: {
              exitCode: 137,
              reason: 'ContainerStatusUnknown',
              message: 'The container could not be located when the pod was terminated',
            },
          },
        },
      ],
    });
  const world: ApiWorld = {
    objects: [
      deployment(
        'screenshot-service',
        'web',
        'registry.example.com/web/screenshot-service:1.0.0',
        2,
        1,
      ),
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: node, labels: { 'kubernetes.io/hostname': node } },
        spec: {},
        status: {
          conditions: [
            {
              type: 'PIDPressure',
              status: 'True',
              reason: 'KubeletHasInsufficientPID',
              message: 'kubelet has insufficient PID available',
              lastTransitionTime: ago(25),
            },
            {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
            },
          ],
          allocatable: { cpu: '3920m', memory: '15Gi', pods: '58' },
        },
      },
      evicted('screenshot-service-5c6d7e8f9-a1b2c', 'screenshot-service', 'screenshot-service'),
      evicted('screenshot-service-5c6d7e8f9-d3e4f', 'screenshot-service', 'screenshot-service'),
      evicted('pdf-renderer-7d8e9f1a2-g5h6i', 'pdf-renderer', 'pdf-renderer'),
      evicted('thumbnailer-8e9f1a2b3-j7k8l', 'thumbnailer', 'thumbnailer'),
      pod({
        name: 'screenshot-service-5c6d7e8f9-m9n1p',
        ns: 'web',
        app: 'screenshot-service',
        node: 'ip-10-0-31-7.eu-west-1.compute.internal',
        containers: [
          {
            name: 'screenshot-service',
            image: 'registry.example.com/web/screenshot-service:1.0.0',
          },
        ],
      }),
    ],
    events: [
      kubeEvent(
        'web',
        { kind: 'Pod', name: 'screenshot-service-5c6d7e8f9-a1b2c' },
        'Warning',
        'Evicted',
        'The node was low on resource: pids. Threshold quantity: 1024, available: 987. ',
        20,
      ),
    ],
  };

  it('"The node was low on resource: pids" -> evicted_pids (a process leak, podPidsLimit)', async () => {
    const { findings } = findingsOf(apiOutputs(world));
    expect(ids(findings)).toContain('evicted_pids');
    const { result, text } = await investigateAt(
      apiTools(world),
      'screenshot-service pods keep getting evicted',
      NOW,
      'web',
    );
    expect(result.summary).toMatch(/ran out of process IDs/);
    expect(text).toMatch(/podPidsLimit/);
  });

  it('the other workloads the node evicted are named', async () => {
    const { text } = await investigateAt(
      apiTools(world),
      'screenshot-service pods keep getting evicted',
      NOW,
      'web',
    );
    expect(text).toMatch(new RegExp(`Evicted on ${node.replace(/\./g, '\\.')}: [^.]*pdf-renderer`));
    expect(text).toMatch(/Evicted on [^:]+: [^\n]*thumbnailer/);
  });
});

describe('12. an ingress-nginx rewrite-target without a capture group', () => {
  const podName = 'storefront-api-6c8d7e9f5-q2w3e';
  const ingress = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      name: 'storefront-api',
      namespace: 'shop',
      creationTimestamp: ago(60 * 24 * 100),
      annotations: { 'nginx.ingress.kubernetes.io/rewrite-target': '/' },
    },
    spec: {
      ingressClassName: 'nginx',
      rules: [
        {
          host: 'api.shop.example.com',
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: 'storefront-api', port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
    status: {
      loadBalancer: { ingress: [{ hostname: 'k8s-ingress-1a2b3c.elb.eu-west-1.amazonaws.com' }] },
    },
  };
  /** the app's own access log (Go, combined format), as the ingress hands it the rewritten path */
  /** "10/Mar/2026:11:51:00 +0000" */
  const clf = (m: number) => {
    const [, day, mon, year, time] = new Date(NOW - m * 60_000).toUTCString().split(' ');
    return `${day}/${mon}/${year}:${time} +0000`;
  };
  const access = (m: number, status: number, reqId: string) =>
    `${stamp(m)} 10.0.12.9 - - [${clf(m)}] "GET / HTTP/1.1" ${status} ${status === 404 ? 19 : 5120} "-" "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0" req=${reqId}`;
  const world = (status: number): ApiWorld => ({
    objects: [
      deployment('storefront-api', 'shop', 'registry.example.com/shop/storefront-api:8.3.0', 2, 2),
      service('storefront-api', 'shop', 80, 8080, '172.20.88.14'),
      pod({
        name: podName,
        ns: 'shop',
        app: 'storefront-api',
        node: 'worker-1',
        containers: [
          {
            name: 'storefront-api',
            image: 'registry.example.com/shop/storefront-api:8.3.0',
            ports: [8080],
          },
        ],
      }),
      ingress,
    ],
    logs: {
      [podName]: [9, 7, 5, 3, 1].map((m, i) => access(m, status, `7f3a91c${i}`)).join('\n'),
    },
  });

  it('the service answering 404 for "/" -> ingress_rewrite_fixed from the annotation', async () => {
    const { findings } = findingsOf(apiOutputs(world(404)));
    expect(ids(findings)).toContain('ingress_rewrite_fixed');
    const { text } = await investigateAt(
      apiTools(world(404)),
      'every page of api.shop.example.com returns 404 since this morning',
      NOW,
      'shop',
    );
    expect(text).toMatch(/rewrites every request for api\.shop\.example\.com\/ to "\/"/);
    expect(text).toMatch(/capture group/);
  });

  it('without the 404s there is no finding (no false alarm)', () => {
    const { findings } = findingsOf(apiOutputs(world(200)));
    expect(ids(findings)).not.toContain('ingress_rewrite_fixed');
  });
});
