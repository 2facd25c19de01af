import { createHash } from 'node:crypto';
import {
  AuditHistory,
  AuditQuery,
  ChangeRequest,
  ChangeRequestIdParams,
  ConfigChangeRequested,
  type ConfigDocument,
  ConfigPatch,
  ConfigUpdateApplied,
  EffectiveConfig,
  PendingChanges,
  RawConfig,
} from '@inquest/api-contract';
import { internal } from '@inquest/errors';
import type { EffectiveConfig as EffectiveAnswer } from '@inquest/config-client';
import type { configV1 } from '@inquest/proto';
import {
  auditLevelOf,
  changeRequestFilterFields,
  changeRequestStatusOf,
} from '../grpc/config-messages';
import { PreparedBody } from '../http/prepared-body';
import { defineRoute, type RouteDef } from '../http/route';
import { changeRequestBody, decision } from './change-requests';
import type { GatewayDeps } from './gateway-deps';
import { err, teamOf } from './route-helpers';

/** The team the request acts on (set by authentication for every team route). */

/**
 * The answer body of each effective config the source hands out, kept as long as the source keeps
 * that answer (it gives the same object until the config changes or its TTL passes): the JSON text
 * and its ETag are computed once per config version, not per request. The tag hashes the body, not
 * the team's version, because an org or group change alters the body without bumping it.
 */
function effectiveBodies(): (eff: EffectiveAnswer) => PreparedBody {
  const bodies = new WeakMap<EffectiveAnswer, PreparedBody>();
  return (eff) => {
    let out = bodies.get(eff);
    if (!out) {
      const body = Buffer.from(JSON.stringify({ ...eff.config, version: eff.version }));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
      out = new PreparedBody(body, 'application/json; charset=utf-8', etag);
      bodies.set(eff, out);
    }
    return out;
  };
}

/** If-None-Match matches the tag (weak comparison, RFC 9110 13.1.2; `*` matches any). */
export function ifNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  const want = strip(etag);
  return (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .some((t) => t.trim() === '*' || strip(t) === want);
}

/** 200 body of an applied config update (PUT /config/me, PUT /admin/nodes/{id}/config). */
export function appliedBody(r: configV1.ConfigUpdateResult | undefined): ConfigUpdateApplied {
  if (!r) throw internal('config update answered without a result');
  return {
    message: r.message,
    version: r.version,
    changed_fields: r.changed_fields,
    effective_config: (r.effective_config ?? {}) as ConfigDocument,
    warnings: r.warnings,
  };
}

/** Body of an audit listing (GET /config/me/audit, GET /admin/nodes/{id}/audit). */
export function auditBody(res: configV1.ListAuditResponse, includeFull: boolean): AuditHistory {
  const history: AuditHistory['history'] = res.history.map((h) => ({
    version: h.version,
    changed_at: h.changed_at,
    changed_by: h.changed_by,
    ...(h.approved_by ? { approved_by: h.approved_by } : {}),
    diff: (h.diff ?? {}) as AuditHistory['history'][number]['diff'],
    ...(includeFull ? { full_config: (h.full_config ?? {}) as ConfigDocument } : {}),
    node_id: h.node_id,
    level: auditLevelOf(h),
  }));
  return { history, pagination: { total: res.total, limit: res.limit, offset: res.offset } };
}

