/**
 * Remembers what Slack already delivered (event ids, button presses) for a window: Slack retries
 * an event it thinks went unanswered (`X-Slack-Retry-Num`), possibly to another gateway replica,
 * and the work must run once. Adapters: memory (one process), SQLite (replicas sharing a data
 * directory), MongoDB (replicas anywhere).
 */
export interface SeenEvents {
  /** true the first time `id` is seen within the window (by any gateway sharing the store) */
  first(id: string, nowMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** How long a delivery is remembered: Slack retries within minutes, an hour is ample. */
export const SEEN_EVENTS_TTL_MS = 3_600_000;

/** One process's memory: the all-in-one mode, where there is only one gateway. */
export class InMemorySeenEvents implements SeenEvents {
  private readonly seen = new Map<string, number>();
  constructor(
    private readonly ttlMs = SEEN_EVENTS_TTL_MS,
    private readonly max = 50_000,
  ) {}

  async first(id: string, now: number): Promise<boolean> {
    const at = this.seen.get(id);
    if (at !== undefined && now - at < this.ttlMs) return false;
    // re-inserted so the map stays in order of last sighting for the sweep below
    this.seen.delete(id);
    this.seen.set(id, now);
    if (this.seen.size > this.max) {
      for (const [k, t] of this.seen) {
        if (now - t < this.ttlMs && this.seen.size <= this.max * 0.9) break;
        this.seen.delete(k);
      }
    }
    return true;
  }

  async close(): Promise<void> {
    this.seen.clear();
  }
}
