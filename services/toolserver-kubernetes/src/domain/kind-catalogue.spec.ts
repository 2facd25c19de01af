import { unavailable } from '@inquest/errors';
import { customKind, type KindInfo } from '@inquest/kube';
import { KindCatalogue } from './kind-catalogue';

const APP = customKind('argoproj.io/v1alpha1', 'Application', true, {
  plural: 'applications',
  shortNames: ['app'],
});
const KS = customKind('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', true, {
  plural: 'kustomizations',
});

function catalogue(answers: Array<KindInfo[] | Error>, opts: { ttlMs?: number } = {}) {
  let t = 0;
  const calls: number[] = [];
  const c = new KindCatalogue({
    discover: async () => {
      calls.push(t);
      const a = answers[Math.min(calls.length - 1, answers.length - 1)]!;
      if (a instanceof Error) throw a;
      return a;
    },
    ttlMs: opts.ttlMs ?? 60_000,
    missRefreshMs: 5_000,
    clock: () => t,
  });
  return { c, calls, advance: (ms: number) => (t += ms) };
}

describe('KindCatalogue', () => {
  it('answers built-in kinds without asking discovery', async () => {
    const { c, calls } = catalogue([[APP]]);
    expect((await c.resolve('svc')).info?.kind).toBe('Service');
    expect((await c.resolve('deployments.apps')).info?.kind).toBe('Deployment');
    expect(calls).toEqual([]);
  });

  it('caches discovery for its TTL, one request for concurrent look-ups', async () => {
    const { c, calls, advance } = catalogue([[APP], [APP, KS]]);
    const [a, b] = await Promise.all([c.resolve('app'), c.resolve('applications.argoproj.io')]);
    expect(a.info?.group).toBe('argoproj.io');
    expect(b.info?.kind).toBe('Application');
    advance(30_000);
    await c.resolve('application');
    expect(calls).toHaveLength(1);
    advance(31_000);
    expect((await c.resolve('kustomization')).info?.kind).toBe('Kustomization');
    expect(calls).toHaveLength(2);
  });

  it('looks a missing kind up again once the answer is a few seconds old (a CRD just installed)', async () => {
    const { c, calls, advance } = catalogue([[APP], [APP, KS]]);
    expect((await c.resolve('kustomization')).info).toBeUndefined();
    expect((await c.resolve('kustomization')).info).toBeUndefined();
    expect(calls).toHaveLength(1);
    advance(6_000);
    expect((await c.resolve('kustomization')).info?.kind).toBe('Kustomization');
    expect(calls).toHaveLength(2);
  });

  it('says why when discovery cannot be read, and keeps a stale answer over none', async () => {
    const down = unavailable('cannot reach the Kubernetes API (API discovery): ECONNREFUSED');
    const first = catalogue([down]);
    expect(await first.c.resolve('app')).toEqual({
      discoveryError: 'cannot reach the Kubernetes API (API discovery): ECONNREFUSED',
    });
    const later = catalogue([[APP], down], { ttlMs: 1_000 });
    await later.c.resolve('app');
    later.advance(2_000);
    expect((await later.c.resolve('app')).info?.kind).toBe('Application');
    expect(later.calls).toHaveLength(2);
  });
});
