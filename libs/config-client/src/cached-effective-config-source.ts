import {
  Subjects,
  type ConfigChangedEvent,
  type EventBus,
  type Subscription,
} from '@inquest/events';
import type { Logger } from '@inquest/observability';
import type {
  ConfigChange,
  EffectiveConfig,
  EffectiveConfigLoader,
  EffectiveConfigSource,
  ReadOptions,
} from './effective-config-source';

export interface CachedEffectiveConfigSourceOptions {
  load: EffectiveConfigLoader;
  /**
   * `inquest.v1.config.changed` arrives here. Without a bus (or until its subscription is live)
   * nothing is cached or shared: every read asks config-hierarchy, so no answer can be stale.
   */
  bus?: EventBus;
  /** how long an answer is fresh, ms (default 30 s) */
  ttlMs?: number;
  /**
   * how long after `ttlMs` an answer is still served while one caller's read refreshes it in the
   * background (stale-while-revalidate), ms (default 0: an expired answer is waited for).
   * A change event drops the answer at once, stale or not.
   */
  staleMs?: number;
  /**
   * after a failed load: how long the failure is answered without asking again (or, when an older
   * answer exists, how long that answer is served before the next try), ms (default 0)
   */
  errorTtlMs?: number;
  /** teams kept; beyond it the cache starts over (default 10,000) */
  maxEntries?: number;
  /** the clock, ms (tests pass a fake one) */
  now?: () => number;
  logger?: Logger;
  /** closes the transport behind `load` (called by `close`) */
  onClose?: () => void | Promise<void>;
}

interface Entry {
  value?: EffectiveConfig;
  error?: unknown;
  freshUntil: number;
  staleUntil: number;
}

/**
 * The caching `EffectiveConfigSource` over any loader: answers by team for `ttlMs`, one load for all
 * concurrent callers of a team (single flight), an expired answer served while it is refreshed
 * (stale-while-revalidate, `staleMs`), an entry dropped when a change event names its team. A load
 * that started before a change is neither kept nor joined by later callers (generation check).
 */
export class CachedEffectiveConfigSource implements EffectiveConfigSource {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, { gen: number; p: Promise<EffectiveConfig> }>();
  private readonly listeners = new Set<(change: ConfigChange) => void>();
  private generation = 0;
  private subscription?: Subscription;
  private closed = false;
  private listening = false;
  /** resolves once the change subscription is live (or has failed: then nothing is cached) */
  readonly ready: Promise<void>;
  private readonly ttlMs: number;
  private readonly staleMs: number;
  private readonly errorTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly o: CachedEffectiveConfigSourceOptions) {
    this.ttlMs = o.ttlMs ?? 30_000;
    this.staleMs = o.staleMs ?? 0;
    this.errorTtlMs = o.errorTtlMs ?? 0;
    this.maxEntries = o.maxEntries ?? 10_000;
    this.now = o.now ?? Date.now;
    this.ready = o.bus ? this.listen(o.bus) : Promise.resolve();
  }

  /** A source whose change subscription is live (when a bus is given). */
  static async create(
    options: CachedEffectiveConfigSourceOptions,
  ): Promise<CachedEffectiveConfigSource> {
    const source = new CachedEffectiveConfigSource(options);
    await source.ready;
    return source;
  }

  /** true while answers are cached (the change subscription is live) */
  get caching(): boolean {
    return this.listening && !this.closed;
  }

  get(teamId: string, options: ReadOptions = {}): Promise<EffectiveConfig> {
    if (!this.caching) return this.o.load(teamId, options);
    const now = this.now();
    const e = this.entries.get(teamId);
    if (e && now < e.freshUntil) {
      return e.value ? Promise.resolve(e.value) : Promise.reject(e.error);
    }
    if (e?.value && now < e.staleUntil) {
      this.shared(teamId, options).catch(() => undefined);
      return Promise.resolve(e.value);
    }
    return abortable(this.shared(teamId, options), options.signal);
  }

  invalidate(teamId?: string): void {
    this.drop(teamId);
    this.emit(teamId === undefined ? {} : { teamId });
  }

  onChange(listener: (change: ConfigChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.drop(undefined);
    await this.ready;
    const sub = this.subscription;
    this.subscription = undefined;
    await sub?.unsubscribe().catch(() => undefined);
    await this.o.onClose?.();
  }

  /** The load of a team in flight since the last change, else a new one (without any caller's signal). */
  private shared(teamId: string, options: ReadOptions): Promise<EffectiveConfig> {
    const gen = this.generation;
    const pending = this.loading.get(teamId);
    if (pending && pending.gen === gen) return pending.p;
    const p = this.o
      .load(teamId, options.requestId ? { requestId: options.requestId } : {})
      .then(
        (value) => {
          if (gen === this.generation && this.caching) {
            const now = this.now();
            this.put(teamId, {
              value,
              freshUntil: now + this.ttlMs,
              staleUntil: now + this.ttlMs + this.staleMs,
            });
          }
          return value;
        },
        (err: unknown) => {
          if (gen === this.generation && this.caching && this.errorTtlMs > 0) {
            const now = this.now();
            const old = this.entries.get(teamId);
            // an older answer keeps being served until the next try; else the failure is
            this.put(
              teamId,
              old?.value
                ? {
                    value: old.value,
                    freshUntil: now + this.errorTtlMs,
                    staleUntil: Math.max(old.staleUntil, now + this.errorTtlMs),
                  }
                : { error: err, freshUntil: now + this.errorTtlMs, staleUntil: 0 },
            );
          }
          if (this.entries.get(teamId)?.value)
            this.o.logger?.warn(
              { err, team_id: teamId },
              'effective config refresh failed; serving the last answer',
            );
          throw err;
        },
      )
      .finally(() => {
        if (this.loading.get(teamId)?.p === p) this.loading.delete(teamId);
      });
    this.loading.set(teamId, { gen, p });
    return p;
  }

  private put(teamId: string, entry: Entry): void {
    if (!this.entries.has(teamId) && this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(teamId, entry);
  }

  private drop(teamId: string | undefined): void {
    this.generation++;
    if (teamId === undefined) this.entries.clear();
    else this.entries.delete(teamId);
  }

  private emit(change: ConfigChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch (err) {
        this.o.logger?.warn({ err }, 'config change listener failed');
      }
    }
  }

  private async listen(bus: EventBus): Promise<void> {
    try {
      const sub = await bus.subscribe(Subjects.configChanged, async (msg) => {
        // typed by EventMap; still checked, as it arrives from the wire (and older producers)
        const data: Partial<ConfigChangedEvent> = msg.data ?? {};
        const teamId = typeof data.team_id === 'string' && data.team_id ? data.team_id : undefined;
        const nodeId = typeof data.node_id === 'string' && data.node_id ? data.node_id : undefined;
        this.drop(teamId);
        this.emit({ ...(teamId ? { teamId } : {}), ...(nodeId ? { nodeId } : {}) });
      });
      if (this.closed) await sub.unsubscribe().catch(() => undefined);
      else {
        this.subscription = sub;
        this.listening = true;
      }
    } catch (err) {
      this.o.logger?.warn(
        { err },
        'cannot subscribe to config changes; effective configs are not cached',
      );
    }
  }
}

/** `p`, or a rejection when `signal` aborts first (p keeps running for its other callers). */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}
