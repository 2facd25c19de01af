import { effectiveConfig } from '@inquest/config-model';
import {
  explainEffective,
  leavesOf,
  levelsFromRaw,
  sideBySide,
  valueAt,
  type ConfigLevel,
} from './merge-explain';

const raw = (configs: Record<string, Record<string, unknown>>) => ({
  lineage: Object.keys(configs),
  configs,
  versions: Object.fromEntries(Object.keys(configs).map((k, i) => [k, i + 1])),
});

/** The effective config as config-hierarchy computes it (the server's own function). */
const serverEffective = (levels: ConfigLevel[]) =>
  effectiveConfig(
    levels.map((l) => l.config),
    { team_node_id: 'team-a', team_name: 'Team A', org_id: 'acme' },
  );

const originOf = (rows: ReturnType<typeof explainEffective>, path: string) => {
  const row = rows.find((r) => r.path === path);
  if (!row) return 'absent';
  return row.origin.kind === 'level' ? row.origin.level.nodeId : row.origin.kind;
};

describe('levelsFromRaw', () => {
  it('names the root org, the last node team, the rest groups, with versions', () => {
    const levels = levelsFromRaw(raw({ acme: {}, platform: {}, infra: {}, 'team-a': {} }));
    expect(levels.map((l) => [l.nodeId, l.kind, l.version])).toEqual([
      ['acme', 'org', 1],
      ['platform', 'group', 2],
      ['infra', 'group', 3],
      ['team-a', 'team', 4],
    ]);
  });

  it('treats a missing own config as empty', () => {
    const levels = levelsFromRaw({ lineage: ['acme', 'team-a'], configs: {} });
    expect(levels.map((l) => l.config)).toEqual([{}, {}]);
    expect(levels[1]!.version).toBe(0);
  });
});

