import type { DeliveryStore, NewDelivery } from '../deliveries/delivery-store';

let counter = 0;

/** A new webhook delivery, due now, with sensible defaults. */
export function aNewDelivery(overrides: Partial<NewDelivery> = {}): NewDelivery {
  const n = ++counter;
  const now = new Date().toISOString();
  return {
    delivery_id: `dlv_${n}_${Math.random().toString(36).slice(2, 10)}`,
    dedupe_key: `evt_${n}_${Math.random().toString(36).slice(2, 10)}:webhook`,
    team_id: 'team-a',
    event: 'investigation_complete',
    event_id: `evt_${n}`,
    channel: 'webhook',
    target: 'https://hooks.example.com/inquest',
    payload: { event: 'investigation_complete', investigation_id: `inv_${n}` },
    next_attempt_at: now,
    created_at: now,
    ...overrides,
  };
}

export interface DeliveryStoreFactory {
  /** a store on fresh, empty data */
  create(): Promise<DeliveryStore>;
  /** a second, independent handle (another connection / replica) on the data of the last create() */
  createPeer(): Promise<DeliveryStore>;
  cleanup?(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The behaviour every DeliveryStore adapter must show. Call inside a describe block:
 * `describe('Sqlite', () => deliveryStoreContract(factory))`.
 */
export function deliveryStoreContract(factory: DeliveryStoreFactory): void {
  let store: DeliveryStore;
  const extra: DeliveryStore[] = [];
  beforeEach(async () => {
    store = await factory.create();
  });
  afterEach(async () => {
    for (const s of extra.splice(0)) await s.close();
    await store.close();
    await factory.cleanup?.();
  });
  const peer = async () => {
    const p = await factory.createPeer();
    extra.push(p);
    return p;
  };

  it('records a pending delivery and reads it back', async () => {
    const input = aNewDelivery({
      secret_ref: 'vault://inquest/team-a/hooks/signing',
      secret_scope: { owner: 'team-a', prefixes: ['inquest/team-a/'] },
      payload: { a: [1, { b: 'c' }] },
    });
    const { delivery, created } = await store.create(input);
    expect(created).toBe(true);
    expect(delivery).toMatchObject({
      delivery_id: input.delivery_id,
      team_id: 'team-a',
      event: 'investigation_complete',
      event_id: input.event_id,
      channel: 'webhook',
      target: input.target,
      payload: { a: [1, { b: 'c' }] },
      secret_ref: 'vault://inquest/team-a/hooks/signing',
      secret_scope: { owner: 'team-a', prefixes: ['inquest/team-a/'] },
      status: 'pending',
      attempts: 0,
      next_attempt_at: input.next_attempt_at,
      created_at: input.created_at,
    });
    expect(await store.get(input.delivery_id)).toEqual(delivery);
    expect(await store.get('dlv_missing')).toBeUndefined();
  });

  it('records a delivery once per dedupe key (a redelivered event)', async () => {
    const first = aNewDelivery();
    await store.create(first);
    const again = await store.create({ ...first, delivery_id: 'dlv_other' });
    expect(again.created).toBe(false);
    expect(again.delivery.delivery_id).toBe(first.delivery_id);
    expect(await store.get('dlv_other')).toBeUndefined();
  });

  it('lists a team newest first with status and channel filters', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const d = aNewDelivery({
        channel: i % 2 ? 'chat' : 'webhook',
        next_attempt_at: iso(Date.now() + 60_000),
      });
      ids.push(d.delivery_id);
      await store.create(d);
    }
    await store.create(aNewDelivery({ team_id: 'team-b' }));
    const all = await store.list('team-a', { limit: 10 });
    expect(all.map((d) => d.delivery_id)).toEqual([...ids].reverse());
    expect((await store.list('team-a', { limit: 2 })).map((d) => d.delivery_id)).toEqual([
      ids[4],
      ids[3],
    ]);
    expect(
      (await store.list('team-a', { limit: 10, channel: 'chat' })).map((d) => d.delivery_id),
    ).toEqual([ids[3], ids[1]]);
    expect(await store.list('team-a', { limit: 10, status: 'delivered' })).toEqual([]);
    expect(await store.list('team-c', { limit: 10 })).toEqual([]);
  });

