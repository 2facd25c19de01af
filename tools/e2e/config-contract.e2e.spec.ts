/**
 * REST conformance of the configuration contract points of issue 18: unknown keys, JSON Merge
 * Patch, versions, audit paging and levels, reserved fields, approvers. The real gateway in front
 * of the real config-hierarchy service (gRPC, SQLite), one in-process event bus.
 */
import { randomBytes } from 'node:crypto';
import { InProcessEventBus, Subjects, type ChangeRequestEvent } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import { tempDir, waitFor, gatewayRequest, type GatewayRequestOptions } from '@inquest/testing';
import { start as startConfigService } from '@inquest/config-hierarchy-service';
import { hierarchyAdmin, startTestGateway, type RunningGateway } from './support/hierarchy';

let gw: RunningGateway;
let svc: Awaited<ReturnType<typeof startConfigService>>;
let bus: InProcessEventBus;
const adminToken = `admin.${randomBytes(24).toString('base64url')}`;
const dataDir = tempDir();
let rw: string;

const request = (method: string, path: string, o?: GatewayRequestOptions) =>
  gatewayRequest(gw.url, method, path, o);
const admin = (method: string, path: string, body?: unknown) =>
  request(method, `/api/v1${path}`, { token: adminToken, ...(body === undefined ? {} : { body }) });
const team = (token: string, method: string, path: string, body?: unknown) =>
  request(method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });

const createNode = (node_id: string, parent_id: string | null, kind: string) =>
  hierarchyAdmin(gw.url, adminToken).createNodes([[node_id, parent_id, kind]]);
const issue = (teamId: string, permissions: string[], owner: string) =>
  hierarchyAdmin(gw.url, adminToken).issueToken(teamId, owner, permissions);

/** What must not move when an update is refused. */
async function stored(token: string) {
  const raw = await team(token, 'GET', '/config/me/raw');
  const audit = await team(token, 'GET', '/config/me/audit?limit=500&include_full=false');
  return { configs: raw.body.configs, audit: audit.body.history.length };
}

beforeAll(async () => {
  bus = new InProcessEventBus();
  svc = await startConfigService(
    { INQUEST_GRPC_PORT: '0', INQUEST_DATA_DIR: dataDir, INQUEST_LOG_LEVEL: 'silent' },
    { bus, logger: silentLogger() },
  );
  gw = await startTestGateway(
    adminToken,
    { INQUEST_CONFIG_ADDR: svc.address },
    { bus, logger: silentLogger() },
  );
  await createNode('acme', null, 'org');
  await createNode('platform', 'acme', 'group');
  await createNode('payments', 'platform', 'team');
  rw = await issue('payments', ['read', 'write'], 'dev@example.com');
});

afterAll(async () => {
  await gw?.stop();
  await svc?.stop();
  await bus?.close();
});

