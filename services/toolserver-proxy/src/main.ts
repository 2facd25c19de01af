import { connectEffectiveConfigSource } from '@inquest/config-client';
import { createEgress, parseEgressAllow } from '@inquest/egress';
import { startGrpcServer } from '@inquest/grpc-kit';
import { toolsV1 } from '@inquest/proto';
import { createLogger, createMetricsRegistry } from '@inquest/observability';
import {
  busFor,
  Closers,
  parseEnv,
  runMain,
  secretsFromEnv,
  type ServiceDeps,
  type RunningService,
} from '@inquest/runtime';
import { grpcConfigSource } from './adapters/grpc-config-source';
import { httpToolServerClient } from './adapters/http-tool-server-client';
import { mcpToolServerClient } from './adapters/mcp-tool-server-client';
import { opossumCircuitBreaker } from './adapters/opossum-circuit-breaker';
import { promToolProxyMetrics } from './adapters/prom-tool-proxy-metrics';
import { EnvSchema } from './config';
import { ToolProxy } from './domain/tool-proxy';
import { toolServiceImplementation } from './grpc/tool-service.handlers';

export type { RunningService, ServiceDeps };

/** Composition root of the toolserver-proxy service. */
export async function start(
  env: Record<string, string | undefined>,
  deps: ServiceDeps = {},
): Promise<RunningService> {
  const config = parseEnv(EnvSchema, env);
  const logger =
    deps.logger ?? createLogger({ name: 'toolserver-proxy', level: config.INQUEST_LOG_LEVEL });
  const closers = new Closers({ logger });
  const allow = parseEgressAllow(config.INQUEST_EGRESS_ALLOW);
  if (allow.length)
    logger.info(
      { allow },
      'egress allow list: tool servers at these private addresses are reachable',
    );
  const egress = createEgress({
    allow,
    connectTimeoutMs: config.INQUEST_TOOLS_CONNECT_TIMEOUT_MS,
    maxBodyBytes: config.INQUEST_TOOLS_MAX_RESPONSE_BYTES,
  });
  closers.add('egress', () => egress.close());
  const secrets = secretsFromEnv(config, { logger });
  const bus = await busFor(config, deps, {
    name: 'toolserver-proxy',
    logger,
    closers,
    optional: true,
  });
  const effective = await connectEffectiveConfigSource({
    address: config.INQUEST_CONFIG_ADDR,
    service: 'toolserver-proxy',
    bus,
    logger,
  });
  closers.add('effective configs', () => effective.close());
  const configSource = grpcConfigSource(config.INQUEST_CONFIG_ADDR, effective);
  closers.add('config client', () => configSource.close());
  const registry = createMetricsRegistry(
    'toolserver-proxy',
    config.INQUEST_METRICS_PORT !== undefined,
  );
  const maxResponse = config.INQUEST_TOOLS_MAX_RESPONSE_BYTES;
  const proxy = new ToolProxy(
    {
      config: configSource,
      secrets,
      logger,
      breakers: opossumCircuitBreaker,
      metrics: promToolProxyMetrics(registry),
      clientFactory: (entry) =>
        entry.transport === 'mcp'
          ? mcpToolServerClient(entry.url, egress, maxResponse)
          : httpToolServerClient(entry.url, egress, maxResponse),
    },
    {
      listTtlMs: config.INQUEST_TOOLS_LIST_TTL_MS,
      maxOutputBytes: config.INQUEST_TOOLS_MAX_OUTPUT_BYTES,
      maxConcurrencyPerServer: config.INQUEST_TOOLS_MAX_CONCURRENCY,
      defaultTimeoutMs: config.INQUEST_TOOLS_DEFAULT_TIMEOUT_MS,
      breaker: {
        resetTimeoutMs: config.INQUEST_TOOLS_BREAKER_RESET_MS,
        volumeThreshold: config.INQUEST_TOOLS_BREAKER_VOLUME,
        errorThresholdPercentage: config.INQUEST_TOOLS_BREAKER_ERROR_PCT,
        rollingCountTimeoutMs: 60_000,
      },
    },
  );
  proxy.startHealthPolling(config.INQUEST_TOOLS_HEALTH_INTERVAL_MS);
  closers.add('tool proxy', () => proxy.close());

  // Every replica drops its own team state when the config client hears of a change.
  const offChange = effective.onChange(({ teamId, nodeId }) => {
    if (teamId) proxy.invalidateTeam(teamId, nodeId);
    else proxy.invalidateAll();
  });
  closers.add('config change listener', async () => offChange());

  const grpc = await startGrpcServer({
    host: config.INQUEST_GRPC_HOST,
    port: config.INQUEST_GRPC_PORT,
    services: [
      {
        definition: toolsV1.ToolServiceService,
        implementation: toolServiceImplementation(proxy, logger),
        name: 'inquest.tools.v1.ToolService',
      },
    ],
    logger,
    metrics: registry,
    metricsPort: config.INQUEST_METRICS_PORT,
  });
  closers.add('grpc server', () => grpc.shutdown(), { timeoutMs: 10_000 });
  return {
    name: 'toolserver-proxy',
    address: grpc.address,
    metricsAddress: grpc.metricsAddress,
    stop: () => closers.closeAll(),
  };
}

if (require.main === module) runMain('toolserver-proxy', () => start(process.env));
