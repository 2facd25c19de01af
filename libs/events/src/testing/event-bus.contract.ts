import { randomUUID } from 'node:crypto';
import { waitFor } from '@inquest/testing';
import type { EventBus, EventMessage, SubscribeOptions } from '../event-bus';

/** One adapter under test, started once per describe block. */
export interface EventBusHarness {
  /** a bus on the shared backend (each call is another process/replica where the adapter can) */
  bus(): Promise<EventBus>;
  /** restarts the backing server (adapters with a server only) */
  restartServer?(): Promise<void>;
  /** closes every bus it made and stops the backend */
  stop(): Promise<void>;
}

export interface EventBusAdapter {
  name: string;
  start(): Promise<EventBusHarness>;
  /** events are stored: a durable created after publishing still gets them (JetStream) */
  persistent: boolean;
  /** ackWaitMs is enforced: a delivery running past it is redelivered */
  enforcesAckWait: boolean;
  /** the harness can restart its server (not when reusing an external one) */
  restartable: boolean;
}

type Received = { at: number; msg: EventMessage; by: string };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The EventBus contract, run for each adapter with describe.each:
 * `describe.each(adapters.map((a) => [a.name, a]))('%s', (_n, a) => eventBusContract(a))`.
 * Every test uses its own subjects and durable names, so a shared server is fine.
 */
