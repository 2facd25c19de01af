import { isDomainError } from '@inquest/errors';
import { resolveKind, resolveKindIn, type KindInfo } from '@inquest/kube';

export interface KindCatalogueOptions {
  /** what the API server's discovery lists */
  discover: () => Promise<KindInfo[]>;
  /** how long a discovery answer is used (default 5 min) */
  ttlMs?: number;
  /**
   * a kind discovery did not list is looked up again once the answer is this old (default 30 s):
   * a CRD installed since is found without waiting for the TTL
   */
  missRefreshMs?: number;
  /** wall clock (tests) */
  clock?: () => number;
}

export interface KindLookup {
  info?: KindInfo;
  /** why discovery could not be asked, when it could not */
  discoveryError?: string;
}

/**
 * Resolves typed kinds as kubectl does: the built-in kinds without asking the API server, any
 * other kind (custom resources) against the API server's discovery, cached with a TTL and
 * refreshed by one request at a time.
 */
export class KindCatalogue {
  private kinds: KindInfo[] | undefined;
  private loadedAt = 0;
  private pending: Promise<KindInfo[]> | undefined;
  private readonly ttlMs: number;
  private readonly missRefreshMs: number;
  private readonly clock: () => number;
  /** discovery requests made (benchmarks and tests read it) */
  discoveries = 0;

  constructor(private readonly opts: KindCatalogueOptions) {
    this.ttlMs = opts.ttlMs ?? 5 * 60_000;
    this.missRefreshMs = opts.missRefreshMs ?? 30_000;
    this.clock = opts.clock ?? Date.now;
  }

  async resolve(input: string): Promise<KindLookup> {
    const builtin = resolveKind(input);
    if (builtin) return { info: builtin };
    let kinds: KindInfo[];
    try {
      kinds = await this.current(false);
    } catch (e) {
      return { discoveryError: isDomainError(e) || e instanceof Error ? e.message : String(e) };
    }
    let info = resolveKindIn(input, kinds);
    if (!info && this.clock() - this.loadedAt >= this.missRefreshMs) {
      try {
        info = resolveKindIn(input, await this.current(true));
      } catch {
        // the answer we had stands
      }
    }
    return info ? { info } : {};
  }

  /** The cached discovery answer; a fresh one when it is older than the TTL (or `force`). */
  private async current(force: boolean): Promise<KindInfo[]> {
    const fresh = this.kinds && this.clock() - this.loadedAt < this.ttlMs;
    if (fresh && !force) return this.kinds!;
    if (!this.pending) {
      this.discoveries++;
      this.pending = this.opts
        .discover()
        .then((kinds) => {
          this.kinds = kinds;
          this.loadedAt = this.clock();
          return kinds;
        })
        .finally(() => {
          this.pending = undefined;
        });
    }
    try {
      return await this.pending;
    } catch (e) {
      // a stale answer beats none while the API server's discovery fails
      if (this.kinds) return this.kinds;
      throw e;
    }
  }
}
