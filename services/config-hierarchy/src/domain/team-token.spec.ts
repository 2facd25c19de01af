import {
  hashSecret,
  newTokenId,
  newTokenSecret,
  parseTeamToken,
  secretMatches,
} from './team-token';

describe('team token parts', () => {
  it('makes ids of tok_ and 20 base32 characters and 43-character secrets, all different', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newTokenId()));
    const secrets = new Set(Array.from({ length: 50 }, () => newTokenSecret()));
    expect(ids.size).toBe(50);
    expect(secrets.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^tok_[a-z2-7]{20}$/);
    for (const s of secrets) expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('parses <id>.<secret> and nothing else', () => {
    const id = newTokenId();
    const secret = newTokenSecret();
    expect(parseTeamToken(`${id}.${secret}`)).toEqual({ tokenId: id, secret });
    for (const bad of [
      `${id}${secret}`,
      `${id}.`,
      `.${secret}`,
      `${id.toUpperCase()}.${secret}`,
      `${id}.${secret}x`,
      `${id}.${secret.slice(1)}`,
      `tok_short.${secret}`,
    ])
      expect(parseTeamToken(bad)).toBeUndefined();
  });

  it('matches a secret against its stored hash only', () => {
    const secret = newTokenSecret();
    const stored = hashSecret(secret);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain(secret);
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(newTokenSecret(), stored)).toBe(false);
    // a malformed stored hash is a mismatch, not an error
    expect(secretMatches(secret, 'abc')).toBe(false);
  });
});
