export { subjectMatches } from './event-bus';
export type {
  EventBus,
  EventHandler,
  EventMessage,
  PublishOptions,
  SubscribeOptions,
  Subscription,
} from './event-bus';
export type {
  ChangeRequestEvent,
  ConfigChangedEvent,
  EventMap,
  EventOf,
  EventSubject,
  InvestigationFinishedEvent,
  InvestigationProgressedEvent,
  InvestigationProgressSubject,
  InvestigationRequestedEvent,
  KnowledgeTaughtEvent,
  TokenRevokedEvent,
} from './event-map';
export { Subjects, STREAM_NAME, STREAM_SUBJECTS, eventEnvelope } from './subjects';
export type { EventEnvelope } from './subjects';
export { InProcessEventBus } from './in-process/in-process-event-bus';
export { NatsEventBus } from './nats/nats-event-bus';
export type { NatsEventBusOptions } from './nats/nats-event-bus';
export { createEventBus } from './create-event-bus';
export type { CreateEventBusOptions } from './create-event-bus';
// The enums of event payloads (Investigation.status_enum, ...) and their REST/storage names, for
// consumers: read the enum, fall back to the deprecated string of an older producer.
export {
  agentEnum,
  changeRequestStatusEnum,
  investigationStatusEnum,
  nodeLevelEnum,
  priorityEnum,
} from '@inquest/proto';
