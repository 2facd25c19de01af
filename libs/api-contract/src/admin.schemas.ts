import { z } from 'zod';
import { NODE_ID_PATTERN } from '@inquest/config-model';
import { ChangeRequest, ChangeRequestStatus, ConfigDocument } from './config.schemas';

export const NodeId = z
  .string()
  .regex(NODE_ID_PATTERN, 'must match ^[a-z0-9][a-z0-9-]{1,62}$')
  .describe('Node id: ^[a-z0-9][a-z0-9-]{1,62}$');

export const NodeKind = z.enum(['org', 'group', 'team']);

/** POST /admin/nodes */
export const CreateNodeBody = z.object({
  node_id: NodeId,
  parent_id: NodeId.nullable().optional().describe('null (or absent) for an organization root'),
  kind: NodeKind,
  name: z.string().trim().min(1).max(200),
});
export type CreateNodeBody = z.infer<typeof CreateNodeBody>;

export const Node = z.object({
  node_id: z.string(),
  parent_id: z.string().nullable(),
  kind: NodeKind,
  name: z.string(),
  org_id: z.string().describe("Id of the root of the node's lineage"),
  created_at: z.string().describe('ISO 8601 UTC'),
});
export type Node = z.infer<typeof Node>;

/** GET /admin/nodes/{node_id} */
export const NodeWithConfig = Node.extend({
  config: ConfigDocument.describe("The node's own config"),
  version: z.number().int().describe("Version of the node's own config"),
});
export type NodeWithConfig = z.infer<typeof NodeWithConfig>;

export const NodeList = z.object({ nodes: z.array(Node) });
export type NodeList = z.infer<typeof NodeList>;

export const ListNodesQuery = z.object({
  parent_id: z
    .string()
    .optional()
    .describe('Only the children of this node; empty lists the roots; absent lists every node'),
});

export const NodeIdParams = z.object({ node_id: z.string() });
export const TokenIdParams = z.object({ token_id: z.string() });
export const ChangeRequestIdParams = z.object({ change_request_id: z.string() });

export const Permission = z.enum(['read', 'write']);

/** POST /admin/nodes/{team_node_id}/tokens */
export const IssueTokenBody = z.object({
  permissions: z.array(Permission).min(1).describe('["read"] or ["read","write"]'),
  owner: z.email().describe('E-mail of the owner; used as changed_by in audit'),
  label: z.string().max(200).optional(),
  expires_at: z.iso.datetime({ offset: true }).optional().describe('ISO 8601; absent = no expiry'),
});
export type IssueTokenBody = z.infer<typeof IssueTokenBody>;

export const IssuedToken = z.object({
  token: z.string().describe('`<token_id>.<secret>`: shown only in this answer'),
  token_id: z.string(),
  permissions: z.array(Permission),
  owner: z.string(),
  label: z.string().optional(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
});
export type IssuedToken = z.infer<typeof IssuedToken>;

export const TokenInfo = z.object({
  token_id: z.string(),
  team_id: z.string(),
  permissions: z.array(Permission),
  owner: z.string(),
  label: z.string().optional(),
  created_at: z.string(),
  expires_at: z.string().optional(),
  revoked_at: z.string().optional(),
});
export type TokenInfo = z.infer<typeof TokenInfo>;

export const TokenList = z.object({ tokens: z.array(TokenInfo).describe('Without secrets') });
export type TokenList = z.infer<typeof TokenList>;

export const ChangeRequestsQuery = z.object({
  status: ChangeRequestStatus.optional(),
  team: z.string().optional().describe('Team node id'),
});

export const ChangeRequestList = z.object({ change_requests: z.array(ChangeRequest) });
export type ChangeRequestList = z.infer<typeof ChangeRequestList>;

/** POST /admin/change-requests/{id}/approve|reject */
export const DecisionBody = z.object({ comment: z.string().max(2000).optional() });
export type DecisionBody = z.infer<typeof DecisionBody>;
