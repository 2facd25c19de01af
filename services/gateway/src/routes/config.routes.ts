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
import { Subjects } from '@inquest/events';
import type { configV1 } from '@inquest/proto';
import { defineRoute, type RouteDef } from '../http/route';
import { changeRequestBody, decision } from './change-requests';
import type { GatewayDeps } from './gateway-deps';
import { err, teamOf } from './route-helpers';

/** The team the request acts on (set by authentication for every team route). */

/**
 * Effective configs already answered, as JSON text, by team. Only used while the gateway hears
 * `inquest.v1.config.changed` (one event per affected team, also for group/org changes); a
 * computation that raced with an invalidation is not kept (generation check), and entries expire
 * after ttlMs as a safety net.
 */
export class EffectiveConfigCache {
  private readonly entries = new Map<string, { json: string; until: number }>();
  /** loads in flight by team, with the generation they started in */
  private readonly loading = new Map<string, { gen: number; p: Promise<string> }>();
  private generation = 0;
  /** true once the change subscription is live: no caching before */
  listening = false;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {}

  get(teamId: string): string | undefined {
    const e = this.entries.get(teamId);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.entries.delete(teamId);
      return undefined;
    }
    return e.json;
  }

  begin(): number {
    return this.generation;
  }

  /**
   * The cached JSON, else `fetch` once for all concurrent callers of the same team. Without it,
   * every request in flight when an entry expires (50 at 50 connections) computed the same
   * config at once: a burst of identical gRPC calls and merges every ttlMs.
   * `shared` tells fetch its answer serves other callers (so it must not use one caller's
   * AbortSignal). A load started before an invalidation is not joined by later callers.
   */
  load(teamId: string, fetch: (shared: boolean) => Promise<string>): Promise<string> {
    const hit = this.get(teamId);
    if (hit !== undefined) return Promise.resolve(hit);
    if (!this.listening) return fetch(false);
    const gen = this.generation;
    const pending = this.loading.get(teamId);
    if (pending && pending.gen === gen) return pending.p;
    const p: Promise<string> = fetch(true)
      .then((json) => {
        this.set(teamId, json, gen);
        return json;
      })
      .finally(() => {
        if (this.loading.get(teamId)?.p === p) this.loading.delete(teamId);
      });
    this.loading.set(teamId, { gen, p });
    return p;
  }

  set(teamId: string, json: string, startedAt: number): void {
    if (!this.listening || startedAt !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(teamId, { json, until: Date.now() + this.ttlMs });
  }

  /** One team, or every team when none is named. */
  invalidate(teamId?: string): void {
    this.generation++;
    if (teamId === undefined) this.entries.clear();
    else this.entries.delete(teamId);
  }
}

// One cache per gateway instance (keyed by its config client), shared by the config and admin routes.
const caches = new WeakMap<object, EffectiveConfigCache>();

/** The effective-config cache of this gateway; subscribes to config changes on first use. */
export function effectiveConfigCache(deps: GatewayDeps): EffectiveConfigCache {
  const existing = caches.get(deps.clients.config);
  if (existing) return existing;
  const cache = new EffectiveConfigCache();
  caches.set(deps.clients.config, cache);
  deps.bus
    ?.subscribe(Subjects.configChanged, async (msg) => {
      const team = (msg.data as { team_id?: unknown } | null)?.team_id;
      cache.invalidate(typeof team === 'string' ? team : undefined);
    })
    .then(
      () => {
        cache.listening = true;
      },
      (err: unknown) =>
        deps.logger.warn(
          { err },
          'cannot subscribe to config changes; effective configs are not cached',
        ),
    );
  return cache;
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
    level: h.level as AuditHistory['history'][number]['level'],
  }));
  return { history, pagination: { total: res.total, limit: res.limit, offset: res.offset } };
}

/** Routes of /config/me/*: the authenticated team's configuration. */
export function configRoutes(deps: GatewayDeps): RouteDef[] {
  const config = deps.clients.config;
  const cache = effectiveConfigCache(deps);
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
      responses: {
        200: { description: 'Effective config with the team version', schema: EffectiveConfig },
        404: err('Unknown team'),
      },
      handler: async (req) => {
        const team = teamOf(req);
        const json = await cache.load(team, async (shared) => {
          const res = await config.getEffectiveConfig(
            { team_id: team },
            { ctx: req.ctx, signal: shared ? undefined : req.signal },
          );
          return JSON.stringify({ ...(res.config ?? {}), version: res.version });
        });
        return { status: 200, body: json, contentType: 'application/json; charset=utf-8' };
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
          { status: 'pending_approval', team_id: teamOf(req) },
          { ctx: req.ctx, signal: req.signal },
        );
        const body: PendingChanges = {
          change_requests: res.change_requests.map((cr) => ({
            change_request_id: cr.change_request_id,
            status: cr.status as PendingChanges['change_requests'][number]['status'],
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
