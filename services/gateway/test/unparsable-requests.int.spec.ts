import { connect } from 'node:net';
import { ErrorBody } from '@inquest/api-contract';
import { allRoutes } from '../src/routes/index';
import { createTestGateway, type TestGateway } from './support/test-gateway';
import { testRoutes } from './support/test-routes';

// Issue 16 item 6: an over-long URL or header answered 400 "malformed HTTP request" without a
// request_id and without X-Request-Id. Every error carries both; 414 / 431 where they fit.

/** Sends raw bytes and reads the whole answer (the server closes the connection). */
function raw(
  url: string,
  request: string,
): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
    socket.write(request);
  });
}

describe('requests Node cannot parse', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ routes: testRoutes });
  });
  afterAll(() => gw.stop());

  const expectErrorBody = (a: { headers: string; body: string }, code: string) => {
    const json = JSON.parse(a.body) as { error: { code: string; request_id?: string } };
    expect(ErrorBody.safeParse(json).success).toBe(true);
    expect(json.error.code).toBe(code);
    expect(json.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    const header = /\r\nX-Request-Id: (\S+)/i.exec(a.headers)?.[1];
    expect(header).toBe(json.error.request_id);
  };

  it('answers an over-long URL with 414, the error body and a request id', async () => {
    const a = await raw(
      gw.url,
      `GET /api/v1/test/items?x=${'a'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(a.status).toBe(414);
    expectErrorBody(a, 'uri_too_long');
  });

  it('answers over-long headers with 431, the error body and a request id', async () => {
    const a = await raw(
      gw.url,
      `GET /api/v1/test/items HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(40_000)}\r\n\r\n`,
    );
    expect(a.status).toBe(431);
    expectErrorBody(a, 'header_fields_too_large');
  });

  it('answers a broken request with 400, the error body and a request id', async () => {
    const a = await raw(gw.url, 'GARBAGE\r\n\r\n');
    expect(a.status).toBe(400);
    expectErrorBody(a, 'invalid_request');
    const b = await raw(gw.url, 'GET /api/v1/test/items HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(b.status).toBe(400);
    expectErrorBody(b, 'invalid_request');
  });
});

// Issue 16 item 7: `%` or `%zz` as a path id answered 500 internal (the router's
// decodeURIComponent throws a URIError). It is the client's mistake: 400 with the usual body.
describe('malformed percent-encoding in a path parameter', () => {
  let gw: TestGateway;
  let token: string;
  beforeAll(async () => {
    gw = await createTestGateway({
      routes: (deps) => [...allRoutes(deps), ...testRoutes(deps)],
    });
    token = gw.config!.issue('team-a', ['read', 'write']).token;
  });
  afterAll(() => gw.stop());

  it.each([
    ['GET', '/api/v1/agents/status/%zz'],
    ['GET', '/api/v1/agents/status/%'],
    ['GET', '/api/v1/agents/status/abc%E0%A4%A'],
    ['POST', '/api/v1/agents/status/%zz/cancel'],
    ['POST', '/api/v1/webhooks/deliveries/%/redeliver'],
    ['PUT', '/api/v1/test/items/%zz'],
    ['GET', '/api/v1/admin/nodes/%zz'],
  ])('%s %s: 400 invalid_request with a request id', async (method, path) => {
    const res = await gw.request(method, path, {
      token: path.includes('/admin/') ? gw.adminToken : token,
      ...(method === 'GET' ? {} : { body: {} }),
    });
    expect(res.status).toBe(400);
    expect(ErrorBody.safeParse(res.body).success).toBe(true);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  });
});
