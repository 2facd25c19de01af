import { InquestClient } from './inquest-client';
import { scriptRoutes, startScriptedServer } from './testing';
import type { ScriptedReply, ScriptedServer } from './testing';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const running = (step: string, done: number): ScriptedReply => ({
  status: 200,
  body: {
    investigation_id: 'inv_1',
    status: 'running',
    agent: 'planner',
    message: 'm',
    progress: { current_step: step, steps_completed: done, steps_total: 4 },
  },
});
const terminal = (status: string, extra: Record<string, unknown> = {}): ScriptedReply => ({
  status: 200,
  body: { investigation_id: 'inv_1', status, agent: 'planner', message: 'm', ...extra },
});

/** Fake clock: sleeping advances `now`, so the overall cap is tested without waiting. */
function clock() {
  let t = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}

describe('waitForInvestigation', () => {
  it('polls at 1 s doubling to a 10 s cap and returns the completed investigation', async () => {
    const replies = [
      running('plan', 0),
      running('logs', 1),
      running('logs', 1),
      running('metrics', 2),
      running('kb', 3),
      running('kb', 3),
      terminal('completed', { result: { summary: 's' } }),
    ];
    server = await startScriptedServer(
      scriptRoutes({ 'GET /api/v1/agents/status/inv_1': replies }),
    );
    const c = new InquestClient({ baseUrl: server.url, token: 't.s' });
    const ck = clock();
    const seen: string[] = [];
    const inv = await c.waitForInvestigation('inv_1', {
      ...ck,
      onPoll: (i) => seen.push(`${i.status}:${i.progress?.current_step ?? ''}`),
    });
    expect(inv.status).toBe('completed');
    expect(inv.result?.summary).toBe('s');
    expect(ck.sleeps).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
    expect(seen).toEqual([
      'running:plan',
      'running:logs',
      'running:logs',
      'running:metrics',
      'running:kb',
      'running:kb',
      'completed:',
    ]);
  });

  it.each(['failed', 'cancelled'])('stops on %s and returns it', async (status) => {
    server = await startScriptedServer(
      scriptRoutes({
        'GET /api/v1/agents/status/inv_1': [
          running('a', 0),
          terminal(status, { error: { code: 'timeout', message: 'x' } }),
        ],
      }),
    );
    const c = new InquestClient({ baseUrl: server.url, token: 't.s' });
    const ck = clock();
    const inv = await c.agents.waitForInvestigation('inv_1', ck);
    expect(inv.status).toBe(status);
    expect(ck.sleeps).toEqual([1000]);
  });

  it('gives up at the overall cap with wait_timeout and the last status', async () => {
    server = await startScriptedServer(
      scriptRoutes({ 'GET /api/v1/agents/status/inv_1': running('a', 0) }),
    );
    const c = new InquestClient({ baseUrl: server.url, token: 't.s' });
    const ck = clock();
    await expect(
      c.waitForInvestigation('inv_1', { ...ck, timeoutMs: 30_000 }),
    ).rejects.toMatchObject({
      code: 'wait_timeout',
      body: { status: 'running' },
    });
    // 1+2+4+8 = 15 s, then 10 s, then the last 5 s to land on the deadline.
    expect(ck.sleeps).toEqual([1000, 2000, 4000, 8000, 10000, 5000]);
    expect(server.requests).toHaveLength(7);
  });

  it('is abortable while sleeping between polls, with real timers', async () => {
    server = await startScriptedServer(
      scriptRoutes({ 'GET /api/v1/agents/status/inv_1': running('a', 0) }),
    );
    const c = new InquestClient({ baseUrl: server.url, token: 't.s' });
    const ac = new AbortController();
    const t0 = Date.now();
    const p = c.waitForInvestigation('inv_1', { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stop waiting')), 200);
    await expect(p).rejects.toThrow('stop waiting');
    expect(Date.now() - t0).toBeLessThan(900);
    expect(server.requests).toHaveLength(1);
  });

  it('propagates API errors (an unknown id is not waited on)', async () => {
    server = await startScriptedServer(scriptRoutes({}));
    const c = new InquestClient({ baseUrl: server.url, token: 't.s' });
    await expect(c.waitForInvestigation('nope', clock())).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    });
  });
});
