import { laneOf, type Delivery, type DeliveryChannel, type DeliveryStore } from '@inquest/store';
import type { Logger } from '@inquest/observability';
import { outcomeOf, type AttemptResult } from './attempt-result';
import type { RetryPolicy } from './retry-policy';

/** Makes one attempt of a delivery. Never throws for a receiver's fault: it reports it. */
export interface Sender {
  send(delivery: Delivery, signal: AbortSignal): Promise<AttemptResult>;
}

export interface DispatcherOptions {
  store: DeliveryStore;
  senders: Record<DeliveryChannel, Sender>;
  policy: RetryPolicy;
  /** this replica's name in leases */
  owner: string;
  leaseMs: number;
  /** attempts at once in this replica */
  concurrency: number;
  /** attempts at once per lane (team + channel) */
  laneConcurrency: number;
  /** longest sleep between looks at the log */
  pollMs: number;
  logger: Logger;
  /** observes every finished attempt (metrics, benchmarks) */
  onAttempt?: (delivery: Delivery, result: AttemptResult, durationMs: number) => void;
  now?: () => number;
  random?: () => number;
}

/**
 * Runs due deliveries: claims them from the log under a lease (so replicas never run the same
 * attempt), sends each in its lane, and records the outcome with the retry schedule. Lanes are
 * bounded separately, so a receiver that hangs only ties up its own team's lane.
 */
export class Dispatcher {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly laneLoad = new Map<string, number>();
  private readonly abort = new AbortController();
  private wake: (() => void) | undefined;
  private kicked = false;
  private loop: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly o: DispatcherOptions) {}

  start(): void {
    this.loop ??= this.run().catch((err: unknown) => {
      this.o.logger.error({ err }, 'delivery dispatcher stopped unexpectedly');
    });
  }

  /** Something may have become due (a new delivery, a redelivery). */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  /** Stops claiming; waits up to graceMs for attempts in flight, then interrupts them (their claims are released). */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    const all = Promise.all(this.inFlight.values());
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      this.abort.abort(new Error('notifier shutting down'));
      await all;
    }
  }

  get busy(): number {
    return this.inFlight.size;
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.kicked = false;
      let claimedAll = false;
      const free = this.o.concurrency - this.inFlight.size;
      if (free > 0) {
        try {
          const laneCapacity: Record<string, number> = {};
          for (const [lane, n] of this.laneLoad) laneCapacity[lane] = this.o.laneConcurrency - n;
          const claimed = await this.o.store.claimDue({
            owner: this.o.owner,
            now: new Date(this.now()).toISOString(),
            leaseMs: this.o.leaseMs,
            limit: free,
            laneCapacity,
            defaultLaneCapacity: this.o.laneConcurrency,
          });
          for (const d of claimed) this.launch(d);
          claimedAll = claimed.length === free;
        } catch (err) {
          this.o.logger.error({ err }, 'claiming due deliveries failed; will retry');
        }
      }
      if (this.stopped) break;
      // A full batch means more may be waiting; otherwise sleep until something can change.
      if (claimedAll || this.kicked) continue;
      await this.sleep(await this.sleepMs());
    }
  }

  private async sleepMs(): Promise<number> {
    try {
      const next = await this.o.store.nextDueAt();
      if (next === undefined) return this.o.pollMs;
      const wait = Date.parse(next) - this.now();
      // Due now but not claimable here (lane full): an attempt finishing will wake us.
      return wait <= 0 ? this.o.pollMs : Math.min(this.o.pollMs, wait);
    } catch {
      return this.o.pollMs;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  private launch(d: Delivery): void {
    const lane = laneOf(d);
    this.laneLoad.set(lane, (this.laneLoad.get(lane) ?? 0) + 1);
    const p = this.attempt(d).finally(() => {
      this.inFlight.delete(d.delivery_id);
      const left = (this.laneLoad.get(lane) ?? 1) - 1;
      if (left > 0) this.laneLoad.set(lane, left);
      else this.laneLoad.delete(lane);
      this.kick();
    });
    this.inFlight.set(d.delivery_id, p);
  }

  private async attempt(d: Delivery): Promise<void> {
    const started = this.now();
    let result: AttemptResult;
    try {
      const sender = this.o.senders[d.channel];
      result = await sender.send(d, this.abort.signal);
    } catch (err) {
      result = this.abort.signal.aborted
        ? { outcome: 'aborted' }
        : { outcome: 'retry', error: `attempt failed: ${(err as Error).message ?? String(err)}` };
    }
    const outcome = outcomeOf(d, result, this.o.policy, this.now(), this.o.random);
    try {
      const recorded = await this.o.store.complete(d.delivery_id, d.claim_id ?? '', outcome);
      if (!recorded) {
        this.o.logger.warn(
          { delivery_id: d.delivery_id },
          'claim lost before the outcome was recorded',
        );
      }
    } catch (err) {
      // The lease runs out and the delivery is attempted again: at least once.
      this.o.logger.error(
        { err, delivery_id: d.delivery_id },
        'recording an attempt outcome failed',
      );
    }
    const log = {
      delivery_id: d.delivery_id,
      team_id: d.team_id,
      channel: d.channel,
      event: d.event,
      attempt: outcome.attempts,
      status: outcome.status,
      status_code: outcome.last_status_code,
      error: outcome.last_error,
      next_attempt_at: outcome.next_attempt_at,
    };
    if (outcome.status === 'delivered') this.o.logger.debug(log, 'delivered');
    else this.o.logger.info(log, 'delivery attempt did not succeed');
    this.o.onAttempt?.(d, result, this.now() - started);
  }
}
