import { z } from 'zod';
import {
  DEFAULT_ADDRESSES,
  envAddress,
  envLogLevel,
  envPort,
  envPositiveInt,
  envOptionalPort,
  envBus,
  envHttpUrl,
  envMongo,
  envSecrets,
} from '@inquest/runtime';

/** Environment of the investigation-runner service (validated at start). */
export const EnvSchema = z.object({
  INQUEST_GRPC_PORT: envPort(50052),
  INQUEST_GRPC_HOST: z.string().default('127.0.0.1'),
  /** serves GET /metrics (Prometheus) on this port when set */
  INQUEST_METRICS_PORT: envOptionalPort,
  INQUEST_LOG_LEVEL: envLogLevel,
  INQUEST_CONFIG_ADDR: envAddress(DEFAULT_ADDRESSES.config),
  INQUEST_TOOLS_ADDR: envAddress(DEFAULT_ADDRESSES.tools),
  INQUEST_KNOWLEDGE_ADDR: envAddress(DEFAULT_ADDRESSES.knowledge),
  /** SQLite lives at <dir>/investigations.db unless MongoDB is configured */
  INQUEST_DATA_DIR: z.string().min(1).default('./.inquest'),
  ...envMongo,
  /** set: NATS JetStream work queue shared by runner replicas; unset: in-process queue */
  ...envBus,
  /** set: the LLM engine (any OpenAI-compatible chat API); unset: the deterministic engine */
  INQUEST_LLM_BASE_URL: envHttpUrl.optional(),
  /** the key, or a vault:// reference to it */
  INQUEST_LLM_API_KEY: z.string().optional(),
  INQUEST_LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  INQUEST_LLM_TIMEOUT_MS: envPositiveInt(60_000),
  INQUEST_LLM_MAX_STEPS: envPositiveInt(8),
  ...envSecrets,
  /** lease of a running investigation, renewed every third of it */
  INQUEST_RUNNER_LEASE_MS: envPositiveInt(15_000),
  /** claims of one investigation before it fails with runner_lost */
  INQUEST_RUNNER_MAX_ATTEMPTS: envPositiveInt(3),
  /** async investigations one runner works on at once */
  INQUEST_RUNNER_CONCURRENCY: envPositiveInt(8),
  /** tool-server calls per investigation (deterministic engine) */
  INQUEST_RUNNER_MAX_TOOL_CALLS: envPositiveInt(40),
  INQUEST_RUNNER_ID: z.string().min(1).optional(),
  /** how long alert intake reuses a team's effective config (ms; 0: ask for every notification) */
  INQUEST_ALERTS_CONFIG_TTL_MS: z.coerce
    .number({ message: 'expected a whole number of milliseconds' })
    .int('expected a whole number of milliseconds')
    .min(0, 'expected a whole number of milliseconds')
    .max(60_000, 'at most 60000')
    .default(1000),
  /** take over running investigations found at start (all-in-one; default: when no NATS URL is set) */
  INQUEST_RUNNER_TAKEOVER_ON_START: z
    .enum(['0', '1', 'true', 'false'], { message: 'expected 1/0 or true/false' })
    .transform((v) => v === '1' || v === 'true')
    .optional(),
});

export type Env = z.infer<typeof EnvSchema>;
