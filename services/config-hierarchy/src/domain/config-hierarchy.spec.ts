import { type DomainError } from '@inquest/errors';
import {
  InProcessEventBus,
  Subjects,
  type ChangeRequestEvent,
  type ConfigChangedEvent,
} from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import { openSqliteConfigStores, type ConfigStores } from '@inquest/store';
import { changeRequestMessage } from '../grpc/config-messages';
import { ConfigHierarchy } from './config-hierarchy';

let stores: ConfigStores;
let bus: InProcessEventBus;
let events: Array<{ subject: string; data: ConfigChangedEvent | ChangeRequestEvent }>;
let hierarchy: ConfigHierarchy;

beforeEach(async () => {
  stores = openSqliteConfigStores(':memory:');
  bus = new InProcessEventBus();
  events = [];
  for (const subject of [Subjects.configChanged, Subjects.configChangeRequested])
    await bus.subscribe(subject, async (msg) => {
      events.push({ subject, data: msg.data });
    });
  hierarchy = new ConfigHierarchy({
    stores,
    bus,
    logger: silentLogger(),
    changeRequestMessage,
  });
  await hierarchy.createNode({ node_id: 'acme', kind: 'org', name: 'Acme' });
  await hierarchy.createNode({
    node_id: 'platform',
    parent_id: 'acme',
    kind: 'group',
    name: 'Platform',
  });
  for (const team of ['payments', 'search'])
    await hierarchy.createNode({ node_id: team, parent_id: 'platform', kind: 'team', name: team });
});

afterEach(() => stores.close());

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as DomainError,
  );
const settle = () => new Promise((r) => setImmediate(r));

describe('ConfigHierarchy nodes', () => {
  it('checks a new node: id, kind, name and parent all at once; a team has no children', async () => {
    const err = await failure(hierarchy.createNode({ node_id: 'X', kind: 'squad', name: ' ' }));
    expect(err?.options.errors?.map((e) => e.field)).toEqual(['node_id', 'kind', 'name']);
    expect(
      (
        await failure(
          hierarchy.createNode({ node_id: 'sub', parent_id: 'payments', kind: 'team', name: 's' }),
        )
      )?.options.errors,
    ).toEqual([{ field: 'parent_id', error: 'a team cannot have children' }]);
    expect(
      (
        await failure(
          hierarchy.createNode({ node_id: 'orphan', parent_id: 'nope', kind: 'team', name: 'o' }),
        )
      )?.code,
    ).toBe('not_found');
    expect((await hierarchy.listNodes('platform')).map((n) => n.node_id).sort()).toEqual([
      'payments',
      'search',
    ]);
  });
});

describe('ConfigHierarchy configs', () => {
  it('merges the lineage into the effective config; the nearest level wins', async () => {
    await hierarchy.updateNodeConfig(
      'acme',
      { chat_channel: '#acme', feature_flags: { enable_write_actions: true } },
      'admin',
    );
    await hierarchy.updateNodeConfig('platform', { chat_channel: '#platform' }, 'admin');
    await hierarchy.updateTeamConfig(
      'payments',
      { feature_flags: { enable_auto_mitigation: true } },
      'dev@example.com',
    );
    const eff = await hierarchy.getEffective('payments');
    expect(eff.config['chat_channel']).toBe('#platform');
    expect(eff.config['feature_flags']).toMatchObject({
      enable_write_actions: true,
      enable_auto_mitigation: true,
    });
    expect(eff.version).toBe(1);
    const raw = await hierarchy.getRaw('payments');
    expect(raw.lineage).toEqual(['acme', 'platform', 'payments']);
    expect(raw.versions).toEqual({ acme: 1, platform: 1, payments: 1 });
  });

  it('announces a change to each team below the changed node, and audits it', async () => {
    await hierarchy.updateNodeConfig(
      'platform',
      { feature_flags: { enable_write_actions: true } },
      'ops@example.com',
    );
    await settle();
    expect(
      events
        .flatMap((e) => ('node_id' in e.data ? [e.data] : []))
        .map((d) => [d.team_id, d.node_id, d.changed_by])
        .sort(),
    ).toEqual([
      ['payments', 'platform', 'ops@example.com'],
      ['search', 'platform', 'ops@example.com'],
    ]);
    const audit = await hierarchy.listAudit('payments', { limit: 0, offset: 0 }, false);
    expect(audit.history.map((h) => [h.node_id, h.level, h.changed_by])).toEqual([
      ['platform', 'group', 'ops@example.com'],
    ]);
    expect(audit.history[0]).not.toHaveProperty('full_config');
    expect(audit.limit).toBe(50);
  });

  it('answers "No changes" for a patch that changes nothing, without a new version', async () => {
    await hierarchy.updateTeamConfig(
      'payments',
      { feature_flags: { enable_auto_mitigation: true } },
      'dev@example.com',
    );
    const again = await hierarchy.updateTeamConfig(
      'payments',
      { feature_flags: { enable_auto_mitigation: true } },
      'dev@example.com',
    );
    expect(again).toEqual({
      applied: expect.objectContaining({ message: 'No changes', version: 1 }),
    });
  });

  it('refuses a patch that is not an object, or whose types are wrong, with every problem', async () => {
    expect((await failure(hierarchy.updateTeamConfig('payments', [1], 'dev')))?.code).toBe(
      'invalid_request',
    );
    const err = await failure(
      hierarchy.updateTeamConfig('payments', { feature_flags: { require_approval: 'yes' } }, 'dev'),
    );
    expect(err?.code).toBe('validation_error');
    expect(err?.options.errors?.map((e) => e.field)).toContain('feature_flags.require_approval');
    expect((await failure(hierarchy.updateTeamConfig('platform', {}, 'dev')))?.message).toBe(
      'node platform is not a team',
    );
  });

  it('holds a team change as a change request when require_approval is on, and applies it on approval', async () => {
    await hierarchy.updateNodeConfig(
      'platform',
      { feature_flags: { require_approval: true }, approval: { approvers: ['lead@example.com'] } },
      'admin',
    );
    const out = await hierarchy.updateTeamConfig(
      'payments',
      { feature_flags: { enable_auto_mitigation: true } },
      'dev@example.com',
    );
    if (!('change_request' in out)) throw new Error('expected a change request');
    expect(out.change_request).toMatchObject({
      team_id: 'payments',
      status: 'pending_approval',
      approvers: ['lead@example.com'],
    });
    expect((await hierarchy.getEffective('payments')).config['feature_flags']).not.toHaveProperty(
      'enable_auto_mitigation',
    );
    const done = await hierarchy.changeRequests.approve(
      out.change_request.change_request_id,
      'lead@example.com',
    );
    expect(done.applied_version).toBe(1);
    expect((await hierarchy.getEffective('payments')).config['feature_flags']).toMatchObject({
      enable_auto_mitigation: true,
    });
    const audit = await hierarchy.listAudit('payments', { limit: 10, offset: 0 }, true);
    expect(audit.history[0]).toMatchObject({
      node_id: 'payments',
      changed_by: 'dev@example.com',
      approved_by: 'lead@example.com',
    });
  });
});
