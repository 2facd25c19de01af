import type { AlertStore, NewAlert } from '../alerts/alert-store';

/** A firing alert with sensible defaults. */
export function aNewAlert(overrides: Partial<NewAlert> = {}): NewAlert {
  return {
    team_id: 'team-a',
    source: 'alertmanager',
    group_key: 'group-1',
    fingerprint: 'fp-1',
    alertname: 'HighErrorRate',
    status: 'firing',
    labels: { alertname: 'HighErrorRate', service: 'checkout' },
    annotations: { summary: 'errors' },
    starts_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export interface AlertStoreFactory {
  create(): Promise<AlertStore>;
  cleanup?(): Promise<void>;
}

const open = (over: Partial<Parameters<AlertStore['openGroup']>[0]> = {}) => ({
  team_id: 'team-a',
  group_key: 'group-1',
  source: 'alertmanager',
  alertname: 'HighErrorRate',
  investigation_id: `inv_${Math.random().toString(36).slice(2, 12)}`,
  run: { message: 'm' },
  now: Date.now(),
  maxPerMinute: 10,
  ...over,
});

/** The behaviour every AlertStore adapter must show. */
export function alertStoreContract(factory: AlertStoreFactory): void {
  let store: AlertStore;
  beforeEach(async () => {
    store = await factory.create();
  });
  afterEach(async () => {
    await store.close();
    await factory.cleanup?.();
  });

  it('records a repeat on the same record and a re-fire after resolution as a new one', async () => {
    const now = new Date().toISOString();
    const a = await store.record(aNewAlert(), now);
    const b = await store.record(aNewAlert(), now);
    expect(b.alert_id).toBe(a.alert_id);
    expect(b.receive_count).toBe(2);
    const r = await store.record(aNewAlert({ status: 'resolved' }), now);
    expect(r.alert_id).toBe(a.alert_id);
    expect(r.status).toBe('resolved');
    expect(r.resolved_at).toBe(now);
    const again = await store.record(aNewAlert({ status: 'resolved' }), now);
    expect(again.alert_id).toBe(a.alert_id);
    const refire = await store.record(aNewAlert(), now);
    expect(refire.alert_id).not.toBe(a.alert_id);
    expect(refire.status).toBe('firing');
    const page = await store.list({ teamId: 'team-a', limit: 10, offset: 0 });
    expect(page.total).toBe(2);
    expect(page.items[0]!.alert_id).toBe(refire.alert_id);
  });

  it('keeps teams apart and filters the list', async () => {
    const now = new Date().toISOString();
    await store.record(aNewAlert(), now);
    await store.record(aNewAlert({ fingerprint: 'fp-2', alertname: 'Other' }), now);
    await store.record(aNewAlert({ team_id: 'team-b' }), now);
    expect((await store.list({ teamId: 'team-a', limit: 10, offset: 0 })).total).toBe(2);
    expect((await store.list({ teamId: 'team-b', limit: 10, offset: 0 })).total).toBe(1);
    const other = await store.list({ teamId: 'team-a', limit: 10, offset: 0, alertname: 'Other' });
    expect(other.items.map((a) => a.fingerprint)).toEqual(['fp-2']);
    const page = await store.list({ teamId: 'team-a', limit: 1, offset: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.total).toBe(2);
  });

  it('links alerts to an investigation; a skip never hides it', async () => {
    const now = new Date().toISOString();
    const a = await store.record(aNewAlert(), now);
    await store.link('team-b', [a.alert_id], { investigation_id: 'inv_x' });
    expect(
      (await store.list({ teamId: 'team-a', limit: 1, offset: 0 })).items[0]!.investigation_id,
    ).toBeUndefined();
    await store.link('team-a', [a.alert_id], { skipped_reason: 'rate_capped' });
    await store.link('team-a', [a.alert_id], { investigation_id: 'inv_1' });
    await store.link('team-a', [a.alert_id], { skipped_reason: 'disabled' });
    const rec = (await store.list({ teamId: 'team-a', limit: 1, offset: 0 })).items[0]!;
    expect(rec.investigation_id).toBe('inv_1');
    expect(rec.skipped_reason).toBeUndefined();
  });

  it('links while recording', async () => {
    const now = new Date().toISOString();
    const a = await store.record(aNewAlert(), now, { investigation_id: 'inv_1' });
    expect(a.investigation_id).toBe('inv_1');
    const b = await store.record(aNewAlert(), now, { skipped_reason: 'disabled' });
    expect(b).toMatchObject({ alert_id: a.alert_id, investigation_id: 'inv_1', receive_count: 2 });
    expect(b.skipped_reason).toBeUndefined();
    const [listed] = (await store.list({ teamId: 'team-a', limit: 1, offset: 0 })).items;
    expect(listed).toEqual(b);
  });

  it('opens a group once while it fires, again after it resolves', async () => {
    const first = await store.openGroup(open());
    expect(first.kind).toBe('opened');
    if (first.kind !== 'opened') throw new Error('unreachable');
    expect(first.group.start_state).toBe('starting');
    const repeat = await store.openGroup(open());
    expect(repeat.kind).toBe('existing');
    if (repeat.kind !== 'existing') throw new Error('unreachable');
    expect(repeat.group.investigation_id).toBe(first.group.investigation_id);
    expect((await store.listStartingGroups()).map((g) => g.investigation_id)).toEqual([
      first.group.investigation_id,
    ]);
    await store.markGroupStarted('team-a', 'group-1', first.group.episode);
    expect(await store.listStartingGroups()).toEqual([]);

    const now = new Date().toISOString();
    await store.record(aNewAlert(), now);
    expect(await store.resolveGroupIfQuiet('team-a', 'group-1', now)).toBeUndefined();
    await store.record(aNewAlert({ status: 'resolved' }), now);
    const resolved = await store.resolveGroupIfQuiet('team-a', 'group-1', now);
    expect(resolved?.status).toBe('resolved');
    expect(resolved?.investigation_id).toBe(first.group.investigation_id);
    expect(await store.firingGroup('team-a', 'group-1')).toBeUndefined();

    const refire = await store.openGroup(open());
    expect(refire.kind).toBe('opened');
    if (refire.kind !== 'opened') throw new Error('unreachable');
    expect(refire.group.episode).toBe(first.group.episode + 1);
    expect(refire.group.investigation_id).not.toBe(first.group.investigation_id);
  });

  it('opens one group of many concurrent notifications', async () => {
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.openGroup(open())));
    expect(outcomes.filter((o) => o.kind === 'opened')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'existing')).toHaveLength(19);
  });

  it('caps the groups a team opens per minute', async () => {
    const now = Date.now();
    for (let i = 0; i < 3; i++)
      expect((await store.openGroup(open({ group_key: `g${i}`, now, maxPerMinute: 3 }))).kind).toBe(
        'opened',
      );
    expect((await store.openGroup(open({ group_key: 'g3', now, maxPerMinute: 3 }))).kind).toBe(
      'capped',
    );
    // another team has its own cap; a minute later the window is free again
    expect(
      (await store.openGroup(open({ team_id: 'team-b', group_key: 'g3', now, maxPerMinute: 3 })))
        .kind,
    ).toBe('opened');
    expect(
      (await store.openGroup(open({ group_key: 'g3', now: now + 60_001, maxPerMinute: 3 }))).kind,
    ).toBe('opened');
  });
}
