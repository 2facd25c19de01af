import * as crypto from 'node:crypto';
import type { AuthContext } from '../http/route';

interface Entry {
  /** null: the token was refused (negative entry) */
  auth: AuthContext | null;
  expires: number;
}

export interface TokenCacheOptions {
  positiveTtlMs: number;
  negativeTtlMs: number;
  /** entries kept at most; the oldest go first (bounds memory under random-token floods) */
  maxEntries?: number;
  now?: () => number;
}

/** crypto.hash (Node >= 20.12, not in these typings yet): one call, no Hash object per token */
const oneShot = (
  crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }
).hash;

/** SHA-256 of a token, base64url: the cache key. */
export const tokenKey: (token: string) => string = oneShot
  ? (token) => oneShot('sha256', token, 'base64url')
  : (token) => crypto.createHash('sha256').update(token).digest('base64url');

/**
 * Short-lived cache of team-token verifications keyed by the SHA-256 of the whole token (the
 * secret never sits in memory as a key). Invalidation bumps a generation so a verification that
 * was in flight while a token was revoked cannot store its stale answer.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<AuthContext | null>>();
  private generation = 0;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** lowered when invalidation events cannot be received */
  positiveTtlMs: number;

  constructor(private readonly options: TokenCacheOptions) {
    this.positiveTtlMs = options.positiveTtlMs;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The cached answer, else runs `verify` once for concurrent callers and caches its answer. An
   * accepted credential is cached until its own expiry at the latest.
   */
  async get(token: string, verify: () => Promise<AuthContext | null>): Promise<AuthContext | null> {
    const key = tokenKey(token);
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.auth;
    if (hit) this.entries.delete(key);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const gen = this.generation;
    const p = verify()
      .then((auth) => {
        if (gen === this.generation) this.store(key, auth);
        return auth;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  /** Drops every entry of one token id (revocation). */
  invalidateTokenId(tokenId: string): void {
    this.generation++;
    this.inFlight.clear();
    for (const [k, e] of this.entries) {
      if (e.auth === null || e.auth.principal === tokenId) this.entries.delete(k);
    }
  }

  /** Drops everything (a change whose effect on tokens is unknown, e.g. a deleted team). */
  clear(): void {
    this.generation++;
    this.inFlight.clear();
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, auth: AuthContext | null): void {
    const ttl = auth ? this.positiveTtlMs : this.options.negativeTtlMs;
    const now = this.now();
    const expires = Math.min(now + ttl, auth?.expiresAt ?? Infinity);
    if (expires <= now) return;
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { auth, expires });
  }
}
