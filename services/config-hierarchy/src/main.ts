import { join } from 'node:path';
import { createEventBus, Subjects } from '@inquest/events';
import { createClient, implement, startGrpcServer } from '@inquest/grpc-kit';
import { createLogger, createMetricsRegistry } from '@inquest/observability';
import { configV1, toolsV1 } from '@inquest/proto';
import { parseEnv, runMain, type ServiceDeps, type RunningService } from '@inquest/runtime';
import { connectMongoConfigStores, openSqliteConfigStores } from '@inquest/store';
import { GrpcToolCatalog } from './adapters/grpc-tool-catalog';
import { EnvSchema } from './config';
import { ConfigHierarchy } from './domain/config-hierarchy';
import { configServiceHandlers } from './grpc/config-service.handlers';

export type { RunningService, ServiceDeps };

/** Composition root of the config-hierarchy service. */
export async function start(
  env: Record<string, string | undefined>,
  deps: ServiceDeps = {},
): Promise<RunningService> {
  const config = parseEnv(EnvSchema, env);
  const logger =
    deps.logger ?? createLogger({ name: 'config-hierarchy', level: config.INQUEST_LOG_LEVEL });
  const stores = config.INQUEST_MONGODB_URL
    ? await connectMongoConfigStores(config.INQUEST_MONGODB_URL)
    : openSqliteConfigStores(join(config.INQUEST_DATA_DIR, 'config.db'));
  const ownBus = !deps.bus;
  const bus =
    deps.bus ??
    (await createEventBus({ natsUrl: config.INQUEST_NATS_URL, logger, name: 'config-hierarchy' }));
  const toolsClient = config.INQUEST_TOOLS_ADDR
    ? createClient(toolsV1.ToolServiceClient, config.INQUEST_TOOLS_ADDR, { retries: 0 })
    : undefined;
  const domain = new ConfigHierarchy({
    stores,
    bus,
    logger,
    ...(toolsClient ? { tools: new GrpcToolCatalog(toolsClient) } : {}),
  });
  // Other replicas announce their changes; drop what they made stale.
  const sub = await bus.subscribe(Subjects.configChanged, async (msg) => {
    const data = msg.data as { node_id?: string; team_id?: string };
    if (data.node_id) domain.invalidate(data.node_id);
    if (data.team_id) domain.invalidate(data.team_id);
  });
  const metrics = createMetricsRegistry(
    'config-hierarchy',
    config.INQUEST_METRICS_PORT !== undefined,
  );
  const grpc = await startGrpcServer({
    host: config.INQUEST_GRPC_HOST,
    port: config.INQUEST_GRPC_PORT,
    services: [
      {
        definition: configV1.ConfigServiceService,
        implementation: implement(
          configV1.ConfigServiceService,
          configServiceHandlers(domain),
          logger,
        ),
        name: 'inquest.config.v1.ConfigService',
      },
    ],
    logger,
    metrics,
    metricsPort: config.INQUEST_METRICS_PORT,
  });
  return {
    name: 'config-hierarchy',
    address: grpc.address,
    metricsAddress: grpc.metricsAddress,
    stop: async () => {
      await grpc.shutdown();
      toolsClient?.close();
      await sub.unsubscribe();
      if (ownBus) await bus.close();
      await stores.close();
    },
  };
}

if (require.main === module) runMain('config-hierarchy', () => start(process.env));
