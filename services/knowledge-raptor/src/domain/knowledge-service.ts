import { createHash, randomBytes } from 'node:crypto';
import { MAX_TOP_K } from '@inquest/api-contract';
import { notFound, unavailable, validationError, type ErrorDetail } from '@inquest/errors';
import type { Summarizer } from '@inquest/llm';
import type { Logger } from '@inquest/observability';
import type { DocumentRecord, KnowledgeStore, PatternRecord } from '@inquest/store';
import {
  CONCEPT_PREFIX,
  cosine,
  RRF_K,
  type SearchHit,
  type SearchMode,
  type TextAnalyzer,
} from '@inquest/vector';
import type { DocumentIndexer } from './document-indexer';
import { BINARY, DocumentLibrary, type TreeScheduler } from './document-library';
import { fuseHybrid } from './fusion';
import { extractFromInvestigation } from './graph-extraction';
import { GraphQueries } from './graph-queries';
import type { KbSettings, SettingsSource } from './knowledge-settings';
import {
  baseConfidence,
  findMatchingPattern,
  patternConfidence,
  symptomSimilarity,
} from './patterns';
import { rank } from './ranking';
import type { ExternalReranker, Spaces } from './spaces';

/** root_cause.confidence (0..100) below which an investigation is not learned from */
export const LEARN_MIN_CONFIDENCE = 50;

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

export interface KnowledgeServiceDeps {
  store: KnowledgeStore;
  settings: SettingsSource;
  spaces: Spaces;
  analyzer: TextAnalyzer;
  /** composes answers (extractive by default, the configured LLM when there is one) */
  answerer: Summarizer;
  reranker?: ExternalReranker;
  /** indexes documents into the team's current space (shared with the tree builder) */
  indexer: DocumentIndexer;
  /** rebuilds a team's tree after its documents changed */
  tree?: TreeScheduler;
  logger: Logger;
  onTaught?: (doc: DocumentRecord) => Promise<void>;
  now?: () => Date;
}

const id = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;
/** reads and writes of the learned patterns before giving up until the event is redelivered */
const LEARN_ATTEMPTS = 5;

/** Retrieve, answer, feedback and patterns; teaching and graph queries are handed on. */
export class KnowledgeService {
  private readonly now: () => Date;
  readonly documents: DocumentLibrary;
  readonly graphs: GraphQueries;

  constructor(private readonly deps: KnowledgeServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.documents = new DocumentLibrary(deps);
    this.graphs = new GraphQueries(deps);
  }

  teach: DocumentLibrary['teach'] = (input) => this.documents.teach(input);
  status: DocumentLibrary['status'] = (teamId, documentId) =>
    this.documents.status(teamId, documentId);
  deleteDocument: DocumentLibrary['deleteDocument'] = (teamId, documentId) =>
    this.documents.deleteDocument(teamId, documentId);
  treeStats: DocumentLibrary['treeStats'] = (teamId) => this.documents.treeStats(teamId);
  graph: GraphQueries['graph'] = (teamId, entity, depth) =>
    this.graphs.graph(teamId, entity, depth);

  // ------------------------------------------------------------- retrieve

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
      text: input.query,
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
      ? await this.graphs.neighbours(input.teamId, input.service.toLowerCase())
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
        if (!expertise.has(svc)) expertise.set(svc, this.graphs.experts(input.teamId, svc));
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

  // --------------------------------------------------------------- answer

