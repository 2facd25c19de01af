import {
  Agent,
  InvestigationStatus,
  Priority,
} from '../gen/inquest/investigation/v1/investigation_service';
import { stringEnum } from './string-enum';

/** `Investigation.status_enum` and the list filter: the REST API's investigation statuses. */
export const investigationStatusEnum = stringEnum(
  {
    pending: InvestigationStatus.INVESTIGATION_STATUS_PENDING,
    running: InvestigationStatus.INVESTIGATION_STATUS_RUNNING,
    completed: InvestigationStatus.INVESTIGATION_STATUS_COMPLETED,
    failed: InvestigationStatus.INVESTIGATION_STATUS_FAILED,
    cancelled: InvestigationStatus.INVESTIGATION_STATUS_CANCELLED,
  },
  InvestigationStatus.INVESTIGATION_STATUS_UNSPECIFIED,
);

/** `Investigation.agent_enum`, `RunInvestigationRequest.agent_name_enum` and the list filter. */
export const agentEnum = stringEnum(
  {
    planner: Agent.AGENT_PLANNER,
    investigation_agent: Agent.AGENT_INVESTIGATION_AGENT,
    k8s_agent: Agent.AGENT_K8S_AGENT,
    cloud_agent: Agent.AGENT_CLOUD_AGENT,
    coding_agent: Agent.AGENT_CODING_AGENT,
  },
  Agent.AGENT_UNSPECIFIED,
);

/** `Recommendation.priority_enum`. */
export const priorityEnum = stringEnum(
  {
    high: Priority.PRIORITY_HIGH,
    medium: Priority.PRIORITY_MEDIUM,
    low: Priority.PRIORITY_LOW,
  },
  Priority.PRIORITY_UNSPECIFIED,
);
