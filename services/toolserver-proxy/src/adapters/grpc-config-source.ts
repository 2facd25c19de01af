import { CONFIG_READ_POLICY, type EffectiveConfigSource } from '@inquest/config-client';
import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import { configV1 } from '@inquest/proto';
import type { TeamConfigSource } from '../domain/tool-proxy';

/**
 * The team's configuration: the effective config through the shared config client, the raw
 * per-level configs (needed only to resolve references) from config-hierarchy over gRPC with the
 * same read policy.
 */
export function grpcConfigSource(
  address: string,
  effective: EffectiveConfigSource,
): TeamConfigSource & { close(): void } {
  const client: PromiseClient<configV1.ConfigServiceClient> = createClient(
    configV1.ConfigServiceClient,
    address,
    { deadlineMs: CONFIG_READ_POLICY.deadlineMs, retries: CONFIG_READ_POLICY.retries },
  );
  return {
    async getEffective(teamId, signal) {
      const eff = await effective.get(teamId, signal ? { signal } : {});
      return { config: eff.config, secretScopes: eff.secretScopes };
    },
    async getRaw(teamId, signal) {
      const res = await client.getRawConfig({ team_id: teamId }, signal ? { signal } : {});
      return { lineage: res.lineage, configs: (res.configs ?? {}) as Record<string, unknown> };
    },
    close: () => client.close(),
  };
}
