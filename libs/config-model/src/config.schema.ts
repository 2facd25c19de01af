import { z } from 'zod';
import { closestName } from './did-you-mean';

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

/** The agents of the spec's run endpoint; `agents.<name>` configures one. */
export const AGENT_NAMES = [
  'planner',
  'investigation_agent',
  'k8s_agent',
  'cloud_agent',
  'coding_agent',
] as const;

/**
 * Other names of agents accepted in `agents`: the spec's example config names `code_fix_agent`,
 * the agent that analyses code, which the run endpoint calls `coding_agent`. An alias is stored
 * and shown under the name the update used (the spec's names round-trip); `agentSettings` reads
 * it for the agent it names.
 */
export const AGENT_ALIASES: Readonly<Record<string, (typeof AGENT_NAMES)[number]>> = {
  code_fix_agent: 'coding_agent',
};

/** The spec's feature flags (booleans). */
export const FEATURE_FLAGS = [
  'enable_auto_mitigation',
  'enable_write_actions',
  'require_approval',
] as const;

/** Top-level keys starting with this hold custom data, kept as is and never checked. */
export const CUSTOM_KEY_PREFIX = 'x-';

/**
 * An object schema that knows its keys: every key outside `shape` (unless `allowKey` admits it) is
 * reported at its own path, with the closest known key as a suggestion. The known keys are the
 * shape's, so a field added to the schema is accepted everywhere at once.
 */
function knownKeys<T extends z.core.$ZodLooseShape>(
  shape: T,
  options: { what?: string; allowKey?: (key: string) => boolean } = {},
) {
  const known = Object.keys(shape);
  return z.looseObject(shape).check(
    z.superRefine(
      (value, ctx) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
        for (const key of Object.keys(value)) {
          if (Object.prototype.hasOwnProperty.call(shape, key) || options.allowKey?.(key)) continue;
          const near = closestName(key, known);
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `unknown ${options.what ?? 'key'} "${key}"${near ? ` (did you mean "${near}"?)` : ''}`,
            params: { unknown_key: true },
          });
        }
      },
      // also when a sibling value has the wrong type: every problem is reported at once
      { when: () => true },
    ),
  );
}

const PositiveInt = (what = 'must be a positive integer') =>
  z.number({ error: what }).int(what).positive(what);

export const AgentConfigSchema = knownKeys({
  prompt: z.string().optional(),
  enabled: z.boolean().optional(),
  disable_default_tools: z.array(z.string()).optional(),
  enable_extra_tools: z.array(z.string()).optional(),
  timeout: PositiveInt('must be a positive integer (seconds)').optional(),
});

export const ToolConfigSchema = knownKeys({
  enabled: z.boolean().optional(),
  default_namespace: z.string().optional(),
  domain: z.string().optional(),
  api_key: VaultRef.optional(),
});

export const McpBearerAuthSchema = knownKeys({ type: z.literal('bearer'), token: VaultRef });
export const McpApiKeyAuthSchema = knownKeys({
  type: z.literal('api_key'),
  header: z.string().min(1),
  key: VaultRef,
});

