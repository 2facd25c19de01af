import {
  DomainError,
  invalidField,
  invalidRequest,
  validationError,
  type ErrorDetail,
} from '@inquest/errors';
import {
  BUILTIN_TOOLS,
  CONFIG_LIMITS,
  ConfigDocumentSchema,
  IMMUTABLE_FIELDS,
  McpServerEntrySchema,
  type McpServerEntry,
} from './config.schema';
import { FORBIDDEN_KEYS, isPlainObject, type JsonObject } from './json-value';

const joinPath = (path: readonly PropertyKey[]) => path.map((p) => String(p)).join('.');

/**
 * Structural problems of a JSON value that must never be merged: prototype keys, nesting deeper
 * than the limit, and values JSON cannot carry.
 */
export function jsonShapeProblems(
  value: unknown,
  maxDepth: number = CONFIG_LIMITS.maxDepth,
): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const visit = (v: unknown, path: string[], depth: number): void => {
    const here = path.length ? path.join('.') : '(root)';
    if (depth > maxDepth) {
      out.push({ field: here, error: `nesting deeper than ${maxDepth} levels` });
      return;
    }
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) out.push({ field: here, error: 'not a JSON number' });
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, [...path, String(i)], depth + 1));
      return;
    }
    if (isPlainObject(v)) {
      for (const k of Object.keys(v)) {
        if (FORBIDDEN_KEYS.has(k)) {
          out.push({ field: [...path, k].join('.'), error: `key "${k}" is not allowed` });
          continue;
        }
        visit(v[k], [...path, k], depth + 1);
      }
      return;
    }
    out.push({ field: here, error: 'not a JSON value' });
  };
  visit(value, [], 1);
  return out;
}

/** Type problems of a config document (or patch) against the schema, every one with its path. */
export function schemaProblems(doc: JsonObject): ErrorDetail[] {
  const r = ConfigDocumentSchema.safeParse(doc);
  if (r.success) return [];
  return r.error.issues.map((i) => ({ field: joinPath(i.path) || '(root)', error: i.message }));
}

/**
 * Problems of a JSON Merge Patch against the schema. A `null` member deletes the key: it needs no
 * type, but it must name a known key (a typo in a deletion would silently do nothing), unless the
 * node's own config holds that key (so a key stored before it became unknown can be removed).
 */
export function patchProblems(patch: JsonObject, own: JsonObject = {}): ErrorDetail[] {
  const deletions = new Set<string>();
  const probe = (v: unknown, path: string[]): unknown => {
    if (!isPlainObject(v)) return v;
    const out: JsonObject = {};
    for (const [k, child] of Object.entries(v)) {
      if (child === null) {
        deletions.add(joinPath([...path, k]));
        out[k] = undefined;
      } else out[k] = probe(child, [...path, k]);
    }
    return out;
  };
  const r = ConfigDocumentSchema.safeParse(probe(patch, []));
  if (r.success) return [];
  const held = (path: PropertyKey[]) => {
    let node: unknown = own;
    for (const p of path) {
      if (!isPlainObject(node) || !Object.prototype.hasOwnProperty.call(node, String(p)))
        return false;
      node = node[String(p)];
    }
    return true;
  };
  return r.error.issues
    .filter((i) => {
      if (!deletions.has(joinPath(i.path))) return true;
      const unknownKey = (i as { params?: { unknown_key?: boolean } }).params?.unknown_key === true;
      return unknownKey && !held(i.path);
    })
    .map((i) => ({ field: joinPath(i.path) || '(root)', error: i.message }));
}

/**
 * First gate of an update: the patch must be a JSON object within the size and depth limits,
 * without prototype keys and naming no immutable field. Throws the domain error the API answers
 * with; returns the patch typed as an object. Types are checked by `schemaProblems` (kept apart so
 * they can be reported together with the reference problems of the merged config).
 */
