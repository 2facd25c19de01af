import { randomUUID } from 'node:crypto';

/**
 * The one policy of config reads from config-hierarchy, for every service: a deadline per attempt,
 * bounded retries on UNAVAILABLE (GetEffectiveConfig only reads, so a retry is safe) and the
 * caller's request id, or `<service>-<uuid>` for reads of the service's own.
 */
export const CONFIG_READ_POLICY = {
  /** deadline of one attempt, ms */
  deadlineMs: 2000,
  /** retries after UNAVAILABLE (grpc-kit waits 50 ms, then 100 ms) */
  retries: 2,
} as const;

/** The request id a config read carries: the caller's, else one naming the service. */
export function configRequestId(service: string, requestId?: string): string {
  return requestId ?? `${service}-${randomUUID()}`;
}
