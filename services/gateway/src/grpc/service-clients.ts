import { createClient } from '@inquest/grpc-kit';
import {
  alertsV1,
  configV1,
  investigationV1,
  knowledgeV1,
  notifierV1,
  toolsV1,
} from '@inquest/proto';
import type { ServiceClients } from '../routes/gateway-deps';

/** Where the backing services listen (the alert intake is the investigation-runner's). */
export interface ServiceAddresses {
  config: string;
  investigation: string;
  knowledge: string;
  tools: string;
  notifier: string;
}

/**
 * The gateway's gRPC clients with their default deadlines. The investigation client keeps the
 * 10 s default for get, list and cancel: only a sync run asks for longer, per call, as long as
 * the agent may take (agents.routes).
 */
export function createServiceClients(addresses: ServiceAddresses): ServiceClients {
  return {
    config: createClient(configV1.ConfigServiceClient, addresses.config),
    investigation: createClient(
      investigationV1.InvestigationServiceClient,
      addresses.investigation,
    ),
    knowledge: createClient(knowledgeV1.KnowledgeServiceClient, addresses.knowledge, {
      deadlineMs: 30_000,
    }),
    tools: createClient(toolsV1.ToolServiceClient, addresses.tools),
    notifier: createClient(notifierV1.NotifierServiceClient, addresses.notifier),
    alerts: createClient(alertsV1.AlertServiceClient, addresses.investigation, {
      deadlineMs: 10_000,
    }),
  };
}
