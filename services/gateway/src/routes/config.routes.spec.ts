import { EffectiveConfigCache } from './config.routes';

const deferred = () => {
  let resolve!: (v: string) => void;
  const p = new Promise<string>((r) => (resolve = r));
  return { p, resolve };
};

describe('EffectiveConfigCache.load', () => {
  it('loads once for concurrent callers of a team, then answers from the cache', async () => {
    const cache = new EffectiveConfigCache();
    cache.listening = true;
    const d = deferred();
    const fetch = jest.fn((shared: boolean) => {
      expect(shared).toBe(true);
      return d.p;
    });
    const all = Promise.all(Array.from({ length: 50 }, () => cache.load('t1', fetch)));
    d.resolve('{"a":1}');
    expect(await all).toEqual(Array(50).fill('{"a":1}'));
    expect(await cache.load('t1', fetch)).toBe('{"a":1}');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('does not let callers after an invalidation join a load that started before it', async () => {
    const cache = new EffectiveConfigCache();
    cache.listening = true;
    const old = deferred();
    const fresh = deferred();
    const fetch = jest.fn().mockReturnValueOnce(old.p).mockReturnValueOnce(fresh.p);
    const first = cache.load('t1', fetch);
    cache.invalidate('t1');
    const second = cache.load('t1', fetch);
    old.resolve('old');
    fresh.resolve('new');
    expect(await first).toBe('old');
    expect(await second).toBe('new');
    expect(fetch).toHaveBeenCalledTimes(2);
    // the stale answer was not cached
    expect(cache.get('t1')).toBe('new');
  });

  it('shares a failure with the callers that waited, and retries on the next call', async () => {
    const cache = new EffectiveConfigCache();
    cache.listening = true;
    const fetch = jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('{}');
    await expect(Promise.all([cache.load('t1', fetch), cache.load('t1', fetch)])).rejects.toThrow(
      'down',
    );
    expect(await cache.load('t1', fetch)).toBe('{}');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('neither caches nor coalesces before it hears config changes', async () => {
    const cache = new EffectiveConfigCache();
    const fetch = jest.fn((shared: boolean) => Promise.resolve(`{"shared":${shared}}`));
    expect(await Promise.all([cache.load('t1', fetch), cache.load('t1', fetch)])).toEqual([
      '{"shared":false}',
      '{"shared":false}',
    ]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