export function eventBusContract(adapter: EventBusAdapter): void {
  let harness: EventBusHarness;
  let bus: EventBus;
  let prefix: string;
  let durableN = 0;

  beforeAll(async () => {
    harness = await adapter.start();
    bus = await harness.bus();
  });
  afterAll(async () => {
    await harness.stop();
  });
  beforeEach(() => {
    prefix = `inquest.v1.test.t${randomUUID().slice(0, 8)}`;
  });

  const durable = (label: string) => `${label}_${randomUUID().slice(0, 8)}_${durableN++}`;

  /** subscribes and records every message it gets */
  async function recorder(
    b: EventBus,
    subject: string,
    options: SubscribeOptions = {},
    behaviour: (m: EventMessage) => Promise<void> = async () => undefined,
    by = 'a',
  ) {
    const got: Received[] = [];
    const sub = await b.subscribe(
      subject,
      async (msg) => {
        got.push({ at: Date.now(), msg, by });
        await behaviour(msg);
      },
      options,
    );
    return { got, sub };
  }

  it('delivers a published event to a durable subscriber with subject, data, msg id and delivery count', async () => {
    const { got, sub } = await recorder(bus, `${prefix}.created`, { durable: durable('basic') });
    const event = {
      event_id: `evt_${randomUUID()}`,
      team_id: 'team_a',
      value: 42,
      nested: { list: [1, 'two'] },
    };
    await bus.publish(`${prefix}.created`, event);
    await waitFor(() => got.length === 1);
    expect(got[0]!.msg.subject).toBe(`${prefix}.created`);
    expect(got[0]!.msg.data).toEqual(event);
    expect(got[0]!.msg.msgId).toBe(event.event_id);
    expect(got[0]!.msg.deliveryCount).toBe(1);
    await sleep(300);
    expect(got).toHaveLength(1);
    await sub.unsubscribe();
  });

  it('gives every durable name its own copy of each event (fan-out)', async () => {
    const a = await recorder(bus, `${prefix}.x`, { durable: durable('fan_a') });
    const b = await recorder(bus, `${prefix}.x`, { durable: durable('fan_b') });
    for (let i = 0; i < 3; i++)
      await bus.publish(`${prefix}.x`, { event_id: `e${i}_${prefix}`, i });
    await waitFor(() => a.got.length === 3 && b.got.length === 3);
    await sleep(300);
    expect(a.got.map((r) => (r.msg.data as { i: number }).i).sort()).toEqual([0, 1, 2]);
    expect(b.got.map((r) => (r.msg.data as { i: number }).i).sort()).toEqual([0, 1, 2]);
    await a.sub.unsubscribe();
    await b.sub.unsubscribe();
  });

  it('splits events between handlers sharing one durable name (work queue), each event handled once', async () => {
    const name = durable('queue');
    const replica = await harness.bus();
    const slow = () => sleep(25);
    const a = await recorder(bus, `${prefix}.job`, { durable: name }, slow, 'a');
    const b = await recorder(replica, `${prefix}.job`, { durable: name }, slow, 'b');
    const n = 20;
    for (let i = 0; i < n; i++)
      await bus.publish(`${prefix}.job`, { event_id: `job${i}_${prefix}`, i });
    await waitFor(() => a.got.length + b.got.length >= n, 15_000);
    await sleep(300);
    const all = [...a.got, ...b.got]
      .map((r) => (r.msg.data as { i: number }).i)
      .sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(a.got.length).toBeGreaterThan(0);
    expect(b.got.length).toBeGreaterThan(0);
    await a.sub.unsubscribe();
    await b.sub.unsubscribe();
  });

  it('runs up to `concurrency` handlers of one subscription at once', async () => {
    let running = 0;
    let peak = 0;
    const { got, sub } = await recorder(
      bus,
      `${prefix}.c`,
      { durable: durable('conc'), concurrency: 3 },
      async () => {
        running++;
        peak = Math.max(peak, running);
        await sleep(300);
        running--;
      },
    );
    for (let i = 0; i < 6; i++) await bus.publish(`${prefix}.c`, { event_id: `c${i}_${prefix}` });
    await waitFor(() => got.length === 6 && running === 0, 10_000);
    expect(peak).toBe(3);
    await sub.unsubscribe();
  });

  it('redelivers after a handler throws, waiting the backoff of each attempt', async () => {
    const { got, sub } = await recorder(
      bus,
      `${prefix}.retry`,
      { durable: durable('retry'), backoffMs: [300, 600], maxDeliver: 5 },
      async (m) => {
        if (m.deliveryCount < 3) throw new Error('transient');
      },
    );
    await bus.publish(`${prefix}.retry`, { event_id: `r_${prefix}` });
    await waitFor(() => got.length === 3, 10_000);
    expect(got.map((r) => r.msg.deliveryCount)).toEqual([1, 2, 3]);
    // timers may fire a little early, never much; the upper bound catches "ignored the backoff"
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(250);
    expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(550);
    await sleep(800);
    expect(got).toHaveLength(3);
    await sub.unsubscribe();
  });

  it('gives up after maxDeliver deliveries', async () => {
    const { got, sub } = await recorder(
      bus,
      `${prefix}.poison`,
      { durable: durable('poison'), backoffMs: [50], maxDeliver: 3 },
      async () => {
        throw new Error('always fails');
      },
    );
    await bus.publish(`${prefix}.poison`, { event_id: `p_${prefix}` });
    await waitFor(() => got.length === 3, 10_000);
    await sleep(700);
    expect(got.map((r) => r.msg.deliveryCount)).toEqual([1, 2, 3]);
    await sub.unsubscribe();
  });

  it('stops redelivering at once when the handler calls term()', async () => {
    const { got, sub } = await recorder(
      bus,
      `${prefix}.term`,
      { durable: durable('term'), backoffMs: [50], maxDeliver: 5 },
      async (m) => {
        m.term();
        throw new Error('bad event');
      },
    );
    await bus.publish(`${prefix}.term`, { event_id: `t_${prefix}` });
    await waitFor(() => got.length === 1);
    await sleep(700);
    expect(got).toHaveLength(1);
    await sub.unsubscribe();
  });

  it('stores an event once when published twice with the same msgId (or event_id)', async () => {
    const { got, sub } = await recorder(bus, `${prefix}.dup`, { durable: durable('dup') });
    await bus.publish(`${prefix}.dup`, { n: 1 }, { msgId: `m1_${prefix}` });
    await bus.publish(`${prefix}.dup`, { n: 2 }, { msgId: `m1_${prefix}` });
    await bus.publish(`${prefix}.dup`, { event_id: `ev_${prefix}`, n: 3 });
    await bus.publish(`${prefix}.dup`, { event_id: `ev_${prefix}`, n: 4 });
    await bus.publish(`${prefix}.dup`, { n: 5 }, { msgId: `m2_${prefix}` });
    await waitFor(() => got.length >= 3);
    await sleep(400);
    expect(got.map((r) => (r.msg.data as { n: number }).n).sort()).toEqual([1, 3, 5]);
    expect(got.find((r) => (r.msg.data as { n: number }).n === 1)!.msg.msgId).toBe(`m1_${prefix}`);
    await sub.unsubscribe();
  });

  it('fans plain subscriptions out to every live subscriber, once each', async () => {
    const replica = await harness.bus();
    const a = await recorder(bus, `${prefix}.progress.inv1`);
    const b = await recorder(replica, `${prefix}.progress.inv1`, {}, async () => undefined, 'b');
    await bus.publish(`${prefix}.progress.inv1`, { event_id: `pr1_${prefix}`, step: 1 });
    await bus.publish(`${prefix}.progress.inv1`, { event_id: `pr2_${prefix}`, step: 2 });
    await waitFor(() => a.got.length === 2 && b.got.length === 2);
    expect(a.got.map((r) => (r.msg.data as { step: number }).step).sort()).toEqual([1, 2]);
    expect(b.got.every((r) => r.msg.deliveryCount === 1)).toBe(true);
    await b.sub.unsubscribe();
    await bus.publish(`${prefix}.progress.inv1`, { event_id: `pr3_${prefix}`, step: 3 });
    await waitFor(() => a.got.length === 3);
    await sleep(300);
    expect(b.got).toHaveLength(2);
    await a.sub.unsubscribe();
  });

  it('does not retry a plain subscription whose handler throws', async () => {
    const { got, sub } = await recorder(bus, `${prefix}.plainfail`, {}, async () => {
      throw new Error('ignored');
    });
    await bus.publish(`${prefix}.plainfail`, { event_id: `pf_${prefix}` });
    await waitFor(() => got.length === 1);
    await sleep(400);
    expect(got).toHaveLength(1);
    await sub.unsubscribe();
  });

  it('matches wildcard subjects: * one token, > the rest', async () => {
    const star = await recorder(bus, `${prefix}.kb.*`, { durable: durable('star') });
    const rest = await recorder(bus, `${prefix}.>`, { durable: durable('rest') });
    const plainStar = await recorder(bus, `${prefix}.kb.*`);
    await bus.publish(`${prefix}.kb.taught`, { event_id: `w1_${prefix}` });
    await bus.publish(`${prefix}.kb.taught.deep`, { event_id: `w2_${prefix}` });
    await bus.publish(`${prefix}.other`, { event_id: `w3_${prefix}` });
    await waitFor(
      () => rest.got.length === 3 && star.got.length === 1 && plainStar.got.length === 1,
    );
    await sleep(300);
    expect(star.got.map((r) => r.msg.subject)).toEqual([`${prefix}.kb.taught`]);
    expect(plainStar.got.map((r) => r.msg.subject)).toEqual([`${prefix}.kb.taught`]);
    expect(rest.got.map((r) => r.msg.subject).sort()).toEqual(
      [`${prefix}.kb.taught`, `${prefix}.kb.taught.deep`, `${prefix}.other`].sort(),
    );
    await Promise.all([
      star.sub.unsubscribe(),
      rest.sub.unsubscribe(),
      plainStar.sub.unsubscribe(),
    ]);
  });

  it('stops delivering to a handler after unsubscribe', async () => {
    const a = await recorder(bus, `${prefix}.u`, { durable: durable('unsub') });
    const p = await recorder(bus, `${prefix}.u`);
    await bus.publish(`${prefix}.u`, { event_id: `u1_${prefix}` });
    await waitFor(() => a.got.length === 1 && p.got.length === 1);
    await a.sub.unsubscribe();
    await p.sub.unsubscribe();
    await bus.publish(`${prefix}.u`, { event_id: `u2_${prefix}` });
    await sleep(500);
    expect(a.got).toHaveLength(1);
    expect(p.got).toHaveLength(1);
  });

  const persistentIt = adapter.persistent ? it : it.skip;

  persistentIt(
    'delivers to a durable an event published before its first subscriber existed',
    async () => {
      await bus.publish(`${prefix}.early`, { event_id: `early_${prefix}` });
      const { got, sub } = await recorder(bus, `${prefix}.early`, { durable: durable('early') });
      await waitFor(() => got.length === 1, 10_000);
      expect(got[0]!.msg.msgId).toBe(`early_${prefix}`);
      await sub.unsubscribe();
    },
  );

  persistentIt(
    'keeps a durable position while nobody is subscribed: a replica started later gets the backlog',
    async () => {
      const name = durable('backlog');
      const first = await recorder(bus, `${prefix}.b`, { durable: name });
      await bus.publish(`${prefix}.b`, { event_id: `b1_${prefix}` });
      await waitFor(() => first.got.length === 1);
      await first.sub.unsubscribe();
      await bus.publish(`${prefix}.b`, { event_id: `b2_${prefix}` });
      await bus.publish(`${prefix}.b`, { event_id: `b3_${prefix}` });
      const other = await harness.bus();
      const second = await recorder(other, `${prefix}.b`, { durable: name });
      await waitFor(() => second.got.length === 2, 10_000);
      expect(second.got.map((r) => r.msg.msgId).sort()).toEqual([`b2_${prefix}`, `b3_${prefix}`]);
      await sleep(300);
      expect(first.got).toHaveLength(1);
      await second.sub.unsubscribe();
    },
  );

  const ackWaitIt = adapter.enforcesAckWait ? it : it.skip;

  ackWaitIt(
    'redelivers a delivery that runs past ackWait, unless the handler calls working()',
    async () => {
      // a second slot is free to take the redelivery while the first still runs
      const slowOpts = { durable: durable('slow'), ackWaitMs: 1000, concurrency: 2 };
      const lazy = await recorder(bus, `${prefix}.slow`, slowOpts, async (m) => {
        if (m.deliveryCount === 1) await sleep(2200);
      });
      const busy = await recorder(
        bus,
        `${prefix}.busy`,
        { durable: durable('busy'), ackWaitMs: 1000, concurrency: 2 },
        async (m) => {
          for (let i = 0; i < 8; i++) {
            await sleep(300);
            m.working();
          }
        },
      );
      await bus.publish(`${prefix}.slow`, { event_id: `s_${prefix}` });
      await bus.publish(`${prefix}.busy`, { event_id: `bz_${prefix}` });
      await waitFor(() => lazy.got.length >= 2, 10_000);
      expect(lazy.got[1]!.msg.deliveryCount).toBe(2);
      await waitFor(() => busy.got.length >= 1);
      await sleep(2800);
      expect(busy.got).toHaveLength(1);
      await Promise.all([lazy.sub.unsubscribe(), busy.sub.unsubscribe()]);
    },
  );

  const restartIt = adapter.restartable ? it : it.skip;

  restartIt(
    'survives a restart of the server: subscriptions resume and stored events are kept',
    async () => {
      if (!harness.restartServer) throw new Error('restartable adapter without restartServer()');
      const { got, sub } = await recorder(bus, `${prefix}.r`, { durable: durable('restart') });
      await bus.publish(`${prefix}.r`, { event_id: `before_${prefix}` });
      await waitFor(() => got.length === 1);
      const plain = await recorder(bus, `${prefix}.rp`);

      await harness.restartServer();
      // publish retries while the client reconnects
      await bus.publish(`${prefix}.r`, { event_id: `after_${prefix}` });
      await waitFor(() => got.some((r) => r.msg.msgId === `after_${prefix}`), 20_000);
      // a new durable created after the restart still finds the event stored before it
      const late = await recorder(bus, `${prefix}.r`, { durable: durable('late') });
      await waitFor(() => late.got.length === 2, 10_000);
      expect(late.got.map((r) => r.msg.msgId).sort()).toEqual(
        [`after_${prefix}`, `before_${prefix}`].sort(),
      );
      // core subscriptions are re-established by the client
      await waitFor(
        async () => {
          await bus.publish(`${prefix}.rp`, { tick: Date.now() }, { msgId: randomUUID() });
          return plain.got.length > 0;
        },
        10_000,
        200,
      );
      await Promise.all([sub.unsubscribe(), late.sub.unsubscribe(), plain.sub.unsubscribe()]);
    },
    60_000,
  );
}
