import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aScenarioWorld } from './testing/a-scenario-world';
import { loadWorld, WorldIndex } from './world';

const names = (objs: Array<{ metadata?: { name?: string } }>) => objs.map((o) => o.metadata?.name);

describe('WorldIndex', () => {
  const w = new WorldIndex(aScenarioWorld());

  it('lists by kind alias, namespace, labels, fields and name fragment', () => {
    expect(names(w.list('po', { namespace: 'kube-system' }))).toEqual(['coredns-76f75df574-9xk2p']);
    expect(w.list('pods')).toHaveLength(4);
    expect(names(w.list('pod', { labelSelector: 'app in (checkout,reports)' }))).toEqual([
      'checkout-7d9f8b6c5-x2x4z',
      'reports-6f7c9d8b5-abcde',
    ]);
    expect(names(w.list('pod', { fieldSelector: 'status.phase=Pending' }))).toEqual([
      'reports-6f7c9d8b5-abcde',
    ]);
    expect(
      names(w.list('pod', { fieldSelector: 'spec.nodeName=node-a', namespace: 'shop' })),
    ).toEqual(['checkout-7d9f8b6c5-x2x4z', 'nightly-report-29554680-q7k2m']);
    expect(names(w.list('deploy', { nameContains: 'CHECK' }))).toEqual(['checkout']);
    // cluster-scoped kinds ignore the namespace
    expect(w.list('nodes', { namespace: 'shop' })).toHaveLength(2);
  });

  it('refuses unknown kinds and bad selectors', () => {
    expect(() => w.list('widgets')).toThrow(`the server doesn't have a resource type "widgets"`);
    expect(() => w.list('pod', { labelSelector: 'a b' })).toThrow(/unable to parse/);
    expect(() => w.list('deploy', { fieldSelector: 'status.phase=x' })).toThrow(/not supported/);
  });

  it('gets one object', () => {
    expect(w.get('deployment', 'checkout', 'shop')?.kind).toBe('Deployment');
    expect(w.get('deployment', 'checkout', 'kube-system')).toBeUndefined();
    expect(w.get('node', 'node-b')?.metadata?.name).toBe('node-b');
  });

  it('sorts events by last timestamp and filters by involved object', () => {
    const shop = w.events({ namespace: 'shop' });
    const times = shop.map((e) => Date.parse(e.lastTimestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const pod = w.events({
      involved: { kind: 'po', name: 'checkout-7d9f8b6c5-x2x4z', namespace: 'shop' },
    });
    expect(pod.map((e) => e.reason)).toEqual(['Scheduled', 'Pulled', 'BackOff']);
    expect(w.events({ involved: { kind: 'Node', name: 'node-b' } }).map((e) => e.reason)).toEqual([
      'NodeNotReady',
    ]);
  });

  it('serves logs like the kubelet', () => {
    const base = { namespace: 'shop', pod: 'checkout-7d9f8b6c5-x2x4z' };
    expect(w.logs({ ...base, previous: true })).toContain('PAYMENT_API_KEY');
    expect(w.logs({ ...base, previous: true, tailLines: 1 })).toBe(
      '2026-03-12T10:27:43Z FATAL exiting with status 1\n',
    );
    expect(w.logs(base)).toBe('');
    // now is 10:30:00: 140 s reaches back to 10:27:40 (all four lines), 137 s to 10:27:43
    expect(
      w
        .logs({ ...base, previous: true, sinceSeconds: 140 })
        .trimEnd()
        .split('\n'),
    ).toHaveLength(4);
    expect(
      w
        .logs({ ...base, previous: true, sinceSeconds: 137 })
        .trimEnd()
        .split('\n'),
    ).toHaveLength(2);
    // a stack trace line without its own timestamp goes with the line before it
    const job = { namespace: 'shop', pod: 'nightly-report-29554680-q7k2m' };
    expect(w.logs({ ...job, sinceSeconds: 8 * 3600 + 28 * 60 + 56 })).toBe(
      `2026-03-12T02:01:05Z Traceback (most recent call last):\n  File "report.py", line 12, in <module>\nKeyError: 'REPORT_BUCKET'\n`,
    );
    expect(w.logs({ ...job, timestamps: true, tailLines: 1 })).toBe(
      `2026-03-12T02:01:05.000Z KeyError: 'REPORT_BUCKET'\n`,
    );
  });

  it('refuses logs that do not exist', () => {
    expect(() => w.logs({ namespace: 'shop', pod: 'nope' })).toThrow('pods "nope" not found');
    expect(() =>
      w.logs({ namespace: 'shop', pod: 'checkout-7d9f8b6c5-x2x4z', container: 'sidecar' }),
    ).toThrow('container sidecar is not valid for pod checkout-7d9f8b6c5-x2x4z');
    expect(() =>
      w.logs({ namespace: 'kube-system', pod: 'coredns-76f75df574-9xk2p', previous: true }),
    ).toThrow(
      'previous terminated container "coredns" in pod "coredns-76f75df574-9xk2p" not found',
    );
  });

  it('walks owners up and pods down', () => {
    const pod = w.get('pod', 'checkout-7d9f8b6c5-x2x4z', 'shop')!;
    expect(w.ownerChain(pod).map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'ReplicaSet/checkout-7d9f8b6c5',
      'Deployment/checkout',
    ]);
    const jobPod = w.get('pod', 'nightly-report-29554680-q7k2m', 'shop')!;
    expect(w.ownerChain(jobPod).map((o) => o.kind)).toEqual(['Job', 'CronJob']);
    expect(names(w.podsOf(w.get('deploy', 'checkout', 'shop')!))).toEqual([
      'checkout-7d9f8b6c5-x2x4z',
    ]);
    expect(names(w.podsOf(w.get('cronjob', 'nightly-report', 'shop')!))).toEqual([
      'nightly-report-29554680-q7k2m',
    ]);
    // a Service selects by labels
    expect(names(w.podsOf(w.get('svc', 'checkout', 'shop')!))).toEqual([
      'checkout-7d9f8b6c5-x2x4z',
    ]);
  });

  it('serves metrics only when the world has them', () => {
    expect(w.hasMetrics()).toBe(true);
    expect(w.podMetrics('shop')).toHaveLength(1);
    expect(w.nodeMetrics()[0]?.name).toBe('node-a');
    expect(new WorldIndex(aScenarioWorld({ metrics: false })).hasMetrics()).toBe(false);
  });

  it('loads a scenario file and refuses a malformed one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inquest-kube-world-'));
    try {
      const good = join(dir, 'good.json');
      writeFileSync(good, JSON.stringify(aScenarioWorld()));
      expect(WorldIndex.fromFile(good).now.toISOString()).toBe('2026-03-12T10:30:00.000Z');
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, JSON.stringify({ now: 'yesterday', objects: [] }));
      expect(() => loadWorld(bad)).toThrow(/"now" must be an RFC 3339 time/);
      writeFileSync(bad, JSON.stringify({ now: '2026-03-12T10:30:00Z' }));
      expect(() => loadWorld(bad)).toThrow(/"objects" array/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('WorldIndex: custom resources', () => {
  const w = new WorldIndex(aScenarioWorld({ customResources: true }));

  it('serves any apiVersion/kind it does not know as a custom kind', () => {
    expect(w.customKinds().map((k) => [k.apiVersion, k.kind, k.plural, k.namespaced])).toEqual([
      ['argoproj.io/v1alpha1', 'Application', 'applications', true],
      ['kustomize.toolkit.fluxcd.io/v1', 'Kustomization', 'kustomizations', true],
      ['source.toolkit.fluxcd.io/v1', 'GitRepository', 'gitrepositories', true],
      ['cert-manager.io/v1', 'ClusterIssuer', 'clusterissuers', false],
    ]);
    expect(
      w
        .kinds()
        .slice(-4)
        .map((k) => k.kind),
    ).toEqual(['Application', 'Kustomization', 'GitRepository', 'ClusterIssuer']);
    expect(w.kindsPresent().map((k) => k.kind)).toContain('Kustomization');
  });

  it('lists, gets and resolves them as kubectl would', () => {
    expect(names(w.list('applications.argoproj.io'))).toEqual(['pricing-api']);
    expect(names(w.list('Kustomization', { namespace: 'flux-system' }))).toEqual(['apps']);
    expect(w.list('kustomization', { namespace: 'shop' })).toEqual([]);
    expect(w.get('clusterissuer', 'letsencrypt-prod', 'ignored')?.kind).toBe('ClusterIssuer');
    expect(w.resolve('service')?.group).toBe('');
    expect(w.resolve('widgets')).toBeUndefined();
    expect(() => w.list('widgets')).toThrow('the server doesn\'t have a resource type "widgets"');
  });

  it('keeps a built-in kind name of another group apart from the built-in', () => {
    const world = aScenarioWorld();
    world.objects.push({
      apiVersion: 'serving.knative.dev/v1',
      kind: 'Service',
      metadata: { name: 'hello', namespace: 'shop' },
    });
    const ix = new WorldIndex(world);
    expect(names(ix.list('svc', { namespace: 'shop' }))).not.toContain('hello');
    expect(names(ix.list('services.serving.knative.dev'))).toEqual(['hello']);
  });

  it('finds the events about one', () => {
    expect(
      w
        .events({ involved: { kind: 'kustomizations.kustomize.toolkit.fluxcd.io', name: 'apps' } })
        .map((e) => e.reason),
    ).toEqual(['ReconciliationFailed']);
    expect(
      w
        .events({ involved: { kind: 'Application', name: 'pricing-api', namespace: 'argocd' } })
        .map((e) => e.source?.component),
    ).toEqual(['argocd-application-controller']);
  });
});
