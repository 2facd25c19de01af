import OpossumBreaker from 'opossum';
import {
  BreakerOpenError,
  type BreakerState,
  type CircuitBreaker,
  type CircuitBreakerFactory,
} from '../domain/circuit-breaker';

/** The circuit breaker port on opossum (no timeout of its own: the calls carry their deadline). */
export const opossumCircuitBreaker: CircuitBreakerFactory = (options) => {
  const breaker = new OpossumBreaker<[() => Promise<unknown>], unknown>((fn) => fn(), {
    timeout: false,
    resetTimeout: options.resetTimeoutMs,
    volumeThreshold: options.volumeThreshold,
    errorThresholdPercentage: options.errorThresholdPercentage,
    rollingCountTimeout: options.rollingCountTimeoutMs,
    errorFilter: (err: unknown) => options.ignore(err),
  });
  breaker.on('open', () => options.onStateChange('open'));
  breaker.on('halfOpen', () => options.onStateChange('half_open'));
  breaker.on('close', () => options.onStateChange('closed'));
  const port: CircuitBreaker = {
    async fire<T>(fn: () => Promise<T>): Promise<T> {
      try {
        return (await breaker.fire(fn)) as T;
      } catch (err) {
        if ((err as { code?: unknown })?.code === 'EOPENBREAKER') throw new BreakerOpenError();
        throw err;
      }
    },
    get state(): BreakerState {
      if (breaker.halfOpen) return 'half_open';
      return breaker.opened ? 'open' : 'closed';
    },
    shutdown: () => breaker.shutdown(),
  };
  return port;
};
