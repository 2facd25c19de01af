import { z } from 'zod';
import {
  DEFAULT_ADDRESSES,
  envAddress,
  envLogLevel,
  envPort,
  envPositiveInt,
  envUrl,
  envBus,
  envHttpUrl,
  envMongo,
  envOptionalPort,
  envSecrets,
} from '@inquest/runtime';

/** Environment of the knowledge-raptor service (validated at start). */
export const EnvSchema = z.object({
  INQUEST_GRPC_PORT: envPort(50053),
  INQUEST_GRPC_HOST: z.string().default('127.0.0.1'),
  /** serves GET /metrics (Prometheus) on this port when set */
  INQUEST_METRICS_PORT: envOptionalPort,
  INQUEST_LOG_LEVEL: envLogLevel,
  INQUEST_DATA_DIR: z.string().min(1).default('./.inquest'),
  INQUEST_CONFIG_ADDR: envAddress(DEFAULT_ADDRESSES.config),
  /** documents, queries, patterns and the graph live in MongoDB when set (knowledge.db otherwise) */
  ...envMongo,
  /** events (investigation.completed, config.changed) arrive over NATS JetStream when set */
  ...envBus,
  /** Qdrant instead of the embedded SQLite + sqlite-vec + FTS5 index */
  INQUEST_QDRANT_URL: envUrl.optional(),
  INQUEST_QDRANT_API_KEY: z.string().optional(),
  /** OpenAI-compatible embeddings API used when knowledge_base.raptor.embedding_model names a model */
  INQUEST_EMBEDDINGS_BASE_URL: envHttpUrl.optional(),
  INQUEST_EMBEDDINGS_API_KEY: z.string().optional(),
  INQUEST_EMBEDDINGS_DIMENSIONS: envPositiveInt(1536),
  /** OpenAI-compatible chat model for tree summaries and answers (extractive when unset) */
  INQUEST_LLM_BASE_URL: envHttpUrl.optional(),
  INQUEST_LLM_API_KEY: z.string().optional(),
  INQUEST_LLM_MODEL: z.string().optional(),
  /** embedded store: postings one BM25 query may rank, rarest terms first (0 = no limit) */
  INQUEST_KB_SPARSE_POSTING_BUDGET: z.coerce.number().int().min(0).default(60_000),
  /** wait after the last teach before the RAPTOR tree is rebuilt */
  INQUEST_KB_REBUILD_DEBOUNCE_MS: z.coerce.number().int().min(0).default(2000),
  /** how long a team's knowledge_base settings are cached */
  INQUEST_KB_SETTINGS_CACHE_MS: z.coerce.number().int().min(0).default(5000),
  /** how often the source sync loop looks for sources whose sync_interval passed */
  INQUEST_KB_SOURCE_TICK_MS: z.coerce.number().int().min(100).default(30_000),
  /** deadline of each git command of a Git source sync */
  INQUEST_KB_GIT_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  /**
   * comma-separated absolute directories whose Git repositories `file://` sources may read; none
   * by default (a team's file:// URL would read any repository on this host)
   */
  INQUEST_KB_GIT_FILE_ROOTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((roots) => roots.every((r) => r.startsWith('/')), 'expected absolute directories'),
  /** comma-separated CIDRs/hosts the external reranker may reach besides public addresses */
  INQUEST_EGRESS_ALLOW: z.string().optional(),
  /** secrets (a hosted reranker's API key, source tokens): Vault KV v2, else the secrets file */
  ...envSecrets,
});

export type Env = z.infer<typeof EnvSchema>;
