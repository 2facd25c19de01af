import {
  AuditHistory,
  AuditQuery,
  ChangeRequestIdParams,
  ChangeRequestList,
  ChangeRequestsQuery,
  ConfigPatch,
  ConfigUpdateApplied,
  CreateNodeBody,
  IssueTokenBody,
  IssuedToken,
  ListNodesQuery,
  Node,
  NodeIdParams,
  NodeList,
  NodeWithConfig,
  TokenIdParams,
  TokenList,
  type ConfigDocument,
  type TokenInfo,
} from '@inquest/api-contract';
import { internal } from '@inquest/errors';
import type { configV1 } from '@inquest/proto';
import { defineRoute, type RouteDef } from '../http/route';
import {
  changeRequestFilterFields,
  nodeKindFields,
  requiredNodeLevel,
} from '../grpc/config-messages';
import { changeRequestBody, decision } from './change-requests';
import { appliedBody, auditBody } from './config.routes';
import type { GatewayDeps } from './gateway-deps';
import { err } from './route-helpers';

const nodeBody = (n: configV1.Node | undefined): Node => {
  if (!n) throw internal('node missing from answer');
  return {
    node_id: n.node_id,
    parent_id: n.parent_id ?? null,
    kind: requiredNodeLevel(n),
    name: n.name,
    org_id: n.org_id,
    created_at: n.created_at,
  };
};

const tokenBody = (t: configV1.TokenInfo): TokenInfo => ({
  token_id: t.token_id,
  team_id: t.team_id,
  permissions: t.permissions as TokenInfo['permissions'],
  owner: t.owner,
  ...(t.label ? { label: t.label } : {}),
  created_at: t.created_at,
  ...(t.expires_at ? { expires_at: t.expires_at } : {}),
  ...(t.revoked_at ? { revoked_at: t.revoked_at } : {}),
});