  async answer(input: {
    teamId: string;
    question: string;
    includeSources: boolean;
    service?: string;
    signal?: AbortSignal;
  }) {
    if (typeof input.question !== 'string' || !input.question.trim())
      throw validationError([{ field: 'question', error: 'must not be empty' }]);
    if (input.question.length > 8192)
      throw validationError([{ field: 'question', error: 'must be at most 8192 characters' }]);
    const settings = await this.deps.settings.get(input.teamId);
    const r = await this.retrieve({
      teamId: input.teamId,
      query: input.question,
      service: input.service,
      topK: Math.max(settings.retrieval.top_k, 5),
      signal: input.signal,
    });
    if (!r.results.length) {
      return {
        query_id: r.query_id,
        answer: 'The knowledge base has nothing on this question yet.',
        confidence: 0,
        sources: input.includeSources ? [] : undefined,
      };
    }
    const cited = answerPassages(r.results);
    let answer: string;
    if (this.deps.answerer.id.startsWith('extractive')) {
      answer = cited
        .map((t, i) =>
          cited.length > 1 ? `[${i + 1}] ${passageText(t.content)}` : passageText(t.content),
        )
        .join('\n\n');
    } else {
      try {
        answer = await this.deps.answerer.summarize(
          cited.map((t) => t.content),
          { focus: input.question, maxWords: 120, signal: input.signal },
        );
      } catch (err) {
        this.deps.logger.warn({ err }, 'answer model failed; answering with the best passage');
        answer = passageText(cited[0]!.content);
      }
    }
    const scores = cited.map((t) => t.score);
    const confidence = Math.round(((scores[0]! * 2 + (scores[1] ?? scores[0]!)) / 3) * 1000) / 1000;
    return {
      query_id: r.query_id,
      answer,
      confidence,
      sources: input.includeSources
        ? cited.map((t) => ({
            document_id: t.document_id,
            title: t.title ?? firstLine(t.content),
            snippet: t.content.length > 280 ? `${t.content.slice(0, 277)}...` : t.content,
            score: t.score,
            type: t.type,
            provenance: t.provenance,
          }))
        : undefined,
    };
  }

  // ------------------------------------------------------------- feedback

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

  // ------------------------------------------------------------- patterns

  async listPatterns(input: {
    teamId: string;
    query?: string;
    service?: string;
    limit?: number;
  }): Promise<PatternRecord[]> {
    const limit = Math.min(Math.max(input.limit || 20, 1), 100);
    let ps = await this.deps.store.listPatterns(input.teamId);
    if (input.service) ps = ps.filter((p) => !p.service || p.service === input.service);
    if (input.query?.trim()) {
      const qs = this.symptomsOf(input.query);
      const scored = ps
        .map((p) => ({
          p,
          s:
            0.7 * symptomSimilarity(qs, p.symptoms) +
            0.3 *
              this.termOverlap(
                input.query!,
                `${p.root_cause} ${p.solution} ${p.symptoms.join(' ')}`,
              ),
        }))
        .filter((x) => x.s > 0);
      scored.sort((a, b) => b.s - a.s || b.p.confidence - a.p.confidence);
      return scored.slice(0, limit).map((x) => x.p);
    }
    return ps
      .sort((a, b) => b.confidence - a.confidence || b.occurrences - a.occurrences)
      .slice(0, limit);
  }

  /** Symptoms of a text: its vocabulary concepts, else its five most frequent terms. */
  symptomsOf(text: string, alert?: string): string[] {
    const concepts = [
      ...new Set(this.deps.analyzer.conceptsOf(text).map((c) => c.slice(CONCEPT_PREFIX.length))),
    ];
    const out = concepts.length
      ? concepts
      : topTerms(
          this.deps.analyzer.terms(text).filter((t) => !t.startsWith(CONCEPT_PREFIX)),
          5,
        );
    if (alert) out.push(`alert:${alert}`);
    return out;
  }

  /** Dice overlap of two texts' analyzed terms. */
  termOverlap(a: string, b: string): number {
    const A = new Set(this.deps.analyzer.terms(a));
    const B = new Set(this.deps.analyzer.terms(b));
    if (!A.size || !B.size) return 0;
    let inter = 0;
    for (const x of A) if (B.has(x)) inter++;
    return (2 * inter) / (A.size + B.size);
  }

