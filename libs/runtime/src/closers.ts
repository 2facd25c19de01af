import type { Logger } from '@inquest/observability';

/** Something a service holds open until it stops. */
export type Closer = () => unknown;

export interface ClosersOptions {
  /** where a closer's failure or overrun is reported (it is never thrown) */
  logger?: Pick<Logger, 'warn'>;
  /** how long one closer may take before the next one runs; default 5 s */
  timeoutMs?: number;
}

/**
 * The shutdown stack of a composition root: what is opened first is closed last (LIFO). Each
 * closer gets `timeoutMs`; one that throws or overruns is logged and the rest still run, so a
 * stuck connection cannot keep the others open.
 */
export class Closers {
  private readonly stack: { name: string; close: Closer; timeoutMs: number }[] = [];
  private readonly timeoutMs: number;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: ClosersOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  /**
   * Registers `close` to run at shutdown, before everything registered earlier; `timeoutMs`
   * overrides the default bound (a server that drains its calls needs longer).
   */
  add(name: string, close: Closer, options: { timeoutMs?: number } = {}): void {
    this.stack.push({ name, close, timeoutMs: options.timeoutMs ?? this.timeoutMs });
  }

  /** Runs every closer once, newest first; later calls share the first run. */
  closeAll(): Promise<void> {
    this.closing ??= this.run();
    return this.closing;
  }

  private async run(): Promise<void> {
    for (let c = this.stack.pop(); c; c = this.stack.pop()) {
      const { name, close, timeoutMs } = c;
      let timer: NodeJS.Timeout | undefined;
      const overrun = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
        timer.unref();
      });
      try {
        const outcome = await Promise.race([Promise.resolve().then(() => close()), overrun]);
        if (outcome === 'timeout')
          this.options.logger?.warn(
            { closer: name, timeout_ms: timeoutMs },
            'shutdown: closer did not finish in time, going on',
          );
      } catch (err) {
        this.options.logger?.warn({ err, closer: name }, 'shutdown: closer failed, going on');
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
