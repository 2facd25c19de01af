/**
 * Four questions of round 20 read off one kind's own state, asked in words other than the
 * bench's and answered from outputs shaped like real ones (Kubernetes API objects as JSON,
 * `kubectl get` tables and `kubectl describe` text as libs/kube prints them): which workloads
 * read a ConfigMap (env, envFrom, volumes, projected volumes, CronJob templates), which
 * certificates expire in a window and whether each renews, which nodes run an older kubelet,
 * which PersistentVolumes sit in a phase with their former claims and total size. Each with the
 * near miss: an incident that merely mentions the words stays an incident.
 */
import { describe as kubeDescribe, getTable } from '@inquest/kube';
import { observe } from './observe';
import { scopeIncident } from './scope';
import { NOW, ago, apiTools, investigateAt, podObj, textTools, type TextWorld } from './spec-world';

type Obj = Record<string, unknown>;
const now = new Date(NOW);
const day = 24 * 60;
const inDays = (d: number) => new Date(NOW + d * 86_400_000).toISOString();
const nameOf = (o: Obj) => String((o['metadata'] as Obj)['name']);
const kindOf = (o: Obj) => String(o['kind']).toLowerCase();
const described = (objects: Obj[]) =>
  Object.fromEntries(
    objects.map((o) => [`${kindOf(o)}/${nameOf(o)}`, kubeDescribe(o, { events: [], now })]),
  );

// ---------------------------------------------------------------- workloads reading a ConfigMap

