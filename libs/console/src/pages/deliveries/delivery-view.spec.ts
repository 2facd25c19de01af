import { DeliveryStatus } from '@inquest/api-contract';
import type { WebhookDelivery } from '@inquest/client';
import {
  ATTEMPT_OUTCOME,
  DELIVERY_STATUSES,
  STATUS_MEANING,
  attemptAnswer,
  canRedeliver,
  deliveryFilterFromUrl,
  deliveryFilterUrl,
  deliveryTone,
  eventLabel,
  hasActiveDeliveries,
  lastOutcome,
  sendsOfEvent,
  unrecordedAttempts,
} from './delivery-view';

const d = (over: Partial<WebhookDelivery>): WebhookDelivery => ({
  delivery_id: 'dlv_1',
  event: 'investigation_complete',
  event_id: 'evt_1',
  channel: 'webhook',
  target: 'https://hooks.example/x',
  status: 'failed',
  attempts: 3,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('delivery view', () => {
  it('lets only finished deliveries be redelivered and refreshes while some are in progress', () => {
    expect(DELIVERY_STATUSES.filter((s) => canRedeliver({ status: s }))).toEqual([
      'delivered',
      'failed',
      'stopped',
    ]);
    expect(hasActiveDeliveries([d({ status: 'failed' }), d({ status: 'delivered' })])).toBe(false);
    expect(hasActiveDeliveries([d({ status: 'failed' }), d({ status: 'pending' })])).toBe(true);
    expect(hasActiveDeliveries([d({ status: 'delivering' })])).toBe(true);
    expect(hasActiveDeliveries([])).toBe(false);
  });

  it('says what the last attempt got', () => {
    expect(lastOutcome(d({ attempts: 0 }))).toBe('no attempt yet');
    expect(lastOutcome(d({ last_status_code: 503, last_error: 'Service Unavailable' }))).toBe(
      'HTTP 503: Service Unavailable',
    );
    expect(lastOutcome(d({ last_status_code: 204 }))).toBe('HTTP 204');
    expect(
      lastOutcome(d({ last_status_code: 500, last_error: 'HTTP 500 (gave up after 2 attempts)' })),
    ).toBe('HTTP 500 (gave up after 2 attempts)');
    expect(lastOutcome(d({ last_error: 'connect ECONNREFUSED' }))).toBe('connect ECONNREFUSED');
    expect(lastOutcome(d({ channel: 'chat', attempts: 1 }))).toBe('sent');
    expect(lastOutcome(d({ attempts: 1 }))).toBe('no answer recorded');
  });

  it('reads the attempt log', () => {
    expect(
      attemptAnswer({ attempt: 1, at: 'x', outcome: 'pending', error: 'connect ECONNREFUSED' }),
    ).toBe('connect ECONNREFUSED');
    expect(
      attemptAnswer({
        attempt: 2,
        at: 'x',
        outcome: 'failed',
        status_code: 503,
        error: 'HTTP 503 (gave up)',
      }),
    ).toBe('HTTP 503 (gave up)');
    expect(
      attemptAnswer({
        attempt: 2,
        at: 'x',
        outcome: 'pending',
        status_code: 429,
        error: 'slow down',
      }),
    ).toBe('HTTP 429: slow down');
    expect(attemptAnswer({ attempt: 1, at: 'x', outcome: 'delivered', status_code: 200 })).toBe(
      'HTTP 200',
    );
    expect(attemptAnswer({ attempt: 1, at: 'x', outcome: 'delivered' })).toBe('no answer recorded');
    expect(ATTEMPT_OUTCOME.pending).toBe('will retry');
    const log = [{ attempt: 1, at: 'x', outcome: 'pending' as const }];
    expect(unrecordedAttempts(d({ attempts: 2, attempt_log: log }))).toBe(1);
    expect(unrecordedAttempts(d({ attempts: 1, attempt_log: log }))).toBe(0);
    expect(unrecordedAttempts(d({ attempts: 0 }))).toBe(0);
  });

  it('finds the other sends of one event, oldest first', () => {
    const original = d({ delivery_id: 'dlv_a', created_at: '2026-01-01T00:00:00.000Z' });
    const again = d({
      delivery_id: 'dlv_b',
      redelivery_of: 'dlv_a',
      created_at: '2026-01-02T00:00:00.000Z',
    });
    const third = d({ delivery_id: 'dlv_c', created_at: '2026-01-03T00:00:00.000Z' });
    const other = d({ delivery_id: 'dlv_z', event_id: 'evt_2' });
    const list = [third, other, again, original];
    expect(sendsOfEvent(list, again).map((x) => x.delivery_id)).toEqual(['dlv_a', 'dlv_c']);
    expect(sendsOfEvent(list, other)).toEqual([]);
  });

  it('has a tone and a meaning for every status the API reports', () => {
    expect(DELIVERY_STATUSES).toEqual(DeliveryStatus.options);
    expect(DELIVERY_STATUSES.map(deliveryTone)).toEqual([
      'info',
      'info',
      'success',
      'danger',
      'warning',
    ]);
    for (const s of DELIVERY_STATUSES) expect(STATUS_MEANING[s]).toBeTruthy();
    expect(eventLabel('config_change_approved')).toBe('config change approved');
  });
});

describe('delivery filters in the URL', () => {
  it('round-trips, leaves defaults out and ignores unknown values', () => {
    expect(deliveryFilterUrl({ limit: 20 })).toBe('/deliveries');
    const f = { status: 'failed' as const, channel: 'webhook' as const, limit: 50 };
    const url = deliveryFilterUrl(f);
    expect(url).toBe('/deliveries?status=failed&channel=webhook&limit=50');
    expect(deliveryFilterFromUrl(url.split('?')[1]!)).toEqual(f);
    expect(deliveryFilterFromUrl('status=lost&channel=fax&limit=7')).toEqual({ limit: 20 });
    expect(deliveryFilterFromUrl('')).toEqual({ limit: 20 });
  });
});
