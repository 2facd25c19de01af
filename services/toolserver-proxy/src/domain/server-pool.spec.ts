import { type DomainError } from '@inquest/errors';
import { silentLogger } from '@inquest/observability';
import {
  BreakerOpenError,
  type BreakerState,
  type CircuitBreaker,
  type CircuitBreakerFactory,
  type CircuitBreakerOptions,
} from './circuit-breaker';
import { cancelled } from './concurrency-limit';
import { ServerAuth } from './server-auth';
import type { ServerEntry } from './server-entry';
import { ServerPool } from './server-pool';
import type { ToolProxyMetrics } from './tool-proxy-metrics';
import { ToolServerError, type CallOptions, type ToolServerClient } from './tool-server-client';

/** Opens after `threshold` counted failures; the pool decides what counts through `ignore`. */
function countingBreakers(threshold: number) {
  const made: Array<{ options: CircuitBreakerOptions; breaker: CircuitBreaker }> = [];
  const factory: CircuitBreakerFactory = (options) => {
    let state: BreakerState = 'closed';
    let failures = 0;
    const breaker: CircuitBreaker = {
      get state() {
        return state;
      },
      async fire(fn) {
        if (state === 'open') throw new BreakerOpenError();
        try {
          return await fn();
        } catch (err) {
          if (!options.ignore(err) && ++failures >= threshold) {
            state = 'open';
            options.onStateChange('open');
          }
          throw err;
        }
      },
      shutdown: () => undefined,
    };
    made.push({ options, breaker });
    return breaker;
  };
  return { factory, made };
}

function recordingMetrics() {
  const events: string[] = [];
  const metrics: ToolProxyMetrics = {
    toolCall: () => undefined,
    breakerState: (server, state) => events.push(`breaker ${server} ${state}`),
    serverHealth: (server, healthy) => events.push(`health ${server} ${healthy}`),
  };
  return { metrics, events };
}

function fakeClient(overrides: Partial<ToolServerClient> = {}) {
  const calls: CallOptions[] = [];
  const client: ToolServerClient = {
    listTools: async (opts) => {
      calls.push(opts);
      return [];
    },
    callTool: async (_n, _p, opts) => {
      calls.push(opts);
      return { output: {}, bytes: 2 };
    },
    health: async () => 'ok',
    close: jest.fn(async () => undefined),
    ...overrides,
  };
  return { client, calls };
}

const entry = (over: Partial<ServerEntry> = {}): ServerEntry => ({
  name: 'k8s',
  url: 'http://k8s.local',
  transport: 'http',
  enabled: true,
  ...over,
});

const OPTIONS = {
  maxConcurrencyPerServer: 2,
  defaultTimeoutMs: 30_000,
  breaker: {
    resetTimeoutMs: 1000,
    volumeThreshold: 1,
    errorThresholdPercentage: 50,
    rollingCountTimeoutMs: 1000,
  },
};

function aPool(client: ToolServerClient, threshold = 3) {
  const breakers = countingBreakers(threshold);
  const { metrics, events } = recordingMetrics();
  const clientFactory = jest.fn(() => client);
  const pool = new ServerPool(
    {
      clientFactory,
      breakers: breakers.factory,
      auth: new ServerAuth({ resolve: async (ref) => `value-of-${ref}` }),
      metrics,
      logger: silentLogger(),
    },
    OPTIONS,
  );
  return { pool, breakers, events, clientFactory };
}

const live = () => new AbortController().signal;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as DomainError,
  );

