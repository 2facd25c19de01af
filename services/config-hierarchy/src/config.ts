import { z } from 'zod';
import {
  envAddress,
  envBus,
  envLogLevel,
  envMongo,
  envPort,
  envOptionalPort,
} from '@inquest/runtime';

/** Environment of the config-hierarchy service (validated at start). */
export const EnvSchema = z.object({
  INQUEST_GRPC_PORT: envPort(50051),
  INQUEST_GRPC_HOST: z.string().default('127.0.0.1'),
  /** serves GET /metrics (Prometheus) on this port when set */
  INQUEST_METRICS_PORT: envOptionalPort,
  INQUEST_LOG_LEVEL: envLogLevel,
  /** SQLite lives at <dir>/config.db unless MongoDB is configured */
  INQUEST_DATA_DIR: z.string().min(1).default('./.inquest'),
  ...envMongo,
  ...envBus,
  /**
   * toolserver-proxy: when set, the `<server>:<tool>` names an update sets are checked against the
   * server's tool list (an unreachable server: accepted with a warning); empty: not checked
   */
  INQUEST_TOOLS_ADDR: envAddress(''),
});

export type Env = z.infer<typeof EnvSchema>;
