import { decisionFor } from './change-request-decision';

const cr = { requested_by: 'dev@acme.test', approvers: ['Lead@Acme.test', 'ops@acme.test'] };
const team = (identity: string, permissions = ['read', 'write']) =>
  ({ kind: 'team', identity, permissions }) as const;

describe('decisionFor', () => {
  it('lets a listed approver with write permission decide (case-insensitive)', () => {
    expect(decisionFor(cr, team('lead@acme.test'))).toEqual({ allowed: true });
    expect(
      decisionFor(cr, { kind: 'oidc', identity: 'OPS@acme.test', permissions: ['read', 'write'] }),
    ).toEqual({ allowed: true });
  });

  it('always lets the admin token decide', () => {
    expect(
      decisionFor(cr, { kind: 'admin', identity: 'admin', permissions: ['read', 'write'] }),
    ).toEqual({ allowed: true });
    expect(
      decisionFor({ ...cr, approvers: [] }, { kind: 'admin', identity: 'admin', permissions: [] })
        .allowed,
    ).toBe(true);
  });

  it('refuses the requester, a read-only approver, someone not listed, and says why', () => {
    const requester = decisionFor(
      { ...cr, approvers: [...cr.approvers, 'dev@acme.test'] },
      team('DEV@acme.test'),
    );
    expect(requester).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('You requested'),
    });
    expect(decisionFor(cr, team('lead@acme.test', ['read']))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('read-only'),
    });
    expect(decisionFor(cr, team('someone@acme.test'))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('Lead@Acme.test, ops@acme.test'),
    });
    expect(decisionFor({ ...cr, approvers: [] }, team('someone@acme.test'))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('only an admin'),
    });
    expect(decisionFor(cr, undefined).allowed).toBe(false);
  });
});
