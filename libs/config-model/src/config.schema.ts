import { z } from 'zod';

/** Limits applied to every configuration document and patch. */
export const CONFIG_LIMITS = {
  /** serialized size of a patch or a stored config */
  maxBytes: 1024 * 1024,
  /** nesting of objects and arrays */
  maxDepth: 32,
} as const;

/** Names of the built-in tools agents can enable or disable. */
export const BUILTIN_TOOLS = ['knowledge_search', 'similar_incidents', 'learned_patterns'] as const;

/** Fields fixed by the hierarchy; never accepted in an update. */
export const IMMUTABLE_FIELDS = ['team_name', 'org_id', 'team_node_id'] as const;

export const NODE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;

const VAULT_REF = /^vault:\/\/[^\s]+$/;
const DURATION = /^[1-9][0-9]*[smhd]$/;

export function isHttpUrl(s: string): boolean {
  if (!/^https?:\/\//i.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

export const VaultRef = z
  .string({ error: 'must be a vault:// reference' })
  .regex(VAULT_REF, 'must be a vault:// reference, never a plain-text secret')
  .describe('A secret reference `vault://<path>[#key]`');

export const HttpUrl = z
  .string({ error: 'must be an absolute http(s) URL' })
  .refine(isHttpUrl, 'must be an absolute http(s) URL');

export const Duration = z
  .string({ error: 'must be a duration like 30m, 1h, 1d' })
  .regex(DURATION, 'must be a duration like 30m, 1h, 1d');

const PositiveInt = (what = 'must be a positive integer') =>
  z.number({ error: what }).int(what).positive(what);

export const AgentConfigSchema = z.looseObject({
  prompt: z.string().optional(),
  enabled: z.boolean().optional(),
  disable_default_tools: z.array(z.string()).optional(),
  enable_extra_tools: z.array(z.string()).optional(),
  timeout: PositiveInt('must be a positive integer (seconds)').optional(),
});

export const ToolConfigSchema = z.looseObject({
  enabled: z.boolean().optional(),
  default_namespace: z.string().optional(),
  domain: z.string().optional(),
  api_key: VaultRef.optional(),
});

export const McpBearerAuthSchema = z.looseObject({ type: z.literal('bearer'), token: VaultRef });
export const McpApiKeyAuthSchema = z.looseObject({
  type: z.literal('api_key'),
  header: z.string().min(1),
  key: VaultRef,
});

export const McpServerEntrySchema = z.looseObject({
  name: z.string({ error: 'required string' }).min(1, 'must not be empty'),
  url: HttpUrl,
  auth: z.unknown().optional(),
  timeout: PositiveInt('must be a positive integer (seconds)').optional(),
  enabled: z.boolean().optional(),
});

export type McpServerEntry = z.infer<typeof McpServerEntrySchema>;

/**
 * mcp_servers: strings (names of entries defined at this or an ancestor level) or entry objects.
 * Checked element by element so every problem is reported at its own path.
 */
const McpServersSchema = z.array(z.unknown()).superRefine((items, ctx) => {
  const names = new Set<string>();
  items.forEach((item, i) => {
    if (typeof item === 'string') {
      if (!item)
        ctx.addIssue({ code: 'custom', path: [i], message: 'server name must not be empty' });
      return;
    }
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      ctx.addIssue({
        code: 'custom',
        path: [i],
        message: 'must be a server name or a server entry object',
      });
      return;
    }
    const r = McpServerEntrySchema.safeParse(item);
    if (!r.success) {
      for (const iss of r.error.issues)
        ctx.addIssue({
          code: 'custom',
          path: [i, ...iss.path] as PropertyKey[] as (string | number)[],
          message: iss.message,
        });
    } else {
      if (names.has(r.data.name))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          message: `duplicate server name "${r.data.name}"`,
        });
      names.add(r.data.name);
    }
    const auth = (item as { auth?: unknown }).auth;
    if (auth !== undefined) {
      const type =
        typeof auth === 'object' && auth !== null ? (auth as { type?: unknown }).type : undefined;
      const schema =
        type === 'bearer'
          ? McpBearerAuthSchema
          : type === 'api_key'
            ? McpApiKeyAuthSchema
            : undefined;
      if (!schema) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'auth', 'type'],
          message: 'must be bearer or api_key',
        });
      } else {
        const a = schema.safeParse(auth);
        if (!a.success) {
          for (const iss of a.error.issues)
            ctx.addIssue({
              code: 'custom',
              path: [i, 'auth', ...iss.path] as (string | number)[],
              message: iss.message,
            });
        }
      }
    }
  });
});

export const KnowledgeBaseSchema = z.looseObject({
  sources: z
    .record(
      z.string(),
      z.looseObject({
        url: z.string().optional(),
        space_keys: z.array(z.string()).optional(),
        sync_interval: Duration.optional(),
      }),
    )
    .optional(),
  raptor: z
    .looseObject({
      chunk_size: PositiveInt().optional(),
      cluster_threshold: z.number().optional(),
      max_tree_depth: PositiveInt().optional(),
      embedding_model: z.string().optional(),
    })
    .optional(),
  retrieval: z
    .looseObject({
      strategy: z
        .enum(['dense', 'sparse', 'hybrid'], { error: 'must be one of dense, sparse, hybrid' })
        .optional(),
      reranker: z.string().optional(),
      top_k: PositiveInt().optional(),
      min_relevance: z
        .number({ error: 'must be a number in [0,1]' })
        .min(0, 'must be a number in [0,1]')
        .max(1, 'must be a number in [0,1]')
        .optional(),
    })
    .optional(),
});

/**
 * The configuration document of one node (or a partial update of it). Every field is optional;
 * unknown keys are kept (forward compatible).
 */
export const ConfigDocumentSchema = z.looseObject({
  team_name: z.string().optional(),
  org_id: z.string().optional(),
  team_node_id: z.string().optional(),
  tokens_vault_path: z.record(z.string(), VaultRef).optional(),
  mcp_servers: McpServersSchema.optional(),
  a2a_agents: z.array(z.string()).optional(),
  chat_channel: z.string().optional(),
  chat_group_to_ping: z.string().optional(),
  knowledge_source: z.record(z.string(), z.array(z.string())).optional(),
  agents: z.record(z.string(), AgentConfigSchema).optional(),
  tools: z.record(z.string(), ToolConfigSchema).optional(),
  feature_flags: z.record(z.string(), z.boolean({ error: 'must be a boolean' })).optional(),
  alerts: z
    .looseObject({
      /** alert names that start nothing (recorded as skipped) */
      disabled: z.array(z.string()).optional(),
      /** agent of alert-started investigations (default planner) */
      agent: z
        .enum(['planner', 'investigation_agent', 'k8s_agent', 'cloud_agent', 'coding_agent'])
        .optional(),
      /** alert-started investigations per team and minute (default 10); the rest are skipped */
      max_investigations_per_minute: PositiveInt()
        .max(100_000, 'must be at most 100000')
        .optional(),
      /** secret of senders that cannot send a bearer token (X-Inquest-Intake-Secret) */
      intake_secret: VaultRef.optional(),
      pagerduty: z.looseObject({ signing_secret: VaultRef.optional() }).optional(),
    })
    .optional(),
  webhooks: z
    .looseObject({
      investigation_complete: HttpUrl.optional(),
      signing_secret: VaultRef.optional(),
    })
    .optional(),
  knowledge_base: KnowledgeBaseSchema.optional(),
  approval: z
    .looseObject({ approvers: z.array(z.email('must be an e-mail address')).optional() })
    .optional(),
});

export type ConfigDocument = z.infer<typeof ConfigDocumentSchema>;
