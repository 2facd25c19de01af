import {
  CONFIG_LIMITS,
  NODE_ID_PATTERN,
  checkPatchShape,
  mergeLevels,
  mergePatch,
  diffConfigs,
  diffToJson,
  effectiveDiff,
  effectiveConfig,
  effectiveSecretScopes,
  orgSecretGrants,
  secretScopeProblems,
  urlCredentialProblems,
  isPlainObject,
  referenceProblems,
  patchProblems,
  reservedFieldWarnings,
  type JsonObject,
} from '@inquest/config-model';
import {
  conflict,
  invalidRequest,
  notFound,
  validationError,
  type ErrorDetail,
} from '@inquest/errors';
import { Subjects, eventEnvelope, type EventBus } from '@inquest/events';
import type { Logger } from '@inquest/observability';
import type { SecretScope } from '@inquest/secrets';
import type {
  AuditRecord,
  ChangeRequestRecord,
  ConfigStores,
  NodeKind,
  NodeRecord,
} from '@inquest/store';
import { ADMIN_IDENTITY, ChangeRequests, type ChangeRequestMessage } from './change-requests';
import { EffectiveCache } from './effective-cache';
import { publishAfterStore, type PublishEvent } from './publish-event';
import { TeamTokens } from './team-tokens';
import { toolListingCheck, type ConfigWarning, type ToolCatalog } from './tool-catalog';

export type { DecisionScope } from './change-requests';
export type { TokenInfo } from './team-tokens';

/** What an applied change answers (PUT /config/me 200, admin node update). */
export interface ConfigUpdateResult {
  message: string;
  version: number;
  changed_fields: string[];
  effective_config: JsonObject;
  /** accepted, but worth knowing (a tool not checked now, a reserved field) */
  warnings: ConfigWarning[];
}

export type TeamUpdateOutcome =
  | { applied: ConfigUpdateResult }
  | { change_request: ChangeRequestRecord; warnings: ConfigWarning[] };

/** An audit entry as listed: the level of the node that changed; `full_config` only when asked for. */
export type AuditView = Omit<AuditRecord, 'full_config'> & {
  full_config?: AuditRecord['full_config'];
  level: NodeKind;
};

export interface ConfigHierarchyDeps {
  stores: ConfigStores;
  bus: EventBus;
  logger: Logger;
  /** attempts of a version-checked write before giving up (default 200) */
  maxWriteAttempts?: number;
  /** tool lists of the team's servers, to check the tool names an update sets (toolserver-proxy) */
  tools?: ToolCatalog;
  /** a change request as its events carry it (the gRPC edge's encoder) */
  changeRequestMessage: ChangeRequestMessage;
}

/**
 * The configuration hierarchy: nodes, their own configs, effective (merged) configs and
 * validated updates with audit. A team's change held for approval lives in `changeRequests`, its
 * tokens in `tokens` (aggregates of their own that share the nodes and the event publisher).
 */
export class ConfigHierarchy {
  private readonly cache = new EffectiveCache();
  // Nodes never move or disappear, so a node's lineage can be kept once read.
  private readonly lineages = new Map<string, NodeRecord[]>();
  // In-process writers to one node queue up; the version check still guards other replicas.
  private readonly writeQueues = new Map<string, Promise<unknown>>();
  private readonly stores: ConfigStores;
  private readonly publish: PublishEvent;
  private readonly maxWriteAttempts: number;
  private readonly tools: ToolCatalog | undefined;
  /** team changes held for approval */
  readonly changeRequests: ChangeRequests;
  /** team tokens */
  readonly tokens: TeamTokens;

  constructor(deps: ConfigHierarchyDeps) {
    this.stores = deps.stores;
    this.publish = publishAfterStore(deps.bus, deps.logger);
    this.maxWriteAttempts = deps.maxWriteAttempts ?? 200;
    this.tools = deps.tools;
    this.changeRequests = new ChangeRequests({
      store: deps.stores.changeRequests,
      publish: this.publish,
      eventMessage: deps.changeRequestMessage,
      apply: (teamId, patch, requestedBy, approvedBy) =>
        this.apply(teamId, patch, requestedBy, approvedBy),
    });
    this.tokens = new TeamTokens({
      tokens: deps.stores.tokens,
      requireNode: (nodeId) => this.requireNode(nodeId),
      publish: this.publish,
    });
  }

  /** Drops cached effective configs that depend on the node (another replica changed it). */
  invalidate(nodeId: string): void {
    this.cache.invalidate(nodeId);
  }

