import type { ServerResponse } from 'node:http';

/**
 * The abort signal of one request, made only when something asks for it: most answers come from
 * caches that never look at it, and an AbortController (with its listener on the response) is
 * among the costliest allocations of a request. It aborts as an eager one would: when the request
 * times out, or when the client closes the connection after `watch()` and before the answer ended.
 */
export class RequestAbort {
  private controller?: AbortController;
  private watching = false;
  private destroyedAtWatch = false;
  private timedOut?: unknown;

  constructor(private readonly res: ServerResponse) {}

  /** From now on, the client closing the connection before the answer ended aborts the request. */
  watch(): void {
    this.watching = true;
    this.destroyedAtWatch = this.res.destroyed;
    if (this.controller) this.listen(this.controller);
  }

  /** Aborts with `reason` (the signal, when made later, is already aborted with it). */
  abort(reason: unknown): void {
    if (this.controller) this.controller.abort(reason);
    else if (this.timedOut === undefined) this.timedOut = reason;
  }

  get aborted(): boolean {
    if (this.controller) return this.controller.signal.aborted;
    return this.timedOut !== undefined || this.clientLeft();
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      const ac = new AbortController();
      this.controller = ac;
      if (this.timedOut !== undefined) ac.abort(this.timedOut);
      else if (this.clientLeft()) ac.abort(new Error('client closed the connection'));
      else if (this.watching) this.listen(ac);
    }
    return this.controller.signal;
  }

  /** the connection closed since watch() while the answer had not ended */
  private clientLeft(): boolean {
    return this.watching && !this.destroyedAtWatch && this.res.destroyed && !this.res.writableEnded;
  }

  private listen(ac: AbortController): void {
    // a close before watch() never aborted the request; one after it does, as long as unanswered
    if (this.destroyedAtWatch) return;
    const res = this.res;
    res.on('close', () => {
      if (!res.writableEnded) ac.abort(new Error('client closed the connection'));
    });
  }
}
