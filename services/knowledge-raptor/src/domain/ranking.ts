import type { RankingSettings, SignalName } from './knowledge-settings';

/**
 * Ranking formula (documented in the service README):
 *
 *   score = relevance × (1 − λ + λ × S),   S = Σ wᵢ·sᵢ / Σ wᵢ
 *
 * relevance ∈ [0,1] comes from retrieval (and the reranker), λ is
 * `knowledge_base.retrieval.ranking.signal_influence` (default 0.3), each signal sᵢ ∈ [0,1]
 * (0.5 = neutral, used when the signal does not apply) and wᵢ its weight (high 3, medium 2 by
 * default; configurable in `ranking.weights`). The dynamic ones change weight per query:
 * freshness decay weighs 3 for temporal (L3) knowledge and 1 otherwise; the contextual boost
 * weighs 3 when the query names a service with graph neighbours, else 0. The score never exceeds
 * the relevance, so `min_relevance` keeps its meaning, and signals can at most move a result by λ.
 */
export interface RankInput {
  relevance: number;
  /** query facts */
  queryService?: string;
  queryConcepts: Set<string>;
  neighbours: Set<string>;
  /** chunk/document facts */
  level: string;
  service?: string;
  chunkConcepts: Set<string>;
  createdAt: string;
  lastUsedAt?: string;
  usageCount: number;
  helpful: number;
  unhelpful: number;
  confidence: number;
  authorExpertise?: number;
  now: number;
}

const DAY = 86_400_000;
const halfLife = (days: number, ageMs: number) => Math.pow(0.5, Math.max(0, ageMs) / (days * DAY));

/** Half-lives of freshness decay by level: temporal knowledge ages fastest. */
export const FRESHNESS_HALF_LIFE_DAYS: Record<string, number> = {
  L1: 365,
  L2: 180,
  L3: 30,
  L4: 365,
};

export function signals(i: RankInput): Record<SignalName, number> {
  const created = Date.parse(i.createdAt) || i.now;
  const lastTouched = Math.max(created, i.lastUsedAt ? Date.parse(i.lastUsedAt) || 0 : 0);
  let symptom = 0.5;
  if (i.queryConcepts.size) {
    let hit = 0;
    for (const c of i.queryConcepts) if (i.chunkConcepts.has(c)) hit++;
    symptom = hit / i.queryConcepts.size;
  }
  let service = 0.5;
  if (i.queryService)
    service = i.service === undefined ? 0.4 : i.service === i.queryService ? 1 : 0;
  return {
    recency: halfLife(90, i.now - created),
    usage: 1 - Math.exp(-i.usageCount / 10),
    confidence: Math.min(1, Math.max(0, i.confidence)),
    service_match: service,
    symptom_match: symptom,
    author_expertise: i.authorExpertise === undefined ? 0.5 : 1 - Math.exp(-i.authorExpertise / 3),
    freshness: halfLife(FRESHNESS_HALF_LIFE_DAYS[i.level] ?? 180, i.now - lastTouched),
    contextual: i.service && i.neighbours.has(i.service) ? 1 : 0,
    // Laplace-smoothed share of helpful votes: 0.5 without feedback
    feedback: (i.helpful + 1) / (i.helpful + i.unhelpful + 2),
  };
}

export function rank(
  i: RankInput,
  settings: RankingSettings,
): { score: number; signals: Record<SignalName, number> } {
  const s = signals(i);
  const w = { ...settings.weights };
  w.freshness = i.level === 'L3' ? Math.max(w.freshness, 3) : w.freshness;
  w.contextual = i.queryService && i.neighbours.size ? Math.max(w.contextual, 3) : 0;
  let num = 0;
  let den = 0;
  for (const k of Object.keys(s) as SignalName[]) {
    num += w[k] * s[k];
    den += w[k];
  }
  const S = den ? num / den : 0.5;
  const lambda = settings.signal_influence;
  return { score: Math.max(0, Math.min(1, i.relevance)) * (1 - lambda + lambda * S), signals: s };
}