describe('questions of round 20: which workloads read a ConfigMap', () => {
  it.each([
    [
      'before I change the billing-toggles configmap, which deployments read it?',
      'billing-toggles',
    ],
    [
      'I want to edit LIMITS in the rates-config ConfigMap. which workloads use that configmap (env or mounted)?',
      'rates-config',
    ],
    ['what apps mount configmap edge-routes?', 'edge-routes'],
  ])('"%s" asks which workloads read the ConfigMap', (message, name) => {
    expect(scopeIncident(message, {}, NOW).question).toEqual(
      expect.objectContaining({ type: 'uses', kind: 'configmap', name, by: 'workload' }),
    );
  });

  it.each([
    // an incident about a missing key, not a question about its readers
    "checkout-api fails to start: couldn't find key FLAG_X in ConfigMap shop/shop-flags, why?",
    'which pods crash since the shop-flags configmap changed?',
  ])('"%s" is no question about the readers', (message) => {
    const q = scopeIncident(message, {}, NOW).question;
    expect(q && q.type === 'uses' && 'by' in q ? q.by : undefined).toBeUndefined();
  });

  const deployment = (name: string, podSpec: Obj): Obj => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'retail', creationTimestamp: ago(40 * day) },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: podSpec },
    },
    status: { replicas: 1, readyReplicas: 1, availableReplicas: 1 },
  });
  const box = (extra: Obj): Obj => ({
    name: 'app',
    image: 'registry.example.com/app:2.4.1',
    ...extra,
  });
  const objects: Obj[] = [
    deployment('orders', {
      containers: [box({ envFrom: [{ configMapRef: { name: 'toggles' } }] })],
    }),
    deployment('basket', {
      containers: [
        box({
          env: [
            {
              name: 'FEATURE_GIFTCARDS',
              valueFrom: { configMapKeyRef: { name: 'toggles', key: 'giftcards' } },
            },
          ],
        }),
      ],
    }),
    deployment('web', {
      containers: [box({ volumeMounts: [{ name: 'flags', mountPath: '/etc/flags' }] })],
      volumes: [{ name: 'flags', configMap: { name: 'toggles' } }],
    }),
    // a projected volume gathers it with a Secret
    deployment('edge', {
      containers: [box({ volumeMounts: [{ name: 'bundle', mountPath: '/etc/bundle' }] })],
      volumes: [
        {
          name: 'bundle',
          projected: {
            sources: [{ configMap: { name: 'toggles' } }, { secret: { name: 'edge-tls' } }],
          },
        },
      ],
    }),
    // a similarly named ConfigMap, and one that is not named alike at all
    deployment('backoffice', {
      containers: [box({ envFrom: [{ configMapRef: { name: 'toggles-legacy' } }] })],
    }),
    deployment('search', {
      containers: [box({ envFrom: [{ configMapRef: { name: 'search-config' } }] })],
    }),
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nightly-promo', namespace: 'retail', creationTimestamp: ago(40 * day) },
      spec: {
        schedule: '0 2 * * *',
        jobTemplate: {
          spec: {
            template: {
              spec: {
                restartPolicy: 'Never',
                containers: [box({ envFrom: [{ configMapRef: { name: 'toggles' } }] })],
              },
            },
          },
        },
      },
      status: { lastScheduleTime: ago(600) },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'toggles', namespace: 'retail' },
      data: { giftcards: 'off' },
    },
  ];

  it('API objects: every reader per workload (env key, envFrom, volume, projected, CronJob), the look-alike said apart', async () => {
    const { text } = await investigateAt(
      apiTools({ objects }),
      'before flipping giftcards in the toggles ConfigMap: which workloads read that configmap?',
      NOW,
      'retail',
    );
    expect(text).toContain('5 workloads in namespace retail read the ConfigMap toggles');
    expect(text).toContain('Deployment orders (envFrom)');
    expect(text).toContain('Deployment basket (env FEATURE_GIFTCARDS (key giftcards))');
    expect(text).toContain('Deployment web (volume flags at /etc/flags)');
    expect(text).toContain('Deployment edge (volume bundle at /etc/bundle)');
    expect(text).toContain('CronJob nightly-promo: the next run reads the new value by itself');
    expect(text).toContain(
      'Similarly named, not the same ConfigMap: backoffice reads toggles-legacy',
    );
    expect(text).not.toMatch(/search \(|Deployment backoffice \(/);
  });

  it("a pod of a CronJob's Job not read itself counts under the CronJob", async () => {
    const pod = podObj({
      name: 'nightly-promo-29000000-x7k2p',
      ns: 'retail',
      labels: { 'job-name': 'nightly-promo-29000000' },
      owner: { kind: 'Job', name: 'nightly-promo-29000000' },
      boxes: [
        {
          name: 'app',
          image: 'registry.example.com/app:2.4.1',
          state: { terminated: { reason: 'Completed', exitCode: 0 } },
        },
      ],
      phase: 'Succeeded',
    });
    ((pod['spec'] as Obj)['containers'] as Obj[])[0]!['envFrom'] = [
      { configMapRef: { name: 'toggles' } },
    ];
    const { text } = await investigateAt(
      apiTools({ objects: [...objects, pod] }),
      'which workloads read the toggles configmap?',
      NOW,
      'retail',
    );
    expect(text).not.toContain('Job nightly-promo-29000000');
    expect(text).toContain('CronJob nightly-promo (envFrom)');
  });

  it("a projected volume's ConfigMap counts, the API access volume every pod gets does not", () => {
    const pod = podObj({
      name: 'edge-7d9f-abcde',
      ns: 'retail',
      labels: { app: 'edge' },
      owner: { kind: 'ReplicaSet', name: 'edge-7d9f' },
      boxes: [{ name: 'app', image: 'registry.example.com/app:2.4.1' }],
    });
    (pod['spec'] as Obj)['volumes'] = [
      { name: 'bundle', projected: { sources: [{ configMap: { name: 'toggles' } }] } },
      {
        name: 'kube-api-access-x2v9q',
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          ],
        },
      },
    ];
    const [seen] = observe(pod, { tool: 'pods_get', verb: 'get' }).objects;
    expect(seen?.fields['configMaps']).toBe('toggles');
  });

  it('no reader: says so, with what was read', async () => {
    const { text } = await investigateAt(
      apiTools({ objects }),
      'which deployments use the unused-config configmap?',
      NOW,
      'retail',
    );
    expect(text).toContain('No workload in namespace retail reads the ConfigMap unused-config');
  });
});

// ---------------------------------------------------------------- certificates expiring