  it('claims only due deliveries, oldest first, and records the outcome under the claim', async () => {
    const now = Date.now();
    const later = aNewDelivery({ next_attempt_at: iso(now + 60_000) });
    const old = aNewDelivery({ next_attempt_at: iso(now - 2000) });
    const recent = aNewDelivery({ next_attempt_at: iso(now - 1000) });
    for (const d of [later, recent, old]) await store.create(d);
    const claimed = await store.claimDue({
      owner: 'r1',
      now: iso(now),
      leaseMs: 30_000,
      limit: 10,
    });
    expect(claimed.map((d) => d.delivery_id)).toEqual([old.delivery_id, recent.delivery_id]);
    expect(claimed[0]).toMatchObject({
      status: 'delivering',
      lease_owner: 'r1',
      lease_until: iso(now + 30_000),
      attempts: 1, // counted as it is claimed, before anything is sent
    });
    expect(await store.get(old.delivery_id)).toMatchObject({ attempts: 1 });
    expect(
      await store.claimDue({ owner: 'r2', now: iso(now), leaseMs: 30_000, limit: 10 }),
    ).toEqual([]);

    const c = claimed[0]!;
    const ok = await store.complete(c.delivery_id, c.claim_id!, {
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
      delivered_at: iso(now + 5),
      updated_at: iso(now + 5),
    });
    expect(ok).toBe(true);
    const done = await store.get(c.delivery_id);
    expect(done).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
      delivered_at: iso(now + 5),
    });
    expect(done?.next_attempt_at).toBeUndefined();
    expect(done?.claim_id).toBeUndefined();
    // a second outcome under the same (spent) claim is refused
    expect(
      await store.complete(c.delivery_id, c.claim_id!, {
        status: 'pending',
        attempts: 2,
        updated_at: iso(now),
      }),
    ).toBe(false);
  });

  it('schedules a retry: pending again, claimable only when due', async () => {
    const now = Date.now();
    const d = aNewDelivery({ next_attempt_at: iso(now - 10) });
    await store.create(d);
    const [c] = await store.claimDue({ owner: 'r1', now: iso(now), leaseMs: 30_000, limit: 1 });
    await store.complete(c!.delivery_id, c!.claim_id!, {
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_error: 'HTTP 500',
      next_attempt_at: iso(now + 5000),
      updated_at: iso(now),
    });
    expect(await store.get(d.delivery_id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_error: 'HTTP 500',
      next_attempt_at: iso(now + 5000),
    });
    expect(await store.nextDueAt()).toBe(iso(now + 5000));
    expect(
      await store.claimDue({ owner: 'r1', now: iso(now + 4999), leaseMs: 30_000, limit: 5 }),
    ).toEqual([]);
    const again = await store.claimDue({
      owner: 'r1',
      now: iso(now + 5000),
      leaseMs: 30_000,
      limit: 5,
    });
    expect(again.map((x) => x.attempts)).toEqual([2]);
  });

  it('keeps every recorded attempt in attempt_log, oldest first; a refused outcome adds none', async () => {
    const now = Date.now();
    const d = aNewDelivery({ next_attempt_at: iso(now - 10) });
    await store.create(d);
    expect((await store.get(d.delivery_id))?.attempt_log).toBeUndefined();
    const [c1] = await store.claimDue({ owner: 'r1', now: iso(now), leaseMs: 30_000, limit: 1 });
    await store.complete(c1!.delivery_id, c1!.claim_id!, {
      status: 'pending',
      attempts: 1,
      last_error: 'connect ECONNREFUSED',
      next_attempt_at: iso(now + 10),
      updated_at: iso(now + 1),
    });
    const [c2] = await store.claimDue({
      owner: 'r1',
      now: iso(now + 10),
      leaseMs: 30_000,
      limit: 1,
    });
    await store.complete(c2!.delivery_id, c2!.claim_id!, {
      status: 'failed',
      attempts: 2,
      last_status_code: 503,
      last_error: 'HTTP 503 (gave up after 2 attempts)',
      updated_at: iso(now + 12),
    });
    // the spent claim records nothing
    await store.complete(c2!.delivery_id, c2!.claim_id!, {
      status: 'delivered',
      attempts: 3,
      updated_at: iso(now + 13),
    });
    const expected = [
      { attempt: 1, at: iso(now + 1), outcome: 'pending', error: 'connect ECONNREFUSED' },
      {
        attempt: 2,
        at: iso(now + 12),
        outcome: 'failed',
        status_code: 503,
        error: 'HTTP 503 (gave up after 2 attempts)',
      },
    ];
    expect((await store.get(d.delivery_id))?.attempt_log).toEqual(expected);
    const [listed] = await store.list(d.team_id, { limit: 1 });
    expect(listed?.attempt_log).toEqual(expected);
  });

  it('makes a delivery claimable again when its lease expires, fencing the old claim', async () => {
    const now = Date.now();
    const d = aNewDelivery({ next_attempt_at: iso(now - 10) });
    await store.create(d);
    const [first] = await store.claimDue({ owner: 'dead', now: iso(now), leaseMs: 1000, limit: 1 });
    expect(await store.nextDueAt()).toBe(iso(now + 1000));
    expect(
      await store.claimDue({ owner: 'r2', now: iso(now + 999), leaseMs: 1000, limit: 1 }),
    ).toEqual([]);
    const [second] = await store.claimDue({
      owner: 'r2',
      now: iso(now + 1000),
      leaseMs: 1000,
      limit: 1,
    });
    expect(second?.lease_owner).toBe('r2');
    // the attempt the dead replica started counts: an attempt cut off by a crash is not lost
    expect([first?.attempts, second?.attempts]).toEqual([1, 2]);
    expect(second?.claim_id).not.toBe(first?.claim_id);
    expect(await store.renew(d.delivery_id, first!.claim_id!, iso(now + 9000))).toBe(false);
    expect(
      await store.complete(d.delivery_id, first!.claim_id!, {
        status: 'delivered',
        attempts: 1,
        updated_at: iso(now),
      }),
    ).toBe(false);
    expect(await store.renew(d.delivery_id, second!.claim_id!, iso(now + 9000))).toBe(true);
    expect(
      await store.claimDue({ owner: 'r3', now: iso(now + 8999), leaseMs: 1000, limit: 1 }),
    ).toEqual([]);
    expect(
      await store.complete(d.delivery_id, second!.claim_id!, {
        status: 'stopped',
        attempts: 1,
        last_status_code: 410,
        updated_at: iso(now),
      }),
    ).toBe(true);
    expect(await store.get(d.delivery_id)).toMatchObject({
      status: 'stopped',
      last_status_code: 410,
    });
    expect(await store.nextDueAt()).toBeUndefined();
  });

  it('respects lane capacity so one team cannot take every slot', async () => {
    const now = Date.now();
    for (let i = 0; i < 6; i++)
      await store.create(aNewDelivery({ team_id: 'slow', next_attempt_at: iso(now - 100 + i) }));
    await store.create(aNewDelivery({ team_id: 'fast', next_attempt_at: iso(now - 1) }));
    await store.create(
      aNewDelivery({ team_id: 'fast', channel: 'chat', next_attempt_at: iso(now) }),
    );
    const claimed = await store.claimDue({
      owner: 'r1',
      now: iso(now),
      leaseMs: 30_000,
      limit: 10,
      laneCapacity: { 'slow/webhook': 1 },
      defaultLaneCapacity: 2,
    });
    const lanes = claimed.map((d) => `${d.team_id}/${d.channel}`).sort();
    expect(lanes).toEqual(['fast/chat', 'fast/webhook', 'slow/webhook']);
  });

  it('never hands the same delivery to two replicas claiming at once', async () => {
    const now = Date.now();
    const total = 60;
    for (let i = 0; i < total; i++)
      await store.create(
        aNewDelivery({ team_id: `t${i % 7}`, next_attempt_at: iso(now - 1000 + i) }),
      );
    const replicas = [store, await peer(), await peer()];
    const seen: string[] = [];
    await Promise.all(
      replicas.map(async (r, idx) => {
        for (;;) {
          const got = await r.claimDue({
            owner: `r${idx}`,
            now: iso(now),
            leaseMs: 30_000,
            limit: 3,
          });
          if (got.length === 0) return;
          seen.push(...got.map((d) => d.delivery_id));
        }
      }),
    );
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });
}
