import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, UnsecuredJWT, exportJWK, generateKeyPair, type JWK, type CryptoKey } from 'jose';
import { OidcVerifier } from '../src/auth/oidc-verifier';
import { createTestGateway, type TestGateway } from './support/test-gateway';
import { testRoutes } from './support/test-routes';

interface Key {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  jwk: JWK;
}

async function makeKey(kid: string, alg: 'RS256' | 'ES256'): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** A real local identity provider: discovery document + JWKS over HTTP on loopback. */
async function startIdp() {
  const state = { keys: [] as JWK[], jwksHits: 0, discoveryHits: 0, up: true };
  const server: Server = createServer((req, res) => {
    if (!state.up) {
      res.statusCode = 502;
      res.end();
      return;
    }
    if (req.url === '/.well-known/openid-configuration') {
      state.discoveryHits++;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          issuer,
          jwks_uri: `${issuer}/jwks`,
          id_token_signing_alg_values_supported: ['RS256', 'ES256'],
        }),
      );
      return;
    }
    if (req.url === '/jwks') {
      state.jwksHits++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: state.keys }));
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, state, stop: () => new Promise<void>((r) => server.close(() => r())) };
}

const AUD = 'inquest-api';

describe('OIDC JWT authentication', () => {
  let idp: Awaited<ReturnType<typeof startIdp>>;
  let gw: TestGateway;
  let rsa: Key;
  let ec: Key;

  const sign = (
    key: Key,
    claims: Record<string, unknown>,
    opts: { iss?: string; aud?: string; exp?: number | string; kid?: string } = {},
  ) =>
    new SignJWT({
      email: 'ada@example.com',
      inquest_team: 'team-a',
      inquest_permissions: ['read'],
      ...claims,
    })
      .setProtectedHeader({ alg: key.alg, kid: opts.kid ?? key.kid })
      .setSubject('user-123')
      .setIssuer(opts.iss ?? idp.issuer)
      .setAudience(opts.aud ?? AUD)
      .setIssuedAt()
      .setExpirationTime(opts.exp ?? '5m')
      .sign(key.privateKey);

  const get = (token: string) => gw.request('GET', '/api/v1/test/items', { token });

  beforeAll(async () => {
    idp = await startIdp();
    rsa = await makeKey('rsa-1', 'RS256');
    ec = await makeKey('ec-1', 'ES256');
    idp.state.keys = [rsa.jwk, ec.jwk];
    const oidc = new OidcVerifier({ issuer: idp.issuer, audience: AUD, jwksCooldownMs: 0 });
    gw = await createTestGateway({ routes: testRoutes, oidc, rateLimits: { auth_fail: 1000 } });
    gw.config!.effective.set('team-a', {});
  });
  afterAll(async () => {
    await gw.stop();
    await idp.stop();
  });

  it('accepts RS256 and ES256 tokens and maps email and team claims', async () => {
    for (const key of [rsa, ec]) {
      const res = await get(await sign(key, {}));
      expect(res.status).toBe(200);
      expect(res.body.who).toBe('ada@example.com@team-a');
    }
  });

  it('caches discovery and the JWKS', async () => {
    const before = { d: idp.state.discoveryHits, j: idp.state.jwksHits };
    for (let i = 0; i < 5; i++) expect((await get(await sign(rsa, {}))).status).toBe(200);
    expect(idp.state.discoveryHits).toBe(before.d);
    expect(idp.state.jwksHits).toBe(before.j);
  });

  it('tolerates 60 s of clock skew but not more', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await get(await sign(rsa, {}, { exp: now - 30 }))).status).toBe(200);
    expect((await get(await sign(rsa, {}, { exp: now - 120 }))).status).toBe(401);
  });

  it('refuses wrong audience, wrong issuer, unknown kid, alg none, HS256 and a tampered payload with one 401', async () => {
    const good = await sign(rsa, {});
    const [h, p, s] = good.split('.') as [string, string, string];
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), inquest_team: 'team-z' })).toString('base64url')}.${s}`;
    const other = await makeKey('rsa-unknown', 'RS256');
    const hs = await new SignJWT({ sub: 'x', inquest_team: 'team-a' })
      .setProtectedHeader({ alg: 'HS256', kid: rsa.kid })
      .setIssuer(idp.issuer)
      .setAudience(AUD)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-shared-secret-that-is-long-enough'));
    const none = new UnsecuredJWT({ sub: 'user-123', inquest_team: 'team-a' })
      .setIssuer(idp.issuer)
      .setAudience(AUD)
      .setExpirationTime('5m')
      .encode();
    const tokens = {
      wrongAud: await sign(rsa, {}, { aud: 'someone-else' }),
      wrongIss: await sign(rsa, {}, { iss: 'https://evil.example.com' }),
      unknownKid: await sign(other, {}, { kid: 'rsa-unknown' }),
      wrongKeySameKid: await sign(other, {}, { kid: 'rsa-1' }),
      none,
      hs,
      tampered,
    };
    const messages = new Set<string>();
    for (const [name, token] of Object.entries(tokens)) {
      const res = await get(token);
      expect({ name, status: res.status }).toEqual({ name, status: 401 });
      messages.add(res.body.error.message);
    }
    expect(messages.size).toBe(1);
  });

  it('picks up a rotated key without a restart', async () => {
    const rotated = await makeKey('rsa-2', 'RS256');
    idp.state.keys = [rotated.jwk, ec.jwk];
    expect((await get(await sign(rotated, {}))).status).toBe(200);
  });

  it('maps permissions: read-only gets 403 on writes, write permission passes; no team claim is 403', async () => {
    const readOnly = await sign(ec, {});
    const res = await gw.request('PUT', '/api/v1/test/items/a1', {
      token: readOnly,
      body: { name: 'a' },
    });
    expect(res.status).toBe(403);
    const writer = await sign(ec, { inquest_permissions: ['read', 'write'] });
    expect(
      (await gw.request('PUT', '/api/v1/test/items/a1', { token: writer, body: { name: 'a' } }))
        .status,
    ).toBe(200);
    const noTeam = await sign(ec, { inquest_team: undefined });
    expect((await get(noTeam)).status).toBe(403);
    const noPerms = await sign(ec, { inquest_permissions: [] });
    expect((await get(noPerms)).status).toBe(403);
  });

  it('refuses a team claim that names no existing team (issue 16): 404, nothing stored', async () => {
    const ghost = await sign(ec, {
      inquest_team: 'ghost-team',
      inquest_permissions: ['read', 'write'],
    });
    const res = await gw.request('PUT', '/api/v1/test/items/g1', {
      token: ghost,
      body: { name: 'g' },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('ghost-team');
  });

  it('answers 503 when the identity provider cannot be reached for discovery', async () => {
    const oidc = new OidcVerifier({
      issuer: 'http://127.0.0.1:9',
      audience: AUD,
      fetchTimeoutMs: 500,
    });
    const down = await createTestGateway({ routes: testRoutes, oidc });
    try {
      const res = await down.request('GET', '/api/v1/test/items', { token: await sign(rsa, {}) });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('unavailable');
    } finally {
      await down.stop();
    }
  });
});
