import { createHmac } from 'node:crypto';
import { pagerDutySignatureValid, refInTeamScope, secretsEqual } from './sender-verification';

describe('sender verification', () => {
  it('compares intake secrets', () => {
    expect(secretsEqual('s3cret', 's3cret')).toBe(true);
    expect(secretsEqual('s3cret', 's3cret!')).toBe(false);
    expect(secretsEqual('', '')).toBe(false);
  });

  it('accepts any of several PagerDuty v1 signatures over the raw body', () => {
    const body = Buffer.from('{"event":{"event_type":"incident.triggered"}}');
    const sig = (secret: string) => `v1=${createHmac('sha256', secret).update(body).digest('hex')}`;
    expect(pagerDutySignatureValid(sig('k'), body, 'k')).toBe(true);
    expect(pagerDutySignatureValid(`${sig('old')}, ${sig('k')}`, body, 'k')).toBe(true);
    expect(pagerDutySignatureValid(sig('other'), body, 'k')).toBe(false);
    expect(pagerDutySignatureValid(sig('k'), Buffer.from('{}'), 'k')).toBe(false);
    expect(pagerDutySignatureValid('v1=', body, 'k')).toBe(false);
    expect(pagerDutySignatureValid('', body, 'k')).toBe(false);
  });

  it('keeps references under the team prefix', () => {
    expect(refInTeamScope('vault://inquest/payments/alerts#intake', 'payments')).toBe(true);
    expect(refInTeamScope('vault://inquest/other/alerts', 'payments')).toBe(false);
    expect(refInTeamScope('vault://inquest/payments/../other/x', 'payments')).toBe(false);
    expect(refInTeamScope('plain', 'payments')).toBe(false);
  });
});
