import { Caller, ErrorBody } from '@inquest/api-contract';
import { internal } from '@inquest/errors';
import { defineRoute, type RouteDef } from '../http/route';

const PERMISSIONS = ['read', 'write'] as const;

/**
 * GET /whoami: who the gateway takes the caller for. Front ends need it to offer only what the
 * caller may do (approve a change request as a listed approver, edit with write permission);
 * a team token's owner is known only here.
 */
export function whoamiRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/whoami',
      summary: 'The caller: kind, identity, team and permissions',
      description:
        "A team-scoped endpoint like /config/me/*: the admin token names the team in X-Inquest-Team. `identity` is what audit entries and change requests show for this caller (a team token's owner, the OIDC e-mail, or `admin`); a change request may be decided by a caller with write permission whose identity is among its approvers (case-insensitive) and is not its requester, or by the admin token.",
      tags: ['auth'],
      auth: 'team',
      permission: 'read',
      responses: {
        200: { description: 'The caller', schema: Caller },
        400: { description: 'The admin token without X-Inquest-Team', schema: ErrorBody },
      },
      handler: async (req) => {
        const a = req.auth;
        if (!a.teamId) throw internal('team route without a team');
        const body: Caller = {
          kind: a.kind,
          identity: a.identity,
          team_id: a.teamId,
          permissions: PERMISSIONS.filter((p) => a.permissions.includes(p)),
          ...(a.expiresAt !== undefined ? { expires_at: new Date(a.expiresAt).toISOString() } : {}),
        };
        return { status: 200, body };
      },
    }),
  ];
}
