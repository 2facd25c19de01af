import { internal } from '@inquest/errors';
import { changeRequestStatusEnum, nodeLevelEnum, type configV1 } from '@inquest/proto';

// Levels and change-request statuses of config-hierarchy's messages, read from the enums (or,
// from a config-hierarchy built before them, from the deprecated strings), and the request
// fields that carry them in both forms (ADR 0012).

type NodeLevel = (typeof nodeLevelEnum.names)[number];
type ChangeRequestStatus = (typeof changeRequestStatusEnum.names)[number];

function named<N extends string>(what: string, name: N | undefined): N {
  if (name === undefined) throw internal(`config-hierarchy answered an unknown ${what}`);
  return name;
}

/** The level of a node; undefined when neither field names one. */
export const nodeLevelOf = (n: Pick<configV1.Node, 'kind' | 'kind_enum'>): NodeLevel | undefined =>
  nodeLevelEnum.read(n.kind_enum, n.kind);

/** The level of a node, for an answer that must name it. */
export const requiredNodeLevel = (n: Pick<configV1.Node, 'kind' | 'kind_enum'>): NodeLevel =>
  named('node level', nodeLevelOf(n));

/** The level of the node an audit entry changed. */
export const auditLevelOf = (a: Pick<configV1.AuditEntry, 'level' | 'level_enum'>): NodeLevel =>
  named('audit level', nodeLevelEnum.read(a.level_enum, a.level));

/** The status of a change request. */
export const changeRequestStatusOf = (
  cr: Pick<configV1.ChangeRequest, 'status' | 'status_enum'>,
): ChangeRequestStatus =>
  named('change request status', changeRequestStatusEnum.read(cr.status_enum, cr.status));

/** `kind` of a CreateNodeRequest, as the enum and as the deprecated string. */
export const nodeKindFields = (
  kind: NodeLevel,
): Pick<configV1.CreateNodeRequest, 'kind' | 'kind_enum'> => ({
  kind,
  kind_enum: nodeLevelEnum.toProto(kind),
});

/** The status filter of a ListChangeRequestsRequest, as the enum and as the deprecated string. */
export const changeRequestFilterFields = (
  status: ChangeRequestStatus | undefined,
): Pick<configV1.ListChangeRequestsRequest, 'status' | 'status_enum'> => ({
  ...(status ? { status } : {}),
  status_enum: changeRequestStatusEnum.toProto(status),
});
