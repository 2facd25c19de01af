/** One Slack Web API answer (`ok` plus the method's fields). */
export type SlackAnswer = { ok: boolean; error?: string } & Record<string, unknown>;

/** The Slack Web API methods the chat front end calls. */
export interface SlackApi {
  call(method: string, token: string, args: Record<string, unknown>): Promise<SlackAnswer>;
}

/**
 * The Slack Web API over HTTPS (`INQUEST_SLACK_API_URL`, default https://slack.com/api): form
 * encoded as Slack's own SDK sends it (nested values as JSON), bearer bot token, a deadline per
 * call. A Slack `ok: false` answer is returned, not thrown; transport failures throw.
 */
export class HttpSlackApi implements SlackApi {
  constructor(private readonly o: { apiUrl: string; timeoutMs?: number }) {}

  async call(method: string, token: string, args: Record<string, unknown>): Promise<SlackAnswer> {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(args)) {
      if (v === undefined) continue;
      form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    const res = await fetch(`${this.o.apiUrl}/${method}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'Inquest-Gateway/1.0',
      },
      body: form.toString(),
      signal: AbortSignal.timeout(this.o.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`slack ${method}: HTTP ${res.status}`);
    try {
      return JSON.parse(text) as SlackAnswer;
    } catch {
      throw new Error(`slack ${method}: answer is not JSON`);
    }
  }
}
