import { WaitTimeoutError } from './errors';
import { abortableSleep, abortReason } from './transport';
import type { Investigation, InvestigationStatusValue } from './types';

export const TERMINAL_STATUSES: readonly InvestigationStatusValue[] = [
  'completed',
  'failed',
  'cancelled',
];

export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export interface WaitOptions {
  /** First delay between polls (spec guidance: 1000 ms). */
  initialIntervalMs?: number;
  /** Cap of the delay between polls (spec guidance: 10000 ms). */
  maxIntervalMs?: number;
  /** Overall wait cap (spec guidance: 300000 ms); past it a WaitTimeoutError (`wait_timeout`) is thrown. */
  timeoutMs?: number;
  /** Stops waiting (rejects with the signal's reason); the investigation itself keeps running. */
  signal?: AbortSignal;
  /** Called with every status read, for progress display. */
  onPoll?: (investigation: Investigation) => void;
  /** Injected for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

/**
 * Polls `fetchStatus` per the spec's guidance (start at 1 s, double, cap at 10 s, 300 s overall)
 * until the investigation is completed, failed or cancelled, and returns that last status.
 * A failed or cancelled investigation is returned, not thrown: check `status`.
 */
export async function pollInvestigation(
  id: string,
  fetchStatus: (id: string, signal?: AbortSignal) => Promise<Investigation>,
  opts: WaitOptions = {},
): Promise<Investigation> {
  const initial = opts.initialIntervalMs ?? 1000;
  const cap = opts.maxIntervalMs ?? 10_000;
  const overall = opts.timeoutMs ?? 300_000;
  const sleep = opts.sleep ?? abortableSleep;
  const now = opts.now ?? Date.now;
  const deadline = now() + overall;
  let interval = initial;
  for (;;) {
    if (opts.signal?.aborted) throw abortReason(opts.signal);
    const inv = await fetchStatus(id, opts.signal);
    opts.onPoll?.(inv);
    if (isTerminal(inv.status)) return inv;
    const left = deadline - now();
    if (left <= 0) {
      throw new WaitTimeoutError({
        code: 'wait_timeout',
        message: `Investigation ${id} still ${inv.status} after ${Math.round(overall / 1000)} s`,
        body: inv,
      });
    }
    // The last sleep is shortened so the final poll lands on the deadline, not past it.
    await sleep(Math.min(interval, left), opts.signal);
    interval = Math.min(cap, interval * 2);
  }
}
