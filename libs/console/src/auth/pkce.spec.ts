import {
  authorizationUrl,
  base64url,
  codeChallengeS256,
  decodeJwtPayload,
  parseCallback,
  randomToken,
  tokenRequestBody,
} from './pkce';

describe('PKCE (RFC 7636)', () => {
  it('computes the S256 challenge of the RFC 7636 appendix B example', async () => {
    await expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).resolves.toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('refuses a verifier that is too short or has other characters', async () => {
    await expect(codeChallengeS256('short')).rejects.toThrow(/43\.\.128/);
    await expect(codeChallengeS256('a'.repeat(42) + '+')).rejects.toThrow(/43\.\.128/);
  });

  it('makes random verifiers of 43 url-safe characters, different each time', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const v = randomToken();
      expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/);
      seen.add(v);
      await expect(codeChallengeS256(v)).resolves.toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(seen.size).toBe(50);
  });

  it('encodes base64url without padding', () => {
    expect(base64url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(base64url(new Uint8Array([]))).toBe('');
  });
});

describe('authorization request and callback', () => {
  it('builds the authorization URL with S256, state, nonce, and keeps existing parameters', () => {
    const url = new URL(
      authorizationUrl({
        authorizationEndpoint: 'https://login.example.com/auth?tenant=ops',
        clientId: 'inquest-console',
        redirectUri: 'https://inquest.example.com/console/oidc/callback',
        scopes: 'openid email',
        state: 'st4te',
        nonce: 'n0nce',
        codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        audience: 'inquest-api',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://login.example.com/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: 'ops',
      response_type: 'code',
      client_id: 'inquest-console',
      redirect_uri: 'https://inquest.example.com/console/oidc/callback',
      scope: 'openid email',
      state: 'st4te',
      nonce: 'n0nce',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      audience: 'inquest-api',
    });
  });

  it('accepts the code only with the state this tab sent', () => {
    expect(parseCallback('?code=abc&state=s1', 's1')).toEqual({ ok: true, code: 'abc' });
    expect(parseCallback('?code=abc&state=s2', 's1')).toMatchObject({
      ok: false,
      error: 'state_mismatch',
    });
    expect(parseCallback('?code=abc', 's1')).toMatchObject({ ok: false, error: 'state_mismatch' });
    // nothing stored (another tab, or a replayed link): refused even if the URL has a state
    expect(parseCallback('?code=abc&state=s1', undefined)).toMatchObject({
      ok: false,
      error: 'state_mismatch',
    });
  });

  it("reports the issuer's error, and a missing code", () => {
    expect(
      parseCallback('?error=access_denied&error_description=User+said+no&state=s1', 's1'),
    ).toEqual({ ok: false, error: 'access_denied', description: 'User said no' });
    expect(parseCallback('?state=s1', 's1')).toMatchObject({ ok: false, error: 'no_code' });
  });

  it("sends a public client's code exchange with the verifier", () => {
    const body = tokenRequestBody({
      code: 'abc',
      redirectUri: 'https://inquest.example.com/console/oidc/callback',
      clientId: 'inquest-console',
      codeVerifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    });
    expect(Object.fromEntries(body)).toEqual({
      grant_type: 'authorization_code',
      code: 'abc',
      redirect_uri: 'https://inquest.example.com/console/oidc/callback',
      client_id: 'inquest-console',
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    });
  });

  it('reads JWT claims (nonce, exp) and rejects garbage', () => {
    const payload = { nonce: 'n0nce', exp: 1_900_000_000, name: 'Zoë' };
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    expect(decodeJwtPayload(`${enc({ alg: 'RS256' })}.${enc(payload)}.sig`)).toEqual(payload);
    expect(decodeJwtPayload('not-a-jwt')).toBeUndefined();
    expect(decodeJwtPayload('a.%%%.c')).toBeUndefined();
  });
});
