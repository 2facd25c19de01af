import { secretScopeOf, type SecretScope } from '@inquest/secrets';

/** One MCP server entry of a team's effective config, resolved (string references followed). */
export interface ServerEntry {
  name: string;
  url: string;
  transport: 'http' | 'mcp';
  auth?: { type: 'bearer'; token: string } | { type: 'api_key'; header: string; key: string };
  /** seconds */
  timeout?: number;
  enabled: boolean;
  /**
   * Where `auth` may point: the scope of the node whose config set the entry (an inherited entry
   * resolves under the node that set it). Set on every entry `resolveServerEntries` returns.
   */
  authScope?: SecretScope;
}

/** Wire form of a secret scope (config-hierarchy's GetEffectiveConfig `secret_scopes`). */
export interface WireSecretScope {
  owner_node_id: string;
  prefixes: string[];
}

export interface ResolvedServers {
  servers: ServerEntry[];
  /** entries that could not be used, with the reason (reported as unhealthy servers) */
  problems: Array<{ name: string; url: string; error: string }>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when the effective list names servers by string, so ancestor configs are needed. */
export function hasStringReferences(effective: Obj): boolean {
  const list = effective.mcp_servers;
  return Array.isArray(list) && list.some((e) => typeof e === 'string');
}

/**
 * Resolves `mcp_servers` of the effective config. A string names an entry defined at the same
 * level (an object in the same list) or at an ancestor: the nearest level wins. `lineage` runs
 * from the organization root to the team; `configs` holds each node's own config.
 *
 * Each entry carries the scope its `auth` reference resolves in: from `scopes.secretScopes`
 * (config-hierarchy's answer, by dot path), else the scope of the ancestor that defines a named
 * entry, else the team's own scope: never wider than what the node that set it may use.
 */
export function resolveServerEntries(
  effective: Obj,
  raw: { lineage: string[]; configs: Obj } | undefined,
  scopes: { teamId: string; secretScopes?: Record<string, WireSecretScope> },
): ResolvedServers {
  const out: ResolvedServers = { servers: [], problems: [] };
  const list = Array.isArray(effective.mcp_servers) ? effective.mcp_servers : [];
  const orgConfig = raw?.lineage[0] === undefined ? undefined : raw.configs[raw.lineage[0]];
  const orgSecrets = isObj(orgConfig) && isObj(orgConfig.secrets) ? orgConfig.secrets : undefined;
  const grants = orgSecrets?.allowed_prefixes;
  const scopeAt = (index: number, entry: Obj): SecretScope => {
    const auth = isObj(entry.auth) ? entry.auth : {};
    const field = `mcp_servers.${index}.auth.${auth.type === 'api_key' ? 'key' : 'token'}`;
    const wire = scopes.secretScopes?.[field];
    return wire
      ? { owner: wire.owner_node_id, prefixes: wire.prefixes }
      : secretScopeOf(scopes.teamId);
  };
  const levels: Array<{ entries: Array<{ entry: Obj; scope: () => SecretScope }> }> = [
    {
      entries: list.flatMap((e, i) => (isObj(e) ? [{ entry: e, scope: () => scopeAt(i, e) }] : [])),
    },
  ];
  if (raw) {
    for (const node of [...raw.lineage].reverse()) {
      const cfg = raw.configs[node];
      const servers =
        isObj(cfg) && Array.isArray(cfg.mcp_servers) ? cfg.mcp_servers.filter(isObj) : [];
      levels.push({
        entries: servers.map((e) => ({ entry: e, scope: () => secretScopeOf(node, grants) })),
      });
    }
  }
  const seen = new Set<string>();
  for (const [index, element] of list.entries()) {
    let entry: Obj | undefined;
    let scope: SecretScope | undefined;
    if (typeof element === 'string') {
      for (const level of levels) {
        const found = level.entries.find((e) => e.entry.name === element);
        if (found) {
          entry = found.entry;
          scope = found.scope();
          break;
        }
      }
      if (!entry) {
        out.problems.push({
          name: element,
          url: '',
          error: `server ${element} is not defined at this or any ancestor level`,
        });
        continue;
      }
    } else if (isObj(element)) {
      entry = element;
      scope = scopeAt(index, element);
    } else {
      continue;
    }
    const parsed = parseEntry(entry);
    if ('error' in parsed) {
      out.problems.push({
        name: String(entry.name ?? ''),
        url: String(entry.url ?? ''),
        error: parsed.error,
      });
      continue;
    }
    if (seen.has(parsed.name)) continue;
    seen.add(parsed.name);
    parsed.authScope = scope ?? secretScopeOf(scopes.teamId);
    if (parsed.enabled) out.servers.push(parsed);
  }
  return out;
}

function parseEntry(e: Obj): ServerEntry | { error: string } {
  if (typeof e.name !== 'string' || !e.name) return { error: 'entry has no name' };
  if (typeof e.url !== 'string' || !/^https?:\/\//i.test(e.url))
    return { error: `server ${e.name}: url must be absolute http(s)` };
  const entry: ServerEntry = {
    name: e.name,
    url: e.url.replace(/\/+$/, ''),
    transport: e.transport === 'mcp' ? 'mcp' : 'http',
    enabled: e.enabled !== false,
  };
  if (typeof e.timeout === 'number' && Number.isFinite(e.timeout) && e.timeout > 0)
    entry.timeout = e.timeout;
  if (isObj(e.auth)) {
    const a = e.auth;
    if (a.type === 'bearer' && typeof a.token === 'string')
      entry.auth = { type: 'bearer', token: a.token };
    else if (a.type === 'api_key' && typeof a.header === 'string' && typeof a.key === 'string') {
      entry.auth = { type: 'api_key', header: a.header, key: a.key };
    } else
      return { error: `server ${e.name}: auth must be bearer {token} or api_key {header, key}` };
  }
  return entry;
}
