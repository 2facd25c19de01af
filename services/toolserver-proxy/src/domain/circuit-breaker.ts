/** What a circuit breaker reports about one tool server. */
export type BreakerState = 'closed' | 'open' | 'half_open';

/** A circuit breaker around one tool server's requests (port; `adapters/` implements it). */
export interface CircuitBreaker {
  /**
   * Runs `fn` while the circuit lets calls through; rejects with a {@link BreakerOpenError}
   * without running it while the circuit is open.
   */
  fire<T>(fn: () => Promise<T>): Promise<T>;
  readonly state: BreakerState;
  /** Stops the breaker's timers. */
  shutdown(): void;
}

export interface CircuitBreakerOptions {
  /** how long an open circuit refuses calls before it lets one through (half open), ms */
  resetTimeoutMs: number;
  /** failures in the rolling window before the error rate is looked at */
  volumeThreshold: number;
  /** the error rate (percent) that opens the circuit */
  errorThresholdPercentage: number;
  /** the rolling window the rate is computed over, ms */
  rollingCountTimeoutMs: number;
  /** errors that say nothing about the server's health (the call was wrong, or cancelled) */
  ignore(err: unknown): boolean;
  /** called on every change of state */
  onStateChange(state: BreakerState): void;
}

export type CircuitBreakerFactory = (options: CircuitBreakerOptions) => CircuitBreaker;

/** The circuit is open: the call was refused without reaching the server. */
export class BreakerOpenError extends Error {
  readonly isBreakerOpen = true as const;
  constructor() {
    super('circuit open after repeated failures; calls are refused until it half-opens');
    this.name = 'BreakerOpenError';
  }
}

export function isBreakerOpen(err: unknown): err is BreakerOpenError {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { isBreakerOpen?: unknown }).isBreakerOpen === true
  );
}
