/** The retry schedule of API-DECISIONS.md ("Webhooks and egress"). */
export interface RetryPolicy {
  /** delay after the first failed attempt */
  baseMs: number;
  /** no delay exceeds this */
  capMs: number;
  /** attempts in all, the first included */
  maxAttempts: number;
}

const GROWTH = 4;
const JITTER = 0.2;

/**
 * Delay before the next attempt after `failedAttempts` failures (>= 1): base x 4^(n-1), spread
 * by +/-20% so receivers recovering from an outage are not hit by every sender at once, capped.
 */
export function backoffDelayMs(
  failedAttempts: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const n = Math.max(1, failedAttempts);
  const raw = policy.baseMs * GROWTH ** (n - 1);
  const jittered = raw * (1 - JITTER + 2 * JITTER * random());
  return Math.round(Math.min(policy.capMs, jittered));
}

/**
 * `Retry-After` as a delay in ms: delta-seconds or an HTTP date; undefined when absent or
 * unreadable. Negative dates give 0.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
