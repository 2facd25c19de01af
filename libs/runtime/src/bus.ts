import { createEventBus, type EventBus } from '@inquest/events';
import type { Logger } from '@inquest/observability';
import type { Closers } from './closers';
import { envNatsUrl } from './env-schemas';
import type { ServiceDeps } from './service';

/** The event-bus variable; spread into a service's env schema. */
export const envBus = {
  /** NATS JetStream when set (distributed mode), else events stay in this process */
  INQUEST_NATS_URL: envNatsUrl.optional(),
};

export interface BusOptions {
  /** connection name shown by the NATS server */
  name: string;
  logger: Logger;
  /** the bus is closed here when this service opened it */
  closers: Closers;
  /**
   * without NATS and without a bus handed in: `true` gives no bus (the service has nobody to
   * hear in its own process), `false` (default) an in-process one
   */
  optional?: boolean;
}

/**
 * The one rule of event-bus ownership. A bus handed in (`deps.bus`: the launcher's shared bus in
 * all-in-one mode) belongs to whoever handed it: used, never closed here. Otherwise the service
 * connects its own (NATS when `INQUEST_NATS_URL` is set) and closes it at shutdown.
 */
export async function busFor(
  env: { INQUEST_NATS_URL?: string | undefined },
  deps: ServiceDeps,
  options: BusOptions & { optional: true },
): Promise<EventBus | undefined>;
export async function busFor(
  env: { INQUEST_NATS_URL?: string | undefined },
  deps: ServiceDeps,
  options: BusOptions,
): Promise<EventBus>;
export async function busFor(
  env: { INQUEST_NATS_URL?: string | undefined },
  deps: ServiceDeps,
  options: BusOptions,
): Promise<EventBus | undefined> {
  if (deps.bus) return deps.bus;
  if (options.optional && !env.INQUEST_NATS_URL) return undefined;
  const bus = await createEventBus({
    natsUrl: env.INQUEST_NATS_URL,
    logger: options.logger,
    name: options.name,
  });
  options.closers.add('event bus', () => bus.close());
  return bus;
}
