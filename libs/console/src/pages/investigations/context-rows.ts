import type { RunInvestigationRequest } from '@inquest/client';

type Context = NonNullable<RunInvestigationRequest['context']>;
export type ContextKey = keyof Context & string;

/** The context fields the API takes (InvestigationContext), with the allowed values of enums. */
export const CONTEXT_FIELDS: { key: ContextKey; label: string; options?: string[] }[] = [
  { key: 'service', label: 'service' },
  { key: 'namespace', label: 'namespace' },
  { key: 'environment', label: 'environment', options: ['prod', 'staging', 'dev'] },
  { key: 'severity', label: 'severity', options: ['high', 'medium', 'low'] },
  { key: 'time_window', label: 'time_window' },
  { key: 'related_alert', label: 'related_alert' },
  { key: 'hint', label: 'hint' },
];

export interface ContextRow {
  id: number;
  key: ContextKey | '';
  value: string;
}

/** The rows as the request's context: empty rows dropped, values trimmed; duplicates are an error. */
export function contextFromRows(
  rows: ContextRow[],
): { ok: true; context: Context | undefined } | { ok: false; error: string } {
  const out: Record<string, string> = {};
  for (const r of rows) {
    const value = r.value.trim();
    if (!r.key && !value) continue;
    if (!r.key) return { ok: false, error: `Choose a field for the value "${value}".` };
    if (!value) return { ok: false, error: `Give a value for ${r.key} or remove the row.` };
    if (r.key in out) return { ok: false, error: `${r.key} is given twice.` };
    const field = CONTEXT_FIELDS.find((f) => f.key === r.key);
    if (field?.options && !field.options.includes(value))
      return { ok: false, error: `${r.key} must be one of ${field.options.join(', ')}.` };
    if (value.length > 1024)
      return { ok: false, error: `${r.key} is longer than 1024 characters.` };
    out[r.key] = value;
  }
  return { ok: true, context: Object.keys(out).length ? (out as Context) : undefined };
}
