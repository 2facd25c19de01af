import { randomBytes } from 'node:crypto';
import { MAX_TOP_K } from '@inquest/api-contract';
import { notFound, validationError, type ErrorDetail } from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import type { KnowledgeStore, PatternRecord } from '@inquest/store';
import { cosine, RRF_K, type SearchHit, type SearchMode, type TextAnalyzer } from '@inquest/vector';
import { fuseHybrid } from './fusion';
import { queryText } from './query-text';
import type { GraphQueries } from './graph-queries';
import type { KbSettings, SettingsSource } from './knowledge-settings';
import { rank } from './ranking';
import type { ExternalReranker, Spaces } from './spaces';

/** BM25 relevance is squashed into [0,1) as s / (s + SPARSE_HALF): a BM25 of SPARSE_HALF gives 0.5. */
export const SPARSE_HALF = 8;

export interface RetrieveInput {
  teamId: string;
  query: string;
  service?: string;
  topK?: number;
  strategy?: string;
  minRelevance?: number;
  levels?: string[];
  signal?: AbortSignal;
  /** Inquest's own lookup: nothing recorded, no usage counted (the answer's query_id is empty) */
  internal?: boolean;
}

export interface RetrievedItem {
  id: string;
  document_id: string;
  content: string;
  score: number;
  level: string;
  type: string;
  service?: string;
  tags: string[];
  tree_layer: number;
  title?: string;
  /** authored: taught by people; generated: learned from an investigation, or a tree summary */
  provenance: Provenance;
  /** generated incidents: investigations that found the failure, and the last time */
  occurrences?: number;
  last_seen_at?: string;
}

export type Provenance = 'authored' | 'generated';

/** Documents written by Inquest itself (investigation-learned incidents) rather than people. */
export const GENERATED_SOURCES = new Set(['investigation']);
/**
 * Scales the score of a generated incident nobody confirmed: an authored runbook of similar
 * relevance comes first (issue 20: learned incidents crowded out what people wrote). An incident
 * with more helpful than unhelpful feedback is confirmed and ranks on its relevance alone.
 */
export const UNCONFIRMED_GENERATED_FACTOR = 0.8;
/**
 * Scales the score of a RAPTOR summary node: a summary is a second route to the passages it
 * covers, returned after the leaves of similar relevance (as type `summary`), never in their
 * place. Measured on tools/bench/data/kb hard set: summaries at full weight took first place
 * for 19 of 189 questions and cost 0.03 MRR@10 (0.3 and 0.7 measured the same as 0.5).
 */
export const SUMMARY_FACTOR = 0.5;
/** Tag linking a generated incident document to the learned pattern that counts its repeats. */
export const PATTERN_TAG_PREFIX = 'pattern:';

export interface RetrievalDeps {
  store: KnowledgeStore;
  settings: SettingsSource;
  spaces: Spaces;
  analyzer: TextAnalyzer;
  graph: Pick<GraphQueries, 'neighbours' | 'experts'>;
  reranker?: ExternalReranker;
  logger: Logger;
  now?: () => Date;
}

const id = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

/**
 * Retrieval: validates a query, searches the team's current space (dense, sparse or hybrid),
 * reranks (MMR or an external reranker), ranks by the signals, records the query and the usage;
 * and the feedback on a query's results.
 */
export class Retrieval {
  private readonly now: () => Date;

