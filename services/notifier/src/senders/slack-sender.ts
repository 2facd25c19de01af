import type { Egress } from '@inquest/egress';
import { isDomainError } from '@inquest/errors';
import { createCircuitBreaker, type CircuitBreaker } from '@inquest/runtime';
import type { SecretResolver } from '@inquest/secrets';
import { deliveryScope, isScopeRefusal } from '../domain/delivery-scope';
import type { Delivery } from '@inquest/store';
import { classifyHttpAnswer, type AttemptResult } from '../domain/attempt-result';
import type { Sender } from '../domain/dispatcher';
import { egressFailure } from './egress-failure';

export interface SlackSenderOptions {
  egress: Egress;
  secrets: SecretResolver;
  /** e.g. https://slack.com/api */
  apiUrl: string;
  timeoutMs: number;
  now?: () => number;
  /** opens after repeated failures of the Slack API (default: one per sender) */
  breaker?: CircuitBreaker;
}

/** A failed attempt that says Slack itself is in trouble (no answer, 5xx): counts against it. */
class SlackDown {
  constructor(readonly result: AttemptResult) {}
}

/** Slack errors no retry can fix (wrong token or channel); anything else is retried. */
const PERMANENT = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'missing_scope',
  'restricted_action',
  'invalid_arguments',
  'msg_too_long',
  'no_text',
]);

/** Posts the recorded message with Slack's `chat.postMessage` (JSON body, bearer bot token). */
export class SlackSender implements Sender {
  private readonly breaker: CircuitBreaker;

  constructor(private readonly o: SlackSenderOptions) {
    this.breaker =
      o.breaker ?? createCircuitBreaker({ name: 'the Slack API', openCode: 'slack_unavailable' });
  }

  async send(d: Delivery, signal: AbortSignal): Promise<AttemptResult> {
    if (!d.secret_ref) return { outcome: 'stop', error: 'no Slack bot token configured' };
    let token: string;
    try {
      token = await this.o.secrets.resolve(d.secret_ref, deliveryScope(d));
    } catch (err) {
      if (isScopeRefusal(err))
        return { outcome: 'stop', error: `Slack bot token refused: ${(err as Error).message}` };
      return { outcome: 'retry', error: `Slack bot token unavailable: ${(err as Error).message}` };
    }
    try {
      return await this.breaker.fire(async () => {
        const result = await this.post(d, token, signal);
        if (
          result.outcome === 'retry' &&
          (result.statusCode === undefined || result.statusCode >= 500)
        )
          throw new SlackDown(result);
        return result;
      }, signal);
    } catch (err) {
      if (err instanceof SlackDown) return err.result;
      // the circuit is open: the delivery waits for its next attempt like any retry
      if (isDomainError(err)) return { outcome: 'retry', error: err.message };
      throw err;
    }
  }

  private async post(d: Delivery, token: string, signal: AbortSignal): Promise<AttemptResult> {
    try {
      const res = await this.o.egress.request(`${this.o.apiUrl}/chat.postMessage`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          authorization: `Bearer ${token}`,
          'user-agent': 'Inquest-Notifier/1.0',
        },
        body: JSON.stringify(d.payload),
        signal,
        timeoutMs: this.o.timeoutMs,
        maxBodyBytes: 256 * 1024,
      });
      const http = classifyHttpAnswer(
        res.status,
        res.headers['retry-after'],
        (this.o.now ?? Date.now)(),
      );
      if (http.outcome !== 'delivered') return http;
      let answer: { ok?: unknown; error?: unknown };
      try {
        answer = res.json() as typeof answer;
      } catch {
        return { outcome: 'retry', statusCode: res.status, error: 'Slack answer is not JSON' };
      }
      if (answer.ok === true) return { outcome: 'delivered', statusCode: res.status };
      const code = typeof answer.error === 'string' ? answer.error : 'unknown_error';
      return PERMANENT.has(code)
        ? { outcome: 'stop', statusCode: res.status, error: `slack: ${code}` }
        : { outcome: 'retry', statusCode: res.status, error: `slack: ${code}` };
    } catch (err) {
      return egressFailure(err, signal.aborted);
    }
  }
}
