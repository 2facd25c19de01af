import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InProcessEventBus, Subjects } from '@inquest/events';
import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import { silentLogger } from '@inquest/observability';
import { changeRequestStatusEnum, configV1, nodeLevelEnum } from '@inquest/proto';
import { tempDir, waitFor } from '@inquest/testing';
import { start, type RunningService } from '../src/main';

type Client = PromiseClient<configV1.ConfigServiceClient>;

let svc: RunningService;
let client: Client;
let bus: InProcessEventBus;
const dataDir = tempDir();
const events: { subject: string; data: Record<string, unknown> }[] = [];

beforeAll(async () => {
  bus = new InProcessEventBus();
  await bus.subscribe('inquest.v1.config.>', async (m) => {
    events.push({ subject: m.subject, data: m.data as Record<string, unknown> });
  });
  svc = await start(
    { INQUEST_GRPC_PORT: '0', INQUEST_DATA_DIR: dataDir, INQUEST_LOG_LEVEL: 'silent' },
    { bus, logger: silentLogger() },
  );
  client = createClient(configV1.ConfigServiceClient, svc.address);
  await client.createNode({
    node_id: 'acme',
    kind: 'org',
    kind_enum: nodeLevelEnum.toProto('org'),
    name: 'Acme',
  });
  // a client that sets only the enum
  await client.createNode({
    node_id: 'platform',
    parent_id: 'acme',
    kind: '',
    kind_enum: nodeLevelEnum.toProto('group'),
    name: 'Platform',
  });
  await client.createNode({
    node_id: 'payments',
    parent_id: 'platform',
    kind: 'team',
    kind_enum: nodeLevelEnum.toProto('team'),
    name: 'Payments',
  });
  // a gateway built before the enums: only the string
  await client.createNode({
    node_id: 'checkout',
    parent_id: 'platform',
    kind: 'team',
    kind_enum: configV1.NodeLevel.NODE_LEVEL_UNSPECIFIED,
    name: 'Checkout',
  });
});

afterAll(async () => {
  client?.close();
  await svc?.stop();
  await bus?.close();
});

async function expectCode(p: Promise<unknown>, code: string) {
  await expect(p).rejects.toMatchObject({ code });
}

