import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEgress } from '@inquest/egress';
import type { SecretResolver } from '@inquest/secrets';
import type { Delivery } from '@inquest/store';
import { SlackSender } from './slack-sender';

const secrets: SecretResolver = { resolve: async () => 'xoxb-test' };

const aChatDelivery = (): Delivery => ({
  delivery_id: 'dlv_1',
  team_id: 'team-a',
  event: 'investigation_complete',
  event_id: 'evt_1',
  channel: 'chat',
  target: '#ops',
  payload: { channel: '#ops', text: 'done' },
  secret_ref: 'vault://inquest/team-a/slack',
  status: 'pending',
  attempts: 0,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});

describe('SlackSender (a Slack API double on loopback)', () => {
  let server: Server;
  let apiUrl: string;
  let hits = 0;
  let answer: { status: number; body: unknown } = { status: 200, body: { ok: true } };
  const egress = createEgress({ allow: ['127.0.0.1'] });
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
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await egress.close();
  });
  beforeEach(() => {
    hits = 0;
  });

  const sender = () => new SlackSender({ egress, secrets, apiUrl, timeoutMs: 2000 });
  const send = (s: SlackSender) => s.send(aChatDelivery(), new AbortController().signal);

  it("an ok: false answer is Slack's verdict, not an outage: the circuit stays closed", async () => {
    const s = sender();
    answer = { status: 200, body: { ok: false, error: 'ratelimited_internal' } };
    for (let i = 0; i < 6; i++) expect((await send(s)).outcome).toBe('retry');
    expect(hits).toBe(6);
  });

  it('opens after repeated 5xx answers, then defers deliveries without calling Slack', async () => {
    const s = sender();
    answer = { status: 503, body: {} };
    for (let i = 0; i < 5; i++)
      expect(await send(s)).toMatchObject({ outcome: 'retry', statusCode: 503 });
    expect(hits).toBe(5);
    answer = { status: 200, body: { ok: true } };
    const deferred = await send(s);
    expect(deferred).toMatchObject({
      outcome: 'retry',
      error: expect.stringContaining('circuit open'),
    });
    expect(hits).toBe(5);
  });
});