describe('questions of round 20: which certificates expire in a window', () => {
  it.each([
    ['which certificates in edge expire in the next 14 days?', 14],
    ['any TLS certs expiring within 2 weeks?', 14],
    ['list the certs that expire soon and whether cert-manager renews them', 30],
    ['which certificates expire this week?', 7],
  ])('"%s" asks for the certificates expiring in %i days', (message, days) => {
    expect(scopeIncident(message, {}, NOW).question).toEqual(
      expect.objectContaining({ type: 'cert_expiry', within: days * 86_400_000 }),
    );
  });

  it.each([
    'x509: certificate has expired or is not yet valid on api.example.com, why?',
    'which pods fail the TLS handshake since the certificate expired?',
    "api-tls expires tomorrow and renewal is failing, what's wrong?",
  ])('"%s" is an incident, not a question about expiry', (message) => {
    expect(scopeIncident(message, {}, NOW).question?.type).not.toBe('cert_expiry');
  });

  const cert = (
    name: string,
    ns: string,
    notAfter: number,
    renewal: number,
    issuing?: Obj,
  ): Obj => ({
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name, namespace: ns, creationTimestamp: ago(200 * day) },
    spec: {
      secretName: name,
      dnsNames: [`${name}.example.org`],
      issuerRef: { kind: 'ClusterIssuer', name: 'acme' },
    },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Ready',
          message: 'Certificate is up to date and has not expired',
        },
        ...(issuing ? [issuing] : []),
      ],
      notAfter: inDays(notAfter),
      renewalTime: inDays(renewal),
    },
  });
  const certs = [
    cert('portal-tls', 'edge', 12, -18, {
      type: 'Issuing',
      status: 'False',
      reason: 'Failed',
      lastTransitionTime: ago(18 * day),
      message:
        'The certificate request has failed to complete and will be retried: Failed to finalize Order: 403 urn:ietf:params:acme:error:unauthorized: Error finalizing order :: authorizations for these identifiers not found',
    }),
    cert('mtls-server', 'edge', 20, 6),
    cert('docs-tls', 'edge', 70, 40),
    cert('ops-tls', 'ops', 5, -25, {
      type: 'Issuing',
      status: 'True',
      reason: 'Renewing',
      lastTransitionTime: ago(3),
    }),
  ];

  it('API objects: the two inside the window, each with its renewal state; later and other namespaces apart', async () => {
    const { text } = await investigateAt(
      apiTools({ objects: certs }),
      'which certificates in the edge namespace expire in the next 30 days, and are they renewing?',
      NOW,
      'edge',
    );
    expect(text).toContain('2 of 3 Certificates in namespace edge expire within 30 days');
    expect(text).toMatch(
      /portal-tls \(notAfter [\d-]+, in 12 days; renewal FAILING \(Issuing=False Failed/,
    );
    expect(text).toContain('authorizations for these identifiers not found');
    expect(text).toMatch(
      /mtls-server \(notAfter [\d-]+, in 20 days; healthy, cert-manager renews it on [\d-]+ \(in 6 days\)\)/,
    );
    expect(text).toContain('Later: docs-tls');
    expect(text).not.toContain('ops-tls');
  });

  it('`kubectl get certificate` without dates: each one read for its notAfter', async () => {
    const mine = certs.slice(0, 3);
    const world: TextWorld = {
      tables: {
        certificate: [
          'NAME          READY   SECRET        AGE',
          ...mine.map((c) => `${nameOf(c).padEnd(13)} True    ${nameOf(c).padEnd(13)} 200d`),
        ].join('\n'),
      },
      describe: described(mine),
    };
    const { text } = await investigateAt(
      textTools(world),
      'any TLS certs in edge expiring within 2 weeks?',
      NOW,
      'edge',
    );
    expect(text).toContain('1 of 3 Certificates in namespace edge expire');
    expect(text).toContain('portal-tls');
    expect(text).toContain('Later: mtls-server');
  });
});

// ---------------------------------------------------------------- kubelet versions

describe('questions of round 20: which nodes run an older kubelet', () => {
  it.each([
    ['which nodes are still on kubelet 1.29?', '1.29'],
    ['mid-upgrade to 1.30: which nodes still run an older version?', '1.30'],
    ['what kubelet versions do our nodes run?', undefined],
  ])('"%s" asks for the nodes by kubelet version', (message, target) => {
    const q = scopeIncident(message, {}, NOW).question;
    expect(q?.type).toBe('kubelet_versions');
    expect(q && 'target' in q ? q.target : undefined).toBe(target);
  });

  it.each([
    ['which version of checkout-api is running?', 'version'],
    ['how many nodes per zone and instance type?', 'node_topology'],
    ['why is node pool-b-3 NotReady after the 1.30 upgrade?', undefined],
  ])('"%s" asks another question', (message, type) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe(type);
  });

  const node = (name: string, version: string, o: { cordoned?: boolean; group: string }): Obj => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      creationTimestamp: ago(30 * day),
      labels: { 'kubernetes.io/hostname': name, 'eks.amazonaws.com/nodegroup': o.group },
    },
    spec: o.cordoned
      ? {
          unschedulable: true,
          taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
        }
      : {},
    status: {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: ago(1) },
      ],
      nodeInfo: {
        kubeletVersion: version,
        kubeProxyVersion: version,
        osImage: 'Amazon Linux 2023',
      },
      allocatable: { cpu: '3920m', memory: '15Gi', pods: '58' },
    },
  });
  const nodes = [
    node('ip-10-1-1-10', 'v1.29.10-eks-a1b2c3d', { cordoned: true, group: 'apps-old' }),
    node('ip-10-1-2-20', 'v1.30.6-eks-e4f5a6b', { group: 'apps-new' }),
    node('ip-10-1-3-30', 'v1.30.6-eks-e4f5a6b', { group: 'apps-new' }),
  ];

  it('API objects: the node below the version asked, cordoned, with its group; the others counted', async () => {
    const { text } = await investigateAt(
      apiTools({ objects: nodes }),
      'we are upgrading to 1.30, which nodes still run an older kubelet?',
      NOW,
    );
    expect(text).toContain(
      '1 of 3 nodes still run a kubelet older than v1.30: ip-10-1-1-10 (v1.29.10-eks-a1b2c3d, group apps-old, cordoned)',
    );
    expect(text).toContain('The other 2 run v1.30.6-eks-e4f5a6b');
  });

  it('`kubectl get nodes` table: the VERSION column, older than the newest seen', async () => {
    const world: TextWorld = {
      tables: { node: getTable('Node', nodes, { now }) },
      describe: described(nodes),
    };
    const { text } = await investigateAt(
      textTools(world),
      'which nodes run an outdated kubelet version?',
      NOW,
    );
    expect(text).toContain(
      '1 of 3 nodes still run a kubelet older than v1.30.6-eks-e4f5a6b: ip-10-1-1-10',
    );
  });

  it('every node on the version asked: says so', async () => {
    const { text } = await investigateAt(
      apiTools({ objects: nodes.slice(1) }),
      'which nodes are still on a kubelet older than 1.30?',
      NOW,
    );
    expect(text).toContain('Every node whose version was read runs v1.30 or newer');
  });
});

