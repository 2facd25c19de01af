import { FORBIDDEN_KEYS, isPlainObject, jsonEqual, type JsonObject } from './json-value';

/** One changed field: `old`/`new` are undefined when the field is absent on that side. */
export interface FieldChange {
  old: unknown;
  new: unknown;
}

/** dot.path -> change */
export type ConfigDiff = Record<string, FieldChange>;

/**
 * Differences from `before` to `after` as dot paths. Objects present on both sides (or added
 * with content) are descended into; arrays and scalars are leaves, as they are replaced whole
 * by a merge. A removed key is one leaf with `new` undefined.
 */
export function diffConfigs(before: JsonObject, after: JsonObject): ConfigDiff {
  const out: ConfigDiff = {};
  walk(before, after, '', out);
  return out;
}

function walk(a: unknown, b: unknown, path: string, out: ConfigDiff): void {
  const descend =
    (isPlainObject(a) && isPlainObject(b)) ||
    (a === undefined && isPlainObject(b) && Object.keys(b).length > 0);
  if (descend) {
    const ao = (a ?? {}) as JsonObject;
    const bo = b as JsonObject;
    const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
    for (const k of keys) walk(ao[k], bo[k], path ? `${path}.${k}` : k, out);
    return;
  }
  if (!jsonEqual(a, b) && path) out[path] = { old: a, new: b };
}

/** Applies a diff: sets each path to its `new` value, deleting it when `new` is undefined. */
export function applyDiff(base: JsonObject, diff: ConfigDiff): JsonObject {
  const out = structuredClone(base);
  for (const [path, change] of Object.entries(diff)) {
    const parts = path.split('.');
    if (parts.some((p) => FORBIDDEN_KEYS.has(p))) continue;
    let node: JsonObject = out;
    for (const p of parts.slice(0, -1)) {
      if (!isPlainObject(node[p])) node[p] = {};
      node = node[p] as JsonObject;
    }
    const last = parts[parts.length - 1]!;
    if (change.new === undefined) delete node[last];
    else node[last] = structuredClone(change.new);
  }
  return out;
}

/**
 * The paths of a node's own diff with the values its effective config shows before and after:
 * where the node sets nothing, the inherited value (so a change request shows what really changes).
 */
export function effectiveDiff(diff: ConfigDiff, before: JsonObject, after: JsonObject): ConfigDiff {
  const at = (doc: JsonObject, path: string): unknown => {
    let node: unknown = doc;
    for (const p of path.split('.')) {
      if (!isPlainObject(node) || !Object.prototype.hasOwnProperty.call(node, p)) return undefined;
      node = node[p];
    }
    return node;
  };
  const out: ConfigDiff = {};
  for (const path of Object.keys(diff)) out[path] = { old: at(before, path), new: at(after, path) };
  return out;
}

/** JSON form of a diff (absent sides become null), as the API shows it. */
export function diffToJson(diff: ConfigDiff): Record<string, { old: unknown; new: unknown }> {
  const out: Record<string, { old: unknown; new: unknown }> = {};
  for (const [k, v] of Object.entries(diff)) out[k] = { old: v.old ?? null, new: v.new ?? null };
  return out;
}
