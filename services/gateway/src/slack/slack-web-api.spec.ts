import { silentLogger } from '@inquest/observability';
import { startJsonAnswerServer, type JsonAnswerServer } from '@inquest/testing';
import { WebClientSlackApi } from './slack-web-api';

describe('WebClientSlackApi (a Slack API double on loopback)', () => {
  let slack: JsonAnswerServer;
  beforeAll(async () => {
    slack = await startJsonAnswerServer();
  });
  afterAll(() => slack.stop());
  beforeEach(() => {
    slack.hits = 0;
  });

  const api = () =>
    new WebClientSlackApi({
      apiUrl: `${slack.url}/api`,
      logger: silentLogger(),
      retries: 0,
      timeoutMs: 2000,
    });
  const post = (a: WebClientSlackApi) => a.call('chat.postMessage', 'xoxb-1', { channel: 'C1' });

  it('returns an ok: false answer (never counted as an outage)', async () => {
    const a = api();
    slack.answer = { status: 200, body: { ok: false, error: 'channel_not_found' } };
    for (let i = 0; i < 6; i++)
      await expect(post(a)).resolves.toMatchObject({ ok: false, error: 'channel_not_found' });
    expect(slack.hits).toBe(6);
  });

  it('opens after repeated failures, then refuses without calling Slack', async () => {
    const a = api();
    slack.answer = { status: 500, body: {} };
    for (let i = 0; i < 5; i++) await expect(post(a)).rejects.toBeInstanceOf(Error);
    const sent = slack.hits;
    slack.answer = { status: 200, body: { ok: true } };
    await expect(post(a)).rejects.toMatchObject({
      code: 'slack_unavailable',
      message: expect.stringContaining('circuit open'),
    });
    expect(slack.hits).toBe(sent);
  });
});
