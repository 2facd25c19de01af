import { allRoutes } from '../src/routes/index';
import { createTestGateway, type TestGateway } from './support/test-gateway';

// GET /whoami: the web console offers approve/reject only to a caller who may decide a change
// request (a listed approver with write permission who did not request it, or the admin token);
// a team token's owner is known only to the gateway.

describe('GET /whoami', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    const big = 1_000_000;
    gw = await createTestGateway({
      routes: (deps) => allRoutes(deps),
      rateLimits: { read: big, write: big, trigger: big, auth_fail: big, alert: big },
    });
    gw.config!.effective.set('payments', {});
  });
  afterAll(() => gw.stop());

  it('a team token: its owner, team and permissions', async () => {
    const t = gw.config!.issue('payments', ['read', 'write'], 'Lead@Payments.example');
    const res = await gw.request('GET', '/api/v1/whoami', { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'team',
      identity: 'Lead@Payments.example',
      team_id: 'payments',
      permissions: ['read', 'write'],
    });
  });

  it('a read-only token that expires says so', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const t = gw.config!.issue('payments', ['read'], 'viewer@payments.example', { expiresAt });
    const res = await gw.request('GET', '/api/v1/whoami', { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'team', permissions: ['read'] });
    expect(new Date(res.body.expires_at).getTime()).toBe(new Date(expiresAt).getTime());
  });

  it('the admin token acting for a team: identity admin, read and write', async () => {
    const res = await gw.request('GET', '/api/v1/whoami', {
      token: gw.adminToken,
      team: 'payments',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'admin',
      identity: 'admin',
      team_id: 'payments',
      permissions: ['read', 'write'],
    });
  });

  it('the admin token without X-Inquest-Team: 400 as on every team endpoint', async () => {
    const res = await gw.request('GET', '/api/v1/whoami', { token: gw.adminToken });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });

  it('no token, a revoked token: 401', async () => {
    expect((await gw.request('GET', '/api/v1/whoami')).status).toBe(401);
    const t = gw.config!.issue('payments', ['read']);
    gw.config!.revoke(t.token_id);
    const res = await gw.request('GET', '/api/v1/whoami', { token: t.token });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });
});
