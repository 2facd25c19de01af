import { request as httpRequest } from 'node:http';
import { allRoutes } from '../src/routes/index';
import { createTestGateway, type TestGateway } from './support/test-gateway';

// The exact headers, in order, of the hottest read (GET /config/me/effective) and of the answers
// around it (304, HEAD, 401, 403, 404, 405, 429): the per-request middleware chain may be made
// cheaper, never different on the wire.

interface RawAnswer {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const REQUEST_ID = /^req_[0-9a-f]{32}$/;
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const EPOCH_SECONDS = /^\d{10}$/;

/** Headers helmet sets on every answer (the gateway's configuration of it). */
const SECURITY: Array<[string, string]> = [
  [
    'Content-Security-Policy',
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
  ],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-site'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

/** the rate-limit state of the read class (any count left when `remaining` is not given) */
const rateHeaders = (limit: number, remaining?: number): Array<[string, string | RegExp]> => {
  const left = remaining === undefined ? '\\d+' : String(remaining);
  return [
    ['X-RateLimit-Limit', String(limit)],
    ['X-RateLimit-Remaining', new RegExp(`^${left}$`)],
    ['X-RateLimit-Reset', EPOCH_SECONDS],
    ['RateLimit-Policy', `"read";q=${limit};w=60`],
    ['RateLimit', new RegExp(`^"read";r=${left};t=\\d{1,2}$`)],
  ];
};

function expectHeaders(
  actual: Array<[string, string]>,
  expected: Array<[string, string | RegExp]>,
) {
  expect(actual.map(([k]) => k)).toEqual(expected.map(([k]) => k));
  actual.forEach(([k, v], i) => {
    const want = expected[i]![1];
    if (typeof want === 'string') expect([k, v]).toEqual([k, want]);
    else expect([k, v]).toEqual([k, expect.stringMatching(want)]);
  });
}

describe('response headers of GET /config/me/effective and its neighbours', () => {
  let gw: TestGateway;
  let limited: TestGateway;
  let reader: string;

  beforeAll(async () => {
    gw = await createTestGateway({ routes: (deps) => allRoutes(deps), rateLimits: { read: 1000 } });
    gw.config!.effective.set('payments', { chat_channel: '#payments' });
    reader = gw.config!.issue('payments', ['read'], 'reader@payments.example').token;
    limited = await createTestGateway({
      routes: (deps) => allRoutes(deps),
      rateLimits: { read: 1 },
    });
    limited.config!.effective.set('payments', {});
  });
  afterAll(async () => {
    await gw.stop();
    await limited.stop();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('200: request id, security headers, rate limits, ETag, then the body headers', async () => {
    const res = await raw(gw.url, 'GET', '/api/v1/config/me/effective', bearer(reader));
    expect(res.status).toBe(200);
    expectHeaders(res.headers, [
      ['X-Request-Id', REQUEST_ID],
      ...SECURITY,
      ['Cache-Control', 'no-store'],
      ...rateHeaders(1000, 999),
      ['ETag', /^"[A-Za-z0-9_-]{32}"$/],
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Content-Length', String(Buffer.byteLength(res.body))],
      ['Date', HTTP_DATE],
      ['Connection', 'keep-alive'],
      ['Keep-Alive', 'timeout=5'],
    ]);
    expect(JSON.parse(res.body)).toMatchObject({ chat_channel: '#payments' });
  });

  it('an incoming X-Request-Id is echoed; HEAD and a trailing slash answer as GET does', async () => {
    const echo = await raw(gw.url, 'GET', '/api/v1/config/me/effective', {
      ...bearer(reader),
      'x-request-id': 'abc-123',
    });
    expect(echo.headers[0]).toEqual(['X-Request-Id', 'abc-123']);
    const get = await raw(gw.url, 'GET', '/api/v1/config/me/effective', bearer(reader));
    const names = get.headers.map(([k]) => k);
    const head = await raw(gw.url, 'HEAD', '/api/v1/config/me/effective', bearer(reader));
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.map(([k]) => k)).toEqual(names);
    const slash = await raw(gw.url, 'GET', '/api/v1/config/me/effective/', bearer(reader));
    expect(slash.status).toBe(200);
    expect(slash.headers.map(([k]) => k)).toEqual(names);
    expect(slash.body).toBe(get.body);
  });

  it('304 for a matching If-None-Match: same headers, no body headers', async () => {
    const first = await raw(gw.url, 'GET', '/api/v1/config/me/effective', bearer(reader));
    const etag = first.headers.find(([k]) => k === 'ETag')![1];
    const res = await raw(gw.url, 'GET', '/api/v1/config/me/effective', {
      ...bearer(reader),
      'if-none-match': etag,
    });
    expect(res.status).toBe(304);
    expect(res.body).toBe('');
    expectHeaders(res.headers, [
      ['X-Request-Id', REQUEST_ID],
      ...SECURITY,
      ['Cache-Control', 'no-store'],
      ...rateHeaders(1000),
      ['ETag', etag],
      ['Date', HTTP_DATE],
      ['Connection', 'keep-alive'],
      ['Keep-Alive', 'timeout=5'],
    ]);
  });

  const errorHeaders = (body: string): Array<[string, string | RegExp]> => [
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Content-Length', String(Buffer.byteLength(body))],
    ['ETag', /^W\/"[0-9a-f]+-[A-Za-z0-9+/]+"$/],
    ['Date', HTTP_DATE],
    ['Connection', 'keep-alive'],
    ['Keep-Alive', 'timeout=5'],
  ];

  it('401 without a credential: security headers, no rate-limit headers', async () => {
    const res = await raw(gw.url, 'GET', '/api/v1/config/me/effective');
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).error.code).toBe('unauthorized');
    expectHeaders(res.headers, [
      ['X-Request-Id', REQUEST_ID],
      ...SECURITY,
      ['Cache-Control', 'no-store'],
      ...errorHeaders(res.body),
    ]);
  });

  it('403 for a token without read permission: rate limits counted first', async () => {
    const writer = gw.config!.issue('payments', ['write'], 'writer@payments.example').token;
    const res = await raw(gw.url, 'GET', '/api/v1/config/me/effective', bearer(writer));
    expect(res.status).toBe(403);
    expectHeaders(res.headers, [
      ['X-Request-Id', REQUEST_ID],
      ...SECURITY,
      ['Cache-Control', 'no-store'],
      ...rateHeaders(1000, 999),
      ...errorHeaders(res.body),
    ]);
  });

  it('405 for another method on the path, 404 for an unknown path', async () => {
    const post = await raw(gw.url, 'POST', '/api/v1/config/me/effective', bearer(reader));
    expect(post.status).toBe(405);
    expectHeaders(post.headers, [
      ['X-Request-Id', REQUEST_ID],
      ...SECURITY,
      ['Cache-Control', 'no-store'],
      ['Allow', 'GET, HEAD'],
      ...errorHeaders(post.body),
    ]);
    const missing = await raw(gw.url, 'GET', '/api/v1/config/me/effectiv', bearer(reader));
    expect(missing.status).toBe(404);
    expectHeaders(missing.headers, [
      ['X-Request-Id', REQUEST_ID],
      ...SECURITY,
      ['Cache-Control', 'no-store'],
      ...errorHeaders(missing.body),
    ]);
  });

  it('429 past the read limit: rate-limit state and Retry-After', async () => {
    const token = limited.config!.issue('payments', ['read'], 'r@payments.example').token;
    expect(
      (await raw(limited.url, 'GET', '/api/v1/config/me/effective', bearer(token))).status,
    ).toBe(200);
    const res = await raw(limited.url, 'GET', '/api/v1/config/me/effective', bearer(token));
    expect(res.status).toBe(429);
    expect(JSON.parse(res.body).error.code).toBe('rate_limited');
    expectHeaders(res.headers, [
      ['X-Request-Id', REQUEST_ID],
      ...SECURITY,
      ['Cache-Control', 'no-store'],
      ...rateHeaders(1, 0),
      ['Retry-After', /^\d{1,2}$/],
      ...errorHeaders(res.body),
    ]);
  });

  it('no cache keeps an API answer; the public reference and the console stay cacheable', async () => {
    const header = (res: RawAnswer, name: string) =>
      res.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
    const alerts = await raw(gw.url, 'GET', '/api/v1/alerts', bearer(reader));
    expect(header(alerts, 'Cache-Control')).toBe('no-store');
    // express mounts the prefix in any case
    const upper = await raw(gw.url, 'GET', '/API/V1/alerts', bearer(reader));
    expect(header(upper, 'Cache-Control')).toBe('no-store');
    const openapi = await raw(gw.url, 'GET', '/api/v1/openapi.json');
    expect(openapi.status).toBe(200);
    expect(header(openapi, 'Cache-Control')).toBe('no-cache');
    expect(header(await raw(gw.url, 'GET', '/healthz'), 'Cache-Control')).toBeUndefined();
  });
});