describe('nodes', () => {
  it('creates, reads and lists nodes with their org id', async () => {
    const got = await client.getNode({ node_id: 'payments' });
    expect(got.node).toMatchObject({
      node_id: 'payments',
      parent_id: 'platform',
      kind: 'team',
      kind_enum: nodeLevelEnum.toProto('team'),
      name: 'Payments',
      org_id: 'acme',
    });
    expect(got.node?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // every answer carries both forms, whichever form the node was created with
    const TEAM = nodeLevelEnum.toProto('team');
    expect(
      (await client.listNodes({ parent_id: 'platform' })).nodes.map((n) => [
        n.node_id,
        n.kind,
        n.kind_enum,
      ]),
    ).toEqual([
      ['checkout', 'team', TEAM],
      ['payments', 'team', TEAM],
    ]);
    expect((await client.getNode({ node_id: 'platform' })).node).toMatchObject({
      kind: 'group',
      kind_enum: nodeLevelEnum.toProto('group'),
    });
    expect((await client.listNodes({ parent_id: '' })).nodes.map((n) => n.node_id)).toEqual([
      'acme',
    ]);
  });

  it('rejects duplicates, unknown parents, bad ids and bad shapes', async () => {
    await expectCode(
      client.createNode({
        node_id: 'acme',
        kind: 'org',
        kind_enum: nodeLevelEnum.toProto('org'),
        name: 'Again',
      }),
      'conflict',
    );
    await expectCode(
      client.createNode({
        node_id: 'orphan',
        parent_id: 'nowhere',
        kind: 'team',
        kind_enum: nodeLevelEnum.toProto('team'),
        name: 'x',
      }),
      'not_found',
    );
    await expectCode(
      client.createNode({
        node_id: 'Bad_Id',
        kind: 'org',
        kind_enum: nodeLevelEnum.toProto('org'),
        name: 'x',
      }),
      'validation_error',
    );
    await expectCode(
      client.createNode({
        node_id: 'team-without-parent',
        kind: 'team',
        kind_enum: nodeLevelEnum.toProto('team'),
        name: 'x',
      }),
      'validation_error',
    );
    await expectCode(
      client.createNode({
        node_id: 'under-team',
        parent_id: 'payments',
        kind: 'team',
        kind_enum: nodeLevelEnum.toProto('team'),
        name: 'x',
      }),
      'validation_error',
    );
    await expectCode(client.getNode({ node_id: 'unknown-node' }), 'not_found');
    await expectCode(client.getNode({ node_id: '../etc' }), 'invalid_request');
  });
});

describe('effective config', () => {
  it('merges org, group and team in order; arrays replaced; identity fields fixed', async () => {
    await client.updateNodeConfig({
      node_id: 'acme',
      changed_by: 'admin',
      patch: {
        chat_channel: '#acme',
        alerts: { disabled: ['a', 'b'] },
        knowledge_base: { retrieval: { strategy: 'hybrid', top_k: 5 } },
        mcp_servers: [{ name: 'grafana', url: 'https://grafana.example.com/mcp' }],
      },
    });
    await client.updateNodeConfig({
      node_id: 'platform',
      changed_by: 'admin',
      patch: { alerts: { disabled: ['c'] }, knowledge_base: { retrieval: { top_k: 8 } } },
    });
    const res = await client.updateTeamConfig({
      team_id: 'payments',
      changed_by: 'dev@example.com',
      patch: {
        chat_channel: '#payments',
        mcp_servers: ['grafana'],
        knowledge_base: { retrieval: { min_relevance: 0.4 } },
      },
    });
    expect(res.applied?.version).toBe(1);
    expect(res.applied?.changed_fields.sort()).toEqual([
      'chat_channel',
      'knowledge_base.retrieval.min_relevance',
      'mcp_servers',
    ]);
    const eff = await client.getEffectiveConfig({ team_id: 'payments' });
    expect(eff.version).toBe(1);
    expect(eff.config).toMatchObject({
      chat_channel: '#payments',
      alerts: { disabled: ['c'] },
      knowledge_base: { retrieval: { strategy: 'hybrid', top_k: 8, min_relevance: 0.4 } },
      mcp_servers: [{ name: 'grafana', url: 'https://grafana.example.com/mcp' }],
      team_node_id: 'payments',
      team_name: 'Payments',
      org_id: 'acme',
    });
    const raw = await client.getRawConfig({ team_id: 'payments' });
    expect(raw.lineage).toEqual(['acme', 'platform', 'payments']);
    expect(raw.configs?.['payments']).toEqual({
      chat_channel: '#payments',
      mcp_servers: ['grafana'],
      knowledge_base: { retrieval: { min_relevance: 0.4 } },
    });
  });

  it('sees an ancestor change at once (cache invalidated) and announces it to every team below', async () => {
    await client.getEffectiveConfig({ team_id: 'checkout' });
    const before = events.length;
    await client.updateNodeConfig({
      node_id: 'platform',
      changed_by: 'admin',
      patch: { chat_group_to_ping: '@platform-oncall' },
    });
    expect(
      (await client.getEffectiveConfig({ team_id: 'checkout' })).config?.['chat_group_to_ping'],
    ).toBe('@platform-oncall');
    expect(
      (await client.getEffectiveConfig({ team_id: 'payments' })).config?.['chat_group_to_ping'],
    ).toBe('@platform-oncall');
    await waitFor(() => events.length >= before + 2);
    const changed = events.slice(before).filter((e) => e.subject === Subjects.configChanged);
    expect(changed.map((e) => e.data['team_id']).sort()).toEqual(['checkout', 'payments']);
    for (const e of changed) {
      expect(e.data).toMatchObject({
        node_id: 'platform',
        changed_fields: ['chat_group_to_ping'],
        changed_by: 'admin',
      });
      expect(typeof e.data['event_id']).toBe('string');
      expect(typeof e.data['occurred_at']).toBe('string');
    }
  });
});

describe('team updates', () => {
  it('records one audit entry per version, newest first, with diff and optional full config', async () => {
    await client.updateTeamConfig({
      team_id: 'checkout',
      changed_by: 'a@example.com',
      patch: { agents: { investigation_agent: { timeout: 100 } } },
    });
    await client.updateTeamConfig({
      team_id: 'checkout',
      changed_by: 'b@example.com',
      patch: { agents: { investigation_agent: { timeout: 200 } } },
    });
    const full = await client.listAudit({
      team_id: 'checkout',
      limit: 0,
      offset: 0,
      include_full: true,
    });
    // the team's own entries; the changes made above it (node_id acme, platform) are listed too
    const own = full.history.filter((h) => h.node_id === 'checkout');
    const TEAM = nodeLevelEnum.toProto('team');
    expect(own.map((h) => [h.version, h.changed_by, h.level, h.level_enum])).toEqual([
      [2, 'b@example.com', 'team', TEAM],
      [1, 'a@example.com', 'team', TEAM],
    ]);
    expect(full.total).toBe(full.history.length);
    expect(full.history.filter((h) => h.node_id !== 'checkout').map((h) => h.level)).not.toContain(
      'team',
    );
    expect(own[0]?.diff).toEqual({
      'agents.investigation_agent.timeout': { old: 100, new: 200 },
    });
    expect(own[1]?.diff).toEqual({
      'agents.investigation_agent.timeout': { old: null, new: 100 },
    });
    expect(own[0]?.full_config).toMatchObject({
      agents: { investigation_agent: { timeout: 200 } },
      team_node_id: 'checkout',
    });
    const lean = await client.listAudit({
      team_id: 'checkout',
      limit: 1,
      offset: 0,
      include_full: false,
    });
    expect(lean.history.length).toBe(1);
    expect(lean.history[0]?.full_config).toBeUndefined();
    await expectCode(
      client.listAudit({ team_id: 'checkout', limit: 501, offset: 0, include_full: true }),
      'invalid_request',
    );
  });

  it('answers a no-op update with the same version and writes no audit entry', async () => {
    const res = await client.updateTeamConfig({
      team_id: 'checkout',
      changed_by: 'a@example.com',
      patch: { agents: { investigation_agent: { timeout: 200 } } },
    });
    expect(res.applied).toMatchObject({ version: 2, changed_fields: [] });
    expect(
      (
        await client.listAudit({ team_id: 'checkout', limit: 50, offset: 0, include_full: false })
      ).history.filter((h) => h.node_id === 'checkout').length,
    ).toBe(2);
  });

  it('rejects bad values with every problem and stores nothing', async () => {
    const err = await client
      .updateTeamConfig({
        team_id: 'checkout',
        changed_by: 'a@example.com',
        patch: {
          agents: { investigation_agent: { timeout: 0, enable_extra_tools: ['ghost:tool'] } },
          mcp_servers: ['not-defined-anywhere'],
          webhooks: { investigation_complete: 'not a url' },
        },
      })
      .then(
        () => {
          throw new Error('expected a validation error');
        },
        (e: unknown) => e as { code: string; options: { errors?: { field: string }[] } },
      );
    expect(err.code).toBe('validation_error');
    expect(err.options.errors?.map((e) => e.field).sort()).toEqual(
      [
        'agents.investigation_agent.timeout',
        'webhooks.investigation_complete',
        'mcp_servers.0',
        'agents.investigation_agent.enable_extra_tools.0',
      ].sort(),
    );
    await expectCode(
      client.updateTeamConfig({ team_id: 'checkout', changed_by: 'a', patch: { team_name: 'x' } }),
      'invalid_field',
    );
    expect((await client.getEffectiveConfig({ team_id: 'checkout' })).version).toBe(2);
    expect(
      (
        await client.listAudit({ team_id: 'checkout', limit: 50, offset: 0, include_full: false })
      ).history.filter((h) => h.node_id === 'checkout').length,
    ).toBe(2);
  });

  it('accepts tools of a configured, enabled server and built-in tools', async () => {
    const res = await client.updateTeamConfig({
      team_id: 'payments',
      changed_by: 'dev@example.com',
      patch: {
        agents: {
          investigation_agent: {
            enable_extra_tools: ['grafana:query', 'similar_incidents'],
            disable_default_tools: ['learned_patterns'],
          },
        },
      },
    });
    expect(res.applied?.version).toBe(2);
  });

  it('loses nothing when 50 updates race across two replicas (version rises by 50, one audit entry each)', async () => {
    await client.createNode({
      node_id: 'race',
      parent_id: 'platform',
      kind: 'team',
      kind_enum: nodeLevelEnum.toProto('team'),
      name: 'Race',
    });
    // A second replica on the same database: only the version-checked write keeps them apart.
    const replica = await start(
      { INQUEST_GRPC_PORT: '0', INQUEST_DATA_DIR: dataDir, INQUEST_LOG_LEVEL: 'silent' },
      { bus, logger: silentLogger() },
    );
    const client2 = createClient(configV1.ConfigServiceClient, replica.address);
    await client2.getEffectiveConfig({ team_id: 'race' });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? client2 : client).updateTeamConfig({
          team_id: 'race',
          changed_by: `user${i}@example.com`,
          patch: { knowledge_source: { [`k${i}`]: [`v${i}`] } },
        }),
      ),
    );
    expect(new Set(results.map((r) => r.applied?.version)).size).toBe(50);
    const eff = await client.getEffectiveConfig({ team_id: 'race' });
    expect(eff.version).toBe(50);
    expect(Object.keys(eff.config?.['knowledge_source'] as object).length).toBe(50);
    const audit = await client.listAudit({
      team_id: 'race',
      limit: 500,
      offset: 0,
      include_full: false,
    });
    const own = audit.history.filter((h) => h.node_id === 'race');
    expect(own.map((h) => h.version)).toEqual(Array.from({ length: 50 }, (_, i) => 50 - i));
    expect(new Set(own.map((h) => h.changed_by)).size).toBe(50);
    // the other replica's cache was invalidated by the announced changes
    await waitFor(
      async () => (await client2.getEffectiveConfig({ team_id: 'race' })).version === 50,
    );
    client2.close();
    await replica.stop();
  });
});

