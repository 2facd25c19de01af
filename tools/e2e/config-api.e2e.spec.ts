/**
 * REST tests of /config/me/* and the admin API, through the real gateway (start()) in front of
 * the real config-hierarchy service (start(): real gRPC, real SQLite), sharing one in-process
 * event bus as in all-in-one mode.
 */
import { randomBytes } from 'node:crypto';
import { InProcessEventBus } from '@inquest/events';
import { createClient } from '@inquest/grpc-kit';
import { silentLogger } from '@inquest/observability';
import { configV1 } from '@inquest/proto';
import { tempDir, waitFor, gatewayRequest, type GatewayRequestOptions } from '@inquest/testing';
import { start as startConfigService } from '@inquest/config-hierarchy-service';
import { start as startGateway } from '@inquest/gateway-service';

let gw: Awaited<ReturnType<typeof startGateway>>;
const adminToken = `admin.${randomBytes(24).toString('base64url')}`;
const request = (method: string, path: string, o?: GatewayRequestOptions) =>
  gatewayRequest(gw.url, method, path, o);

let svc: Awaited<ReturnType<typeof startConfigService>>;
let bus: InProcessEventBus;
const dataDir = tempDir();
let rw: string;
let ro: string;

const admin = (method: string, path: string, body?: unknown) =>
  request(method, `/api/v1${path}`, { token: adminToken, ...(body === undefined ? {} : { body }) });
const team = (token: string, method: string, path: string, body?: unknown) =>
  request(method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });

async function issue(
  teamId: string,
  permissions: string[],
  owner = 'dev@example.com',
): Promise<string> {
  const res = await admin('POST', `/admin/nodes/${teamId}/tokens`, { permissions, owner });
  expect(res.status).toBe(201);
  return res.body.token as string;
}

/** Version and audit length of a team: what must not move when an update is refused. */
async function stored(
  token: string,
): Promise<{ version: number; audit: number; effective: unknown }> {
  const audit = await team(token, 'GET', '/config/me/audit?limit=500&include_full=false');
  const eff = await team(token, 'GET', '/config/me/effective');
  return {
    version: audit.body.history[0]?.version ?? 0,
    audit: audit.body.history.length,
    effective: eff.body,
  };
}

