import { agentSettings } from './agent-settings';
import { AGENT_NAMES } from './config.schema';
import { isPlainObject, type JsonObject } from './json-value';

/** A tool as an agent sees it: `<server>:<tool>` (or a built-in name) with its description. */
export interface AgentToolCandidate {
  fullName: string;
  server: string;
  name: string;
  description: string;
}

type Area = 'k8s' | 'cloud' | 'code';

// One rule for the runner (which tools an agent gets) and GET /tools (which agents get a tool):
// an agent with an area gets by default the tools whose server, name or description belong to it.
export const AREA_WORDS: Record<Area, RegExp> = {
  k8s: /\b(k8s|kube\w*|kubectl|pods?|deployments?|namespaces?|nodes?|statefulsets?|daemonsets?|helm|containers?|replicasets?|ingress(es)?|cluster)\b/i,
  cloud:
    /\b(aws|gcp|azure|cloud\w*|ec2|s3|rds|lambda|iam|vpc|elb|alb|quota|billing|region|instances?|load.?balancers?|cloudwatch|stackdriver|bucket)\b/i,
  code: /\b(git|github|gitlab|commits?|repo(sitory)?|code|source|pull.?requests?|prs?|diff|blame|merge|release|changelog|builds?|ci)\b/i,
};

const AGENT_AREA: Partial<Record<(typeof AGENT_NAMES)[number], Area>> = {
  k8s_agent: 'k8s',
  cloud_agent: 'cloud',
  coding_agent: 'code',
};

const obj = (v: unknown): JsonObject => (isPlainObject(v) ? v : {});
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** Whether a tool fits an agent's area by default (an agent without an area takes every tool). */
export function toolFitsAgent(agent: string, tool: AgentToolCandidate): boolean {
  return fitsArea(tool, AGENT_AREA[agent as (typeof AGENT_NAMES)[number]]);
}

function fitsArea(tool: AgentToolCandidate, area: Area | undefined): boolean {
  if (!area) return true;
  return AREA_WORDS[area].test(
    `${tool.server} ${tool.name.replace(/[_-]/g, ' ')} ${tool.description}`,
  );
}

/**
 * Which agents get each tool under the team's effective config: an enabled agent gets its
 * defaults (the built-ins plus the tools that fit its area; every tool for an agent without one)
 * minus `disable_default_tools`, plus `enable_extra_tools`, leaving out tools turned off in
 * `tools.<name>.enabled`. Tools that can change anything are never given to an agent
 * (`writes`: investigations are read-only). Answers tool full name -> agent names.
 */
export function agentsByTool(
  effective: JsonObject,
  tools: AgentToolCandidate[],
  builtins: ReadonlySet<string>,
  writes: (tool: AgentToolCandidate) => boolean = () => false,
): Map<string, string[]> {
  const out = new Map<string, string[]>(tools.map((t) => [t.fullName, []]));
  const toolSettings = obj(effective['tools']);
  const toolEnabled = (t: AgentToolCandidate) =>
    obj(toolSettings[t.fullName] ?? toolSettings[t.name])['enabled'] !== false;
  for (const agent of AGENT_NAMES) {
    const cfg = agentSettings(effective['agents'], agent);
    if (cfg['enabled'] === false) continue;
    const disabled = new Set(strings(cfg['disable_default_tools']));
    const extra = new Set(strings(cfg['enable_extra_tools']));
    for (const t of tools) {
      if (writes(t) || !toolEnabled(t)) continue;
      const byDefault =
        (builtins.has(t.fullName) || fitsArea(t, AGENT_AREA[agent])) && !disabled.has(t.fullName);
      if (byDefault || extra.has(t.fullName)) out.get(t.fullName)!.push(agent);
    }
  }
  return out;
}
