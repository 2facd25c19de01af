import type { InvestigationRecord } from '@inquest/store';

/**
 * An investigation as callers see it (the interface spec's field names): the stored record
 * without the runner's lease fields and the internal `async` flag. The gRPC edge and the terminal
 * events both carry this shape.
 */
export type PublicInvestigation = Omit<
  InvestigationRecord,
  'async' | 'lease_owner' | 'lease_expires_at'
>;

/** The public form of a stored record; nested objects are copied, never shared with the record. */
export function publicInvestigation(r: InvestigationRecord): PublicInvestigation {
  return {
    investigation_id: r.investigation_id,
    team_id: r.team_id,
    status: r.status,
    agent: r.agent,
    message: r.message,
    context: { ...r.context },
    progress: r.progress,
    result: r.result,
    tools_used: r.tools_used,
    error: r.error,
    created_at: r.created_at,
    started_at: r.started_at,
    completed_at: r.completed_at,
    failed_at: r.failed_at,
    cancelled_at: r.cancelled_at,
    duration_seconds: r.duration_seconds,
    attempt: r.attempt,
    requested_by: r.requested_by,
    alert: r.alert ? { ...r.alert, labels: { ...r.alert.labels } } : undefined,
  };
}
