import { ErrorBody } from '@inquest/api-contract';
import { allRoutes } from '../src/routes/index';
import { createTestGateway, type TestGateway } from './support/test-gateway';

// Issue 16 item 2: `GET /agents/investigations?offset=2147483648` answered 500 (int32 overflow
// in the gRPC request). Every numeric query parameter of every GET route has a bound, and
// numbers up to 2^64 (and beyond) answer 400, never 5xx.

interface OpenApiParam {
  name: string;
  in: string;
  schema?: { type?: string | string[]; maximum?: number; minimum?: number };
}
interface OpenApiDoc {
  paths: Record<string, Record<string, { parameters?: OpenApiParam[] }>>;
}

const HUGE = [
  '2147483648', // 2^31
  '4294967296', // 2^32
  '9007199254740993', // 2^53 + 1
  '9223372036854775808', // 2^63
  '18446744073709551616', // 2^64
  '18446744073709551617',
  '-9223372036854775809',
  '1e400',
  '1e21',
];
const INT32_MAX = 2 ** 31 - 1;
// OpenAPI 3.1: `type` may list several, e.g. ["integer", "null"]
const isNumeric = (type: string | string[] | undefined) =>
  [type ?? []].flat().some((t) => t === 'integer' || t === 'number');

describe('numeric query parameters', () => {
  let gw: TestGateway;
  let doc: OpenApiDoc;

  beforeAll(async () => {
    const big = 1_000_000;
    gw = await createTestGateway({
      routes: (deps) => allRoutes(deps),
      rateLimits: { read: big, write: big, trigger: big, auth_fail: big, alert: big },
    });
    gw.config!.effective.set('team-a', {});
    const res = await gw.request('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as OpenApiDoc;
  });
  afterAll(() => gw.stop());

  const numericQueries = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => method === 'get')
        .flatMap(([, op]) =>
          (op.parameters ?? [])
            .filter((p) => p.in === 'query' && isNumeric(p.schema?.type))
            .map((p) => ({ path, param: p })),
        ),
    );

  it('finds the numeric query parameters of the OpenAPI document', () => {
    const found = numericQueries().map((q) => `${q.path}?${q.param.name}`);
    expect(found).toEqual(expect.arrayContaining(['/agents/investigations?offset']));
    expect(found.length).toBeGreaterThanOrEqual(5);
  });

  it('bounds every one of them within int32', () => {
    const unbounded = numericQueries()
      .filter((q) => q.param.schema?.maximum === undefined || q.param.schema.maximum > INT32_MAX)
      .map((q) => `${q.path}?${q.param.name}`);
    expect(unbounded).toEqual([]);
  });

  it('answers numbers up to 2^64 and beyond with 400 and the error body, never 5xx', async () => {
    const bad: string[] = [];
    for (const { path, param } of numericQueries()) {
      const concrete = `/api/v1${path.replace(/\{[^}]+\}/g, 'x')}`;
      for (const value of HUGE) {
        const url = `${concrete}?${param.name}=${encodeURIComponent(value)}`;
        const res = await gw.request('GET', url, {
          token: gw.adminToken,
          headers: { 'x-inquest-team': 'team-a' },
        });
        if (res.status !== 400 || !ErrorBody.safeParse(res.body).success)
          bad.push(`${url} -> ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
