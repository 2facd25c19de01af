import { createClient, type PromiseClient, type RpcOptions } from '@inquest/grpc-kit';
import type { EventBus } from '@inquest/events';
import type { Logger } from '@inquest/observability';
import { configV1 } from '@inquest/proto';
import { CachedEffectiveConfigSource } from './cached-effective-config-source';
import { CONFIG_READ_POLICY, configRequestId } from './config-read-policy';
import type { EffectiveConfigLoader } from './effective-config-source';

/** The part of config-hierarchy's gRPC client an effective-config read needs. */
export type EffectiveConfigRpc = Pick<
  PromiseClient<configV1.ConfigServiceClient>,
  'getEffectiveConfig'
>;

/** GetEffectiveConfig as an `EffectiveConfigLoader`, with the one read policy. */
export function grpcEffectiveConfigLoader(
  client: EffectiveConfigRpc,
  service: string,
): EffectiveConfigLoader {
  return async (teamId, options) => {
    const opts: RpcOptions = {
      ctx: { requestId: configRequestId(service, options.requestId), teamId, principal: service },
      deadlineMs: CONFIG_READ_POLICY.deadlineMs,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const res = await client.getEffectiveConfig({ team_id: teamId }, opts);
    return {
      teamId,
      config: (res.config ?? {}) as Record<string, unknown>,
      version: res.version,
      secretScopes: res.secret_scopes,
    };
  };
}

export interface GrpcEffectiveConfigSourceOptions {
  /** config-hierarchy's address (host:port) */
  address: string;
  /** names the service in request ids and logs */
  service: string;
  bus?: EventBus;
  ttlMs?: number;
  staleMs?: number;
  errorTtlMs?: number;
  logger?: Logger;
  now?: () => number;
}

/**
 * The `EffectiveConfigSource` of a service: its own gRPC connection to config-hierarchy with the
 * read policy (CONFIG_READ_POLICY), cached and invalidated as CachedEffectiveConfigSource describes.
 * `close()` unsubscribes and closes the connection.
 */
export function connectEffectiveConfigSource(
  options: GrpcEffectiveConfigSourceOptions,
): Promise<CachedEffectiveConfigSource> {
  const client = createClient(configV1.ConfigServiceClient, options.address, {
    deadlineMs: CONFIG_READ_POLICY.deadlineMs,
    retries: CONFIG_READ_POLICY.retries,
  });
  const { address: _address, service, ...rest } = options;
  return CachedEffectiveConfigSource.create({
    ...rest,
    load: grpcEffectiveConfigLoader(client, service),
    onClose: () => client.close(),
  });
}
