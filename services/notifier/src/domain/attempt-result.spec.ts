import { classifyHttpAnswer, outcomeOf } from './attempt-result';
import { backoffDelayMs, parseRetryAfter } from './retry-policy';

const policy = { baseMs: 5000, capMs: 10 * 3600_000, maxAttempts: 10 };

describe('backoffDelayMs', () => {
  it('grows x4 from the base', () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy, mid))).toEqual([
      5000, 20_000, 80_000, 320_000, 1_280_000,
    ]);
  });

  it('spreads by +/-20% and never past the cap', () => {
    expect(backoffDelayMs(1, policy, () => 0)).toBe(4000);
    expect(backoffDelayMs(1, policy, () => 0.999999)).toBe(6000);
    expect(backoffDelayMs(9, policy, () => 0.5)).toBe(policy.capMs);
    for (let i = 0; i < 200; i++) {
      const d = backoffDelayMs(3, policy);
      expect(d).toBeGreaterThanOrEqual(64_000);
      expect(d).toBeLessThanOrEqual(96_000);
    }
  });

  it('spans more than a day over the default 10 attempts (27.6 h without jitter)', () => {
    let total = 0;
    for (let n = 1; n < 10; n++) total += backoffDelayMs(n, policy, () => 0.5);
    expect(total / 3600_000).toBeGreaterThan(27.5);
    expect(total / 3600_000).toBeLessThan(27.7);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('classifyHttpAnswer', () => {
  it('applies the Standard Webhooks reading', () => {
    expect(classifyHttpAnswer(204, undefined, 0)).toEqual({
      outcome: 'delivered',
      statusCode: 204,
    });
    expect(classifyHttpAnswer(302, undefined, 0)).toMatchObject({
      outcome: 'retry',
      statusCode: 302,
    });
    expect(classifyHttpAnswer(410, undefined, 0)).toMatchObject({
      outcome: 'stop',
      statusCode: 410,
    });
    expect(classifyHttpAnswer(500, '30', 0)).toEqual({
      outcome: 'retry',
      statusCode: 500,
      error: 'HTTP 500',
    });
    expect(classifyHttpAnswer(429, '30', 0)).toMatchObject({
      outcome: 'retry',
      retryAfterMs: 30_000,
    });
    expect(classifyHttpAnswer(503, '2', 0)).toMatchObject({ outcome: 'retry', retryAfterMs: 2000 });
  });
});

// The claimed delivery's `attempts` already counts the attempt that ended (counted on claim).
describe('outcomeOf', () => {
  const now = Date.parse('2026-01-01T00:00:00.000Z');
  it('schedules a retry by the backoff, or by Retry-After (capped)', () => {
    const o = outcomeOf(
      { attempts: 2 },
      { outcome: 'retry', statusCode: 500, error: 'HTTP 500' },
      policy,
      now,
      () => 0.5,
    );
    expect(o).toMatchObject({
      status: 'pending',
      attempts: 2,
      last_status_code: 500,
      next_attempt_at: new Date(now + 20_000).toISOString(),
    });
    const r = outcomeOf(
      { attempts: 1 },
      { outcome: 'retry', error: 'x', retryAfterMs: 99 * 3600_000 },
      policy,
      now,
    );
    expect(r.next_attempt_at).toBe(new Date(now + policy.capMs).toISOString());
  });

  it('gives up after the last attempt and stops at once on a stop', () => {
    expect(
      outcomeOf({ attempts: 10 }, { outcome: 'retry', error: 'HTTP 500' }, policy, now),
    ).toMatchObject({ status: 'failed', attempts: 10 });
    expect(
      outcomeOf({ attempts: 1 }, { outcome: 'stop', statusCode: 410, error: 'gone' }, policy, now),
    ).toMatchObject({ status: 'stopped', attempts: 1 });
    expect(
      outcomeOf({ attempts: 3 }, { outcome: 'delivered', statusCode: 200 }, policy, now),
    ).toMatchObject({
      status: 'delivered',
      attempts: 3,
      delivered_at: new Date(now).toISOString(),
    });
  });

  it('uncounts an attempt interrupted by shutdown (it was counted when claimed)', () => {
    expect(outcomeOf({ attempts: 4 }, { outcome: 'aborted' }, policy, now)).toMatchObject({
      status: 'pending',
      attempts: 3,
      next_attempt_at: new Date(now).toISOString(),
    });
  });
});
