import { TeamToolConfigs, type TeamConfigSource } from './team-tools';

function aSource(configs: Record<string, Record<string, unknown>>) {
  const calls: string[] = [];
  let failNext = false;
  const source: TeamConfigSource = {
    async getEffective(teamId) {
      calls.push(`effective ${teamId}`);
      if (failNext) {
        failNext = false;
        throw new Error('config-hierarchy down');
      }
      return { config: configs[teamId] ?? {} };
    },
    async getRaw(teamId) {
      calls.push(`raw ${teamId}`);
      return {
        lineage: ['acme', 'platform', teamId],
        configs: {
          acme: { mcp_servers: [{ name: 'shared', url: 'http://shared.local' }] },
          platform: {},
          [teamId]: configs[teamId] ?? {},
        },
      };
    },
  };
  return { source, calls, failOnce: () => (failNext = true) };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('TeamToolConfigs', () => {
  it("resolves the team's enabled servers, problems and write-action flag", async () => {
    const { source, calls } = aSource({
      payments: {
        mcp_servers: [
          { name: 'k8s', url: 'http://k8s.local/' },
          { name: 'off', url: 'http://off.local', enabled: false },
          { name: 'broken', url: 'ftp://x' },
        ],
        feature_flags: { enable_write_actions: true },
      },
    });
    const team = await new TeamToolConfigs(source, 60_000).get('payments');
    expect(team.servers.map((s) => [s.name, s.url])).toEqual([['k8s', 'http://k8s.local']]);
    expect(team.problems).toEqual([
      { name: 'broken', url: 'ftp://x', error: 'server broken: url must be absolute http(s)' },
    ]);
    expect(team.writeActions).toBe(true);
    // no string reference: the raw configs are not needed, nor read
    expect(calls).toEqual(['effective payments']);
    expect(team.lineage).toEqual([]);
  });

  it('reads the raw configs to follow a reference to an ancestor, and keeps the lineage', async () => {
    const { source, calls } = aSource({ payments: { mcp_servers: ['shared'] } });
    const team = await new TeamToolConfigs(source, 60_000).get('payments');
    expect(team.servers.map((s) => s.name)).toEqual(['shared']);
    expect(team.lineage).toEqual(['acme', 'platform', 'payments']);
    expect(calls).toEqual(['effective payments', 'raw payments']);
  });

  it('shares one load between callers and reuses it until the TTL or a refresh', async () => {
    const { source, calls } = aSource({ payments: {} });
    const teams = new TeamToolConfigs(source, 60_000);
    const [a, b] = await Promise.all([teams.get('payments'), teams.get('payments')]);
    expect(a).toBe(b);
    expect(await teams.get('payments')).toBe(a);
    expect(calls).toHaveLength(1);
    expect(await teams.get('payments', true)).not.toBe(a);
    expect(calls).toHaveLength(2);
    const expired = new TeamToolConfigs(source, -1);
    const first = await expired.get('payments');
    expect(await expired.get('payments')).not.toBe(first);
  });

  it('does not keep a failed load', async () => {
    const { source, failOnce } = aSource({ payments: {} });
    const teams = new TeamToolConfigs(source, 60_000);
    failOnce();
    await expect(teams.get('payments')).rejects.toThrow('config-hierarchy down');
    await tick();
    await expect(teams.get('payments')).resolves.toMatchObject({ servers: [] });
  });

  it('forgets a team, and every team below a changed node of its lineage', async () => {
    const { source, calls } = aSource({
      payments: { mcp_servers: ['shared'] },
      search: { mcp_servers: ['shared'] },
      solo: {},
    });
    const teams = new TeamToolConfigs(source, 60_000);
    await Promise.all(['payments', 'search', 'solo'].map((t) => teams.get(t)));
    const loads = () => calls.filter((c) => c.startsWith('effective')).length;
    expect(loads()).toBe(3);
    teams.invalidateTeam('solo');
    await teams.get('solo');
    expect(loads()).toBe(4);
    // a change of the group "platform" reaches both teams below it, not the others
    teams.invalidateTeam('platform', 'platform');
    await tick();
    await Promise.all(['payments', 'search', 'solo'].map((t) => teams.get(t)));
    expect(loads()).toBe(6);
    teams.invalidateAll();
    await teams.get('solo');
    expect(loads()).toBe(7);
  });
});
