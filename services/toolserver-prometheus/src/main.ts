import { createLogger, type Logger } from '@inquest/observability';
import { EnvError, parseEnv, runMain, secretsFromEnv } from '@inquest/runtime';
import { isVaultRef, OPERATOR_SECRET_SCOPE } from '@inquest/secrets';
import { undiciUpstreamApi, type UpstreamAuth } from './adapters/undici-upstream-api';
import { EnvSchema, type Env } from './config';
import { DEFAULT_LIMITS } from './domain/tools';
import { startToolHttpServer } from './http/tool-http-server';

export { TOOLS, toolsFor, definitionOf, DEFAULT_LIMITS } from './domain/tools';
export type { ToolDefinition, ToolLimits } from './domain/tools';
export { summarizeSeries, classifyTrend } from './domain/series-summary';
export type { SeriesSummary } from './domain/series-summary';
export { parseTime, parseDurationMs } from './domain/time-range';

/** A started tool server. */
export interface RunningPrometheusToolServer {
  /** base URL of the tool-server contract; MCP at `${url}/mcp` */
  url: string;
  stop(): Promise<void>;
}

export interface PrometheusToolServerDeps {
  logger?: Logger;
}

const SECRET_VARS = [
  'INQUEST_TOOLSERVER_PROMETHEUS_TOKEN',
  'INQUEST_PROMETHEUS_BEARER_TOKEN',
  'INQUEST_PROMETHEUS_BASIC_PASSWORD',
  'INQUEST_ALERTMANAGER_BEARER_TOKEN',
  'INQUEST_ALERTMANAGER_BASIC_PASSWORD',
] as const;

/**
 * Composition root of the Prometheus/Alertmanager tool server: reads the env, builds the
 * upstream clients (credentials from `vault://` references) and serves the tools.
 */
export async function start(
  env: Record<string, string | undefined>,
  deps: PrometheusToolServerDeps = {},
): Promise<RunningPrometheusToolServer> {
  // parseEnv quotes a bad value in its message: a plain-text secret must not reach a log.
  for (const name of SECRET_VARS) {
    const v = env[name];
    if (v && !isVaultRef(v))
      throw new EnvError(
        `${name}: expected a vault:// reference (secrets are never given in plain text; value not shown)`,
      );
  }
  const config: Env = parseEnv(EnvSchema, env);
  const logger =
    deps.logger ?? createLogger({ name: 'toolserver-prometheus', level: config.INQUEST_LOG_LEVEL });
  const secrets = secretsFromEnv(config, { logger });
  // References in the service env are the operator's own: any path of the secret store.
  const resolve = (ref: string) => secrets.resolve(ref, OPERATOR_SECRET_SCOPE);

  const authOf = (up: 'PROMETHEUS' | 'ALERTMANAGER'): UpstreamAuth => {
    const bearer = config[`INQUEST_${up}_BEARER_TOKEN`];
    const user = config[`INQUEST_${up}_BASIC_USERNAME`];
    const pass = config[`INQUEST_${up}_BASIC_PASSWORD`];
    if (bearer) return { type: 'bearer', token: () => resolve(bearer) };
    if (user && pass) return { type: 'basic', username: user, password: () => resolve(pass) };
    return { type: 'none' };
  };
  const common = {
    timeoutMs: config.INQUEST_PROMETHEUS_TIMEOUT_MS,
    maxResponseBytes: config.INQUEST_PROMETHEUS_MAX_RESPONSE_BYTES,
  };
  const prometheus = undiciUpstreamApi({
    name: 'Prometheus',
    baseUrl: config.INQUEST_PROMETHEUS_URL,
    auth: authOf('PROMETHEUS'),
    ...common,
  });
  const alertmanager = config.INQUEST_ALERTMANAGER_URL
    ? undiciUpstreamApi({
        name: 'Alertmanager',
        baseUrl: config.INQUEST_ALERTMANAGER_URL,
        auth: authOf('ALERTMANAGER'),
        ...common,
      })
    : undefined;
  const inbound = config.INQUEST_TOOLSERVER_PROMETHEUS_TOKEN;
  const server = await startToolHttpServer({
    host: config.INQUEST_TOOLSERVER_PROMETHEUS_HOST,
    port: config.INQUEST_TOOLSERVER_PROMETHEUS_PORT,
    prometheus,
    ...(alertmanager ? { alertmanager } : {}),
    limits: {
      ...DEFAULT_LIMITS,
      maxPointsPerSeries: config.INQUEST_PROMETHEUS_MAX_POINTS,
      maxRangeMs: config.INQUEST_PROMETHEUS_MAX_RANGE,
      queryTimeoutSeconds: Math.max(1, Math.floor(config.INQUEST_PROMETHEUS_TIMEOUT_MS / 1000)),
    },
    logger,
    ...(inbound ? { token: () => resolve(inbound) } : {}),
  });
  logger.info(
    {
      url: server.url,
      prometheus: config.INQUEST_PROMETHEUS_URL,
      alertmanager: config.INQUEST_ALERTMANAGER_URL ?? null,
    },
    'toolserver-prometheus listening',
  );
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      await Promise.all([prometheus.close(), alertmanager?.close()]);
    },
  };
}

if (require.main === module) runMain('toolserver-prometheus', () => start(process.env));
