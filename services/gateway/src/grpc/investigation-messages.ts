import type { AgentName, InvestigationStatus } from '@inquest/api-contract';
import { internal } from '@inquest/errors';
import {
  agentEnum,
  investigationStatusEnum,
  priorityEnum,
  type investigationV1,
} from '@inquest/proto';

type Priority = (typeof priorityEnum.names)[number];

/** A recommendation with its priority named. */
export interface RecommendationView extends Omit<
  investigationV1.Recommendation,
  'priority' | 'priority_enum'
> {
  priority: Priority;
}

/**
 * An investigation as the runner answered it, with status, agent and priorities read from the
 * enums (or, from a runner built before them, from the deprecated strings) and named as the REST
 * API names them.
 */
export interface InvestigationView extends Omit<
  investigationV1.Investigation,
  'status' | 'status_enum' | 'agent' | 'agent_enum' | 'result'
> {
  status: InvestigationStatus;
  agent: AgentName;
  result?: Omit<investigationV1.InvestigationResult, 'recommendations'> & {
    recommendations: RecommendationView[];
  };
}

function named<N extends string>(what: string, id: string, name: N | undefined): N {
  if (name === undefined)
    throw internal(`investigation-runner answered investigation ${id} with no known ${what}`);
  return name;
}

/** Reads an Investigation message: every enum field named, the deprecated strings dropped. */
export function readInvestigation(inv: investigationV1.Investigation): InvestigationView {
  const {
    status: _status,
    status_enum: _statusEnum,
    agent: _agent,
    agent_enum: _agentEnum,
    result,
    ...rest
  } = inv;
  const id = inv.investigation_id;
  return {
    ...rest,
    status: named('status', id, investigationStatusEnum.read(inv.status_enum, inv.status)),
    agent: named('agent', id, agentEnum.read(inv.agent_enum, inv.agent)),
    ...(result && {
      result: {
        ...result,
        recommendations: result.recommendations.map(({ priority, priority_enum, ...r }) => ({
          ...r,
          priority: named('priority', id, priorityEnum.read(priority_enum, priority)),
        })),
      },
    }),
  };
}

/** `agent_name` of a RunInvestigationRequest, as the enum and as the deprecated string. */
export function agentNameFields(
  agent: AgentName,
): Pick<investigationV1.RunInvestigationRequest, 'agent_name' | 'agent_name_enum'> {
  return { agent_name: agent, agent_name_enum: agentEnum.toProto(agent) };
}

/** The filters of a ListInvestigationsRequest, as enums and as the deprecated strings. */
export function listFilterFields(filters: {
  status?: InvestigationStatus;
  agent?: AgentName;
}): Pick<
  investigationV1.ListInvestigationsRequest,
  'status' | 'status_enum' | 'agent' | 'agent_enum'
> {
  return {
    status: filters.status,
    status_enum: investigationStatusEnum.toProto(filters.status),
    agent: filters.agent,
    agent_enum: agentEnum.toProto(filters.agent),
  };
}
