import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { ErrorBody } from '@inquest/api-contract';
import type { RouteDef } from '../src/http/route';
import { allRoutes } from '../src/routes/index';
import { createTestGateway, type TestGateway } from './support/test-gateway';
import { testRoutes } from './support/test-routes';

interface Answer {
  status: number;
  text: string;
  ms: number;
}

function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    // an explicit length: Node sends a DELETE body unframed otherwise, which no server can parse
    const h =
      body === undefined
        ? headers
        : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest(`${url}${path}`, { method, headers: h, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString(),
          ms: Date.now() - started,
        }),
      );
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within 10 s: ${method} ${path}`)));
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

const hugeString = fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n));
const unicode = fc.string({ unit: 'binary', maxLength: 200 });
const leaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  unicode,
  hugeString,
  fc.constant(''),
);
/** Bodies of every wrong shape, plus well-formed JSON values with weird content. */
const bodyArb = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(
    fc.oneof(
      fc.string(),
      fc.constantFrom('name', 'agent_name', 'config', 'query', 'text', 'limit', 'team_name'),
    ),
    leaf,
  ),
  fc.array(leaf, { maxLength: 5 }),
  leaf,
  fc.record({ name: leaf, size: leaf, tags: fc.oneof(leaf, fc.array(leaf)) }),
);
const rawBodyArb = fc.oneof(
  bodyArb.map((v) => JSON.stringify(v) ?? 'null'),
  unicode,
  fc.constantFrom(
    '{',
    '{"a":',
    '[',
    'nul',
    '\u0000',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
  ),
);
const contentTypeArb = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/xml',
  'multipart/form-data',
  '',
);
const headerValue = fc.string({ maxLength: 300 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));

describe('fuzzing every endpoint', () => {
  let gw: TestGateway;
  let routes: RouteDef[];
  let teamToken: string;
  const validPuts = new Set<string>();

  beforeAll(async () => {
    const big = 1_000_000;
    gw = await createTestGateway({
      routes: (deps) => {
        routes = [
          ...allRoutes(deps),
          ...testRoutes(deps).filter(
            (r) => r.path.startsWith('/test/items') || r.path === '/test/trigger',
          ),
        ];
        return routes;
      },
      rateLimits: { read: big, write: big, trigger: big, auth_fail: big },
    });
    teamToken = gw.config!.issue('team-a', ['read', 'write']).token;
    routes.push(
      ...['/openapi.json', '/docs'].map(
        (path) => ({ method: 'get', path, auth: 'public' }) as RouteDef,
      ),
    );
  });
  afterAll(() => gw.stop());

  const check = (route: RouteDef, a: Answer, validInput: boolean) => {
    const where = `${route.method.toUpperCase()} ${route.path} -> ${a.status} ${a.text.slice(0, 200)}`;
    if (a.status === 500 || a.status < 200 || (a.status >= 500 && a.status !== 503))
      throw new Error(`bad status: ${where}`);
    if ((a.status < 300 || a.status === 503) && !validInput)
      throw new Error(`invalid input accepted: ${where}`);
    if (a.status >= 400) {
      let json: unknown;
      try {
        json = JSON.parse(a.text);
      } catch {
        throw new Error(`not JSON: ${where}`);
      }
      const parsed = ErrorBody.safeParse(json);
      if (!parsed.success) throw new Error(`not the spec's error body: ${where}`);
    }
    if (a.ms > 5000) throw new Error(`slow answer (${a.ms} ms): ${where}`);
  };

  const pathOf = (route: RouteDef, values: string[]) => {
    let i = 0;
    return `/api/v1${route.path.replace(/:[A-Za-z0-9_]+/g, () => encodeURIComponent(values[i++] ?? 'x') || 'x')}`;
  };

  it('answers random bodies, queries and path values with a 4xx error body (never 500, never a hang)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        rawBodyArb,
        fc.option(contentTypeArb, { nil: undefined }),
        fc.array(fc.string({ maxLength: 30 }), { minLength: 3, maxLength: 3 }),
        fc.dictionary(
          fc.constantFrom('limit', 'status', 'team', 'parent_id', 'document_id', 'x', 'offset'),
          fc.oneof(unicode, fc.integer().map(String)),
          { maxKeys: 3 },
        ),
        fc.boolean(),
        async (pick, raw, contentType, params, query, asAdmin) => {
          const route = routes[pick % routes.length]!;
          const headers: Record<string, string> = {
            authorization: `Bearer ${asAdmin || route.auth === 'admin' ? gw.adminToken : teamToken}`,
            'x-inquest-team': 'team-a',
          };
          if (contentType !== undefined) headers['content-type'] = contentType;
          const qs = new URLSearchParams(query).toString();
          const path = pathOf(route, params) + (qs ? `?${qs}` : '');
          const sendBody = route.method !== 'get' && route.method !== 'delete';
          const a = await send(
            gw.url,
            route.method.toUpperCase(),
            path,
            headers,
            sendBody ? raw : undefined,
          );
          let body: unknown;
          try {
            body = sendBody ? JSON.parse(raw) : undefined;
          } catch {
            body = Symbol('malformed');
          }
          const jsonCt = contentType !== undefined && contentType.startsWith('application/json');
          const bodyOk =
            !route.body ||
            (jsonCt &&
              route.body.safeParse(body).success &&
              typeof body === 'object' &&
              body !== null);
          const paramsOk =
            !route.params ||
            route.params.safeParse(
              Object.fromEntries(
                [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m, i) => [
                  m[1],
                  params[i] || 'x',
                ]),
              ),
            ).success;
          const queryOk = !route.query || route.query.safeParse(query).success;
          check(route, a, bodyOk && paramsOk && queryOk);
          if (route.path === '/test/items/:item_id' && a.status === 200)
            validPuts.add(params[0] || 'x');
        },
      ),
      { numRuns: 250 },
    );
    // state afterwards: exactly the accepted writes, nothing from refused ones
    const list = await gw.request('GET', '/api/v1/test/items?limit=100', { token: teamToken });
    expect(new Set(list.body.items)).toEqual(validPuts);
  });

  it('answers random credentials and headers with 4xx, the same 401 message for every bad token', async () => {
    const messages = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        headerValue,
        headerValue,
        fc.option(contentTypeArb, { nil: undefined }),
        fc.constantFrom('', 'Bearer ', 'bearer ', 'Basic ', 'Bearer admin.', 'Bearer tok_'),
        async (pick, auth, team, ct, prefix) => {
          const route = routes[pick % routes.length]!;
          const headers: Record<string, string> = {
            authorization: `${prefix}${auth}`,
            'x-inquest-team': team,
            'x-request-id': auth.slice(0, 200),
          };
          if (ct !== undefined) headers['content-type'] = ct;
          const a = await send(
            gw.url,
            route.method.toUpperCase(),
            pathOf(route, ['a', 'b', 'c']),
            headers,
            route.method === 'get' ? undefined : '{}',
          );
          check(route, a, route.auth === 'public');
          if (a.status === 401) messages.add(JSON.parse(a.text).error.message);
        },
      ),
      { numRuns: 150 },
    );
    expect(messages.size).toBeLessThanOrEqual(1);
  });
});