  // ---- nodes ---------------------------------------------------------------------------------

  async createNode(input: {
    node_id: string;
    parent_id?: string | null;
    kind: string;
    name: string;
  }): Promise<NodeRecord> {
    const problems: ErrorDetail[] = [];
    if (!NODE_ID_PATTERN.test(input.node_id)) {
      problems.push({ field: 'node_id', error: 'must match ^[a-z0-9][a-z0-9-]{1,62}$' });
    }
    if (!['org', 'group', 'team'].includes(input.kind))
      problems.push({ field: 'kind', error: 'must be one of org, group, team' });
    if (!input.name || !input.name.trim())
      problems.push({ field: 'name', error: 'must be a non-empty string' });
    const parentId = input.parent_id ? input.parent_id : null;
    if (input.kind === 'org' && parentId)
      problems.push({ field: 'parent_id', error: 'an org is a root: parent_id must be null' });
    if ((input.kind === 'group' || input.kind === 'team') && !parentId) {
      problems.push({ field: 'parent_id', error: `a ${input.kind} needs a parent` });
    }
    if (problems.length) throw validationError(problems);
    let orgId = input.node_id;
    if (parentId) {
      const parent = await this.stores.nodes.getNode(parentId);
      if (!parent) throw notFound(`parent node ${parentId} not found`);
      if (parent.kind === 'team')
        throw validationError([{ field: 'parent_id', error: 'a team cannot have children' }]);
      orgId = parent.org_id;
    }
    const node: NodeRecord = {
      node_id: input.node_id,
      parent_id: parentId,
      kind: input.kind as NodeKind,
      name: input.name.trim(),
      org_id: orgId,
      created_at: new Date().toISOString(),
    };
    await this.stores.nodes.createNode(node);
    return node;
  }

  async getNode(
    nodeId: string,
  ): Promise<{ node: NodeRecord; config: JsonObject; version: number }> {
    const node = await this.requireNode(nodeId);
    const cfg = await this.stores.nodes.getConfig(nodeId);
    return { node, config: cfg?.config ?? {}, version: cfg?.version ?? 0 };
  }

  async listNodes(parentId?: string | null): Promise<NodeRecord[]> {
    if (parentId) await this.requireNode(parentId);
    return this.stores.nodes.listNodes(
      parentId === undefined ? {} : { parent_id: parentId || null },
    );
  }

  // ---- reading configs -----------------------------------------------------------------------

  /**
   * The node's effective config and, for each `vault://` reference in it (dot path), the scope it
   * resolves in: the node whose own config set it, with that node's prefixes.
   */
  async getEffective(nodeId: string): Promise<{
    config: JsonObject;
    version: number;
    secret_scopes: Record<string, SecretScope>;
  }> {
    const hit = this.cache.get(nodeId);
    if (hit) return { config: hit.config, version: hit.version, secret_scopes: hit.secret_scopes };
    const started = this.cache.begin();
    const lineage = await this.lineage(nodeId);
    const configs = await this.stores.nodes.getConfigs(lineage.map((n) => n.node_id));
    const levels = configs.map((c) => c.config);
    const own = configs[configs.length - 1];
    const config = this.effectiveOf(lineage, levels);
    const version = own?.version ?? 0;
    const ids = lineage.map((n) => n.node_id);
    const secret_scopes = effectiveSecretScopes(levels, ids, config);
    this.cache.set(nodeId, { lineage: ids, config, version, secret_scopes }, started);
    return { config, version, secret_scopes };
  }

  async getRaw(nodeId: string): Promise<{
    lineage: string[];
    configs: Record<string, JsonObject>;
    versions: Record<string, number>;
  }> {
    const lineage = await this.lineage(nodeId);
    const configs = await this.stores.nodes.getConfigs(lineage.map((n) => n.node_id));
    const out: Record<string, JsonObject> = {};
    const versions: Record<string, number> = {};
    for (const c of configs) {
      out[c.node_id] = c.config;
      versions[c.node_id] = c.version;
    }
    return { lineage: lineage.map((n) => n.node_id), configs: out, versions };
  }

