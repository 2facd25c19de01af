import { eventEnvelope, InProcessEventBus, Subjects } from '@inquest/events';
import { CachedEffectiveConfigSource } from './cached-effective-config-source';
import type { EffectiveConfig, ReadOptions } from './effective-config-source';

const answer = (teamId: string, version: number): EffectiveConfig => ({
  teamId,
  config: { team_node_id: teamId, n: version },
  version,
  secretScopes: {},
});

const deferred = <T>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const p = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { p, resolve, reject };
};

/** A loader that counts calls and answers version = call number, per team. */
function countingLoader() {
  const calls: Array<{ teamId: string; options: ReadOptions }> = [];
  const load = jest.fn(async (teamId: string, options: ReadOptions) => {
    calls.push({ teamId, options });
    return answer(teamId, calls.filter((c) => c.teamId === teamId).length);
  });
  return { load, calls };
}

describe('CachedEffectiveConfigSource', () => {
  let bus: InProcessEventBus;
  let clock: number;
  const now = () => clock;

  beforeEach(() => {
    bus = new InProcessEventBus();
    clock = 1_000_000;
  });
  afterEach(() => bus.close());

  const changed = (teamId: string, nodeId = teamId) =>
    bus.publish(Subjects.configChanged, {
      ...eventEnvelope(teamId),
      node_id: nodeId,
      version: 2,
      changed_fields: ['x'],
      changed_by: 'test',
    });

  it('answers from the cache until the TTL passes on the fake clock', async () => {
    const { load } = countingLoader();
    const source = await CachedEffectiveConfigSource.create({ load, bus, ttlMs: 1000, now });
    expect((await source.get('t1')).version).toBe(1);
    clock += 999;
    expect((await source.get('t1')).version).toBe(1);
    clock += 1;
    expect((await source.get('t1')).version).toBe(2);
    expect(load).toHaveBeenCalledTimes(2);
    await source.close();
  });

  it('makes one call for concurrent reads of one team (single flight), one per team', async () => {
    const d = deferred<EffectiveConfig>();
    const load = jest.fn((teamId: string) =>
      teamId === 't1' ? d.p : Promise.resolve(answer(teamId, 7)),
    );
    const source = await CachedEffectiveConfigSource.create({ load, bus, now });
    const all = Promise.all(Array.from({ length: 50 }, () => source.get('t1')));
    const other = source.get('t2');
    d.resolve(answer('t1', 3));
    expect((await all).map((a) => a.version)).toEqual(Array(50).fill(3));
    expect((await other).version).toBe(7);
    expect(load.mock.calls.map((c) => c[0]).sort()).toEqual(['t1', 't2']);
    await source.close();
  });

  it('does not pass one caller signal to a shared load, but lets that caller stop waiting', async () => {
    const d = deferred<EffectiveConfig>();
    const load = jest.fn((_t: string, _o: ReadOptions) => d.p);
    const source = await CachedEffectiveConfigSource.create({ load, bus, now });
    const ac = new AbortController();
    const first = source.get('t1', { signal: ac.signal, requestId: 'req-1' });
    const second = source.get('t1');
    ac.abort(new Error('client left'));
    await expect(first).rejects.toThrow('client left');
    d.resolve(answer('t1', 1));
    expect((await second).version).toBe(1);
    expect(load).toHaveBeenCalledTimes(1);
    expect(load.mock.calls[0]![1]).toEqual({ requestId: 'req-1' });
    await source.close();
  });

  it('serves a stale answer while one background load refreshes it (stale-while-revalidate)', async () => {
    const refresh = deferred<EffectiveConfig>();
    const load = jest.fn().mockResolvedValueOnce(answer('t1', 1)).mockReturnValueOnce(refresh.p);
    const source = await CachedEffectiveConfigSource.create({
      load,
      bus,
      ttlMs: 1000,
      staleMs: 5000,
      now,
    });
    expect((await source.get('t1')).version).toBe(1);
    clock += 1500;
    // expired but inside the stale window: the old answer at once, one refresh for both callers
    expect((await source.get('t1')).version).toBe(1);
    expect((await source.get('t1')).version).toBe(1);
    expect(load).toHaveBeenCalledTimes(2);
    refresh.resolve(answer('t1', 2));
    await refresh.p;
    await new Promise((r) => setImmediate(r));
    expect((await source.get('t1')).version).toBe(2);
    // past the stale window the caller waits for a new answer
    clock += 1000 + 5000;
    load.mockResolvedValueOnce(answer('t1', 3));
    expect((await source.get('t1')).version).toBe(3);
    await source.close();
  });

  it('keeps serving the last answer when a refresh fails, and retries after errorTtlMs', async () => {
    const load = jest
      .fn()
      .mockResolvedValueOnce(answer('t1', 1))
      .mockRejectedValueOnce(new Error('config down'))
      .mockResolvedValueOnce(answer('t1', 2));
    const source = await CachedEffectiveConfigSource.create({
      load,
      bus,
      ttlMs: 1000,
      staleMs: Infinity,
      errorTtlMs: 500,
      now,
    });
    await source.get('t1');
    clock += 1000;
    expect((await source.get('t1')).version).toBe(1);
    await new Promise((r) => setImmediate(r));
    clock += 499;
    expect((await source.get('t1')).version).toBe(1);
    expect(load).toHaveBeenCalledTimes(2);
    clock += 1;
    expect((await source.get('t1')).version).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect((await source.get('t1')).version).toBe(2);
    expect(load).toHaveBeenCalledTimes(3);
    await source.close();
  });

  it('answers a failure without a new call for errorTtlMs when nothing was known', async () => {
    const load = jest
      .fn()
      .mockRejectedValueOnce(Object.assign(new Error('gone'), { code: 'unavailable' }))
      .mockResolvedValueOnce(answer('t1', 1));
    const source = await CachedEffectiveConfigSource.create({ load, bus, errorTtlMs: 1000, now });
    await expect(source.get('t1')).rejects.toThrow('gone');
    await expect(source.get('t1')).rejects.toThrow('gone');
    expect(load).toHaveBeenCalledTimes(1);
    clock += 1000;
    expect((await source.get('t1')).version).toBe(1);
    await source.close();
  });

  it('drops a team when config.changed names it, and every team below a changed group', async () => {
    const { load } = countingLoader();
    const source = await CachedEffectiveConfigSource.create({ load, bus, now });
    const heard: unknown[] = [];
    source.onChange((c) => heard.push(c));
    for (const t of ['a', 'b', 'c']) await source.get(t);
    // a change of team a's own config
    await changed('a');
    expect((await source.get('a')).version).toBe(2);
    expect((await source.get('b')).version).toBe(1);
    // a change of group g (parent of b and c): config-hierarchy publishes one event per team below
    await changed('b', 'g');
    await changed('c', 'g');
    expect((await source.get('b')).version).toBe(2);
    expect((await source.get('c')).version).toBe(2);
    expect((await source.get('a')).version).toBe(2);
    expect(heard).toEqual([
      { teamId: 'a', nodeId: 'a' },
      { teamId: 'b', nodeId: 'g' },
      { teamId: 'c', nodeId: 'g' },
    ]);
    // an event naming no team drops everything
    // (a partial event, as an old producer sent it: the widened subject opts out of EventMap)
    const partial: string = Subjects.configChanged;
    await bus.publish(partial, { event_id: 'e-all', node_id: 'org' });
    expect((await source.get('a')).version).toBe(3);
    expect((await source.get('b')).version).toBe(3);
    await source.close();
  });

  it('neither keeps nor shares a load that started before a change', async () => {
    const old = deferred<EffectiveConfig>();
    const fresh = deferred<EffectiveConfig>();
    const load = jest.fn().mockReturnValueOnce(old.p).mockReturnValueOnce(fresh.p);
    const source = await CachedEffectiveConfigSource.create({ load, bus, now });
    const first = source.get('t1');
    await changed('t1');
    const second = source.get('t1');
    old.resolve(answer('t1', 1));
    fresh.resolve(answer('t1', 2));
    expect((await first).version).toBe(1);
    expect((await second).version).toBe(2);
    expect((await source.get('t1')).version).toBe(2);
    expect(load).toHaveBeenCalledTimes(2);
    await source.close();
  });

  it('neither caches nor shares without a bus: every read asks', async () => {
    const { load, calls } = countingLoader();
    const source = await CachedEffectiveConfigSource.create({ load, now });
    const ac = new AbortController();
    await Promise.all([source.get('t1', { signal: ac.signal }), source.get('t1')]);
    expect(load).toHaveBeenCalledTimes(2);
    // the caller's own signal goes with an unshared read
    expect(calls[0]!.options.signal).toBe(ac.signal);
    await source.close();
  });

  it('unsubscribes on close and stops caching', async () => {
    const { load } = countingLoader();
    const subscribe = jest.spyOn(bus, 'subscribe');
    const source = await CachedEffectiveConfigSource.create({ load, bus, now });
    const sub = (await subscribe.mock.results[0]!.value) as { unsubscribe(): Promise<void> };
    const unsubscribe = jest.spyOn(sub, 'unsubscribe');
    const onChange = jest.fn();
    source.onChange(onChange);
    await source.close();
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    await changed('t1');
    expect(onChange).not.toHaveBeenCalled();
    await source.get('t1');
    await source.get('t1');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('invalidate() drops a team or all and tells the listeners', async () => {
    const { load } = countingLoader();
    const source = await CachedEffectiveConfigSource.create({ load, bus, now });
    const heard: unknown[] = [];
    const off = source.onChange((c) => heard.push(c));
    await source.get('t1');
    await source.get('t2');
    source.invalidate('t1');
    expect((await source.get('t1')).version).toBe(2);
    expect((await source.get('t2')).version).toBe(1);
    source.invalidate();
    off();
    source.invalidate('t2');
    expect((await source.get('t2')).version).toBe(2);
    expect(heard).toEqual([{ teamId: 't1' }, {}]);
    await source.close();
  });
});