export const McpServerEntrySchema = knownKeys({
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

/** Ranking signals of knowledge retrieval whose weight `knowledge_base.retrieval.ranking.weights` sets. */
export const RANKING_SIGNALS = [
  'recency',
  'usage',
  'confidence',
  'service_match',
  'symptom_match',
  'author_expertise',
  'freshness',
  'contextual',
  'feedback',
] as const;

const UnitNumber = z
  .number({ error: 'must be a number in [0,1]' })
  .min(0, 'must be a number in [0,1]')
  .max(1, 'must be a number in [0,1]');

/** Rerankers knowledge retrieval knows by name; any other reranker is the URL of a `/rerank` API. */
export const RERANKERS = ['none', 'mmr'] as const;

const Reranker = z
  .string({ error: 'must be a string' })
  .refine(
    (v) => (RERANKERS as readonly string[]).includes(v) || isHttpUrl(v),
    'unsupported reranker: use none, mmr, or the http(s) URL of a /rerank endpoint (Cohere, Jina, Hugging Face TEI)',
  );

/** Kinds of knowledge source knowledge-raptor syncs (`knowledge_base.sources.<name>.kind`). */
export const SOURCE_KINDS = ['git', 'web', 'confluence'] as const;

export const KnowledgeBaseSchema = knownKeys({
  sources: z
    .record(
      z.string(),
      knownKeys({
        /** git, web or confluence; without it the source's name says which */
        kind: z.enum(SOURCE_KINDS, { error: 'must be one of git, web, confluence' }).optional(),
        url: z.string().optional(),
        /** git: the branch read (default the remote's default branch) */
        branch: z.string().min(1, 'must not be empty').max(250).optional(),
        /** git: globs of the files read (default every Markdown file) */
        paths: z.array(z.string().min(1, 'must not be empty')).max(100).optional(),
        /** web: pages read besides `url` (a page or a sitemap.xml) */
        urls: z.array(HttpUrl).max(1000).optional(),
        space_keys: z.array(z.string()).optional(),
        /** confluence (and git over https): the user of the token */
        username: z.string().min(1, 'must not be empty').max(250).optional(),
        /** confluence API token, or git password or access token */
        token: VaultRef.optional(),
        /** the type the source's documents are taught as (default runbook) */
        type: z.string().min(1, 'must not be empty').max(50).optional(),
        sync_interval: Duration.optional(),
      }),
    )
    .optional(),
  raptor: knownKeys({
    chunk_size: PositiveInt().optional(),
    cluster_threshold: z.number().optional(),
    max_tree_depth: PositiveInt().optional(),
    embedding_model: z.string().optional(),
  }).optional(),
  retrieval: knownKeys({
    strategy: z
      .enum(['dense', 'sparse', 'hybrid'], { error: 'must be one of dense, sparse, hybrid' })
      .optional(),
    reranker: Reranker.optional(),
    /** `model` of a hosted reranker's request (Cohere and Jina need one) */
    reranker_model: z.string().min(1, 'must not be empty').max(200).optional(),
    /** sent as `Authorization: Bearer <key>` to a hosted reranker */
    reranker_api_key: VaultRef.optional(),
    top_k: PositiveInt().optional(),
    min_relevance: UnitNumber.optional(),
    ranking: knownKeys({
      signal_influence: UnitNumber.optional(),
      weights: knownKeys(
        Object.fromEntries(
          RANKING_SIGNALS.map((s) => [
            s,
            z
              .number({ error: 'must be a number in [0,100]' })
              .min(0, 'must be a number in [0,100]')
              .max(100, 'must be a number in [0,100]')
              .optional(),
          ]),
        ),
        { what: 'ranking signal' },
      ).optional(),
    }).optional(),
  }).optional(),
});

/** `agents`: one entry per agent (or alias); any other name is an unknown agent. */
const AgentsSchema = knownKeys(
  Object.fromEntries(
    [...AGENT_NAMES, ...Object.keys(AGENT_ALIASES)].map((name) => [
      name,
      AgentConfigSchema.optional(),
    ]),
  ),
  { what: 'agent' },
);

/**
 * `secrets` (org level only, extension): `allowed_prefixes` are the `vault://` path prefixes the
 * org grants every node besides its own `inquest/<node_id>/` (`{node_id}` stands for the node using
 * the grant). Checked in full by `secretScopeProblems`.
 */
export const SecretsSchema = z.looseObject({
  allowed_prefixes: z.array(z.string({ error: 'must be a string' })).optional(),
});

/**
 * The configuration document of one node (or a partial update of it). Every field is optional.
 * Unknown keys anywhere are problems, reported with a suggestion; top-level keys starting with
 * `x-` hold custom data and are kept as is.
 */
export const ConfigDocumentSchema = knownKeys(
  {
    team_name: z.string().optional(),
    org_id: z.string().optional(),
    team_node_id: z.string().optional(),
    tokens_vault_path: z.record(z.string(), VaultRef).optional(),
    mcp_servers: McpServersSchema.optional(),
    a2a_agents: z.array(z.string()).optional(),
    chat_channel: z.string().optional(),
    chat_group_to_ping: z.string().optional(),
    knowledge_source: z.record(z.string(), z.array(z.string())).optional(),
    agents: AgentsSchema.optional(),
    tools: z.record(z.string(), ToolConfigSchema).optional(),
    feature_flags: knownKeys(
      Object.fromEntries(
        FEATURE_FLAGS.map((f) => [f, z.boolean({ error: 'must be a boolean' }).optional()]),
      ),
      { what: 'feature flag' },
    ).optional(),
    alerts: knownKeys({
      /** alert names that start nothing (recorded as skipped) */
      disabled: z.array(z.string()).optional(),
      /** agent of alert-started investigations (default planner) */
      agent: z.enum(AGENT_NAMES, { error: `must be one of ${AGENT_NAMES.join(', ')}` }).optional(),
      /** alert-started investigations per team and minute (default 10); the rest are skipped */
      max_investigations_per_minute: PositiveInt()
        .max(100_000, 'must be at most 100000')
        .optional(),
      /** secret of senders that cannot send a bearer token (X-Inquest-Intake-Secret) */
      intake_secret: VaultRef.optional(),
      pagerduty: knownKeys({ signing_secret: VaultRef.optional() }).optional(),
      /**
       * label names that group alerts into one investigation while they fire, whatever the
       * sender's own grouping (e.g. ["service"]: one investigation per firing service)
       */
      group_by: z
        .array(z.string().min(1, 'must not be empty').max(128, 'at most 128 characters'))
        .max(16, 'at most 16 labels')
        .optional(),
    }).optional(),
    webhooks: knownKeys({
      investigation_complete: HttpUrl.optional(),
      /** receiver of config_change_approved / config_change_rejected (extension) */
      config_change: HttpUrl.optional(),
      signing_secret: VaultRef.optional(),
    }).optional(),
    /** the Slack app (chat front end, extension): set on the node named by the app's request URLs */
    slack: knownKeys({
      /** the app's signing secret: verifies every request Slack sends */
      signing_secret: VaultRef.optional(),
      /** Slack workspace id (T...): its direct messages go to this team */
      workspace_id: z
        .string()
        .regex(/^[A-Z0-9]{2,32}$/, 'must be a Slack workspace id like T0123ABCD')
        .optional(),
    }).optional(),
    knowledge_base: KnowledgeBaseSchema.optional(),
    secrets: SecretsSchema.optional(),
    approval: knownKeys({
      approvers: z.array(z.email('must be an e-mail address')).optional(),
    }).optional(),
  },
  { allowKey: (key) => key.startsWith(CUSTOM_KEY_PREFIX) },
);

export type ConfigDocument = z.infer<typeof ConfigDocumentSchema>;
