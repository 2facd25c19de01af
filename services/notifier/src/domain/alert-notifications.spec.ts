import { investigationChatText, investigationCompletePayload } from './notifications';

const event = (alert?: Record<string, unknown>) => ({
  event_id: 'evt_1',
  occurred_at: '2026-01-01T00:00:05.000Z',
  team_id: 'payments',
  investigation: {
    investigation_id: 'inv_1',
    team_id: 'payments',
    status: 'completed',
    agent: 'planner',
    completed_at: '2026-01-01T00:00:04.000Z',
    result: { summary: 's', root_cause: { description: 'd', confidence: 70, evidence: [] } },
    ...(alert ? { alert } : {}),
  },
});

describe('investigation_complete of an alert-started investigation', () => {
  it('names the alert in the webhook payload and the chat text', () => {
    const payload = investigationCompletePayload(
      event({
        source: 'alertmanager',
        alertname: 'HighErrorRate',
        group_key: '{}:{alertname="HighErrorRate"}',
        labels: { alertname: 'HighErrorRate', service: 'checkout' },
        severity: 'high',
        starts_at: '2026-01-01T00:00:00.000Z',
      }),
    );
    expect(payload['alert']).toEqual({
      alertname: 'HighErrorRate',
      source: 'alertmanager',
      group_key: '{}:{alertname="HighErrorRate"}',
      labels: { alertname: 'HighErrorRate', service: 'checkout' },
      severity: 'high',
      starts_at: '2026-01-01T00:00:00.000Z',
    });
    expect(investigationChatText(payload, undefined, 'https://inquest.example')).toContain(
      'Alert *HighErrorRate* (high) from alertmanager',
    );
  });

  it('has no alert field when a person started it', () => {
    expect(investigationCompletePayload(event())).not.toHaveProperty('alert');
  });
});
