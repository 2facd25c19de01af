import { isPlainObject, type JsonObject } from './json-value';

/**
 * Fields of the spec's configuration document that are validated and stored but have no effect
 * yet (`*` stands for any name). An update that sets one is answered with a warning, so nobody
 * believes it does something.
 */
export const RESERVED_FIELDS: readonly { path: string; why: string }[] = [
  { path: 'tools.*.api_key', why: 'tools reach their servers through mcp_servers[].auth' },
  { path: 'tools.*.domain', why: 'no tool reads it' },
  { path: 'a2a_agents', why: 'Inquest does not call other agents' },
  {
    path: 'feature_flags.enable_auto_mitigation',
    why: 'investigations are read-only and propose no actions yet',
  },
];

/** One warning per reserved field a patch sets (a `null` removal sets nothing). */
export function reservedFieldWarnings(patch: JsonObject): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  const visit = (node: unknown, parts: string[], at: string[], why: string): void => {
    if (!parts.length) {
      if (node !== null && node !== undefined)
        out.push({
          field: at.join('.'),
          message: `${at.join('.')} is reserved: it is stored but has no effect yet (${why})`,
        });
      return;
    }
    if (!isPlainObject(node)) return;
    const [head, ...rest] = parts as [string, ...string[]];
    const keys = head === '*' ? Object.keys(node) : [head];
    for (const k of keys)
      if (Object.prototype.hasOwnProperty.call(node, k)) visit(node[k], rest, [...at, k], why);
  };
  for (const r of RESERVED_FIELDS) visit(patch, r.path.split('.'), [], r.why);
  return out;
}
