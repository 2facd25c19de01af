import type { Logger } from '@inquest/observability';
import type { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process/in-process-event-bus';
import { NatsEventBus } from './nats/nats-event-bus';

export interface CreateEventBusOptions {
  /** INQUEST_NATS_URL: set -> NATS JetStream, unset -> in-process bus */
  natsUrl?: string;
  logger: Logger;
  /** connection name shown by the NATS server, e.g. the service name */
  name?: string;
}

/** The event bus a service composes: NATS JetStream when a URL is configured, else in-process. */
export async function createEventBus(options: CreateEventBusOptions): Promise<EventBus> {
  if (!options.natsUrl) return new InProcessEventBus();
  const bus = await NatsEventBus.connect({
    url: options.natsUrl,
    logger: options.logger,
    name: options.name,
  });
  options.logger.info({ nats: redactUrl(options.natsUrl) }, 'event bus: NATS JetStream');
  return bus;
}

function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/g, '//***@');
}
