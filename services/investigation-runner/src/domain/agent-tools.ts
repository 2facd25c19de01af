import { DomainError, isDomainError } from '@inquest/errors';
import { agentConfigOf, planAgents, selectTools, type AgentName } from './agents';
import type { EngineRun } from './engine';
import type { ToolDescriptor, ToolGateway, ToolListing } from './ports';
import { BUILTIN_TOOLS } from './tool-runner';

export interface SubAgentPlan {
  agent: AgentName;
  prompt?: string;
  tools: ToolDescriptor[];
}

export interface AgentPlan {
  subAgents: SubAgentPlan[];
  listing?: ToolListing;
  /** the toolserver-proxy could not list the team's tools */
  listingError?: DomainError;
}

export const dataSourceUnavailable = (message: string) =>
  new DomainError('unavailable', 'data_source_unavailable', message);

/** Lists the team's tools and decides which (sub-)agents run with which tools. */
export async function planRun(run: EngineRun, gateway: ToolGateway): Promise<AgentPlan> {
  let listing: ToolListing | undefined;
  let listingError: DomainError | undefined;
  try {
    listing = await gateway.listTools(run.teamId, run.signal, run.requestId);
  } catch (err) {
    if (run.signal.aborted) throw err;
    listingError = isDomainError(err)
      ? err
      : dataSourceUnavailable('tool servers cannot be listed');
  }
  const available = listing?.tools ?? [];
  const agents: AgentName[] =
    run.agent === 'planner'
      ? planAgents(run.message, run.context).filter(
          (a) => a === 'investigation_agent' || agentConfigOf(run.effective, a).enabled,
        )
      : [run.agent];
  const subAgents = agents.map((agent) => {
    const cfg = agentConfigOf(run.effective, agent);
    return {
      agent,
      prompt: cfg.prompt,
      tools: selectTools(agent, cfg, run.effective, available, BUILTIN_TOOLS),
    };
  });
  return { subAgents, listing, listingError };
}

/**
 * data_source_unavailable: the agent needed tool servers and could reach none of them (the
 * proxy is down, every call failed as unreachable, or every enabled server is down).
 */
export function checkDataSources(
  plan: AgentPlan,
  stats: { externalAttempts: number; externalSuccesses: number; externalUnreachable: number },
): void {
  if (plan.listingError) {
    throw dataSourceUnavailable(`tool servers could not be reached: ${plan.listingError.message}`);
  }
  if (
    stats.externalAttempts > 0 &&
    stats.externalSuccesses === 0 &&
    stats.externalUnreachable === stats.externalAttempts
  ) {
    throw dataSourceUnavailable('every tool server the agent needed was unreachable');
  }
  const enabled = (plan.listing?.servers ?? []).filter((s) => s.enabled);
  const externalTools = plan.subAgents.some((s) => s.tools.some((t) => t.server !== ''));
  if (
    stats.externalAttempts === 0 &&
    !externalTools &&
    enabled.length > 0 &&
    enabled.every((s) => !s.healthy)
  ) {
    throw dataSourceUnavailable(
      `every enabled tool server is down: ${enabled
        .map((s) => `${s.name} (breaker ${s.breakerState})`)
        .join(', ')}; the team's tool list (GET /api/v1/tools) has each one's last error`,
    );
  }
}