  /**
   * Consumes inquest.v1.investigation.completed: the investigation becomes an L3 incident
   * document, its affected systems go into the graph, and its symptoms raise a matching learned
   * pattern or start a new one. Idempotent by event_id (a redelivered event counts once).
   */
  async learnFromInvestigation(
    event: InvestigationCompletedEvent,
  ): Promise<'learned' | 'duplicate' | 'ignored'> {
    const inv = event.investigation;
    if (!event.event_id || !event.team_id || !inv) return 'ignored';
    if (inv.status && inv.status !== 'completed') return 'ignored';
    if (await this.deps.store.isEventProcessed(event.event_id)) return 'duplicate';
    const result = inv.result ?? {};
    const rc = result.root_cause ?? {};
    // undetermined, "no problem found" and low-confidence results teach nothing (issue 13)
    if ((rc.confidence ?? 0) < LEARN_MIN_CONFIDENCE) return 'ignored';
    if (
      /^(no problem found|no known failure|the root cause is undetermined)/i.test(
        rc.description ?? '',
      )
    )
      return 'ignored';
    const service = inv.context?.service || undefined;
    const recs = [...(result.recommendations ?? [])].sort(
      (a, b) => prio(a.priority) - prio(b.priority),
    );
    const solution = recs
      .map((r) => r.action)
      .filter(Boolean)
      .join('; ');
    const lines = [
      `# Incident: ${result.summary || inv.message || inv.investigation_id}`,
      `Investigation: ${inv.investigation_id ?? ''} (agent ${inv.agent ?? 'unknown'}, completed ${inv.completed_at ?? event.occurred_at ?? ''})`,
      service ? `Service: ${service}` : '',
      inv.context?.environment ? `Environment: ${inv.context.environment}` : '',
      inv.context?.related_alert ? `Alert: ${inv.context.related_alert}` : '',
      `Symptoms: ${inv.message ?? ''}${inv.context?.hint ? ` (${inv.context.hint})` : ''}`,
      rc.description ? `Root cause: ${rc.description}` : '',
      rc.evidence?.length ? `Evidence:\n${rc.evidence.map((e) => `- ${e}`).join('\n')}` : '',
      recs.length
        ? `Resolution:\n${recs.map((r) => `- [${r.priority}] ${r.action}`).join('\n')}`
        : '',
      result.affected_systems?.length
        ? `Affected systems: ${result.affected_systems.join(', ')}`
        : '',
    ].filter(Boolean);
    const symptoms = this.symptomsOf(
      `${inv.message ?? ''} ${inv.context?.hint ?? ''}`,
      inv.context?.related_alert,
    );
    // the same failure seen again (the pattern it matches) stays one incident document: the
    // pattern counts occurrences and last seen, retrieval reports them with the incident
    // from the event id: a redelivery after a crash links the same document and pattern
    const newPatternId = `pat_${createHash('sha256').update(event.event_id).digest('hex').slice(0, 20)}`;
    const linked =
      findMatchingPattern(
        await this.deps.store.listPatterns(event.team_id),
        symptoms,
        rc.description ?? '',
        service,
        (x, y) => this.termOverlap(x, y),
      )?.pattern_id ?? newPatternId;
    await this.documents.teach({
      teamId: event.team_id,
      content: lines.join('\n').replace(new RegExp(BINARY.source, 'g'), ' ').slice(0, 200_000),
      type: 'incident',
      service,
      tags: ['investigation', ...(inv.agent ? [inv.agent] : []), `${PATTERN_TAG_PREFIX}${linked}`],
      title: `Incident: ${(result.summary || inv.message || '').slice(0, 150)}`,
      author: 'inquest',
      source: 'investigation',
      confidence: Math.max(0.3, Math.min(1, (rc.confidence ?? 50) / 100)),
      dedupeKey: `incident|${linked}`,
    });
    const edges = extractFromInvestigation(service, result.affected_systems ?? []);
    // optimistic concurrency: another event may update the matched pattern between our read and
    // write (two replicas, or concurrent deliveries); then read again and recompute
    for (let attempt = 0; attempt < LEARN_ATTEMPTS; attempt++) {
      const patterns = await this.deps.store.listPatterns(event.team_id);
      const now = this.now().toISOString();
      const match = findMatchingPattern(patterns, symptoms, rc.description ?? '', service, (a, b) =>
        this.termOverlap(a, b),
      );
      let pattern: PatternRecord;
      if (match) {
        const occurrences = match.occurrences + 1;
        pattern = {
          ...match,
          symptoms: [...new Set([...match.symptoms, ...symptoms])].slice(0, 20),
          solution: match.solution || solution,
          root_cause: match.root_cause || rc.description || '',
          occurrences,
          confidence: patternConfidence(match.base_confidence, occurrences),
          last_seen_at: now,
        };
      } else {
        const base = baseConfidence(rc.confidence);
        pattern = {
          pattern_id: newPatternId,
          team_id: event.team_id,
          service,
          symptoms,
          root_cause: rc.description ?? '',
          solution,
          confidence: patternConfidence(base, 1),
          base_confidence: base,
          occurrences: 1,
          first_seen_at: now,
          last_seen_at: now,
          version: 0,
        };
      }
      const outcome = await this.deps.store.applyLearning({
        eventId: event.event_id,
        teamId: event.team_id,
        pattern,
        expectedVersion: match?.version ?? 0,
        edges,
      });
      if (outcome === 'applied') return 'learned';
      if (outcome === 'duplicate') return 'duplicate';
    }
    // the event is redelivered later (the bus backs off)
    throw unavailable(`learned patterns of team ${event.team_id} kept changing; try again`);
  }
}