  constructor(private readonly deps: RetrievalDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async retrieve(
    input: RetrieveInput,
  ): Promise<{ query_id: string; strategy: string; results: RetrievedItem[]; took_ms: number }> {
    const started = performance.now();
    const errors: ErrorDetail[] = [];
    if (typeof input.query !== 'string' || !input.query.trim())
      errors.push({ field: 'query', error: 'must not be empty' });
    else if (input.query.length > 8192)
      errors.push({ field: 'query', error: 'must be at most 8192 characters' });
    if (
      input.topK !== undefined &&
      (!Number.isInteger(input.topK) || input.topK < 1 || input.topK > MAX_TOP_K)
    ) {
      errors.push({ field: 'top_k', error: `must be an integer from 1 to ${MAX_TOP_K}` });
    }
    if (input.strategy !== undefined && !['dense', 'sparse', 'hybrid'].includes(input.strategy)) {
      errors.push({ field: 'strategy', error: 'must be one of dense, sparse, hybrid' });
    }
    if (input.minRelevance !== undefined && !(input.minRelevance >= 0 && input.minRelevance <= 1)) {
      errors.push({ field: 'min_relevance', error: 'must be between 0 and 1' });
    }
    for (const l of input.levels ?? [])
      if (!/^L[1-4]$/.test(l)) errors.push({ field: 'levels', error: `unknown level ${l}` });
    if (errors.length) throw validationError(errors);
    const settings = await this.deps.settings.get(input.teamId);
    const strategy = (input.strategy ?? settings.retrieval.strategy) as SearchMode;
    const topK = input.topK ?? settings.retrieval.top_k;
    const minRelevance = input.minRelevance ?? settings.retrieval.min_relevance;
    const results = await this.search(input, settings, strategy, topK, minRelevance);
    const took_ms = () => Math.round((performance.now() - started) * 100) / 100;
    // usage ranks what people look up; the engine's own lookups would only echo the ranking back
    if (input.internal) return { query_id: '', strategy, results, took_ms: took_ms() };
    const queryId = id('q');
    await this.deps.store.insertQuery({
      query_id: queryId,
      team_id: input.teamId,
      query: input.query,
      service: input.service,
      document_ids: [...new Set(results.map((r) => r.document_id))],
      created_at: this.now().toISOString(),
    });
    await this.deps.store.recordUsage(
      input.teamId,
      results.map((r) => r.document_id),
      this.now().toISOString(),
    );
    return {
      query_id: queryId,
      strategy,
      results,
      took_ms: took_ms(),
    };
  }

  private async search(
    input: RetrieveInput,
    settings: KbSettings,
    mode: SearchMode,
    topK: number,
    minRelevance: number,
  ): Promise<RetrievedItem[]> {
    const { embedder, index } = this.deps.spaces.get(settings.raptor.embedding_model);
    const vector = mode === 'sparse' ? undefined : (await embedder.embed([input.query]))[0];
    const reranker = settings.retrieval.reranker;
    const candidates = Math.max(topK * 3, 30);
    let hits = await index.search({
      teamId: input.teamId,
      mode,
      vector,
      // the sparse leg matches tokens: times, sizes and generated names only add false matches
      text: queryText(input.query),
      limit: candidates,
      filter: input.levels?.length ? { levels: input.levels } : undefined,
    });
    if (mode === 'hybrid') hits = fuseHybrid(hits);
    if (!hits.length) return [];
    let rel = hits.map((h) => relevanceOf(mode, h));
    if (reranker === 'mmr') rel = await this.mmr(input.teamId, index, hits, rel);
    else if (/^https?:\/\//.test(reranker) && this.deps.reranker) {
      try {
        const scored = await this.deps.reranker.rerank(
          reranker,
          input.query,
          hits.map((h) => h.payload.content),
          hits.length,
          input.signal,
          settings.retrieval.reranker_auth,
        );
        const squash = scored.some((s) => s.score < 0 || s.score > 1);
        const next = hits.map(() => 0);
        for (const s of scored)
          if (s.index >= 0 && s.index < hits.length)
            next[s.index] = squash ? 1 / (1 + Math.exp(-s.score)) : s.score;
        rel = next;
      } catch (err) {
        this.deps.logger.warn({ err }, 'external reranker failed; keeping retrieval order');
      }
    }
    const docs = new Map(
      (
        await this.deps.store.getDocuments(input.teamId, [
          ...new Set(hits.map((h) => h.payload.document_id)),
        ])
      ).map((d) => [d.document_id, d]),
    );
    const neighbours = input.service
      ? await this.deps.graph.neighbours(input.teamId, input.service.toLowerCase())
      : new Set<string>();
    const queryConcepts = new Set(this.deps.analyzer.conceptsOf(input.query));
    const expertise = new Map<string, Promise<Map<string, number>>>();
    let patterns: Promise<Map<string, PatternRecord>> | undefined;
    const patternsOf = () =>
      (patterns ??= this.deps.store
        .listPatterns(input.teamId)
        .then((ps) => new Map(ps.map((p) => [p.pattern_id, p] as const))));
    const now = this.now().getTime();
    const ranked: (RetrievedItem & { _s: number })[] = [];
    for (let i = 0; i < hits.length; i++) {
      const h = hits[i]!;
      const doc = docs.get(h.payload.document_id);
      let authorExpertise: number | undefined;
      const svc = h.payload.service?.toLowerCase();
      if (h.payload.author && svc) {
        if (!expertise.has(svc)) expertise.set(svc, this.deps.graph.experts(input.teamId, svc));
        authorExpertise = (await expertise.get(svc)!).get(h.payload.author.toLowerCase()) ?? 0;
      }
      const { score } = rank(
        {
          relevance: rel[i]!,
          queryService: input.service?.toLowerCase(),
          queryConcepts,
          neighbours,
          level: h.payload.level,
          service: svc,
          chunkConcepts: new Set(
            this.deps.analyzer.conceptsOf(`${h.payload.title ?? ''}\n${h.payload.content}`),
          ),
          createdAt: h.payload.created_at,
          lastUsedAt: doc?.last_used_at,
          usageCount: doc?.usage_count ?? 0,
          helpful: doc?.helpful ?? 0,
          unhelpful: doc?.unhelpful ?? 0,
          confidence: h.payload.tree_layer > 0 ? 0.6 : (doc?.confidence ?? 0.7),
          authorExpertise,
          now,
        },
        settings.retrieval.ranking,
      );
      const generated = h.payload.tree_layer > 0 || GENERATED_SOURCES.has(doc?.source ?? '');
      const confirmed = (doc?.helpful ?? 0) > (doc?.unhelpful ?? 0);
      const adjusted =
        score *
        (h.payload.tree_layer > 0
          ? SUMMARY_FACTOR
          : generated && !confirmed
            ? UNCONFIRMED_GENERATED_FACTOR
            : 1);
      if (adjusted < minRelevance) continue;
      const patternId = h.payload.tree_layer
        ? undefined
        : doc?.tags.find((t) => t.startsWith(PATTERN_TAG_PREFIX))?.slice(PATTERN_TAG_PREFIX.length);
      const pattern = patternId ? (await patternsOf()).get(patternId) : undefined;
      ranked.push({
        id: h.id,
        document_id: h.payload.document_id,
        content: h.payload.content,
        score: Math.round(adjusted * 1e6) / 1e6,
        level: h.payload.level,
        type: h.payload.type,
        service: h.payload.service,
        tags: h.payload.tags,
        tree_layer: h.payload.tree_layer,
        title: h.payload.title ?? doc?.title,
        provenance: generated ? 'generated' : 'authored',
        ...(pattern
          ? { occurrences: pattern.occurrences, last_seen_at: pattern.last_seen_at }
          : {}),
        _s: adjusted,
      });
    }
    ranked.sort((a, b) => b._s - a._s || (a.id < b.id ? -1 : 1));
    return ranked.slice(0, topK).map(({ _s, ...r }) => r);
  }

  /**
   * Maximal marginal relevance (λ = 0.7): walks the candidates greedily and scales each one's
   * relevance by (1 − 0.3 × its highest cosine similarity to the ones picked before it).
   */
  private async mmr(
    teamId: string,
    index: ReturnType<Spaces['get']>['index'],
    hits: SearchHit[],
    rel: number[],
  ): Promise<number[]> {
    const stored = new Map(
      (
        await index.get(
          teamId,
          hits.map((h) => h.id),
        )
      ).map((s) => [s.id, s.vector] as const),
    );
    const order = hits.map((_, i) => i).sort((a, b) => rel[b]! - rel[a]!);
    const picked: number[] = [];
    const out = [...rel];
    const remaining = new Set(order);
    while (remaining.size) {
      let best = -1;
      let bestVal = -Infinity;
      let bestSim = 0;
      for (const i of remaining) {
        const v = stored.get(hits[i]!.id);
        let sim = 0;
        for (const p of picked) {
          const w = stored.get(hits[p]!.id);
          if (v && w) sim = Math.max(sim, cosine(v, w));
        }
        const val = 0.7 * rel[i]! - 0.3 * sim;
        if (val > bestVal) {
          bestVal = val;
          best = i;
          bestSim = sim;
        }
      }
      remaining.delete(best);
      picked.push(best);
      out[best] = rel[best]! * (1 - 0.3 * bestSim);
    }
    return out;
  }

  async feedback(input: {
    teamId: string;
    queryId: string;
    helpful: boolean;
    comment?: string;
    documentId?: string;
  }): Promise<void> {
    const errors: ErrorDetail[] = [];
    if (!input.queryId?.trim()) errors.push({ field: 'query_id', error: 'is required' });
    if (input.comment && input.comment.length > 4000)
      errors.push({ field: 'comment', error: 'must be at most 4000 characters' });
    if (errors.length) throw validationError(errors);
    const q = await this.deps.store.getQuery(input.teamId, input.queryId);
    if (!q) throw notFound(`query ${input.queryId} not found`);
    let docs = q.document_ids;
    if (input.documentId) {
      if (!q.document_ids.includes(input.documentId)) {
        throw notFound(
          `document ${input.documentId} was not among the results of query ${input.queryId}`,
        );
      }
      docs = [input.documentId];
    }
    await this.deps.store.addFeedback(
      input.teamId,
      input.queryId,
      docs,
      input.helpful,
      input.comment,
      this.now().toISOString(),
    );
  }
}

/**
 * Relevance in [0,1]. dense: the cosine; sparse: bm25 / (bm25 + SPARSE_HALF); hybrid: the
 * geometric mean of the fused score (over its best possible value 2 / (k + 1): 1 = the best
 * candidate on both legs) and the match quality (the better of cosine and squashed BM25), so a query that matches nothing well scores
 * low even at rank 1.
 */
function relevanceOf(mode: SearchMode, h: SearchHit): number {
  const squash = (s: number) => (s > 0 ? s / (s + SPARSE_HALF) : 0);
  if (mode === 'dense') return Math.max(0, Math.min(1, h.score));
  if (mode === 'sparse') return squash(h.score);
  const rank = Math.min(1, h.score / (2 / (RRF_K + 1)));
  if (h.similarity === undefined && h.bm25 === undefined) return rank;
  const match = Math.max(0, Math.min(1, Math.max(h.similarity ?? 0, squash(h.bm25 ?? 0))));
  return Math.sqrt(rank * match);
}