describe('ServerPool', () => {
  it('calls with the auth headers and the entry timeout (seconds), else the default', async () => {
    const { client, calls } = fakeClient();
    const { pool } = aPool(client);
    await pool.request(
      entry({ timeout: 5, auth: { type: 'bearer', token: 't' } }),
      live(),
      (c, o) => c.listTools(o),
    );
    await pool.request(entry({ name: 'other' }), live(), (c, o) => c.listTools(o));
    expect(calls.map((c) => [c.timeoutMs, c.headers])).toEqual([
      [5000, { authorization: 'Bearer value-of-t' }],
      [30_000, {}],
    ]);
  });

  it('keeps one client and breaker per transport, name and URL', async () => {
    const { client } = fakeClient();
    const { pool, clientFactory, breakers } = aPool(client);
    const call = (e: ServerEntry) => pool.request(e, live(), (c, o) => c.listTools(o));
    await call(entry());
    await call(entry());
    await call(entry({ url: 'http://elsewhere' }));
    await call(entry({ transport: 'mcp' }));
    expect(clientFactory).toHaveBeenCalledTimes(3);
    expect(breakers.made).toHaveLength(3);
  });

  it('maps failures to domain errors and marks the server unhealthy on unavailability', async () => {
    let fail: Error = new ToolServerError('unreachable', 'ECONNREFUSED');
    const { client } = fakeClient({ callTool: () => Promise.reject(fail) });
    const { pool } = aPool(client, 100);
    const call = () => failure(pool.request(entry(), live(), (c, o) => c.callTool('t', {}, o)));
    expect((await call())?.code).toBe('data_source_unavailable');
    expect(pool.status(entry(), 0)).toMatchObject({
      healthy: false,
      last_error: 'tool server k8s: ECONNREFUSED',
    });
    fail = new ToolServerError('timeout', 'no answer');
    expect((await call())?.code).toBe('timeout');
    fail = new ToolServerError('rejected', 'answered 422', 422);
    expect((await call())?.code).toBe('tool_rejected');
    // a rejected call says nothing about the server: the last error stays the timeout's
    expect(pool.status(entry(), 0).last_error).toBe('tool server k8s: no answer');
  });

  it('does not count rejected, refused or cancelled calls against the breaker', async () => {
    const { client } = fakeClient({
      callTool: (name) =>
        Promise.reject(
          name === 'gave-up'
            ? cancelled()
            : name === 'bad'
              ? new ToolServerError('rejected', 'answered 400', 400)
              : name === 'refused'
                ? new ToolServerError('refused', 'private address')
                : new ToolServerError('unreachable', 'down'),
        ),
    });
    const { pool, events } = aPool(client, 2);
    const call = (tool: string, signal = live()) =>
      failure(pool.request(entry(), signal, (c, o) => c.callTool(tool, {}, o)));
    for (let i = 0; i < 5; i++) await call('bad');
    for (let i = 0; i < 5; i++) await call('refused');
    for (let i = 0; i < 5; i++) await call('gave-up');
    expect(pool.status(entry(), 0).breaker_state).toBe('closed');
    await call('down');
    await call('down');
    expect(pool.status(entry(), 0).breaker_state).toBe('open');
    expect(events).toContain('breaker k8s open');
    // open: refused without reaching the server
    const refused = await call('bad');
    expect(refused?.message).toMatch(/circuit open/);
  });

  it('lets an answer clear an earlier failure', async () => {
    let ok = false;
    const { client } = fakeClient({
      listTools: () =>
        ok ? Promise.resolve([]) : Promise.reject(new ToolServerError('unreachable', 'down')),
    });
    const { pool } = aPool(client);
    await failure(pool.request(entry(), live(), (c, o) => c.listTools(o)));
    expect(pool.status(entry(), 0).healthy).toBe(false);
    ok = true;
    await pool.request(entry(), live(), (c, o) => c.listTools(o));
    expect(pool.status(entry(), 3)).toEqual({
      name: 'k8s',
      url: 'http://k8s.local',
      enabled: true,
      healthy: true,
      breaker_state: 'closed',
      tool_count: 3,
    });
  });

  it('holds at most maxConcurrencyPerServer calls in flight; a cancelled waiter leaves', async () => {
    const gates: Array<() => void> = [];
    let inFlight = 0;
    let most = 0;
    const { client } = fakeClient({
      callTool: () =>
        new Promise((resolve) => {
          inFlight++;
          most = Math.max(most, inFlight);
          gates.push(() => {
            inFlight--;
            resolve({ output: {}, bytes: 2 });
          });
        }),
    });
    const { pool } = aPool(client);
    const call = (signal = live()) =>
      pool.request(entry(), signal, (c, o) => c.callTool('t', {}, o));
    const a = call();
    const b = call();
    const ac = new AbortController();
    const waiting = failure(call(ac.signal));
    const c = call();
    await new Promise((r) => setImmediate(r));
    expect(inFlight).toBe(2);
    ac.abort();
    expect((await waiting)?.code).toBe('cancelled');
    gates.shift()!();
    await a;
    await new Promise((r) => setImmediate(r));
    gates.shift()!();
    gates.shift()!();
    await Promise.all([b, c]);
    expect(most).toBe(2);
  });

  it('polls health once when asked before any poll, and reports a bad status', async () => {
    const health = jest.fn(async () => 'degraded');
    const { client } = fakeClient({ health });
    const { pool, events } = aPool(client);
    const first = await pool.health(entry(), 4);
    expect(first).toMatchObject({
      healthy: false,
      last_error: 'health status "degraded"',
      tool_count: 4,
    });
    expect(first.checked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    await pool.health(entry(), 4);
    expect(health).toHaveBeenCalledTimes(1);
    expect(events).toContain('health k8s false');
  });

  it('polls recently used servers on a timer and closes their clients', async () => {
    jest.useFakeTimers();
    try {
      const health = jest.fn(async () => 'OK');
      const { client } = fakeClient({ health });
      const { pool, events } = aPool(client);
      await pool.request(entry(), live(), (c, o) => c.listTools(o));
      pool.startHealthPolling(1000);
      await jest.advanceTimersByTimeAsync(2500);
      expect(health).toHaveBeenCalledTimes(2);
      expect(events).toContain('health k8s true');
      await pool.close();
      expect(client.close).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(5000);
      expect(health).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
