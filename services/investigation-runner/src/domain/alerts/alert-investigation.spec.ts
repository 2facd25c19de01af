import type { NewAlert } from '@inquest/store';
import { alertRunOf, severityOf, timeWindowSince } from './alert-investigation';

const alert = (over: Partial<NewAlert> = {}): NewAlert => ({
  team_id: 't',
  source: 'alertmanager',
  group_key: '{}:{alertname="HighErrorRate"}',
  fingerprint: 'f1',
  alertname: 'HighErrorRate',
  status: 'firing',
  labels: {
    alertname: 'HighErrorRate',
    namespace: 'shop',
    app: 'checkout',
    job: 'kubernetes-pods',
    severity: 'critical',
    env: 'production',
  },
  annotations: {
    summary: 'checkout 5xx above 5%',
    description: 'checkout answers 5xx to 7% of requests',
    runbook_url: 'https://runbooks.example/checkout-5xx',
  },
  starts_at: '2026-01-01T10:00:00.000Z',
  generator_url: 'http://prometheus/graph?g0.expr=x',
  ...over,
});

describe('alertRunOf', () => {
  it('takes the context from labels and annotations', () => {
    const now = Date.parse('2026-01-01T10:20:00.000Z');
    const run = alertRunOf('alertmanager', [alert()], now);
    expect(run.context).toEqual({
      related_alert: 'HighErrorRate',
      service: 'checkout',
      namespace: 'shop',
      severity: 'high',
      environment: 'prod',
      time_window: '35m',
      hint: 'runbook: https://runbooks.example/checkout-5xx',
    });
    expect(run.message).toContain(
      'Alert HighErrorRate is firing (alertmanager): checkout 5xx above 5%',
    );
    expect(run.message).toContain('checkout answers 5xx to 7% of requests');
    expect(run.message).toContain('namespace="shop"');
    expect(run.alert).toMatchObject({
      source: 'alertmanager',
      alertname: 'HighErrorRate',
      severity: 'high',
      labels: expect.objectContaining({ app: 'checkout' }),
    });
  });

  it('prefers the service label, then app, job, deployment, pod', () => {
    expect(
      alertRunOf('generic', [alert({ labels: { service: 's', app: 'a' } })]).context.service,
    ).toBe('s');
    expect(alertRunOf('generic', [alert({ labels: { job: 'j', pod: 'p' } })]).context.service).toBe(
      'j',
    );
    expect(alertRunOf('generic', [alert({ labels: { pod: 'p-1' } })]).context.service).toBe('p-1');
    expect(alertRunOf('generic', [alert({ labels: {} })]).context.service).toBeUndefined();
  });

  it('lists every alert of a group and bounds the message', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      alert({ fingerprint: `f${i}`, labels: { pod: `p-${i}`, x: 'y'.repeat(500) } }),
    );
    const run = alertRunOf('alertmanager', many);
    expect(run.message).toContain('30 alerts in the group');
    expect(run.message).toContain('and 10 more');
    expect(run.message.length).toBeLessThanOrEqual(4000);
  });
});

describe('severityOf / timeWindowSince', () => {
  it('maps sender severities to high|medium|low', () => {
    expect(severityOf('critical')).toBe('high');
    expect(severityOf('P3')).toBe('medium');
    expect(severityOf('info')).toBe('low');
    expect(severityOf('whatever')).toBeUndefined();
  });
  it('reaches back before the start', () => {
    const now = Date.parse('2026-01-01T12:00:00.000Z');
    expect(timeWindowSince('2026-01-01T11:59:00.000Z', now)).toBe('16m');
    expect(timeWindowSince('2026-01-01T06:00:00.000Z', now)).toBe('7h');
    expect(timeWindowSince('2025-12-20T00:00:00.000Z', now)).toBe('13d');
    expect(timeWindowSince('not a date', now)).toBeUndefined();
    expect(timeWindowSince('0001-01-01T00:00:00Z', now)).toBeUndefined();
  });
});
