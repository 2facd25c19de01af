// How the deliveries page reads a delivery: what can be redelivered, when to refresh, the last
// attempt's outcome in words, and the attempt log.
import type { WebhookDelivery } from '@inquest/client';

export type DeliveryStatus = WebhookDelivery['status'];

export const DELIVERY_STATUSES: DeliveryStatus[] = [
  'pending',
  'delivering',
  'delivered',
  'failed',
  'stopped',
];

/** What each status means, for a tooltip and the filter's help. */
export const STATUS_MEANING: Record<DeliveryStatus, string> = {
  pending: 'waiting for its next attempt',
  delivering: 'an attempt is running',
  delivered: 'the receiver answered 2xx',
  failed: 'every attempt was used',
  stopped: 'stopped for good (410 Gone, a refused address, an unknown chat channel)',
};

/** Only a finished delivery can be sent again (the API answers 409 for the others). */
export function canRedeliver(d: Pick<WebhookDelivery, 'status'>): boolean {
  return d.status === 'delivered' || d.status === 'failed' || d.status === 'stopped';
}

/** True while something on the list may still change by itself. */
export function hasActiveDeliveries(list: Pick<WebhookDelivery, 'status'>[]): boolean {
  return list.some((d) => d.status === 'pending' || d.status === 'delivering');
}

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export function deliveryTone(status: DeliveryStatus): Tone {
  switch (status) {
    case 'delivered':
      return 'success';
    case 'pending':
    case 'delivering':
      return 'info';
    case 'failed':
      return 'danger';
    case 'stopped':
      return 'warning';
    default:
      return 'neutral';
  }
}

/** "HTTP 503: Service Unavailable", "HTTP 200", "connection refused", or "no attempt yet". */
export function lastOutcome(
  d: Pick<WebhookDelivery, 'attempts' | 'last_status_code' | 'last_error' | 'channel'>,
): string {
  if (d.attempts === 0) return 'no attempt yet';
  const code = d.last_status_code !== undefined ? `HTTP ${d.last_status_code}` : undefined;
  // The notifier's error often names the status itself ("HTTP 500 (gave up after 2 attempts)").
  if (code && d.last_error)
    return d.last_error.startsWith(code) ? d.last_error : `${code}: ${d.last_error}`;
  return code ?? d.last_error ?? (d.channel === 'chat' ? 'sent' : 'no answer recorded');
}

/**
 * The other sends of the same event on the list (the original and its redeliveries share the
 * event id, which receivers see as webhook-id), oldest first.
 */
export function sendsOfEvent(list: WebhookDelivery[], d: WebhookDelivery): WebhookDelivery[] {
  return list
    .filter((x) => x.event_id === d.event_id && x.delivery_id !== d.delivery_id)
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export type DeliveryAttempt = NonNullable<WebhookDelivery['attempt_log']>[number];

/** An attempt's answer in words: "HTTP 503: Service Unavailable", "HTTP 204", "ECONNREFUSED". */
export function attemptAnswer(a: DeliveryAttempt): string {
  const code = a.status_code !== undefined ? `HTTP ${a.status_code}` : undefined;
  if (code && a.error) return a.error.startsWith(code) ? a.error : `${code}: ${a.error}`;
  return code ?? a.error ?? 'no answer recorded';
}

/** What an attempt led to: "delivered", "will retry", "gave up", "stopped". */
export const ATTEMPT_OUTCOME: Record<DeliveryAttempt['outcome'], string> = {
  delivered: 'delivered',
  pending: 'will retry',
  failed: 'gave up',
  stopped: 'stopped',
};

/** Attempts counted but never recorded (cut off by a crash, or the one running now). */
export function unrecordedAttempts(d: Pick<WebhookDelivery, 'attempts' | 'attempt_log'>): number {
  return Math.max(0, d.attempts - (d.attempt_log?.length ?? 0));
}

/** "investigation_complete" → "investigation complete". */
export function eventLabel(event: string): string {
  return event.replace(/_/g, ' ');
}

export type Channel = WebhookDelivery['channel'];

/** The list's filters, kept in the URL (?status=&channel=&limit=). */
export interface Filter {
  status?: DeliveryStatus;
  channel?: Channel;
  limit: number;
}

/** The filters a URL's query string names; unknown values fall back to all / 20. */
export function deliveryFilterFromUrl(search: string): Filter {
  const p = new URLSearchParams(search);
  const status = p.get('status') as DeliveryStatus | null;
  const channel = p.get('channel') as Channel | null;
  const limit = Number(p.get('limit'));
  return {
    ...(status && DELIVERY_STATUSES.includes(status) ? { status } : {}),
    ...(channel === 'webhook' || channel === 'chat' ? { channel } : {}),
    limit: [20, 50, 100].includes(limit) ? limit : 20,
  };
}

/** The console path of a filter (defaults left out). */
export function deliveryFilterUrl(f: Filter): string {
  const p = new URLSearchParams();
  if (f.status) p.set('status', f.status);
  if (f.channel) p.set('channel', f.channel);
  if (f.limit !== 20) p.set('limit', String(f.limit));
  const q = p.toString();
  return q ? `/deliveries?${q}` : '/deliveries';
}
