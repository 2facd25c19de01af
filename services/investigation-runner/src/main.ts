import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { connectEffectiveConfigSource } from '@inquest/config-client';
import { startGrpcServer } from '@inquest/grpc-kit';
import { OpenAiChatModel } from '@inquest/llm';
import { createLogger, createMetricsRegistry } from '@inquest/observability';
import {
  busFor,
  Closers,
  mongoFromEnv,
  parseEnv,
  runMain,
  secretsFromEnv,
  type ServiceDeps,
  type RunningService,
} from '@inquest/runtime';
import {
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
import { EffectiveConfigPort, GrpcKnowledgeSource, GrpcToolGateway } from './adapters/peer-clients';
import { EnvSchema, type Env } from './config';
import { DeterministicEngine } from './domain/deterministic-engine';
import type { InvestigationEngine } from './domain/engine';
import { AlertIntake } from './domain/alerts/alert-intake';
import { InvestigationService } from './domain/investigation-service';
import { LlmEngine } from './domain/llm-engine';
import { alertBinding } from './grpc/alert-handlers';
import { investigationBinding } from './grpc/investigation-handlers';
import { toInvestigationMessage } from './grpc/investigation-message';

async function llmApiKey(config: Env, secrets: SecretResolver): Promise<string> {
  const key = config.INQUEST_LLM_API_KEY ?? '';
  if (!isVaultRef(key)) return key;
  // The operator's own setting (service env), not a node's config: any path of the store.
  return secrets.resolve(key, OPERATOR_SECRET_SCOPE);
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
  const closers = new Closers({ logger });
  const secrets = secretsFromEnv(config, { logger });

  let store: InvestigationStore;
  let alertStore: AlertStore;
  const mongoSettings = mongoFromEnv(config);
  if (mongoSettings) {
    const mongo = await MongoClient.connect(mongoSettings.url);
    closers.add('mongodb', () => mongo.close());
    store = await MongoInvestigationStore.open(mongo.db(mongoSettings.dbName));
    alertStore = await MongoAlertStore.open(mongo.db(mongoSettings.dbName));
  } else {
    const file = join(config.INQUEST_DATA_DIR, 'investigations.db');
    store = SqliteInvestigationStore.open(file);
    alertStore = SqliteAlertStore.open(file);
  }
  closers.add('investigation store', () => store.close());
  closers.add('alert store', () => alertStore.close());

  const bus = await busFor(config, deps, { name: 'investigation-runner', logger, closers });

  const effective = await connectEffectiveConfigSource({
    address: config.INQUEST_CONFIG_ADDR,
    service: 'investigation-runner',
    bus,
    // read fresh for every investigation as before (the alert intake keeps its own short reuse);
    // concurrent reads of one team still share one call
    ttlMs: 0,
    logger,
  });
  const configSource = new EffectiveConfigPort(effective);
  const tools = GrpcToolGateway.connect(config.INQUEST_TOOLS_ADDR);
  const knowledge = GrpcKnowledgeSource.connect(config.INQUEST_KNOWLEDGE_ADDR);
  closers.add('effective configs', () => effective.close());
  closers.add('tool client', () => tools.close());
  closers.add('knowledge client', () => knowledge.close());

  let engine: InvestigationEngine;
  if (config.INQUEST_LLM_BASE_URL) {
    const model = new OpenAiChatModel({
      baseUrl: config.INQUEST_LLM_BASE_URL,
      apiKey: await llmApiKey(config, secrets),
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
    eventMessage: toInvestigationMessage,
    runnerId:
      config.INQUEST_RUNNER_ID ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`,
    leaseMs: config.INQUEST_RUNNER_LEASE_MS,
    maxAttempts: config.INQUEST_RUNNER_MAX_ATTEMPTS,
    concurrency: config.INQUEST_RUNNER_CONCURRENCY,
    takeOverOnStart: config.INQUEST_RUNNER_TAKEOVER_ON_START ?? !config.INQUEST_NATS_URL,
  });
  const alerts = new AlertIntake({
    store: alertStore,
    investigations: service,
    config: configSource,
    configTtlMs: config.INQUEST_ALERTS_CONFIG_TTL_MS,
    secrets: {
      // the team's own references: resolved under inquest/<team>/ only
      resolve: (teamId, ref) => secrets.resolve(ref, secretScopeOf(teamId)),
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
  closers.add('grpc server', () => grpc.shutdown(), { timeoutMs: 10_000 });
  await service.start();
  closers.add('investigation service', () => service.stop(), { timeoutMs: 10_000 });
  await alerts.start();
  closers.add('alert intake', () => alerts.stop());
  return {
    name: 'investigation-runner',
    address: grpc.address,
    metricsAddress: grpc.metricsAddress,
    stop: () => closers.closeAll(),
  };
}

if (require.main === module) runMain('investigation-runner', () => start(process.env));
