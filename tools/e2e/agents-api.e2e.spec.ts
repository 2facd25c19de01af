/**
 * REST tests of /agents/*: the real gateway (start()) in front of the real investigation-runner
 * (start(): real gRPC, real SQLite, in-process queue), sharing one in-process event bus as in
 * all-in-one mode. The runner's peers (config-hierarchy, toolserver-proxy, knowledge-raptor) are
 * the shared gRPC doubles of @inquest/testing; the config double also verifies the team tokens.
 */
import { randomBytes } from 'node:crypto';
import { InProcessEventBus } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import {
  k8sTools,
  startConfigServiceDouble,
  startKnowledgeServiceDouble,
  startToolServiceDouble,
  tempDir,
  untilAborted,
  waitFor,
  type ConfigServiceDouble,
  type KnowledgeServiceDouble,
  type ToolServiceDouble,
  gatewayRequest,
  type GatewayRequestOptions,
} from '@inquest/testing';
import { start as startGateway } from '@inquest/gateway-service';
import { start as startRunner } from '@inquest/investigation-runner-service';

let config: ConfigServiceDouble;
let toolServer: ToolServiceDouble;
let knowledge: KnowledgeServiceDouble;
let runner: Awaited<ReturnType<typeof startRunner>>;
let gw: Awaited<ReturnType<typeof startGateway>>;
let bus: InProcessEventBus;
let tokenA: string;
let tokenB: string;
const dataDir = tempDir();
const adminToken = `admin.${randomBytes(24).toString('base64url')}`;

const request = (method: string, path: string, o?: GatewayRequestOptions) =>
  gatewayRequest(gw.url, method, path, o);
const call = (token: string, method: string, path: string, body?: unknown) =>
  request(method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });
const runBody = (over: Record<string, unknown> = {}) => ({
  agent_name: 'k8s_agent',
  message: 'checkout pods keep restarting',
  context: { namespace: 'shop', service: 'checkout', environment: 'prod', severity: 'high' },
  ...over,
});

beforeAll(async () => {
  // the runner reads agent settings from the effective config; teams without one use the defaults
  config = await startConfigServiceDouble({ unknownTeam: 'empty' });
  toolServer = await startToolServiceDouble({ tools: k8sTools() });
  knowledge = await startKnowledgeServiceDouble();
  bus = new InProcessEventBus();
  runner = await startRunner(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_TOOLS_ADDR: toolServer.address,
      INQUEST_KNOWLEDGE_ADDR: knowledge.address,
      INQUEST_DATA_DIR: dataDir,
      INQUEST_LOG_LEVEL: 'silent',
    },
    { bus, logger: silentLogger() },
  );
  gw = await startGateway(
    {
      PORT: '0',
      INQUEST_HTTP_HOST: '127.0.0.1',
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_ADMIN_TOKEN: adminToken,
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_INVESTIGATION_ADDR: runner.address,
      // rate limits are not what these tests are about
      INQUEST_RATE_LIMITS: 'read=100000,write=100000,trigger=100000',
    },
    { bus, logger: silentLogger() },
  );
  tokenA = config.issue('team-a', ['read']).token;
  tokenB = config.issue('team-b', ['read', 'write']).token;
});

afterAll(async () => {
  await gw?.stop();
  await runner?.stop();
  await Promise.all([config?.stop(), toolServer?.stop(), knowledge?.stop()]);
  await bus?.close();
});

beforeEach(() => {
  toolServer.tools = k8sTools();
  config.effective.clear();
});

