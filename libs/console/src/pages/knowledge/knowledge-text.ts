// Small pure helpers of the knowledge pages: type choices, answer citations, snippets.
import type { KnowledgeType } from '@inquest/client';

/** The knowledge types the API accepts, by level (as in the API decisions). */
export const TYPES_BY_LEVEL: {
  level: 'L1' | 'L2' | 'L3' | 'L4';
  label: string;
  types: KnowledgeType[];
}[] = [
  {
    level: 'L1',
    label: 'L1 procedural',
    types: ['runbook', 'procedure', 'remediation', 'procedural'],
  },
  {
    level: 'L2',
    label: 'L2 factual',
    types: ['fact', 'configuration', 'threshold', 'sla', 'factual'],
  },
  { level: 'L3', label: 'L3 temporal', types: ['incident', 'deployment', 'temporal'] },
  { level: 'L4', label: 'L4 policy', types: ['policy', 'escalation', 'oncall'] },
];

export const KNOWLEDGE_TYPES: KnowledgeType[] = TYPES_BY_LEVEL.flatMap((l) => l.types);

export type AnswerPart = { text: string } | { cite: number };

/**
 * Splits an answer into text and its `[n]` citations (1-based, as the knowledge service numbers
 * its sources). A bracketed number with no such source stays text.
 */
export function citeAnswer(answer: string, sourceCount: number): AnswerPart[] {
  const parts: AnswerPart[] = [];
  let last = 0;
  for (const m of answer.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(m[1]);
    if (n < 1 || n > sourceCount) continue;
    if (m.index > last) parts.push({ text: answer.slice(last, m.index) });
    parts.push({ cite: n });
    last = m.index + m[0].length;
  }
  if (last < answer.length) parts.push({ text: answer.slice(last) });
  return parts;
}

/** The first `max` characters of a passage on word boundaries, whitespace collapsed. */
export function snippet(content: string, max = 280): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.,;:]+$/, '')}…`;
}

export type MarkedPart = { text: string; mark: boolean };

/** Marks the words of `query` (3+ letters, case-insensitive) in `text`, for <mark>. */
export function markTerms(text: string, query: string): MarkedPart[] {
  const terms = [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}_-]+/u)
        .filter((t) => t.length >= 3),
    ),
  ];
  if (!terms.length) return [{ text, mark: false }];
  const escaped = terms
    .sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
  const re = new RegExp(`(${escaped.join('|')})`, 'giu');
  const parts: MarkedPart[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), mark: false });
    parts.push({ text: m[0], mark: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), mark: false });
  return parts;
}

/** Comma- or newline-separated tags → trimmed, non-empty, unique. */
export function parseTags(input: string): string[] {
  return [
    ...new Set(
      input
        .split(/[,\n]/)
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

/** 0.834 → "83%". */
export function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/**
 * The API's validation problems by field (`errors`, else `details`, else `field`), for showing
 * each next to its input; problems on fields the form does not have are left to the error view.
 */
export function fieldProblems(error: unknown): Record<string, string> {
  if (!error || typeof error !== 'object') return {};
  const e = error as {
    isInquestError?: boolean;
    errors?: { field: string; error: string }[];
    details?: { field: string; error: string };
    field?: string;
    message?: string;
  };
  if (!e.isInquestError) return {};
  const out: Record<string, string> = {};
  const list = e.errors ?? (e.details ? [e.details] : []);
  for (const p of list) if (p.field && !(p.field in out)) out[p.field] = p.error;
  if (!list.length && e.field) out[e.field] = e.message ?? 'invalid';
  return out;
}

/** True when every problem of `error` is on one of `fields` (so the fields show it all). */
export function shownOnFields(error: unknown, fields: string[]): boolean {
  const keys = Object.keys(fieldProblems(error));
  return keys.length > 0 && keys.every((k) => fields.includes(k));
}
