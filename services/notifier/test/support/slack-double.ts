import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackMessage {
  channel: string;
  text: string;
  token: string;
}

export interface SlackDouble {
  /** INQUEST_SLACK_API_URL */
  apiUrl: string;
  messages: SlackMessage[];
  /** answers, in turn, for the next calls (default: ok) */
  script: Array<{ status?: number; error?: string; retryAfter?: number }>;
  requests: number;
  stop(): Promise<void>;
}

/**
 * A Slack-like Web API on loopback: POST /api/chat.postMessage checks the request as Slack does
 * (bearer token, JSON content type, channel and text) and answers {ok, error}.
 */
export async function startSlackDouble(
  validTokens: string[],
  knownChannels: string[],
): Promise<SlackDouble> {
  const double: SlackDouble = {
    apiUrl: '',
    messages: [],
    script: [],
    requests: 0,
    stop: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      double.requests++;
      const reply = (status: number, body: object, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, { 'content-type': 'application/json', ...headers })
          .end(JSON.stringify(body));
      if (req.method !== 'POST' || req.url !== '/api/chat.postMessage')
        return reply(404, { ok: false, error: 'unknown_method' });
      const scripted = double.script.shift();
      if (scripted?.status && scripted.status !== 200) {
        return reply(
          scripted.status,
          { ok: false, error: scripted.error ?? 'internal_error' },
          scripted.retryAfter ? { 'retry-after': String(scripted.retryAfter) } : {},
        );
      }
      if (scripted?.error) return reply(200, { ok: false, error: scripted.error });
      const auth = req.headers['authorization'] ?? '';
      const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
      if (!token) return reply(200, { ok: false, error: 'not_authed' });
      if (!validTokens.includes(token)) return reply(200, { ok: false, error: 'invalid_auth' });
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return reply(200, { ok: false, error: 'invalid_arguments' });
      }
      let body: { channel?: unknown; text?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        return reply(200, { ok: false, error: 'invalid_json' });
      }
      if (typeof body.channel !== 'string' || !knownChannels.includes(body.channel)) {
        return reply(200, { ok: false, error: 'channel_not_found' });
      }
      if (typeof body.text !== 'string' || body.text === '')
        return reply(200, { ok: false, error: 'no_text' });
      double.messages.push({ channel: body.channel, text: body.text, token });
      return reply(200, { ok: true, channel: body.channel, ts: `${Date.now() / 1000}` });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  double.apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  double.stop = () => new Promise<void>((r) => server.close(() => r()));
  return double;
}
