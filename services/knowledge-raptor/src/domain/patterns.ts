import type { PatternRecord } from '@inquest/store';

/**
 * Confidence of a learned pattern after n occurrences (documented curve):
 *
 *   confidence(n) = 1 − (1 − c₁) · 0.75^(n − 1),   c₁ = 0.3 + 0.3 · rc/100
 *
 * where rc is the root-cause confidence (0..100) of the investigation that started the pattern.
 * It starts between 0.3 and 0.6, grows with every repetition (0.75 keeps a quarter of the
 * remaining doubt per occurrence) and never reaches 1.
 */
export function patternConfidence(base: number, occurrences: number): number {
  return 1 - (1 - base) * Math.pow(0.75, Math.max(0, occurrences - 1));
}

export function baseConfidence(rootCauseConfidence: number | undefined): number {
  const rc = Math.max(0, Math.min(100, rootCauseConfidence ?? 50));
  return 0.3 + 0.3 * (rc / 100);
}

/** Jaccard similarity of two symptom sets. */
export function symptomSimilarity(a: string[], b: string[]): number {
  const A = new Set(a);
  const B = new Set(b);
  if (!A.size && !B.size) return 0;
  let inter = 0;
  for (const x of A) if (B.has(x)) inter++;
  return inter / (A.size + B.size - inter);
}

/**
 * The existing pattern an investigation repeats: same service (or none on either side),
 * symptom Jaccard >= 0.5 and root-cause term overlap >= 0.3 (when both have one).
 */
export function findMatchingPattern(
  patterns: PatternRecord[],
  symptoms: string[],
  rootCause: string,
  service: string | undefined,
  termOverlap: (a: string, b: string) => number,
): PatternRecord | undefined {
  let best: { p: PatternRecord; s: number } | undefined;
  for (const p of patterns) {
    if ((p.service ?? '') !== (service ?? '')) continue;
    const sim = symptomSimilarity(p.symptoms, symptoms);
    if (sim < 0.5) continue;
    if (rootCause && p.root_cause && termOverlap(rootCause, p.root_cause) < 0.3) continue;
    if (!best || sim > best.s) best = { p, s: sim };
  }
  return best?.p;
}
