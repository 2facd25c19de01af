import { InquestClient, isPendingApproval } from '@inquest/client';
import { startInquest, type RunningInquest } from './support/start-inquest';

/**
 * GET /whoami against the real service: the identity it reports for a credential is the one the
 * audit and change requests record for that credential's changes, which is what the web console
 * compares with a change request's approvers and requester.
 */
describe('GET /whoami against the running service', () => {
  let inquest: RunningInquest;
  let admin: InquestClient;
  const clientFor = (token: string, team?: string) =>
    new InquestClient({ baseUrl: inquest.url, token, ...(team ? { team } : {}) });

  beforeAll(async () => {
    inquest = await startInquest();
    admin = clientFor(inquest.adminToken);
  }, 90_000);
  afterAll(() => inquest?.stop());

  it('names the token owner that audit entries and change requests record', async () => {
    const issued = await admin.admin.createToken('demo-team', {
      owner: 'Lead@Example.com',
      permissions: ['read', 'write'],
    });
    const lead = clientFor(issued.token);
    const me = await lead.whoami();
    expect(me).toEqual({
      kind: 'team',
      identity: 'Lead@Example.com',
      team_id: 'demo-team',
      permissions: ['read', 'write'],
    });

    const applied = await lead.config.update({ chat_group_to_ping: 'here' });
    expect(isPendingApproval(applied)).toBe(false);
    const audit = await lead.config.audit({ limit: 1, include_full: false });
    expect(audit.history[0]!.changed_by).toBe(me.identity);

    await admin.admin.updateNodeConfig('demo-team', { feature_flags: { require_approval: true } });
    const held = await lead.config.update({ chat_group_to_ping: 'channel' });
    expect(isPendingApproval(held)).toBe(true);
    const pending = await lead.config.pending();
    expect(pending.change_requests[0]!.requested_by).toBe(me.identity);
  });

  it('the admin token acting for a team, and a read-only token', async () => {
    const asAdmin = await clientFor(inquest.adminToken, 'demo-team').whoami();
    expect(asAdmin).toMatchObject({ kind: 'admin', identity: 'admin', team_id: 'demo-team' });
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const viewer = await admin.admin.createToken('demo-team', {
      owner: 'viewer@example.com',
      permissions: ['read'],
      expires_at: expiresAt,
    });
    const me = await clientFor(viewer.token).whoami();
    expect(me).toMatchObject({ identity: 'viewer@example.com', permissions: ['read'] });
    expect(Date.parse(me.expires_at!)).toBe(Date.parse(expiresAt));
  });
});
