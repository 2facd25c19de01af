import type { RateClass } from './route';

/** The state of one credential's window after a request was counted. */
export interface RateState {
  class: RateClass;
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the window resets */
  resetAt: number;
}

/**
 * Counts a request of `key` in `rateClass`. Resolves with the window state, or throws
 * DomainError rate_limited (with retryAfter) carrying the state in `state` when over the limit.
 */
export interface RateLimiter {
  consume(key: string, rateClass: RateClass): Promise<RateState>;
  /** The window state of `key` in `rateClass` without counting a request. */
  peek?(key: string, rateClass: RateClass): Promise<RateState>;
  /** Throws rate_limited while `address` has used up its failed authentications. */
  checkAuthFailures?(address: string): Promise<void>;
  /** Counts a failed authentication from `address`. */
  recordAuthFailure?(address: string): Promise<void>;
}

/** Used when no limiter is configured (tests of other concerns). */
export const unlimited: RateLimiter = {
  consume: async (_key, rateClass) => ({
    class: rateClass,
    limit: Number.MAX_SAFE_INTEGER,
    remaining: Number.MAX_SAFE_INTEGER,
    resetAt: Math.ceil(Date.now() / 1000) + 60,
  }),
};
