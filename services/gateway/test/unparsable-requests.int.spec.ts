import { connect } from 'node:net';
import { ErrorBody } from '@inquest/api-contract';
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
