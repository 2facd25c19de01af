import type { AuthContext } from '../http/route';
import { createHash } from 'node:crypto';
import { TokenCache, tokenKey } from './token-cache';

const team = (expiresAt?: number): AuthContext => ({
  kind: 'team',
  teamId: 'team-a',
  principal: 'tok_a',
  identity: 'a@example.com',
  permissions: ['read'],
  ...(expiresAt === undefined ? {} : { expiresAt }),
});

describe('TokenCache', () => {
  it('keeps an accepted token until its own expiry at the latest', async () => {
    let now = 1_000_000;
    const cache = new TokenCache({ positiveTtlMs: 30_000, negativeTtlMs: 5000, now: () => now });
    let calls = 0;
    const verify = async () => {
      calls++;
      return team(now + 1500);
    };
    await cache.get('tok', verify);
    now += 1499;
    await cache.get('tok', verify);
    expect(calls).toBe(1);
    now += 1;
    await cache.get('tok', verify);
    expect(calls).toBe(2); // expired in the cache: verified again
  });

  it('keeps a token without expiry for the TTL, and never stores an already expired one', async () => {
    let now = 0;
    const cache = new TokenCache({ positiveTtlMs: 30_000, negativeTtlMs: 5000, now: () => now });
    await cache.get('forever', async () => team());
    expect(cache.size).toBe(1);
    now = 10;
    await cache.get('gone', async () => team(5));
    expect(cache.size).toBe(1);
  });
});

describe('tokenKey', () => {
  it('is the base64url SHA-256 of the token', () => {
    for (const t of ['tok_abc.secret', '', 'ünïcode']) {
      expect(tokenKey(t)).toBe(createHash('sha256').update(t).digest('base64url'));
    }
    expect(tokenKey('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });
});
