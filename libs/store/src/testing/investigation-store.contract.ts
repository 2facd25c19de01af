import type {
  InvestigationRecord,
  InvestigationStore,
} from '../investigations/investigation-store';

/** A pending investigation record with sensible defaults. */
export function anInvestigationRecord(
  overrides: Partial<InvestigationRecord> = {},
): InvestigationRecord {
  return {
    investigation_id: `inv_${Math.random().toString(36).slice(2, 14)}`,
    team_id: 'team-a',
    status: 'pending',
    agent: 'investigation_agent',
    message: 'checkout is slow',
    context: { service: 'checkout' },
    async: true,
    tools_used: [],
    created_at: new Date().toISOString(),
    attempt: 0,
    ...overrides,
  };
}

export interface InvestigationStoreFactory {
  create(): Promise<InvestigationStore>;
  cleanup?(): Promise<void>;
}

/**
 * The behaviour every InvestigationStore adapter must show. Call inside a describe block:
 * `describe.each(adapters)('%s', (_n, factory) => investigationStoreContract(factory))`.
 */
export function investigationStoreContract(factory: InvestigationStoreFactory): void {
  let store: InvestigationStore;
  beforeEach(async () => {
    store = await factory.create();
  });
  afterEach(async () => {
    await store.close();
    await factory.cleanup?.();
  });

  it('creates and reads back, scoped to the team', async () => {
    const rec = anInvestigationRecord({ context: { namespace: 'shop', severity: 'high' } });
    await store.create(rec);
    expect(await store.get('team-a', rec.investigation_id)).toEqual(rec);
    expect(await store.get('team-b', rec.investigation_id)).toBeUndefined();
    expect(await store.getById(rec.investigation_id)).toEqual(rec);
    expect(await store.get('team-a', 'inv_missing')).toBeUndefined();
  });

  it('rejects a duplicate id', async () => {
    const rec = anInvestigationRecord();
    await store.create(rec);
    // not toThrow(): the driver's error class may come from another jest realm
    await expect(store.create(rec)).rejects.toHaveProperty('message');
  });

  it('lists newest first with filters and pagination', async () => {
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    for (let i = 0; i < 7; i++) {
      await store.create(
        anInvestigationRecord({
          investigation_id: `inv_${i}`,
          created_at: new Date(base + i * 1000).toISOString(),
          agent: i % 2 ? 'k8s_agent' : 'investigation_agent',
          status: i < 3 ? 'completed' : 'pending',
        }),
      );
    }
    await store.create(anInvestigationRecord({ investigation_id: 'inv_other', team_id: 'team-b' }));
    const page = await store.list({ teamId: 'team-a', limit: 3, offset: 0 });
    expect(page.total).toBe(7);
    expect(page.items.map((r) => r.investigation_id)).toEqual(['inv_6', 'inv_5', 'inv_4']);
    const page2 = await store.list({ teamId: 'team-a', limit: 3, offset: 6 });
    expect(page2.items.map((r) => r.investigation_id)).toEqual(['inv_0']);
    const k8s = await store.list({ teamId: 'team-a', limit: 10, offset: 0, agent: 'k8s_agent' });
    expect(k8s.items.map((r) => r.investigation_id)).toEqual(['inv_5', 'inv_3', 'inv_1']);
    const done = await store.list({ teamId: 'team-a', limit: 10, offset: 0, status: 'completed' });
    expect(done.total).toBe(3);
    const both = await store.list({
      teamId: 'team-a',
      limit: 10,
      offset: 0,
      status: 'completed',
      agent: 'k8s_agent',
    });
    expect(both.items.map((r) => r.investigation_id)).toEqual(['inv_1']);
  });

  it('claims once, renews only for the owner, takes over a lapsed lease', async () => {
    const rec = anInvestigationRecord();
    await store.create(rec);
    const now = Date.now();
    const a = await store.claim(rec.investigation_id, 'runner-a', 1000, 3, now);
    expect(a.kind).toBe('claimed');
    if (a.kind !== 'claimed') throw new Error('unreachable');
    expect(a.record.status).toBe('running');
    expect(a.record.attempt).toBe(1);
    expect(a.record.started_at).toBeDefined();
    expect((await store.claim(rec.investigation_id, 'runner-b', 1000, 3, now + 10)).kind).toBe(
      'busy',
    );
    expect(await store.renewLease(rec.investigation_id, 'runner-b', 1000, now + 10)).toBe(false);
    expect(await store.renewLease(rec.investigation_id, 'runner-a', 1000, now + 500)).toBe(true);
    expect((await store.claim(rec.investigation_id, 'runner-b', 1000, 3, now + 1200)).kind).toBe(
      'busy',
    );
    const b = await store.claim(rec.investigation_id, 'runner-b', 1000, 3, now + 1600);
    expect(b.kind).toBe('claimed');
    if (b.kind !== 'claimed') throw new Error('unreachable');
    expect(b.record.attempt).toBe(2);
    expect(b.record.started_at).toBe(a.record.started_at);
    expect(await store.renewLease(rec.investigation_id, 'runner-a', 1000, now + 1700)).toBe(false);
    expect(
      await store.updateProgress(rec.investigation_id, 'runner-a', {
        current_step: 'x',
        steps_completed: 1,
        steps_total: 2,
      }),
    ).toBe(false);
    expect(
      await store.updateProgress(
        rec.investigation_id,
        'runner-b',
        { current_step: 'y', steps_completed: 1, steps_total: 2 },
        ['t'],
      ),
    ).toBe(true);
    const read = await store.getById(rec.investigation_id);
    expect(read?.progress).toEqual({ current_step: 'y', steps_completed: 1, steps_total: 2 });
    expect(read?.tools_used).toEqual(['t']);
  });

  it('reports exhausted attempts', async () => {
    const rec = anInvestigationRecord();
    await store.create(rec);
    const now = Date.now();
    expect((await store.claim(rec.investigation_id, 'a', 100, 2, now)).kind).toBe('claimed');
    expect((await store.claim(rec.investigation_id, 'b', 100, 2, now + 200)).kind).toBe('claimed');
    expect((await store.claim(rec.investigation_id, 'c', 100, 2, now + 400)).kind).toBe(
      'exhausted',
    );
    expect((await store.claim('inv_nope', 'c', 100, 2, now)).kind).toBe('missing');
  });

  it('finishes exactly once and only by the lease holder', async () => {
    const rec = anInvestigationRecord();
    await store.create(rec);
    await store.claim(rec.investigation_id, 'a', 10_000, 3);
    const result = {
      summary: 's',
      root_cause: { description: 'd', confidence: 80, evidence: ['e'] },
      timeline: [],
      affected_systems: ['checkout'],
      recommendations: [{ priority: 'high', action: 'x' }],
    };
    const at = new Date().toISOString();
    expect(
      await store.finish(rec.investigation_id, 'b', { status: 'completed', at, result }),
    ).toBeUndefined();
    const done = await store.finish(rec.investigation_id, 'a', {
      status: 'completed',
      at,
      result,
      tools_used: ['knowledge_search'],
      duration_seconds: 1.5,
    });
    expect(done?.status).toBe('completed');
    expect(done?.result).toEqual(result);
    expect(done?.completed_at).toBe(at);
    expect(done?.progress).toBeUndefined();
    expect(done?.lease_owner).toBeUndefined();
    expect(await store.finish(rec.investigation_id, 'a', { status: 'failed', at })).toBeUndefined();
    expect(
      await store.finish(rec.investigation_id, undefined, { status: 'failed', at }),
    ).toBeUndefined();
    expect(await store.cancel('team-a', rec.investigation_id, at)).toBeUndefined();
    expect((await store.claim(rec.investigation_id, 'c', 10, 3)).kind).toBe('terminal');
    expect((await store.getById(rec.investigation_id))?.status).toBe('completed');
  });

  it('fails with an error', async () => {
    const rec = anInvestigationRecord();
    await store.create(rec);
    const at = new Date().toISOString();
    const failed = await store.finish(rec.investigation_id, undefined, {
      status: 'failed',
      at,
      error: { code: 'runner_lost', message: 'gone' },
    });
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toEqual({ code: 'runner_lost', message: 'gone' });
    expect(failed?.failed_at).toBe(at);
  });

  it('cancels pending and running ones of its team only, once', async () => {
    const p = anInvestigationRecord();
    const r = anInvestigationRecord();
    await store.create(p);
    await store.create(r);
    await store.claim(r.investigation_id, 'a', 10_000, 3);
    const at = new Date().toISOString();
    expect(await store.cancel('team-b', p.investigation_id, at)).toBeUndefined();
    expect((await store.cancel('team-a', p.investigation_id, at))?.status).toBe('cancelled');
    const c = await store.cancel('team-a', r.investigation_id, at);
    expect(c?.status).toBe('cancelled');
    expect(c?.cancelled_at).toBe(at);
    expect(c?.started_at).toBeDefined();
    expect(await store.cancel('team-a', r.investigation_id, at)).toBeUndefined();
    // after a cancel the runner can write nothing more
    expect(await store.renewLease(r.investigation_id, 'a', 1000)).toBe(false);
    expect(
      await store.updateProgress(r.investigation_id, 'a', {
        current_step: 'x',
        steps_completed: 0,
        steps_total: 1,
      }),
    ).toBe(false);
    expect(
      await store.finish(r.investigation_id, 'a', { status: 'completed', at }),
    ).toBeUndefined();
    expect((await store.getById(r.investigation_id))?.status).toBe('cancelled');
  });

  it('lets exactly one of many concurrent claimers win', async () => {
    const rec = anInvestigationRecord();
    await store.create(rec);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.claim(rec.investigation_id, `r${i}`, 10_000, 3)),
    );
    expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
  });

  it('lists unfinished ones', async () => {
    const a = anInvestigationRecord();
    const b = anInvestigationRecord();
    const c = anInvestigationRecord({ status: 'completed' });
    for (const x of [a, b, c]) await store.create(x);
    await store.claim(b.investigation_id, 'r', 1000, 3);
    const ids = (await store.listUnfinished()).map((x) => x.investigation_id).sort();
    expect(ids).toEqual([a.investigation_id, b.investigation_id].sort());
  });
}