// ---------------------------------------------------------------- PersistentVolumes in a phase

describe('questions of round 20: which PersistentVolumes are in a phase', () => {
  it.each([
    ['which PVs are Released?', 'Released'],
    ['list persistent volumes in released state and their total size', 'Released'],
    ['which persistent volumes are still available (unbound)?', 'Available'],
  ])('"%s" asks for the PersistentVolumes %s', (message, phase) => {
    expect(scopeIncident(message, {}, NOW).question).toEqual({ type: 'volumes_by_phase', phase });
  });

  it.each([
    'which PVCs are pending?',
    'why is the pvc data-0 not bound to its released volume?',
    'the new release failed to mount its volume, which pods are affected?',
  ])('"%s" is no question about volumes in a phase', (message) => {
    expect(scopeIncident(message, {}, NOW).question?.type).not.toBe('volumes_by_phase');
  });

  const pv = (
    name: string,
    size: string,
    phase: string,
    claim?: string,
    policy = 'Retain',
  ): Obj => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, creationTimestamp: ago(90 * day) },
    spec: {
      capacity: { storage: size },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: policy,
      storageClassName: 'ssd-keep',
      ...(claim
        ? {
            claimRef: {
              kind: 'PersistentVolumeClaim',
              namespace: claim.split('/')[0],
              name: claim.split('/')[1],
            },
          }
        : {}),
    },
    status: { phase },
  });
  const pvs = [
    pv('pvc-0a1b', '300Gi', 'Released', 'reports/data-db-0'),
    pv('pvc-2c3d', '1Ti', 'Released', 'legacy/data-kafka-1'),
    pv('pvc-4e5f', '50Gi', 'Bound', 'shop/data-redis-0', 'Delete'),
    pv('nfs-archive', '2Ti', 'Available'),
  ];

  it('API objects: each Released volume with its former claim and size; the total', async () => {
    const { text } = await investigateAt(
      apiTools({ objects: pvs }),
      'which PVs are Released and how much storage is that in total?',
      NOW,
    );
    expect(text).toContain('2 of 4 PersistentVolumes are Released');
    expect(text).toContain('1324Gi (1.29Ti) in total');
    expect(text).toContain(
      'pvc-0a1b (300Gi, ssd-keep, reclaim Retain, was claim reports/data-db-0)',
    );
    expect(text).toContain(
      'pvc-2c3d (1Ti, ssd-keep, reclaim Retain, was claim legacy/data-kafka-1)',
    );
    expect(text).not.toContain('nfs-archive (');
  });

  it('`kubectl get pv` table: the same answer from its columns', async () => {
    const world: TextWorld = {
      tables: { persistentvolume: getTable('PersistentVolume', pvs, { now }) },
      describe: described(pvs),
    };
    const { text } = await investigateAt(
      textTools(world),
      'list persistent volumes in released state',
      NOW,
    );
    expect(text).toContain('2 of 4 PersistentVolumes are Released');
    expect(text).toContain('was claim legacy/data-kafka-1');
  });

  it('none in the phase: says so with what the others are', async () => {
    const { text } = await investigateAt(
      apiTools({ objects: pvs.slice(2) }),
      'which PVs are Released?',
      NOW,
    );
    expect(text).toContain('No PersistentVolume is Released (2 read: 1 Bound, 1 Available)');
  });
});
