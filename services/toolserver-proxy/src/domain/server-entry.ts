/** One MCP server entry of a team's effective config, resolved (string references followed). */
export interface ServerEntry {
  name: string;
  url: string;
  transport: 'http' | 'mcp';
  auth?: { type: 'bearer'; token: string } | { type: 'api_key'; header: string; key: string };
  /** seconds */
  timeout?: number;
  enabled: boolean;
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
 */
export function resolveServerEntries(
  effective: Obj,
  raw?: { lineage: string[]; configs: Obj },
): ResolvedServers {
  const out: ResolvedServers = { servers: [], problems: [] };
  const list = Array.isArray(effective.mcp_servers) ? effective.mcp_servers : [];
  const sameLevel = list.filter(isObj);
  const levels: Obj[][] = [sameLevel];
  if (raw) {
    for (const node of [...raw.lineage].reverse()) {
      const cfg = raw.configs[node];
      const servers =
        isObj(cfg) && Array.isArray(cfg.mcp_servers) ? cfg.mcp_servers.filter(isObj) : [];
      levels.push(servers);
    }
  }
  const seen = new Set<string>();
  for (const element of list) {
    let entry: Obj | undefined;
    if (typeof element === 'string') {
      for (const level of levels) {
        entry = level.find((e) => e.name === element);
        if (entry) break;
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
