import { invalidField } from '@inquest/errors';

/** One requirement of a label selector (the API server's grammar). */
export type LabelRequirement =
  | { key: string; op: '=' | '!='; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | '!exists' };

const KEY =
  /^([a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?\/)?[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/;
const VALUE = /^([a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?)?$/;

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((p) => p.trim()).filter((p) => p.length > 0);
}

function checkKey(key: string, selector: string): string {
  if (!KEY.test(key))
    throw invalidField(
      'labelSelector',
      `unable to parse requirement: invalid label key "${key}" in "${selector}"`,
    );
  return key;
}

function checkValue(value: string, selector: string): string {
  if (!VALUE.test(value))
    throw invalidField(
      'labelSelector',
      `unable to parse requirement: invalid label value "${value}" in "${selector}"`,
    );
  return value;
}

/**
 * Parses `app=web,tier!=db,env in (prod,staging),track notin (canary),release,!legacy`.
 * Throws an invalid_field error (field `labelSelector`) on anything else.
 */
export function parseLabelSelector(selector: string): LabelRequirement[] {
  const reqs: LabelRequirement[] = [];
  for (const part of splitTopLevel(selector)) {
    const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(part);
    if (set) {
      const values = set[3]!.split(',').map((v) => checkValue(v.trim(), selector));
      reqs.push({ key: checkKey(set[1]!, selector), op: set[2] as 'in' | 'notin', values });
      continue;
    }
    const eq = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(part);
    if (eq) {
      const op = eq[2] === '!=' ? '!=' : '=';
      reqs.push({ key: checkKey(eq[1]!, selector), op, value: checkValue(eq[3]!, selector) });
      continue;
    }
    if (part.startsWith('!')) {
      reqs.push({ key: checkKey(part.slice(1).trim(), selector), op: '!exists' });
      continue;
    }
    reqs.push({ key: checkKey(part, selector), op: 'exists' });
  }
  return reqs;
}

export function matchesLabels(
  labels: Record<string, string> | undefined,
  reqs: readonly LabelRequirement[],
): boolean {
  const l = labels ?? {};
  return reqs.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case '=':
        return has && v === r.value;
      case '!=':
        return !has || v !== r.value;
      case 'in':
        return has && r.values.includes(v!);
      case 'notin':
        return !has || !r.values.includes(v!);
      case 'exists':
        return has;
      case '!exists':
        return !has;
    }
  });
}

/** A `metav1.LabelSelector` ({matchLabels, matchExpressions}) or a Service's plain map as requirements. */
export function selectorRequirements(selector: unknown): LabelRequirement[] | undefined {
  if (!selector || typeof selector !== 'object') return undefined;
  const s = selector as {
    matchLabels?: Record<string, string>;
    matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
  };
  const isLabelSelector = 'matchLabels' in s || 'matchExpressions' in s;
  const map = isLabelSelector ? (s.matchLabels ?? {}) : (selector as Record<string, string>);
  const reqs: LabelRequirement[] = Object.entries(map).map(([key, value]) => ({
    key,
    op: '=' as const,
    value: String(value),
  }));
  for (const e of isLabelSelector ? (s.matchExpressions ?? []) : []) {
    const op = e.operator.toLowerCase();
    if (op === 'in' || op === 'notin') reqs.push({ key: e.key, op, values: e.values ?? [] });
    else if (op === 'exists') reqs.push({ key: e.key, op: 'exists' });
    else if (op === 'doesnotexist') reqs.push({ key: e.key, op: '!exists' });
  }
  return reqs;
}

/** `app=web,tier in (a,b)` from a LabelSelector or a plain map, as kubectl prints selectors. */
export function formatSelector(selector: unknown): string {
  const reqs = selectorRequirements(selector);
  if (!reqs || reqs.length === 0) return '<none>';
  return reqs
    .map((r) => {
      switch (r.op) {
        case '=':
        case '!=':
          return `${r.key}${r.op}${r.value}`;
        case 'in':
        case 'notin':
          return `${r.key} ${r.op} (${r.values.join(',')})`;
        case 'exists':
          return r.key;
        case '!exists':
          return `!${r.key}`;
      }
    })
    .join(',');
}

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

/** Fields the API server lets each kind be selected by (metadata.name/namespace work for all). */
const FIELDS: Record<string, string[]> = {
  Pod: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  Node: ['spec.unschedulable'],
  Secret: ['type'],
  Namespace: ['status.phase'],
  Job: ['status.successful'],
  ReplicaSet: ['status.replicas'],
};

/** Parses `metadata.name=x,status.phase!=Running` for `kind`; unsupported fields are a 400 as in the API. */
export function parseFieldSelector(selector: string, kind: string): FieldRequirement[] {
  const reqs: FieldRequirement[] = [];
  for (const part of selector
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z.]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!m)
      throw invalidField(
        'fieldSelector',
        `invalid selector: '${selector}'; can't understand '${part}'`,
      );
    const field = m[1]!;
    const allowed =
      field === 'metadata.name' ||
      field === 'metadata.namespace' ||
      (FIELDS[kind] ?? []).includes(field);
    if (!allowed) {
      throw invalidField('fieldSelector', `field label not supported: ${field}`);
    }
    reqs.push({ field, op: m[2] === '!=' ? '!=' : '=', value: m[3]!.trim() });
  }
  return reqs;
}

function fieldValue(obj: unknown, field: string): string {
  if (field === 'source') {
    const src = (obj as { source?: { component?: string } }).source;
    return src?.component ?? '';
  }
  let cur: unknown = obj;
  for (const seg of field.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[seg];
  }
  if (cur === undefined || cur === null) return '';
  return String(cur);
}

export function matchesFields(obj: unknown, reqs: readonly FieldRequirement[]): boolean {
  return reqs.every((r) => (fieldValue(obj, r.field) === r.value) === (r.op === '='));
}
