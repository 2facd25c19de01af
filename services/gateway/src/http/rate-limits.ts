/** Requests per one-minute window for each class, and failed authentications per client address. */
export interface RateLimits {
  read: number;
  write: number;
  trigger: number;
  /** alert notifications (POST /alerts/*): senders repeat and batch, so far above trigger */
  alert: number;
  auth_fail: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  read: 100,
  write: 20,
  trigger: 10,
  alert: 600,
  auth_fail: 30,
};

/**
 * Parses INQUEST_RATE_LIMITS (`read=100,write=20,trigger=10,auth_fail=30`). Classes left out keep
 * their default; an unknown class or a value that is not a positive integer throws.
 */
export function parseRateLimits(spec: string | undefined): RateLimits {
  const out: RateLimits = { ...DEFAULT_RATE_LIMITS };
  if (!spec || spec.trim() === '') return out;
  for (const part of spec.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const m = /^([a-z_]+)\s*=\s*(\d+)$/.exec(item);
    if (!m) throw new Error(`expected class=number pairs like read=100,write=20, got "${item}"`);
    const [, name, value] = m as unknown as [string, string, string];
    if (!(name in DEFAULT_RATE_LIMITS)) {
      throw new Error(
        `unknown rate-limit class "${name}" (known: ${Object.keys(DEFAULT_RATE_LIMITS).join(', ')})`,
      );
    }
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 1)
      throw new Error(`rate limit for ${name} must be a positive integer`);
    out[name as keyof RateLimits] = n;
  }
  return out;
}