/** Routes of /config/me/*: the authenticated team's configuration. */
export function configRoutes(deps: GatewayDeps): RouteDef[] {
  const config = deps.clients.config;
  const cache = deps.effectiveConfig;
  const bodyOf = effectiveBodies();
  return [
    defineRoute({
      method: 'get',
      path: '/config/me/effective',
      summary: 'Merged configuration of the team',
      description:
        'Organization config, then each group in order, then the team, deep-merged; arrays replaced.',
      tags: ['config'],
      auth: 'team',
      permission: 'read',
      requestHeaders: {
        'If-None-Match': 'The ETag of an earlier answer: 304 without a body while it still holds.',
      },
      responses: {
        200: {
          description: 'Effective config with the team version',
          schema: EffectiveConfig,
          headers: { ETag: 'Tag of this body (changes whenever the effective config does).' },
        },
        304: {
          description: 'Not modified: the If-None-Match tag still holds',
          headers: { ETag: 'The current tag.' },
        },
        404: err('Unknown team'),
      },
      handler: async (req) => {
        // the request is the read options: its signal is made only if the cache has to load
        const eff = await cache.get(teamOf(req), req);
        const body = bodyOf(eff);
        // a PreparedBody answer carries its ETag (with 304: only that, no body)
        return { status: ifNoneMatch(req.headers['if-none-match'], body.etag) ? 304 : 200, body };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/config/me/raw',
      summary: 'Per-level configs with the lineage',
      tags: ['config'],
      auth: 'team',
      permission: 'read',
      responses: {
        200: { description: 'Lineage and own configs', schema: RawConfig },
        404: err('Unknown team'),
      },
      handler: async (req) => {
        const res = await config.getRawConfig(
          { team_id: teamOf(req) },
          { ctx: req.ctx, signal: req.signal },
        );
        const body: RawConfig = {
          lineage: res.lineage,
          configs: (res.configs ?? {}) as RawConfig['configs'],
          versions: res.versions,
        };
        return { status: 200, body };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/config/me/audit',
      summary: 'Change history of the team config',
      tags: ['config'],
      auth: 'team',
      permission: 'read',
      query: AuditQuery,
      description:
        'Newest first, paged with limit and offset: the changes of the team and those made at the org and group levels above it, each with its node_id and level.',
      responses: {
        200: { description: 'Audit entries, newest first', schema: AuditHistory },
        400: err('Bad limit or offset'),
      },
      handler: async (req) => {
        const res = await config.listAudit(
          {
            team_id: teamOf(req),
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
      path: '/config/me',
      summary: 'Update the team overrides',
      description:
        "JSON Merge Patch (RFC 7396) of the team overrides: objects merge, null removes the team's own key so the inherited value applies again (audited), arrays and scalars replace. When the effective feature_flags.require_approval is true the change is held as a change request (202).",
      tags: ['config'],
      auth: 'team',
      permission: 'write',
      body: ConfigPatch,
      responses: {
        200: { description: 'Applied', schema: ConfigUpdateApplied },
        202: { description: 'Held for approval', schema: ConfigChangeRequested },
        400: err('invalid_field (immutable field) or validation_error (details, errors)'),
        403: err('The token lacks write permission'),
      },
      handler: async (req) => {
        const res = await config.updateTeamConfig(
          { team_id: teamOf(req), patch: req.body, changed_by: req.auth.identity },
          { ctx: req.ctx, signal: req.signal },
        );
        if (res.applied) cache.invalidate(teamOf(req));
        if (res.change_request) {
          const cr = res.change_request;
          const body: ConfigChangeRequested = {
            message: 'Change request created; it is applied once approved',
            change_request_id: cr.change_request_id,
            status: 'pending_approval',
            approvers: cr.approvers,
            changes: (cr.changes ?? {}) as ConfigChangeRequested['changes'],
            warnings: res.warnings,
          };
          return { status: 202, body };
        }
        return { status: 200, body: appliedBody(res.applied) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/config/me/pending',
      summary: 'Pending change requests of the team',
      tags: ['config'],
      auth: 'team',
      permission: 'read',
      responses: {
        200: { description: 'Change requests waiting for approval', schema: PendingChanges },
      },
      handler: async (req) => {
        const res = await config.listChangeRequests(
          { ...changeRequestFilterFields('pending_approval'), team_id: teamOf(req) },
          { ctx: req.ctx, signal: req.signal },
        );
        const body: PendingChanges = {
          change_requests: res.change_requests.map((cr) => ({
            change_request_id: cr.change_request_id,
            status: changeRequestStatusOf(cr),
            requested_by: cr.requested_by,
            requested_at: cr.requested_at,
            approvers: cr.approvers,
            changes: (cr.changes ?? {}) as PendingChanges['change_requests'][number]['changes'],
          })),
        };
        return { status: 200, body };
      },
    }),
    ...(['approve', 'reject'] as const).map((verb) =>
      defineRoute({
        method: 'post',
        path: `/config/me/pending/:change_request_id/${verb}`,
        summary:
          verb === 'approve'
            ? 'Approve a pending change request of the team (applies it as one new version)'
            : 'Reject a pending change request of the team',
        description:
          "For the callers listed in the change request's approvers (the effective approval.approvers: an OIDC e-mail, or the owner of a team token with write permission); the requester of the change cannot decide it. Body `{comment?}` (optional). The requester is told the outcome (chat message and the webhooks.config_change webhook).",
        tags: ['config'],
        auth: 'team',
        permission: 'write',
        params: ChangeRequestIdParams,
        responses: {
          200: {
            description: verb === 'approve' ? 'Approved and applied' : 'Rejected',
            schema: ChangeRequest,
          },
          403: err('Not an approver of this change request, or its requester'),
          404: err("Unknown change request, or another team's"),
          409: err('Already decided'),
        },
        handler: async (req) => {
          const { comment } = decision(req.body);
          const team = teamOf(req);
          const body = {
            change_request_id: req.params.change_request_id,
            approver: req.auth.identity,
            team_id: team,
            // an admin (X-Inquest-Team) decides as on the admin routes
            as_listed_approver: req.auth.kind !== 'admin',
            ...(comment ? { comment } : {}),
          };
          const opts = { ctx: req.ctx, signal: req.signal };
          const res =
            verb === 'approve'
              ? await config.approveChangeRequest(body, opts)
              : await config.rejectChangeRequest(body, opts);
          if (verb === 'approve') cache.invalidate(team);
          return { status: 200, body: changeRequestBody(res.change_request) };
        },
      }),
    ),
  ];
}
