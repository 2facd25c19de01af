import { nodeLevelEnum } from '@inquest/proto';
import { allRoutes } from '../src/routes/index';
import { createTestGateway, type TestGateway } from './support/test-gateway';

// Issue 16 item 4: with the admin token, X-Inquest-Team must name an existing team on every
// team-scoped route. `ghost-team` let /kb/teach store an orphan document (a team created later
// with that id would inherit it); a group id was accepted by /kb/teach, /agents/run and
// GET /config/me/effective.

describe('X-Inquest-Team names an existing team', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    const big = 1_000_000;
    gw = await createTestGateway({
      routes: (deps) => allRoutes(deps),
      rateLimits: { read: big, write: big, trigger: big, auth_fail: big, alert: big },
    });
    gw.config!.effective.set('payments', {});
    gw.config!.nodes.set('platform', {
      node_id: 'platform',
      parent_id: 'acme',
      kind: 'group',
      kind_enum: nodeLevelEnum.toProto('group'),
      name: 'Platform',
      org_id: 'acme',
      created_at: new Date().toISOString(),
    });
  });
  afterAll(() => gw.stop());

  // every row has a body column: jest would pass `done` to a missing one
  const teamRoutes: Array<[string, string, unknown]> = [
    ['POST', '/api/v1/kb/teach', { content: 'runbook: restart the pool', title: 't' }],
    ['POST', '/api/v1/agents/run', { agent_name: 'investigation_agent', message: 'x' }],
    ['GET', '/api/v1/config/me/effective', undefined],
    ['GET', '/api/v1/config/me/raw', undefined],
    ['PUT', '/api/v1/config/me', { chat_channel: '#x' }],
    ['GET', '/api/v1/agents/investigations', undefined],
    ['GET', '/api/v1/kb/patterns', undefined],
  ];

  it.each(teamRoutes)(
    '%s %s: 404 for an unknown team, nothing reaches the service',
    async (method, path, body) => {
      const before = gw.config!.calls.length;
      const res = await gw.request(method, path, {
        token: gw.adminToken,
        team: 'ghost-team',
        ...(body === undefined ? {} : { body }),
      });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', request_id: expect.any(String) });
      expect(res.body.error.message).toContain('ghost-team');
      // only the team look-up reached config-hierarchy
      expect(gw.config!.calls.slice(before).map((c) => c.method)).toEqual(['getNode']);
    },
  );

  it.each(teamRoutes)('%s %s: 400 for a group', async (method, path, body) => {
    const res = await gw.request(method, path, {
      token: gw.adminToken,
      team: 'platform',
      ...(body === undefined ? {} : { body }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain('not a team');
  });

  it('passes an existing team through (looked up once)', async () => {
    const res = await gw.request('GET', '/api/v1/config/me/effective', {
      token: gw.adminToken,
      team: 'payments',
    });
    expect(res.status).toBe(200);
    const lookups = gw.config!.count('getNode');
    await gw.request('GET', '/api/v1/config/me/effective', {
      token: gw.adminToken,
      team: 'payments',
    });
    expect(gw.config!.count('getNode')).toBe(lookups);
  });
});
