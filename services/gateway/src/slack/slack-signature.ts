import { createHmac, timingSafeEqual } from 'node:crypto';

export const SLACK_SIGNATURE_HEADER = 'x-slack-signature';
export const SLACK_TIMESTAMP_HEADER = 'x-slack-request-timestamp';
/** Slack's advice: refuse requests whose timestamp is more than five minutes away from now. */
export const SLACK_MAX_SKEW_SECONDS = 300;

export type SignatureCheck = 'ok' | 'missing' | 'stale' | 'mismatch';

/** `v0=<hex HMAC-SHA256 of "v0:<timestamp>:<raw body>">` with the app's signing secret. */
export function slackSignature(secret: string, timestamp: string, body: Buffer | string): string {
  const mac = createHmac('sha256', secret);
  mac.update(`v0:${timestamp}:`);
  mac.update(body);
  return `v0=${mac.digest('hex')}`;
}

/**
 * Checks Slack's request signature (v0): present, timestamp within five minutes of `nowMs`, and
 * equal in constant time to the one computed over the raw body.
 */
export function verifySlackSignature(o: {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  body: Buffer;
  nowMs: number;
}): SignatureCheck {
  if (!o.timestamp || !o.signature) return 'missing';
  if (!/^\d{1,12}$/.test(o.timestamp)) return 'stale';
  if (Math.abs(o.nowMs / 1000 - Number(o.timestamp)) > SLACK_MAX_SKEW_SECONDS) return 'stale';
  const expected = Buffer.from(slackSignature(o.secret, o.timestamp, o.body));
  const given = Buffer.from(o.signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'mismatch';
}
