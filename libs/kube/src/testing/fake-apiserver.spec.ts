import {
  ApiException,
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  Metrics,
  VersionApi,
} from '@kubernetes/client-node';
import { WorldIndex, type Json } from '../world';
import { aScenarioWorld } from './a-scenario-world';
import { startFakeKubeApiServer, writeKubeconfig, type FakeKubeApiServer } from './fake-apiserver';

function kubeConfig(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(writeKubeconfig(url));
  return kc;
}

async function failure(
  p: Promise<unknown>,
): Promise<{ code: number; body: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiException) {
      const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
      return { code: e.code, body: body as Record<string, unknown> };
    }
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('fake Kubernetes API server, through @kubernetes/client-node', () => {
  let server: FakeKubeApiServer;
  let kc: KubeConfig;
  beforeAll(async () => {
    server = await startFakeKubeApiServer(new WorldIndex(aScenarioWorld()), {
      forbidden: [
        { resource: 'secrets' },
        { verb: 'list', resource: 'pods', namespace: 'kube-system' },
      ],
    });
    kc = kubeConfig(server.url);
  });
  afterAll(() => server.close());

  it('answers /version', async () => {
    const v = await kc.makeApiClient(VersionApi).getCode();
    expect(v.gitVersion).toBe('v1.30.4');
  });

  it('lists pods namespaced and cluster-wide, with selectors and limit/continue', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const shop = await core.listNamespacedPod({ namespace: 'shop' });
    expect(shop.items.map((p) => p.metadata?.name)).toEqual([
      'checkout-7d9f8b6c5-x2x4z',
      'nightly-report-29554680-q7k2m',
      'reports-6f7c9d8b5-abcde',
    ]);
    expect(shop.items[0]?.status?.containerStatuses?.[0]?.state?.waiting?.reason).toBe(
      'CrashLoopBackOff',
    );
    const all = await core.listPodForAllNamespaces({ fieldSelector: 'status.phase=Pending' });
    expect(all.items.map((p) => p.metadata?.name)).toEqual(['reports-6f7c9d8b5-abcde']);
    const labelled = await core.listPodForAllNamespaces({ labelSelector: 'k8s-app=kube-dns' });
    expect(labelled.items).toHaveLength(1);
    const page1 = await core.listNamespacedPod({ namespace: 'shop', limit: 2 });
    expect(page1.items).toHaveLength(2);
    expect(page1.metadata?.remainingItemCount).toBe(1);
    const page2 = await core.listNamespacedPod({
      namespace: 'shop',
      limit: 2,
      _continue: page1.metadata!._continue!,
    });
    expect(page2.items.map((p) => p.metadata?.name)).toEqual(['reports-6f7c9d8b5-abcde']);
  });

  it('gets objects of every group', async () => {
    const apps = kc.makeApiClient(AppsV1Api);
    const d = await apps.readNamespacedDeployment({ name: 'checkout', namespace: 'shop' });
    expect(d.spec?.template.spec?.containers[0]?.image).toBe(
      'registry.example.com/shop/checkout:1.8.0',
    );
    const job = await kc
      .makeApiClient(BatchV1Api)
      .readNamespacedJob({ name: 'nightly-report-29554680', namespace: 'shop' });
    expect(job.status?.conditions?.map((c) => c.type)).toContain('Failed');
    const node = await kc.makeApiClient(CoreV1Api).readNode({ name: 'node-b' });
    expect(node.spec?.taints?.[0]?.key).toBe('node.kubernetes.io/unreachable');
    const ns = await kc.makeApiClient(CoreV1Api).readNamespace({ name: 'shop' });
    expect(ns.status?.phase).toBe('Active');
    // the generic client discovers resources through /api/v1 and /apis/<group>/<version>
    const objects = KubernetesObjectApi.makeApiClient(kc);
    const hpa = await objects.read({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'checkout', namespace: 'shop' },
    });
    expect(hpa.metadata?.name).toBe('checkout');
    const scs = await objects.list('storage.k8s.io/v1', 'StorageClass');
    expect(scs.items.map((s) => s.metadata?.name)).toEqual(['standard']);
  });

  it('answers 404 with a NotFound Status', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const f = await failure(core.readNamespacedPod({ name: 'x', namespace: 'shop' }));
    expect(f.code).toBe(404);
    expect(f.body).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      message: 'pods "x" not found',
    });
    const d = await failure(
      kc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'x', namespace: 'shop' }),
    );
    expect(d.body.message).toBe('deployments.apps "x" not found');
  });

  it('answers 403 with a Forbidden Status naming the service account', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const f = await failure(core.listNamespacedPod({ namespace: 'kube-system' }));
    expect(f.code).toBe(403);
    expect(f.body.message).toBe(
      'pods is forbidden: User "system:serviceaccount:inquest:toolserver" cannot list resource "pods" in API group "" in the namespace "kube-system"',
    );
    const s = await failure(core.readNamespacedSecret({ name: 'checkout-db', namespace: 'shop' }));
    expect(s.body.message).toMatch(
      /^secrets "checkout-db" is forbidden: .* cannot get resource "secrets"/,
    );
    const all = await failure(core.listSecretForAllNamespaces());
    expect(all.body.message).toMatch(/at the cluster scope$/);
  });

  it('serves logs: current, previous, tail, and 400 for a previous that never was', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const prev = await core.readNamespacedPodLog({
      name: 'checkout-7d9f8b6c5-x2x4z',
      namespace: 'shop',
      container: 'app',
      previous: true,
      tailLines: 2,
    });
    expect(prev).toBe(
      '2026-03-12T10:27:43Z ERROR missing required environment variable PAYMENT_API_KEY\n2026-03-12T10:27:43Z FATAL exiting with status 1\n',
    );
    const f = await failure(
      core.readNamespacedPodLog({
        name: 'coredns-76f75df574-9xk2p',
        namespace: 'kube-system',
        previous: true,
      }),
    );
    expect(f.code).toBe(400);
    expect(f.body.message).toBe(
      'previous terminated container "coredns" in pod "coredns-76f75df574-9xk2p" not found',
    );
    const missing = await failure(core.readNamespacedPodLog({ name: 'ghost', namespace: 'shop' }));
    expect(missing.code).toBe(404);
  });

  it('serves metrics.k8s.io, and 404 when the world has none', async () => {
    const m = new Metrics(kc);
    const pods = await m.getPodMetrics('shop');
    expect(pods.items[0]?.containers[0]?.usage).toEqual({ cpu: '1m', memory: '12Mi' });
    const nodes = await m.getNodeMetrics();
    expect(nodes.items.map((n) => n.metadata.name)).toEqual(['node-a']);

    const bare = await startFakeKubeApiServer(new WorldIndex(aScenarioWorld({ metrics: false })));
    try {
      await expect(new Metrics(kubeConfig(bare.url)).getNodeMetrics()).rejects.toThrow();
      expect(bare.requests).toContain('GET /apis/metrics.k8s.io/v1beta1/nodes');
    } finally {
      await bare.close();
    }
  });

  it('refuses every write with 405 and records it', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const f = await failure(
      core.deleteNamespacedPod({ name: 'checkout-7d9f8b6c5-x2x4z', namespace: 'shop' }),
    );
    expect(f.code).toBe(405);
    expect(server.requests).toContain(
      'DELETE /api/v1/namespaces/shop/pods/checkout-7d9f8b6c5-x2x4z',
    );
    const world = new WorldIndex(aScenarioWorld());
    expect(world.get('pod', 'checkout-7d9f8b6c5-x2x4z', 'shop')).toBeDefined();
  });

  it('answers 400 for a bad selector and 404 for an unknown path', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const f = await failure(
      core.listNamespacedPod({ namespace: 'shop', fieldSelector: 'spec.image=x' }),
    );
    expect(f.code).toBe(400);
    expect(f.body.message).toBe('field label not supported: spec.image');
    const res = await fetch(`${server.url}/apis/widgets.example.com/v1/widgets`);
    expect(res.status).toBe(404);
  });
});

