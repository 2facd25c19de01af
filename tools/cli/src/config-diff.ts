/** Dot-path diff of two JSON values: leaves that were added, changed or removed. */
export interface PathChange {
  path: string;
  old: unknown;
  new: unknown;
  kind: 'added' | 'changed' | 'removed';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function diffPaths(before: unknown, after: unknown, prefix = ''): PathChange[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => {
      const p = prefix ? `${prefix}.${k}` : k;
      if (!(k in after))
        return [{ path: p, old: before[k], new: undefined, kind: 'removed' as const }];
      if (!(k in before))
        return [{ path: p, old: undefined, new: after[k], kind: 'added' as const }];
      return diffPaths(before[k], after[k], p);
    });
  }
  // Arrays are replaced as a whole by the merge rules, so they are compared as a whole.
  return JSON.stringify(before) === JSON.stringify(after)
    ? []
    : [{ path: prefix, old: before, new: after, kind: 'changed' }];
}

/**
 * The JSON Merge Patch (RFC 7396) that PUT /config/me needs to apply the changes: changed and
 * added values as they are, a removed key as `null` (the inherited value applies again).
 */
export function patchFrom(changes: PathChange[]): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const c of changes) setPath(patch, c.path, c.kind === 'removed' ? null : c.new);
  return patch;
}

/** `a.b.c`, value -> {a: {b: {c: value}}} merged into target. */
export function setPath(
  target: Record<string, unknown>,
  path: string,
  value: unknown,
): Record<string, unknown> {
  const parts = path.split('.');
  if (parts.some((p) => p === '')) throw new Error(`invalid path "${path}"`);
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (!isObject(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
  return target;
}

export function getPath(source: unknown, path: string): unknown {
  let node: unknown = source;
  for (const part of path.split('.')) {
    if (!isObject(node) || !(part in node)) return undefined;
    node = node[part];
  }
  return node;
}
