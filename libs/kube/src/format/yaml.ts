import { stringify } from 'yaml';

/** Drops what `kubectl get -o yaml` users never want to read and makes Dates plain strings. */
function clean(value: unknown, isMetadata: boolean): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => clean(v, false));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      if (isMetadata && k === 'managedFields') continue;
      out[k] = clean(v, k === 'metadata');
    }
    return out;
  }
  return value;
}

/** An object as `kubectl get -o yaml` prints it, without `metadata.managedFields`. */
export function toYaml(obj: unknown): string {
  return stringify(clean(obj, false), { lineWidth: 0, aliasDuplicateObjects: false });
}
