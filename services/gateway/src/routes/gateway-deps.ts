import type { EffectiveConfigSource } from '@inquest/config-client';
import type { EventBus } from '@inquest/events';
import type { PromiseClient } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import type { SlackRouteDeps } from './slack.routes';
import type {
  alertsV1,
  configV1,
  investigationV1,
  knowledgeV1,
  notifierV1,
  toolsV1,
} from '@inquest/proto';

/** gRPC clients of the backing services. */
export interface ServiceClients {
  config: PromiseClient<configV1.ConfigServiceClient>;
  investigation: PromiseClient<investigationV1.InvestigationServiceClient>;
  knowledge: PromiseClient<knowledgeV1.KnowledgeServiceClient>;
  tools: PromiseClient<toolsV1.ToolServiceClient>;
  notifier: PromiseClient<notifierV1.NotifierServiceClient>;
  /** the investigation-runner's alert intake (same address as investigation) */
  alerts: PromiseClient<alertsV1.AlertServiceClient>;
}

/** What route modules may use. */
export interface GatewayDeps {
  clients: ServiceClients;
  /** teams' effective configs (cached, dropped on config.changed); the gateway's writes invalidate it */
  effectiveConfig: EffectiveConfigSource;
  logger: Logger;
  bus?: EventBus;
  /** the Slack chat front end (its request URLs are served when set) */
  slack?: SlackRouteDeps;
}
