import type { InvestigationContextRecord } from '@inquest/store';
import type { ToolDescriptor } from './ports';

export type Params = Record<string, unknown>;

const CONTEXT_PARAMS: Record<string, keyof InvestigationContextRecord> = {
  service: 'service',
  service_name: 'service',
  app: 'service',
  application: 'service',
  environment: 'environment',
  env: 'environment',
  namespace: 'namespace',
  ns: 'namespace',
  k8s_namespace: 'namespace',
  severity: 'severity',
  related_alert: 'related_alert',
  alert: 'related_alert',
  alert_id: 'related_alert',
  alert_name: 'related_alert',
  time_window: 'time_window',
  window: 'time_window',
  since: 'time_window',
  time_range: 'time_window',
  duration: 'time_window',
  hint: 'hint',
};
const MESSAGE_PARAMS = new Set([
  'query',
  'message',
  'question',
  'q',
  'text',
  'search',
  'prompt',
  'description',
]);

export interface Filled {
  params: Params;
  /** required parameters it could not fill from the request */
  missing: string[];
}

function coerce(value: string, schema: { type?: string; enum?: unknown[] } | undefined): unknown {
  if (!schema) return value;
  if (schema.enum && !schema.enum.includes(value)) {
    const hit = schema.enum.find(
      (e) => typeof e === 'string' && e.toLowerCase() === value.toLowerCase(),
    );
    return hit;
  }
  if (schema.type === 'array') return [value];
  if (schema.type === 'number' || schema.type === 'integer') return undefined;
  return value;
}

/** Fills a tool's parameters from the request, as API-DECISIONS.md says. */
export function fillFromRequest(
  tool: ToolDescriptor,
  message: string,
  context: InvestigationContextRecord,
  defaultNamespace?: string,
): Filled {
  const props = tool.parameters.properties ?? {};
  const params: Params = {};
  for (const [p, schema] of Object.entries(props)) {
    const key = p.toLowerCase();
    const ctxField = CONTEXT_PARAMS[key];
    let value: string | undefined;
    if (ctxField)
      value = context[ctxField] ?? (ctxField === 'namespace' ? defaultNamespace : undefined);
    else if (MESSAGE_PARAMS.has(key)) value = message;
    if (value === undefined) continue;
    const v = coerce(value, schema);
    if (v !== undefined) params[p] = v;
  }
  const missing = (tool.parameters.required ?? []).filter((r) => params[r] === undefined);
  return { params, missing };
}
