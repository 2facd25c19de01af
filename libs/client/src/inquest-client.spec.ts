import { InquestClient, isApplied, isInquestError, isPendingApproval } from './index';
import type { InquestError } from './index';
import { scriptRoutes, startScriptedServer } from './testing';
import type { ScriptedServer } from './testing';

const API = '/api/v1';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(routes: Parameters<typeof scriptRoutes>[0]): Promise<ScriptedServer> {
  server = await startScriptedServer(scriptRoutes(routes));
  return server;
}

/** A client whose sleeps are recorded instead of waited, so retry timing is exact and fast. */
function client(url: string, extra: Partial<ConstructorParameters<typeof InquestClient>[0]> = {}) {
  const sleeps: number[] = [];
  const c = new InquestClient({
    baseUrl: url,
    token: 'tok_abc.secret',
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...extra,
  });
  return { c, sleeps };
}

async function caught(p: Promise<unknown>): Promise<InquestError> {
  try {
    await p;
  } catch (err) {
    if (isInquestError(err)) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('InquestClient requests', () => {
  it('sends the bearer token, JSON body and path, and returns the bare body', async () => {
    const s = await serve({
      [`POST ${API}/agents/run`]: {
        status: 202,
        body: {
          investigation_id: 'inv_1',
          status: 'running',
          poll_url: `${API}/agents/status/inv_1`,
          created_at: 'x',
        },
      },
    });
    const { c } = client(s.url);
    const res = await c.agents.run({
      agent_name: 'planner',
      message: 'api 5xx',
      async: true,
      context: { service: 'api' },
    });
    expect(res.poll_url).toBe('/api/v1/agents/status/inv_1');
    const req = s.requests[0]!;
    expect(req.headers.authorization).toBe('Bearer tok_abc.secret');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-inquest-team']).toBeUndefined();
    expect(req.body).toEqual({
      agent_name: 'planner',
      message: 'api 5xx',
      async: true,
      context: { service: 'api' },
    });
  });

  it('accepts a base URL that already ends in /api/v1 and sends X-Inquest-Team for admin calls', async () => {
    const s = await serve({
      [`GET ${API}/config/me/effective`]: { status: 200, body: { team_name: 'Payments' } },
    });
    const { c } = client(`${s.url}/api/v1/`, { token: 'admin.s3cret', team: 'payments' });
    expect(await c.config.effective()).toEqual({ team_name: 'Payments' });
    await c.config.effective({ team: 'other' });
    expect(s.requests.map((r) => r.headers['x-inquest-team'])).toEqual(['payments', 'other']);
  });

  it('encodes path segments and query parameters, skipping undefined ones', async () => {
    const s = await serve({
      [`GET ${API}/agents/investigations`]: {
        status: 200,
        body: { investigations: [], pagination: { total: 0, limit: 5, offset: 0 } },
      },
      [`GET ${API}/agents/status/a%2Fb`]: {
        status: 200,
        body: { investigation_id: 'a/b', status: 'running', agent: 'planner', message: 'm' },
      },
      [`GET ${API}/config/me/audit`]: { status: 200, body: { history: [] } },
    });
    const { c } = client(s.url);
    await c.agents.list({ limit: 5, status: 'failed', agent: undefined });
    await c.agents.status('a/b');
    await c.config.audit({ limit: 3, include_full: false });
    expect(s.requests[0]!.query.toString()).toBe('limit=5&status=failed');
    expect(s.requests[1]!.path).toBe('/api/v1/agents/status/a%2Fb');
    expect(s.requests[2]!.query.toString()).toBe('limit=3&include_full=false');
  });

  it('maps every endpoint to the documented method and path', async () => {
    const seen: string[] = [];
    server = await startScriptedServer((req) => {
      seen.push(`${req.method} ${req.path}${req.query.toString() ? `?${req.query}` : ''}`);
      if (req.method === 'DELETE' || req.path.endsWith('/kb/feedback')) return { status: 204 };
      return { status: 200, body: {} };
    });
    const { c } = client(server.url);
    await c.agents.cancel('i1');
    await c.config.raw();
    await c.config.update({ chat_channel: '#x' });
    await c.config.pending();
    await c.kb.teach({ content: 'c', type: 'runbook' });
    await c.kb.retrieve({ query: 'q' });
    await c.kb.answer({ question: 'q', include_sources: true });
    await expect(c.kb.feedback({ query_id: 'q1', helpful: true })).resolves.toBeUndefined();
    await c.kb.treeStats();
    await c.kb.status('doc_1');
    await c.kb.patterns();
    await c.kb.graph('api');
    await c.kb.uploadDocument({ content: '# x' });
    await c.kb.sources();
    await c.kb.syncSources();
    await c.admin.createNode({ node_id: 'acme', parent_id: null, kind: 'org', name: 'Acme' });
    await c.admin.getNode('acme');
    await c.admin.listNodes({ parent_id: 'acme' });
    await c.admin.updateNodeConfig('acme', { chat_channel: '#a' });
    await c.admin.createToken('pay', { permissions: ['read'], owner: 'a@b.c' });
    await c.admin.listTokens('pay');
    await expect(c.admin.revokeToken('tok_1')).resolves.toBeUndefined();
    await c.admin.listChangeRequests({ status: 'pending_approval' });
    await c.admin.approveChangeRequest('cr_1', { comment: 'ok' });
    await c.admin.rejectChangeRequest('cr_2');
    await c.webhooks.deliveries({ limit: 5, status: 'failed' });
    await c.webhooks.redeliver('dlv_1');
    await c.whoami();
    await c.health();
    await c.openapi();
    expect(seen).toEqual([
      'POST /api/v1/agents/status/i1/cancel',
      'GET /api/v1/config/me/raw',
      'PUT /api/v1/config/me',
      'GET /api/v1/config/me/pending',
      'POST /api/v1/kb/teach',
      'POST /api/v1/kb/retrieve',
      'POST /api/v1/kb/answer',
      'POST /api/v1/kb/feedback',
      'GET /api/v1/kb/tree/stats',
      'GET /api/v1/kb/status?document_id=doc_1',
      'GET /api/v1/kb/patterns',
      'GET /api/v1/kb/graph?entity=api',
      'POST /api/v1/kb/documents',
      'GET /api/v1/kb/sources',
      'POST /api/v1/kb/sources/sync',
      'POST /api/v1/admin/nodes',
      'GET /api/v1/admin/nodes/acme',
      'GET /api/v1/admin/nodes?parent_id=acme',
      'PUT /api/v1/admin/nodes/acme/config',
      'POST /api/v1/admin/nodes/pay/tokens',
      'GET /api/v1/admin/nodes/pay/tokens',
      'DELETE /api/v1/admin/tokens/tok_1',
      'GET /api/v1/admin/change-requests?status=pending_approval',
      'POST /api/v1/admin/change-requests/cr_1/approve',
      'POST /api/v1/admin/change-requests/cr_2/reject',
      'GET /api/v1/webhooks/deliveries?limit=5&status=failed',
      'POST /api/v1/webhooks/deliveries/dlv_1/redeliver',
      'GET /api/v1/whoami',
      'GET /healthz',
      'GET /api/v1/openapi.json',
    ]);
    expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('returns the knowledge sources and their sync outcome, and gives a sync its own timeout', async () => {
    const source = {
      name: 'runbooks',
      kind: 'git',
      url: 'https://git.example/runbooks.git',
      state: 'error',
      last_sync_at: '2026-01-01T00:00:00.000Z',
      last_success_at: null,
      error: 'clone failed',
      documents: 0,
      added: 0,
      updated: 0,
      removed: 0,
      unchanged: 0,
    };
    const s = await serve({
      [`GET ${API}/kb/sources`]: { status: 200, body: { sources: [source] } },
      [`POST ${API}/kb/sources/sync`]: {
        status: 200,
        body: { sources: [{ ...source, state: 'ok', error: null, added: 3, documents: 3 }] },
        delayMs: 150,
      },
    });
    const { c } = client(s.url, { timeoutMs: 50 });
    expect(await c.kb.sources()).toEqual({ sources: [source] });
    expect((await caught(c.kb.syncSources())).code).toBe('timeout');
    const synced = await c.kb.syncSources({ timeoutMs: 5_000 });
    expect(synced.sources[0]).toMatchObject({ state: 'ok', added: 3, error: null });
  });

  it('tells applied config updates from pending approvals', () => {
    const applied = {
      message: 'ok',
      version: 3,
      changed_fields: ['a'],
      effective_config: {},
      warnings: [],
    };
    const pending = {
      message: 'p',
      change_request_id: 'cr_1',
      status: 'pending_approval' as const,
      approvers: [],
      changes: {},
      warnings: [],
    };
    expect(isApplied(applied)).toBe(true);
    expect(isPendingApproval(applied)).toBe(false);
    expect(isPendingApproval(pending)).toBe(true);
  });
});

describe('InquestClient errors', () => {
  it('raises typed errors carrying code, message, request_id, field and details', async () => {
    const s = await serve({
      [`PUT ${API}/config/me`]: [
        {
          status: 400,
          body: {
            error: {
              code: 'invalid_field',
              message: 'team_name is immutable',
              request_id: 'r1',
              field: 'team_name',
            },
          },
        },
        {
          status: 400,
          body: {
            error: {
              code: 'validation_error',
              message: 'invalid config',
              request_id: 'r2',
              details: { field: 'agents.planner.timeout', error: 'must be a positive integer' },
              errors: [{ field: 'agents.planner.timeout', error: 'must be a positive integer' }],
            },
          },
        },
        { status: 403, body: { error: { code: 'forbidden', message: 'needs write' } } },
      ],
    });
    const { c, sleeps } = client(s.url);
    const e1 = await caught(c.config.update({ team_name: 'x' }));
    expect(e1).toMatchObject({
      code: 'invalid_field',
      status: 400,
      field: 'team_name',
      requestId: 'r1',
      name: 'InvalidFieldError',
    });
    expect(e1.request_id).toBe('r1');
    expect(e1.message).toBe('team_name is immutable');
    const e2 = await caught(c.config.update({}));
    expect(e2.code).toBe('validation_error');
    expect(e2.details).toEqual({
      field: 'agents.planner.timeout',
      error: 'must be a positive integer',
    });
    expect(e2.errors).toHaveLength(1);
    const e3 = await caught(c.config.update({}));
    expect(e3).toMatchObject({ code: 'forbidden', status: 403, requestId: 'req-3' });
    expect(sleeps).toEqual([]);
    expect(s.requests).toHaveLength(3);
  });

  it('does not retry 4xx other than 429, nor 500', async () => {
    const s = await serve({
      [`GET ${API}/agents/status/x`]: {
        status: 404,
        body: { error: { code: 'not_found', message: 'no such investigation' } },
      },
      [`GET ${API}/kb/tree/stats`]: {
        status: 500,
        body: { error: { code: 'internal', message: 'boom' } },
      },
    });
    const { c } = client(s.url);
    expect((await caught(c.agents.status('x'))).code).toBe('not_found');
    expect((await caught(c.kb.treeStats())).code).toBe('internal');
    expect(s.requests).toHaveLength(2);
  });

  it('gives a useful error for a non-JSON error page and for a refused connection', async () => {
    const s = await serve({
      [`GET ${API}/config/me/raw`]: { status: 418, body: '<html>teapot</html>' },
    });
    const { c } = client(s.url);
    const e = await caught(c.config.raw());
    expect(e).toMatchObject({ code: 'http_418', status: 418, body: '<html>teapot</html>' });
    const url = s.url;
    await s.close();
    server = undefined;
    const { c: c2, sleeps } = client(url, { retry: { maxRetries: 2 } });
    const ne = await caught(c2.config.raw());
    expect(ne.code).toBe('network_error');
    expect(ne.status).toBe(0);
    expect(ne.message).toContain('Cannot reach the Inquest API');
    expect(sleeps).toHaveLength(2); // GET is idempotent: retried
    const pe = await caught(c2.agents.run({ agent_name: 'planner', message: 'm' }));
    expect(pe.code).toBe('network_error');
    expect(sleeps).toHaveLength(2); // POST without an answer is not repeated
  });
});

describe('InquestClient retries', () => {
  it('retries a 429 after error.retry_after seconds, then succeeds', async () => {
    const s = await serve({
      [`POST ${API}/agents/run`]: [
        {
          status: 429,
          body: { error: { code: 'rate_limited', message: 'slow down', retry_after: 2 } },
          headers: { 'retry-after': '2' },
        },
        {
          status: 429,
          body: { error: { code: 'rate_limited', message: 'slow down', retry_after: 1 } },
        },
        {
          status: 202,
          body: { investigation_id: 'inv_9', status: 'running', poll_url: 'p', created_at: 'c' },
        },
      ],
    });
    const { c, sleeps } = client(s.url);
    const res = await c.agents.run({ agent_name: 'planner', message: 'm', async: true });
    expect(res.investigation_id).toBe('inv_9');
    expect(sleeps).toEqual([2000, 1000]);
    expect(s.requests).toHaveLength(3);
  });

  it('falls back to the Retry-After header and gives up past maxRetries with the typed error', async () => {
    const s = await serve({
      [`GET ${API}/kb/tree/stats`]: {
        status: 429,
        body: { error: { code: 'rate_limited', message: 'x' } },
        headers: { 'retry-after': '3' },
      },
    });
    const { c, sleeps } = client(s.url, { retry: { maxRetries: 2 } });
    const e = await caught(c.kb.treeStats());
    expect(e).toMatchObject({ code: 'rate_limited', retryAfter: 3, name: 'RateLimitedError' });
    expect(sleeps).toEqual([3000, 3000]);
    expect(s.requests).toHaveLength(3);
  });

  it('throws at once when retry_after exceeds maxRetryAfterMs', async () => {
    const s = await serve({
      [`GET ${API}/kb/tree/stats`]: {
        status: 429,
        body: { error: { code: 'rate_limited', message: 'x', retry_after: 120 } },
      },
    });
    const { c, sleeps } = client(s.url);
    expect((await caught(c.kb.treeStats())).retry_after).toBe(120);
    expect(sleeps).toEqual([]);
  });

  it('retries 502/503/504 with doubling backoff under a cap', async () => {
    const s = await serve({
      [`GET ${API}/config/me/effective`]: [
        { status: 502, body: 'bad gateway' },
        { status: 503, body: { error: { code: 'unavailable', message: 'config down' } } },
        { status: 504 },
        { status: 503, body: { error: { code: 'unavailable', message: 'config down' } } },
        { status: 200, body: { chat_channel: '#ops' } },
      ],
    });
    const { c, sleeps } = client(s.url, {
      retry: { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 300 },
    });
    expect(await c.config.effective()).toEqual({ chat_channel: '#ops' });
    // random() = 0.5 gives 3/4 of the capped exponential delay: 100, 200, 300(cap), 300(cap)
    expect(sleeps).toEqual([75, 150, 225, 225]);
  });

  it('really waits when no sleep is injected', async () => {
    const s = await serve({
      [`GET ${API}/kb/tree/stats`]: [
        { status: 429, body: { error: { code: 'rate_limited', message: 'x', retry_after: 1 } } },
        { status: 200, body: { total_documents: 1 } },
      ],
    });
    const c = new InquestClient({ baseUrl: s.url, token: 't.s' });
    const t0 = Date.now();
    await c.kb.treeStats();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });
});

describe('InquestClient timeouts and aborts', () => {
  it('times out one attempt and reports code timeout', async () => {
    const s = await serve({ [`POST ${API}/kb/answer`]: { status: 200, body: {}, delayMs: 500 } });
    const { c } = client(s.url, { timeoutMs: 50 });
    const e = await caught(c.kb.answer({ question: 'q' }));
    expect(e.code).toBe('timeout');
    // one attempt at most, none after the timeout: on a loaded machine the aborted request may not
    // even have reached the server within 50 ms (it failed so in a fresh-clone CI run)
    await new Promise((r) => setTimeout(r, 400));
    expect(s.requests.length).toBeLessThanOrEqual(1);
  });

  it("rejects with the caller's abort reason, not a client error", async () => {
    const s = await serve({
      [`GET ${API}/config/me/raw`]: { status: 200, body: {}, delayMs: 500 },
    });
    const { c } = client(s.url);
    const ac = new AbortController();
    const p = c.config.raw({ signal: ac.signal });
    setTimeout(() => ac.abort(new Error('user gave up')), 30);
    await expect(p).rejects.toThrow('user gave up');
  });

  it('stops retrying when aborted during a backoff', async () => {
    const s = await serve({ [`GET ${API}/config/me/raw`]: { status: 503 } });
    const c = new InquestClient({ baseUrl: s.url, token: 't.s', retry: { baseDelayMs: 5000 } });
    const ac = new AbortController();
    const p = c.config.raw({ signal: ac.signal });
    // abort once the first answer (503) came, during the 5 s backoff: a fixed 50 ms could fire
    // before the first request reached the server on a busy machine
    const start = Date.now();
    while (s.requests.length < 1 && Date.now() - start < 4000)
      await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(s.requests).toHaveLength(1);
  });
});

describe('pagination', () => {
  it('walks every page of investigations with limit/offset', async () => {
    const all = Array.from({ length: 7 }, (_, i) => ({
      investigation_id: `inv_${i}`,
      status: 'completed',
      agent: 'planner',
      message: `m${i}`,
      created_at: 'c',
    }));
    server = await startScriptedServer((req) => {
      const limit = Number(req.query.get('limit'));
      const offset = Number(req.query.get('offset'));
      return {
        status: 200,
        body: {
          investigations: all.slice(offset, offset + limit),
          pagination: { total: all.length, limit, offset },
        },
      };
    });
    const { c } = client(server.url);
    const ids: string[] = [];
    for await (const inv of c.agents.listAll({ pageSize: 3, status: 'completed' }))
      ids.push(inv.investigation_id);
    expect(ids).toEqual(all.map((i) => i.investigation_id));
    expect(server.requests.map((r) => r.query.toString())).toEqual([
      'status=completed&limit=3&offset=0',
      'status=completed&limit=3&offset=3',
      'status=completed&limit=3&offset=6',
    ]);
  });
});
