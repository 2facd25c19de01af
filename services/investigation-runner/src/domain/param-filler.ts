import type { InvestigationContextRecord } from '@inquest/store';
import type { Entity } from './evidence';
import { kindHintOf } from './evidence';
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

const ENTITY_PARAM_KIND: Record<string, string> = {
  pod: 'pod',
  pod_name: 'pod',
  podname: 'pod',
  deployment: 'deployment',
  deployment_name: 'deployment',
  node: 'node',
  node_name: 'node',
  container: 'container',
  container_name: 'container',
  instance: 'instance',
  instance_id: 'instance',
  commit: 'commit',
  sha: 'commit',
  commit_sha: 'commit',
  statefulset: 'statefulset',
  host: 'host',
  hostname: 'host',
  job: 'job',
  job_name: 'job',
  replicaset: 'replicaset',
};
const GENERIC_NAME = new Set([
  'name',
  'resource_name',
  'resource',
  'target',
  'object',
  'object_name',
  'id',
  'resource_id',
]);
const KIND_PARAM = new Set(['kind', 'resource_kind', 'resource_type', 'type', 'object_kind']);

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

/**
 * Fills the still-missing required parameters of a tool from one entity found in earlier tool
 * outputs; undefined when the entity does not fit the tool.
 */
export function fillFromEntity(
  tool: ToolDescriptor,
  filled: Filled,
  entity: Entity,
): Params | undefined {
  const props = tool.parameters.properties ?? {};
  const hint = kindHintOf(tool.name);
  const params: Params = { ...filled.params };
  let usedEntity = false;
  for (const p of filled.missing) {
    const key = p.toLowerCase();
    const schema = props[p];
    let value: string | undefined;
    const wantKind = ENTITY_PARAM_KIND[key] ?? (key.endsWith('_id') ? key.slice(0, -3) : undefined);
    if (wantKind) {
      if (entity.kind !== wantKind) return undefined;
      value = entity.name;
      usedEntity = true;
    } else if (GENERIC_NAME.has(key)) {
      if (hint && entity.kind !== hint) return undefined;
      value = entity.name;
      usedEntity = true;
    } else if (KIND_PARAM.has(key)) {
      value = entity.kind;
    } else if (key === 'namespace' || key === 'ns') {
      value = entity.namespace;
    } else if (key === 'service' || key === 'service_name') {
      if (entity.kind !== 'service') return undefined;
      value = entity.name;
      usedEntity = true;
    }
    if (value === undefined) return undefined;
    const v = coerce(value, schema);
    if (v === undefined) return undefined;
    params[p] = v;
  }
  if (!usedEntity) return undefined;
  // an optional namespace follows the entity it names
  for (const p of Object.keys(props)) {
    if ((p === 'namespace' || p === 'ns') && params[p] === undefined && entity.namespace)
      params[p] = entity.namespace;
  }
  return params;
}
