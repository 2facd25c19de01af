import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import {
  AGENT_ALIASES,
  AGENT_NAMES,
  ConfigDocumentSchema,
  McpServerEntrySchema,
  McpApiKeyAuthSchema,
  McpBearerAuthSchema,
  RANKING_SIGNALS,
} from './config.schema';
import { RESERVED_FIELDS } from './reserved-fields';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;
const sameKeys = (keys: string[], names: readonly string[]) =>
  keys.length === names.length && names.every((n) => keys.includes(n));

/** Every field path of a schema, in the doc's notation: `<name>` map keys, `[]` array elements. */
function fieldPaths(schema: z.ZodType, at: string, out: Set<string>): void {
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') {
    fieldPaths(def.innerType!, at, out);
    return;
  }
  // documented: named fields and map values, not array elements or the objects of a map entry
  // (their own fields are the rows)
  if (at && !at.endsWith('[]') && !(def.type === 'object' && at.endsWith('>'))) out.add(at);
  if (def.type === 'object' && def.shape) {
    const keys = Object.keys(def.shape);
    const agents = sameKeys(keys, [...AGENT_NAMES, ...Object.keys(AGENT_ALIASES)]);
    const signals = sameKeys(keys, RANKING_SIGNALS);
    for (const [k, v] of Object.entries(def.shape)) {
      const key = agents ? '<agent>' : signals ? '<signal>' : k;
      fieldPaths(v, at ? `${at}.${key}` : key, out);
    }
  } else if (def.type === 'record') {
    fieldPaths(def.valueType!, `${at}.<name>`, out);
  } else if (def.type === 'array') {
    fieldPaths(def.element!, `${at}[]`, out);
  }
}

describe('docs/configuration.md', () => {
  const whole = readFileSync(join(__dirname, '../../../docs/configuration.md'), 'utf8');
  // the field table: from "## Fields" to the next heading
  const doc = whole.slice(
    whole.indexOf('## Fields'),
    whole.indexOf('\n## ', whole.indexOf('## Fields') + 1),
  );
  /** field -> the row's text */
  const rows = new Map(
    [...doc.matchAll(/^\| `([^`]+)` \|(.*)$/gm)].map((m) => [m[1]!, m[2]!] as const),
  );

  const paths = new Set<string>();
  fieldPaths(ConfigDocumentSchema, '', paths);
  // mcp_servers elements are checked element by element, not by a nested schema
  paths.delete('mcp_servers[]');
  for (const k of Object.keys(defOf(McpServerEntrySchema).shape!)) paths.add(`mcp_servers[].${k}`);
  for (const s of [McpBearerAuthSchema, McpApiKeyAuthSchema])
    for (const k of Object.keys(defOf(s).shape!)) paths.add(`mcp_servers[].auth.${k}`);

  it('documents every field of the schema, with a type, a default and an effect', () => {
    const missing = [...paths].filter((p) => !rows.has(p));
    expect(missing).toEqual([]);
    for (const p of paths) expect(rows.get(p)!.split('|')).toHaveLength(4);
  });

  it('documents no field the schema does not have', () => {
    const extra = [...rows.keys()].filter((r) => !paths.has(r) && r !== 'x-<anything>');
    expect(extra).toEqual([]);
  });

  it('marks every reserved field as reserved', () => {
    const docPath = (p: string) =>
      p.replace(/^tools\.\*/, 'tools.<name>').replace(/sources\.\*/, 'sources.<name>');
    for (const r of RESERVED_FIELDS) {
      const p = docPath(r.path);
      const row = rows.get(p === 'knowledge_base.sources.<name>' ? 'knowledge_base.sources' : p);
      expect([p, row?.includes('**reserved**')]).toEqual([p, true]);
    }
  });
});
