import {
  agentEnum,
  investigationStatusEnum,
  priorityEnum,
  type investigationV1,
} from '@inquest/proto';
import type { InvestigationRecord } from '@inquest/store';
import { publicInvestigation } from '../domain/public-investigation';

/**
 * The proto Investigation (snake_case JSON form) of a stored record, for gRPC answers and the
 * terminal events. Typed against the generated message here, at the edge, so a proto change that
 * the domain's shape no longer fits breaks the build. Status, agent and priorities are written
 * twice: as enums, and as the deprecated strings that peers built before the enums still read.
 */
export function toInvestigationMessage(r: InvestigationRecord): investigationV1.Investigation {
  const p = publicInvestigation(r);
  return {
    ...p,
    status_enum: investigationStatusEnum.toProto(p.status),
    agent_enum: agentEnum.toProto(p.agent),
    result: p.result && {
      ...p.result,
      recommendations: p.result.recommendations.map((x) => ({
        ...x,
        priority_enum: priorityEnum.toProto(x.priority),
      })),
    },
  };
}
