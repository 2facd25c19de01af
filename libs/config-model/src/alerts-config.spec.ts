import { isDomainError, type DomainError } from '@inquest/errors';
import { checkPatchShape, patchProblems } from './config-validation';

function problems(patch: unknown): string[] {
  try {
    return patchProblems(checkPatchShape(patch)).map((e) => e.field);
  } catch (err) {
    if (isDomainError(err)) return ((err as DomainError).options.errors ?? []).map((e) => e.field);
    throw err;
  }
}

describe('alerts settings', () => {
  it('accepts agent, cap, grouping, intake secret and PagerDuty signing secret', () => {
    expect(
      problems({
        alerts: {
          disabled: ['Watchdog'],
          agent: 'k8s_agent',
          max_investigations_per_minute: 30,
          group_by: ['service', 'namespace'],
          intake_secret: 'vault://inquest/payments/alerts#intake',
          pagerduty: { signing_secret: 'vault://inquest/payments/alerts#pagerduty' },
        },
      }),
    ).toEqual([]);
  });

  it('rejects every wrong value at its path', () => {
    expect(
      problems({
        alerts: {
          agent: 'sherlock',
          max_investigations_per_minute: 0,
          group_by: [''],
          intake_secret: 'plain-text-secret',
          pagerduty: { signing_secret: 'also-plain', secret: 'x' },
          grouping: ['service'],
        },
      }).sort(),
    ).toEqual(
      [
        'alerts.agent',
        'alerts.max_investigations_per_minute',
        'alerts.group_by.0',
        'alerts.intake_secret',
        'alerts.pagerduty.signing_secret',
        'alerts.pagerduty.secret',
        'alerts.grouping',
      ].sort(),
    );
  });
});
