import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createEventBus } from '@inquest/events';
import { startGrpcServer } from '@inquest/grpc-kit';
import { OpenAiChatModel } from '@inquest/llm';
import { createLogger, createMetricsRegistry } from '@inquest/observability';
import { parseEnv, runMain, type ServiceDeps, type RunningService } from '@inquest/runtime';
import {
  createSecretResolver,
  isVaultRef,
  OPERATOR_SECRET_SCOPE,
  secretScopeOf,
  type SecretResolver,
} from '@inquest/secrets';
import {
  MongoAlertStore,
  MongoInvestigationStore,
  SqliteAlertStore,
  SqliteInvestigationStore,
  type AlertStore,
  type InvestigationStore,
} from '@inquest/store';
import { GrpcConfigSource, GrpcKnowledgeSource, GrpcToolGateway } from './adapters/peer-clients';
import { EnvSchema, type Env } from './config';
import { DeterministicEngine } from './domain/deterministic-engine';
import type { InvestigationEngine } from './domain/engine';
import { AlertIntake } from './domain/alerts/alert-intake';
import { InvestigationService } from './domain/investigation-service';
import { LlmEngine } from './domain/llm-engine';
import { alertBinding } from './grpc/alert-handlers';
import { investigationBinding } from './grpc/investigation-handlers';

function secretResolverOf(config: Env): SecretResolver {
  return createSecretResolver({
    vault:
      config.INQUEST_VAULT_ADDR && config.INQUEST_VAULT_TOKEN
        ? {
            addr: config.INQUEST_VAULT_ADDR,
            token: config.INQUEST_VAULT_TOKEN,
            mount: config.INQUEST_VAULT_MOUNT,
          }
        : undefined,
    file: config.INQUEST_SECRETS_FILE ?? join(config.INQUEST_DATA_DIR, 'secrets.json'),
  });
}

async function llmApiKey(config: Env): Promise<string> {
  const key = config.INQUEST_LLM_API_KEY ?? '';
  if (!isVaultRef(key)) return key;
  // The operator's own setting (service env), not a node's config: any path of the store.
  return secretResolverOf(config).resolve(key, OPERATOR_SECRET_SCOPE);
}

export type { RunningService, ServiceDeps };

/** Composition root of the investigation-runner service. */
export async function start(
  env: Record<string, string | undefined>,
  deps: ServiceDeps = {},
): Promise<RunningService> {
  const config = parseEnv(EnvSchema, env);
  const logger =
    deps.logger ?? createLogger({ name: 'investigation-runner', level: config.INQUEST_LOG_LEVEL });
  const closers: (() => Promise<void> | void)[] = [];

  let store: InvestigationStore;
  let alertStore: AlertStore;
  if (config.INQUEST_MONGODB_URL) {
    const mongo = await MongoClient.connect(config.INQUEST_MONGODB_URL);
    closers.push(() => mongo.close());
    store = await MongoInvestigationStore.open(mongo.db(config.INQUEST_MONGODB_DB));
    alertStore = await MongoAlertStore.open(mongo.db(config.INQUEST_MONGODB_DB));
  } else {
    const file = join(config.INQUEST_DATA_DIR, 'investigations.db');
    store = SqliteInvestigationStore.open(file);
    alertStore = SqliteAlertStore.open(file);
  }
  closers.push(
    () => store.close(),
    () => alertStore.close(),
  );

  const ownBus = !deps.bus;
  const bus =
    deps.bus ??
    (await createEventBus({
      natsUrl: config.INQUEST_NATS_URL,
      logger,
      name: 'investigation-runner',
    }));
  if (ownBus) closers.push(() => bus.close());

  const configSource = GrpcConfigSource.connect(config.INQUEST_CONFIG_ADDR);
  const tools = GrpcToolGateway.connect(config.INQUEST_TOOLS_ADDR);
  const knowledge = GrpcKnowledgeSource.connect(config.INQUEST_KNOWLEDGE_ADDR);
  closers.push(
    () => configSource.close(),
    () => tools.close(),
    () => knowledge.close(),
  );

  let engine: InvestigationEngine;
  if (config.INQUEST_LLM_BASE_URL) {
    const model = new OpenAiChatModel({
      baseUrl: config.INQUEST_LLM_BASE_URL,
      apiKey: await llmApiKey(config),
      model: config.INQUEST_LLM_MODEL,
      timeoutMs: config.INQUEST_LLM_TIMEOUT_MS,
    });
    engine = new LlmEngine(model, tools, knowledge, {
      maxSteps: config.INQUEST_LLM_MAX_STEPS,
      callTimeoutMs: config.INQUEST_LLM_TIMEOUT_MS,
    });
    logger.info({ model: config.INQUEST_LLM_MODEL }, 'investigation engine: LLM');
  } else {
    engine = new DeterministicEngine(tools, knowledge, {
      maxCalls: config.INQUEST_RUNNER_MAX_TOOL_CALLS,
    });
    logger.info('investigation engine: deterministic');
  }

  const service = new InvestigationService({
    store,
    bus,
    config: configSource,
    engine,
    logger,
    runnerId:
      config.INQUEST_RUNNER_ID ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`,
    leaseMs: config.INQUEST_RUNNER_LEASE_MS,
    maxAttempts: config.INQUEST_RUNNER_MAX_ATTEMPTS,
    concurrency: config.INQUEST_RUNNER_CONCURRENCY,
    takeOverOnStart: config.INQUEST_RUNNER_TAKEOVER_ON_START ?? !config.INQUEST_NATS_URL,
  });
  const teamSecrets = secretResolverOf(config);
  const alerts = new AlertIntake({
    store: alertStore,
    investigations: service,
    config: configSource,
    configTtlMs: config.INQUEST_ALERTS_CONFIG_TTL_MS,
    secrets: {
      // the team's own references: resolved under inquest/<team>/ only
      resolve: (teamId, ref) => teamSecrets.resolve(ref, secretScopeOf(teamId)),
    },
    logger,
  });
  const metrics = createMetricsRegistry(
    'investigation-runner',
    config.INQUEST_METRICS_PORT !== undefined,
  );
  const grpc = await startGrpcServer({
    host: config.INQUEST_GRPC_HOST,
    port: config.INQUEST_GRPC_PORT,
    services: [investigationBinding(service, logger), alertBinding(alerts, logger)],
    logger,
    metrics,
    metricsPort: config.INQUEST_METRICS_PORT,
  });
  await service.start();
  await alerts.start();
  return {
    name: 'investigation-runner',
    address: grpc.address,
    metricsAddress: grpc.metricsAddress,
    stop: async () => {
      alerts.stop();
      await service.stop();
      await grpc.shutdown();
      for (const close of closers.reverse()) await close();
    },
  };
}

if (require.main === module) runMain('investigation-runner', () => start(process.env));
