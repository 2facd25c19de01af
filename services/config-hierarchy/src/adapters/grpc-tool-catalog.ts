import type { PromiseClient } from '@inquest/grpc-kit';
import type { toolsV1 } from '@inquest/proto';
import type { ToolCatalog, ToolListing } from '../domain/tool-catalog';

/** Tool lists from toolserver-proxy (gRPC ListTools): what the team's saved servers offer. */
export class GrpcToolCatalog implements ToolCatalog {
  constructor(
    private readonly client: PromiseClient<toolsV1.ToolServiceClient>,
    /** a config update waits at most this long for the lists */
    private readonly deadlineMs = 5000,
  ) {}

  async list(teamId: string): Promise<ToolListing> {
    const res = await this.client.listTools(
      { team_id: teamId, refresh: false },
      { deadlineMs: this.deadlineMs },
    );
    return {
      servers: res.servers.map((s) => ({
        name: s.name,
        url: s.url,
        answered: s.tool_count > 0 || (s.healthy && !s.last_error),
        ...(s.last_error ? { error: s.last_error } : {}),
      })),
      tools: res.tools.map((t) => ({ server: t.server, name: t.name })),
    };
  }
}
