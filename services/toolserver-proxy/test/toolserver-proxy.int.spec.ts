import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { eventEnvelope, InProcessEventBus, Subjects } from '@inquest/events';
import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import { toolsV1 } from '@inquest/proto';
import {
  freePort,
  startConfigServiceDouble,
  tempDir,
  waitFor,
  type ConfigServiceDouble,
} from '@inquest/testing';
import { startDemoToolServer } from '@inquest/tool-demo-toolserver';
import { start, type RunningService } from '../src/main';
import { capturingLogger, startBadServers, type BadServers } from './proxy-fixtures';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const SECRET = 'demo-bearer-0f3c9a77';
const B_KEY = 'team-b-toolkey-5e1d';

async function errOf(
  p: Promise<unknown>,
): Promise<{ code: string; message: string; kind: string; errors?: unknown }> {
  try {
    await p;
  } catch (err) {
    const e = err as {
      code: string;
      message: string;
      kind: string;
      options?: { errors?: unknown };
    };
    return { code: e.code, message: e.message, kind: e.kind, errors: e.options?.errors };
  }
  throw new Error('expected the call to fail');
}

describe('toolserver-proxy (gRPC in, tool servers out)', () => {
  const bus = new InProcessEventBus();
  const log = capturingLogger();
  let config: ConfigServiceDouble;
  let demo: Awaited<ReturnType<typeof startDemoToolServer>>;
  let bad: BadServers;
  let proxy: RunningService;
  let client: PromiseClient<toolsV1.ToolServiceClient>;
  const dir = tempDir();

  const setTeam = (team: string, effective: Obj, raw?: { lineage: string[]; configs: Obj }) => {
    config.effective.set(team, effective);
    if (raw) config.raw.set(team, raw);
    else config.raw.delete(team);
  };
  const list = (team: string, refresh = false) => client.listTools({ team_id: team, refresh });
  const call = (team: string, tool: string, parameters: Obj = {}, investigation_id?: string) =>
    client.callTool({
      team_id: team,
      tool,
      parameters,
      ...(investigation_id ? { investigation_id } : {}),
    });

  beforeAll(async () => {
    writeFileSync(
      join(dir, 'secrets.json'),
      JSON.stringify({
        'inquest/group/toolserver': SECRET,
        'inquest/team-demo/toolserver': SECRET,
        'inquest/team-mcp/toolserver': SECRET,
        'inquest/team-apikey/apikey': { key: 'k-123' },
        'inquest/acme/toolkey': 'k-123',
        'inquest/team-b/toolkey': B_KEY,
      }),
    );
    config = await startConfigServiceDouble();
    demo = await startDemoToolServer({ token: SECRET });
    bad = await startBadServers();
    proxy = await start(
      {
        INQUEST_GRPC_PORT: String(await freePort()),
        INQUEST_CONFIG_ADDR: config.address,
        INQUEST_EGRESS_ALLOW: '127.0.0.0/8,::1',
        INQUEST_DATA_DIR: dir,
        INQUEST_TOOLS_DEFAULT_TIMEOUT_MS: '1500',
        INQUEST_TOOLS_MAX_RESPONSE_BYTES: String(1024 * 1024),
        INQUEST_TOOLS_MAX_OUTPUT_BYTES: String(32 * 1024),
        INQUEST_TOOLS_MAX_CONCURRENCY: '2',
        INQUEST_TOOLS_BREAKER_VOLUME: '3',
        INQUEST_TOOLS_BREAKER_RESET_MS: '700',
        INQUEST_TOOLS_HEALTH_INTERVAL_MS: '600000',
      },
      { bus, logger: log.logger },
    );
    client = createClient(toolsV1.ToolServiceClient, proxy.address, {
      deadlineMs: 10_000,
      retries: 0,
    });
  });

  afterAll(async () => {
    client.close();
    await proxy.stop();
    await Promise.all([demo.stop(), bad.stop(), config.stop()]);
    await bus.close();
  });

  // the token lives under the prefix of the node whose config holds the entry
  const demoEntry = (owner: string) => ({
    name: 'k8s',
    url: demo.url,
    auth: { type: 'bearer', token: `vault://inquest/${owner}/toolserver` },
  });

  it('resolves string references to ancestor entries (nearest wins) and skips disabled servers', async () => {
    setTeam(
      'team-refs',
      { mcp_servers: ['k8s', 'legacy', { name: 'off', url: `${bad.url}/ok`, enabled: false }] },
      {
        lineage: ['org', 'group', 'team-refs'],
        configs: {
          org: {
            mcp_servers: [
              { name: 'k8s', url: 'http://203.0.113.1:9' },
              { name: 'legacy', url: `${bad.url}/ok`, enabled: false },
            ],
          },
          group: { mcp_servers: [demoEntry('group')] },
          'team-refs': { mcp_servers: ['k8s', 'legacy'] },
        },
      },
    );
    const res = await list('team-refs');
    expect(res.servers.map((s) => s.name)).toEqual(['k8s']);
    expect(res.servers[0]).toMatchObject({ healthy: true, breaker_state: 'closed', url: demo.url });
    const names = res.tools.map((t) => t.full_name);
    expect(names).toEqual(
      expect.arrayContaining([
        'k8s:list_pods',
        'k8s:describe_pod',
        'k8s:get_pod_logs',
        'k8s:restart_deployment',
      ]),
    );
    const restart = res.tools.find((t) => t.name === 'restart_deployment');
    expect(restart?.annotations).toMatchObject({ destructiveHint: true });
    expect(config.calls).toContainEqual({ method: 'getRawConfig', teamId: 'team-refs' });
  });

  it('chains list_pods -> describe_pod -> get_pod_logs through the proxy with bearer auth from the secrets file', async () => {
    setTeam('team-demo', { mcp_servers: [demoEntry('team-demo')] });
    const pods = await call('team-demo', 'k8s:list_pods', { namespace: 'shop' }, 'inv_123');
    const crashing = (pods.output as Obj).pods.find((p: Obj) => p.status === 'CrashLoopBackOff');
    expect(crashing).toBeDefined();
    expect(pods.truncated).toBe(false);
    expect(pods.output_bytes).toBeGreaterThan(50);
    const described = await call('team-demo', 'k8s:describe_pod', {
      namespace: 'shop',
      pod: crashing.name,
    });
    expect((described.output as Obj).containers[0].last_state.terminated.reason).toBe('OOMKilled');
    const logs = await call('team-demo', 'k8s:get_pod_logs', { pod: crashing.name, tail_lines: 3 });
    expect((logs.output as Obj).lines).toHaveLength(3);

    const audit = log.lines().filter((l) => l.audit === 'tool_call' && l.team_id === 'team-demo');
    expect(audit[0]).toMatchObject({
      investigation_id: 'inv_123',
      tool: 'k8s:list_pods',
      server: 'k8s',
      outcome: 'ok',
    });
    expect(typeof audit[0]?.duration_ms).toBe('number');
    expect(typeof audit[0]?.output_bytes).toBe('number');
    // never secrets, never full outputs
    expect(log.text()).not.toContain(SECRET);
    expect(log.text()).not.toContain('OutOfMemoryError');
  });

  it('sends an api_key header resolved from a vault reference', async () => {
    setTeam('team-apikey', {
      mcp_servers: [
        {
          name: 'keyed',
          url: `${bad.url}/apikey`,
          auth: {
            type: 'api_key',
            header: 'X-Api-Key',
            key: 'vault://inquest/team-apikey/apikey#key',
          },
        },
      ],
    });
    const res = await call('team-apikey', 'keyed:echo', { n: 1 });
    expect(res.output).toEqual({ ok: true });
    expect(bad.stats.lastHeaders['x-api-key']).toBe('k-123');
    setTeam('team-nosecret', {
      mcp_servers: [
        {
          name: 'keyed2',
          url: `${bad.url}/apikey`,
          auth: {
            type: 'api_key',
            header: 'X-Api-Key',
            key: 'vault://inquest/team-nosecret/missing',
          },
        },
      ],
    });
    const e = await errOf(call('team-nosecret', 'keyed2:echo', { n: 1 }));
    expect(e.code).toBe('data_source_unavailable');
    expect(e.message).toContain('credentials could not be resolved');
  });

  it("never sends another team's secret: a reference outside the node scope is refused at resolution", async () => {
    const server = (name: string, key: string) => ({
      name,
      url: `${bad.url}/apikey`,
      auth: { type: 'api_key', header: 'X-Api-Key', key },
    });
    const before = bad.stats.apiKeys.length;
    // Saved before the rule (config-hierarchy refuses it now): team A names team B's key.
    setTeam('team-a', { mcp_servers: [server('stolen', 'vault://inquest/team-b/toolkey')] });
    const e = await errOf(call('team-a', 'stolen:echo', { n: 1 }));
    expect(e.code).toBe('data_source_unavailable');
    expect(e.message).toContain('credentials could not be resolved (forbidden)');
    // A scope naming the wrong owner's prefixes cannot widen it either: the scope is team A's.
    config.secretScopes.set('team-a', {
      'mcp_servers.0.auth.key': { owner_node_id: 'team-a', prefixes: ['inquest/team-a/'] },
    });
    await client.listTools({ team_id: 'team-a', refresh: true }).catch(() => undefined);
    expect((await errOf(call('team-a', 'stolen:echo', { n: 1 }))).code).toBe(
      'data_source_unavailable',
    );
    expect(bad.stats.apiKeys.slice(before)).not.toContain(B_KEY);
    expect(log.text()).not.toContain(B_KEY);
    // An inherited entry resolves under the node that set it (the org), not the team.
    setTeam('team-inherits', {
      mcp_servers: [server('org-keyed', 'vault://inquest/acme/toolkey')],
    });
    config.secretScopes.set('team-inherits', {
      'mcp_servers.0.auth.key': { owner_node_id: 'acme', prefixes: ['inquest/acme/'] },
    });
    expect((await call('team-inherits', 'org-keyed:echo', { n: 1 })).output).toEqual({ ok: true });
    expect(bad.stats.lastHeaders['x-api-key']).toBe('k-123');
  });

  it('validates parameters against the tool schema before calling (the server is not called)', async () => {
    setTeam('team-val', { mcp_servers: [{ name: 'val', url: `${bad.url}/ok` }] });
    const before = bad.stats.calls['ok:echo'] ?? 0;
    const missing = await errOf(call('team-val', 'val:echo', {}));
    expect(missing.code).toBe('validation_error');
    expect(missing.message).toContain('parameters.n');
    const wrongType = await errOf(call('team-val', 'val:echo', { n: 'x' }));
    expect(wrongType.code).toBe('validation_error');
    const extra = await errOf(call('team-val', 'val:echo', { n: 1, evil: true }));
    expect(extra.code).toBe('validation_error');
    expect(bad.stats.calls['ok:echo'] ?? 0).toBe(before);
    const ok = await call('team-val', 'val:echo', { n: 2, s: 'hi' });
    expect(ok.output).toEqual({ echoed: { n: 2, s: 'hi' } });
    expect(bad.stats.calls['ok:echo']).toBe(before + 1);
    // non-object answers are wrapped
    expect((await call('team-val', 'val:scalar')).output).toEqual({ value: 'just a string' });
  });

  it('rejects bad tool names from callers and unknown tools/servers', async () => {
    setTeam('team-names', { mcp_servers: [{ name: 'ok1', url: `${bad.url}/ok` }] });
    for (const tool of [
      'ok1:../etc',
      'ok1:a/b',
      'ok1:has space',
      'noserver',
      ':x',
      'ok1:',
      '../x:echo',
    ]) {
      expect((await errOf(call('team-names', tool))).code).toBe('invalid_request');
    }
    expect((await errOf(call('team-names', 'ok1:nope'))).code).toBe('not_found');
    expect((await errOf(call('team-names', 'other:echo'))).code).toBe('not_found');
    expect((await errOf(call('unknown-team', 'ok1:echo'))).code).toBe('not_found');
  });

  it('drops tool definitions with bad names or invalid schemas, keeps the rest', async () => {
    setTeam('team-badtools', { mcp_servers: [{ name: 'bt', url: `${bad.url}/badtools` }] });
    const res = await list('team-badtools');
    expect(res.tools.map((t) => t.full_name)).toEqual(['bt:ok_tool']);
    expect(res.servers[0]?.last_error).toContain('bad_schema');
    expect((await errOf(call('team-badtools', 'bt:bad_schema'))).message).toContain(
      'invalid parameter schema',
    );
    expect((await call('team-badtools', 'bt:ok_tool', { n: 1 })).output).toEqual({ ok: true });
  });

  it('refuses destructive tools unless enable_write_actions, and refreshes on inquest.v1.config.changed', async () => {
    setTeam('team-write', {
      mcp_servers: [{ name: 'w', url: `${bad.url}/ok` }],
      feature_flags: { enable_write_actions: false },
    });
    const refused = await errOf(call('team-write', 'w:wipe'));
    expect(refused).toMatchObject({ kind: 'forbidden', code: 'write_actions_disabled' });
    expect(bad.stats.calls['ok:wipe']).toBeUndefined();
    setTeam('team-write', {
      mcp_servers: [{ name: 'w', url: `${bad.url}/ok` }],
      feature_flags: { enable_write_actions: true },
    });
    // still cached
    expect((await errOf(call('team-write', 'w:wipe'))).code).toBe('write_actions_disabled');
    await bus.publish(Subjects.configChanged, {
      ...eventEnvelope('team-write'),
      node_id: 'team-write',
      version: 2,
      changed_fields: ['feature_flags.enable_write_actions'],
      changed_by: 't',
    });
    await waitFor(async () => (await call('team-write', 'w:wipe')).output?.wiped === true);
  });

  it('caches listings with a TTL; refresh=true refetches; a group change drops teams below it', async () => {
    // a string reference makes the proxy load the lineage
    setTeam(
      'team-cache',
      { mcp_servers: ['c'] },
      {
        lineage: ['org-c', 'grp-c', 'team-cache'],
        configs: { 'grp-c': { mcp_servers: [{ name: 'c', url: `${bad.url}/ok` }] } },
      },
    );
    const before = bad.stats.lists.ok ?? 0;
    await list('team-cache');
    await list('team-cache');
    await call('team-cache', 'c:echo', { n: 1 });
    expect(bad.stats.lists.ok).toBe(before + 1);
    await list('team-cache', true);
    expect(bad.stats.lists.ok).toBe(before + 2);
    await bus.publish(Subjects.configChanged, {
      ...eventEnvelope('grp-c'),
      node_id: 'grp-c',
      version: 3,
      changed_fields: ['mcp_servers'],
      changed_by: 'admin',
    });
    await new Promise((r) => setTimeout(r, 50));
    await list('team-cache');
    expect(bad.stats.lists.ok).toBe(before + 3);
  });

  it('isolates misbehaving servers: garbage, wrong shapes, huge bodies, slowloris, 500s, TLS errors, closed ports, redirects', async () => {
    const closed = await freePort();
    setTeam('team-bad', {
      mcp_servers: [
        { name: 'garbage', url: `${bad.url}/garbage` },
        { name: 'shape', url: `${bad.url}/shape` },
        { name: 'huge', url: `${bad.url}/huge` },
        { name: 'slow', url: `${bad.url}/slow`, timeout: 1 },
        { name: 'err500', url: `${bad.url}/err500` },
        { name: 'tls', url: bad.url.replace('http://', 'https://') + '/ok' },
        { name: 'closed', url: `http://127.0.0.1:${closed}` },
        { name: 'redirect', url: `${bad.url}/redirect` },
        { name: 'good', url: `${bad.url}/ok` },
      ],
    });
    const t0 = Date.now();
    const res = await list('team-bad');
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(res.tools.every((t) => t.server === 'good')).toBe(true);
    expect(res.tools.length).toBeGreaterThan(0);
    const byName = Object.fromEntries(res.servers.map((s) => [s.name, s]));
    expect(byName.good?.healthy).toBe(true);
    const expectations: Record<string, RegExp> = {
      garbage: /not JSON/,
      shape: /array of tool definitions/,
      huge: /exceeds/,
      slow: /no complete answer within 1000 ms/,
      err500: /answered 500: internal boom/,
      tls: /cannot connect|failed/,
      closed: /cannot connect/,
      redirect: /redirect/,
    };
    for (const [name, re] of Object.entries(expectations)) {
      expect(byName[name]?.healthy).toBe(false);
      expect(byName[name]?.last_error).toMatch(re);
    }
    const e = await errOf(call('team-bad', 'err500:anything'));
    expect(e.code).toBe('data_source_unavailable');
    const slow = await errOf(call('team-bad', 'slow:anything'));
    expect(slow.code).toBe('timeout');
    // the proxy is still fine
    expect((await call('team-bad', 'good:echo', { n: 3 })).output).toEqual({ echoed: { n: 3 } });
  });

  it('refuses loopback tool servers when the egress allow list does not include them', async () => {
    const strict = await start({
      INQUEST_GRPC_PORT: '0',
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_DATA_DIR: dir,
      INQUEST_LOG_LEVEL: 'silent',
    });
    const c = createClient(toolsV1.ToolServiceClient, strict.address, { retries: 0 });
    try {
      setTeam('team-strict', {
        mcp_servers: [
          { name: 'local', url: `${bad.url}/ok` },
          { name: 'meta', url: 'http://169.254.169.254/latest' },
        ],
      });
      const res = await c.listTools({ team_id: 'team-strict', refresh: false });
      expect(res.tools).toEqual([]);
      for (const s of res.servers) expect(s.last_error).toMatch(/not allowed/);
      expect(
        (
          await errOf(
            c.callTool({ team_id: 'team-strict', tool: 'local:echo', parameters: { n: 1 } }),
          )
        ).code,
      ).toBe('data_source_unavailable');
    } finally {
      c.close();
      await strict.stop();
    }
  });

  it('opens the breaker after repeated failures, refuses fast, half-opens later and closes on success', async () => {
    bad.flaky.failing = true;
    setTeam('team-flaky', { mcp_servers: [{ name: 'flaky', url: `${bad.url}/flaky` }] });
    for (let i = 0; i < 3; i++)
      expect(
        (
          await errOf(
            list('team-flaky', true).then((r) => {
              if (r.servers[0]?.healthy === false)
                throw Object.assign(new Error(r.servers[0].last_error), { code: 'unhealthy' });
            }),
          )
        ).code,
      ).toBe('unhealthy');
    const seen = bad.stats.lists.flaky ?? 0;
    const open = await list('team-flaky', true);
    expect(open.servers[0]?.breaker_state).toBe('open');
    expect(open.servers[0]?.last_error).toMatch(/circuit open/);
    expect(bad.stats.lists.flaky).toBe(seen); // refused without calling the server
    const health = await client.getServerHealth({ team_id: 'team-flaky' });
    expect(health.servers[0]?.breaker_state).toBe('open');
    expect(health.servers[0]?.healthy).toBe(false);
    await new Promise((r) => setTimeout(r, 800));
    expect(
      (await client.getServerHealth({ team_id: 'team-flaky' })).servers[0]?.breaker_state,
    ).toBe('half_open');
    bad.flaky.failing = false;
    const back = await list('team-flaky', true);
    expect(back.servers[0]).toMatchObject({
      breaker_state: 'closed',
      healthy: true,
      tool_count: 1,
    });
    expect((await call('team-flaky', 'flaky:echo', { n: 1 })).output).toEqual({ ok: true });
  });

  it('does not count rejected calls (4xx) against the server', async () => {
    setTeam('team-4xx', { mcp_servers: [{ name: 'rej', url: `${bad.url}/ok` }] });
    // listed, but the server answers 404 for it: the call was wrong, the server is fine
    for (let i = 0; i < 6; i++) {
      const e = await errOf(call('team-4xx', 'rej:reject'));
      expect(e.code).toBe('not_found');
      expect(e.message).toContain('unknown tool reject');
    }
    expect(bad.stats.calls['ok:reject']).toBe(6);
    const h = await client.getServerHealth({ team_id: 'team-4xx' });
    expect(h.servers[0]?.breaker_state).toBe('closed');
  });

  it('truncates large outputs with a marker', async () => {
    setTeam('team-big', { mcp_servers: [{ name: 'big', url: `${bad.url}/ok` }] });
    const res = await call('team-big', 'big:big');
    expect(res.truncated).toBe(true);
    expect(res.output_bytes).toBeGreaterThan(32 * 1024);
    expect(Buffer.byteLength(JSON.stringify(res.output))).toBeLessThanOrEqual(32 * 1024);
    expect(String((res.output as Obj)._inquest_truncated)).toContain('truncated');
    expect(Array.isArray((res.output as Obj).items)).toBe(true);
  });

  it('limits concurrency per server', async () => {
    setTeam('team-conc', { mcp_servers: [{ name: 'conc', url: `${bad.url}/ok` }] });
    bad.stats.maxInFlight = 0;
    await Promise.all(Array.from({ length: 6 }, () => call('team-conc', 'conc:slowish')));
    expect(bad.stats.maxInFlight).toBe(2);
  });

  it('aborts the in-flight HTTP call when the caller cancels', async () => {
    setTeam('team-cancel', { mcp_servers: [{ name: 'hang', url: `${bad.url}/ok`, timeout: 20 }] });
    await list('team-cancel');
    const closedBefore = bad.stats.hangClosed;
    const ac = new AbortController();
    const p = client.callTool(
      { team_id: 'team-cancel', tool: 'hang:hang', parameters: {} },
      { signal: ac.signal },
    );
    await waitFor(() => (bad.stats.calls['ok:hang'] ?? 0) > 0);
    ac.abort();
    // the caller's own cancellation, not a timeout or an answer of the tool
    await expect(p).rejects.toMatchObject({ cause: { code: GrpcStatus.CANCELLED } });
    await waitFor(() => bad.stats.hangClosed > closedBefore, 3_000);
  });

  it('speaks MCP over Streamable HTTP behind the same guard, validation and write gate', async () => {
    setTeam('team-mcp', {
      mcp_servers: [
        {
          name: 'mcpk8s',
          url: `${demo.url}/mcp`,
          transport: 'mcp',
          auth: { type: 'bearer', token: 'vault://inquest/team-mcp/toolserver' },
        },
      ],
    });
    const res = await list('team-mcp');
    expect(res.servers[0]).toMatchObject({ name: 'mcpk8s', healthy: true });
    expect(res.tools.map((t) => t.full_name)).toContain('mcpk8s:list_pods');
    const pods = await call('team-mcp', 'mcpk8s:list_pods', { namespace: 'shop' });
    expect((pods.output as Obj).pods.length).toBeGreaterThan(0);
    expect((await errOf(call('team-mcp', 'mcpk8s:list_pods', {}))).code).toBe('validation_error');
    expect(
      (
        await errOf(
          call('team-mcp', 'mcpk8s:restart_deployment', {
            namespace: 'shop',
            deployment: 'checkout-api',
          }),
        )
      ).code,
    ).toBe('write_actions_disabled');
    const notFoundPod = await errOf(
      call('team-mcp', 'mcpk8s:describe_pod', { namespace: 'shop', pod: 'nope' }),
    );
    expect(notFoundPod.message).toContain('not found');
    // a tool's error answer does not fail the calls in flight beside it on the same session
    const listPods = () => call('team-mcp', 'mcpk8s:list_pods', { namespace: 'shop' });
    const mixed = await Promise.allSettled([
      ...Array.from({ length: 8 }, listPods),
      call('team-mcp', 'mcpk8s:describe_pod', { namespace: 'shop', pod: 'nope' }),
      ...Array.from({ length: 8 }, listPods),
    ]);
    expect(mixed.filter((r) => r.status === 'rejected')).toHaveLength(1);
    const health = await client.getServerHealth({ team_id: 'team-mcp' });
    expect(health.servers[0]?.healthy).toBe(true);
  });

  /** A stateless MCP server on loopback whose tools answer through `call(name)`. */
  async function mcpServer(
    tools: string[],
    answer: (name: string) => Promise<{ content: { type: 'text'; text: string }[] }>,
  ): Promise<{ url: string; close: () => Promise<void> }> {
    const http = createServer((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const server = new McpServer(
          { name: 'scripted', version: '0.0.0' },
          { capabilities: { tools: {} } },
        );
        server.setRequestHandler(ListToolsRequestSchema, async () => ({
          tools: tools.map((name) => ({
            name,
            description: name,
            inputSchema: { type: 'object' },
          })),
        }));
        server.setRequestHandler(CallToolRequestSchema, (r) => answer(r.params.name));
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        res.on('close', () => void transport.close().then(() => server.close()));
        void server
          .connect(transport)
          .then(() =>
            transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString())),
          );
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
      close: async () => {
        http.closeAllConnections();
        await new Promise((r) => http.close(r));
      },
    };
  }
  const slowOk = async () => {
    await new Promise((r) => setTimeout(r, 300));
    return { content: [{ type: 'text' as const, text: '{"ok":true}' }] };
  };

  it('keeps an MCP session when a caller cancels its call: the other calls in flight finish', async () => {
    const server = await mcpServer(['slow'], slowOk);
    try {
      setTeam('team-mcp-cancel', {
        mcp_servers: [{ name: 'slow', url: server.url, transport: 'mcp' }],
      });
      await list('team-mcp-cancel');
      const other = call('team-mcp-cancel', 'slow:slow');
      const ac = new AbortController();
      const cancelled = client.callTool(
        { team_id: 'team-mcp-cancel', tool: 'slow:slow', parameters: {} },
        { signal: ac.signal },
      );
      await new Promise((r) => setTimeout(r, 100));
      ac.abort();
      await expect(cancelled).rejects.toMatchObject({ cause: { code: GrpcStatus.CANCELLED } });
      await expect(other).resolves.toMatchObject({ output: { ok: true } });
    } finally {
      await server.close();
    }
  });

  it('keeps an MCP session when a server answers a call with a JSON-RPC error: the calls beside it finish', async () => {
    // a low-level MCP server reports a failed command as a protocol error, not a tool result
    let slowCalls = 0;
    const server = await mcpServer(['slow', 'fails'], async (name) => {
      if (name === 'slow') slowCalls++;
      if (name === 'fails')
        throw new McpError(ErrorCode.InternalError, 'Command failed: kubectl get certificate');
      return slowOk();
    });
    try {
      setTeam('team-mcp-rpc-error', {
        mcp_servers: [{ name: 'k', url: server.url, transport: 'mcp' }],
      });
      await list('team-mcp-rpc-error');
      const others = Array.from({ length: 4 }, () => call('team-mcp-rpc-error', 'k:slow'));
      await new Promise((r) => setTimeout(r, 50));
      const failed = await errOf(call('team-mcp-rpc-error', 'k:fails'));
      expect(failed.message).toContain('Command failed: kubectl get certificate');
      for (const o of others) await expect(o).resolves.toMatchObject({ output: { ok: true } });
      // each answered once: none failed with "Connection closed" and was sent again
      expect(slowCalls).toBe(4);
      // the server answered: it is healthy, and the next call works on the same session
      await expect(call('team-mcp-rpc-error', 'k:slow')).resolves.toMatchObject({
        output: { ok: true },
      });
    } finally {
      await server.close();
    }
  });

  it('reports health of each server (GET /health polled)', async () => {
    setTeam('team-health', {
      mcp_servers: [
        { name: 'h-ok', url: `${bad.url}/ok` },
        { name: 'h-bad', url: `${bad.url}/err500` },
      ],
    });
    const h = await client.getServerHealth({ team_id: 'team-health' });
    const byName = Object.fromEntries(h.servers.map((s) => [s.name, s]));
    expect(byName['h-ok']).toMatchObject({ healthy: true });
    expect(byName['h-ok']?.checked_at).toBeDefined();
    expect(byName['h-bad']).toMatchObject({ healthy: false });
  });
});
