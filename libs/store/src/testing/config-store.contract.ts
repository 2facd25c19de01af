import type {
  ConfigStores,
  NodeRecord,
  TokenRecord,
  ChangeRequestRecord,
} from '../config/config-store';

export interface ConfigStoresFactory {
  create(): Promise<ConfigStores>;
  cleanup?(): Promise<void>;
}

/** A node record with defaults (a root org unless parent_id is given). */
export function aNodeRecord(overrides: Partial<NodeRecord> & { node_id: string }): NodeRecord {
  return {
    parent_id: null,
    kind: 'org',
    name: overrides.node_id,
    org_id: overrides.node_id,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

const audit = (changed_by = 'dev@example.com') => ({
  changed_at: new Date().toISOString(),
  changed_by,
  diff: { chat_channel: { old: null, new: '#x' } },
  full_config: { chat_channel: '#x' },
});

/**
 * The behaviour every ConfigStores adapter must show. Call inside a describe block (it registers
 * its own beforeEach/afterEach).
 */
export function configStoresContract(factory: ConfigStoresFactory): void {
  let s: ConfigStores;
  beforeEach(async () => {
    s = await factory.create();
  });
  afterEach(async () => {
    await s.close();
    await factory.cleanup?.();
  });

  async function lineage(): Promise<void> {
    await s.nodes.createNode(aNodeRecord({ node_id: 'acme' }));
    await s.nodes.createNode(
      aNodeRecord({ node_id: 'platform', parent_id: 'acme', kind: 'group', org_id: 'acme' }),
    );
    await s.nodes.createNode(
      aNodeRecord({ node_id: 'payments', parent_id: 'platform', kind: 'team', org_id: 'acme' }),
    );
    await s.nodes.createNode(
      aNodeRecord({ node_id: 'checkout', parent_id: 'platform', kind: 'team', org_id: 'acme' }),
    );
  }

  it('creates nodes, rejects duplicates with conflict, lists by parent', async () => {
    await lineage();
    await expect(s.nodes.createNode(aNodeRecord({ node_id: 'acme' }))).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await s.nodes.getNode('payments')).toMatchObject({
      parent_id: 'platform',
      kind: 'team',
      org_id: 'acme',
    });
    expect(await s.nodes.getNode('nope')).toBeUndefined();
    expect((await s.nodes.listNodes({ parent_id: null })).map((n) => n.node_id)).toEqual(['acme']);
    expect((await s.nodes.listNodes({ parent_id: 'platform' })).map((n) => n.node_id)).toEqual([
      'checkout',
      'payments',
    ]);
    expect((await s.nodes.listNodes()).length).toBe(4);
  });

  it('starts every node at version 0 with an empty config', async () => {
    await lineage();
    expect(await s.nodes.getConfig('payments')).toEqual({
      node_id: 'payments',
      config: {},
      version: 0,
    });
    expect(await s.nodes.getConfig('nope')).toBeUndefined();
  });

  it('writes a config only at the expected version, with one audit entry per version', async () => {
    await lineage();
    const cfg = { chat_channel: '#x', 'odd.key': { $weird: [1, { a: null }] } };
    expect(
      await s.nodes.writeConfig({
        node_id: 'payments',
        expected_version: 0,
        config: cfg,
        audit: audit(),
      }),
    ).toBe(true);
    expect(
      await s.nodes.writeConfig({
        node_id: 'payments',
        expected_version: 0,
        config: { x: 1 },
        audit: audit(),
      }),
    ).toBe(false);
    expect(await s.nodes.getConfig('payments')).toEqual({
      node_id: 'payments',
      config: cfg,
      version: 1,
    });
    expect(
      await s.nodes.writeConfig({
        node_id: 'payments',
        expected_version: 1,
        config: { y: 2 },
        audit: { ...audit('req@example.com'), approved_by: 'boss@example.com' },
      }),
    ).toBe(true);
    const { entries: history, total } = await s.nodes.listAudit(['payments'], {
      limit: 10,
      offset: 0,
    });
    expect(total).toBe(2);
    expect(history.map((h) => h.version)).toEqual([2, 1]);
    expect(history[0]).toMatchObject({
      changed_by: 'req@example.com',
      approved_by: 'boss@example.com',
      node_id: 'payments',
    });
    expect(history[1]?.approved_by).toBeUndefined();
    expect(history[1]?.diff).toEqual({ chat_channel: { old: null, new: '#x' } });
    const page = await s.nodes.listAudit(['payments'], { limit: 1, offset: 1 });
    expect(page.entries.map((h) => h.version)).toEqual([1]);
    expect(page.total).toBe(2);
    expect(await s.nodes.listAudit(['checkout'], { limit: 10, offset: 0 })).toEqual({
      entries: [],
      total: 0,
    });
  });

  it('lists the audit of several nodes together, newest first, one page at a time', async () => {
    await lineage();
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
    const write = (node_id: string, expected_version: number, ms: number) =>
      s.nodes.writeConfig({
        node_id,
        expected_version,
        config: { v: expected_version + 1 },
        audit: { ...audit(), changed_at: at(ms) },
      });
    expect(await write('acme', 0, 1)).toBe(true);
    expect(await write('payments', 0, 2)).toBe(true);
    expect(await write('platform', 0, 3)).toBe(true);
    expect(await write('payments', 1, 4)).toBe(true);
    expect(await write('checkout', 0, 5)).toBe(true);
    const all = await s.nodes.listAudit(['acme', 'platform', 'payments'], { limit: 10, offset: 0 });
    expect(all.total).toBe(4);
    expect(all.entries.map((e) => `${e.node_id}@${e.version}`)).toEqual([
      'payments@2',
      'platform@1',
      'payments@1',
      'acme@1',
    ]);
    const second = await s.nodes.listAudit(['acme', 'platform', 'payments'], {
      limit: 2,
      offset: 2,
    });
    expect(second.entries.map((e) => `${e.node_id}@${e.version}`)).toEqual([
      'payments@1',
      'acme@1',
    ]);
    expect(second.total).toBe(4);
  });

  it('lets exactly one of many racing writers win each version', async () => {
    await lineage();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.nodes.writeConfig({
          node_id: 'checkout',
          expected_version: 0,
          config: { i },
          audit: audit(),
        }),
      ),
    );
    expect(results.filter(Boolean).length).toBe(1);
    expect((await s.nodes.getConfig('checkout'))?.version).toBe(1);
    expect((await s.nodes.listAudit(['checkout'], { limit: 50, offset: 0 })).total).toBe(1);
  });

  it('reads several configs in the order asked', async () => {
    await lineage();
    await s.nodes.writeConfig({
      node_id: 'acme',
      expected_version: 0,
      config: { a: 1 },
      audit: audit(),
    });
    const got = await s.nodes.getConfigs(['payments', 'acme', 'missing']);
    expect(got.map((c) => [c.node_id, c.version])).toEqual([
      ['payments', 0],
      ['acme', 1],
    ]);
  });

  it('stores change requests and moves them only from the expected status', async () => {
    const cr = (id: string, team: string, at: string): ChangeRequestRecord => ({
      change_request_id: id,
      team_id: team,
      status: 'pending_approval',
      requested_by: 'dev@example.com',
      requested_at: at,
      approvers: ['boss@example.com'],
      changes: { 'a.b': { old: null, new: 1 } },
      patch: { a: { b: 1 } },
    });
    await s.changeRequests.create(cr('cr_1', 'payments', '2026-01-01T00:00:00.000Z'));
    await s.changeRequests.create(cr('cr_2', 'payments', '2026-01-02T00:00:00.000Z'));
    await s.changeRequests.create(cr('cr_3', 'checkout', '2026-01-03T00:00:00.000Z'));
    expect((await s.changeRequests.list()).map((c) => c.change_request_id)).toEqual([
      'cr_3',
      'cr_2',
      'cr_1',
    ]);
    expect(
      (await s.changeRequests.list({ team_id: 'payments' })).map((c) => c.change_request_id),
    ).toEqual(['cr_2', 'cr_1']);
    const approved = await s.changeRequests.transition('cr_1', 'pending_approval', {
      status: 'approved',
      decided_by: 'boss@example.com',
      applied_version: 3,
    });
    expect(approved).toMatchObject({
      status: 'approved',
      decided_by: 'boss@example.com',
      applied_version: 3,
      team_id: 'payments',
    });
    expect(
      await s.changeRequests.transition('cr_1', 'pending_approval', { status: 'rejected' }),
    ).toBeUndefined();
    expect(
      await s.changeRequests.transition('missing', 'pending_approval', { status: 'rejected' }),
    ).toBeUndefined();
    expect((await s.changeRequests.get('cr_1'))?.status).toBe('approved');
    expect(
      (await s.changeRequests.list({ status: 'pending_approval', team_id: 'payments' })).map(
        (c) => c.change_request_id,
      ),
    ).toEqual(['cr_2']);
    expect(await s.changeRequests.get('nope')).toBeUndefined();
  });

  it('decides a change request once when decisions race', async () => {
    await s.changeRequests.create({
      change_request_id: 'cr_race',
      team_id: 't',
      status: 'pending_approval',
      requested_by: 'a@example.com',
      requested_at: new Date().toISOString(),
      approvers: [],
      changes: {},
      patch: {},
    });
    const res = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        s.changeRequests.transition('cr_race', 'pending_approval', {
          status: 'approved',
          decided_by: `u${i}`,
        }),
      ),
    );
    expect(res.filter(Boolean).length).toBe(1);
  });

  it('stores tokens with their hash only, lists by team, revokes once', async () => {
    const tok = (id: string, team: string, created: string): TokenRecord => ({
      token_id: id,
      team_id: team,
      permissions: ['read', 'write'],
      owner: 'dev@example.com',
      label: 'ci',
      created_at: created,
      secret_hash: 'ab'.repeat(32),
    });
    await s.tokens.insert(tok('tok_b', 'payments', '2026-01-02T00:00:00.000Z'));
    await s.tokens.insert(tok('tok_a', 'payments', '2026-01-01T00:00:00.000Z'));
    await s.tokens.insert(tok('tok_c', 'checkout', '2026-01-03T00:00:00.000Z'));
    await expect(
      s.tokens.insert(tok('tok_a', 'x', '2026-01-01T00:00:00.000Z')),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(await s.tokens.get('tok_a')).toEqual(
      tok('tok_a', 'payments', '2026-01-01T00:00:00.000Z'),
    );
    expect((await s.tokens.listByTeam('payments')).map((t) => t.token_id)).toEqual([
      'tok_a',
      'tok_b',
    ]);
    const r1 = await s.tokens.revoke('tok_a', '2026-02-01T00:00:00.000Z');
    expect(r1?.revoked_at).toBe('2026-02-01T00:00:00.000Z');
    const r2 = await s.tokens.revoke('tok_a', '2026-03-01T00:00:00.000Z');
    expect(r2?.revoked_at).toBe('2026-02-01T00:00:00.000Z');
    expect((await s.tokens.get('tok_a'))?.revoked_at).toBe('2026-02-01T00:00:00.000Z');
    expect(await s.tokens.revoke('tok_zzz', '2026-03-01T00:00:00.000Z')).toBeUndefined();
    expect(await s.tokens.get('tok_zzz')).toBeUndefined();
  });
}
