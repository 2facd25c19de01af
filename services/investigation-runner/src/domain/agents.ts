import { AREA_WORDS, agentSettings, toolFitsAgent } from '@inquest/config-model';
import type { InvestigationContextRecord } from '@inquest/store';
import type { ToolDescriptor } from './ports';

export const AGENT_NAMES = [
  'planner',
  'investigation_agent',
  'k8s_agent',
  'cloud_agent',
  'coding_agent',
] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

export const DEFAULT_AGENT_TIMEOUT_SECONDS = 300;

export function isAgentName(v: string): v is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(v);
}

export const DEFAULT_PROMPTS: Record<AgentName, string> = {
  planner:
    'You orchestrate a full incident investigation: gather evidence from every relevant area, then rank the hypotheses.',
  investigation_agent:
    'You are a senior site reliability engineer doing comprehensive troubleshooting of an operational incident.',
  k8s_agent:
    'You are a Kubernetes expert investigating cluster workloads: pods, deployments, nodes, events and logs.',
  cloud_agent:
    'You are a cloud infrastructure expert investigating cloud-provider resources, quotas and service health.',
  coding_agent:
    'You analyse source code, recent commits and deployments to find the change that caused an incident.',
};

/** The agent config keys of the effective configuration (agents.<name>). */
export interface AgentConfig {
  prompt?: string;
  enabled: boolean;
  timeoutSeconds: number;
  disableDefaultTools: string[];
  enableExtraTools: string[];
}

const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

export function agentConfigOf(effective: Record<string, unknown>, agent: string): AgentConfig {
  const a = agentSettings(effective['agents'], agent);
  const timeout = a['timeout'];
  return {
    prompt: typeof a['prompt'] === 'string' && a['prompt'].trim() ? a['prompt'] : undefined,
    enabled: a['enabled'] !== false,
    timeoutSeconds:
      typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0
        ? timeout
        : DEFAULT_AGENT_TIMEOUT_SECONDS,
    disableDefaultTools: strings(a['disable_default_tools']),
    enableExtraTools: strings(a['enable_extra_tools']),
  };
}

/** tools.<name> of the effective config. */
export interface ToolSettings {
  enabled: boolean;
  defaultNamespace?: string;
}

export function toolSettingsOf(effective: Record<string, unknown>, tool: string): ToolSettings {
  const tools = asRecord(effective['tools']);
  const t = asRecord(tools[tool] ?? tools[tool.split(':').pop() ?? tool]);
  return {
    enabled: t['enabled'] !== false,
    defaultNamespace:
      typeof t['default_namespace'] === 'string' ? t['default_namespace'] : undefined,
  };
}

/**
 * The agent's tools: its defaults (the built-ins plus the team's tool-server tools that fit the
 * agent), minus disable_default_tools, plus enable_extra_tools; tools disabled in `tools.<name>`
 * are left out.
 */
export function selectTools(
  agent: AgentName,
  config: AgentConfig,
  effective: Record<string, unknown>,
  available: ToolDescriptor[],
  builtins: ToolDescriptor[],
): ToolDescriptor[] {
  const defaults = [...builtins, ...available.filter((t) => toolFitsAgent(agent, t))];
  const disabled = new Set(config.disableDefaultTools);
  const picked = new Map<string, ToolDescriptor>();
  for (const t of defaults) if (!disabled.has(t.fullName)) picked.set(t.fullName, t);
  const byName = new Map([...builtins, ...available].map((t) => [t.fullName, t]));
  for (const extra of config.enableExtraTools) {
    const t = byName.get(extra);
    if (t) picked.set(t.fullName, t);
  }
  return [...picked.values()].filter((t) => toolSettingsOf(effective, t.fullName).enabled);
}

const CLOUD_HINT =
  /\b(aws|gcp|azure|cloud|ec2|s3|rds|lambda|iam|vpc|region|quota|load.?balancer|bucket|dynamo\w*|sqs|sns)\b/i;
const CODE_HINT =
  /\b(code|commit|deploy(ed|ment)?|release|regression|bug|exception|stack.?trace|null.?pointer|pull.?request|pr|merge|git|version)\b/i;

/** The planner's choice of sub-agents for a request; investigation_agent always runs. */
export function planAgents(message: string, context: InvestigationContextRecord): AgentName[] {
  const text = `${message} ${context.hint ?? ''} ${context.service ?? ''}`;
  const out: AgentName[] = [];
  if (context.namespace || AREA_WORDS.k8s.test(text)) out.push('k8s_agent');
  if (CLOUD_HINT.test(text)) out.push('cloud_agent');
  if (CODE_HINT.test(text)) out.push('coding_agent');
  out.push('investigation_agent');
  return out;
}
