import { join } from 'node:path';
import { createEgress, parseEgressAllow } from '@inquest/egress';
import { createEventBus, Subjects, type Subscription } from '@inquest/events';
import { startGrpcServer } from '@inquest/grpc-kit';
import { toolsV1 } from '@inquest/proto';
import { createLogger, createMetricsRegistry } from '@inquest/observability';
import { parseEnv, runMain, type ServiceDeps, type RunningService } from '@inquest/runtime';
import { createSecretResolver } from '@inquest/secrets';
import { grpcConfigSource } from './adapters/grpc-config-source';
import { httpToolServerClient } from './adapters/http-tool-server-client';
import { mcpToolServerClient } from './adapters/mcp-tool-server-client';
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
  const vault =
    config.INQUEST_VAULT_ADDR && config.INQUEST_VAULT_TOKEN
      ? {
          addr: config.INQUEST_VAULT_ADDR,
          token: config.INQUEST_VAULT_TOKEN,
          mount: config.INQUEST_VAULT_MOUNT,
        }
      : undefined;
  const secrets = createSecretResolver({
    ...(vault
      ? { vault }
      : { file: config.INQUEST_SECRETS_FILE ?? join(config.INQUEST_DATA_DIR, 'secrets.json') }),
    cacheTtlMs: config.INQUEST_SECRETS_CACHE_MS,
    logger,
  });
  const configSource = grpcConfigSource(config.INQUEST_CONFIG_ADDR);
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
      registry,
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

  const ownBus =
    !deps.bus && config.INQUEST_NATS_URL
      ? await createEventBus({ natsUrl: config.INQUEST_NATS_URL, logger, name: 'toolserver-proxy' })
      : undefined;
  const bus = deps.bus ?? ownBus;
  let subscription: Subscription | undefined;
  if (bus) {
    // Plain (fan-out) subscription: every replica drops its own cache.
    subscription = await bus.subscribe(Subjects.configChanged, async (msg) => {
      const ev = msg.data as { team_id?: string; node_id?: string };
      if (ev.team_id) proxy.invalidateTeam(ev.team_id, ev.node_id);
      else proxy.invalidateAll();
    });
  }

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
  return {
    name: 'toolserver-proxy',
    address: grpc.address,
    metricsAddress: grpc.metricsAddress,
    stop: async () => {
      await grpc.shutdown();
      await subscription?.unsubscribe();
      await proxy.close();
      configSource.close();
      await egress.close();
      await ownBus?.close();
    },
  };
}

if (require.main === module) runMain('toolserver-proxy', () => start(process.env));