export function checkPatchShape(patch: unknown): JsonObject {
  if (!isPlainObject(patch)) throw invalidRequest('the body must be a JSON object');
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(patch));
  } catch {
    throw invalidRequest('the body is not valid JSON');
  }
  if (size > CONFIG_LIMITS.maxBytes) {
    throw new DomainError(
      'invalid_input',
      'payload_too_large',
      `the config must not exceed ${CONFIG_LIMITS.maxBytes} bytes`,
    );
  }
  const shape = jsonShapeProblems(patch);
  if (shape.length) throw validationError(shape);
  for (const f of IMMUTABLE_FIELDS) {
    if (Object.prototype.hasOwnProperty.call(patch, f)) throw invalidField(f, `${f} is immutable`);
  }
  return patch;
}

/** The server entries a node's effective `mcp_servers` stands for, names resolved. */
export interface ResolvedServers {
  servers: McpServerEntry[];
  problems: ErrorDetail[];
}

/**
 * Resolves string elements of the effective `mcp_servers` to entry objects defined at the same or
 * any ancestor level (nearest wins). `levels` are the nodes' own configs, root first.
 */
export function resolveMcpServers(levels: JsonObject[], effectiveList: unknown): ResolvedServers {
  const servers: McpServerEntry[] = [];
  const problems: ErrorDetail[] = [];
  if (!Array.isArray(effectiveList)) return { servers, problems };
  const lookup = (name: string): McpServerEntry | undefined => {
    for (let i = levels.length - 1; i >= 0; i--) {
      const list = levels[i]?.['mcp_servers'];
      if (!Array.isArray(list)) continue;
      for (const e of list) {
        if (isPlainObject(e) && e['name'] === name) {
          const r = McpServerEntrySchema.safeParse(e);
          if (r.success) return r.data;
        }
      }
    }
    return undefined;
  };
  effectiveList.forEach((item, i) => {
    if (typeof item === 'string') {
      const found = lookup(item);
      if (found) servers.push(found);
      else
        problems.push({
          field: `mcp_servers.${i}`,
          error: `MCP server "${item}" is not configured at this or any parent level`,
        });
    } else {
      const r = McpServerEntrySchema.safeParse(item);
      if (r.success) servers.push(r.data);
    }
  });
  return { servers, problems };
}

/**
 * Cross-reference rules checked on a node's merged config: referenced MCP servers are configured,
 * and every tool an agent enables or disables exists (a built-in tool, or `<server>:<tool>` of a
 * configured, enabled server).
 */
export function referenceProblems(levels: JsonObject[], merged: JsonObject): ErrorDetail[] {
  const { servers, problems } = resolveMcpServers(levels, merged['mcp_servers']);
  const enabled = new Set(servers.filter((s) => s.enabled !== false).map((s) => s.name));
  const known = new Set<string>(BUILTIN_TOOLS);
  const agents = merged['agents'];
  if (isPlainObject(agents)) {
    for (const [agent, cfg] of Object.entries(agents)) {
      if (!isPlainObject(cfg)) continue;
      for (const key of ['enable_extra_tools', 'disable_default_tools']) {
        const list = cfg[key];
        if (!Array.isArray(list)) continue;
        list.forEach((tool, i) => {
          if (typeof tool !== 'string') return;
          const field = `agents.${agent}.${key}.${i}`;
          if (known.has(tool)) return;
          const sep = tool.indexOf(':');
          if (sep <= 0 || sep === tool.length - 1) {
            problems.push({
              field,
              error: `unknown tool "${tool}": use a built-in tool (${BUILTIN_TOOLS.join(', ')}) or <server>:<tool>`,
            });
          } else if (!enabled.has(tool.slice(0, sep))) {
            problems.push({
              field,
              error: `tool "${tool}" names MCP server "${tool.slice(0, sep)}", which is not configured or not enabled`,
            });
          }
        });
      }
    }
  }
  return problems;
}
