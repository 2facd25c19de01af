import { DecisionBody, type ChangeRequest } from '@inquest/api-contract';
import { internal, invalidRequest, validationError } from '@inquest/errors';
import type { configV1 } from '@inquest/proto';
import { changeRequestStatusOf } from '../grpc/config-messages';

/** A change request as the API shows it (admin routes and the team's approver routes). */
export const changeRequestBody = (cr: configV1.ChangeRequest | undefined): ChangeRequest => {
  if (!cr) throw internal('change request missing from answer');
  return {
    change_request_id: cr.change_request_id,
    team_id: cr.team_id,
    status: changeRequestStatusOf(cr),
    requested_by: cr.requested_by,
    requested_at: cr.requested_at,
    approvers: cr.approvers,
    changes: (cr.changes ?? {}) as ChangeRequest['changes'],
    ...(cr.decided_by ? { decided_by: cr.decided_by } : {}),
    ...(cr.decided_at ? { decided_at: cr.decided_at } : {}),
    ...(cr.comment ? { comment: cr.comment } : {}),
    ...(cr.applied_version !== undefined ? { applied_version: cr.applied_version } : {}),
  };
};

/** The optional `{comment}` body of approve/reject: a request without a body is fine. */
export function decision(body: unknown): DecisionBody {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidRequest('request body must be a JSON object');
  const r = DecisionBody.safeParse(body);
  if (!r.success)
    throw validationError(
      r.error.issues.map((i) => ({ field: i.path.join('.') || 'body', error: i.message })),
    );
  return r.data;
}
