import type { EventBus } from '@inquest/events';
import type { Logger } from '@inquest/observability';

/**
 * What a service's composition root may be handed instead of building it: in all-in-one mode
 * the launcher gives every service the same in-process bus and logger.
 */
export interface ServiceDeps {
  bus?: EventBus;
  logger?: Logger;
}

/** A started service. */
export interface RunningService {
  name: string;
  /** gRPC address (host:port) */
  address: string;
  /** where GET /metrics answers, when INQUEST_METRICS_PORT is set */
  metricsAddress?: string;
  stop(): Promise<void>;
}
