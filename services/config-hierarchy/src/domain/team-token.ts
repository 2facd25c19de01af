import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const TOKEN_ID = /^tok_[a-z2-7]{20}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** `tok_` + 20 lowercase base32 characters (100 random bits). */
export function newTokenId(): string {
  const bytes = randomBytes(20);
  let out = 'tok_';
  for (const b of bytes) out += BASE32[b & 31];
  return out;
}

/** 32 random bytes, base64url. */
export function newTokenSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Hex SHA-256 of a secret: the only form in which a secret is stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Splits `<token_id>.<secret>`; undefined when the shape is wrong. */
export function parseTeamToken(token: string): { tokenId: string; secret: string } | undefined {
  const dot = token.indexOf('.');
  if (dot < 0) return undefined;
  const tokenId = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  if (!TOKEN_ID.test(tokenId) || !SECRET.test(secret)) return undefined;
  return { tokenId, secret };
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}
