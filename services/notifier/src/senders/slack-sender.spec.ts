import { createEgress } from '@inquest/egress';
import type { SecretResolver } from '@inquest/secrets';
import type { Delivery } from '@inquest/store';
import { startJsonAnswerServer, type JsonAnswerServer } from '@inquest/testing';
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
  let slack: JsonAnswerServer;
  const egress = createEgress({ allow: ['127.0.0.1'] });
  beforeAll(async () => {
    slack = await startJsonAnswerServer();
  });
  afterAll(async () => {
    await slack.stop();
    await egress.close();
  });
  beforeEach(() => {
    slack.hits = 0;
  });

  const sender = () =>
    new SlackSender({ egress, secrets, apiUrl: `${slack.url}/api`, timeoutMs: 2000 });
  const send = (s: SlackSender) => s.send(aChatDelivery(), new AbortController().signal);

  it("an ok: false answer is Slack's verdict, not an outage: the circuit stays closed", async () => {
    const s = sender();
    slack.answer = { status: 200, body: { ok: false, error: 'ratelimited_internal' } };
    for (let i = 0; i < 6; i++) expect((await send(s)).outcome).toBe('retry');
    expect(slack.hits).toBe(6);
  });

  it('opens after repeated 5xx answers, then defers deliveries without calling Slack', async () => {
    const s = sender();
    slack.answer = { status: 503, body: {} };
    for (let i = 0; i < 5; i++)
      expect(await send(s)).toMatchObject({ outcome: 'retry', statusCode: 503 });
    expect(slack.hits).toBe(5);
    slack.answer = { status: 200, body: { ok: true } };
    const deferred = await send(s);
    expect(deferred).toMatchObject({
      outcome: 'retry',
      error: expect.stringContaining('circuit open'),
    });
    expect(slack.hits).toBe(5);
  });
});
