import { LogLevel, WebClient, type Logger as SlackLogger } from '@slack/web-api';
import type { Logger } from '@inquest/observability';
import { createCircuitBreaker, type CircuitBreaker } from '@inquest/runtime';

/** One Slack Web API answer (`ok` plus the method's fields). */
export type SlackAnswer = { ok: boolean; error?: string } & Record<string, unknown>;

/** The Slack Web API methods the chat front end calls. */
export interface SlackApi {
  call(method: string, token: string, args: Record<string, unknown>): Promise<SlackAnswer>;
}

/** Slack's SDK logs through this instead of the console. */
function sdkLogger(logger: Logger): SlackLogger {
  const text = (msg: unknown[]) => msg.map(String).join(' ');
  let level = LogLevel.WARN;
  return {
    debug: (...msg: unknown[]) => logger.debug({ sdk: 'slack' }, text(msg)),
    info: (...msg: unknown[]) => logger.debug({ sdk: 'slack' }, text(msg)),
    warn: (...msg: unknown[]) => logger.warn({ sdk: 'slack' }, text(msg)),
    error: (...msg: unknown[]) => logger.error({ sdk: 'slack' }, text(msg)),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/**
 * The Slack Web API through Slack's official SDK (`@slack/web-api`) at `apiUrl`
 * (INQUEST_SLACK_API_URL, default https://slack.com/api): one WebClient per bot token, a deadline
 * per call, and few retries (a rate-limited call waits for Slack's Retry-After). A Slack
 * `ok: false` answer is returned, not thrown; transport failures throw and count against a
 * circuit breaker, which refuses calls for a while once Slack keeps failing.
 */
export class WebClientSlackApi implements SlackApi {
  private readonly clients = new Map<string, WebClient>();
  private readonly breaker: CircuitBreaker;

  constructor(
    private readonly o: {
      apiUrl: string;
      logger: Logger;
      timeoutMs?: number;
      retries?: number;
      breaker?: CircuitBreaker;
    },
  ) {
    this.breaker =
      o.breaker ??
      createCircuitBreaker({
        name: 'the Slack API',
        openCode: 'slack_unavailable',
        logger: o.logger,
      });
  }

  private client(token: string): WebClient {
    let c = this.clients.get(token);
    if (!c) {
      c = new WebClient(token, {
        slackApiUrl: `${this.o.apiUrl.replace(/\/+$/, '')}/`,
        logger: sdkLogger(this.o.logger),
        timeout: this.o.timeoutMs ?? 10_000,
        retryConfig: { retries: this.o.retries ?? 2, factor: 2, minTimeout: 200, maxTimeout: 2000 },
        // a method name is never a URL of its own
        allowAbsoluteUrls: false,
      });
      if (this.clients.size > 1000) this.clients.clear();
      this.clients.set(token, c);
    }
    return c;
  }

  async call(method: string, token: string, args: Record<string, unknown>): Promise<SlackAnswer> {
    return this.breaker.fire(async () => {
      try {
        return (await this.client(token).apiCall(method, args)) as SlackAnswer;
      } catch (err) {
        // Slack answered ok: false; the SDK throws it with the answer as `data`
        const e = err as { code?: unknown; data?: unknown };
        if (e.code === 'slack_webapi_platform_error' && typeof e.data === 'object' && e.data)
          return e.data as SlackAnswer;
        throw err;
      }
    });
  }
}
