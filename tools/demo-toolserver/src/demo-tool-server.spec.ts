import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDemoToolServer, type RunningDemoToolServer } from './demo-tool-server';
import { SCENARIOS } from './environment';

async function call(
  base: string,
  tool: string,
  parameters: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}/tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ parameters }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('demo tool server', () => {
  let srv: RunningDemoToolServer;
  beforeAll(async () => {
    srv = await startDemoToolServer({ scenario: 'oom-after-deploy' });
  });
  afterAll(() => srv.stop());

  it('serves the tool-server contract', async () => {
    const tools = (await (await fetch(`${srv.url}/tools`)).json()) as Array<Record<string, any>>;
    const names = tools.map((t) => t.name);
    for (const n of [
      'list_pods',
      'describe_pod',
      'get_pod_logs',
      'get_events',
      'get_deployments',
      'rollout_history',
      'get_metrics',
      'cloud_status',
      'list_alarms',
      'recent_commits',
      'diff_commit',
      'search_logs',
      'http_check',
      'restart_deployment',
    ]) {
      expect(names).toContain(n);
    }
    for (const t of tools) {
      expect(t.parameters.type).toBe('object');
      expect(typeof t.description).toBe('string');
    }
    expect(tools.find((t) => t.name === 'restart_deployment')?.annotations.destructiveHint).toBe(
      true,
    );
    expect(tools.find((t) => t.name === 'describe_pod')?.parameters.required).toEqual([
      'namespace',
      'pod',
    ]);
    expect(await (await fetch(`${srv.url}/health`)).json()).toEqual({
      status: 'ok',
      scenario: 'oom-after-deploy',
    });
  });

  it('lets an engine chain list_pods -> describe_pod -> get_pod_logs to the OOM cause', async () => {
    const pods = await call(srv.url, 'list_pods', { namespace: 'shop' });
    expect(pods.status).toBe(200);
    const crashing = pods.body.pods.find((p: any) => p.status === 'CrashLoopBackOff');
    expect(crashing.app).toBe('checkout-api');
    const described = await call(srv.url, 'describe_pod', {
      namespace: 'shop',
      pod: crashing.name,
    });
    expect(described.body.containers[0].last_state.terminated).toMatchObject({
      reason: 'OOMKilled',
      exit_code: 137,
    });
    const logs = await call(srv.url, 'get_pod_logs', { pod: crashing.name, tail_lines: 5 });
    expect(logs.body.lines).toHaveLength(5);
    expect(logs.body.lines.join('\n')).toContain('OutOfMemoryError');
    const history = await call(srv.url, 'rollout_history', {
      namespace: 'shop',
      deployment: 'checkout-api',
    });
    expect(history.body.revisions.at(-1).image).toContain('2.14.0');
    const commits = await call(srv.url, 'recent_commits', { repo: 'acme/checkout-api' });
    const diff = await call(srv.url, 'diff_commit', {
      repo: 'acme/checkout-api',
      sha: commits.body.commits[0].sha.slice(0, 7),
    });
    expect(diff.body.files[0].patch).toContain('max-entries: 2000000');
    const mem = await call(srv.url, 'get_metrics', {
      service: 'checkout-api',
      metric: 'memory',
      minutes: 30,
    });
    expect(mem.body.points).toHaveLength(31);
    expect(mem.body.max).toBeGreaterThan(90);
  });

  it('switches scenario per request (path prefix or header)', async () => {
    const cert = await call(`${srv.url}/scenarios/expired-cert`, 'http_check', {
      url: 'auth-gateway',
    });
    expect(cert.body.tls.error).toContain('expired');
    const disk = await call(
      srv.url,
      'search_logs',
      { query: 'no space left' },
      { 'x-demo-scenario': 'disk-full' },
    );
    expect(disk.body.total).toBeGreaterThan(0);
    const cfg = await call(`${srv.url}/scenarios/bad-config-5xx`, 'get_metrics', {
      service: 'payments-api',
      metric: 'error_rate',
      minutes: 10,
    });
    expect(cfg.body.latest).toBeGreaterThan(20);
    const dep = await call(`${srv.url}/scenarios/dependency-timeout`, 'cloud_status', {});
    expect(dep.body.services.find((s: any) => s.service === 'RDS').status).toBe('degraded');
    const healthy = await call(`${srv.url}/scenarios/healthy`, 'list_alarms', {});
    expect(healthy.body.alarms).toEqual([]);
    expect((await fetch(`${srv.url}/scenarios/nope/tools`)).status).toBe(404);
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(5);
  });

  it('validates input', async () => {
    expect((await call(srv.url, 'list_pods', {})).status).toBe(400);
    expect((await call(srv.url, 'list_pods', { namespace: 'shop', extra: 1 })).status).toBe(400);
    expect((await call(srv.url, 'get_pod_logs', { pod: 'x', tail_lines: 0 })).status).toBe(400);
    expect((await call(srv.url, 'describe_pod', { namespace: 'shop', pod: 'nope' })).status).toBe(
      404,
    );
    expect((await call(srv.url, 'no_such_tool', {})).status).toBe(404);
    const bad = await fetch(`${srv.url}/tools/list_pods`, { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
  });

  it('requires the bearer token when configured', async () => {
    const locked = await startDemoToolServer({ token: 't0k' });
    try {
      expect((await fetch(`${locked.url}/tools`)).status).toBe(401);
      expect(
        (await fetch(`${locked.url}/tools`, { headers: { authorization: 'Bearer t0k' } })).status,
      ).toBe(200);
    } finally {
      await locked.stop();
    }
  });

  it('serves the same tools over MCP Streamable HTTP', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'restart_deployment')?.annotations?.destructiveHint).toBe(
        true,
      );
      const out = await client.callTool({ name: 'list_pods', arguments: { namespace: 'shop' } });
      expect((out.structuredContent as any).pods.length).toBeGreaterThan(0);
      const bad = await client.callTool({ name: 'list_pods', arguments: {} });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
