/**
 * REST conformance of the tool points of issue 18: tool names checked against the server's
 * listing at save time (5) and GET /tools (6). The real gateway, config-hierarchy and
 * toolserver-proxy (gRPC), and the demo tool server, sharing one in-process event bus.
 */
import { randomBytes } from 'node:crypto';
import { InProcessEventBus } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import { freePort, tempDir, gatewayRequest, type GatewayRequestOptions } from '@inquest/testing';
import { start as startConfigService } from '@inquest/config-hierarchy-service';
import { start as startToolProxy } from '@inquest/toolserver-proxy-service';
import { startDemoToolServer } from '@inquest/tool-demo-toolserver';
import { hierarchyAdmin, startTestGateway, type RunningGateway } from './support/hierarchy';

type Running = { stop(): Promise<void> };
let gw: RunningGateway;
const running: Running[] = [];
let bus: InProcessEventBus;
let demo: Awaited<ReturnType<typeof startDemoToolServer>>;
const adminToken = `admin.${randomBytes(24).toString('base64url')}`;
const dataDir = tempDir();
let token: string;

const request = (method: string, path: string, o?: GatewayRequestOptions) =>
  gatewayRequest(gw.url, method, path, o);
const admin = (method: string, path: string, body?: unknown) =>
  request(method, `/api/v1${path}`, { token: adminToken, ...(body === undefined ? {} : { body }) });
const team = (method: string, path: string, body?: unknown) =>
  request(method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });

beforeAll(async () => {
  bus = new InProcessEventBus();
  demo = await startDemoToolServer();
  const toolsPort = await freePort();
  const common = { INQUEST_LOG_LEVEL: 'silent', INQUEST_DATA_DIR: dataDir };
  const config = await startConfigService(
    { ...common, INQUEST_GRPC_PORT: '0', INQUEST_TOOLS_ADDR: `127.0.0.1:${toolsPort}` },
    { bus, logger: silentLogger() },
  );
  running.push(config);
  const proxy = await startToolProxy(
    {
      ...common,
      INQUEST_GRPC_PORT: String(toolsPort),
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_EGRESS_ALLOW: '127.0.0.0/8,::1',
    },
    { bus, logger: silentLogger() },
  );
  running.push(proxy);
  gw = await startTestGateway(
    adminToken,
    { INQUEST_CONFIG_ADDR: config.address, INQUEST_TOOLS_ADDR: proxy.address },
    { bus, logger: silentLogger() },
  );
  const hierarchy = hierarchyAdmin(gw.url, adminToken);
  await hierarchy.createNodes([
    ['tacme', null, 'org'],
    ['tteam', 'tacme', 'team'],
  ]);
  const put = await admin('PUT', '/admin/nodes/tacme/config', {
    mcp_servers: [{ name: 'demo', url: demo.url, timeout: 5 }],
  });
  expect(put.status).toBe(200);
  token = await hierarchy.issueToken('tteam', 'tools@example.com');
  expect((await team('PUT', '/config/me', { mcp_servers: ['demo'] })).status).toBe(200);
});

afterAll(async () => {
  await gw?.stop();
  for (const r of running.reverse()) await r.stop();
  await demo?.stop();
  await bus?.close();
});

describe('tool names checked against the server listing (point 5)', () => {
  it('a tool the server does not offer: 400 validation_error naming the path, nothing stored', async () => {
    const before = await team('GET', '/config/me/effective');
    const res = await team('PUT', '/config/me', {
      agents: { k8s_agent: { enable_extra_tools: ['demo:list_pods', 'demo:list_podz'] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual({
      field: 'agents.k8s_agent.enable_extra_tools.1',
      error: 'MCP server "demo" offers no tool "list_podz" (did you mean "demo:list_pods"?)',
    });
    expect((await team('GET', '/config/me/effective')).body).toEqual(before.body);
  });

  it('disable_default_tools is checked the same way', async () => {
    const res = await team('PUT', '/config/me', {
      agents: { planner: { disable_default_tools: ['demo:no_such_tool'] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('agents.planner.disable_default_tools.0');
  });

  it('tools the server offers are accepted without warnings', async () => {
    const res = await team('PUT', '/config/me', {
      agents: { k8s_agent: { enable_extra_tools: ['demo:list_pods', 'knowledge_search'] } },
    });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([]);
  });

  it('a server that cannot be reached at save time: accepted with a warning', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const res = await team('PUT', '/config/me', {
      mcp_servers: ['demo', { name: 'gone', url: down, timeout: 1 }],
    });
    expect(res.status).toBe(200);
    const withTool = await team('PUT', '/config/me', {
      agents: { cloud_agent: { enable_extra_tools: ['gone:whatever'] } },
    });
    expect(withTool.status).toBe(200);
    expect(withTool.body.warnings).toEqual([
      {
        field: 'agents.cloud_agent.enable_extra_tools.0',
        message: expect.stringMatching(
          /^tool "gone:whatever" was not checked .*checked again when an investigation runs$/,
        ),
      },
    ]);
    expect(
      (await team('GET', '/config/me/effective')).body.agents.cloud_agent.enable_extra_tools,
    ).toEqual(['gone:whatever']);
  });
});

describe('GET /tools (point 6)', () => {
  it('lists each enabled server with health, breaker state and tools with marks and agents', async () => {
    const res = await team('GET', '/tools');
    expect(res.status).toBe(200);
    const demoServer = res.body.servers.find((s: { name: string }) => s.name === 'demo');
    expect(demoServer).toMatchObject({
      name: 'demo',
      url: demo.url,
      enabled: true,
      breaker_state: 'closed',
    });
    const byName = new Map(demoServer.tools.map((t: { name: string }) => [t.name, t] as const));
    const listPods = byName.get('demo:list_pods') as Record<string, unknown>;
    expect(listPods).toMatchObject({
      tool: 'list_pods',
      read_only: true,
      destructive: false,
      parameters: { type: 'object' },
    });
    expect(typeof listPods['description']).toBe('string');
    expect(listPods['agents']).toEqual(
      expect.arrayContaining(['planner', 'investigation_agent', 'k8s_agent']),
    );
    expect(listPods['agents']).not.toContain('cloud_agent');
    const restart = byName.get('demo:restart_deployment') as Record<string, unknown>;
    expect(restart).toMatchObject({ read_only: false, destructive: true, agents: [] });
    const gone = res.body.servers.find((s: { name: string }) => s.name === 'gone');
    expect(gone).toMatchObject({ healthy: false, tools: [] });
    expect(res.body.builtin_tools.map((t: { name: string }) => t.name)).toEqual([
      'knowledge_search',
      'similar_incidents',
      'learned_patterns',
    ]);
  });

  it('follows the agent config: a disabled agent gets nothing, extra tools are added', async () => {
    await team('PUT', '/config/me', {
      agents: {
        planner: { enabled: false },
        cloud_agent: { enable_extra_tools: ['demo:list_pods'] },
      },
    });
    const res = await team('GET', '/tools');
    const demoServer = res.body.servers.find((s: { name: string }) => s.name === 'demo');
    const listPods = demoServer.tools.find((t: { name: string }) => t.name === 'demo:list_pods');
    expect(listPods.agents).toContain('cloud_agent');
    expect(listPods.agents).not.toContain('planner');
  });

  it('needs a credential (401) and rejects a bad refresh flag (400)', async () => {
    expect((await request('GET', '/api/v1/tools')).status).toBe(401);
    const bad = await team('GET', '/tools?refresh=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
  });
});