/** JSON form of proto InvestigationFinished (fields used here). */
export interface InvestigationCompletedEvent {
  event_id: string;
  occurred_at?: string;
  team_id: string;
  investigation?: {
    investigation_id?: string;
    status?: string;
    agent?: string;
    message?: string;
    completed_at?: string;
    context?: { service?: string; environment?: string; related_alert?: string; hint?: string };
    result?: {
      summary?: string;
      root_cause?: { description?: string; confidence?: number; evidence?: string[] };
      affected_systems?: string[];
      recommendations?: { priority: string; action: string }[];
    };
  };
}

/**
 * Relevance in [0,1]. dense: the cosine; sparse: bm25 / (bm25 + SPARSE_HALF); hybrid: the
 * geometric mean of the fused rank (RRF / (2 / (k + 1)), 1 = first on both paths) and the match
 * quality (the better of cosine and squashed BM25), so a query that matches nothing well scores
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

/** A second passage is cited when it comes from another document and scores this close to the best. */
export const SECOND_PASSAGE_RATIO = 0.85;
/** Words of a cited passage (cut at a line or sentence end). */
export const PASSAGE_WORDS = 160;

/**
 * The passages an answer cites: the best taught passage (a leaf; a tree summary only when no
 * leaf was found) and a second one from another document when it scores almost as well.
 */
export function answerPassages(results: RetrievedItem[]): RetrievedItem[] {
  const leaves = results.filter((r) => r.tree_layer === 0);
  const pool = leaves.length ? leaves : results;
  const best = pool[0]!;
  const second = pool.find(
    (r) => r.document_id !== best.document_id && r.score >= best.score * SECOND_PASSAGE_RATIO,
  );
  return second ? [best, second] : [best];
}

/**
 * A passage as it is quoted in an answer: at most PASSAGE_WORDS words, cut after a whole line
 * or sentence, without a dangling heading or label ("Resolution:") at the end.
 */
export function passageText(content: string): string {
  let text = content.trim();
  const words = [...text.matchAll(/\S+/g)];
  const over = words[PASSAGE_WORDS];
  if (over?.index !== undefined) {
    const head = text.slice(0, over.index);
    // the last line or sentence end in the second half of the kept words, else the word limit
    let cut = Math.max(
      head.lastIndexOf('\n'),
      ...[...head.matchAll(/[.!?](?=\s)/g)].map((m) => m.index + 1),
    );
    if (cut < head.length / 2) cut = head.length;
    text = `${head.slice(0, cut).trimEnd()} …`;
  }
  const lines = text.split('\n');
  while (lines.length > 1 && /^\s*(#+\s.*|[^.!?]{0,60}:)\s*$/.test(lines[lines.length - 1]!))
    lines.pop();
  return lines.join('\n').trim();
}

function firstLine(s: string): string {
  return (s.split('\n').find((l) => l.trim()) ?? '').replace(/^#+\s*/, '').slice(0, 120);
}

function prio(p: string): number {
  return p === 'high' ? 0 : p === 'medium' ? 1 : 2;
}

function topTerms(terms: string[], n: number): string[] {
  const c = new Map<string, number>();
  for (const t of terms) if (t.length > 2 && !/^\d+$/.test(t)) c.set(t, (c.get(t) ?? 0) + 1);
  return [...c.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([t]) => t);
}