describe('POST /agents/run', () => {
  it('sync: 200 with the result', async () => {
    const res = await call(tokenA, 'POST', '/agents/run', runBody());
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'created_at',
      'duration_seconds',
      'investigation_id',
      'result',
      'status',
      'tools_used',
    ]);
    expect(res.body.status).toBe('completed');
    expect(Object.keys(res.body.result).sort()).toEqual([
      'affected_systems',
      'recommendations',
      'root_cause',
      'summary',
      'timeline',
    ]);
    expect(res.body.result.root_cause.confidence).toBeGreaterThan(50);
    expect(res.body.tools_used).toContain('k8s:list_pods');
    expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('sync past the agent timeout: 200 with status failed and error timeout', async () => {
    config.effective.set('team-a', { agents: { k8s_agent: { timeout: 1 } } });
    toolServer.tools[0]!.handler = (_p, ctx) => untilAborted(ctx.signal);
    const res = await call(tokenA, 'POST', '/agents/run', runBody());
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.error.code).toBe('timeout');
    expect(res.body.result).toBeUndefined();
  });

  it('async: 202 with poll_url, then status bodies until completed', async () => {
    const res = await call(tokenA, 'POST', '/agents/run', runBody({ async: true }));
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual([
      'created_at',
      'investigation_id',
      'poll_url',
      'status',
    ]);
    expect(res.body.status).toBe('running');
    expect(res.body.poll_url).toBe(`/api/v1/agents/status/${res.body.investigation_id}`);
    const done = await waitFor(async () => {
      const s = await request('GET', res.body.poll_url, { token: tokenA });
      return s.body.status === 'completed' ? s : undefined;
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      investigation_id: res.body.investigation_id,
      agent: 'k8s_agent',
      message: 'checkout pods keep restarting',
    });
    for (const k of ['result', 'tools_used', 'started_at', 'completed_at', 'duration_seconds'])
      expect(done.body).toHaveProperty(k);
    expect(done.body.progress).toBeUndefined();
    expect(done.body.error).toBeUndefined();
  });

  describe('bad input: a clear 400 and nothing created', () => {
    const cases: [string, unknown][] = [
      ['missing agent_name', { message: 'x' }],
      ['unknown agent', runBody({ agent_name: 'sre_agent' })],
      ['agent_name not a string', runBody({ agent_name: 5 })],
      ['missing message', { agent_name: 'k8s_agent' }],
      ['empty message', runBody({ message: '' })],
      ['blank message', runBody({ message: '   ' })],
      ['100 KB message', runBody({ message: 'a'.repeat(100 * 1024) })],
      ['context not an object', runBody({ context: 'prod' })],
      ['context.service a number', runBody({ context: { service: 42 } })],
      ['unknown environment', runBody({ context: { environment: 'production' } })],
      ['unknown severity', runBody({ context: { severity: 'critical' } })],
      ['async a string', runBody({ async: 'true' })],
      ['async a number', runBody({ async: 1 })],
      ['body an array', [runBody()]],
    ];
    it.each(cases)('%s', async (_label, body) => {
      const res = await call(tokenB, 'POST', '/agents/run', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(typeof res.body.error.message).toBe('string');
      const list = await call(tokenB, 'GET', '/agents/investigations');
      expect(list.body.pagination.total).toBe(0);
    });

    it('a disabled agent', async () => {
      config.effective.set('team-b', { agents: { coding_agent: { enabled: false } } });
      const res = await call(
        tokenB,
        'POST',
        '/agents/run',
        runBody({ agent_name: 'coding_agent' }),
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/disabled/),
      });
      expect((await call(tokenB, 'GET', '/agents/investigations')).body.pagination.total).toBe(0);
    });

    it("coding_agent disabled through the spec's agent-config name code_fix_agent", async () => {
      config.effective.set('team-b', { agents: { code_fix_agent: { enabled: false } } });
      const res = await call(
        tokenB,
        'POST',
        '/agents/run',
        runBody({ agent_name: 'coding_agent' }),
      );
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/disabled/);
      config.effective.delete('team-b');
    });

    it('no token: 401', async () => {
      const res = await request('POST', '/api/v1/agents/run', { body: runBody() });
      expect(res.status).toBe(401);
    });
  });
});

