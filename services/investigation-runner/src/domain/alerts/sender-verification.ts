import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Constant-time equality of two secrets of any length (compared as SHA-256 digests). */
export function secretsEqual(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && expected.length > 0;
}

/**
 * PagerDuty v3 webhook signature: the header lists one or more `v1=<hex HMAC-SHA256 of the raw
 * body>` (several while a secret is rotated); one match is enough.
 */
export function pagerDutySignatureValid(header: string, body: Buffer, secret: string): boolean {
  if (!secret) return false;
  const expected = Buffer.from(
    `v1=${createHmac('sha256', secret).update(body).digest('hex')}`,
    'utf8',
  );
  let ok = false;
  for (const part of header.split(',')) {
    const sig = Buffer.from(part.trim(), 'utf8');
    // every candidate is compared, so the answer's timing says nothing about which one matched
    if (sig.length === expected.length && timingSafeEqual(sig, expected)) ok = true;
  }
  return ok;
}

/** A node may name only secrets under `inquest/<node_id>/` (API-DECISIONS "Secret references are scoped"). */
export function refInTeamScope(ref: string, teamId: string): boolean {
  const m = /^vault:\/\/([^#]+)/.exec(ref);
  const path = m?.[1];
  if (!path) return false;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return false;
  return path.startsWith(`inquest/${teamId}/`);
}
