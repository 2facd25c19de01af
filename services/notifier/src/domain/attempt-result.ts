import type { AttemptOutcome, Delivery } from '@inquest/store';
import { backoffDelayMs, parseRetryAfter, type RetryPolicy } from './retry-policy';

/** What one attempt achieved, as a sender reports it. */
export type AttemptResult =
  | { outcome: 'delivered'; statusCode?: number }
  /** worth trying again later; `retryAfterMs` from the receiver overrides the schedule */
  | { outcome: 'retry'; statusCode?: number; error: string; retryAfterMs?: number }
  /** no later attempt can succeed (410 Gone, refused address, revoked token, ...) */
  | { outcome: 'stop'; statusCode?: number; error: string }
  /** the attempt was interrupted by a shutdown before an answer: uncounted, due again at once */
  | { outcome: 'aborted' };

/**
 * The Standard Webhooks reading of an HTTP answer: 2xx success; 3xx a failure (redirects are not
 * followed); 410 stops; 429/503 honour `Retry-After`; everything else is retried.
 */
export function classifyHttpAnswer(
  status: number,
  retryAfter: string | undefined,
  nowMs: number,
): AttemptResult {
  if (status >= 200 && status < 300) return { outcome: 'delivered', statusCode: status };
  if (status === 410)
    return { outcome: 'stop', statusCode: status, error: 'HTTP 410 Gone: receiver asked to stop' };
  if (status >= 300 && status < 400) {
    return {
      outcome: 'retry',
      statusCode: status,
      error: `HTTP ${status}: redirects are not followed`,
    };
  }
  const result: AttemptResult = { outcome: 'retry', statusCode: status, error: `HTTP ${status}` };
  if (status === 429 || status === 503) {
    const ms = parseRetryAfter(retryAfter, nowMs);
    if (ms !== undefined) result.retryAfterMs = ms;
  }
  return result;
}

/**
 * The stored state after an attempt of `delivery` (as claimed: its `attempts` already counts this
 * attempt, recorded before sending so a crash cannot lose it) ended with `result`.
 */
export function outcomeOf(
  delivery: Pick<Delivery, 'attempts'>,
  result: AttemptResult,
  policy: RetryPolicy,
  nowMs: number,
  random: () => number = Math.random,
): AttemptOutcome {
  const updated_at = new Date(nowMs).toISOString();
  if (result.outcome === 'aborted') {
    return {
      status: 'pending',
      attempts: Math.max(0, delivery.attempts - 1),
      next_attempt_at: updated_at,
      updated_at,
    };
  }
  const attempts = delivery.attempts;
  const base = {
    attempts,
    updated_at,
    ...(result.statusCode !== undefined ? { last_status_code: result.statusCode } : {}),
  };
  if (result.outcome === 'delivered')
    return { ...base, status: 'delivered', delivered_at: updated_at };
  if (result.outcome === 'stop') return { ...base, status: 'stopped', last_error: result.error };
  if (attempts >= policy.maxAttempts) {
    return {
      ...base,
      status: 'failed',
      last_error: `${result.error} (gave up after ${attempts} attempts)`,
    };
  }
  const delay =
    result.retryAfterMs !== undefined
      ? Math.min(policy.capMs, result.retryAfterMs)
      : backoffDelayMs(attempts, policy, random);
  return {
    ...base,
    status: 'pending',
    last_error: result.error,
    next_attempt_at: new Date(nowMs + delay).toISOString(),
  };
}
