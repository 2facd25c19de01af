import type { Expected } from './scenario';

/** The part of an investigation result the grade reads. */
export interface GradedResult {
  summary: string;
  root_cause: { description: string; confidence: number };
}

export interface Grade {
  right: boolean;
  /** why it is wrong (empty when right) */
  reasons: string[];
}

/** Healthy answers start their root cause with this and carry a confidence of at most 30. */
export const NO_PROBLEM = 'No problem found';
export const HEALTHY_MAX_CONFIDENCE = 30;

/** What is graded: the summary and the root cause's description. */
export function conclusionOf(result: GradedResult): string {
  return `${result.summary ?? ''}\n${result.root_cause?.description ?? ''}`;
}

export function saysNoProblem(result: GradedResult): boolean {
  return (result.root_cause?.description ?? '')
    .trimStart()
    .toLowerCase()
    .startsWith(NO_PROBLEM.toLowerCase());
}

const has = (text: string, s: string) => text.includes(s.toLowerCase());
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** a forbidden term starts a word: "deploy" forbids "deployed", "OOM" does not forbid "TooMany" */
const hasWord = (text: string, s: string) =>
  new RegExp(`(^|[^a-z0-9])${escape(s.toLowerCase())}`).test(text);

/**
 * Grades a conclusion against a scenario's expectations (README of data/investigations):
 * a healthy scenario is right when the root cause starts with "No problem found" at confidence
 * <= 30; any other is right when it does not say "No problem found", names one of the subjects,
 * matches every facts group (any of its strings) and contains no forbidden string. Matching is
 * case-insensitive substring; a forbidden string must start a word. A run that failed (no result) is wrong.
 */
export function grade(expected: Expected, result: GradedResult | undefined, error?: string): Grade {
  if (!result) return { right: false, reasons: [`no result: ${error ?? 'the run failed'}`] };
  const text = conclusionOf(result).toLowerCase();
  const reasons: string[] = [];
  if (expected.healthy) {
    if (!saysNoProblem(result))
      reasons.push(`healthy system: root cause does not start with "${NO_PROBLEM}"`);
    const confidence = result.root_cause?.confidence ?? NaN;
    if (!(confidence <= HEALTHY_MAX_CONFIDENCE))
      reasons.push(`healthy system: confidence ${confidence} > ${HEALTHY_MAX_CONFIDENCE}`);
  } else {
    if (saysNoProblem(result)) reasons.push(`says "${NO_PROBLEM}" but something is wrong`);
    const subjects = expected.subject ?? [];
    if (subjects.length && !subjects.some((s) => has(text, s)))
      reasons.push(`subject not named (any of: ${subjects.join(' | ')})`);
    for (const group of expected.facts ?? []) {
      if (group.length && !group.some((s) => has(text, s)))
        reasons.push(`fact missing (any of: ${group.join(' | ')})`);
    }
  }
  for (const f of expected.forbidden ?? []) {
    if (f && hasWord(text, f)) reasons.push(`forbidden "${f}" appears`);
  }
  return { right: reasons.length === 0, reasons };
}
