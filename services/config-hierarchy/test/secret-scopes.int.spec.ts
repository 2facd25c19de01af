import { join } from 'node:path';
import { InProcessEventBus, Subjects } from '@inquest/events';
import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import { silentLogger } from '@inquest/observability';
import { configV1, nodeLevelEnum } from '@inquest/proto';
import { openSqliteConfigStores } from '@inquest/store';
import { tempDir } from '@inquest/testing';
import { start, type RunningService } from '../src/main';

// Issue 16 item 1: a node references only vault:// paths under its own prefix (or the org's
// grants), checked on save; the effective config says under which node each reference resolves.

let svc: RunningService;
let client: PromiseClient<configV1.ConfigServiceClient>;
let bus: InProcessEventBus;
const dataDir = tempDir();

const apiKeyServer = (key: string) => ({
  name: 'own',
  url: 'http://tools.example',
  auth: { type: 'api_key', header: 'X-Api-Key', key },
});

beforeAll(async () => {
  bus = new InProcessEventBus();
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
  await client.createNode({
    node_id: 'platform',
    parent_id: 'acme',
    kind: 'group',
    kind_enum: nodeLevelEnum.toProto('group'),
    name: 'P',
  });
  await client.createNode({
    node_id: 'team-a',
    parent_id: 'platform',
    kind: 'team',
    kind_enum: nodeLevelEnum.toProto('team'),
    name: 'A',
  });
  await client.createNode({
    node_id: 'team-b',
    parent_id: 'platform',
    kind: 'team',
    kind_enum: nodeLevelEnum.toProto('team'),
    name: 'B',
  });
});

afterAll(async () => {
  client?.close();
  await svc?.stop();
  await bus?.close();
});

