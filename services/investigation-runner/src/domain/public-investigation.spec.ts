import type { InvestigationRecord } from '@inquest/store';
import { publicInvestigation } from './public-investigation';

function aRecord(overrides: Partial<InvestigationRecord> = {}): InvestigationRecord {
  return {
    investigation_id: 'inv-1',
    team_id: 'team-a',
    status: 'running',
    agent: 'kubernetes',
    message: 'pods crash',
    context: { namespace: 'shop' },
    async: true,
    tools_used: ['k8s:get_pods'],
    created_at: '2026-01-01T00:00:00.000Z',
    started_at: '2026-01-01T00:00:01.000Z',
    attempt: 2,
    requested_by: 'alice',
    lease_owner: 'runner-7',
    lease_expires_at: 1_767_225_600_000,
    alert: {
      source: 'alertmanager',
      alertname: 'KubePodCrashLooping',
      group_key: 'g1',
      labels: { namespace: 'shop' },
    },
    ...overrides,
  };
}

describe('publicInvestigation', () => {
  it('leaves out the lease fields and the async flag, keeps every public field', () => {
    const rec = aRecord();
    const view = publicInvestigation(rec);
    expect(view).not.toHaveProperty('lease_owner');
    expect(view).not.toHaveProperty('lease_expires_at');
    expect(view).not.toHaveProperty('async');
    expect(view).toMatchObject({
      investigation_id: 'inv-1',
      team_id: 'team-a',
      status: 'running',
      agent: 'kubernetes',
      message: 'pods crash',
      context: { namespace: 'shop' },
      tools_used: ['k8s:get_pods'],
      created_at: '2026-01-01T00:00:00.000Z',
      started_at: '2026-01-01T00:00:01.000Z',
      attempt: 2,
      requested_by: 'alice',
      alert: { alertname: 'KubePodCrashLooping', labels: { namespace: 'shop' } },
    });
  });

  it('copies context and alert labels, so a change to the view never reaches the record', () => {
    const rec = aRecord();
    const view = publicInvestigation(rec);
    view.context.namespace = 'other';
    view.alert!.labels['namespace'] = 'other';
    expect(rec.context.namespace).toBe('shop');
    expect(rec.alert!.labels['namespace']).toBe('shop');
  });

  it('has no alert when the record has none', () => {
    expect(publicInvestigation(aRecord({ alert: undefined })).alert).toBeUndefined();
  });
});