describe('unknown keys (point 1)', () => {
  it.each([
    [
      'an unknown agent',
      { agents: { planer: { timeout: 10 } } },
      'agents.planer',
      /did you mean "planner"/,
    ],
    [
      'a misspelt agent field',
      { agents: { planner: { timeuot: 10 } } },
      'agents.planner.timeuot',
      /did you mean "timeout"/,
    ],
    ['an unknown top-level key', { agentz: { planner: {} } }, 'agentz', /did you mean "agents"/],
    [
      'an unknown feature flag',
      { feature_flags: { enable_write_action: true } },
      'feature_flags.enable_write_action',
      /did you mean "enable_write_actions"/,
    ],
    [
      'an unknown key in an MCP server entry',
      { mcp_servers: [{ name: 'm', url: 'https://m.example.com', tiemout: 5 }] },
      'mcp_servers.0.tiemout',
      /did you mean "timeout"/,
    ],
    [
      'an unknown retrieval setting',
      { knowledge_base: { retrieval: { topk: 3 } } },
      'knowledge_base.retrieval.topk',
      /did you mean "top_k"/,
    ],
    ['a key far from any known one', { zzzzzz: 1 }, 'zzzzzz', /^unknown key "zzzzzz"$/],
  ])('%s: 400 validation_error naming the path, nothing stored', async (_n, patch, field, msg) => {
    const before = await stored(rw);
    const res = await team(rw, 'PUT', '/config/me', patch);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.field).toBe(field);
    expect(res.body.error.details.error).toMatch(msg);
    expect(res.body.error.errors).toEqual([res.body.error.details]);
    expect(await stored(rw)).toEqual(before);
  });

  it('reports every unknown key with the type problems in one answer', async () => {
    const res = await team(rw, 'PUT', '/config/me', {
      agentz: 1,
      chat_channel: 7,
      agents: { planner: { timeuot: 1, timeout: -1 } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'agents.planner.timeout',
      'agents.planner.timeuot',
      'agentz',
      'chat_channel',
    ]);
  });

  it('rejects unknown keys in the admin node config PUT too', async () => {
    const res = await admin('PUT', '/admin/nodes/acme/config', { webhooks: { complete: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.field).toBe('webhooks.complete');
  });

  it('keeps top-level x- keys as custom data, as is', async () => {
    const custom = { owner: 'team-payments', anything: [1, { nested: true }] };
    const res = await team(rw, 'PUT', '/config/me', { 'x-payments': custom });
    expect(res.status).toBe(200);
    expect(res.body.effective_config['x-payments']).toEqual(custom);
    const eff = await team(rw, 'GET', '/config/me/effective');
    expect(eff.body['x-payments']).toEqual(custom);
  });

  it('x- is a top-level allowance only', async () => {
    const res = await team(rw, 'PUT', '/config/me', { agents: { 'x-custom': {} } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('agents.x-custom');
  });

  it("code_fix_agent (the spec's agent-config name) round-trips under its name", async () => {
    const res = await team(rw, 'PUT', '/config/me', {
      agents: { code_fix_agent: { timeout: 45, enabled: false, prompt: 'Find the bad commit.' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.changed_fields.sort()).toEqual([
      'agents.code_fix_agent.enabled',
      'agents.code_fix_agent.prompt',
      'agents.code_fix_agent.timeout',
    ]);
    expect(res.body.effective_config.agents.code_fix_agent).toEqual({
      timeout: 45,
      enabled: false,
      prompt: 'Find the bad commit.',
    });
    const eff = await team(rw, 'GET', '/config/me/effective');
    expect(eff.body.agents.code_fix_agent).toEqual({
      timeout: 45,
      enabled: false,
      prompt: 'Find the bad commit.',
    });
    const raw = await team(rw, 'GET', '/config/me/raw');
    expect(raw.body.configs.payments.agents.code_fix_agent.timeout).toBe(45);
    const audit = await team(rw, 'GET', '/config/me/audit?limit=1&include_full=false');
    expect(audit.body.history[0].diff['agents.code_fix_agent.timeout']).toEqual({
      old: null,
      new: 45,
    });
    // deep-merged into the team overrides like any agent config
    const more = await team(rw, 'PUT', '/config/me', {
      agents: { code_fix_agent: { timeout: 50 } },
    });
    expect(more.status).toBe(200);
    expect(more.body.changed_fields).toEqual(['agents.code_fix_agent.timeout']);
    expect(more.body.effective_config.agents.code_fix_agent).toEqual({
      timeout: 50,
      enabled: false,
      prompt: 'Find the bad commit.',
    });
    expect((await team(rw, 'PUT', '/config/me', { agents: { code_fix_agent: null } })).status).toBe(
      200,
    );
  });

  it('code_fix_agent is validated like any agent', async () => {
    const bad = await team(rw, 'PUT', '/config/me', { agents: { code_fix_agent: { timeout: 0 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
    expect(bad.body.error.details.field).toBe('agents.code_fix_agent.timeout');
    const tool = await team(rw, 'PUT', '/config/me', {
      agents: { code_fix_agent: { enable_extra_tools: ['no_such_tool'] } },
    });
    expect(tool.status).toBe(400);
    expect(tool.body.error.details.field).toBe('agents.code_fix_agent.enable_extra_tools.0');
  });
});

describe('JSON Merge Patch (point 2)', () => {
  let token: string;
  beforeAll(async () => {
    await createNode('mp-team', 'platform', 'team');
    token = await issue('mp-team', ['read', 'write'], 'mp@example.com');
    expect((await admin('PUT', '/admin/nodes/acme/config', { chat_channel: '#acme' })).status).toBe(
      200,
    );
  });

  it('null deletes the team key: the inherited value applies again, audited', async () => {
    const set = await team(token, 'PUT', '/config/me', {
      chat_channel: '#mp',
      agents: { planner: { timeout: 30, enabled: false } },
    });
    expect(set.status).toBe(200);
    expect((await team(token, 'GET', '/config/me/effective')).body.chat_channel).toBe('#mp');

    const del = await team(token, 'PUT', '/config/me', {
      chat_channel: null,
      agents: { planner: { timeout: null } },
    });
    expect(del.status).toBe(200);
    expect(del.body.version).toBe(set.body.version + 1);
    expect(del.body.changed_fields.sort()).toEqual(['agents.planner.timeout', 'chat_channel']);
    expect(del.body.effective_config.chat_channel).toBe('#acme');
    expect(del.body.effective_config.agents.planner).toEqual({ enabled: false });

    const raw = await team(token, 'GET', '/config/me/raw');
    expect(raw.body.configs['mp-team'].chat_channel).toBeUndefined();
    expect(raw.body.configs['mp-team'].agents.planner).toEqual({ enabled: false });

    const audit = await team(token, 'GET', '/config/me/audit?limit=1');
    expect(audit.body.history[0]).toMatchObject({
      version: del.body.version,
      changed_by: 'mp@example.com',
      diff: {
        chat_channel: { old: '#mp', new: null },
        'agents.planner.timeout': { old: 30, new: null },
      },
    });
  });

  it('a whole object can be deleted; arrays and scalars replace', async () => {
    await team(token, 'PUT', '/config/me', { alerts: { disabled: ['a', 'b'] } });
    const rep = await team(token, 'PUT', '/config/me', { alerts: { disabled: ['c'] } });
    expect(rep.body.effective_config.alerts.disabled).toEqual(['c']);
    const del = await team(token, 'PUT', '/config/me', { alerts: null });
    expect(del.status).toBe(200);
    expect(del.body.changed_fields).toEqual(['alerts']);
    expect(del.body.effective_config.alerts).toBeUndefined();
  });

  it('deleting a known key the team does not set changes nothing (no version, no audit)', async () => {
    const before = await stored(token);
    const res = await team(token, 'PUT', '/config/me', { chat_group_to_ping: null });
    expect(res.status).toBe(200);
    expect(res.body.changed_fields).toEqual([]);
    expect(await stored(token)).toEqual(before);
  });

  it.each([
    ['an unknown top-level key', { agentz: null }, 'agentz'],
    ['an unknown agent', { agents: { planer: null } }, 'agents.planer'],
  ])('null for %s: 400 validation_error, nothing stored', async (_n, patch, field) => {
    const before = await stored(token);
    const res = await team(token, 'PUT', '/config/me', patch);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.field).toBe(field);
    expect(await stored(token)).toEqual(before);
  });

  it('null for an immutable field: 400 invalid_field', async () => {
    const res = await team(token, 'PUT', '/config/me', { team_name: null });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_field');
    expect(res.body.error.field).toBe('team_name');
  });

  it('null inside an array is a value, not a deletion: 400', async () => {
    const res = await team(token, 'PUT', '/config/me', { a2a_agents: ['x', null] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('a2a_agents.1');
  });

  it('the admin node config PUT deletes with null too', async () => {
    const res = await admin('PUT', '/admin/nodes/acme/config', { chat_channel: null });
    expect(res.status).toBe(200);
    expect(res.body.changed_fields).toEqual(['chat_channel']);
    const node = await admin('GET', '/admin/nodes/acme');
    expect(node.body.config.chat_channel).toBeUndefined();
    expect((await team(token, 'GET', '/config/me/effective')).body.chat_channel).toBeUndefined();
    await admin('PUT', '/admin/nodes/acme/config', { chat_channel: '#acme' });
  });
});

describe('versions in the effective and raw views (point 3)', () => {
  it('GET /config/me/effective carries the team version, which moves with each applied change', async () => {
    await createNode('ver-team', 'platform', 'team');
    const token = await issue('ver-team', ['read', 'write'], 'ver@example.com');
    const first = await team(token, 'GET', '/config/me/effective');
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(0);
    const put = await team(token, 'PUT', '/config/me', { chat_channel: '#ver' });
    expect(put.body.version).toBe(1);
    const after = await team(token, 'GET', '/config/me/effective');
    expect(after.body).toMatchObject({
      version: 1,
      chat_channel: '#ver',
      team_node_id: 'ver-team',
    });
  });

  it('GET /config/me/raw carries the version of each level', async () => {
    const org = await admin('GET', '/admin/nodes/acme');
    const res = await team(rw, 'GET', '/config/me/raw');
    expect(res.status).toBe(200);
    expect(res.body.lineage).toEqual(['acme', 'platform', 'payments']);
    const eff = await team(rw, 'GET', '/config/me/effective');
    expect(res.body.versions).toEqual({
      acme: org.body.version,
      platform: 0,
      payments: eff.body.version,
    });
  });
});

describe('audit: offset, levels, any node for admins (point 4)', () => {
  let token: string;
  beforeAll(async () => {
    await createNode('audit-org', null, 'org');
    await createNode('audit-group', 'audit-org', 'group');
    await createNode('audit-team', 'audit-group', 'team');
    await createNode('audit-other', 'audit-group', 'team');
    token = await issue('audit-team', ['read', 'write'], 'aud@example.com');
    const other = await issue('audit-other', ['read', 'write'], 'other@example.com');
    // oldest first: org, team, group, team, and a sibling team (never in audit-team's view)
    expect(
      (await admin('PUT', '/admin/nodes/audit-org/config', { chat_channel: '#o' })).status,
    ).toBe(200);
    expect((await team(token, 'PUT', '/config/me', { chat_group_to_ping: '@a' })).status).toBe(200);
    expect(
      (await admin('PUT', '/admin/nodes/audit-group/config', { a2a_agents: ['g'] })).status,
    ).toBe(200);
    expect((await team(token, 'PUT', '/config/me', { chat_group_to_ping: '@b' })).status).toBe(200);
    expect((await team(other, 'PUT', '/config/me', { chat_channel: '#sib' })).status).toBe(200);
  });

  it('lists the team changes and those made above it, newest first, marked with node and level', async () => {
    const res = await team(token, 'GET', '/config/me/audit?include_full=false');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 4, limit: 50, offset: 0 });
    expect(
      res.body.history.map((h: { node_id: string; level: string; version: number }) => [
        h.node_id,
        h.level,
        h.version,
      ]),
    ).toEqual([
      ['audit-team', 'team', 2],
      ['audit-group', 'group', 1],
      ['audit-team', 'team', 1],
      ['audit-org', 'org', 1],
    ]);
    expect(res.body.history[1]).toMatchObject({
      changed_by: 'admin',
      diff: { a2a_agents: { old: null, new: ['g'] } },
    });
  });

  it('pages with limit and offset beyond the first 500', async () => {
    const page = await team(token, 'GET', '/config/me/audit?limit=2&offset=1&include_full=false');
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ total: 4, limit: 2, offset: 1 });
    expect(page.body.history.map((h: { node_id: string }) => h.node_id)).toEqual([
      'audit-group',
      'audit-team',
    ]);
    const past = await team(token, 'GET', '/config/me/audit?offset=10');
    expect(past.status).toBe(200);
    expect(past.body.history).toEqual([]);
    expect(past.body.pagination.total).toBe(4);
  });

  it.each([
    ['false', false],
    ['False', false],
    ['FALSE', false],
    ['0', false],
    ['no', false],
    ['true', true],
    ['True', true],
    ['1', true],
  ])('include_full=%s is %s (any case: Python clients send False/True)', async (v, full) => {
    const res = await team(token, 'GET', `/config/me/audit?limit=1&include_full=${v}`);
    expect(res.status).toBe(200);
    expect(res.body.history[0].full_config !== undefined).toBe(full);
  });

  it.each(['include_full=maybe', 'include_full='])('%s: 400 invalid_request', async (q) => {
    const res = await team(token, 'GET', `/config/me/audit?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toMatch(/^include_full: /);
  });

  it('says the bounds of a bad limit', async () => {
    const res = await team(token, 'GET', '/config/me/audit?limit=abc');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('limit: limit must be an integer from 1 to 500');
  });

  it.each(['offset=-1', 'offset=1.5', 'offset=abc', 'limit=0', 'limit=501'])(
    '%s: 400 invalid_request',
    async (q) => {
      const res = await team(token, 'GET', `/config/me/audit?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    },
  );

  it('admins read any node audit: a group shows its own changes and the org ones', async () => {
    const res = await admin('GET', '/admin/nodes/audit-group/audit?include_full=false');
    expect(res.status).toBe(200);
    expect(res.body.history.map((h: { node_id: string }) => h.node_id)).toEqual([
      'audit-group',
      'audit-org',
    ]);
    const teamView = await admin('GET', '/admin/nodes/audit-team/audit?limit=1');
    expect(teamView.body.history[0]).toMatchObject({ node_id: 'audit-team', version: 2 });
    expect(teamView.body.history[0].full_config).toBeDefined();
    expect(teamView.body.pagination).toEqual({ total: 4, limit: 1, offset: 0 });
  });

  it('the admin audit route: 404 for an unknown node, 403 for team tokens', async () => {
    expect((await admin('GET', '/admin/nodes/no-such-node/audit')).status).toBe(404);
    const res = await team(token, 'GET', '/admin/nodes/audit-team/audit');
    expect(res.status).toBe(403);
  });
});

describe('reserved fields answer with warnings (point 7)', () => {
  it('stores them and says in warnings that they have no effect yet', async () => {
    const res = await team(rw, 'PUT', '/config/me', {
      tools: {
        kubernetes: { api_key: 'vault://inquest/payments/k8s', domain: 'corp', enabled: true },
      },
      a2a_agents: ['triage-bot'],
      feature_flags: { enable_auto_mitigation: true },
      knowledge_base: {
        sources: { wiki: { url: 'https://wiki.example.com', sync_interval: '1h' } },
      },
    });
    expect(res.status).toBe(200);
    const fields = res.body.warnings.map((w: { field: string }) => w.field).sort();
    expect(fields).toEqual(
      [
        'a2a_agents',
        'feature_flags.enable_auto_mitigation',
        'tools.kubernetes.api_key',
        'tools.kubernetes.domain',
      ].sort(),
    );
    for (const w of res.body.warnings) expect(w.message).toMatch(/is reserved: .*no effect yet/);
    expect(res.body.effective_config.a2a_agents).toEqual(['triage-bot']);
  });

  it('fields with an effect give no warning', async () => {
    const res = await team(rw, 'PUT', '/config/me', { chat_channel: '#payments-oncall' });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([]);
  });

  it('the admin node config PUT warns too', async () => {
    const res = await admin('PUT', '/admin/nodes/platform/config', { a2a_agents: ['x'] });
    expect(res.status).toBe(200);
    expect(res.body.warnings.map((w: { field: string }) => w.field)).toEqual(['a2a_agents']);
    await admin('PUT', '/admin/nodes/platform/config', { a2a_agents: null });
  });

  it('a change request (202) carries the warnings of the requested change', async () => {
    await createNode('warn-team', 'platform', 'team');
    const token = await issue('warn-team', ['read', 'write'], 'warn@example.com');
    await admin('PUT', '/admin/nodes/warn-team/config', {
      feature_flags: { require_approval: true },
      approval: { approvers: ['boss@example.com'] },
    });
    const res = await team(token, 'PUT', '/config/me', { a2a_agents: ['y'] });
    expect(res.status).toBe(202);
    expect(res.body.warnings.map((w: { field: string }) => w.field)).toEqual(['a2a_agents']);
  });
});

describe('listed approvers approve and reject through /config/me/pending (point 8)', () => {
  let dev: string;
  let boss: string;
  let bossReadOnly: string;
  let lead: string;
  let outsider: string;
  let otherTeamCr: string;
  const events: { subject: string; data: ChangeRequestEvent }[] = [];

  beforeAll(async () => {
    for (const subject of [Subjects.configChangeApproved, Subjects.configChangeRejected])
      await bus.subscribe(subject, async (msg) => {
        events.push({ subject, data: msg.data });
      });
    await createNode('appr-group', 'acme', 'group');
    await createNode('appr-team', 'appr-group', 'team');
    await createNode('appr-other', 'appr-group', 'team');
    expect(
      (
        await admin('PUT', '/admin/nodes/appr-group/config', {
          feature_flags: { enable_write_actions: false, require_approval: true },
          approval: { approvers: ['boss@example.com', 'lead@example.com'] },
        })
      ).status,
    ).toBe(200);
    dev = await issue('appr-team', ['read', 'write'], 'dev@example.com');
    boss = await issue('appr-team', ['read', 'write'], 'boss@example.com');
    bossReadOnly = await issue('appr-team', ['read'], 'boss@example.com');
    lead = await issue('appr-team', ['read', 'write'], 'lead@example.com');
    outsider = await issue('appr-team', ['read', 'write'], 'someone@example.com');
    const other = await issue('appr-other', ['read', 'write'], 'dev@example.com');
    const res = await team(other, 'PUT', '/config/me', { chat_channel: '#other' });
    expect(res.status).toBe(202);
    otherTeamCr = res.body.change_request_id as string;
  });

  const request202 = async (token: string, patch: unknown): Promise<string> => {
    const res = await team(token, 'PUT', '/config/me', patch);
    expect(res.status).toBe(202);
    return res.body.change_request_id as string;
  };

  it('the change request shows the inherited value as old', async () => {
    const res = await team(dev, 'PUT', '/config/me', {
      feature_flags: { enable_write_actions: true },
    });
    expect(res.status).toBe(202);
    expect(res.body.changes).toEqual({
      'feature_flags.enable_write_actions': { old: false, new: true },
    });
    const pending = await team(boss, 'GET', '/config/me/pending');
    const listed = pending.body.change_requests.find(
      (c: { change_request_id: string }) => c.change_request_id === res.body.change_request_id,
    );
    expect(listed).toMatchObject({
      requested_by: 'dev@example.com',
      approvers: ['boss@example.com', 'lead@example.com'],
      changes: { 'feature_flags.enable_write_actions': { old: false, new: true } },
    });
  });

  it('a listed approver approves: applied as one version, audited with both names, requester told', async () => {
    const id = await request202(dev, { chat_channel: '#appr' });
    const before = await team(dev, 'GET', '/config/me/effective');
    const res = await team(boss, 'POST', `/config/me/pending/${id}/approve`, { comment: 'ok' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      change_request_id: id,
      team_id: 'appr-team',
      status: 'approved',
      requested_by: 'dev@example.com',
      decided_by: 'boss@example.com',
      comment: 'ok',
      applied_version: before.body.version + 1,
    });
    const after = await team(dev, 'GET', '/config/me/effective');
    expect(after.body).toMatchObject({ chat_channel: '#appr', version: before.body.version + 1 });
    const audit = await team(dev, 'GET', '/config/me/audit?limit=1');
    expect(audit.body.history[0]).toMatchObject({
      changed_by: 'dev@example.com',
      approved_by: 'boss@example.com',
      node_id: 'appr-team',
    });
    const again = await team(lead, 'POST', `/config/me/pending/${id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    await waitFor(async () => events.some((e) => e.data.change_request?.change_request_id === id));
    const event = events.find((e) => e.data.change_request?.change_request_id === id)!;
    expect(event.subject).toBe(Subjects.configChangeApproved);
    expect(event.data.change_request).toMatchObject({ requested_by: 'dev@example.com' });
  });

  it('a listed approver rejects: nothing applied', async () => {
    const id = await request202(dev, { chat_group_to_ping: '@never' });
    const res = await team(lead, 'POST', `/config/me/pending/${id}/reject`, { comment: 'no' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'rejected', decided_by: 'lead@example.com' });
    expect(
      (await team(dev, 'GET', '/config/me/effective')).body.chat_group_to_ping,
    ).toBeUndefined();
    await waitFor(async () =>
      events.some(
        (e) =>
          e.subject === Subjects.configChangeRejected &&
          e.data.change_request?.change_request_id === id,
      ),
    );
  });

  it.each([
    ['someone not listed', () => outsider],
    ['the requester', () => dev],
  ])('%s: 403 forbidden, nothing decided', async (_n, who) => {
    const id = await request202(dev, { chat_channel: '#denied' });
    for (const verb of ['approve', 'reject']) {
      const res = await team(who(), 'POST', `/config/me/pending/${id}/${verb}`);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    const pending = await team(dev, 'GET', '/config/me/pending');
    expect(
      pending.body.change_requests.some(
        (c: { change_request_id: string }) => c.change_request_id === id,
      ),
    ).toBe(true);
  });

  it('an approver cannot approve their own request', async () => {
    const id = await request202(lead, { chat_channel: '#lead' });
    const res = await team(lead, 'POST', `/config/me/pending/${id}/approve`);
    expect(res.status).toBe(403);
    expect((await team(boss, 'POST', `/config/me/pending/${id}/approve`)).status).toBe(200);
  });

  it("an approver's read-only token: 403 forbidden", async () => {
    const id = await request202(dev, { chat_channel: '#ro' });
    const res = await team(bossReadOnly, 'POST', `/config/me/pending/${id}/approve`);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it("another team's or an unknown change request: 404", async () => {
    expect((await team(boss, 'POST', `/config/me/pending/${otherTeamCr}/approve`)).status).toBe(
      404,
    );
    const unknown = await team(boss, 'POST', '/config/me/pending/cr_nope/reject');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });

  it('a bad body: 400, nothing decided', async () => {
    const id = await request202(dev, { chat_channel: '#body' });
    const res = await team(boss, 'POST', `/config/me/pending/${id}/approve`, { comment: 5 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    const array = await team(boss, 'POST', `/config/me/pending/${id}/approve`, [1]);
    expect(array.status).toBe(400);
    const pending = await team(dev, 'GET', '/config/me/pending');
    expect(
      pending.body.change_requests.some(
        (c: { change_request_id: string }) => c.change_request_id === id,
      ),
    ).toBe(true);
  });
});
