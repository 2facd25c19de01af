import { changeRequestStatusEnum, nodeLevelEnum, type configV1 } from '@inquest/proto';
import type { ChangeRequestRecord, NodeRecord } from '@inquest/store';
import type { AuditView } from '../domain/config-hierarchy';

// The proto messages of stored records. Levels and statuses are written twice: as enums, and as
// the deprecated strings that peers built before the enums still read (ADR 0012).

export const nodeMessage = (n: NodeRecord): configV1.Node => ({
  node_id: n.node_id,
  ...(n.parent_id ? { parent_id: n.parent_id } : {}),
  kind: n.kind,
  kind_enum: nodeLevelEnum.toProto(n.kind),
  name: n.name,
  org_id: n.org_id,
  created_at: n.created_at,
});

export const changeRequestMessage = (cr: ChangeRequestRecord): configV1.ChangeRequest => ({
  change_request_id: cr.change_request_id,
  team_id: cr.team_id,
  status: cr.status,
  status_enum: changeRequestStatusEnum.toProto(cr.status),
  requested_by: cr.requested_by,
  requested_at: cr.requested_at,
  approvers: cr.approvers,
  changes: cr.changes,
  patch: cr.patch,
  decided_by: cr.decided_by,
  decided_at: cr.decided_at,
  comment: cr.comment,
  applied_version: cr.applied_version,
});

export const auditMessage = (a: AuditView): configV1.AuditEntry => ({
  version: a.version,
  changed_at: a.changed_at,
  changed_by: a.changed_by,
  diff: a.diff,
  full_config: a.full_config,
  approved_by: a.approved_by,
  node_id: a.node_id,
  level: a.level,
  level_enum: nodeLevelEnum.toProto(a.level),
});
