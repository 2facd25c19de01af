/**
 * Issue 16 item 1 end to end: a team may use only its own secrets. The real gateway,
 * config-hierarchy (SQLite) and toolserver-proxy (secrets file), and a tool server that records
 * the credentials it receives. A reference to another team's secret is refused when saved, and
 * one stored before the rule (written straight into the store) is refused when resolved.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eventEnvelope, InProcessEventBus, Subjects } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import { openSqliteConfigStores } from '@inquest/store';
import { freePort, tempDir, gatewayRequest, type GatewayRequestOptions } from '@inquest/testing';
import { start as startConfigService } from '@inquest/config-hierarchy-service';
import { start as startGateway } from '@inquest/gateway-service';
import { start as startToolProxy } from '@inquest/toolserver-proxy-service';

const KEYS = { a: 'key-of-team-a-1f2e', b: 'key-of-team-b-9c8d', org: 'key-of-the-org-77aa' };

type Running = { stop(): Promise<void> };
let gw: Awaited<ReturnType<typeof startGateway>>;
const running: Running[] = [];
let bus: InProcessEventBus;
let tools: Server;
let toolsUrl: string;
/** every X-Api-Key the tool server received */
const received: string[] = [];
const adminToken = `admin.${randomBytes(24).toString('base64url')}`;
const dataDir = tempDir();
const tokens: Record<string, string> = {};

const request = (method: string, path: string, o?: GatewayRequestOptions) =>
  gatewayRequest(gw.url, method, path, o);
const admin = (method: string, path: string, body?: unknown) =>
  request(method, `/api/v1${path}`, { token: adminToken, ...(body === undefined ? {} : { body }) });
const as = (teamId: string, method: string, path: string, body?: unknown) =>
  request(method, `/api/v1${path}`, {
    token: tokens[teamId]!,
    ...(body === undefined ? {} : { body }),
  });

const server = (name: string, key: string) => ({
  name,
  url: toolsUrl,
  timeout: 5,
  auth: { type: 'api_key', header: 'X-Api-Key', key },
});

beforeAll(async () => {
  tools = createServer((req, res) => {
    const key = req.headers['x-api-key'];
    if (typeof key === 'string') received.push(key);
    res.setHeader('content-type', 'application/json');
    if (req.url === '/tools')
      res.end(
        JSON.stringify([{ name: 'echo', description: 'echo', parameters: { type: 'object' } }]),
      );
    else res.end(JSON.stringify({ status: 'ok' }));
  });
  await new Promise<void>((r) => tools.listen(0, '127.0.0.1', r));
  toolsUrl = `http://127.0.0.1:${(tools.address() as AddressInfo).port}`;
  writeFileSync(
    join(dataDir, 'secrets.json'),
    JSON.stringify({
      'inquest/team-a/toolkey': KEYS.a,
      'inquest/team-b/toolkey': KEYS.b,
      'inquest/sacme/toolkey': KEYS.org,
    }),
    { mode: 0o600 },
  );

  bus = new InProcessEventBus();
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
  gw = await startGateway(
    {
      PORT: '0',
      INQUEST_HTTP_HOST: '127.0.0.1',
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_ADMIN_TOKEN: adminToken,
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_TOOLS_ADDR: proxy.address,
      INQUEST_RATE_LIMITS: 'read=100000,write=100000,trigger=100000',
    },
    { bus, logger: silentLogger() },
  );
  for (const [node_id, parent_id, kind] of [
    ['sacme', null, 'org'],
    ['team-a', 'sacme', 'team'],
    ['team-b', 'sacme', 'team'],
  ] as const) {
    expect(
      (await admin('POST', '/admin/nodes', { node_id, parent_id, kind, name: node_id })).status,
    ).toBe(201);
  }
  for (const t of ['team-a', 'team-b']) {
    const issued = await admin('POST', `/admin/nodes/${t}/tokens`, {
      permissions: ['read', 'write'],
      owner: `${t}@example.com`,
    });
    tokens[t] = issued.body.token as string;
  }
});

afterAll(async () => {
  await gw?.stop();
  for (const r of running.reverse()) await r.stop();
  await new Promise((r) => tools?.close(r));
  await bus?.close();
});

describe('a team uses only its own secrets', () => {
  it("refuses team B's key in team A's config when saved: 400 naming the field", async () => {
    const res = await as('team-a', 'PUT', '/config/me', {
      mcp_servers: [server('own', 'vault://inquest/team-b/toolkey')],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual({
      field: 'mcp_servers.0.auth.key',
      error: expect.stringMatching(/^vault reference must be under inquest\/team-a\//),
    });
  });

  it('sends a team its own key, and an inherited entry the key of the node that set it', async () => {
    expect(
      (
        await as('team-a', 'PUT', '/config/me', {
          mcp_servers: [server('own', 'vault://inquest/team-a/toolkey')],
        })
      ).status,
    ).toBe(200);
    const before = received.length;
    expect((await as('team-a', 'GET', '/tools')).status).toBe(200);
    expect(received.slice(before)).toContain(KEYS.a);

    expect(
      (
        await admin('PUT', '/admin/nodes/sacme/config', {
          mcp_servers: [server('shared', 'vault://inquest/sacme/toolkey')],
        })
      ).status,
    ).toBe(200);
    expect((await as('team-b', 'PUT', '/config/me', { mcp_servers: ['shared'] })).status).toBe(200);
    const mark = received.length;
    expect((await as('team-b', 'GET', '/tools')).status).toBe(200);
    expect(received.slice(mark)).toContain(KEYS.org);
  });

  it("never sends team B's key for a reference stored before the rule", async () => {
    // Written straight into the store, as a reference saved before the rule would be.
    const stores = openSqliteConfigStores(join(dataDir, 'config.db'));
    try {
      const cur = await stores.nodes.getConfig('team-a');
      const ok = await stores.nodes.writeConfig({
        node_id: 'team-a',
        expected_version: cur?.version ?? 0,
        config: { mcp_servers: [server('stolen', 'vault://inquest/team-b/toolkey')] },
        audit: {
          changed_at: new Date().toISOString(),
          changed_by: 'legacy',
          diff: {},
          full_config: {},
        },
      });
      expect(ok).toBe(true);
    } finally {
      await stores.close();
    }
    // what a change on another replica announces: caches drop the old config
    await bus.publish(Subjects.configChanged, {
      ...eventEnvelope('team-a'),
      node_id: 'team-a',
      version: 99,
      changed_fields: ['mcp_servers'],
      changed_by: 'other-replica',
    });
    const mark = received.length;
    const res = await as('team-a', 'GET', '/tools');
    expect(res.status).toBe(200);
    const stolen = res.body.servers.find((s: { name: string }) => s.name === 'stolen');
    expect(stolen).toBeDefined();
    expect(stolen.tools).toEqual([]);
    expect(JSON.stringify(stolen)).toContain('credentials could not be resolved (forbidden)');
    expect(received.slice(mark)).not.toContain(KEYS.b);
    expect(received).not.toContain(KEYS.b);
  });
});
