import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { unauthenticated, unavailable } from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import type { AuthContext } from '../http/route';

export interface OidcOptions {
  /** INQUEST_OIDC_ISSUER, e.g. https://idp.example.com/realms/acme */
  issuer: string;
  /** INQUEST_OIDC_AUDIENCE */
  audience: string;
  /** claim naming the team (INQUEST_OIDC_TEAM_CLAIM, default inquest_team) */
  teamClaim?: string;
  /** claim listing permissions (INQUEST_OIDC_PERMISSIONS_CLAIM, default inquest_permissions) */
  permissionsClaim?: string;
  /** allowed clock difference for exp/nbf/iat, seconds (default 60) */
  clockToleranceSec?: number;
  /** how long the discovery document is trusted, ms (default 1 h) */
  discoveryTtlMs?: number;
  /** timeout of discovery and JWKS requests, ms (default 3 s) */
  fetchTimeoutMs?: number;
  /** least time between two JWKS refetches triggered by an unknown kid, ms (default 30 s) */
  jwksCooldownMs?: number;
  logger?: Logger;
}

/** Asymmetric algorithms only: an HMAC or `none` token can never pass. */
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
const NODE_ID = /^[a-z0-9][a-z0-9-]{1,62}$/;
const DISCOVERY_RETRY_MS = 2000;

/** jose errors that mean the identity provider could not be reached rather than a bad token. */
const UNREACHABLE_CODES = new Set(['ERR_JWKS_TIMEOUT']);

/**
 * Verifies OIDC JWTs: issuer discovery (cached), JWKS from the discovered jwks_uri (cached by
 * jose, refetched when an unknown kid shows up, so key rotation needs no restart), issuer,
 * audience, expiry with 60 s skew. Claims are mapped per API-DECISIONS "Authentication".
 */
export class OidcVerifier {
  private jwks?: { keys: JWTVerifyGetKey; expires: number };
  private discovering?: Promise<JWTVerifyGetKey>;
  private lastFailure = 0;
  private readonly teamClaim: string;
  private readonly permissionsClaim: string;

  constructor(private readonly options: OidcOptions) {
    this.teamClaim = options.teamClaim ?? 'inquest_team';
    this.permissionsClaim = options.permissionsClaim ?? 'inquest_permissions';
  }

  async verify(token: string): Promise<AuthContext> {
    const keys = await this.keys();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: this.options.clockToleranceSec ?? 60,
        algorithms: ALGORITHMS,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (err) {
      if (isUnreachable(err)) {
        this.options.logger?.warn({ err: String(err) }, 'OIDC JWKS unreachable');
        throw unavailable('the identity provider is unavailable');
      }
      throw unauthenticated();
    }
    return this.toAuth(payload);
  }

  private toAuth(payload: JWTPayload): AuthContext {
    const sub = payload.sub;
    if (typeof sub !== 'string' || sub === '') throw unauthenticated();
    const email =
      typeof payload['email'] === 'string' && payload['email'] !== '' ? payload['email'] : sub;
    const teamRaw = payload[this.teamClaim];
    const team = typeof teamRaw === 'string' && NODE_ID.test(teamRaw) ? teamRaw : undefined;
    return {
      kind: 'oidc',
      teamId: team,
      principal: sub,
      identity: email,
      permissions: permissionsOf(payload[this.permissionsClaim]),
    };
  }

  /** The JWKS key getter, discovering the issuer's jwks_uri first (cached, retried after failures). */
  private async keys(): Promise<JWTVerifyGetKey> {
    if (this.jwks && this.jwks.expires > Date.now()) return this.jwks.keys;
    if (this.discovering) return this.discovering;
    if (!this.jwks && Date.now() - this.lastFailure < DISCOVERY_RETRY_MS) {
      throw unavailable('the identity provider is unavailable');
    }
    this.discovering = this.discover()
      .then((keys) => {
        this.jwks = { keys, expires: Date.now() + (this.options.discoveryTtlMs ?? 3_600_000) };
        return keys;
      })
      .catch((err: unknown) => {
        this.lastFailure = Date.now();
        this.options.logger?.warn(
          { err: String(err), issuer: this.options.issuer },
          'OIDC discovery failed',
        );
        // a stale key set beats refusing every user while the IdP's discovery endpoint hiccups
        if (this.jwks) return this.jwks.keys;
        throw unavailable('the identity provider is unavailable');
      })
      .finally(() => {
        this.discovering = undefined;
      });
    return this.discovering;
  }

  private async discover(): Promise<JWTVerifyGetKey> {
    const timeout = this.options.fetchTimeoutMs ?? 3000;
    const url = `${this.options.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const res = await fetch(url, { signal: AbortSignal.timeout(timeout), redirect: 'error' });
    if (res.status !== 200) throw new Error(`discovery answered ${res.status}`);
    const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // OIDC Discovery 1.0 section 4.3: the document must name exactly the configured issuer
    if (doc.issuer !== this.options.issuer)
      throw new Error(`discovery names issuer ${String(doc.issuer)}`);
    if (typeof doc.jwks_uri !== 'string') throw new Error('discovery has no jwks_uri');
    const jwksUrl = new URL(doc.jwks_uri);
    if (jwksUrl.protocol !== 'https:' && jwksUrl.protocol !== 'http:')
      throw new Error('jwks_uri is not http(s)');
    return createRemoteJWKSet(jwksUrl, {
      timeoutDuration: timeout,
      cooldownDuration: this.options.jwksCooldownMs ?? 30_000,
      cacheMaxAge: 600_000,
    });
  }
}

function isUnreachable(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  // fetch failures (refused connection, non-200 JWKS answer) while loading keys
  if (err instanceof TypeError && /fetch/i.test(err.message)) return true;
  const message = (err as { message?: unknown }).message;
  return (
    typeof message === 'string' && message.startsWith('Expected 200 OK from the JSON Web Key Set')
  );
}

/** `["read","write"]` or `"read write"`; only read and write count; absent means read only. */
function permissionsOf(claim: unknown): string[] {
  if (claim === undefined) return ['read'];
  const list = Array.isArray(claim)
    ? claim
    : typeof claim === 'string'
      ? claim.split(/[\s,]+/)
      : [];
  const set = new Set(list.filter((p): p is string => p === 'read' || p === 'write'));
  if (set.has('write')) set.add('read');
  return ['read', 'write'].filter((p) => set.has(p));
}
