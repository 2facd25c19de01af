import { createHash, timingSafeEqual } from 'node:crypto';
import { CONFIG_READ_POLICY, type EffectiveConfigSource } from '@inquest/config-client';
import { unauthenticated } from '@inquest/errors';
import { Subjects, type EventBus, type Subscription } from '@inquest/events';
import type { PromiseClient } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import type { configV1 } from '@inquest/proto';
import type { AuthContext } from '../http/route';
import type { Authenticator, Credentials } from './authenticator';
import type { OidcVerifier } from './oidc-verifier';
import { TokenCache } from './token-cache';

export interface TokenAuthenticatorOptions {
  /** SHA-256 (hex) of the admin token, if admin access is configured */
  adminTokenSha256?: string;
  config: PromiseClient<configV1.ConfigServiceClient>;
  /** OIDC JWT verification, when an issuer is configured */
  oidc?: OidcVerifier;
  /**
   * Revocations (`inquest.v1.config.token_revoked`) arrive here and drop cached verifications at
   * once. Without a bus the positive cache lasts at most 1 s.
   */
  bus?: EventBus;
  /** config changes this gateway hears of (its effective-config source) drop every verification */
  configChanges?: Pick<EffectiveConfigSource, 'onChange'>;
  /** how long an accepted team token is cached (default 30 s with a bus, 1 s without) */
  positiveTtlMs?: number;
  /** how long a refused team token is cached (default 5 s) */
  negativeTtlMs?: number;
  /** deadline of VerifyToken (default: the config read policy's, 2 s) */
  verifyDeadlineMs?: number;
  logger?: Logger;
}

const BEARER = /^Bearer[ \t]+(\S{1,8192})[ \t]*$/i;
const TEAM_TOKEN = /^tok_[A-Za-z0-9]{1,64}\.[A-Za-z0-9_-]{8,256}$/;
const JWT = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const bearerToken = (authorization: string | undefined): string | undefined =>
  authorization ? BEARER.exec(authorization)?.[1] : undefined;

/**
 * Admin token (constant-time hash compare), team tokens (verified by config-hierarchy, cached
 * briefly and invalidated by events) and OIDC JWTs. Every refusal is the same 401.
 */
export class TokenAuthenticator implements Authenticator {
  private readonly adminHash?: Buffer;
  private readonly cache: TokenCache;
  private subscriptions: Subscription[] = [];
  private offConfigChange?: () => void;
  /** resolves once the invalidation subscriptions are live */
  readonly ready: Promise<void>;

  constructor(private readonly options: TokenAuthenticatorOptions) {
    if (options.adminTokenSha256) this.adminHash = Buffer.from(options.adminTokenSha256, 'hex');
    this.cache = new TokenCache({
      positiveTtlMs: options.positiveTtlMs ?? (options.bus ? 30_000 : 1000),
      negativeTtlMs: options.negativeTtlMs ?? 5000,
    });
    this.ready = options.bus ? this.listen(options.bus) : Promise.resolve();
    this.offConfigChange = options.configChanges?.onChange(() => this.cache.clear());
  }

  async authenticate(credentials: Credentials): Promise<AuthContext> {
    const token = bearerToken(credentials.authorization);
    if (!token) throw unauthenticated();
    if (token.startsWith('admin.')) return this.admin(token);
    if (TEAM_TOKEN.test(token)) return this.team(token, credentials);
    if (this.options.oidc && JWT.test(token)) return this.options.oidc.verify(token);
    throw unauthenticated();
  }

  /** An admin token, a team token or (with OIDC) a JWT: the forms `authenticate` verifies. */
  presentsCredential(authorization: string | undefined): boolean {
    const token = bearerToken(authorization);
    if (!token) return false;
    return (
      token.startsWith('admin.') ||
      TEAM_TOKEN.test(token) ||
      (this.options.oidc !== undefined && JWT.test(token))
    );
  }

  /** Stops listening for invalidations. */
  async close(): Promise<void> {
    this.offConfigChange?.();
    this.offConfigChange = undefined;
    const subs = this.subscriptions;
    this.subscriptions = [];
    await Promise.all(subs.map((s) => s.unsubscribe().catch(() => undefined)));
  }

  private admin(token: string): AuthContext {
    if (!this.adminHash) throw unauthenticated();
    const hash = createHash('sha256').update(token).digest();
    if (hash.length !== this.adminHash.length || !timingSafeEqual(hash, this.adminHash))
      throw unauthenticated();
    return {
      kind: 'admin',
      principal: 'admin',
      identity: 'admin',
      permissions: ['read', 'write', 'admin'],
    };
  }

  private async team(token: string, credentials: Credentials): Promise<AuthContext> {
    const auth = await this.cache.get(token, async () => {
      // an unreachable config-hierarchy throws (503) and is not cached
      const res = await this.options.config.verifyToken(
        { token },
        {
          ctx: { requestId: credentials.requestId },
          deadlineMs: this.options.verifyDeadlineMs ?? CONFIG_READ_POLICY.deadlineMs,
        },
      );
      if (!res.valid || !res.token) return null;
      const expiresAt = res.token.expires_at ? Date.parse(res.token.expires_at) : NaN;
      return {
        kind: 'team',
        teamId: res.token.team_id,
        principal: res.token.token_id,
        identity: res.token.owner,
        permissions: res.token.permissions,
        ...(Number.isNaN(expiresAt) ? {} : { expiresAt }),
      } satisfies AuthContext;
    });
    // The cache keeps a token no longer than its expiry; this covers an answer shared in flight.
    if (!auth || (auth.expiresAt !== undefined && auth.expiresAt <= Date.now()))
      throw unauthenticated();
    return auth;
  }

  private async listen(bus: EventBus): Promise<void> {
    try {
      this.subscriptions.push(
        await bus.subscribe(Subjects.tokenRevoked, async (msg) => {
          // typed by EventMap; still checked, as it arrives from the wire
          const tokenId: unknown = msg.data?.token_id;
          if (typeof tokenId === 'string') this.cache.invalidateTokenId(tokenId);
          else this.cache.clear();
        }),
      );
    } catch (err) {
      this.options.logger?.error(
        { err },
        'cannot subscribe to token revocations; caching team tokens for 1 s only',
      );
      this.cache.clear();
      this.cache.positiveTtlMs = Math.min(this.cache.positiveTtlMs, 1000);
    }
  }
}