describe('explainEffective', () => {
  it('credits each leaf to the nearest level that sets it; objects merge key by key', () => {
    const levels = levelsFromRaw(
      raw({
        acme: {
          chat_channel: '#ops',
          agents: { planner: { timeout: 300, enabled: true } },
          knowledge_base: { retrieval: { strategy: 'hybrid', top_k: 5 } },
        },
        platform: { agents: { planner: { timeout: 600 } } },
        'team-a': { knowledge_base: { retrieval: { top_k: 8 } } },
      }),
    );
    const rows = explainEffective(levels, { ...serverEffective(levels), version: 7 });
    expect(originOf(rows, 'chat_channel')).toBe('acme');
    expect(originOf(rows, 'agents.planner.timeout')).toBe('platform');
    expect(originOf(rows, 'agents.planner.enabled')).toBe('acme');
    expect(originOf(rows, 'knowledge_base.retrieval.strategy')).toBe('acme');
    expect(originOf(rows, 'knowledge_base.retrieval.top_k')).toBe('team-a');
    expect(rows.find((r) => r.path === 'knowledge_base.retrieval.top_k')!.value).toBe(8);
    // the version is not a config value; identity fields come from the hierarchy
    expect(originOf(rows, 'version')).toBe('absent');
    expect(originOf(rows, 'team_name')).toBe('hierarchy');
  });

  it('arrays are replaced whole, never merged element by element', () => {
    const levels = levelsFromRaw(
      raw({
        acme: { alerts: { disabled: ['a', 'b'] } },
        'team-a': { alerts: { disabled: ['c'] } },
      }),
    );
    const rows = explainEffective(levels, serverEffective(levels));
    expect(rows.filter((r) => r.path.startsWith('alerts'))).toHaveLength(1);
    expect(originOf(rows, 'alerts.disabled')).toBe('team-a');
    const byLevel = rows.find((r) => r.path === 'alerts.disabled')!.byLevel;
    expect(byLevel.map((b) => b.value)).toEqual([['a', 'b'], ['c']]);
  });

  it('a scalar in between drops the earlier object; a later object starts afresh', () => {
    const levels = levelsFromRaw(
      raw({
        acme: { 'x-data': { a: 1, b: 2 } },
        platform: { 'x-data': 5 },
        'team-a': { 'x-data': { c: 3 } },
      }),
    );
    const effective = serverEffective(levels);
    expect(effective['x-data']).toEqual({ c: 3 });
    const rows = explainEffective(levels, effective);
    expect(rows.map((r) => r.path)).toEqual(expect.arrayContaining(['x-data.c']));
    expect(originOf(rows, 'x-data.a')).toBe('absent');
    expect(originOf(rows, 'x-data.c')).toBe('team-a');
  });

  it('explains mcp_servers names by the level whose entry they resolve to (nearest wins)', () => {
    const grafanaOrg = { name: 'grafana', url: 'https://g.acme.test' };
    const grafanaGroup = { name: 'grafana', url: 'https://g.platform.test' };
    const demo = { name: 'demo', url: 'https://demo.test' };
    const levels = levelsFromRaw(
      raw({
        acme: { mcp_servers: [grafanaOrg, demo] },
        platform: { mcp_servers: [grafanaGroup] },
        'team-a': { mcp_servers: ['grafana', 'demo', { name: 'own', url: 'https://own.test' }] },
      }),
    );
    const effective = serverEffective(levels);
    const row = explainEffective(levels, effective).find((r) => r.path === 'mcp_servers')!;
    expect(row.origin).toMatchObject({ kind: 'level', level: { nodeId: 'team-a' } });
    expect(row.servers!.map((s) => [s.name, s.definedAt?.nodeId])).toEqual([
      ['grafana', 'platform'],
      ['demo', 'acme'],
      ['own', 'team-a'],
    ]);
  });

  it('says "unknown" where the effective value matches no level (a change in between)', () => {
    const levels = levelsFromRaw(raw({ acme: { chat_channel: '#ops' }, 'team-a': {} }));
    const rows = explainEffective(levels, { chat_channel: '#new', chat_group_to_ping: 'here' });
    expect(originOf(rows, 'chat_channel')).toBe('unknown');
    expect(originOf(rows, 'chat_group_to_ping')).toBe('unknown');
  });

  it('agrees with the server merge on every leaf of random levels', () => {
    // small deterministic generator: objects, scalars and arrays at the same keys
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const keys = ['a', 'b', 'c'];
    const gen = (depth: number): unknown => {
      const k = rnd(depth > 2 ? 3 : 5);
      if (k === 0) return rnd(10);
      if (k === 1) return [rnd(3)];
      if (k === 2) return `s${rnd(3)}`;
      const o: Record<string, unknown> = {};
      for (const key of keys) if (rnd(2)) o[key] = gen(depth + 1);
      return o;
    };
    for (let i = 0; i < 200; i++) {
      const configs: Record<string, Record<string, unknown>> = {};
      for (const id of ['acme', 'platform', 'team-a']) {
        const o: Record<string, unknown> = {};
        for (const key of keys) if (rnd(2)) o[`x-${key}`] = gen(1);
        configs[id] = o;
      }
      const levels = levelsFromRaw(raw(configs));
      const effective = serverEffective(levels);
      for (const row of explainEffective(levels, effective)) {
        if (row.origin.kind === 'hierarchy') continue;
        expect(row.origin.kind).toBe('level');
        if (row.origin.kind !== 'level') continue;
        // the credited level really holds the effective value at that path
        expect(valueAt(row.origin.level.config, row.path).value).toEqual(row.value);
        // and no later level sets that path
        const at = levels.indexOf(row.origin.level);
        for (const later of levels.slice(at + 1)) {
          expect(valueAt(later.config, row.path).found).toBe(false);
        }
      }
    }
  });
});

describe('sideBySide', () => {
  it('lists every path any level sets, the winner, and paths the merge dropped', () => {
    const levels = levelsFromRaw(
      raw({
        acme: { chat_channel: '#ops', 'x-data': { a: 1 } },
        'team-a': { chat_channel: '#team', 'x-data': 2 },
      }),
    );
    const rows = sideBySide(levels, serverEffective(levels));
    expect(rows.map((r) => [r.path, r.winner?.nodeId, r.effective.found])).toEqual([
      ['chat_channel', 'team-a', true],
      ['x-data', 'team-a', true],
      ['x-data.a', undefined, false],
    ]);
  });
});

describe('leavesOf', () => {
  it('descends objects, keeps arrays and empty objects as leaves', () => {
    expect(leavesOf({ a: { b: 1, c: [1, 2], d: {} }, e: 'x' })).toEqual([
      { path: 'a.b', value: 1 },
      { path: 'a.c', value: [1, 2] },
      { path: 'a.d', value: {} },
      { path: 'e', value: 'x' },
    ]);
    expect(leavesOf({})).toEqual([]);
  });
});
