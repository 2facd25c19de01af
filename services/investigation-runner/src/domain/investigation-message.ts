import type { investigationV1 } from '@inquest/proto';
import type { InvestigationRecord } from '@inquest/store';

/** The proto Investigation (snake_case JSON form) of a stored record; internal lease fields stay out. */
export function toInvestigationMessage(r: InvestigationRecord): investigationV1.Investigation {
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
