import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { connectEffectiveConfigSource } from '@inquest/config-client';
import { createEgress, parseEgressAllow } from '@inquest/egress';
import { Subjects, type Subscription } from '@inquest/events';
import { startGrpcServer } from '@inquest/grpc-kit';
import { createLogger, createMetricsRegistry } from '@inquest/observability';
import { notifierV1 } from '@inquest/proto';
import {
  busFor,
  Closers,
  mongoFromEnv,
  parseEnv,
  runMain,
  secretsFromEnv,
  type MongoSettings,
  type ServiceDeps,
  type RunningService,
} from '@inquest/runtime';
import { MongoDeliveryStore, SqliteDeliveryStore, type DeliveryStore } from '@inquest/store';
import { effectiveTeamSettings } from './adapters/effective-team-settings';
import { EnvSchema } from './config';
import { DeliveryLog } from './domain/delivery-log';
import { Dispatcher } from './domain/dispatcher';
import { EventIntake } from './domain/event-intake';
import { notifierService } from './grpc/notifier-handlers';
import { SlackSender } from './senders/slack-sender';
import { WebhookSender } from './senders/webhook-sender';

// Redelivery of an event whose recording failed (config service or store down): patient, so an
// outage of a few minutes loses nothing.
const INTAKE_SUBSCRIPTION = {
  maxDeliver: 200,
  ackWaitMs: 10_000,
  backoffMs: [500, 2000, 5000, 15_000, 30_000],
};

async function openStore(mongo: MongoSettings | undefined, dataDir: string) {
  if (!mongo)
    return {
      store: SqliteDeliveryStore.open(join(dataDir, 'notifier.db')) as DeliveryStore,
      close: async () => undefined,
    };
  const client = await MongoClient.connect(mongo.url);
  return {
    store: (await MongoDeliveryStore.open(client.db(mongo.dbName))) as DeliveryStore,
    close: () => client.close(),
  };
}

export type { RunningService, ServiceDeps };