  /**
   * The node's audit with the changes made at every level above it (each entry names its node
   * and level), newest first, one page.
   */
  async listAudit(
    nodeId: string,
    page: { limit: number; offset: number },
    includeFull: boolean,
  ): Promise<{ history: AuditView[]; total: number; limit: number; offset: number }> {
    const lineage = await this.lineage(nodeId);
    const limit = page.limit === 0 ? 50 : page.limit;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500)
      throw invalidRequest('limit must be an integer between 1 and 500');
    if (!Number.isInteger(page.offset) || page.offset < 0)
      throw invalidRequest('offset must be a non-negative integer');
    const kinds = new Map(lineage.map((n) => [n.node_id, n.kind]));
    const { entries, total } = await this.stores.nodes.listAudit([...kinds.keys()], {
      limit,
      offset: page.offset,
    });
    const history = entries.map((e) => {
      const view: AuditView = { ...e, level: kinds.get(e.node_id) ?? 'team' };
      if (!includeFull) delete view.full_config;
      return view;
    });
    return { history, total, limit, offset: page.offset };
  }

  // ---- updates -------------------------------------------------------------------------------

  /** Admin update of any node's own config: validated, applied at once, never needs approval. */
  async updateNodeConfig(
    nodeId: string,
    patch: unknown,
    changedBy: string,
  ): Promise<ConfigUpdateResult> {
    await this.requireNode(nodeId);
    const checked = checkPatchShape(patch);
    return this.apply(nodeId, checked, changedBy || ADMIN_IDENTITY);
  }

  /**
   * PUT /config/me: validated, then either applied (deep-merged into the team's overrides) or,
   * when the team's effective `feature_flags.require_approval` is on, held as a change request.
   */
  async updateTeamConfig(
    teamId: string,
    patch: unknown,
    changedBy: string,
  ): Promise<TeamUpdateOutcome> {
    const team = await this.requireNode(teamId);
    if (team.kind !== 'team') throw invalidRequest(`node ${teamId} is not a team`);
    const checked = checkPatchShape(patch);
    const effective = await this.getEffective(teamId);
    const flags = effective.config['feature_flags'];
    const needsApproval = isPlainObject(flags) && flags['require_approval'] === true;
    if (!needsApproval) return { applied: await this.apply(teamId, checked, changedBy) };

    const planned = await this.plan(teamId, checked);
    if (Object.keys(planned.diff).length === 0) {
      return {
        applied: {
          message: 'No changes',
          version: planned.current.version,
          changed_fields: [],
          effective_config: planned.effective,
          warnings: planned.warnings,
        },
      };
    }
    const approval = effective.config['approval'];
    const approvers =
      isPlainObject(approval) && Array.isArray(approval['approvers'])
        ? approval['approvers'].filter((a): a is string => typeof a === 'string')
        : [];
    const cr = await this.changeRequests.open({
      teamId,
      requestedBy: changedBy,
      approvers,
      // as the team sees it: an inherited value is the `old` of a field the team did not set
      changes: diffToJson(effectiveDiff(planned.diff, effective.config, planned.effective)),
      patch: checked,
    });
    return { change_request: cr, warnings: planned.warnings };
  }

  // ---- internals -----------------------------------------------------------------------------

  private effectiveOf(lineage: NodeRecord[], levels: JsonObject[]): JsonObject {
    const self = lineage[lineage.length - 1]!;
    return effectiveConfig(
      levels,
      self.kind === 'team'
        ? { team_node_id: self.node_id, team_name: self.name, org_id: self.org_id }
        : undefined,
    );
  }

  /** The node's next own config for a patch, validated against its lineage. */
  private async plan(nodeId: string, patch: JsonObject) {
    const lineage = await this.lineage(nodeId);
    const configs = await this.stores.nodes.getConfigs(lineage.map((n) => n.node_id));
    const current = configs[configs.length - 1]!;
    const next = mergePatch(current.config, patch);
    const diff = diffConfigs(current.config, next);
    const levels = [...configs.slice(0, -1).map((c) => c.config), next];
    const effective = this.effectiveOf(lineage, levels);
    const changed = Object.keys(diff).length > 0;
    const merged = changed ? mergeLevels(levels) : {};
    const self = lineage[lineage.length - 1]!;
    const listed = changed
      ? await toolListingCheck({
          catalog: this.tools,
          teamId: self.kind === 'team' ? self.node_id : undefined,
          levels,
          merged,
          diff,
        })
      : { problems: [], warnings: [] };
    // Every problem at once: types of the patch, references in the merged result, tool lists.
    const problems = [
      ...patchProblems(patch, current.config),
      ...secretScopeProblems(patch, self, orgSecretGrants(configs[0]?.config)),
      ...urlCredentialProblems(patch),
      ...(changed ? referenceProblems(levels, merged) : []),
      ...listed.problems,
    ];
    if (problems.length) throw validationError(problems);
    if (Buffer.byteLength(JSON.stringify(next)) > CONFIG_LIMITS.maxBytes) {
      throw invalidRequest(`the node's config would exceed ${CONFIG_LIMITS.maxBytes} bytes`);
    }
    const warnings = [...reservedFieldWarnings(patch), ...listed.warnings];
    return { lineage, current, next, diff, effective, warnings };
  }

  private apply(
    nodeId: string,
    patch: JsonObject,
    changedBy: string,
    approvedBy?: string,
  ): Promise<ConfigUpdateResult> {
    const prev = this.writeQueues.get(nodeId) ?? Promise.resolve();
    const run = prev.then(
      () => this.applyNow(nodeId, patch, changedBy, approvedBy),
      () => this.applyNow(nodeId, patch, changedBy, approvedBy),
    );
    const tail = run.catch(() => undefined);
    this.writeQueues.set(nodeId, tail);
    void tail.then(() => {
      if (this.writeQueues.get(nodeId) === tail) this.writeQueues.delete(nodeId);
    });
    return run;
  }

  private async applyNow(
    nodeId: string,
    patch: JsonObject,
    changedBy: string,
    approvedBy?: string,
  ): Promise<ConfigUpdateResult> {
    for (let attempt = 0; attempt < this.maxWriteAttempts; attempt++) {
      const p = await this.plan(nodeId, patch);
      const changed = Object.keys(p.diff);
      if (changed.length === 0) {
        return {
          message: 'No changes',
          version: p.current.version,
          changed_fields: [],
          effective_config: p.effective,
          warnings: p.warnings,
        };
      }
      const ok = await this.stores.nodes.writeConfig({
        node_id: nodeId,
        expected_version: p.current.version,
        config: p.next,
        audit: {
          changed_at: new Date().toISOString(),
          changed_by: changedBy,
          ...(approvedBy ? { approved_by: approvedBy } : {}),
          diff: diffToJson(p.diff),
          full_config: p.effective,
        },
      });
      if (!ok) {
        // Another writer got this version first: recompute from the new state and try again.
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 * (attempt + 1))));
        continue;
      }
      const version = p.current.version + 1;
      this.cache.invalidate(nodeId);
      await this.announceChange(p.lineage[p.lineage.length - 1]!, version, changed, changedBy);
      return {
        message: 'Configuration updated',
        version,
        changed_fields: changed,
        effective_config: p.effective,
        warnings: p.warnings,
      };
    }
    throw conflict(`node ${nodeId} is being changed by too many writers; try again`);
  }

  /** One config.changed per affected team: the node itself, or every team below a group/org. */
  private async announceChange(
    node: NodeRecord,
    version: number,
    changedFields: string[],
    changedBy: string,
  ) {
    const teams = node.kind === 'team' ? [node.node_id] : await this.teamsBelow(node.node_id);
    for (const team of teams) {
      await this.publish(Subjects.configChanged, {
        ...eventEnvelope(team),
        node_id: node.node_id,
        version,
        changed_fields: changedFields,
        changed_by: changedBy,
      });
    }
  }

  private async teamsBelow(nodeId: string): Promise<string[]> {
    const out: string[] = [];
    const queue = [nodeId];
    while (queue.length) {
      const id = queue.shift()!;
      for (const child of await this.stores.nodes.listNodes({ parent_id: id })) {
        if (child.kind === 'team') out.push(child.node_id);
        else queue.push(child.node_id);
      }
    }
    return out;
  }

  private async requireNode(nodeId: string): Promise<NodeRecord> {
    if (!NODE_ID_PATTERN.test(nodeId))
      throw invalidRequest(`malformed node id "${nodeId.slice(0, 80)}"`);
    const node = await this.stores.nodes.getNode(nodeId);
    if (!node) throw notFound(`node ${nodeId} not found`);
    return node;
  }

  /** The node's lineage, root first (cached: nodes never move). */
  private async lineage(nodeId: string): Promise<NodeRecord[]> {
    const hit = this.lineages.get(nodeId);
    if (hit) return hit;
    const chain: NodeRecord[] = [await this.requireNode(nodeId)];
    for (let parent = chain[0]!.parent_id; parent;) {
      const p = await this.stores.nodes.getNode(parent);
      if (!p || chain.length > 64) break;
      chain.unshift(p);
      parent = p.parent_id;
    }
    this.lineages.set(nodeId, chain);
    return chain;
  }
}
