/** Where a `vault://` reference in an effective config may resolve (wire form of the proto's SecretScope). */
export interface EffectiveSecretScope {
  owner_node_id: string;
  prefixes: string[];
}

/** A team's merged configuration (organization, groups, team) as config-hierarchy computed it. */
export interface EffectiveConfig {
  teamId: string;
  config: Record<string, unknown>;
  /** the team's own config version (an org or group change does not bump it) */
  version: number;
  /** for each `vault://` reference in `config`, by dot path: the scope it resolves in */
  secretScopes: Record<string, EffectiveSecretScope>;
}

/** Per-call options of a read. */
export interface ReadOptions {
  /** aborts this caller's wait (a load shared with other callers keeps running) */
  signal?: AbortSignal;
  /** the x-request-id of the request this read serves */
  requestId?: string;
}

/** What changed: a team, or (without teamId) anything. */
export interface ConfigChange {
  teamId?: string;
  /** the node whose own config changed (the team, or a group or org above it) */
  nodeId?: string;
}

/**
 * The one way a service reads teams' effective configs. Implementations cache by team and drop an
 * entry when `inquest.v1.config.changed` names the team (config-hierarchy publishes one event per
 * team below a changed group or org, so a change anywhere in the lineage reaches every team).
 */
export interface EffectiveConfigSource {
  get(teamId: string, options?: ReadOptions): Promise<EffectiveConfig>;
  /** Forgets one team (after this process changed it), or every team when none is named. */
  invalidate(teamId?: string): void;
  /**
   * Calls `listener` on every change this source hears of (bus events and `invalidate`), so caches
   * derived from effective configs drop with it. Returns the function that removes the listener.
   */
  onChange(listener: (change: ConfigChange) => void): () => void;
  /** Stops listening for changes and closes the transport this source owns. */
  close(): Promise<void>;
}

/** Loads one team's effective config from config-hierarchy (no caching). */
export type EffectiveConfigLoader = (
  teamId: string,
  options: ReadOptions,
) => Promise<EffectiveConfig>;
