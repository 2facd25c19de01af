import { isEgressError } from '@inquest/egress';
import type { AttemptResult } from '../domain/attempt-result';

/**
 * An egress failure as an attempt result. A refused address or an unusable URL cannot succeed
 * by waiting (a redelivery after fixing INQUEST_EGRESS_ALLOW or the URL can), so it stops;
 * timeouts, connection failures and oversized answers are retried.
 */
export function egressFailure(err: unknown, aborted: boolean): AttemptResult {
  if (aborted) return { outcome: 'aborted' };
  if (isEgressError(err)) {
    if (err.code === 'egress_refused' || err.code === 'invalid_url') {
      return { outcome: 'stop', error: `${err.code}: ${err.message}` };
    }
    return { outcome: 'retry', error: `${err.code}: ${err.message}` };
  }
  return { outcome: 'retry', error: `request failed: ${(err as Error)?.message ?? String(err)}` };
}
