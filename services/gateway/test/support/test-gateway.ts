import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Registry } from 'prom-client';
import { CachedEffectiveConfigSource, grpcEffectiveConfigLoader } from '@inquest/config-client';
import type { EventBus } from '@inquest/events';
import { createClient } from '@inquest/grpc-kit';
import { silentLogger, type Logger } from '@inquest/observability';
import {
  alertsV1,
  configV1,
  investigationV1,
  knowledgeV1,
  notifierV1,
  toolsV1,
} from '@inquest/proto';
import {
  freePort,
  gatewayRequest,
  startConfigServiceDouble,
  type ConfigServiceDouble,
  type GatewayRequestOptions,
  type GatewayResponse,
} from '@inquest/testing';
import { createApp } from '../../src/app';
import { installClientErrorHandler } from '../../src/http/client-error';
import type { OidcVerifier } from '../../src/auth/oidc-verifier';
import type { ConsoleOptions } from '../../src/console/console-static';
import { ConfigTeamDirectory } from '../../src/auth/team-directory';
import { TokenAuthenticator } from '../../src/auth/token-authenticator';
import { FlexibleRateLimiter } from '../../src/http/flexible-rate-limiter';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../../src/http/rate-limits';
import { unlimited, type RateLimiter } from '../../src/http/rate-limiter';
import type { RouteDef } from '../../src/http/route';
import type { GatewayDeps, ServiceClients } from '../../src/routes/index';

export interface TestGatewayOptions {
  /** routes, or a route module function (e.g. `configRoutes`) called with the clients */
  routes?: RouteDef[] | ((deps: GatewayDeps) => RouteDef[]);
  /** gRPC addresses of backing services; missing ones point at a closed port (UNAVAILABLE) */
  addresses?: Partial<Record<keyof ServiceClients, string>>;
  /**
   * the gRPC clients of the backing services, built from their addresses (default: clients with a
   * 2 s deadline); `createServiceClients` gives the gateway's own
   */
  clients?: (addresses: Record<keyof ServiceClients, string>) => ServiceClients;
  /** default: a ConfigService test double verifying tokens (see `config`) unless addresses.config is set */
  rateLimits?: Partial<RateLimits>;
  /** false = no rate limiting at all */
  rateLimited?: boolean;
  bus?: EventBus;
  oidc?: OidcVerifier;
  corsOrigins?: string[];
  requestTimeoutMs?: number;
  trustProxy?: number | string[];
  positiveTtlMs?: number;
  logger?: Logger;
  /** serve the web console from this build output (and redirect / there) */
  console?: ConsoleOptions;
}

export type TestResponse = GatewayResponse;

export interface TestGateway {
  url: string;
  adminToken: string;
  /** the token-verifying double (absent when addresses.config was given) */
  config?: ConfigServiceDouble;
  clients: ServiceClients;
  authenticator: TokenAuthenticator;
  rateLimiter: RateLimiter;
  request(method: string, path: string, options?: GatewayRequestOptions): Promise<TestResponse>;
  stop(): Promise<void>;
}

/**
 * The gateway app in-process on 127.0.0.1 with real authentication (admin token + team tokens
 * through a real gRPC ConfigService double) and real rate limiting, for REST tests of any area:
 * `const gw = await createTestGateway({ routes: configRoutes, addresses: { config: svc.address } })`.
 */
export async function createTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const logger = options.logger ?? silentLogger();
  const config = options.addresses?.config ? undefined : await startConfigServiceDouble();
  const dead = async () => `127.0.0.1:${await freePort()}`;
  const addr = async (k: keyof ServiceClients) =>
    options.addresses?.[k] ?? (k === 'config' && config ? config.address : await dead());
  const clients: ServiceClients = options.clients
    ? options.clients({
        config: await addr('config'),
        investigation: await addr('investigation'),
        knowledge: await addr('knowledge'),
        tools: await addr('tools'),
        notifier: await addr('notifier'),
        alerts: options.addresses?.alerts ?? (await addr('investigation')),
      })
    : {
        config: createClient(configV1.ConfigServiceClient, await addr('config'), {
          deadlineMs: 2000,
        }),
        investigation: createClient(
          investigationV1.InvestigationServiceClient,
          await addr('investigation'),
          { deadlineMs: 2000 },
        ),
        knowledge: createClient(knowledgeV1.KnowledgeServiceClient, await addr('knowledge'), {
          deadlineMs: 2000,
        }),
        tools: createClient(toolsV1.ToolServiceClient, await addr('tools'), { deadlineMs: 2000 }),
        notifier: createClient(notifierV1.NotifierServiceClient, await addr('notifier'), {
          deadlineMs: 2000,
        }),
        alerts: createClient(
          alertsV1.AlertServiceClient,
          options.addresses?.alerts ?? (await addr('investigation')),
          { deadlineMs: 2000 },
        ),
      };
  const adminToken = `admin.${randomBytes(24).toString('base64url')}`;
  const effectiveConfig = await CachedEffectiveConfigSource.create({
    load: grpcEffectiveConfigLoader(clients.config, 'gateway'),
    bus: options.bus,
    logger,
  });
  const authenticator = new TokenAuthenticator({
    adminTokenSha256: createHash('sha256').update(adminToken).digest('hex'),
    config: clients.config,
    oidc: options.oidc,
    bus: options.bus,
    configChanges: effectiveConfig,
    positiveTtlMs: options.positiveTtlMs,
    logger,
  });
  await authenticator.ready;
  const rateLimiter =
    options.rateLimited === false
      ? undefined
      : await FlexibleRateLimiter.create({
          limits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
        });
  const routes =
    typeof options.routes === 'function'
      ? options.routes({ clients, effectiveConfig, logger, bus: options.bus })
      : (options.routes ?? []);
  const app = createApp({
    routes,
    authenticator,
    teams: new ConfigTeamDirectory(clients.config),
    rateLimiter,
    logger,
    metrics: new Registry(),
    corsOrigins: options.corsOrigins,
    requestTimeoutMs: options.requestTimeoutMs,
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.console ? { console: options.console } : {}),
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  installClientErrorHandler(server, logger);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    adminToken,
    config,
    clients,
    authenticator,
    rateLimiter: rateLimiter ?? unlimited,
    request: (method, path, o) => gatewayRequest(url, method, path, o),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      for (const c of Object.values(clients)) c.close();
      await authenticator.close();
      await effectiveConfig.close();
      await config?.stop();
    },
  };
}
