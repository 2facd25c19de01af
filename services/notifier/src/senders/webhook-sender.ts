import { Webhook } from 'standardwebhooks';
import type { Egress } from '@inquest/egress';
import type { SecretResolver } from '@inquest/secrets';
import { deliveryScope, isScopeRefusal } from '../domain/delivery-scope';
import type { Delivery } from '@inquest/store';
import { classifyHttpAnswer, type AttemptResult } from '../domain/attempt-result';
import type { Sender } from '../domain/dispatcher';
import { egressFailure } from './egress-failure';

export interface WebhookSenderOptions {
  egress: Egress;
  secrets: SecretResolver;
  timeoutMs: number;
  now?: () => number;
}

/** The receiver's answer body is not used; reading more only costs memory. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs the recorded body per Standard Webhooks: `webhook-id` is the event id (the same on every
 * attempt), `webhook-timestamp` the time of this attempt, `webhook-signature` `v1,<base64
 * HMAC-SHA256>` over `id.timestamp.body` when the team has a signing secret.
 */
export class WebhookSender implements Sender {
  constructor(private readonly o: WebhookSenderOptions) {}

  async send(d: Delivery, signal: AbortSignal): Promise<AttemptResult> {
    const body = JSON.stringify(d.payload);
    const now = (this.o.now ?? Date.now)();
    const timestamp = Math.floor(now / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Inquest-Webhooks/1.0',
      'webhook-id': d.event_id,
      'webhook-timestamp': String(timestamp),
    };
    if (d.secret_ref) {
      let secret: string;
      try {
        secret = await this.o.secrets.resolve(d.secret_ref, deliveryScope(d));
      } catch (err) {
        // never send unsigned when a signature was asked for; the secret may appear later
        if (isScopeRefusal(err))
          return { outcome: 'stop', error: `signing secret refused: ${(err as Error).message}` };
        return { outcome: 'retry', error: `signing secret unavailable: ${(err as Error).message}` };
      }
      try {
        headers['webhook-signature'] = new Webhook(secret).sign(
          d.event_id,
          new Date(timestamp * 1000),
          body,
        );
      } catch {
        return {
          outcome: 'retry',
          error: 'signing secret is not a valid Standard Webhooks secret (whsec_<base64>)',
        };
      }
    }
    try {
      const res = await this.o.egress.request(d.target, {
        method: 'POST',
        headers,
        body,
        signal,
        timeoutMs: this.o.timeoutMs,
        maxBodyBytes: MAX_ANSWER_BYTES,
      });
      return classifyHttpAnswer(res.status, res.headers['retry-after'], (this.o.now ?? Date.now)());
    } catch (err) {
      return egressFailure(err, signal.aborted);
    }
  }
}