describe('approvals', () => {
  beforeAll(async () => {
    await client.createNode({
      node_id: 'guarded',
      parent_id: 'platform',
      kind: 'team',
      kind_enum: nodeLevelEnum.toProto('team'),
      name: 'Guarded',
    });
    await client.updateNodeConfig({
      node_id: 'guarded',
      changed_by: 'admin',
      patch: {
        feature_flags: { require_approval: true },
        approval: { approvers: ['boss@example.com'] },
        chat_channel: '#old',
      },
    });
  });

  it('holds a change as a change request, applies it on approval as one new version', async () => {
    const before = events.length;
    const res = await client.updateTeamConfig({
      team_id: 'guarded',
      changed_by: 'dev@example.com',
      patch: { chat_channel: '#new' },
    });
    expect(res.applied).toBeUndefined();
    const cr = res.change_request!;
    expect(cr).toMatchObject({
      status: 'pending_approval',
      approvers: ['boss@example.com'],
      changes: { chat_channel: { old: '#old', new: '#new' } },
      requested_by: 'dev@example.com',
    });
    expect(cr.change_request_id).toMatch(/^cr_/);
    expect((await client.getEffectiveConfig({ team_id: 'guarded' })).config?.['chat_channel']).toBe(
      '#old',
    );
    // the filter from a gateway built before the enums (the string only), then as the enum
    const pending = await client.listChangeRequests({
      status: 'pending_approval',
      status_enum: configV1.ChangeRequestStatus.CHANGE_REQUEST_STATUS_UNSPECIFIED,
      team_id: 'guarded',
    });
    expect(
      (
        await client.listChangeRequests({
          status_enum: changeRequestStatusEnum.toProto('pending_approval'),
          team_id: 'guarded',
        })
      ).change_requests.map((c) => [c.status, c.status_enum]),
    ).toEqual([['pending_approval', changeRequestStatusEnum.toProto('pending_approval')]]);
    expect(
      (
        await client.listChangeRequests({
          status_enum: changeRequestStatusEnum.toProto('approved'),
          team_id: 'guarded',
        })
      ).change_requests,
    ).toEqual([]);
    expect(pending.change_requests.map((c) => c.change_request_id)).toEqual([cr.change_request_id]);

    const approved = await client.approveChangeRequest({
      as_listed_approver: false,
      change_request_id: cr.change_request_id,
      approver: 'admin',
      comment: 'ok',
    });
    expect(approved.change_request).toMatchObject({
      status: 'approved',
      decided_by: 'admin',
      comment: 'ok',
      applied_version: 2,
    });
    const eff = await client.getEffectiveConfig({ team_id: 'guarded' });
    expect(eff).toMatchObject({ version: 2, config: { chat_channel: '#new' } });
    const audit = await client.listAudit({
      team_id: 'guarded',
      limit: 1,
      offset: 0,
      include_full: false,
    });
    expect(audit.history[0]).toMatchObject({
      version: 2,
      changed_by: 'dev@example.com',
      approved_by: 'admin',
    });
    await expectCode(
      client.approveChangeRequest({
        as_listed_approver: false,
        change_request_id: cr.change_request_id,
        approver: 'admin',
      }),
      'conflict',
    );
    await waitFor(() =>
      events.slice(before).some((e) => e.subject === Subjects.configChangeApproved),
    );
    const subjects = events.slice(before).map((e) => e.subject);
    expect(subjects).toContain(Subjects.configChangeRequested);
    expect(subjects).toContain(Subjects.configChanged);
  });

  it('rejects a change request without applying it', async () => {
    const res = await client.updateTeamConfig({
      team_id: 'guarded',
      changed_by: 'dev@example.com',
      patch: { chat_channel: '#never' },
    });
    const id = res.change_request!.change_request_id;
    const rejected = await client.rejectChangeRequest({
      as_listed_approver: false,
      change_request_id: id,
      approver: 'admin',
      comment: 'no',
    });
    expect(rejected.change_request?.status).toBe('rejected');
    expect((await client.getEffectiveConfig({ team_id: 'guarded' })).config?.['chat_channel']).toBe(
      '#new',
    );
    await expectCode(
      client.rejectChangeRequest({
        as_listed_approver: false,
        change_request_id: 'cr_missing',
        approver: 'admin',
      }),
      'not_found',
    );
    await waitFor(() => events.some((e) => e.subject === Subjects.configChangeRejected));
  });

  it('validates a change before making it a request', async () => {
    await expectCode(
      client.updateTeamConfig({
        team_id: 'guarded',
        changed_by: 'dev@example.com',
        patch: { agents: { x: { timeout: -1 } } },
      }),
      'validation_error',
    );
    expect(
      (
        await client.listChangeRequests({
          status_enum: changeRequestStatusEnum.toProto('pending_approval'),
          team_id: 'guarded',
        })
      ).change_requests,
    ).toEqual([]);
  });
});

