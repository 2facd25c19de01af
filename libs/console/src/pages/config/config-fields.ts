// The inputs of the configuration form: the main fields of docs/configuration.md. Everything else
// (tools, knowledge sources, tokens_vault_path, slack, x-… custom data) is edited as JSON.

export type FieldKind =
  'text' | 'url' | 'vault' | 'number' | 'integer' | 'flag' | 'select' | 'list' | 'textarea';

export interface FieldSpec {
  /** dot path in the config document */
  path: string;
  label: string;
  kind: FieldKind;
  /** allowed values of a select (besides "inherit") */
  options?: readonly string[];
  /** the default when no level sets it (docs/configuration.md) */
  defaultText?: string;
  hint?: string;
}

export interface FieldGroup {
  id: string;
  legend: string;
  fields: FieldSpec[];
}

/** The agents of the run endpoint (config-model's AGENT_NAMES; a spec keeps them equal). */
export const AGENTS = [
  'planner',
  'investigation_agent',
  'k8s_agent',
  'cloud_agent',
  'coding_agent',
] as const;

export const STRATEGIES = ['dense', 'sparse', 'hybrid'] as const;

// labels name the agent: five agents share these inputs and each needs its own accessible name
const agentFields = (agent: string): FieldSpec[] => [
  { path: `agents.${agent}.enabled`, label: `Enabled (${agent})`, kind: 'flag', defaultText: 'on' },
  {
    path: `agents.${agent}.timeout`,
    label: `Timeout in seconds (${agent})`,
    kind: 'integer',
    defaultText: '300',
  },
  {
    path: `agents.${agent}.enable_extra_tools`,
    label: `Extra tools, one per line (${agent})`,
    kind: 'list',
    hint: 'Built-in names or <server>:<tool>',
  },
  {
    path: `agents.${agent}.disable_default_tools`,
    label: `Default tools turned off, one per line (${agent})`,
    kind: 'list',
  },
  {
    path: `agents.${agent}.prompt`,
    label: `System prompt of the LLM engine (${agent})`,
    kind: 'textarea',
    defaultText: 'the built-in prompt',
  },
];

export const FORM_GROUPS: FieldGroup[] = [
  {
    id: 'notifications',
    legend: 'Notifications and webhooks',
    fields: [
      {
        path: 'chat_channel',
        label: 'Chat channel',
        kind: 'text',
        hint: 'Slack channel id or #name',
      },
      { path: 'chat_group_to_ping', label: 'Group to ping', kind: 'text' },
      {
        path: 'webhooks.investigation_complete',
        label: 'Investigation complete webhook URL',
        kind: 'url',
      },
      { path: 'webhooks.config_change', label: 'Config change webhook URL', kind: 'url' },
      {
        path: 'webhooks.signing_secret',
        label: 'Webhook signing secret',
        kind: 'vault',
        hint: 'A vault:// reference, never the secret itself',
      },
    ],
  },
  {
    id: 'flags',
    legend: 'Feature flags and approval',
    fields: [
      {
        path: 'feature_flags.enable_write_actions',
        label: 'Write actions',
        kind: 'flag',
        defaultText: 'off',
      },
      {
        path: 'feature_flags.require_approval',
        label: 'Require approval of config changes',
        kind: 'flag',
        defaultText: 'off',
      },
      {
        path: 'feature_flags.enable_auto_mitigation',
        label: 'Auto mitigation (reserved)',
        kind: 'flag',
        defaultText: 'off',
      },
      {
        path: 'approval.approvers',
        label: 'Approvers (e-mails, one per line)',
        kind: 'list',
      },
    ],
  },
  {
    id: 'retrieval',
    legend: 'Knowledge base',
    fields: [
      {
        path: 'knowledge_base.retrieval.strategy',
        label: 'Retrieval strategy',
        kind: 'select',
        options: STRATEGIES,
        defaultText: 'hybrid',
      },
      {
        path: 'knowledge_base.retrieval.top_k',
        label: 'Results per query (top k)',
        kind: 'integer',
        defaultText: '5',
      },
      {
        path: 'knowledge_base.retrieval.min_relevance',
        label: 'Minimum relevance (0 to 1)',
        kind: 'number',
        defaultText: '0.05',
      },
      {
        path: 'knowledge_base.retrieval.reranker',
        label: 'Reranker',
        kind: 'text',
        defaultText: 'none',
        hint: 'none, mmr, or the URL of a /rerank endpoint',
      },
      {
        path: 'knowledge_base.raptor.chunk_size',
        label: 'Chunk size (words)',
        kind: 'integer',
        defaultText: '256',
      },
      {
        path: 'knowledge_base.raptor.cluster_threshold',
        label: 'Cluster threshold',
        kind: 'number',
        defaultText: '0.1',
      },
      {
        path: 'knowledge_base.raptor.max_tree_depth',
        label: 'Summary levels (max tree depth)',
        kind: 'integer',
        defaultText: '3',
      },
      {
        path: 'knowledge_base.raptor.embedding_model',
        label: 'Embedding model',
        kind: 'text',
        defaultText: 'hashing',
      },
    ],
  },
  {
    id: 'alerts',
    legend: 'Alerts',
    fields: [
      {
        path: 'alerts.agent',
        label: 'Agent of alert-started investigations',
        kind: 'select',
        options: AGENTS,
        defaultText: 'planner',
      },
      { path: 'alerts.disabled', label: 'Disabled alerts (one per line)', kind: 'list' },
      {
        path: 'alerts.max_investigations_per_minute',
        label: 'Alert investigations per minute',
        kind: 'integer',
        defaultText: '10',
      },
    ],
  },
];

/** One group of inputs per agent. */
export const AGENT_GROUPS: FieldGroup[] = AGENTS.map((a) => ({
  id: `agent-${a}`,
  legend: `Agent ${a}`,
  fields: agentFields(a),
}));

/** Paths of the MCP server entry inputs (`mcp_servers.<i>.<key>`). */
export const SERVER_KEYS = ['name', 'url', 'enabled', 'timeout', 'auth'] as const;

/** Every input path of the form (for placing the API's problems), given the number of servers. */
export function formInputPaths(serverCount: number): string[] {
  const out = [...FORM_GROUPS, ...AGENT_GROUPS].flatMap((g) => g.fields.map((f) => f.path));
  for (let i = 0; i < serverCount; i++) {
    for (const k of SERVER_KEYS) out.push(`mcp_servers.${i}.${k}`);
    out.push(`mcp_servers.${i}`);
  }
  return out;
}

/** The text an input shows for a stored value. */
export function toInputText(kind: FieldKind, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (kind === 'list')
    return Array.isArray(value) ? value.map(String).join('\n') : JSON.stringify(value);
  if (kind === 'flag')
    return value === true ? 'on' : value === false ? 'off' : JSON.stringify(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The value an input's text stands for; `undefined` = the team sets nothing (inherits). Numbers
 * that do not parse are kept as text, so the API names the field in its validation error.
 */
export function fromInputText(kind: FieldKind, text: string): unknown {
  const t = kind === 'textarea' ? text : text.trim();
  if (t === '') return undefined;
  switch (kind) {
    case 'list':
      return t
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'flag':
      return t === 'on' ? true : t === 'off' ? false : undefined;
    case 'number':
    case 'integer': {
      const n = Number(t);
      return Number.isFinite(n) ? n : t;
    }
    default:
      return t;
  }
}
