import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { CachedEffectiveConfigSource, grpcEffectiveConfigLoader } from '@inquest/config-client';
import { checkHealth } from '@inquest/grpc-kit';
import { createLogger, createMetricsRegistry } from '@inquest/observability';
import {
  busFor,
  Closers,
  mongoFromEnv,
  parseEnv,
  runMain,
  secretsFromEnv,
  type ServiceDeps,
} from '@inquest/runtime';
import { CONSOLE_ASSETS_DIR } from '@inquest/console';
import { createApp, type Readiness } from './app';
import { OidcVerifier } from './auth/oidc-verifier';
import { ConfigTeamDirectory } from './auth/team-directory';
import { createServiceClients } from './grpc/service-clients';
import { installClientErrorHandler } from './http/client-error';
import { TokenAuthenticator } from './auth/token-authenticator';
import { EnvSchema } from './config';
import { FlexibleRateLimiter } from './http/flexible-rate-limiter';
import type { RouteDef } from './http/route';
import { allRoutes, type ServiceClients } from './routes/index';
import { SlackBot } from './slack/slack-bot';
import { MongoSeenEvents } from './slack/mongo-seen-events';
import { InMemorySeenEvents } from './slack/seen-events';
import { SqliteSeenEvents } from './slack/sqlite-seen-events';
import { SlackDirectory } from './slack/slack-directory';
import { WebClientSlackApi } from './slack/slack-web-api';

export interface Deps extends ServiceDeps {
  /** routes served besides the product's own (benchmarks, tests) */
  extraRoutes?: RouteDef[];
}

export { defineRoute } from './http/route';
export type { RouteDef } from './http/route';

