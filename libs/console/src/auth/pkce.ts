// OIDC authorization code + PKCE (RFC 7636, S256) for the browser: pure helpers, WebCrypto only.
// The flow around them is in oidc.ts.

/** base64url without padding (RFC 4648 §5), as PKCE and JWTs use it. */
export function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `n` random bytes as base64url: 32 bytes give a 43-character PKCE verifier (RFC 7636 §4.1). */
export function randomToken(n = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(n)));
}

/** The S256 code challenge: base64url(SHA-256(ASCII(verifier))). */
export async function codeChallengeS256(verifier: string): Promise<string> {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier))
    throw new Error('a PKCE code verifier is 43..128 unreserved characters');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

export interface AuthorizationRequest {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  scopes: string;
  state: string;
  nonce: string;
  codeChallenge: string;
  /** some providers need it to issue an access token for the API */
  audience?: string;
}

/** The URL the browser is sent to (authorization code flow, PKCE S256). */
export function authorizationUrl(r: AuthorizationRequest): string {
  const url = new URL(r.authorizationEndpoint);
  const q = url.searchParams;
  q.set('response_type', 'code');
  q.set('client_id', r.clientId);
  q.set('redirect_uri', r.redirectUri);
  q.set('scope', r.scopes);
  q.set('state', r.state);
  q.set('nonce', r.nonce);
  q.set('code_challenge', r.codeChallenge);
  q.set('code_challenge_method', 'S256');
  if (r.audience) q.set('audience', r.audience);
  return url.toString();
}

export type CallbackResult =
  { ok: true; code: string } | { ok: false; error: string; description?: string };

/**
 * Reads the redirect back from the issuer: the code, if `state` is the one this tab sent.
 * A missing or different state is refused (a forged or replayed redirect, CSRF).
 */
export function parseCallback(search: string, expectedState: string | undefined): CallbackResult {
  const q = new URLSearchParams(search);
  const state = q.get('state');
  if (!expectedState || !state || state !== expectedState)
    return {
      ok: false,
      error: 'state_mismatch',
      description: 'The sign-in answer does not belong to a sign-in started in this tab.',
    };
  const error = q.get('error');
  if (error) {
    const description = q.get('error_description');
    return { ok: false, error, ...(description ? { description } : {}) };
  }
  const code = q.get('code');
  if (!code) return { ok: false, error: 'no_code', description: 'The issuer sent no code.' };
  return { ok: true, code };
}

/** Body of the code exchange at the token endpoint (a public client: no secret). */
export function tokenRequestBody(p: {
  code: string;
  redirectUri: string;
  clientId: string;
  codeVerifier: string;
}): URLSearchParams {
  return new URLSearchParams({
    grant_type: 'authorization_code',
    code: p.code,
    redirect_uri: p.redirectUri,
    client_id: p.clientId,
    code_verifier: p.codeVerifier,
  });
}

/** The claims of a JWT, unverified (the API verifies the token; this is for nonce and expiry). */
export function decodeJwtPayload(jwt: string): Record<string, unknown> | undefined {
  const part = jwt.split('.')[1];
  if (!part) return undefined;
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const json: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return json && typeof json === 'object' ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
