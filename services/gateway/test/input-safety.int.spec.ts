import { Writable } from 'node:stream';
import { createLogger } from '@inquest/observability';
import { createTestGateway, type TestGateway } from './support/test-gateway';
import { testRoutes } from './support/test-routes';

describe('input safety', () => {
  let gw: TestGateway;
  let token: string;
  const logs: string[] = [];
  beforeAll(async () => {
    const destination = new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    });
    gw = await createTestGateway({
      routes: testRoutes,
      requestTimeoutMs: 400,
      corsOrigins: ['https://console.example.com'],
      logger: createLogger({ name: 'gateway', destination }),
    });
    token = gw.config!.issue('team-a', ['read', 'write']).token;
  });
  afterAll(() => gw.stop());

  const put = (o: { rawBody?: string; body?: unknown; headers?: Record<string, string> }) =>
    gw.request('PUT', '/api/v1/test/items/a1', {
      token,
      headers: { 'content-type': 'application/json', ...o.headers },
      ...o,
    });

  it('sets helmet security headers and X-Request-Id, no X-Powered-By', async () => {
    const res = await gw.request('GET', '/api/v1/test/items', {
      token,
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });

  it('answers CORS only for allowed origins', async () => {
    const ok = await gw.request('OPTIONS', '/api/v1/test/items', {
      headers: {
        origin: 'https://console.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://console.example.com');
    expect(ok.headers.get('access-control-allow-headers')).toContain('X-Inquest-Team');
    const get = await gw.request('GET', '/api/v1/test/items', {
      token,
      headers: { origin: 'https://console.example.com' },
    });
    expect(get.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
    const evil = await gw.request('GET', '/api/v1/test/items', {
      token,
      headers: { origin: 'https://evil.example.com' },
    });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('has no CORS at all by default', async () => {
    const plain = await createTestGateway({ routes: testRoutes });
    try {
      const res = await plain.request('OPTIONS', '/api/v1/test/items', {
        headers: { origin: 'https://console.example.com', 'access-control-request-method': 'GET' },
      });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.status).toBe(405);
    } finally {
      await plain.stop();
    }
  });

  it('refuses bodies that are not JSON, too large, malformed, polluting or too deep', async () => {
    const cases: [Parameters<typeof put>[0], number, string][] = [
      [
        { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        415,
        'unsupported_media_type',
      ],
      [
        { rawBody: '{"name":"x"}', headers: { 'content-type': 'text/plain' } },
        415,
        'unsupported_media_type',
      ],
      [{ rawBody: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }) }, 413, 'payload_too_large'],
      [{ rawBody: '{"name": "x",' }, 400, 'invalid_request'],
      [{ rawBody: '{"name":"x","__proto__":{"admin":true}}' }, 400, 'invalid_request'],
      [
        { rawBody: '{"name":"x","tags":[{"constructor":{"prototype":{}}}]}' },
        400,
        'invalid_request',
      ],
      [
        { rawBody: `{"name":"x","deep":${'['.repeat(40)}${']'.repeat(40)}}` },
        400,
        'invalid_request',
      ],
      [{ rawBody: '[1,2]' }, 400, 'invalid_request'],
      [{ rawBody: 'null' }, 400, 'invalid_request'],
      [{ body: { name: 5 } }, 400, 'validation_error'],
    ];
    for (const [o, status, code] of cases) {
      const res = await put(o);
      expect({
        body: (o.rawBody ?? '').slice(0, 40),
        status: res.status,
        code: res.body?.error?.code,
      }).toEqual({
        body: (o.rawBody ?? '').slice(0, 40),
        status,
        code,
      });
    }
    expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
  });

  it('ignores unknown query parameters and refuses wrongly typed ones', async () => {
    expect(
      (await gw.request('GET', '/api/v1/test/items?limit=5&whatever=1', { token })).status,
    ).toBe(200);
    const bad = await gw.request('GET', '/api/v1/test/items?limit=abc', { token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    expect((await gw.request('GET', '/api/v1/test/items?limit[a]=1', { token })).status).toBe(400);
  });

  it('never shows a stack trace or internal message; logs it with the request id', async () => {
    const res = await gw.request('GET', '/api/v1/test/boom', {
      token,
      headers: { 'x-request-id': 'req-boom-1' },
    });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: { code: 'internal', message: 'internal error', request_id: 'req-boom-1' },
    });
    expect(res.text).not.toContain('hunter2');
    const line = logs.find((l) => l.includes('req-boom-1'));
    expect(line).toContain('hunter2');
  });

  it('answers 503 unavailable at the request timeout and aborts the handler', async () => {
    const started = Date.now();
    const res = await gw.request('GET', '/api/v1/test/slow', { token });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('answers 503 unavailable quickly when a backing service is down', async () => {
    const started = Date.now();
    const res = await gw.request('GET', '/api/v1/test/backing', { token });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('unavailable');
    expect(res.body.error.message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('answers 404 and 405 (with Allow) with the error body', async () => {
    const nf = await gw.request('GET', '/api/v1/nope', { token });
    expect(nf.status).toBe(404);
    expect(nf.body.error.code).toBe('not_found');
    const na = await gw.request('DELETE', '/api/v1/test/items', { token });
    expect(na.status).toBe(405);
    expect(na.headers.get('allow')).toBe('GET, HEAD');
    const head = await gw.request('HEAD', '/api/v1/test/items', { token });
    expect(head.status).toBe(200);
    const post = await gw.request('HEAD', '/api/v1/test/trigger', { token });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('POST');
  });

  it('answers 405 (with Allow and the error body) to other methods on /healthz, /readyz and /metrics', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect((await gw.request('GET', path)).status).toBe(200);
      expect((await gw.request('HEAD', path)).status).toBe(200);
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await gw.request(method, path);
        expect([path, method, res.status]).toEqual([path, method, 405]);
        expect(res.headers.get('allow')).toBe('GET, HEAD');
        expect(res.body.error.code).toBe('method_not_allowed');
        expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
      }
    }
  });
});
