import { join } from 'node:path';
import { Subjects } from '@inquest/events';
import { createClient, implement, startGrpcServer } from '@inquest/grpc-kit';
import { createLogger, createMetricsRegistry } from '@inquest/observability';
import { configV1, toolsV1 } from '@inquest/proto';
import {
  busFor,
  Closers,
  mongoFromEnv,
  parseEnv,
  runMain,
  type ServiceDeps,
  type RunningService,
} from '@inquest/runtime';
import { connectMongoConfigStores, openSqliteConfigStores } from '@inquest/store';
import { GrpcToolCatalog } from './adapters/grpc-tool-catalog';
import { EnvSchema } from './config';
import { ConfigHierarchy } from './domain/config-hierarchy';
import { configServiceHandlers } from './grpc/config-service.handlers';
import { changeRequestMessage } from './grpc/config-messages';

export type { RunningService, ServiceDeps };

/** Composition root of the config-hierarchy service. */
export async function start(
  env: Record<string, string | undefined>,
  deps: ServiceDeps = {},
): Promise<RunningService> {
  const config = parseEnv(EnvSchema, env);
  const logger =
    deps.logger ?? createLogger({ name: 'config-hierarchy', level: config.INQUEST_LOG_LEVEL });
  const closers = new Closers({ logger });
  const mongo = mongoFromEnv(config);
  const stores = mongo
    ? await connectMongoConfigStores(mongo.url, { dbName: mongo.dbName })
    : openSqliteConfigStores(join(config.INQUEST_DATA_DIR, 'config.db'));
  closers.add('stores', () => stores.close());
  const bus = await busFor(config, deps, { name: 'config-hierarchy', logger, closers });
  const toolsClient = config.INQUEST_TOOLS_ADDR
    ? createClient(toolsV1.ToolServiceClient, config.INQUEST_TOOLS_ADDR, { retries: 0 })
    : undefined;
  if (toolsClient) closers.add('tool service client', () => toolsClient.close());
  const domain = new ConfigHierarchy({
    stores,
    bus,
    logger,
    changeRequestMessage,
    ...(toolsClient ? { tools: new GrpcToolCatalog(toolsClient) } : {}),
  });
  // Other replicas announce their changes; drop what they made stale.
  const sub = await bus.subscribe(Subjects.configChanged, async (msg) => {
    const data = msg.data;
    if (data.node_id) domain.invalidate(data.node_id);
    if (data.team_id) domain.invalidate(data.team_id);
  });
  closers.add('config.changed subscription', () => sub.unsubscribe());
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
  closers.add('grpc server', () => grpc.shutdown(), { timeoutMs: 10_000 });
  return {
    name: 'config-hierarchy',
    address: grpc.address,
    metricsAddress: grpc.metricsAddress,
    stop: () => closers.closeAll(),
  };
}

if (require.main === module) runMain('config-hierarchy', () => start(process.env));