/** Composition root of the notifier service. */
export async function start(
  env: Record<string, string | undefined>,
  deps: ServiceDeps = {},
): Promise<RunningService> {
  const config = parseEnv(EnvSchema, env);
  const logger = deps.logger ?? createLogger({ name: 'notifier', level: config.INQUEST_LOG_LEVEL });
  const owner =
    config.INQUEST_NOTIFIER_REPLICA_ID ??
    `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;

  const closers = new Closers({ logger });
  const secrets = secretsFromEnv(config, { logger });
  const { store, close: closeDb } = await openStore(mongoFromEnv(config), config.INQUEST_DATA_DIR);
  closers.add('mongodb', closeDb);
  closers.add('delivery store', () => store.close());
  const webhookEgress = createEgress({
    allow: parseEgressAllow(config.INQUEST_EGRESS_ALLOW),
    timeoutMs: config.INQUEST_WEBHOOK_TIMEOUT_MS,
  });
  // The Slack API URL is operator configuration, not user input: its host is allowed as is.
  const slackEgress = createEgress({
    allow: [new URL(config.INQUEST_SLACK_API_URL).hostname.replace(/^\[|\]$/g, '')],
    timeoutMs: config.INQUEST_WEBHOOK_TIMEOUT_MS,
  });
  closers.add('egress', () => Promise.all([webhookEgress.close(), slackEgress.close()]));

  const dispatcher = new Dispatcher({
    store,
    senders: {
      webhook: new WebhookSender({
        egress: webhookEgress,
        secrets,
        timeoutMs: config.INQUEST_WEBHOOK_TIMEOUT_MS,
      }),
      chat: new SlackSender({
        egress: slackEgress,
        secrets,
        apiUrl: config.INQUEST_SLACK_API_URL,
        timeoutMs: config.INQUEST_WEBHOOK_TIMEOUT_MS,
      }),
    },
    policy: {
      baseMs: config.INQUEST_WEBHOOK_RETRY_BASE_MS,
      capMs: config.INQUEST_WEBHOOK_RETRY_CAP_MS,
      maxAttempts: config.INQUEST_WEBHOOK_MAX_ATTEMPTS,
    },
    owner,
    leaseMs: config.INQUEST_NOTIFIER_LEASE_MS,
    concurrency: config.INQUEST_NOTIFIER_CONCURRENCY,
    laneConcurrency: config.INQUEST_NOTIFIER_LANE_CONCURRENCY,
    pollMs: config.INQUEST_NOTIFIER_POLL_MS,
    logger,
  });
  const bus = await busFor(config, deps, { name: 'notifier', logger, closers });
  const effective = await connectEffectiveConfigSource({
    address: config.INQUEST_CONFIG_ADDR,
    service: 'notifier',
    bus,
    // read fresh for every event as before; concurrent reads of one team share one call
    ttlMs: 0,
    logger,
  });
  closers.add('effective configs', () => effective.close());
  const intake = new EventIntake({
    store,
    settings: effectiveTeamSettings(effective),
    consoleUrl: config.INQUEST_CONSOLE_URL,
    logger,
    onRecorded: () => dispatcher.kick(),
  });
  const deliveryLog = new DeliveryLog(store, () => dispatcher.kick());

  const subscriptions: Subscription[] = [
    // investigation_complete goes out for every terminal investigation, failed and cancelled too
    ...(await Promise.all(
      (
        [
          [Subjects.investigationCompleted, 'notifier-investigation-completed'],
          [Subjects.investigationFailed, 'notifier-investigation-failed'],
          [Subjects.investigationCancelled, 'notifier-investigation-cancelled'],
        ] as const
      ).map(([subject, durable]) =>
        bus.subscribe(subject, (m) => intake.investigationCompleted(m.data).then(() => undefined), {
          ...INTAKE_SUBSCRIPTION,
          durable,
          concurrency: 8,
        }),
      ),
    )),
    ...(await Promise.all(
      (['requested', 'approved', 'rejected'] as const).map((kind) =>
        bus.subscribe(
          kind === 'requested'
            ? Subjects.configChangeRequested
            : kind === 'approved'
              ? Subjects.configChangeApproved
              : Subjects.configChangeRejected,
          (m) => intake.changeRequest(kind, m.data).then(() => undefined),
          { ...INTAKE_SUBSCRIPTION, durable: `notifier-config-change-${kind}` },
        ),
      ),
    )),
  ];

  const metrics = createMetricsRegistry('notifier', config.INQUEST_METRICS_PORT !== undefined);
  const grpc = await startGrpcServer({
    host: config.INQUEST_GRPC_HOST,
    port: config.INQUEST_GRPC_PORT,
    services: [
      {
        definition: notifierV1.NotifierServiceService,
        implementation: notifierService(deliveryLog, logger),
        name: 'inquest.notifier.v1.NotifierService',
      },
    ],
    logger,
    metrics,
    metricsPort: config.INQUEST_METRICS_PORT,
  });
  closers.add('grpc server', () => grpc.shutdown(), { timeoutMs: 10_000 });
  // Deliveries recorded before a restart (or by a replica that died) resume here.
  dispatcher.start();
  closers.add('dispatcher', () => dispatcher.stop(), { timeoutMs: 10_000 });
  closers.add('subscriptions', async () => {
    for (const s of subscriptions) await s.unsubscribe().catch(() => undefined);
  });
  logger.info(
    {
      replica: owner,
      store: mongoFromEnv(config) ? 'mongodb' : 'sqlite',
      egress_allow: config.INQUEST_EGRESS_ALLOW ?? '',
    },
    'notifier started',
  );

  return {
    name: 'notifier',
    address: grpc.address,
    metricsAddress: grpc.metricsAddress,
    stop: () => closers.closeAll(),
  };
}

if (require.main === module) runMain('notifier', () => start(process.env));
