import OpossumBreaker from 'opossum';
import { DomainError, isDomainError } from '@inquest/errors';
import type { Logger } from '@inquest/observability';

export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitBreakerOptions {
  /** what is called, for messages and logs: `the language model`, `Slack` */
  name: string;
  /** the code of the `unavailable` error a call gets while the circuit is open */
  openCode?: string;
  /** how long the circuit stays open before one trial call (default 30 s) */
  resetTimeoutMs?: number;
  /** calls in the window before it may open (default 5) */
  volumeThreshold?: number;
  /** failure share that opens it (default 50) */
  errorThresholdPercentage?: number;
  /** the window (default 60 s) */
  rollingCountTimeoutMs?: number;
  /**
   * errors that are the caller's, not the remote's, and do not count; default: domain errors
   * other than unavailable, timeout and internal (a refused request says the remote is up)
   */
  ignore?: (err: unknown) => boolean;
  logger?: Pick<Logger, 'warn' | 'info'>;
}

/** A circuit breaker around calls that leave the process for a third party. */
export interface CircuitBreaker {
  /**
   * Runs `call` unless the circuit is open (then rejects at once with an `unavailable`
   * DomainError). A failure while `signal` is aborted is the caller's cancel: never counted.
   */
  fire<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly state: CircuitState;
  shutdown(): void;
}

const countsByDefault = (err: unknown) =>
  !isDomainError(err) ||
  err.kind === 'unavailable' ||
  err.kind === 'timeout' ||
  err.kind === 'internal';

/** Carries a failure that happened after the caller had cancelled: not the remote's fault. */
class CallerCancelled {
  constructor(readonly error: unknown) {}
}

/** A circuit breaker on opossum (no timeout of its own: the calls carry their deadline). */
export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const ignore = options.ignore ?? ((err: unknown) => !countsByDefault(err));
  const breaker = new OpossumBreaker<[() => Promise<unknown>], unknown>((fn) => fn(), {
    timeout: false,
    resetTimeout: options.resetTimeoutMs ?? 30_000,
    volumeThreshold: options.volumeThreshold ?? 5,
    errorThresholdPercentage: options.errorThresholdPercentage ?? 50,
    rollingCountTimeout: options.rollingCountTimeoutMs ?? 60_000,
    errorFilter: (err: unknown) => err instanceof CallerCancelled || ignore(err),
  });
  breaker.on('open', () =>
    options.logger?.warn({ circuit: options.name }, 'circuit opened after repeated failures'),
  );
  breaker.on('close', () => options.logger?.info({ circuit: options.name }, 'circuit closed'));
  return {
    async fire<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      try {
        return (await breaker.fire(() =>
          call().catch((err: unknown) => {
            throw signal?.aborted ? new CallerCancelled(err) : err;
          }),
        )) as T;
      } catch (err) {
        if (err instanceof CallerCancelled) throw err.error;
        if ((err as { code?: unknown } | null)?.code === 'EOPENBREAKER')
          throw new DomainError(
            'unavailable',
            options.openCode ?? 'unavailable',
            `${options.name}: circuit open after repeated failures; calls are refused for a while`,
          );
        throw err;
      }
    },
    get state(): CircuitState {
      return breaker.opened ? 'open' : breaker.halfOpen ? 'half_open' : 'closed';
    },
    shutdown: () => breaker.shutdown(),
  };
}
