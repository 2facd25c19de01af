/**
 * Two questions of round 23 (questions-r23a.ts), asked in words other than the bench's: can a
 * claim be grown (its StorageClass's allowVolumeExpansion), which running pods have no mesh
 * sidecar. Near misses: a class that allows expansion, a namespace where every pod is meshed.
 */
import { getTable } from '@inquest/kube';
import { scopeIncident } from './scope';
import { NOW, ago, apiTools, investigateAt, podObj, textTools, type TextWorld } from './spec-world';

type Obj = Record<string, unknown>;
const now = new Date(NOW);

describe('round 23 (r23a): can a PersistentVolumeClaim be expanded', () => {
  it.each([
    'can I bump data-pg-0 to 200Gi with kubectl edit, or will the API refuse it?',
    'is it possible to expand the pvc data-pg-0?',
    'could we resize the volume of pg to 1Ti?',
  ])('"%s" asks whether the claim can be expanded', (message) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe('claim_expansion');
  });

  it.each([
    'why did the resize of data-pg-0 fail?',
    'which volumes in data are still on gp2?',
    'the pg volume is 91% full',
  ])('"%s" does not ask it', (message) => {
    expect(scopeIncident(message, {}, NOW).question?.type).not.toBe('claim_expansion');
  });

  const sc = (name: string, allow?: boolean): Obj => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, creationTimestamp: ago(60 * 24 * 300) },
    provisioner: 'ebs.csi.aws.com',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
    ...(allow !== undefined ? { allowVolumeExpansion: allow } : {}),
  });
  const pvc = (name: string, cls: string): Obj => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'db', creationTimestamp: ago(60 * 24 * 200) },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: cls,
      volumeName: `pvc-${name}`,
      resources: { requests: { storage: '100Gi' } },
    },
    status: { phase: 'Bound', capacity: { storage: '100Gi' }, accessModes: ['ReadWriteOnce'] },
  });
  const world = (allow?: boolean) => [
    sc('old-ssd', allow),
    sc('new-ssd', true),
    pvc('data-pg-0', 'old-ssd'),
    pvc('data-cache-0', 'new-ssd'),
  ];

  it('API objects: the class does not set allowVolumeExpansion, so the API rejects a larger size', async () => {
    const { text } = await investigateAt(
      apiTools({ objects: world() }),
      'can I just bump data-pg-0 to 200Gi, or will the API refuse it?',
      NOW,
      'db',
    );
    expect(text).toContain(
      'PersistentVolumeClaim data-pg-0 (100Gi) is on StorageClass old-ssd, provisioner ebs.csi.aws.com, which does not set allowVolumeExpansion',
    );
    expect(text).toContain('the API server will reject a larger size');
    expect(text).toContain('(new-ssd allows expansion.)');
  });

  it('`kubectl get storageclass` table: ALLOWVOLUMEEXPANSION false', async () => {
    const objs = world();
    const w: TextWorld = {
      describe: {},
      tables: {
        storageclass: getTable(
          'StorageClass',
          objs.filter((o) => o['kind'] === 'StorageClass'),
          { now },
        ),
        persistentvolumeclaim: getTable(
          'PersistentVolumeClaim',
          objs.filter((o) => o['kind'] === 'PersistentVolumeClaim'),
          { now },
        ),
      },
    };
    const { text } = await investigateAt(
      textTools(w),
      'is it possible to expand the pvc data-pg-0?',
      NOW,
      'db',
    );
    expect(text).toContain('is on StorageClass old-ssd');
    expect(text).toContain('the API server will reject a larger size');
  });

  it('near miss: the class allows expansion, so the edit is accepted', async () => {
    const { text } = await investigateAt(
      apiTools({ objects: world(true) }),
      'can I just bump data-pg-0 to 200Gi, or will the API refuse it?',
      NOW,
      'db',
    );
    expect(text).toContain('which sets allowVolumeExpansion: true');
    expect(text).not.toContain('reject');
  });
});

describe('round 23 (r23a): which running pods have no mesh sidecar', () => {
  it.each([
    'which running pods in shop are NOT in the mesh (no istio-proxy sidecar)?',
    'list pods in shop without the istio sidecar',
    'any pods missing the linkerd proxy?',
  ])('"%s" asks for the pods without a sidecar', (message) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe('pods_without_sidecar');
  });

  it.each(['why does the istio-proxy of checkout crash?', 'which pods in shop are not ready?'])(
    '"%s" does not ask it',
    (message) => {
      expect(scopeIncident(message, {}, NOW).question?.type).not.toBe('pods_without_sidecar');
    },
  );

  const pod = (
    name: string,
    app: string,
    proxy: boolean,
    o: { inject?: string; phase?: 'Running' | 'Succeeded'; created?: number } = {},
  ) =>
    podObj({
      name,
      ns: 'shop',
      labels: { app },
      owner: { kind: 'ReplicaSet', name: `${app}-7d9f8c6b5d` },
      boxes: [
        { name: app, image: `registry.example.com/${app}:1.0.0` },
        ...(proxy ? [{ name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.23.2' }] : []),
      ],
      ...(o.inject ? { annotations: { 'sidecar.istio.io/inject': o.inject } } : {}),
      phase: o.phase ?? 'Running',
      created: o.created ?? 60 * 24 * 3,
    });

  it('API objects: names the running pods without istio-proxy and why, leaves finished pods apart', async () => {
    const { text } = await investigateAt(
      apiTools({
        objects: [
          pod('cart-7d9f8c6b5d-a1b2c', 'cart', true),
          pod('cart-7d9f8c6b5d-d3e4f', 'cart', true),
          pod('pdf-7d9f8c6b5d-g5h6i', 'pdf', false, { inject: 'false' }),
          pod('ftp-7d9f8c6b5d-j7k8l', 'ftp', false, { created: 60 * 24 * 200 }),
          pod('migrate-7d9f8c6b5d-m9n0p', 'migrate', false, { phase: 'Succeeded' }),
        ],
      }),
      'which running pods in shop are NOT in the mesh (no istio-proxy sidecar)?',
      NOW,
      'shop',
    );
    expect(text).toContain(
      '2 running pods in namespace shop have no istio-proxy sidecar (not in the mesh; of 4 running pods read)',
    );
    expect(text).toContain('pdf-7d9f8c6b5d-g5h6i (sidecar.istio.io/inject: "false")');
    expect(text).toContain('ftp-7d9f8c6b5d-j7k8l (created');
    expect(text).not.toMatch(/no istio-proxy sidecar[^.]*migrate/);
  });

  it('near miss: every running pod has the sidecar', async () => {
    const { text } = await investigateAt(
      apiTools({
        objects: [
          pod('cart-7d9f8c6b5d-a1b2c', 'cart', true),
          pod('cart-7d9f8c6b5d-d3e4f', 'cart', true),
        ],
      }),
      'which pods in shop have no istio sidecar?',
      NOW,
      'shop',
    );
    expect(text).toContain(
      'Every running pod in namespace shop whose containers I read has the istio-proxy sidecar',
    );
  });
});
