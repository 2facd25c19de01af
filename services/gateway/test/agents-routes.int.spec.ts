/**
 * REST tests of /agents/*: the gateway app in-process in front of the real investigation-runner
 * (real gRPC, real SQLite, in-process queue), whose peers are small gRPC doubles on loopback.
 */
import { InProcessEventBus } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import { tempDir, waitFor } from '@inquest/testing';
// The REST contract of the runner can only be tested against the real service.
import { start as startRunner, type RunningService } from '../../investigation-runner/src/main';
import { k8sTools, startPeerDoubles, untilAborted, type PeerDoubles } from '../../investigation-runner/test/peer-doubles';
import { agentsRoutes } from '../src/routes/agents.routes';
import { createTestGateway, type TestGateway } from './support/test-gateway';

let peers: PeerDoubles;
let runner: RunningService;
let gw: TestGateway;
let bus: InProcessEventBus;
let tokenA: string;
let tokenB: string;
const dataDir = tempDir();

const call = (token: string, method: string, path: string, body?: unknown) =>
  gw.request(method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });
const runBody = (over: Record<string, unknown> = {}) => ({
  agent_name: 'k8s_agent',
  message: 'checkout pods keep restarting',
  context: { namespace: 'shop', service: 'checkout', environment: 'prod', severity: 'high' },
  ...over,
});

beforeAll(async () => {
  peers = await startPeerDoubles();
  peers.tools = k8sTools();
  bus = new InProcessEventBus();
  runner = await startRunner(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_CONFIG_ADDR: peers.configAddr,
      INQUEST_TOOLS_ADDR: peers.toolsAddr,
      INQUEST_KNOWLEDGE_ADDR: peers.knowledgeAddr,
      INQUEST_DATA_DIR: dataDir,
      INQUEST_LOG_LEVEL: 'silent',
    },
    { bus, logger: silentLogger() },
  );
  gw = await createTestGateway({ routes: agentsRoutes, addresses: { investigation: runner.address }, bus, rateLimited: false });
  tokenA = gw.config!.issue('team-a', ['read']).token;
  tokenB = gw.config!.issue('team-b', ['read', 'write']).token;
});

afterAll(async () => {
  await gw?.stop();
  await runner?.stop();
  await peers?.stop();
  await bus?.close();
});

beforeEach(() => {
  peers.tools = k8sTools();
  peers.configs.clear();
});

describe('POST /agents/run', () => {
  it('sync: 200 with the result', async () => {
    const res = await call(tokenA, 'POST', '/agents/run', runBody());
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'duration_seconds', 'investigation_id', 'result', 'status', 'tools_used']);
    expect(res.body.status).toBe('completed');
    expect(Object.keys(res.body.result).sort()).toEqual(['affected_systems', 'recommendations', 'root_cause', 'summary', 'timeline']);
    expect(res.body.result.root_cause.confidence).toBeGreaterThan(50);
    expect(res.body.tools_used).toContain('k8s:list_pods');
    expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('sync past the agent timeout: 200 with status failed and error timeout', async () => {
    peers.configs.set('team-a', { agents: { k8s_agent: { timeout: 1 } } });
    peers.tools[0]!.handler = (_p, ctx) => untilAborted(ctx.signal);
    const res = await call(tokenA, 'POST', '/agents/run', runBody());
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.error.code).toBe('timeout');
    expect(res.body.result).toBeUndefined();
  });

  it('async: 202 with poll_url, then status bodies until completed', async () => {
    const res = await call(tokenA, 'POST', '/agents/run', runBody({ async: true }));
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'investigation_id', 'poll_url', 'status']);
    expect(res.body.status).toBe('running');
    expect(res.body.poll_url).toBe(`/api/v1/agents/status/${res.body.investigation_id}`);
    const done = await waitFor(async () => {
      const s = await gw.request('GET', res.body.poll_url, { token: tokenA });
      return s.body.status === 'completed' ? s : undefined;
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ investigation_id: res.body.investigation_id, agent: 'k8s_agent', message: 'checkout pods keep restarting' });
    for (const k of ['result', 'tools_used', 'started_at', 'completed_at', 'duration_seconds']) expect(done.body).toHaveProperty(k);
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
      peers.configs.set('team-b', { agents: { coding_agent: { enabled: false } } });
      const res = await call(tokenB, 'POST', '/agents/run', runBody({ agent_name: 'coding_agent' }));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/disabled/) });
      expect((await call(tokenB, 'GET', '/agents/investigations')).body.pagination.total).toBe(0);
    });

    it('no token: 401', async () => {
      const res = await gw.request('POST', '/api/v1/agents/run', { body: runBody() });
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
    peers.tools[0]!.handler = (_p, ctx) => untilAborted(ctx.signal);
    const res = await call(tokenA, 'POST', '/agents/run', runBody({ async: true }));
    const id = res.body.investigation_id as string;
    const running = await waitFor(async () => {
      const s = await call(tokenA, 'GET', `/agents/status/${id}`);
      return s.body.status === 'running' && s.body.progress?.steps_total > 0 ? s : undefined;
    });
    expect(Object.keys(running.body.progress).sort()).toEqual(['current_step', 'steps_completed', 'steps_total']);
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
    for (let i = 0; i < 3; i++) await call(tokenB, 'POST', '/agents/run', runBody({ agent_name: 'investigation_agent' }));
    await call(tokenB, 'POST', '/agents/run', runBody());
    const page = await call(tokenB, 'GET', '/agents/investigations?limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ total: 4, limit: 2, offset: 1 });
    expect(page.body.investigations).toHaveLength(2);
    expect(Object.keys(page.body.investigations[0]).sort()).toEqual(['agent', 'created_at', 'investigation_id', 'message', 'status']);
    const byAgent = await call(tokenB, 'GET', '/agents/investigations?agent=k8s_agent');
    expect(byAgent.body.pagination.total).toBe(1);
    expect(byAgent.body.pagination.limit).toBe(20);
    const byStatus = await call(tokenB, 'GET', '/agents/investigations?status=completed');
    expect(byStatus.body.pagination.total).toBe(4);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'status=done', 'agent=bogus']) {
      const bad = await call(tokenB, 'GET', `/agents/investigations?${q}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
    }
  });
});