export interface RunningGateway {
  name: string;
  address: string;
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Composition root of the gateway: REST /api/v1 in front of the five gRPC services. */
export async function start(
  env: Record<string, string | undefined>,
  deps: Deps = {},
): Promise<RunningGateway> {
  const config = parseEnv(EnvSchema, env);
  const logger = deps.logger ?? createLogger({ name: 'gateway', level: config.INQUEST_LOG_LEVEL });
  const metrics = createMetricsRegistry('gateway');
  const closers = new Closers({ logger });
  const addresses = {
    config: config.INQUEST_CONFIG_ADDR,
    investigation: config.INQUEST_INVESTIGATION_ADDR,
    knowledge: config.INQUEST_KNOWLEDGE_ADDR,
    tools: config.INQUEST_TOOLS_ADDR,
    notifier: config.INQUEST_NOTIFIER_ADDR,
  };
  const clients: ServiceClients = createServiceClients(addresses);
  closers.add('grpc clients', () => {
    for (const c of Object.values(clients)) c.close();
  });
  const adminTokenSha256 =
    config.INQUEST_ADMIN_TOKEN_SHA256 ??
    (config.INQUEST_ADMIN_TOKEN
      ? createHash('sha256').update(config.INQUEST_ADMIN_TOKEN).digest('hex')
      : undefined);
  if (!adminTokenSha256) logger.warn('no INQUEST_ADMIN_TOKEN set: the admin API is disabled');

  const readiness = async (): Promise<Readiness> => {
    const entries = await Promise.all(
      Object.entries(addresses).map(
        async ([name, addr]) => [name, (await checkHealth(addr, 1000)) ? 'up' : 'down'] as const,
      ),
    );
    const services = Object.fromEntries(entries) as Readiness['services'];
    return { ok: entries.every(([, s]) => s === 'up'), services };
  };

  // Revocations reach this gateway over the shared bus (all-in-one) or NATS (replicas).
  const bus = await busFor(config, deps, { name: 'gateway', logger, closers, optional: true });
  const mongoSettings = mongoFromEnv(config);
  const mongo = mongoSettings ? await new MongoClient(mongoSettings.url).connect() : undefined;
  if (mongo) closers.add('mongodb', () => mongo.close());
  const db = mongo && mongoSettings ? mongo.db(mongoSettings.dbName) : undefined;
  const rateLimiter = await FlexibleRateLimiter.create({
    limits: config.INQUEST_RATE_LIMITS,
    mongo: db,
    logger,
  });
  const oidc =
    config.INQUEST_OIDC_ISSUER && config.INQUEST_OIDC_AUDIENCE
      ? new OidcVerifier({
          issuer: config.INQUEST_OIDC_ISSUER,
          audience: config.INQUEST_OIDC_AUDIENCE,
          teamClaim: config.INQUEST_OIDC_TEAM_CLAIM,
          permissionsClaim: config.INQUEST_OIDC_PERMISSIONS_CLAIM,
          logger,
        })
      : undefined;
  // One cache of effective configs for every route, dropped on config.changed (none without a bus).
  const effectiveConfig = await CachedEffectiveConfigSource.create({
    load: grpcEffectiveConfigLoader(clients.config, 'gateway'),
    bus,
    logger,
  });
  closers.add('effective configs', () => effectiveConfig.close());
  const authenticator = new TokenAuthenticator({
    adminTokenSha256,
    config: clients.config,
    oidc,
    bus,
    configChanges: effectiveConfig,
    positiveTtlMs: bus ? config.INQUEST_TOKEN_CACHE_TTL_MS : 1000,
    logger,
  });
  closers.add('authenticator', () => authenticator.close());
  await authenticator.ready;

  // The Slack chat front end: its signing secrets and bot tokens resolve here, within their scope.
  const secrets = secretsFromEnv(config, { logger });
  const slackDirectory = new SlackDirectory({ config: clients.config, secrets });
  const slackBot = new SlackBot({
    clients,
    slack: new WebClientSlackApi({ apiUrl: config.INQUEST_SLACK_API_URL, logger }),
    directory: slackDirectory,
    rateLimiter,
    logger,
    pollMs: config.INQUEST_SLACK_PROGRESS_POLL_MS,
  });
  // Slack retries may reach any replica: seen deliveries live where the rate limits do (MongoDB),
  // else in the data directory replicas share; all-in-one has one gateway, so memory will do.
  const seenEvents = db
    ? await MongoSeenEvents.open(db)
    : deps.bus
      ? new InMemorySeenEvents()
      : new SqliteSeenEvents(join(config.INQUEST_DATA_DIR, 'gateway.db'));
  closers.add('seen slack events', () => seenEvents.close());
  closers.add('slack bot', () => slackBot.stop());
  const slack = { directory: slackDirectory, bot: slackBot, seen: seenEvents, logger };

  const app = createApp({
    routes: [
      ...allRoutes({ clients, effectiveConfig, logger, bus, slack }),
      ...(deps.extraRoutes ?? []),
    ],
    authenticator,
    teams: new ConfigTeamDirectory(clients.config),
    rateLimiter,
    logger,
    metrics,
    readiness,
    corsOrigins: config.INQUEST_CORS_ORIGINS,
    requestTimeoutMs: config.INQUEST_REQUEST_TIMEOUT_MS,
    ...(config.INQUEST_TRUST_PROXY !== undefined ? { trustProxy: config.INQUEST_TRUST_PROXY } : {}),
    ...(config.INQUEST_CONSOLE
      ? {
          console: {
            assetsDir: CONSOLE_ASSETS_DIR,
            config: {
              oidc:
                config.INQUEST_OIDC_ISSUER && config.INQUEST_CONSOLE_OIDC_CLIENT_ID
                  ? {
                      issuer: config.INQUEST_OIDC_ISSUER,
                      client_id: config.INQUEST_CONSOLE_OIDC_CLIENT_ID,
                      scopes: config.INQUEST_CONSOLE_OIDC_SCOPES,
                      ...(config.INQUEST_OIDC_AUDIENCE
                        ? { audience: config.INQUEST_OIDC_AUDIENCE }
                        : {}),
                    }
                  : null,
            },
          },
        }
      : {}),
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.PORT, config.INQUEST_HTTP_HOST, () => resolve(s));
    s.once('error', reject);
  });
  // requests Node cannot even parse still get the spec's error body
  installClientErrorHandler(server, logger);
  server.keepAliveTimeout = 65_000;
  // slow clients cannot hold a socket: headers within 10 s, the whole request within the timeout
  server.headersTimeout = 10_000;
  server.requestTimeout = config.INQUEST_REQUEST_TIMEOUT_MS + 5_000;
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.PORT;
  const host =
    config.INQUEST_HTTP_HOST === '0.0.0.0' || config.INQUEST_HTTP_HOST === '::'
      ? 'localhost'
      : config.INQUEST_HTTP_HOST;
  closers.add(
    'http server',
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      }),
    { timeoutMs: 10_000 },
  );
  logger.info({ port }, 'gateway listening');
  return {
    name: 'gateway',
    address: `${config.INQUEST_HTTP_HOST}:${port}`,
    url: `http://${host}:${port}`,
    port,
    stop: () => closers.closeAll(),
  };
}

if (require.main === module) runMain('gateway', () => start(process.env));
