import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import { configV1 } from '@inquest/proto';
import type { TeamConfigSource } from '../domain/tool-proxy';

/** The team's configuration from config-hierarchy over gRPC. */
export function grpcConfigSource(address: string): TeamConfigSource & { close(): void } {
  const client: PromiseClient<configV1.ConfigServiceClient> = createClient(
    configV1.ConfigServiceClient,
    address,
    { deadlineMs: 5_000 },
  );
  return {
    async getEffective(teamId, signal) {
      const res = await client.getEffectiveConfig({ team_id: teamId }, signal ? { signal } : {});
      return {
        config: (res.config ?? {}) as Record<string, unknown>,
        secretScopes: res.secret_scopes,
      };
    },
    async getRaw(teamId, signal) {
      const res = await client.getRawConfig({ team_id: teamId }, signal ? { signal } : {});
      return { lineage: res.lineage, configs: (res.configs ?? {}) as Record<string, unknown> };
    },
    close: () => client.close(),
  };
}
