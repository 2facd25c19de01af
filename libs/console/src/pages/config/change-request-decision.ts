// Who may approve or reject a pending change request, as config-hierarchy decides it: the admin
// token always; otherwise a caller with write permission whose identity is among the request's
// approvers (compared case-insensitively) and who did not request the change.

/** The caller as GET /whoami describes it. */
export interface CallerLike {
  kind: 'team' | 'admin' | 'oidc';
  identity: string;
  permissions: string[];
}

export type Decision = { allowed: true } | { allowed: false; reason: string };

export function decisionFor(
  cr: { requested_by: string; approvers: string[] },
  caller: CallerLike | undefined,
): Decision {
  if (!caller) return { allowed: false, reason: 'Checking who you are…' };
  if (caller.kind === 'admin') return { allowed: true };
  const who = caller.identity.toLowerCase();
  if (!caller.permissions.includes('write'))
    return { allowed: false, reason: 'Your token is read-only: deciding needs write permission.' };
  if (who === cr.requested_by.toLowerCase())
    return { allowed: false, reason: 'You requested this change: another approver decides it.' };
  if (!cr.approvers.some((a) => a.toLowerCase() === who))
    return {
      allowed: false,
      reason:
        cr.approvers.length > 0
          ? `Only ${cr.approvers.join(', ')} (or an admin) may decide it.`
          : 'No approvers are configured (approval.approvers): only an admin may decide it.',
    };
  return { allowed: true };
}
