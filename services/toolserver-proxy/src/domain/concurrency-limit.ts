import { DomainError } from '@inquest/errors';

/** At most `max` holders at once; the rest wait in order (and leave the queue when aborted). */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Array<{ resolve: () => void }> = [];

  constructor(private readonly max: number) {}

  get inFlight(): number {
    return this.active;
  }

  async acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) throw cancelled();
    if (this.active < this.max) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(cancelled());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      // hand the slot straight to the next waiter
      if (next) next.resolve();
      else this.active--;
    };
  }
}

export function cancelled(): DomainError {
  return new DomainError('unavailable', 'cancelled', 'the tool call was cancelled');
}
