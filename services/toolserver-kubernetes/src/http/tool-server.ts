import type { Logger } from '@inquest/observability';
import { startToolServer, toolRoutes, type RunningToolServer } from '@inquest/toolserver-kit';
import type { KubernetesTools } from '../domain/kubernetes-tools';

export interface ToolHttpServerOptions {
  tools: KubernetesTools;
  logger: Logger;
  /** reachability of the Kubernetes API, for GET /health */
  health: () => Promise<{ ok: boolean; detail: string }>;
  port?: number;
  host?: string;
  /** when set, every request must carry `Authorization: Bearer <token>` */
  token?: string;
}

export type RunningToolHttpServer = RunningToolServer;

/**
 * The Kubernetes tools over Inquest's tool-server contract (GET /tools, POST /tools/{name} with
 * `{parameters}`, GET /health) and MCP Streamable HTTP (stateless, POST /mcp). Tool errors are
 * 4xx/5xx answers `{error, code}` (MCP: isError), never a crash.
 */
export async function startToolHttpServer(
  options: ToolHttpServerOptions,
): Promise<RunningToolHttpServer> {
  const { tools, logger } = options;
  const routes = toolRoutes({
    name: 'inquest-toolserver-kubernetes',
    tools: tools.definitions.map((definition) => ({
      definition,
      handler: (params) => tools.call(definition.name, params),
    })),
    // KubernetesTools checks parameters itself, with its own messages and domain errors
    checkParameters: false,
    maxBodyBytes: 64 * 1024,
    // people and models read `text`; the structured answer carries every field
    mcpText: (out) => (typeof out.text === 'string' ? out.text : JSON.stringify(out)),
    health: async () => {
      const h = await options.health();
      return {
        status: h.ok ? 200 : 503,
        body: { status: h.ok ? 'ok' : 'unavailable', kubernetes: h.detail },
      };
    },
    logger,
  });
  return startToolServer({
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.token ? { token: options.token } : {}),
    logger,
    handle: routes.handle,
  });
}
