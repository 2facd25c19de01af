/** Helpers shared by the MongoDB adapters. */

/** Mongo's duplicate-key error code (a unique index, or `_id`, already holds the value). */
export const DUPLICATE_KEY = 11000;

/**
 * True for a duplicate-key write error. By code, not by class: the driver's error class may
 * come from another module instance (jest realms, two driver copies).
 */
export function isDuplicateKeyError(err: unknown): boolean {
  return (err as { code?: number } | null)?.code === DUPLICATE_KEY;
}

/**
 * A stored document as the port shows it: without `_id` and the adapter's bookkeeping fields
 * (`drop`), and without null or undefined fields (optional fields are unset with null in
 * updates; the port shows them absent).
 */
export function fromMongo<T>(
  doc: object | null | undefined,
  drop: readonly string[] = [],
): T | undefined {
  if (!doc) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (k === '_id' || drop.includes(k) || v === null || v === undefined) continue;
    out[k] = v;
  }
  return out as T;
}