describe('tokens', () => {
  it('issues tokens in the documented format, verifies them, stores only a hash', async () => {
    const issued = await client.issueToken({
      team_id: 'payments',
      permissions: ['read', 'write'],
      owner: 'dev@example.com',
      label: 'ci',
    });
    expect(issued.token).toMatch(/^tok_[a-z2-7]{20}\.[A-Za-z0-9_-]{43}$/);
    const [id, secret] = issued.token.split('.') as [string, string];
    expect(issued.info).toMatchObject({
      token_id: id,
      team_id: 'payments',
      permissions: ['read', 'write'],
      owner: 'dev@example.com',
      label: 'ci',
    });
    const ok = await client.verifyToken({ token: issued.token });
    expect(ok).toMatchObject({ valid: true, token: { token_id: id, team_id: 'payments' } });
    expect((await client.verifyToken({ token: `${id}.${'A'.repeat(43)}` })).valid).toBe(false);
    expect((await client.verifyToken({ token: 'garbage' })).valid).toBe(false);
    expect((await client.verifyToken({ token: `tok_${'a'.repeat(20)}.${secret}` })).valid).toBe(
      false,
    );
    const listed = await client.listTokens({ team_id: 'payments' });
    expect(listed.tokens.map((t) => t.token_id)).toContain(id);
    expect(JSON.stringify(listed)).not.toContain(secret);
    const db =
      readFileSync(join(dataDir, 'config.db')).toString('latin1') +
      readFileSync(join(dataDir, 'config.db-wal')).toString('latin1');
    expect(db).toContain(id);
    expect(db).not.toContain(secret);
  });

  it('revokes a token (announced) and rejects bad issue requests', async () => {
    const issued = await client.issueToken({
      team_id: 'payments',
      permissions: ['read'],
      owner: 'ro@example.com',
    });
    const before = events.length;
    const revoked = await client.revokeToken({ token_id: issued.info!.token_id });
    expect(revoked.token?.revoked_at).toBeDefined();
    expect((await client.verifyToken({ token: issued.token })).valid).toBe(false);
    await waitFor(() =>
      events
        .slice(before)
        .some(
          (e) =>
            e.subject === Subjects.tokenRevoked && e.data['token_id'] === issued.info!.token_id,
        ),
    );
    await expectCode(client.revokeToken({ token_id: 'tok_unknownunknownunkn' }), 'not_found');
    await expectCode(
      client.issueToken({ team_id: 'payments', permissions: ['admin'], owner: 'x@example.com' }),
      'validation_error',
    );
    await expectCode(
      client.issueToken({ team_id: 'payments', permissions: ['read'], owner: 'not-an-email' }),
      'validation_error',
    );
    await expectCode(
      client.issueToken({
        team_id: 'payments',
        permissions: ['read'],
        owner: 'a@example.com',
        expires_at: '2001-01-01T00:00:00Z',
      }),
      'validation_error',
    );
    await expectCode(
      client.issueToken({ team_id: 'platform', permissions: ['read'], owner: 'a@example.com' }),
      'invalid_request',
    );
    await expectCode(
      client.issueToken({ team_id: 'no-such-team', permissions: ['read'], owner: 'a@example.com' }),
      'not_found',
    );
  });

  it('treats an expired token as invalid', async () => {
    const issued = await client.issueToken({
      team_id: 'payments',
      permissions: ['read'],
      owner: 'tmp@example.com',
      expires_at: new Date(Date.now() + 300).toISOString(),
    });
    expect((await client.verifyToken({ token: issued.token })).valid).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect((await client.verifyToken({ token: issued.token })).valid).toBe(false);
  });
});
