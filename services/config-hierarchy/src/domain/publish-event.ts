import type { EventBus, EventOf, EventSubject } from '@inquest/events';
import type { Logger } from '@inquest/observability';

/** Publishes one event (the message EventMap declares for its subject), deduplicated by its `event_id`; never throws. */
export type PublishEvent = <S extends EventSubject>(subject: S, data: EventOf<S>) => Promise<void>;

/**
 * Events of a change that is already stored: a lost event only delays cache refreshes elsewhere,
 * so a failed publish is logged, not thrown.
 */
export function publishAfterStore(bus: EventBus, logger: Logger): PublishEvent {
  return async (subject, data) => {
    try {
      await bus.publish(subject, data, { msgId: data.event_id });
    } catch (err) {
      logger.warn({ err, subject }, 'failed to publish event');
    }
  };
}
