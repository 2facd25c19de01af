import { randomUUID } from 'node:crypto';
import type { InvestigationProgressSubject } from './event-map';

/** NATS subjects of Inquest events; payloads are the JSON form of proto/inquest/events/v1 messages (EventMap). */
export const Subjects = {
  investigationRequested: 'inquest.v1.investigation.requested',
  investigationCompleted: 'inquest.v1.investigation.completed',
  investigationFailed: 'inquest.v1.investigation.failed',
  investigationCancelled: 'inquest.v1.investigation.cancelled',
  investigationProgress: (id: string): InvestigationProgressSubject =>
    `inquest.v1.investigation.progress.${id}`,
  configChanged: 'inquest.v1.config.changed',
  configChangeRequested: 'inquest.v1.config.change_requested',
  configChangeApproved: 'inquest.v1.config.change_approved',
  configChangeRejected: 'inquest.v1.config.change_rejected',
  tokenRevoked: 'inquest.v1.config.token_revoked',
  kbTaught: 'inquest.v1.kb.taught',
} as const;

/** The JetStream stream that stores every durable subject. */
export const STREAM_NAME = 'INQUEST';
export const STREAM_SUBJECTS = ['inquest.v1.>'];

/** The envelope every event carries. */
export interface EventEnvelope {
  event_id: string;
  occurred_at: string;
  team_id: string;
}

/** A new envelope: a random event id (the dedupe key) and the current time. */
export function eventEnvelope(teamId: string, eventId?: string): EventEnvelope {
  return {
    event_id: eventId ?? `evt_${randomUUID().replace(/-/g, '')}`,
    occurred_at: new Date().toISOString(),
    team_id: teamId,
  };
}
