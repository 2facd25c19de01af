import { FlexibleRateLimiter } from '../src/http/flexible-rate-limiter';
import { createTestGateway, type TestGateway } from './support/test-gateway';
import { testRoutes } from './support/test-routes';

describe('rate limits', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({
      routes: testRoutes,
      rateLimits: { read: 5, write: 3, trigger: 2 },
    });
  });
  afterAll(() => gw.stop());

  it('sends every rate-limit header with the remaining count going down', async () => {
    const t = gw.config!.issue('team-a', ['read']);
    const res = await gw.request('GET', '/api/v1/test/items', { token: t.token });
    expect(res.status).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    expect(res.headers.get('x-ratelimit-limit')).toBe('5');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(now);
    expect(reset).toBeLessThanOrEqual(now + 61);
    expect(res.headers.get('ratelimit-policy')).toBe('"read";q=5;w=60');
    expect(res.headers.get('ratelimit')).toMatch(/^"read";r=4;t=(60|59|58)$/);
    const again = await gw.request('GET', '/api/v1/test/items', { token: t.token });
    expect(again.headers.get('x-ratelimit-remaining')).toBe('3');
  });

  it('answers 429 rate_limited with retry_after and Retry-After past the limit, per credential', async () => {
    const t = gw.config!.issue('team-a', ['read']);
    for (let i = 0; i < 5; i++)
      expect((await gw.request('GET', '/api/v1/test/items', { token: t.token })).status).toBe(200);
    const res = await gw.request('GET', '/api/v1/test/items', { token: t.token });
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    expect(Number.isInteger(res.body.error.retry_after)).toBe(true);
    expect(res.body.error.retry_after).toBeGreaterThanOrEqual(1);
    expect(res.body.error.retry_after).toBeLessThanOrEqual(60);
    expect(res.headers.get('retry-after')).toBe(String(res.body.error.retry_after));
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    // another credential of the same team has its own counter
    const other = gw.config!.issue('team-a', ['read']);
    expect((await gw.request('GET', '/api/v1/test/items', { token: other.token })).status).toBe(
      200,
    );
  });

  it('counts reads, writes and triggers separately; a trigger is not also a write', async () => {
    const t = gw.config!.issue('team-b', ['read', 'write']);
    for (let i = 0; i < 2; i++) {
      const r = await gw.request('POST', '/api/v1/test/trigger', {
        token: t.token,
        body: { what: 'x' },
      });
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-policy')).toBe('"trigger";q=2;w=60');
    }
    expect(
      (await gw.request('POST', '/api/v1/test/trigger', { token: t.token, body: { what: 'x' } }))
        .status,
    ).toBe(429);
    for (let i = 0; i < 3; i++) {
      const w = await gw.request('PUT', `/api/v1/test/items/i${i}`, {
        token: t.token,
        body: { name: 'n' },
      });
      expect(w.status).toBe(200);
      expect(w.headers.get('x-ratelimit-limit')).toBe('3');
    }
    expect(
      (await gw.request('PUT', '/api/v1/test/items/i9', { token: t.token, body: { name: 'n' } }))
        .status,
    ).toBe(429);
    expect((await gw.request('GET', '/api/v1/test/items', { token: t.token })).status).toBe(200);
  });

  it('counts a trigger only once its request is valid: a refused one starts nothing', async () => {
    const t = gw.config!.issue('team-b', ['read', 'write']);
    const trigger = (body: unknown, headers?: Record<string, string>) =>
      gw.request('POST', '/api/v1/test/trigger', {
        token: t.token,
        body,
        ...(headers ? { headers } : {}),
      });
    const refused = [
      await trigger({}),
      await trigger({ what: 5 }),
      await trigger([]),
      await gw.request('POST', '/api/v1/test/trigger', {
        token: t.token,
        rawBody: '{"what":',
        headers: { 'content-type': 'application/json' },
      }),
      await trigger({ what: 'x' }, { 'content-type': 'text/plain' }),
    ];
    for (const r of refused) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(429);
      // the headers still say where the credential stands, unchanged
      expect(r.headers.get('x-ratelimit-limit')).toBe('2');
      expect(r.headers.get('x-ratelimit-remaining')).toBe('2');
      expect(r.headers.get('ratelimit-policy')).toBe('"trigger";q=2;w=60');
    }
    const first = await trigger({ what: 'x' });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await trigger({ what: 'x' })).status).toBe(200);
    const over = await trigger({ what: 'x' });
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    // past the limit a refused request is still told what is wrong with it
    const bad = await trigger({});
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('counts the admin token as one credential whatever team it names', async () => {
    for (const t of ['team-0x', 'team-1x', 'team-2x', 'team-3x', 'team-4x', 'team-zz'])
      gw.config!.effective.set(t, {}); // existing teams (X-Inquest-Team must name one)
    for (let i = 0; i < 5; i++) {
      expect(
        (
          await gw.request('GET', '/api/v1/test/items', {
            token: gw.adminToken,
            team: `team-${i}x`,
          })
        ).status,
      ).toBe(200);
    }
    expect(
      (await gw.request('GET', '/api/v1/test/items', { token: gw.adminToken, team: 'team-zz' }))
        .status,
    ).toBe(429);
  });

  it('does not limit or count public endpoints', async () => {
    const res = await gw.request('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

const mongoUrl = process.env['INQUEST_TEST_MONGODB_URL'];
(mongoUrl ? describe : describe.skip)('rate limits in MongoDB (INQUEST_TEST_MONGODB_URL)', () => {
  it('holds a credential to one limit across two gateway replicas', async () => {
    const { MongoClient } = await import('mongodb');
    const client = await new MongoClient(mongoUrl!).connect();
    try {
      const db = client.db(`inquest_rl_${Date.now()}`);
      const limits = { read: 4, write: 1, trigger: 1, alert: 1, auth_fail: 1 };
      const a = await FlexibleRateLimiter.create({ limits, mongo: db });
      const b = await FlexibleRateLimiter.create({ limits, mongo: db });
      await a.consume('team:tok_x', 'read');
      await b.consume('team:tok_x', 'read');
      await a.consume('team:tok_x', 'read');
      expect((await b.consume('team:tok_x', 'read')).remaining).toBe(0);
      await expect(a.consume('team:tok_x', 'read')).rejects.toMatchObject({ code: 'rate_limited' });
      await db.dropDatabase();
    } finally {
      await client.close();
    }
  });
});