/** The admin API (admin token only): nodes, their configs, team tokens, change requests. */
export function adminRoutes(deps: GatewayDeps): RouteDef[] {
  const config = deps.clients.config;
  const cache = deps.effectiveConfig;
  return [
    defineRoute({
      method: 'post',
      path: '/admin/nodes',
      summary: 'Create a node (org root, group or team)',
      tags: ['admin'],
      auth: 'admin',
      body: CreateNodeBody,
      invalidCode: 'validation_error',
      responses: {
        201: { description: 'Created', schema: Node },
        400: err('validation_error'),
        404: err('Unknown parent'),
        409: err('Duplicate node id'),
      },
      handler: async (req) => {
        const res = await config.createNode(
          {
            node_id: req.body.node_id,
            ...(req.body.parent_id ? { parent_id: req.body.parent_id } : {}),
            ...nodeKindFields(req.body.kind),
            name: req.body.name,
          },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 201, body: nodeBody(res.node) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/nodes/:node_id',
      summary: 'A node with its own config',
      tags: ['admin'],
      auth: 'admin',
      params: NodeIdParams,
      responses: { 200: { description: 'Node', schema: NodeWithConfig }, 404: err('Unknown node') },
      handler: async (req) => {
        const res = await config.getNode(
          { node_id: req.params.node_id },
          { ctx: req.ctx, signal: req.signal },
        );
        const body: NodeWithConfig = {
          ...nodeBody(res.node),
          config: (res.config ?? {}) as ConfigDocument,
          version: res.version,
        };
        return { status: 200, body };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/nodes',
      summary: 'List nodes',
      tags: ['admin'],
      auth: 'admin',
      query: ListNodesQuery,
      responses: { 200: { description: 'Nodes', schema: NodeList }, 404: err('Unknown parent') },
      handler: async (req) => {
        const res = await config.listNodes(
          req.query.parent_id === undefined ? {} : { parent_id: req.query.parent_id },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 200, body: { nodes: res.nodes.map(nodeBody) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/nodes/:node_id/audit',
      summary: "A node's change history",
      description:
        'Any node (org, group or team): its changes and those made at the levels above it, newest first, each with its node_id and level; same query and answer as GET /config/me/audit.',
      tags: ['admin'],
      auth: 'admin',
      params: NodeIdParams,
      query: AuditQuery,
      responses: {
        200: { description: 'Audit entries, newest first', schema: AuditHistory },
        400: err('Bad limit or offset'),
        404: err('Unknown node'),
      },
      handler: async (req) => {
        const res = await config.listAudit(
          {
            team_id: req.params.node_id,
            limit: req.query.limit,
            offset: req.query.offset,
            include_full: req.query.include_full,
          },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 200, body: auditBody(res, req.query.include_full) };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/nodes/:node_id/config',
      summary: "Update a node's own config (never needs approval)",
      tags: ['admin'],
      auth: 'admin',
      params: NodeIdParams,
      body: ConfigPatch,
      responses: {
        200: { description: 'Applied', schema: ConfigUpdateApplied },
        400: err('invalid_field or validation_error'),
        404: err('Unknown node'),
      },
      handler: async (req) => {
        const res = await config.updateNodeConfig(
          { node_id: req.params.node_id, patch: req.body, changed_by: req.auth.identity },
          { ctx: req.ctx, signal: req.signal },
        );
        // a group or org change reaches every team below it: drop them all here at once
        cache.invalidate();
        return { status: 200, body: appliedBody(res.result) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/nodes/:node_id/tokens',
      summary: 'Issue a team token',
      tags: ['admin'],
      auth: 'admin',
      params: NodeIdParams,
      body: IssueTokenBody,
      invalidCode: 'validation_error',
      responses: {
        201: {
          description: 'The token; its secret is shown only here',
          schema: IssuedToken,
          headers: { 'Cache-Control': 'no-store: the answer carries a secret' },
        },
        400: err('validation_error, or the node is not a team'),
        404: err('Unknown team'),
      },
      handler: async (req) => {
        const res = await config.issueToken(
          {
            team_id: req.params.node_id,
            permissions: req.body.permissions,
            owner: req.body.owner,
            ...(req.body.label ? { label: req.body.label } : {}),
            ...(req.body.expires_at ? { expires_at: req.body.expires_at } : {}),
          },
          { ctx: req.ctx, signal: req.signal },
        );
        const info = res.info;
        if (!info) throw internal('token info missing from answer');
        const body: IssuedToken = {
          token: res.token,
          token_id: info.token_id,
          permissions: info.permissions as IssuedToken['permissions'],
          owner: info.owner,
          ...(info.label ? { label: info.label } : {}),
          created_at: info.created_at,
          expires_at: info.expires_at ?? null,
        };
        // the only answer that carries a token's secret: no cache or proxy may keep it
        return { status: 201, body, headers: { 'Cache-Control': 'no-store' } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/nodes/:node_id/tokens',
      summary: "A team's tokens (without secrets)",
      tags: ['admin'],
      auth: 'admin',
      params: NodeIdParams,
      responses: {
        200: { description: 'Tokens', schema: TokenList },
        400: err('The node is not a team'),
        404: err('Unknown team'),
      },
      handler: async (req) => {
        const res = await config.listTokens(
          { team_id: req.params.node_id },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 200, body: { tokens: res.tokens.map(tokenBody) } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/tokens/:token_id',
      summary: 'Revoke a team token',
      tags: ['admin'],
      auth: 'admin',
      params: TokenIdParams,
      responses: {
        204: { description: 'Revoked; the token gets 401 from then on' },
        404: err('Unknown token'),
      },
      handler: async (req) => {
        await config.revokeToken(
          { token_id: req.params.token_id },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/change-requests',
      summary: 'List change requests',
      tags: ['admin'],
      auth: 'admin',
      query: ChangeRequestsQuery,
      responses: {
        200: { description: 'Change requests, newest first', schema: ChangeRequestList },
      },
      handler: async (req) => {
        const res = await config.listChangeRequests(
          {
            ...changeRequestFilterFields(req.query.status),
            ...(req.query.team ? { team_id: req.query.team } : {}),
          },
          { ctx: req.ctx, signal: req.signal },
        );
        return {
          status: 200,
          body: { change_requests: res.change_requests.map(changeRequestBody) },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/change-requests/:change_request_id/approve',
      summary: 'Approve a change request (applies the change as one new version)',
      description: 'Body `{comment?}` (optional).',
      tags: ['admin'],
      auth: 'admin',
      params: ChangeRequestIdParams,
      responses: {
        200: { description: 'Approved and applied', schema: changeRequestSchema() },
        404: err('Unknown change request'),
        409: err('Already decided'),
      },
      handler: async (req) => {
        const { comment } = decision(req.body);
        const res = await config.approveChangeRequest(
          {
            change_request_id: req.params.change_request_id,
            approver: req.auth.identity,
            as_listed_approver: false,
            ...(comment ? { comment } : {}),
          },
          { ctx: req.ctx, signal: req.signal },
        );
        if (res.change_request) cache.invalidate(res.change_request.team_id);
        return { status: 200, body: changeRequestBody(res.change_request) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/change-requests/:change_request_id/reject',
      summary: 'Reject a change request',
      description: 'Body `{comment?}` (optional).',
      tags: ['admin'],
      auth: 'admin',
      params: ChangeRequestIdParams,
      responses: {
        200: { description: 'Rejected', schema: changeRequestSchema() },
        404: err('Unknown change request'),
        409: err('Already decided'),
      },
      handler: async (req) => {
        const { comment } = decision(req.body);
        const res = await config.rejectChangeRequest(
          {
            change_request_id: req.params.change_request_id,
            approver: req.auth.identity,
            as_listed_approver: false,
            ...(comment ? { comment } : {}),
          },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 200, body: changeRequestBody(res.change_request) };
      },
    }),
  ];
}

function changeRequestSchema() {
  return ChangeRequestList.shape.change_requests.element;
}
