import { invalidRequest } from '@inquest/errors';
import type { AsyncHandlers } from '@inquest/grpc-kit';
import { changeRequestStatusEnum, nodeLevelEnum, type configV1 } from '@inquest/proto';
import {
  auditMessage as audit,
  changeRequestMessage as changeRequest,
  nodeMessage as node,
} from './config-messages';
import type { ConfigHierarchy, ConfigUpdateResult, TokenInfo } from '../domain/config-hierarchy';

const result = (r: ConfigUpdateResult): configV1.ConfigUpdateResult => ({
  message: r.message,
  version: r.version,
  changed_fields: r.changed_fields,
  effective_config: r.effective_config,
  warnings: r.warnings,
});

const token = (t: TokenInfo): configV1.TokenInfo => ({
  token_id: t.token_id,
  team_id: t.team_id,
  permissions: t.permissions,
  owner: t.owner,
  label: t.label,
  created_at: t.created_at,
  expires_at: t.expires_at,
  revoked_at: t.revoked_at,
});

function patchOf(p: { [key: string]: unknown } | undefined): unknown {
  if (p === undefined) throw invalidRequest('the body must be a JSON object');
  return p;
}

/** gRPC handlers of inquest.config.v1.ConfigService: decode, call the domain, encode. */
export function configServiceHandlers(
  domain: ConfigHierarchy,
): AsyncHandlers<typeof configV1.ConfigServiceService> {
  return {
    createNode: async (req) => ({
      node: node(
        await domain.createNode({
          node_id: req.node_id,
          parent_id: req.parent_id ?? null,
          // the enum, or the string of a peer built before it (the domain refuses an unknown one)
          kind: nodeLevelEnum.read(req.kind_enum, req.kind) ?? req.kind,
          name: req.name,
        }),
      ),
    }),
    getNode: async (req) => {
      const r = await domain.getNode(req.node_id);
      return { node: node(r.node), config: r.config, version: r.version };
    },
    listNodes: async (req) => ({ nodes: (await domain.listNodes(req.parent_id)).map(node) }),
    updateNodeConfig: async (req, ctx) => ({
      result: result(
        await domain.updateNodeConfig(
          req.node_id,
          patchOf(req.patch),
          req.changed_by || ctx.principal || 'admin',
        ),
      ),
    }),
    getEffectiveConfig: async (req) => {
      const eff = await domain.getEffective(req.team_id);
      const secret_scopes: Record<string, configV1.SecretScope> = {};
      for (const [field, s] of Object.entries(eff.secret_scopes))
        secret_scopes[field] = { owner_node_id: s.owner, prefixes: [...s.prefixes] };
      return { config: eff.config, version: eff.version, secret_scopes };
    },
    getRawConfig: async (req) => domain.getRaw(req.team_id),
    updateTeamConfig: async (req) => {
      const out = await domain.updateTeamConfig(req.team_id, patchOf(req.patch), req.changed_by);
      return 'applied' in out
        ? { applied: result(out.applied), warnings: [] }
        : { change_request: changeRequest(out.change_request), warnings: out.warnings };
    },
    listAudit: async (req) => {
      const r = await domain.listAudit(
        req.team_id,
        { limit: req.limit, offset: req.offset },
        req.include_full,
      );
      return { history: r.history.map(audit), total: r.total, limit: r.limit, offset: r.offset };
    },
    listChangeRequests: async (req) => ({
      change_requests: (
        await domain.changeRequests.list({
          status: changeRequestStatusEnum.read(req.status_enum, req.status) ?? req.status,
          team_id: req.team_id,
        })
      ).map(changeRequest),
    }),
    approveChangeRequest: async (req) => ({
      change_request: changeRequest(
        await domain.changeRequests.approve(req.change_request_id, req.approver, req.comment, {
          teamId: req.team_id,
          asListedApprover: req.as_listed_approver,
        }),
      ),
    }),
    rejectChangeRequest: async (req) => ({
      change_request: changeRequest(
        await domain.changeRequests.reject(req.change_request_id, req.approver, req.comment, {
          teamId: req.team_id,
          asListedApprover: req.as_listed_approver,
        }),
      ),
    }),
    issueToken: async (req) => {
      const r = await domain.tokens.issue({
        team_id: req.team_id,
        permissions: req.permissions,
        owner: req.owner,
        label: req.label,
        expires_at: req.expires_at,
      });
      return { token: r.token, info: token(r.info) };
    },
    listTokens: async (req) => ({ tokens: (await domain.tokens.list(req.team_id)).map(token) }),
    revokeToken: async (req) => ({ token: token(await domain.tokens.revoke(req.token_id)) }),
    verifyToken: async (req) => {
      const t = await domain.tokens.verify(req.token);
      return t ? { valid: true, token: token(t) } : { valid: false };
    },
  };
}
