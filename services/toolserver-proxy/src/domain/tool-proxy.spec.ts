import { type DomainError } from '@inquest/errors';
import { silentLogger } from '@inquest/observability';
import { BreakerOpenError, type CircuitBreakerFactory } from './circuit-breaker';
import type { TeamConfigSource } from './tool-proxy';
import { ToolProxy } from './tool-proxy';
import type { ToolProxyMetrics } from './tool-proxy-metrics';
import type { RawToolDefinition, ToolServerClient } from './tool-server-client';

// A breaker that never opens: the pool's own spec covers breaking.
const passThrough: CircuitBreakerFactory = () => ({
  state: 'closed',
  fire: (fn) => fn(),
  shutdown: () => undefined,
});

const TOOLS: RawToolDefinition[] = [
  {
    name: 'get_pods',
    description: 'Lists pods',
    parameters: {
      type: 'object',
      properties: { namespace: { type: 'string' } },
      required: ['namespace'],
    },
  },
  { name: 'restart_deployment', description: 'Restarts a deployment' },
  { name: 'big_output' },
  { name: 'scalar' },
  { name: 'bad schema', parameters: {} },
  { name: 'wrong', parameters: { type: 'array' } },
];

function world(config: Record<string, unknown>) {
  const listCalls: string[] = [];
  const toolCalls: Array<[string, Record<string, unknown>]> = [];
  const client = (name: string): ToolServerClient => ({
    listTools: async () => {
      listCalls.push(name);
      if (name === 'down') throw new BreakerOpenError();
      return TOOLS;
    },
    callTool: async (tool, parameters) => {
      toolCalls.push([`${name}:${tool}`, parameters]);
      if (tool === 'big_output') return { output: { text: 'x'.repeat(5000) }, bytes: 5012 };
      if (tool === 'scalar') return { output: 42, bytes: 2 };
      return { output: { ok: true }, bytes: 11 };
    },
    health: async () => 'ok',
    close: async () => undefined,
  });
  let current = config;
  const source: TeamConfigSource & { effectiveCalls: number } = {
    effectiveCalls: 0,
    async getEffective() {
      source.effectiveCalls++;
      return { config: current };
    },
    async getRaw() {
      return {
        lineage: ['org', 'group', 'team-a'],
        configs: { org: {}, group: {}, 'team-a': current },
      };
    },
  };
  const measured: string[] = [];
  const metrics: ToolProxyMetrics = {
    toolCall: (server, outcome) => measured.push(`${server || '-'} ${outcome}`),
    breakerState: () => undefined,
    serverHealth: () => undefined,
  };
  const proxy = new ToolProxy(
    {
      config: source,
      secrets: { resolve: async () => 'secret' },
      clientFactory: (entry) => client(entry.name),
      logger: silentLogger(),
      breakers: passThrough,
      metrics,
    },
    { maxOutputBytes: 1024, listTtlMs: 60_000 },
  );
  return {
    proxy,
    source,
    listCalls,
    toolCalls,
    measured,
    setConfig: (c: Record<string, unknown>) => {
      current = c;
    },
  };
}

const server = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  url: `http://${name}.local`,
  ...extra,
});
const signal = () => new AbortController().signal;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as DomainError,
  );
const call = (
  w: ReturnType<typeof world>,
  tool: string,
  parameters: Record<string, unknown> = {},
) => w.proxy.callTool({ teamId: 'team-a', tool, parameters }, signal());

describe('ToolProxy.listTools', () => {
  it("lists the usable tools of the team's enabled servers and a status per server", async () => {
    const w = world({
      mcp_servers: [
        server('k8s'),
        server('off', { enabled: false }),
        server('down'),
        { name: 'nourl' },
      ],
    });
    const { tools, servers } = await w.proxy.listTools('team-a', false, signal());
    expect(tools.map((t) => t.full_name)).toEqual([
      'k8s:big_output',
      'k8s:get_pods',
      'k8s:restart_deployment',
      'k8s:scalar',
    ]);
    expect(servers.map((s) => [s.name, s.healthy, s.tool_count])).toEqual([
      ['down', false, 0],
      ['k8s', false, 4],
      ['nourl', false, 0],
    ]);
    const byName = Object.fromEntries(servers.map((s) => [s.name, s]));
    expect(byName['k8s']?.last_error).toMatch(/^unusable tools: bad schema: .*; wrong: parameters/);
    expect(byName['down']?.last_error).toMatch(/circuit open/);
    expect(byName['nourl']?.last_error).toMatch(/url must be absolute/);
    expect(w.listCalls.sort()).toEqual(['down', 'k8s']);
  });

  it('reuses the team and its listings until refresh is asked for', async () => {
    const w = world({ mcp_servers: [server('k8s')] });
    await w.proxy.listTools('team-a', false, signal());
    await w.proxy.listTools('team-a', false, signal());
    await call(w, 'k8s:get_pods', { namespace: 'shop' });
    expect([w.source.effectiveCalls, w.listCalls.length]).toEqual([1, 1]);
    await w.proxy.listTools('team-a', true, signal());
    expect([w.source.effectiveCalls, w.listCalls.length]).toEqual([2, 2]);
  });

  it('forgets a team when its config or an ancestor in its lineage changes', async () => {
    // a string reference makes the proxy read the raw configs, and with them the lineage
    const w = world({ mcp_servers: ['k8s', server('k8s')] });
    await w.proxy.listTools('team-a', false, signal());
    w.setConfig({ mcp_servers: [server('prom')] });
    w.proxy.invalidateTeam('other-team', 'unrelated-node');
    await new Promise((r) => setImmediate(r));
    expect((await w.proxy.listTools('team-a', false, signal())).tools[0]?.server).toBe('k8s');
    w.proxy.invalidateTeam('other-team', 'group');
    await new Promise((r) => setImmediate(r));
    expect((await w.proxy.listTools('team-a', false, signal())).tools[0]?.server).toBe('prom');
  });
});

