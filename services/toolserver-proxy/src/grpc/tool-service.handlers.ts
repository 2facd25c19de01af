import { invalidRequest } from '@inquest/errors';
import { implement } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import { toolsV1 } from '@inquest/proto';
import type { ServerStatusView, ToolProxy } from '../domain/tool-proxy';

function teamOf(req: { team_id: string }, ctxTeam: string | undefined): string {
  const team = req.team_id || ctxTeam || '';
  if (!team) throw invalidRequest('team_id is required');
  return team;
}

function encodeStatus(s: ServerStatusView): toolsV1.ServerStatus {
  return {
    name: s.name,
    url: s.url,
    enabled: s.enabled,
    healthy: s.healthy,
    breaker_state: s.breaker_state,
    tool_count: s.tool_count,
    ...(s.last_error !== undefined ? { last_error: s.last_error } : {}),
    ...(s.checked_at !== undefined ? { checked_at: s.checked_at } : {}),
  };
}

/** gRPC ToolService: decode, call the proxy, encode. */
export function toolServiceImplementation(proxy: ToolProxy, logger: Logger) {
  return implement(
    toolsV1.ToolServiceService,
    {
      async listTools(req, ctx) {
        const { tools, servers } = await proxy.listTools(
          teamOf(req, ctx.teamId),
          req.refresh,
          ctx.signal,
        );
        return {
          tools: tools.map((t) => ({
            full_name: t.full_name,
            server: t.server,
            name: t.name,
            description: t.description,
            parameters: t.parameters,
            ...(t.annotations ? { annotations: t.annotations } : {}),
          })),
          servers: servers.map(encodeStatus),
        };
      },
      async callTool(req, ctx) {
        if (!req.tool) throw invalidRequest('tool is required');
        const res = await proxy.callTool(
          {
            teamId: teamOf(req, ctx.teamId),
            ...(req.investigation_id ? { investigationId: req.investigation_id } : {}),
            tool: req.tool,
            parameters: (req.parameters ?? {}) as Record<string, unknown>,
          },
          ctx.signal,
        );
        return {
          output: res.output,
          truncated: res.truncated,
          duration_ms: res.duration_ms,
          output_bytes: res.output_bytes,
        };
      },
      async getServerHealth(req, ctx) {
        return {
          servers: (await proxy.serverHealth(teamOf(req, ctx.teamId), ctx.signal)).map(
            encodeStatus,
          ),
        };
      },
    },
    logger,
  );
}
