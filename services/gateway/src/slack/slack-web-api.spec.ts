import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '@inquest/observability';
import { WebClientSlackApi } from './slack-web-api';

describe('WebClientSlackApi (a Slack API double on loopback)', () => {
  let server: Server;
  let apiUrl: string;
  let hits = 0;
  let answer: { status: number; body: unknown } = { status: 200, body: { ok: true } };
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      req.on('end', () => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    hits = 0;
  });

  const api = () =>
    new WebClientSlackApi({ apiUrl, logger: silentLogger(), retries: 0, timeoutMs: 2000 });

  it('returns an ok: false answer (never counted as an outage)', async () => {
    const a = api();
    answer = { status: 200, body: { ok: false, error: 'channel_not_found' } };
    for (let i = 0; i < 6; i++)
      await expect(a.call('chat.postMessage', 'xoxb-1', { channel: 'C1' })).resolves.toMatchObject({
        ok: false,
        error: 'channel_not_found',
      });
    expect(hits).toBe(6);
  });

  it('opens after repeated failures, then refuses without calling Slack', async () => {
    const a = api();
    answer = { status: 500, body: {} };
    for (let i = 0; i < 5; i++)
      await expect(a.call('chat.postMessage', 'xoxb-1', { channel: 'C1' })).rejects.toBeInstanceOf(
        Error,
      );
    const sent = hits;
    answer = { status: 200, body: { ok: true } };
    await expect(a.call('chat.postMessage', 'xoxb-1', { channel: 'C1' })).rejects.toMatchObject({
      code: 'slack_unavailable',
      message: expect.stringContaining('circuit open'),
    });
    expect(hits).toBe(sent);
  });
});
