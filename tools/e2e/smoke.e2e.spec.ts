import { startInquest, type RunningInquest } from './support/start-inquest';

/** The first minutes of a new user: start, health, a first investigation on the demo team. */
describe('all-in-one smoke test', () => {
  let inquest: RunningInquest;

  beforeAll(async () => {
    inquest = await startInquest();
  }, 90_000);

  afterAll(async () => {
    await inquest?.stop();
  });

  it('answers /healthz and /readyz with every service up', async () => {
    expect((await fetch(`${inquest.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${inquest.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { services: Record<string, string> };
    expect(Object.values(body.services).every((s) => s === 'up')).toBe(true);
    expect(Object.keys(body.services).sort()).toEqual([
      'config',
      'investigation',
      'knowledge',
      'notifier',
      'tools',
    ]);
  });

  it('prints a demo team token and answers 401 without a token', async () => {
    expect(inquest.demoTeamToken).toMatch(/^tok_[a-z2-7]{20}\./);
    const r = await fetch(`${inquest.apiUrl}/config/me/effective`);
    expect(r.status).toBe(401);
    expect(r.headers.get('x-request-id')).toBeTruthy();
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  it('runs a first investigation against the demo tool server', async () => {
    const r = await fetch(`${inquest.apiUrl}/agents/run`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${inquest.demoTeamToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        agent_name: 'planner',
        message: 'checkout is returning 500s',
        context: { service: 'checkout', namespace: 'shop' },
      }),
    });
    const body = (await r.json()) as {
      status: string;
      result: { root_cause: { description: string; confidence: number } };
      tools_used: string[];
    };
    expect(r.status).toBe(200);
    expect(body.status).toBe('completed');
    expect(body.tools_used.length).toBeGreaterThan(0);
    expect(body.result.root_cause.description.length).toBeGreaterThan(0);
  }, 60_000);

  it('stops cleanly on SIGTERM', async () => {
    const exit = new Promise<number | null>((r) => inquest.process.once('exit', (code) => r(code)));
    inquest.process.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 30_000);
});