beforeAll(async () => {
  bus = new InProcessEventBus();
  svc = await startConfigService(
    { INQUEST_GRPC_PORT: '0', INQUEST_DATA_DIR: dataDir, INQUEST_LOG_LEVEL: 'silent' },
    { bus, logger: silentLogger() },
  );
  gw = await startGateway(
    {
      PORT: '0',
      INQUEST_HTTP_HOST: '127.0.0.1',
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_ADMIN_TOKEN: adminToken,
      INQUEST_CONFIG_ADDR: svc.address,
      // every test here sends many writes with the same token
      INQUEST_RATE_LIMITS: 'read=100000,write=100000,trigger=100000',
    },
    { bus, logger: silentLogger() },
  );
  expect(
    (
      await admin('POST', '/admin/nodes', {
        node_id: 'acme',
        parent_id: null,
        kind: 'org',
        name: 'Acme',
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await admin('POST', '/admin/nodes', {
        node_id: 'platform',
        parent_id: 'acme',
        kind: 'group',
        name: 'Platform',
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await admin('POST', '/admin/nodes', {
        node_id: 'payments',
        parent_id: 'platform',
        kind: 'team',
        name: 'Payments',
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await admin('PUT', '/admin/nodes/acme/config', {
        chat_channel: '#acme',
        mcp_servers: [
          {
            name: 'grafana',
            url: 'https://grafana.example.com/mcp',
            auth: { type: 'bearer', token: 'vault://inquest/acme/grafana' },
          },
        ],
        knowledge_base: { retrieval: { strategy: 'hybrid', top_k: 5 } },
      })
    ).status,
  ).toBe(200);
  rw = await issue('payments', ['read', 'write']);
  ro = await issue('payments', ['read'], 'reader@example.com');
});

afterAll(async () => {
  await gw?.stop();
  await svc?.stop();
  await bus?.close();
});

describe('admin API', () => {
  it('creates nodes with the documented body', async () => {
    const res = await admin('POST', '/admin/nodes', {
      node_id: 'checkout',
      parent_id: 'platform',
      kind: 'team',
      name: 'Checkout',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      'created_at',
      'kind',
      'name',
      'node_id',
      'org_id',
      'parent_id',
    ]);
    expect(res.body).toMatchObject({
      node_id: 'checkout',
      parent_id: 'platform',
      kind: 'team',
      name: 'Checkout',
      org_id: 'acme',
    });
    const root = await admin('GET', '/admin/nodes/acme');
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({
      node_id: 'acme',
      parent_id: null,
      org_id: 'acme',
      config: { chat_channel: '#acme' },
      version: 1,
    });
  });

  it('lists nodes by parent', async () => {
    const res = await admin('GET', '/admin/nodes?parent_id=platform');
    expect(res.status).toBe(200);
    expect(res.body.nodes.map((n: { node_id: string }) => n.node_id)).toEqual([
      'checkout',
      'payments',
    ]);
    expect(
      (await admin('GET', '/admin/nodes?parent_id=')).body.nodes.map(
        (n: { node_id: string }) => n.node_id,
      ),
    ).toEqual(['acme']);
  });

  it.each([
    ['duplicate id', { node_id: 'acme', parent_id: null, kind: 'org', name: 'x' }, 409, 'conflict'],
    [
      'unknown parent',
      { node_id: 'lost', parent_id: 'nowhere', kind: 'team', name: 'x' },
      404,
      'not_found',
    ],
    [
      'malformed id',
      { node_id: 'Bad Id!', parent_id: null, kind: 'org', name: 'x' },
      400,
      'validation_error',
    ],
    [
      'one-character id',
      { node_id: 'a', parent_id: null, kind: 'org', name: 'x' },
      400,
      'validation_error',
    ],
    [
      'unknown kind',
      { node_id: 'zzz', parent_id: null, kind: 'tribe', name: 'x' },
      400,
      'validation_error',
    ],
    [
      'team without parent',
      { node_id: 'zzz', parent_id: null, kind: 'team', name: 'x' },
      400,
      'validation_error',
    ],
  ])('refuses a node with %s', async (_name, body, status, code) => {
    const before = (await admin('GET', '/admin/nodes')).body.nodes.length;
    const res = await admin('POST', '/admin/nodes', body);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    if (code === 'validation_error')
      expect(res.body.error.details.field).toEqual(expect.any(String));
    expect((await admin('GET', '/admin/nodes')).body.nodes.length).toBe(before);
  });

  it('answers 404 for unknown nodes and 400 for malformed node ids', async () => {
    expect((await admin('GET', '/admin/nodes/no-such-node')).status).toBe(404);
    expect((await admin('GET', '/admin/nodes/no-such-node')).body.error.code).toBe('not_found');
    expect(
      (await admin('PUT', '/admin/nodes/no-such-node/config', { chat_channel: '#x' })).status,
    ).toBe(404);
    expect((await admin('GET', '/admin/nodes/no-such-node/tokens')).status).toBe(404);
    // tokens belong to teams: listing those of an org or a group is refused as issuing one is
    for (const node of ['acme', 'platform']) {
      for (const method of ['GET', 'POST']) {
        const body = { permissions: ['read'], owner: 'a@example.com' };
        const res = await admin(
          method,
          `/admin/nodes/${node}/tokens`,
          method === 'POST' ? body : undefined,
        );
        expect([node, method, res.status, res.body.error?.code]).toEqual([
          node,
          method,
          400,
          'invalid_request',
        ]);
      }
    }
    const bad = await admin('GET', '/admin/nodes/NOT_VALID');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    const viaHeader = await request('GET', '/api/v1/config/me/effective', {
      token: adminToken,
      team: 'no-such-team',
    });
    expect(viaHeader.status).toBe(404);
  });

  it('refuses team tokens on admin routes', async () => {
    const res = await team(rw, 'GET', '/admin/nodes');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('issues, lists and revokes team tokens', async () => {
    const res = await admin('POST', '/admin/nodes/payments/tokens', {
      permissions: ['read'],
      owner: 'temp@example.com',
      label: 'temp',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      'created_at',
      'expires_at',
      'label',
      'owner',
      'permissions',
      'token',
      'token_id',
    ]);
    expect(res.body.token).toMatch(/^tok_[a-z2-7]{20}\.[A-Za-z0-9_-]{43}$/);
    expect(res.body.expires_at).toBeNull();
    // the secret is in this answer only: no cache may keep it
    expect(res.headers.get('cache-control')).toBe('no-store');
    const token = res.body.token as string;
    const secret = token.split('.')[1]!;
    const list = await admin('GET', '/admin/nodes/payments/tokens');
    expect(list.status).toBe(200);
    expect(list.body.tokens.map((t: { token_id: string }) => t.token_id)).toContain(
      res.body.token_id,
    );
    expect(list.text).not.toContain(secret);
    expect((await team(token, 'GET', '/config/me/effective')).status).toBe(200);
    const del = await admin('DELETE', `/admin/tokens/${res.body.token_id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const after = await team(token, 'GET', '/config/me/effective');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthorized');
    expect((await admin('DELETE', '/admin/tokens/tok_aaaaaaaaaaaaaaaaaaaa')).status).toBe(404);
  });

  it.each([
    ['unknown permission', { permissions: ['admin'], owner: 'a@example.com' }, 'permissions.0'],
    ['owner not an e-mail', { permissions: ['read'], owner: 'nobody' }, 'owner'],
    ['write without read', { permissions: ['write'], owner: 'a@example.com' }, 'permissions'],
    [
      'expiry in the past',
      { permissions: ['read'], owner: 'a@example.com', expires_at: '2001-01-01T00:00:00Z' },
      'expires_at',
    ],
  ])('refuses a token with %s', async (_n, body, field) => {
    const before = (await admin('GET', '/admin/nodes/payments/tokens')).body.tokens.length;
    const res = await admin('POST', '/admin/nodes/payments/tokens', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.field).toBe(field);
    expect((await admin('GET', '/admin/nodes/payments/tokens')).body.tokens.length).toBe(before);
  });
});

describe('/config/me', () => {
  it('answers the effective config with inherited settings and identity fields', async () => {
    const res = await team(rw, 'GET', '/config/me/effective');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      chat_channel: '#acme',
      team_node_id: 'payments',
      team_name: 'Payments',
      org_id: 'acme',
      knowledge_base: { retrieval: { strategy: 'hybrid', top_k: 5 } },
    });
  });

  it('serves a cached effective config that follows changes made anywhere in the lineage', async () => {
    const first = await team(rw, 'GET', '/config/me/effective');
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.body.chat_group_to_ping).toBeUndefined();
    // changed straight through gRPC, not through this gateway: only the config.changed event tells it
    const direct = createClient(configV1.ConfigServiceClient, svc.address);
    await direct.updateNodeConfig({
      node_id: 'platform',
      changed_by: 'admin',
      patch: { a2a_agents: ['helper'] },
    });
    direct.close();
    await waitFor(
      async () => (await team(rw, 'GET', '/config/me/effective')).body.a2a_agents?.[0] === 'helper',
      5000,
    );
  });

  it('tags the effective config (ETag) and answers 304 to If-None-Match until it changes', async () => {
    const first = await team(rw, 'GET', '/config/me/effective');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const again = await request('GET', '/api/v1/config/me/effective', {
      token: rw,
      headers: { 'If-None-Match': etag! },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    // a tag that no longer holds (or a weak form of another) gets the body
    const other = await request('GET', '/api/v1/config/me/effective', {
      token: rw,
      headers: { 'If-None-Match': 'W/"something-else"' },
    });
    expect(other.status).toBe(200);
    expect(other.body).toEqual(first.body);
    // a group change leaves the team version as it was but changes the body, so the tag moves
    const direct = createClient(configV1.ConfigServiceClient, svc.address);
    await direct.updateNodeConfig({
      node_id: 'platform',
      changed_by: 'admin',
      patch: { 'x-etag-check': 1 },
    });
    direct.close();
    await waitFor(
      async () =>
        (
          await request('GET', '/api/v1/config/me/effective', {
            token: rw,
            headers: { 'If-None-Match': etag! },
          })
        ).status === 200,
      5000,
    );
    const changed = await team(rw, 'GET', '/config/me/effective');
    expect(changed.body['x-etag-check']).toBe(1);
    expect(changed.body.version).toBe(first.body.version);
    expect(changed.headers.get('etag')).not.toBe(etag);
    // the group's own config as the later tests expect it (null removes the key)
    const undo = createClient(configV1.ConfigServiceClient, svc.address);
    await undo.updateNodeConfig({
      node_id: 'platform',
      changed_by: 'admin',
      patch: { 'x-etag-check': null },
    });
    undo.close();
  });

  it('updates the team overrides (deep merge) and reports version and changed fields', async () => {
    const res = await team(rw, 'PUT', '/config/me', {
      chat_channel: '#payments',
      mcp_servers: ['grafana'],
      agents: {
        investigation_agent: {
          timeout: 120,
          enable_extra_tools: ['grafana:query_metrics', 'knowledge_search'],
        },
      },
      knowledge_base: { retrieval: { top_k: 10 } },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'changed_fields',
      'effective_config',
      'message',
      'version',
      'warnings',
    ]);
    expect(res.body.version).toBe(1);
    expect(res.body.changed_fields.sort()).toEqual(
      [
        'agents.investigation_agent.enable_extra_tools',
        'agents.investigation_agent.timeout',
        'chat_channel',
        'knowledge_base.retrieval.top_k',
        'mcp_servers',
      ].sort(),
    );
    expect(res.body.effective_config).toMatchObject({
      chat_channel: '#payments',
      knowledge_base: { retrieval: { strategy: 'hybrid', top_k: 10 } },
    });
    expect(res.body.effective_config.mcp_servers[0]).toMatchObject({
      name: 'grafana',
      url: 'https://grafana.example.com/mcp',
    });

    const raw = await team(rw, 'GET', '/config/me/raw');
    expect(raw.status).toBe(200);
    expect(raw.body.lineage).toEqual(['acme', 'platform', 'payments']);
    expect(raw.body.configs.payments).toMatchObject({
      chat_channel: '#payments',
      knowledge_base: { retrieval: { top_k: 10 } },
    });
    expect(raw.body.configs.platform).toEqual({ a2a_agents: ['helper'] });

    const again = await team(rw, 'PUT', '/config/me', { chat_channel: '#payments' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ version: 1, changed_fields: [] });
  });

  it('keeps the audit trail, newest first, with limit and include_full', async () => {
    await team(rw, 'PUT', '/config/me', { chat_group_to_ping: '@payments' });
    const res = await team(rw, 'GET', '/config/me/audit');
    expect(res.status).toBe(200);
    // the team's own entries (changes made at the org level above it are listed too)
    const h = res.body.history.filter((e: { node_id: string }) => e.node_id === 'payments');
    expect(h.map((e: { version: number }) => e.version)).toEqual([2, 1]);
    expect(h[0]).toMatchObject({
      changed_by: 'dev@example.com',
      diff: { chat_group_to_ping: { old: null, new: '@payments' } },
    });
    expect(h[0].changed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(h[0].full_config).toMatchObject({
      chat_group_to_ping: '@payments',
      team_node_id: 'payments',
    });
    const lean = await team(rw, 'GET', '/config/me/audit?limit=1&include_full=false');
    expect(lean.body.history.length).toBe(1);
    expect(lean.body.history[0].full_config).toBeUndefined();
    for (const q of ['limit=0', 'limit=501', 'limit=abc', 'include_full=maybe']) {
      const bad = await team(rw, 'GET', `/config/me/audit?${q}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
    }
  });

  it('refuses an update from a read-only token (403) and stores nothing', async () => {
    const before = await stored(rw);
    const res = await team(ro, 'PUT', '/config/me', { chat_channel: '#nope' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(await stored(rw)).toEqual(before);
  });
});

describe('PUT /config/me bad input: right error, nothing stored', () => {
  const deep = (() => {
    let v: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 40; i++) v = { n: v };
    return v;
  })();

  it.each([
    ['team_name', { team_name: 'Renamed' }],
    ['org_id', { org_id: 'other' }],
    ['team_node_id', { team_node_id: 'other', chat_channel: '#x' }],
  ])('immutable %s: 400 invalid_field with field', async (field, body) => {
    const before = await stored(rw);
    const res = await team(rw, 'PUT', '/config/me', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_field', field });
    expect(await stored(rw)).toEqual(before);
  });

  it.each([
    [
      'non-positive timeout',
      { agents: { investigation_agent: { timeout: 0 } } },
      'agents.investigation_agent.timeout',
    ],
    [
      'fractional timeout',
      { agents: { code_fix_agent: { timeout: 2.5 } } },
      'agents.code_fix_agent.timeout',
    ],
    [
      'timeout of the wrong type',
      { agents: { investigation_agent: { timeout: '60' } } },
      'agents.investigation_agent.timeout',
    ],
    [
      'enabled not a boolean',
      { agents: { investigation_agent: { enabled: 'yes' } } },
      'agents.investigation_agent.enabled',
    ],
    [
      'unknown retrieval strategy',
      { knowledge_base: { retrieval: { strategy: 'magic' } } },
      'knowledge_base.retrieval.strategy',
    ],
    [
      'top_k zero',
      { knowledge_base: { retrieval: { top_k: 0 } } },
      'knowledge_base.retrieval.top_k',
    ],
    [
      'min_relevance above 1',
      { knowledge_base: { retrieval: { min_relevance: 1.2 } } },
      'knowledge_base.retrieval.min_relevance',
    ],
    [
      'min_relevance below 0',
      { knowledge_base: { retrieval: { min_relevance: -0.1 } } },
      'knowledge_base.retrieval.min_relevance',
    ],
    [
      'bad sync_interval',
      { knowledge_base: { sources: { wiki: { sync_interval: 'often' } } } },
      'knowledge_base.sources.wiki.sync_interval',
    ],
    [
      'relative webhook URL',
      { webhooks: { investigation_complete: '/hooks/done' } },
      'webhooks.investigation_complete',
    ],
    [
      'non-http webhook URL',
      { webhooks: { investigation_complete: 'ftp://example.com/x' } },
      'webhooks.investigation_complete',
    ],
    [
      'non-http MCP server URL',
      { mcp_servers: [{ name: 'x', url: 'file:///etc/passwd' }] },
      'mcp_servers.0.url',
    ],
    [
      'plain-text tool api_key',
      { tools: { datadog: { api_key: 'dd-123456' } } },
      'tools.datadog.api_key',
    ],
    [
      'plain-text MCP bearer token',
      {
        mcp_servers: [
          { name: 'x', url: 'https://x.example.com', auth: { type: 'bearer', token: 'abc' } },
        ],
      },
      'mcp_servers.0.auth.token',
    ],
    [
      'plain-text MCP api key',
      {
        mcp_servers: [
          {
            name: 'x',
            url: 'https://x.example.com',
            auth: { type: 'api_key', header: 'X-Key', key: 'abc' },
          },
        ],
      },
      'mcp_servers.0.auth.key',
    ],
    [
      'unknown MCP auth type',
      { mcp_servers: [{ name: 'x', url: 'https://x.example.com', auth: { type: 'basic' } }] },
      'mcp_servers.0.auth.type',
    ],
    [
      'plain-text tokens_vault_path',
      { tokens_vault_path: { github: 'ghp_secret' } },
      'tokens_vault_path.github',
    ],
    // issue 16: a team references only vault:// paths under its own prefix
    [
      "another team's tool-server key",
      {
        mcp_servers: [
          {
            name: 'own',
            url: 'https://tools.example.com',
            auth: { type: 'api_key', header: 'X-Key', key: 'vault://inquest/checkout/toolkey' },
          },
        ],
      },
      'mcp_servers.0.auth.key',
    ],
    [
      "another team's webhook signing secret",
      { webhooks: { signing_secret: 'vault://teams/bravo/signing' } },
      'webhooks.signing_secret',
    ],
    [
      "the org's secret, set by the team",
      { tokens_vault_path: { slack_bot_token: 'vault://inquest/acme/slack' } },
      'tokens_vault_path.slack_bot_token',
    ],
    [
      'a team granting itself secret prefixes',
      { secrets: { allowed_prefixes: ['inquest/'] } },
      'secrets',
    ],
    ['MCP server configured nowhere', { mcp_servers: ['grafana', 'ghost'] }, 'mcp_servers.1'],
    [
      'unknown extra tool',
      { agents: { investigation_agent: { enable_extra_tools: ['teleport'] } } },
      'agents.investigation_agent.enable_extra_tools.0',
    ],
    [
      'tool of an unconfigured server',
      { agents: { investigation_agent: { enable_extra_tools: ['ghost:query'] } } },
      'agents.investigation_agent.enable_extra_tools.0',
    ],
    [
      'unknown default tool to disable',
      { agents: { investigation_agent: { disable_default_tools: ['nope'] } } },
      'agents.investigation_agent.disable_default_tools.0',
    ],
    ['chat_channel of the wrong type', { chat_channel: 42 }, 'chat_channel'],
    [
      'feature flag not a boolean',
      { feature_flags: { require_approval: 'yes' } },
      'feature_flags.require_approval',
    ],
    ['approver not an e-mail', { approval: { approvers: ['bob'] } }, 'approval.approvers.0'],
  ])('%s: 400 validation_error with details', async (_name, body, field) => {
    const before = await stored(rw);
    const res = await team(rw, 'PUT', '/config/me', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual({ field, error: expect.any(String) });
    expect(res.body.error.errors).toContainEqual({ field, error: expect.any(String) });
    expect(await stored(rw)).toEqual(before);
  });

  it('reports every failure at once', async () => {
    const before = await stored(rw);
    const res = await team(rw, 'PUT', '/config/me', {
      agents: { investigation_agent: { timeout: -1, enable_extra_tools: ['ghost:x'] } },
      knowledge_base: { retrieval: { strategy: 'x', top_k: -2 } },
      webhooks: { investigation_complete: 'nope' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      [
        'agents.investigation_agent.timeout',
        'agents.investigation_agent.enable_extra_tools.0',
        'knowledge_base.retrieval.strategy',
        'knowledge_base.retrieval.top_k',
        'webhooks.investigation_complete',
      ].sort(),
    );
    expect(await stored(rw)).toEqual(before);
  });

  it.each([
    ['a JSON array', 400, 'invalid_request', '[1,2,3]'],
    ['a JSON string', 400, 'invalid_request', '"text"'],
    ['a JSON number', 400, 'invalid_request', '42'],
    ['JSON null', 400, 'invalid_request', 'null'],
    ['malformed JSON', 400, 'invalid_request', '{"chat_channel": '],
    [
      'a __proto__ key',
      400,
      'invalid_request',
      '{"__proto__": {"polluted": true}, "chat_channel": "#x"}',
    ],
    ['a nested __proto__ key', 400, 'invalid_request', '{"agents": {"__proto__": {"timeout": 1}}}'],
    ['a constructor key', 400, 'invalid_request', '{"constructor": {"prototype": {"x": 1}}}'],
    ['nesting deeper than 32', 400, 'invalid_request', JSON.stringify({ junk: deep })],
    [
      'a body over 1 MiB',
      413,
      'payload_too_large',
      JSON.stringify({ blob: 'x'.repeat(1024 * 1024 + 10) }),
    ],
  ])('%s: %i %s', async (_name, status, code, raw) => {
    const before = await stored(rw);
    const res = await request('PUT', '/api/v1/config/me', {
      token: rw,
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(await stored(rw)).toEqual(before);
  });

  it('a config over 1 MiB cannot be built up from smaller updates either', async () => {
    expect(
      (
        await admin('POST', '/admin/nodes', {
          node_id: 'big',
          parent_id: 'platform',
          kind: 'team',
          name: 'Big',
        })
      ).status,
    ).toBe(201);
    const token = await issue('big', ['read', 'write']);
    expect(
      (await team(token, 'PUT', '/config/me', { 'x-blob-a': 'a'.repeat(600_000) })).status,
    ).toBe(200);
    const before = await stored(token);
    const res = await team(token, 'PUT', '/config/me', { 'x-blob-b': 'b'.repeat(600_000) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(await stored(token)).toEqual(before);
  });
});

describe('approvals through REST', () => {
  let token: string;
  beforeAll(async () => {
    expect(
      (
        await admin('POST', '/admin/nodes', {
          node_id: 'guarded',
          parent_id: 'platform',
          kind: 'team',
          name: 'Guarded',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await admin('PUT', '/admin/nodes/guarded/config', {
          feature_flags: { require_approval: true },
          approval: { approvers: ['lead@example.com', 'sre@example.com'] },
        })
      ).status,
    ).toBe(200);
    token = await issue('guarded', ['read', 'write'], 'requester@example.com');
  });

  it('answers 202 with a change request, lists it as pending, applies it on approval', async () => {
    const res = await team(token, 'PUT', '/config/me', { chat_channel: '#guarded' });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual([
      'approvers',
      'change_request_id',
      'changes',
      'message',
      'status',
      'warnings',
    ]);
    expect(res.body).toMatchObject({
      status: 'pending_approval',
      approvers: ['lead@example.com', 'sre@example.com'],
      // the inherited value is the old one (the team sets none)
      changes: { chat_channel: { old: '#acme', new: '#guarded' } },
    });
    const id = res.body.change_request_id as string;
    expect((await team(token, 'GET', '/config/me/effective')).body.chat_channel).toBe('#acme');

    const pending = await team(token, 'GET', '/config/me/pending');
    expect(pending.status).toBe(200);
    expect(pending.body.change_requests).toHaveLength(1);
    expect(Object.keys(pending.body.change_requests[0]).sort()).toEqual([
      'approvers',
      'change_request_id',
      'changes',
      'requested_at',
      'requested_by',
      'status',
    ]);
    expect(pending.body.change_requests[0]).toMatchObject({
      change_request_id: id,
      requested_by: 'requester@example.com',
    });

    const listed = await admin(
      'GET',
      '/admin/change-requests?status=pending_approval&team=guarded',
    );
    expect(
      listed.body.change_requests.map((c: { change_request_id: string }) => c.change_request_id),
    ).toEqual([id]);

    const approved = await admin('POST', `/admin/change-requests/${id}/approve`, {
      comment: 'looks good',
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      change_request_id: id,
      status: 'approved',
      decided_by: 'admin',
      comment: 'looks good',
      applied_version: 2,
    });
    expect((await team(token, 'GET', '/config/me/effective')).body.chat_channel).toBe('#guarded');
    const audit = await team(token, 'GET', '/config/me/audit?limit=1');
    expect(audit.body.history[0]).toMatchObject({
      version: 2,
      changed_by: 'requester@example.com',
      approved_by: 'admin',
    });
    expect((await team(token, 'GET', '/config/me/pending')).body.change_requests).toEqual([]);

    const twice = await admin('POST', `/admin/change-requests/${id}/approve`);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('conflict');
  });

  it('rejects a change request without applying it; unknown ids are 404', async () => {
    const res = await team(token, 'PUT', '/config/me', { chat_channel: '#never' });
    const id = res.body.change_request_id as string;
    const rejected = await admin('POST', `/admin/change-requests/${id}/reject`);
    expect(rejected.status).toBe(200);
    expect(rejected.body.status).toBe('rejected');
    expect((await team(token, 'GET', '/config/me/effective')).body.chat_channel).toBe('#guarded');
    expect((await admin('POST', '/admin/change-requests/cr_nope/approve')).status).toBe(404);
    expect((await admin('POST', '/admin/change-requests/cr_nope/reject', {})).body.error.code).toBe(
      'not_found',
    );
  });

  it('needs approval even to turn approval off', async () => {
    const res = await team(token, 'PUT', '/config/me', {
      feature_flags: { require_approval: false },
    });
    expect(res.status).toBe(202);
  });
});

describe('concurrency through REST', () => {
  it('50 concurrent updates from 50 tokens lose nothing', async () => {
    expect(
      (
        await admin('POST', '/admin/nodes', {
          node_id: 'busy',
          parent_id: 'platform',
          kind: 'team',
          name: 'Busy',
        })
      ).status,
    ).toBe(201);
    const tokens = await Promise.all(
      Array.from({ length: 50 }, (_, i) => issue('busy', ['read', 'write'], `u${i}@example.com`)),
    );
    const answers = await Promise.all(
      tokens.map((t, i) =>
        team(t, 'PUT', '/config/me', { knowledge_source: { [`s${i}`]: [`loc${i}`] } }),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.version)).size).toBe(50);
    const eff = await team(tokens[0]!, 'GET', '/config/me/effective');
    expect(Object.keys(eff.body.knowledge_source)).toHaveLength(50);
    const audit = await team(tokens[0]!, 'GET', '/config/me/audit?limit=500&include_full=false');
    const own = audit.body.history.filter(
      (h: { node_id: string; level: string }) => h.level === 'team',
    );
    expect(own.map((h: { version: number }) => h.version)).toEqual(
      Array.from({ length: 50 }, (_, i) => 50 - i),
    );
  });
});