describe('fake Kubernetes API server: custom resources of the world', () => {
  let server: FakeKubeApiServer;
  let kc: KubeConfig;
  beforeAll(async () => {
    server = await startFakeKubeApiServer(
      new WorldIndex(aScenarioWorld({ customResources: true })),
    );
    kc = kubeConfig(server.url);
  });
  afterAll(() => server.close());

  const json = async (path: string) => {
    const res = await fetch(`${server.url}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, Json> };
  };

  it('lists their groups and resources in discovery', async () => {
    const groups = (await json('/apis')).body.groups as Array<{
      name: string;
      preferredVersion: { groupVersion: string };
    }>;
    const names = groups.map((g) => g.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'argoproj.io',
        'kustomize.toolkit.fluxcd.io',
        'source.toolkit.fluxcd.io',
        'cert-manager.io',
      ]),
    );
    // built-in groups first, as a real API server orders them
    expect(names.indexOf('apps')).toBeLessThan(names.indexOf('argoproj.io'));
    expect(groups.find((g) => g.name === 'argoproj.io')?.preferredVersion.groupVersion).toBe(
      'argoproj.io/v1alpha1',
    );
    const argo = (await json('/apis/argoproj.io/v1alpha1')).body;
    expect(argo.resources).toEqual([
      {
        name: 'applications',
        singularName: 'application',
        namespaced: true,
        kind: 'Application',
        verbs: ['get', 'list', 'watch'],
      },
    ]);
    const cm = (await json('/apis/cert-manager.io/v1')).body;
    expect(cm.resources[0]).toMatchObject({ name: 'clusterissuers', namespaced: false });
  });

  it('lists and gets them through client-node, with their events', async () => {
    const objects = kc.makeApiClient(KubernetesObjectApi);
    const list = await objects.list('argoproj.io/v1alpha1', 'Application', 'argocd');
    expect(list.items.map((o) => o.metadata?.name)).toEqual(['pricing-api']);
    const all = await objects.list('kustomize.toolkit.fluxcd.io/v1', 'Kustomization');
    expect(all.items).toHaveLength(1);
    const ks = (await objects.read({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'apps', namespace: 'flux-system' },
    })) as { kind?: string; status?: { conditions?: Array<{ status: string }> } };
    expect(ks.kind).toBe('Kustomization');
    expect(ks.status?.conditions?.[0]?.status).toBe('False');
    const issuer = await objects.read({
      apiVersion: 'cert-manager.io/v1',
      kind: 'ClusterIssuer',
      metadata: { name: 'letsencrypt-prod' },
    });
    expect(issuer.metadata?.name).toBe('letsencrypt-prod');
    const missing = await json('/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('applications.argoproj.io "nope" not found');
    const events = await kc.makeApiClient(CoreV1Api).listNamespacedEvent({
      namespace: 'flux-system',
      fieldSelector: 'involvedObject.kind=Kustomization,involvedObject.name=apps',
    });
    expect(events.items.map((e) => e.reason)).toEqual(['ReconciliationFailed']);
  });
});
