import type { eventsV1 } from '@inquest/proto';

/** inquest.v1.investigation.requested (work queue) */
export type InvestigationRequestedEvent = eventsV1.InvestigationRequested;
/** inquest.v1.investigation.completed | failed | cancelled */
export type InvestigationFinishedEvent = eventsV1.InvestigationFinished;
/** inquest.v1.investigation.progress.<investigation_id> */
export type InvestigationProgressedEvent = eventsV1.InvestigationProgressed;
/** inquest.v1.config.changed (one per team below the changed node) */
export type ConfigChangedEvent = eventsV1.ConfigChanged;
/** inquest.v1.config.change_requested | change_approved | change_rejected */
export type ChangeRequestEvent = eventsV1.ChangeRequestEvent;
/** inquest.v1.config.token_revoked */
export type TokenRevokedEvent = eventsV1.TokenRevoked;
/** inquest.v1.kb.taught */
export type KnowledgeTaughtEvent = eventsV1.KnowledgeTaught;

/** The subject of an investigation's progress updates. */
export type InvestigationProgressSubject = `inquest.v1.investigation.progress.${string}`;

/**
 * Each event subject and the message it carries (the JSON form of proto/inquest/events/v1). The
 * bus's `publish` and `subscribe` take their payload type from here, so a producer and its
 * consumers cannot disagree on a field without the build failing.
 */
export interface EventMap {
  'inquest.v1.investigation.requested': InvestigationRequestedEvent;
  'inquest.v1.investigation.completed': InvestigationFinishedEvent;
  'inquest.v1.investigation.failed': InvestigationFinishedEvent;
  'inquest.v1.investigation.cancelled': InvestigationFinishedEvent;
  'inquest.v1.config.changed': ConfigChangedEvent;
  'inquest.v1.config.change_requested': ChangeRequestEvent;
  'inquest.v1.config.change_approved': ChangeRequestEvent;
  'inquest.v1.config.change_rejected': ChangeRequestEvent;
  'inquest.v1.config.token_revoked': TokenRevokedEvent;
  'inquest.v1.kb.taught': KnowledgeTaughtEvent;
}

/** A subject with a declared message. */
export type EventSubject = keyof EventMap | InvestigationProgressSubject;

/**
 * The message of a subject: the declared one for a known subject (a union of them for a union of
 * subjects), `unknown` for anything else (wildcard patterns, subjects of tests).
 */
export type EventOf<S extends string> = S extends keyof EventMap
  ? EventMap[S]
  : S extends InvestigationProgressSubject
    ? InvestigationProgressedEvent
    : unknown;
