import type { Logger } from '@inquest/observability';
import { startToolServer, toolRoutes, type RunningToolServer } from '@inquest/toolserver-kit';
import { definitionOf, toolsFor, type ToolLimits } from '../domain/tools';
import type { UpstreamApi } from '../domain/upstream';

export interface ToolHttpServerOptions {
  host: string;
  port: number;
  prometheus: UpstreamApi;
  alertmanager?: UpstreamApi;
  limits: ToolLimits;
  logger: Logger;
  /** when set, every request must carry `Authorization: Bearer <token>` (resolved per request) */
  token?: () => Promise<string>;
  now?: () => number;
}

export type RunningToolHttpServer = RunningToolServer;

/**
 * The Prometheus/Alertmanager tool server: the tool-server contract (GET /tools,
 * POST /tools/{name} with `{parameters}`, GET /health) and the same tools over MCP Streamable
 * HTTP (stateless, JSON answers) at POST /mcp.
 */
export async function startToolHttpServer(
  options: ToolHttpServerOptions,
): Promise<RunningToolHttpServer> {
  const { logger } = options;
  const now = options.now ?? Date.now;

  async function health(): Promise<Record<string, unknown>> {
    const probe = async (api: UpstreamApi | undefined) => {
      if (!api) return undefined;
      try {
        // /-/ready answers text, so ask something small that answers JSON
        await api.call({
          method: 'GET',
          path: api.name === 'Prometheus' ? '/api/v1/status/buildinfo' : '/api/v2/status',
        });
        return 'up';
      } catch (err) {
        return `down: ${(err as Error).message}`;
      }
    };
    const [prometheus, alertmanager] = await Promise.all([
      probe(options.prometheus),
      probe(options.alertmanager),
    ]);
    const ok = prometheus === 'up' && (alertmanager === undefined || alertmanager === 'up');
    return {
      status: ok ? 'ok' : 'degraded',
      prometheus,
      ...(alertmanager ? { alertmanager } : {}),
    };
  }

  const routes = toolRoutes({
    name: 'inquest-toolserver-prometheus',
    tools: toolsFor(options.alertmanager !== undefined).map((tool) => ({
      definition: definitionOf(tool),
      handler: (params, call) =>
        tool.handler(
          {
            prometheus: options.prometheus,
            ...(options.alertmanager ? { alertmanager: options.alertmanager } : {}),
            limits: options.limits,
            nowMs: now(),
            signal: call.signal,
          },
          params,
        ),
    })),
    // a degraded upstream is reported, not a reason to take the tool server out of rotation
    health: async () => ({ status: 200, body: await health() }),
    logger,
  });
  return startToolServer({
    host: options.host,
    port: options.port,
    ...(options.token ? { token: options.token } : {}),
    logger,
    handle: routes.handle,
  });
}