describe('status, list, cancel', () => {
  it('unknown ids and other teams: 404', async () => {
    const mine = await call(tokenA, 'POST', '/agents/run', runBody());
    const id = mine.body.investigation_id as string;
    expect((await call(tokenA, 'GET', '/agents/status/inv_unknown')).status).toBe(404);
    const other = await call(tokenB, 'GET', `/agents/status/${id}`);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
    expect((await call(tokenB, 'POST', `/agents/status/${id}/cancel`)).status).toBe(404);
    expect((await call(tokenA, 'POST', '/agents/status/inv_unknown/cancel')).status).toBe(404);
    const terminal = await call(tokenA, 'POST', `/agents/status/${id}/cancel`);
    expect(terminal.status).toBe(409);
    expect(terminal.body.error.code).toBe('conflict');
  });

  it('running shows progress; cancel answers 200 and the status turns cancelled', async () => {
    toolServer.tools[0]!.handler = (_p, ctx) => untilAborted(ctx.signal);
    const res = await call(tokenA, 'POST', '/agents/run', runBody({ async: true }));
    const id = res.body.investigation_id as string;
    const running = await waitFor(async () => {
      const s = await call(tokenA, 'GET', `/agents/status/${id}`);
      return s.body.status === 'running' && s.body.progress?.steps_total > 0 ? s : undefined;
    });
    expect(Object.keys(running.body.progress).sort()).toEqual([
      'current_step',
      'steps_completed',
      'steps_total',
    ]);
    expect(running.body.started_at).toBeDefined();
    expect(running.body.elapsed_seconds).toBeGreaterThanOrEqual(0);
    expect(running.body.result).toBeUndefined();
    const c = await call(tokenA, 'POST', `/agents/status/${id}/cancel`);
    expect(c.status).toBe(200);
    expect(Object.keys(c.body).sort()).toEqual(['cancelled_at', 'investigation_id', 'status']);
    expect(c.body.status).toBe('cancelled');
    const s = await call(tokenA, 'GET', `/agents/status/${id}`);
    expect(s.body).toMatchObject({ status: 'cancelled', cancelled_at: c.body.cancelled_at });
    expect(s.body.started_at).toBeDefined();
    expect(s.body.progress).toBeUndefined();
    expect((await call(tokenA, 'POST', `/agents/status/${id}/cancel`)).status).toBe(409);
  });

  it('lists with limit/offset/status/agent and validates the query', async () => {
    for (let i = 0; i < 3; i++)
      await call(tokenB, 'POST', '/agents/run', runBody({ agent_name: 'investigation_agent' }));
    await call(tokenB, 'POST', '/agents/run', runBody());
    const page = await call(tokenB, 'GET', '/agents/investigations?limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ total: 4, limit: 2, offset: 1 });
    expect(page.body.investigations).toHaveLength(2);
    // the spec's fields, plus the extension's service, root cause and confidence (completed)
    expect(Object.keys(page.body.investigations[0]).sort()).toEqual([
      'agent',
      'confidence',
      'created_at',
      'investigation_id',
      'message',
      'root_cause',
      'service',
      'status',
    ]);
    const row = page.body.investigations[0];
    const full = await call(tokenB, 'GET', `/agents/status/${row.investigation_id}`);
    expect(row.service).toBe('checkout');
    expect(row.root_cause).toBe(full.body.result.root_cause.description);
    expect(row.confidence).toBe(full.body.result.root_cause.confidence);
    const byAgent = await call(tokenB, 'GET', '/agents/investigations?agent=k8s_agent');
    expect(byAgent.body.pagination.total).toBe(1);
    expect(byAgent.body.pagination.limit).toBe(20);
    const byStatus = await call(tokenB, 'GET', '/agents/investigations?status=completed');
    expect(byStatus.body.pagination.total).toBe(4);
    for (const q of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'offset=-1',
      'status=done',
      'agent=bogus',
    ]) {
      const bad = await call(tokenB, 'GET', `/agents/investigations?${q}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
      // the message names the parameter and what it takes
      expect(bad.body.error.message).toMatch(
        new RegExp(`^${q.split('=')[0]}: ${q.split('=')[0]} must`),
      );
    }
  });
});
