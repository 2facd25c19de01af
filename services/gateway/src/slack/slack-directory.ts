import { secretScopeOf, type SecretResolver, type SecretScope } from '@inquest/secrets';
import { nodeLevelOf } from '../grpc/config-messages';
import type { ServiceClients } from '../routes/gateway-deps';

/** A team reachable through the Slack app, from its effective configuration. */
export interface SlackTeam {
  teamId: string;
  /** chat_channel without a leading `#`: a channel id (C…) or name */
  channel?: string;
  /** slack.workspace_id: where its direct messages come from */
  workspaceId?: string;
  /** tokens_vault_path.slack_bot_token and the scope it resolves in */
  botTokenRef?: string;
  botTokenScope: SecretScope;
}

/** The Slack app as configured on the node its request URLs name (`?node=`). */
export interface SlackApp {
  nodeId: string;
  signingSecret: string;
  /** the node's own bot token reference (answers in channels no team claims) */
  botTokenRef?: string;
  teams: SlackTeam[];
}

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/**
 * Reads the Slack app's settings (signing secret, teams below the node and their channels) from
 * config-hierarchy and the secret store, and keeps them for `ttlMs` so that Slack's requests are
 * acknowledged without a round of gRPC calls each.
 */
export class SlackDirectory {
  private readonly cache = new Map<string, { at: number; app: Promise<SlackApp | undefined> }>();
  private readonly tokens = new Map<string, { at: number; token: Promise<string> }>();

  constructor(
    private readonly o: {
      config: ServiceClients['config'];
      secrets: SecretResolver;
      ttlMs?: number;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** The app of `nodeId`; undefined when the node does not exist or sets no signing secret. */
  app(nodeId: string, requestId: string): Promise<SlackApp | undefined> {
    const hit = this.cache.get(nodeId);
    if (hit && this.now() - hit.at < (this.o.ttlMs ?? 30_000)) return hit.app;
    const app = this.load(nodeId, requestId);
    // unauthenticated callers choose `?node=`: the memory of answers stays bounded
    if (this.cache.size >= 1000) this.cache.clear();
    this.cache.set(nodeId, { at: this.now(), app });
    // a failure (service down) is not remembered
    app.catch(() => this.cache.delete(nodeId));
    return app;
  }

  /** A bot token, resolved within its scope (cached like the app). */
  botToken(ref: string, scope: SecretScope): Promise<string> {
    const key = `${scope.owner}\u0000${ref}`;
    const hit = this.tokens.get(key);
    if (hit && this.now() - hit.at < (this.o.ttlMs ?? 30_000)) return hit.token;
    const token = this.o.secrets.resolve(ref, scope);
    if (this.tokens.size >= 1000) this.tokens.clear();
    this.tokens.set(key, { at: this.now(), token });
    token.catch(() => this.tokens.delete(key));
    return token;
  }

  /** The team's current approval.approvers (read fresh: a decision must not use a stale list). */
  async approvers(teamId: string, requestId: string): Promise<string[]> {
    const eff = await this.o.config.getEffectiveConfig(
      { team_id: teamId },
      { ctx: { requestId, principal: 'slack', teamId }, deadlineMs: 2000 },
    );
    const list = obj(obj(eff.config)['approval'])['approvers'];
    return Array.isArray(list) ? list.filter((a): a is string => typeof a === 'string') : [];
  }

  private async load(nodeId: string, requestId: string): Promise<SlackApp | undefined> {
    const ctx = { requestId, principal: 'slack' };
    let node;
    try {
      node = await this.o.config.getNode({ node_id: nodeId }, { ctx, deadlineMs: 2000 });
    } catch (err) {
      if ((err as { code?: unknown }).code === 'not_found') return undefined;
      throw err;
    }
    const own = obj(node.config);
    const secretRef = str(obj(own['slack'])['signing_secret']);
    if (!secretRef) return undefined;
    const signingSecret = await this.o.secrets.resolve(secretRef, secretScopeOf(nodeId));
    const teamIds: string[] = [];
    if (node.node && nodeLevelOf(node.node) === 'team') teamIds.push(nodeId);
    else {
      // breadth-first through groups down to the teams
      const queue = [nodeId];
      while (queue.length && teamIds.length < 1000) {
        const parent = queue.shift() as string;
        const res = await this.o.config.listNodes({ parent_id: parent }, { ctx, deadlineMs: 2000 });
        for (const n of res.nodes) {
          if (nodeLevelOf(n) === 'team') teamIds.push(n.node_id);
          else queue.push(n.node_id);
        }
      }
    }
    const teams = await Promise.all(
      teamIds.map(async (teamId): Promise<SlackTeam> => {
        const eff = await this.o.config.getEffectiveConfig(
          { team_id: teamId },
          { ctx: { ...ctx, teamId }, deadlineMs: 2000 },
        );
        const c = obj(eff.config);
        const wire = eff.secret_scopes['tokens_vault_path.slack_bot_token'];
        const team: SlackTeam = {
          teamId,
          botTokenScope: wire
            ? { owner: wire.owner_node_id, prefixes: wire.prefixes }
            : secretScopeOf(teamId),
        };
        const channel = str(c['chat_channel'])?.replace(/^#/, '');
        if (channel) team.channel = channel;
        const ws = str(obj(c['slack'])['workspace_id']);
        if (ws) team.workspaceId = ws;
        const token = str(obj(c['tokens_vault_path'])['slack_bot_token']);
        if (token) team.botTokenRef = token;
        return team;
      }),
    );
    const app: SlackApp = { nodeId, signingSecret, teams };
    const ownToken = str(obj(own['tokens_vault_path'])['slack_bot_token']);
    if (ownToken) app.botTokenRef = ownToken;
    return app;
  }
}
