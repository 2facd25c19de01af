import { InProcessEventBus, Subjects, eventEnvelope } from '@inquest/events';
import { freePort } from '@inquest/testing';
import { createTestGateway, type TestGateway } from './support/test-gateway';
import { testRoutes } from './support/test-routes';

const MESSAGE = 'missing, invalid or expired credentials';

describe('gateway authentication', () => {
  let gw: TestGateway;
  let bus: InProcessEventBus;

  beforeAll(async () => {
    bus = new InProcessEventBus();
    gw = await createTestGateway({ routes: testRoutes, bus, rateLimits: { auth_fail: 1000 } });
  });
  afterAll(async () => {
    await gw.stop();
    await bus.close();
  });

  it('accepts a team token and exposes its identity and team', async () => {
    const t = gw.config!.issue('team-a', ['read']);
    const res = await gw.request('GET', '/api/v1/test/items', { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body.who).toBe('owner@team-a.example@team-a');
  });

  it('answers every kind of bad credential with the same 401 body', async () => {
    const t = gw.config!.issue('team-a', ['read']);
    const revoked = gw.config!.issue('team-a', ['read']);
    gw.config!.revoke(revoked.token_id);
    const cases: Record<string, string> = {};
    const headers: (string | undefined)[] = [
      undefined,
      '',
      'Bearer',
      'Basic dXNlcjpwYXNz',
      `Bearer ${t.token}x`,
      `Bearer ${t.token_id}.wrongsecretwrongsecretwrongsecret`,
      `Bearer ${revoked.token}`,
      'Bearer tok_unknownunknownunkn.c2VjcmV0c2VjcmV0c2VjcmV0',
      'Bearer admin.notthetokennotthetoken',
      `Bearer ${gw.adminToken}x`,
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
      'Bearer garbage',
      `Bearer ${'a'.repeat(10_000)}`,
    ];
    for (const h of headers) {
      const res = await gw.request('GET', '/api/v1/test/items', {
        headers: h === undefined ? {} : { authorization: h },
      });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
      cases[String(h).slice(0, 40)] = res.body.error.message;
      expect(typeof res.body.error.request_id).toBe('string');
    }
    expect(new Set(Object.values(cases))).toEqual(new Set([MESSAGE]));
  });

  it('gives 403 to a valid read-only token on a write route', async () => {
    const t = gw.config!.issue('team-a', ['read']);
    const res = await gw.request('PUT', '/api/v1/test/items/x1', {
      token: t.token,
      body: { name: 'x' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    const w = gw.config!.issue('team-a', ['read', 'write']);
    expect(
      (await gw.request('PUT', '/api/v1/test/items/x1', { token: w.token, body: { name: 'x' } }))
        .status,
    ).toBe(200);
  });

  it('gives 403 to a team token on an admin route', async () => {
    const t = gw.config!.issue('team-a', ['read', 'write']);
    const res = await gw.request('GET', '/api/v1/test/admin-only', { token: t.token });
    expect(res.status).toBe(403);
    expect(
      (await gw.request('GET', '/api/v1/test/admin-only', { token: gw.adminToken })).status,
    ).toBe(200);
  });

  it('lets the admin token act on a team named in X-Inquest-Team, 400 without it', async () => {
    gw.config!.effective.set('team-b', {});
    const ok = await gw.request('GET', '/api/v1/test/items', {
      token: gw.adminToken,
      team: 'team-b',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.who).toBe('admin@team-b');
    const missing = await gw.request('GET', '/api/v1/test/items', { token: gw.adminToken });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('invalid_request');
    const bad = await gw.request('GET', '/api/v1/test/items', {
      token: gw.adminToken,
      team: 'Not_A_Node',
    });
    expect(bad.status).toBe(400);
  });

  it('caches verifications: config-hierarchy is not called on every request', async () => {
    const t = gw.config!.issue('team-c', ['read']);
    const before = gw.config!.count('verifyToken');
    for (let i = 0; i < 20; i++) {
      expect((await gw.request('GET', '/api/v1/test/items', { token: t.token })).status).toBe(200);
    }
    expect(gw.config!.count('verifyToken') - before).toBe(1);
    // concurrent first use of a new token is one call too
    const u = gw.config!.issue('team-c', ['read']);
    const before2 = gw.config!.count('verifyToken');
    await Promise.all(
      Array.from({ length: 10 }, () => gw.request('GET', '/api/v1/test/items', { token: u.token })),
    );
    expect(gw.config!.count('verifyToken') - before2).toBe(1);
    // refusals are cached too
    const before3 = gw.config!.count('verifyToken');
    for (let i = 0; i < 5; i++)
      await gw.request('GET', '/api/v1/test/items', {
        token: `${t.token_id}.wrongwrongwrongwrong`,
      });
    expect(gw.config!.count('verifyToken') - before3).toBe(1);
  });

  it('refuses a revoked token within 1 s of the token_revoked event', async () => {
    const t = gw.config!.issue('team-d', ['read']);
    expect((await gw.request('GET', '/api/v1/test/items', { token: t.token })).status).toBe(200);
    gw.config!.revoke(t.token_id);
    // still cached: the gateway has not heard of the revocation
    expect((await gw.request('GET', '/api/v1/test/items', { token: t.token })).status).toBe(200);
    const revokedAt = Date.now();
    await bus.publish(Subjects.tokenRevoked, { ...eventEnvelope('team-d'), token_id: t.token_id });
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 1000) {
      status = (await gw.request('GET', '/api/v1/test/items', { token: t.token })).status;
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });

  it('stops a cached token at its expires_at, not at the end of the cache TTL (30 s)', async () => {
    const expiresAt = Date.now() + 1500;
    const t = gw.config!.issue('team-g', ['read'], undefined, {
      expiresAt: new Date(expiresAt).toISOString(),
    });
    expect((await gw.request('GET', '/api/v1/test/items', { token: t.token })).status).toBe(200);
    const verifications = gw.config!.count('verifyToken');
    expect((await gw.request('GET', '/api/v1/test/items', { token: t.token })).status).toBe(200);
    expect(gw.config!.count('verifyToken')).toBe(verifications); // served from the cache
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now() + 10)));
    const res = await gw.request('GET', '/api/v1/test/items', { token: t.token });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(MESSAGE);
  });

  it('drops cached verifications on config.changed', async () => {
    const t = gw.config!.issue('team-e', ['read']);
    expect((await gw.request('GET', '/api/v1/test/items', { token: t.token })).status).toBe(200);
    gw.config!.revoke(t.token_id);
    await bus.publish(Subjects.configChanged, {
      ...eventEnvelope('team-e'),
      node_id: 'team-e',
      version: 2,
      changed_fields: ['x'],
      changed_by: 'test',
    });
    await new Promise((r) => setTimeout(r, 20));
    expect((await gw.request('GET', '/api/v1/test/items', { token: t.token })).status).toBe(401);
  });

  it('does not store a verification that was in flight when the token was revoked', async () => {
    const t = gw.config!.issue('team-f', ['read']);
    gw.config!.delayMs = 150;
    const pending = gw.request('GET', '/api/v1/test/items', { token: t.token });
    await new Promise((r) => setTimeout(r, 50));
    gw.config!.revoke(t.token_id);
    await bus.publish(Subjects.tokenRevoked, { ...eventEnvelope('team-f'), token_id: t.token_id });
    await pending; // may answer either way: it started before the revocation
    gw.config!.delayMs = 0;
    expect((await gw.request('GET', '/api/v1/test/items', { token: t.token })).status).toBe(401);
  });

  it('answers 503 unavailable quickly when config-hierarchy is down (and caches nothing)', async () => {
    const down = await createTestGateway({
      routes: testRoutes,
      addresses: { config: `127.0.0.1:${await freePort()}` },
    });
    try {
      const started = Date.now();
      const res = await down.request('GET', '/api/v1/test/items', {
        token: 'tok_abcdefghijklmnopqrst.c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
      });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('unavailable');
      expect(Date.now() - started).toBeLessThan(2000);
      // the admin token does not depend on config-hierarchy
      expect(
        (await down.request('GET', '/api/v1/test/admin-only', { token: down.adminToken })).status,
      ).toBe(200);
    } finally {
      await down.stop();
    }
  });
});

describe('failed authentications per client address', () => {
  it('turns into 429 for that address after auth_fail failures, for every request', async () => {
    const gw = await createTestGateway({ routes: testRoutes, rateLimits: { auth_fail: 5 } });
    try {
      const good = gw.config!.issue('team-a', ['read']);
      for (let i = 0; i < 5; i++) {
        expect(
          (
            await gw.request('GET', '/api/v1/test/items', {
              token: `admin.guess${i}guess${i}guess`,
            })
          ).status,
        ).toBe(401);
      }
      const blocked = await gw.request('GET', '/api/v1/test/items', {
        token: 'admin.guessguessguessguess',
      });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error.code).toBe('rate_limited');
      expect(blocked.body.error.retry_after).toBeGreaterThanOrEqual(1);
      expect(blocked.headers.get('retry-after')).toBe(String(blocked.body.error.retry_after));
      // a valid token from the same address learns nothing either
      expect((await gw.request('GET', '/api/v1/test/items', { token: good.token })).status).toBe(
        429,
      );
    } finally {
      await gw.stop();
    }
  });

  it('behind a trusted proxy counts per client of X-Forwarded-For: one client guessing does not lock out the others', async () => {
    const gw = await createTestGateway({
      routes: testRoutes,
      rateLimits: { auth_fail: 3 },
      trustProxy: ['loopback'],
    });
    try {
      const good = gw.config!.issue('team-a', ['read']);
      const from = (client: string, token: string) =>
        gw.request('GET', '/api/v1/test/items', {
          token,
          headers: { 'x-forwarded-for': client },
        });
      for (let i = 0; i < 3; i++)
        expect((await from('203.0.113.7', `admin.guess${i}guess${i}guess`)).status).toBe(401);
      expect((await from('203.0.113.7', 'admin.guessguessguessguess')).status).toBe(429);
      expect((await from('203.0.113.7', good.token)).status).toBe(429);
      // another client behind the same ingress is not blocked
      expect((await from('198.51.100.9', good.token)).status).toBe(200);
    } finally {
      await gw.stop();
    }
  });

  it('believes no X-Forwarded-For without a trusted proxy: a client cannot choose its address', async () => {
    const gw = await createTestGateway({ routes: testRoutes, rateLimits: { auth_fail: 3 } });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await gw.request('GET', '/api/v1/test/items', {
          token: `admin.guess${i}guess${i}guess`,
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
        });
        expect(res.status).toBe(401);
      }
      const res = await gw.request('GET', '/api/v1/test/items', {
        token: 'admin.guessguessguessguess',
        headers: { 'x-forwarded-for': '198.51.100.200' },
      });
      expect(res.status).toBe(429);
    } finally {
      await gw.stop();
    }
  });

  it('counts only refused credentials: no token, another scheme or a malformed token guessed nothing', async () => {
    const gw = await createTestGateway({ routes: testRoutes, rateLimits: { auth_fail: 3 } });
    try {
      const good = gw.config!.issue('team-a', ['read']);
      const nothingGuessed: Record<string, string>[] = [
        {},
        { authorization: '' },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { authorization: 'Bearer' },
        { authorization: 'Bearer not-a-token' },
        { authorization: 'Bearer invalid_token' },
        { authorization: 'Token abc.def' },
      ];
      for (let round = 0; round < 2; round++)
        for (const headers of nothingGuessed) {
          const res = await gw.request('GET', '/api/v1/test/items', { headers });
          expect(res.status).toBe(401);
          expect(res.body.error.code).toBe('unauthorized');
        }
      expect((await gw.request('GET', '/api/v1/test/items', { token: good.token })).status).toBe(
        200,
      );
      // refused credentials of each verified form count: an admin guess, team tokens
      const guesses = [
        'admin.guessguessguessguess',
        `${good.token.split('.')[0]}.wrongsecret`,
        'tok_aaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbb',
      ];
      for (const token of guesses)
        expect((await gw.request('GET', '/api/v1/test/items', { token })).status).toBe(401);
      const over = await gw.request('GET', '/api/v1/test/items', { token: guesses[0] });
      expect(over.status).toBe(429);
      expect((await gw.request('GET', '/api/v1/test/items', { token: good.token })).status).toBe(
        429,
      );
    } finally {
      await gw.stop();
    }
  });
});
