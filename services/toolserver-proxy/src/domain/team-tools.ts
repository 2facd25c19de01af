import {
  hasStringReferences,
  resolveServerEntries,
  type ServerEntry,
  type WireSecretScope,
} from './server-entry';
import type { ToolListing } from './tool-catalog';

/** Reads a team's configuration (effective, and raw per level when references need it). */
export interface TeamConfigSource {
  /** The effective config and, by dot path, the scope each `vault://` reference in it resolves in. */
  getEffective(
    teamId: string,
    signal?: AbortSignal,
  ): Promise<{ config: Record<string, unknown>; secretScopes?: Record<string, WireSecretScope> }>;
  getRaw(
    teamId: string,
    signal?: AbortSignal,
  ): Promise<{ lineage: string[]; configs: Record<string, unknown> }>;
}

/** One server's listing as cached for a team. */
export interface CachedListing extends ToolListing {
  expires: number;
}

/** A team's tool configuration: its servers, their problems, its write-action flag. */
export interface TeamTools {
  expires: number;
  /** enabled servers, references resolved */
  servers: ServerEntry[];
  /** configured servers that cannot be used, with the reason */
  problems: Array<{ name: string; url: string; error: string }>;
  /** feature_flags.enable_write_actions */
  writeActions: boolean;
  /** node ids from the organization to the team (known when references were resolved) */
  lineage: string[];
  /** the team's tool listings by server name, dropped with the team */
  listings: Map<string, CachedListing>;
}

/**
 * Each team's tool configuration, loaded from its config once per `ttlMs` and shared by
 * concurrent callers; forgotten when the team (or a node in its lineage) changes.
 */
export class TeamToolConfigs {
  private readonly teams = new Map<string, Promise<TeamTools>>();

  constructor(
    private readonly config: TeamConfigSource,
    private readonly ttlMs: number,
  ) {}

  // Config loads are shared by concurrent callers, so one caller's cancellation must not abort them.
  get(teamId: string, refresh = false): Promise<TeamTools> {
    const cached = this.teams.get(teamId);
    if (cached && !refresh) {
      return cached.then((s) => (s.expires > Date.now() ? s : this.load(teamId)));
    }
    return this.load(teamId);
  }

  /** Forgets a team, and with `nodeId` every team whose lineage holds that node. */
  invalidateTeam(teamId: string, nodeId?: string): void {
    this.teams.delete(teamId);
    if (!nodeId) return;
    // A group or organization change reaches every team below it.
    for (const [id, p] of this.teams) {
      p.then(
        (s) => {
          if (s.lineage.includes(nodeId) && this.teams.get(id) === p) this.teams.delete(id);
        },
        () => undefined,
      );
    }
  }

  invalidateAll(): void {
    this.teams.clear();
  }

  private load(teamId: string): Promise<TeamTools> {
    const p = (async (): Promise<TeamTools> => {
      const { config: effective, secretScopes } = await this.config.getEffective(teamId);
      const raw = hasStringReferences(effective) ? await this.config.getRaw(teamId) : undefined;
      const { servers, problems } = resolveServerEntries(effective, raw, {
        teamId,
        ...(secretScopes ? { secretScopes } : {}),
      });
      const flags = effective.feature_flags as Record<string, unknown> | undefined;
      return {
        expires: Date.now() + this.ttlMs,
        servers,
        problems,
        writeActions: flags?.enable_write_actions === true,
        lineage: raw?.lineage ?? [],
        listings: new Map(),
      };
    })();
    this.teams.set(teamId, p);
    p.catch(() => {
      if (this.teams.get(teamId) === p) this.teams.delete(teamId);
    });
    return p;
  }
}
