import { z } from 'zod';
import {
  DEFAULT_ADDRESSES,
  envAddress,
  envLogLevel,
  envPort,
  envPositiveInt,
  envOptionalPort,
  envBus,
  envSecrets,
} from '@inquest/runtime';

/** Environment of the toolserver-proxy service (validated at start). */
export const EnvSchema = z.object({
  INQUEST_GRPC_PORT: envPort(50054),
  INQUEST_GRPC_HOST: z.string().default('127.0.0.1'),
  /** serves GET /metrics (Prometheus) on this port when set */
  INQUEST_METRICS_PORT: envOptionalPort,
  INQUEST_LOG_LEVEL: envLogLevel,
  INQUEST_CONFIG_ADDR: envAddress(DEFAULT_ADDRESSES.config),
  /** config changes arrive over NATS JetStream when set (distributed mode) */
  ...envBus,
  INQUEST_DATA_DIR: z.string().default('./.inquest'),
  /** comma-separated CIDRs and host names tool servers may live at despite being private */
  INQUEST_EGRESS_ALLOW: z.string().default(''),
  ...envSecrets,
  /** reuse of a team's resolved servers and tool listings */
  INQUEST_TOOLS_LIST_TTL_MS: envPositiveInt(60_000),
  INQUEST_TOOLS_MAX_OUTPUT_BYTES: envPositiveInt(256 * 1024),
  /** largest answer read from a tool server before the call fails */
  INQUEST_TOOLS_MAX_RESPONSE_BYTES: envPositiveInt(5 * 1024 * 1024),
  INQUEST_TOOLS_MAX_CONCURRENCY: envPositiveInt(16),
  INQUEST_TOOLS_DEFAULT_TIMEOUT_MS: envPositiveInt(30_000),
  INQUEST_TOOLS_CONNECT_TIMEOUT_MS: envPositiveInt(5_000),
  INQUEST_TOOLS_HEALTH_INTERVAL_MS: envPositiveInt(30_000),
  INQUEST_TOOLS_BREAKER_RESET_MS: envPositiveInt(30_000),
  INQUEST_TOOLS_BREAKER_VOLUME: envPositiveInt(5),
  INQUEST_TOOLS_BREAKER_ERROR_PCT: envPositiveInt(50),
});

export type Env = z.infer<typeof EnvSchema>;
