import { ChangeRequestStatus, NodeLevel } from '../gen/inquest/config/v1/config_service';
import { stringEnum } from './string-enum';

/** `Node.kind_enum`, `CreateNodeRequest.kind_enum`, `AuditEntry.level_enum`: org, group, team. */
export const nodeLevelEnum = stringEnum(
  {
    org: NodeLevel.NODE_LEVEL_ORG,
    group: NodeLevel.NODE_LEVEL_GROUP,
    team: NodeLevel.NODE_LEVEL_TEAM,
  },
  NodeLevel.NODE_LEVEL_UNSPECIFIED,
);

/** `ChangeRequest.status_enum` and the list filter. */
export const changeRequestStatusEnum = stringEnum(
  {
    pending_approval: ChangeRequestStatus.CHANGE_REQUEST_STATUS_PENDING_APPROVAL,
    approved: ChangeRequestStatus.CHANGE_REQUEST_STATUS_APPROVED,
    rejected: ChangeRequestStatus.CHANGE_REQUEST_STATUS_REJECTED,
  },
  ChangeRequestStatus.CHANGE_REQUEST_STATUS_UNSPECIFIED,
);
