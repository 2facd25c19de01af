// The browser side of OIDC sign-in (authorization code + PKCE S256), when the deployment names
// an issuer and a console client in GET /console/config.json. The gateway verifies the access
// token on every API call (INQUEST_OIDC_ISSUER / INQUEST_OIDC_AUDIENCE); the console only gets it.
import {
  authorizationUrl,
  codeChallengeS256,
  decodeJwtPayload,
  parseCallback,
  randomToken,
  tokenRequestBody,
} from './pkce';

export interface OidcSettings {
  issuer: string;
  client_id: string;
  scopes: string;
  audience?: string;
}

export interface ConsoleConfig {
  oidc: OidcSettings | null;
}

/** Where the issuer sends the browser back (an SPA route the gateway answers with index.html). */
export const CALLBACK_PATH = '/console/oidc/callback';
const PENDING_KEY = 'inquest.console.oidc.pending';

interface Pending {
  state: string;
  nonce: string;
  verifier: string;
  issuer: string;
  returnTo: string;
  startedAt: number;
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
}

/** GET /console/config.json (no token needed); `{ oidc: null }` when it cannot be read. */
export async function loadConsoleConfig(signal?: AbortSignal): Promise<ConsoleConfig> {
  try {
    const res = await fetch('/console/config.json', {
      signal,
      headers: { Accept: 'application/json' },
    });
    if (!res.ok) return { oidc: null };
    const body = (await res.json()) as Partial<ConsoleConfig>;
    const o = body.oidc;
    if (o && typeof o.issuer === 'string' && typeof o.client_id === 'string')
      return { oidc: { ...o, scopes: typeof o.scopes === 'string' ? o.scopes : 'openid' } };
    return { oidc: null };
  } catch {
    return { oidc: null };
  }
}

async function discover(issuer: string): Promise<Discovery> {
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`the issuer's discovery document answered HTTP ${res.status}`);
  const d = (await res.json()) as Partial<Discovery>;
  if (!d.authorization_endpoint || !d.token_endpoint)
    throw new Error('the discovery document names no authorization or token endpoint');
  // the document must be the issuer's own (OpenID Connect Discovery §4.3)
  if (d.issuer && d.issuer.replace(/\/+$/, '') !== issuer.replace(/\/+$/, ''))
    throw new Error(`the discovery document is for ${d.issuer}, not ${issuer}`);
  return d as Discovery;
}

function redirectUri(): string {
  return `${window.location.origin}${CALLBACK_PATH}`;
}

/** Starts sign-in: remembers state, nonce and verifier in this tab, then leaves for the issuer. */
export async function startOidcSignIn(settings: OidcSettings): Promise<void> {
  const d = await discover(settings.issuer);
  const pending: Pending = {
    state: randomToken(),
    nonce: randomToken(),
    verifier: randomToken(48),
    issuer: settings.issuer,
    returnTo:
      window.location.pathname.startsWith('/console/') && window.location.pathname !== CALLBACK_PATH
        ? window.location.pathname + window.location.search
        : '/console/',
    startedAt: Date.now(),
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  window.location.assign(
    authorizationUrl({
      authorizationEndpoint: d.authorization_endpoint,
      clientId: settings.client_id,
      redirectUri: redirectUri(),
      scopes: settings.scopes,
      state: pending.state,
      nonce: pending.nonce,
      codeChallenge: await codeChallengeS256(pending.verifier),
      ...(settings.audience ? { audience: settings.audience } : {}),
    }),
  );
}

function takePending(): Pending | undefined {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY); // one use only
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as Pending;
  } catch {
    return undefined;
  }
}

export interface OidcSignedIn {
  accessToken: string;
  returnTo: string;
  expiresAt?: number;
}

/**
 * Finishes sign-in on the callback page: checks state, exchanges the code with the verifier at
 * the token endpoint, checks the ID token's nonce. Throws with a message for the page.
 */
export async function completeOidcSignIn(
  settings: OidcSettings,
  search: string,
): Promise<OidcSignedIn> {
  const pending = takePending();
  const cb = parseCallback(search, pending?.state);
  if (!cb.ok) throw new Error(cb.description ? `${cb.error}: ${cb.description}` : cb.error);
  if (!pending || pending.issuer !== settings.issuer)
    throw new Error('the sign-in was started for another issuer');
  if (Date.now() - pending.startedAt > 10 * 60_000)
    throw new Error('the sign-in took longer than 10 minutes: start again');
  const d = await discover(settings.issuer);
  const res = await fetch(d.token_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: tokenRequestBody({
      code: cb.code,
      redirectUri: redirectUri(),
      clientId: settings.client_id,
      codeVerifier: pending.verifier,
    }),
  });
  const body = (await res.json().catch(() => ({}))) as {
    access_token?: string;
    id_token?: string;
    expires_in?: number;
    error?: string;
    error_description?: string;
  };
  if (!res.ok || !body.access_token)
    throw new Error(
      `the token endpoint refused the code: ${body.error ?? `HTTP ${res.status}`}${body.error_description ? ` (${body.error_description})` : ''}`,
    );
  if (body.id_token) {
    const claims = decodeJwtPayload(body.id_token);
    if (claims?.['nonce'] !== pending.nonce)
      throw new Error('the ID token does not carry the nonce this sign-in sent');
  }
  const exp = decodeJwtPayload(body.access_token)?.['exp'];
  const expiresAt =
    typeof exp === 'number'
      ? exp * 1000
      : typeof body.expires_in === 'number'
        ? Date.now() + body.expires_in * 1000
        : undefined;
  return {
    accessToken: body.access_token,
    returnTo: pending.returnTo,
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}