describe('secret references on save', () => {
  it("refuses team A's reference to team B's path with a validation_error naming the field", async () => {
    const err = await client
      .updateTeamConfig({
        team_id: 'team-a',
        patch: {
          mcp_servers: [apiKeyServer('vault://inquest/team-b/toolkey')],
          webhooks: { signing_secret: 'vault://teams/bravo/signing' },
        },
        changed_by: 'a@example.com',
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'validation_error' });
    const details = (err as { options?: { errors?: Array<{ field: string; error: string }> } })
      .options;
    expect(details?.errors).toEqual([
      {
        field: 'mcp_servers.0.auth.key',
        error: expect.stringMatching(/^vault reference must be under inquest\/team-a\//),
      },
      { field: 'webhooks.signing_secret', error: expect.any(String) },
    ]);
    // nothing stored
    expect((await client.getEffectiveConfig({ team_id: 'team-a' })).config).not.toHaveProperty(
      'mcp_servers',
    );
  });

  it('accepts the own prefix, and the org grants once the org sets them (admin only)', async () => {
    await client.updateTeamConfig({
      team_id: 'team-a',
      patch: { mcp_servers: [apiKeyServer('vault://inquest/team-a/toolkey')] },
      changed_by: 'a@example.com',
    });
    const shared = { webhooks: { signing_secret: 'vault://shared/team-a/signing' } };
    await expect(
      client.updateTeamConfig({ team_id: 'team-a', patch: shared, changed_by: 'a@example.com' }),
    ).rejects.toMatchObject({ code: 'validation_error' });
    // a team (or group) cannot grant itself more
    await expect(
      client.updateTeamConfig({
        team_id: 'team-a',
        patch: { secrets: { allowed_prefixes: ['shared/{node_id}/'] } },
        changed_by: 'a@example.com',
      }),
    ).rejects.toMatchObject({ code: 'validation_error' });
    await expect(
      client.updateNodeConfig({
        node_id: 'platform',
        patch: { secrets: { allowed_prefixes: ['shared/{node_id}/'] } },
        changed_by: 'admin',
      }),
    ).rejects.toMatchObject({ code: 'validation_error' });
    await client.updateNodeConfig({
      node_id: 'acme',
      patch: { secrets: { allowed_prefixes: ['shared/{node_id}/'] } },
      changed_by: 'admin',
    });
    await client.updateTeamConfig({
      team_id: 'team-a',
      patch: shared,
      changed_by: 'a@example.com',
    });
    // {node_id} is the node using the grant: team-b cannot name team-a's shared path
    await expect(
      client.updateTeamConfig({ team_id: 'team-b', patch: shared, changed_by: 'b@example.com' }),
    ).rejects.toMatchObject({ code: 'validation_error' });
  });
});

describe('credentials in URLs', () => {
  it('refuses user:pass@ in any URL at save time, pointing at vault references', async () => {
    const err = await client
      .updateTeamConfig({
        team_id: 'team-a',
        patch: {
          webhooks: { investigation_complete: 'https://hook:s3cret@hooks.example.com/x' },
          mcp_servers: [{ name: 'g', url: 'http://admin:pw@grafana.example.com/mcp' }],
        },
        changed_by: 'a@example.com',
      })
      .catch((e: unknown) => e as { code: string; options?: { errors?: unknown[] } });
    expect(err).toMatchObject({ code: 'validation_error' });
    expect((err as { options?: { errors?: unknown[] } }).options?.errors).toEqual(
      expect.arrayContaining([
        {
          field: 'webhooks.investigation_complete',
          error: expect.stringContaining('vault://'),
        },
        { field: 'mcp_servers.0.url', error: expect.stringContaining('user:pass@') },
      ]),
    );
    const audit = await client.listAudit({
      team_id: 'team-a',
      limit: 50,
      offset: 0,
      include_full: true,
    });
    expect(JSON.stringify(audit)).not.toContain('s3cret');
  });
});

describe('secret scopes of the effective config', () => {
  it('names the node that set each reference; a reference stored before the rule stays its own', async () => {
    await client.updateNodeConfig({
      node_id: 'platform',
      patch: { tokens_vault_path: { slack_bot_token: 'vault://inquest/platform/slack' } },
      changed_by: 'admin',
    });
    // Written straight into the store, as a reference saved before the rule would be.
    const stores = openSqliteConfigStores(join(dataDir, 'config.db'));
    try {
      const cur = await stores.nodes.getConfig('team-b');
      const written = await stores.nodes.writeConfig({
        node_id: 'team-b',
        expected_version: cur?.version ?? 0,
        config: {
          mcp_servers: [apiKeyServer('vault://inquest/team-a/toolkey')],
          webhooks: { signing_secret: 'vault://inquest/team-a/signing' },
        },
        audit: {
          changed_at: new Date().toISOString(),
          changed_by: 'legacy',
          diff: {},
          full_config: {},
        },
      });
      expect(written).toBe(true);
    } finally {
      await stores.close();
    }
    // what another replica's change announces: drop the cached effective config
    // (an old producer's partial event: the subject widened to string opts out of EventMap)
    const legacy: string = Subjects.configChanged;
    await bus.publish(legacy, { event_id: 'legacy-write', node_id: 'team-b' });
    const eff = await waitForScopes('team-b', 'mcp_servers.0.auth.key');
    expect(eff.secret_scopes).toEqual({
      'mcp_servers.0.auth.key': {
        owner_node_id: 'team-b',
        prefixes: ['inquest/team-b/', 'shared/team-b/'],
      },
      'webhooks.signing_secret': {
        owner_node_id: 'team-b',
        prefixes: ['inquest/team-b/', 'shared/team-b/'],
      },
      'tokens_vault_path.slack_bot_token': {
        owner_node_id: 'platform',
        prefixes: ['inquest/platform/', 'shared/platform/'],
      },
    });
  });
});

async function waitForScopes(teamId: string, field: string) {
  for (let i = 0; i < 50; i++) {
    const eff = await client.getEffectiveConfig({ team_id: teamId });
    if (eff.secret_scopes[field]) return eff;
    await new Promise((r) => setTimeout(r, 20));
  }
  return client.getEffectiveConfig({ team_id: teamId });
}
