import { FORBIDDEN_KEYS, isPlainObject, type JsonObject } from './json-value';

/**
 * Deep merge per the spec's merge rules: objects combine key by key, a scalar or array from the
 * later level replaces the earlier value (arrays are never concatenated). Inputs are not modified.
 * Prototype keys are skipped defensively; validation rejects them before anything is merged.
 */
export function deepMerge(base: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(base)) {
    if (FORBIDDEN_KEYS.has(k)) continue;
    out[k] = isPlainObject(v) ? deepMerge({}, v) : v;
  }
  for (const [k, v] of Object.entries(patch)) {
    if (FORBIDDEN_KEYS.has(k) || v === undefined) continue;
    const prev = out[k];
    out[k] = isPlainObject(v) ? deepMerge(isPlainObject(prev) ? prev : {}, v) : v;
  }
  return out;
}

/** Merges levels in order (organization root first, team last). */
export function mergeLevels(levels: JsonObject[]): JsonObject {
  return levels.reduce<JsonObject>((acc, level) => deepMerge(acc, level), {});
}

/**
 * JSON Merge Patch (RFC 7396) of a node's own config: objects merge key by key, `null` deletes
 * the key (so the value inherited from the levels above applies again), arrays and scalars
 * replace. Inputs are not modified; prototype keys are skipped as in `deepMerge`.
 */
export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(target)) {
    if (FORBIDDEN_KEYS.has(k)) continue;
    out[k] = isPlainObject(v) ? deepMerge({}, v) : v;
  }
  for (const [k, v] of Object.entries(patch)) {
    if (FORBIDDEN_KEYS.has(k) || v === undefined) continue;
    if (v === null) {
      delete out[k];
      continue;
    }
    const prev = out[k];
    out[k] = isPlainObject(v) ? mergePatch(isPlainObject(prev) ? prev : {}, v) : v;
  }
  return out;
}