describe('ToolProxy.callTool', () => {
  it('calls a read-only tool with valid parameters and measures it', async () => {
    const w = world({ mcp_servers: [server('k8s')] });
    const res = await call(w, 'k8s:get_pods', { namespace: 'shop' });
    expect(res).toMatchObject({ output: { ok: true }, truncated: false, output_bytes: 11 });
    expect(w.toolCalls).toEqual([['k8s:get_pods', { namespace: 'shop' }]]);
    expect(w.measured).toEqual(['k8s ok']);
  });

  it.each([
    ['not-a-tool-name', 'invalid_request'],
    ['nowhere:get_pods', 'not_found'],
    ['k8s:nothing', 'not_found'],
    ['k8s:wrong', 'invalid_request'],
    ['nourl:x', 'data_source_unavailable'],
    ['k8s:get_pods', 'validation_error'],
  ])('refuses %s with %s before reaching the server', async (tool, code) => {
    const w = world({ mcp_servers: [server('k8s'), { name: 'nourl' }] });
    expect((await failure(call(w, tool)))?.code).toBe(code);
    expect(w.toolCalls).toEqual([]);
    expect(w.measured).toEqual([`${tool.includes(':') ? tool.split(':')[0] : '-'} ${code}`]);
  });

  it('runs a tool that changes systems only with enable_write_actions', async () => {
    const off = world({ mcp_servers: [server('k8s')] });
    expect((await failure(call(off, 'k8s:restart_deployment')))?.code).toBe(
      'write_actions_disabled',
    );
    const on = world({
      mcp_servers: [server('k8s')],
      feature_flags: { enable_write_actions: true },
    });
    await expect(call(on, 'k8s:restart_deployment')).resolves.toMatchObject({
      output: { ok: true },
    });
  });

  it('never runs a tool that changes systems for an investigation, whatever the flags', async () => {
    const on = world({
      mcp_servers: [server('k8s')],
      feature_flags: { enable_write_actions: true, enable_auto_mitigation: true },
    });
    const refused = await failure(
      on.proxy.callTool(
        {
          teamId: 'team-a',
          investigationId: 'inv_1',
          tool: 'k8s:restart_deployment',
          parameters: {},
        },
        signal(),
      ),
    );
    expect(refused?.code).toBe('write_actions_disabled');
    expect(on.toolCalls).toEqual([]);
  });

  it('truncates an output above maxOutputBytes and wraps a non-object answer', async () => {
    const w = world({ mcp_servers: [server('k8s')] });
    const big = await call(w, 'k8s:big_output');
    expect(big.truncated).toBe(true);
    expect(big.output_bytes).toBe(5012);
    expect(Buffer.byteLength(JSON.stringify(big.output))).toBeLessThanOrEqual(1024);
    expect(String(big.output['_inquest_truncated'])).toMatch(/5012 bytes exceeded the 1024-byte/);
    expect((await call(w, 'k8s:scalar')).output).toEqual({ value: 42 });
  });
});

describe('ToolProxy.serverHealth', () => {
  it('polls each enabled server and lists configuration problems as unhealthy', async () => {
    const w = world({ mcp_servers: [server('k8s'), { name: 'nourl' }] });
    const out = await w.proxy.serverHealth('team-a', signal());
    expect(out.map((s) => [s.name, s.healthy, s.breaker_state])).toEqual([
      ['k8s', true, 'closed'],
      ['nourl', false, 'closed'],
    ]);
    expect(out[0]?.checked_at).toBeTruthy();
    await w.proxy.close();
  });
});
