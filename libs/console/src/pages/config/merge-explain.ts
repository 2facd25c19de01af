// Where each value of a team's effective config comes from, computed from the raw levels
// (GET /config/me/raw) with the server's own merge (`mergeLevels` of @inquest/config-model):
// objects merge key by key, a scalar or array of a later level replaces the earlier value.
import {
  isPlainObject,
  jsonEqual,
  mergeLevels,
  type JsonObject,
} from '@inquest/config-model/merge';

export type LevelKind = 'org' | 'group' | 'team';

/** One node of the team's lineage with its own config. */
export interface ConfigLevel {
  nodeId: string;
  kind: LevelKind;
  config: JsonObject;
  /** version of the node's own config */
  version: number;
}

/** The raw answer as the console gets it (GET /config/me/raw). */
export interface RawLevels {
  lineage: string[];
  configs: Record<string, unknown>;
  versions?: Record<string, number>;
}

/** Fields the hierarchy sets on a team (never stored at any level). */
export const IDENTITY_FIELDS = ['team_name', 'org_id', 'team_node_id'] as const;

/** The lineage as levels: the root is the org, the last node the team, the rest groups. */
export function levelsFromRaw(raw: RawLevels): ConfigLevel[] {
  const n = raw.lineage.length;
  return raw.lineage.map((nodeId, i) => {
    const own = raw.configs[nodeId];
    return {
      nodeId,
      kind: i === n - 1 && n > 1 ? 'team' : i === 0 ? 'org' : 'group',
      config: isPlainObject(own) ? own : {},
      version: raw.versions?.[nodeId] ?? 0,
    };
  });
}

/** A leaf value of a config: a scalar, an array or an empty object (objects are descended). */
export interface Leaf {
  path: string;
  value: unknown;
}

/** Leaves of a document as dot paths, in document order. Arrays are leaves: a merge replaces them. */
export function leavesOf(doc: unknown, prefix = ''): Leaf[] {
  if (!isPlainObject(doc) || (Object.keys(doc).length === 0 && prefix)) {
    return prefix ? [{ path: prefix, value: doc }] : [];
  }
  const out: Leaf[] = [];
  for (const [k, v] of Object.entries(doc)) out.push(...leavesOf(v, prefix ? `${prefix}.${k}` : k));
  return out;
}

/** The value at a dot path, and whether it is there at all. */
export function valueAt(doc: unknown, path: string): { found: boolean; value: unknown } {
  let node: unknown = doc;
  for (const p of path.split('.')) {
    if (!isPlainObject(node) || !Object.prototype.hasOwnProperty.call(node, p)) {
      return { found: false, value: undefined };
    }
    node = node[p];
  }
  return { found: true, value: node };
}

export type Origin =
  | { kind: 'level'; level: ConfigLevel }
  /** team_name, org_id, team_node_id: set by the hierarchy */
  | { kind: 'hierarchy' }
  /** the effective config shows it but no level sets it (or not with this value) */
  | { kind: 'unknown' };

/** One row of the explanation: a leaf of the effective config and what set it. */
export interface ExplainedValue {
  path: string;
  /** the effective value (as the API answered it) */
  value: unknown;
  origin: Origin;
  /** each level's own value at this path (undefined where the level does not set it) */
  byLevel: { level: ConfigLevel; found: boolean; value: unknown }[];
  /** for `mcp_servers`: each server name and the level whose entry it resolves to */
  servers?: { name: string; definedAt: ConfigLevel | undefined }[];
}

/**
 * Explains the effective config leaf by leaf. The value of a leaf comes from the last level that
 * sets that path: a later level that replaced an ancestor of the path with a scalar or array
 * would have removed the leaf, and one that set the ancestor to an object keeps it. Values are
 * checked against a merge of the levels; where the API's effective value differs (identity
 * fields, MCP server names resolved to entries, a change in between) that is said, not guessed.
 */
export function explainEffective(levels: ConfigLevel[], effective: JsonObject): ExplainedValue[] {
  const merged = mergeLevels(levels.map((l) => l.config));
  const { version: _version, ...shown } = effective;
  const rows: ExplainedValue[] = [];
  const explain = (path: string, value: unknown): ExplainedValue => {
    const byLevel = levels.map((level) => ({ level, ...valueAt(level.config, path) }));
    const top = path.split('.')[0]!;
    if ((IDENTITY_FIELDS as readonly string[]).includes(top)) {
      return { path, value, origin: { kind: 'hierarchy' }, byLevel };
    }
    let last: ConfigLevel | undefined;
    for (const b of byLevel) if (b.found) last = b.level;
    const m = valueAt(merged, path);
    const origin: Origin = last ? { kind: 'level', level: last } : { kind: 'unknown' };
    const row: ExplainedValue = { path, value, origin, byLevel };
    if (path === 'mcp_servers' && last && Array.isArray(value)) {
      // the API shows names resolved to entries: explain each name instead of comparing
      row.servers = resolveServerOrigins(levels, levels.indexOf(last));
    } else if (!m.found || !jsonEqual(m.value, value)) {
      row.origin = { kind: 'unknown' };
    }
    return row;
  };
  for (const leaf of leavesOf(shown)) rows.push(explain(leaf.path, leaf.value));
  return rows;
}

/**
 * The level whose entry each name of the list set at `from` resolves to: an object entry is its
 * own level's; a string names an entry at that level or the nearest level above (nearest wins),
 * as the server resolves `mcp_servers` names.
 */
export function resolveServerOrigins(
  levels: ConfigLevel[],
  from: number,
): { name: string; definedAt: ConfigLevel | undefined }[] {
  const list = levels[from]?.config['mcp_servers'];
  if (!Array.isArray(list)) return [];
  const entryNamed = (level: ConfigLevel, name: string): boolean => {
    const own = level.config['mcp_servers'];
    return Array.isArray(own) && own.some((e) => isPlainObject(e) && e['name'] === name);
  };
  return list.map((el) => {
    if (isPlainObject(el)) return { name: String(el['name'] ?? ''), definedAt: levels[from] };
    const name = String(el);
    for (let i = from; i >= 0; i--) {
      if (entryNamed(levels[i]!, name)) return { name, definedAt: levels[i] };
    }
    return { name, definedAt: undefined };
  });
}

/**
 * Every path any level sets, with each level's own value and the effective value: the rows of
 * the side-by-side view. A path a level sets that the effective config no longer has (an
 * ancestor replaced by a later level) shows with `effective.found` false.
 */
export function sideBySide(
  levels: ConfigLevel[],
  effective: JsonObject,
): { path: string; effective: { found: boolean; value: unknown }; winner?: ConfigLevel }[] {
  const explained = new Map(explainEffective(levels, effective).map((r) => [r.path, r]));
  const paths: string[] = [];
  const seen = new Set<string>();
  for (const level of levels) {
    for (const leaf of leavesOf(level.config)) {
      if (!seen.has(leaf.path)) {
        seen.add(leaf.path);
        paths.push(leaf.path);
      }
    }
  }
  return paths.sort().map((path) => {
    const e = explained.get(path);
    const origin = e?.origin;
    return {
      path,
      effective: e ? { found: true, value: e.value } : valueAt(effective, path),
      ...(origin?.kind === 'level' ? { winner: origin.level } : {}),
    };
  });
}
