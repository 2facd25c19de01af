import { invalidRequest } from '@inquest/errors';
import { implement, type HandlerContext } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import { knowledgeV1 } from '@inquest/proto';
import type { KnowledgeService } from '../domain/knowledge-service';
import { documentStatusFields, levelFields, levelsOf } from './knowledge-messages';
import type { SourceStatus } from '../domain/sources/source-sync';
import type { SourceSyncLoop } from '../domain/sources/source-sync-loop';

const team = (reqTeam: string, ctx: HandlerContext) => {
  const t = reqTeam || ctx.teamId;
  if (!t) throw invalidRequest('team_id is required');
  return t;
};

const sourceStatus = (s: SourceStatus): knowledgeV1.SourceStatus => ({
  name: s.name,
  kind: s.kind,
  url: s.url,
  state: s.state,
  last_sync_at: s.last_sync_at,
  last_success_at: s.last_success_at,
  error: s.error,
  documents: s.documents,
  added: s.added,
  updated: s.updated,
  removed: s.removed,
  unchanged: s.unchanged,
});

/** gRPC KnowledgeService: decode, call the domain, encode. */
export function knowledgeHandlers(kb: KnowledgeService, sources: SourceSyncLoop, logger: Logger) {
  return implement(
    knowledgeV1.KnowledgeServiceService,
    {
      teach: async (req, ctx) => {
        const r = await kb.teach({
          teamId: team(req.team_id, ctx),
          content: req.content,
          type: req.type,
          service: req.service,
          tags: req.tags,
          title: req.title,
          author: req.author,
          format: req.format === 'markdown' ? 'markdown' : 'text',
        });
        return {
          document_id: r.document_id,
          ...documentStatusFields(r.status),
          ...levelFields(r.level),
          chunks: r.chunks,
          document_ids: r.document_ids,
          created: r.created ?? false,
        };
      },
      getDocumentStatus: async (req, ctx) => {
        if (!req.document_id) throw invalidRequest('document_id is required');
        const s = await kb.status(team(req.team_id, ctx), req.document_id);
        return { ...s, ...documentStatusFields(s.status) };
      },
      retrieve: async (req, ctx) => {
        const r = await kb.retrieve({
          teamId: team(req.team_id, ctx),
          query: req.query,
          service: req.service || undefined,
          topK: req.top_k,
          strategy: req.strategy || undefined,
          minRelevance: req.min_relevance,
          levels: levelsOf(req),
          signal: ctx.signal,
          internal: req.internal,
        });
        return {
          query_id: r.query_id,
          strategy: r.strategy,
          took_ms: r.took_ms,
          results: r.results.map((c) => ({ ...c, ...levelFields(c.level) })),
        };
      },
      answer: async (req, ctx) => {
        const r = await kb.answer({
          teamId: team(req.team_id, ctx),
          question: req.question,
          includeSources: req.include_sources,
          service: req.service || undefined,
          signal: ctx.signal,
        });
        return {
          query_id: r.query_id,
          answer: r.answer,
          confidence: r.confidence,
          sources: r.sources ?? [],
        };
      },
      feedback: async (req, ctx) => {
        await kb.feedback({
          teamId: team(req.team_id, ctx),
          queryId: req.query_id,
          helpful: req.helpful,
          comment: req.comment,
          documentId: req.document_id || undefined,
        });
        return {};
      },
      getTreeStats: async (req, ctx) => kb.treeStats(team(req.team_id, ctx)),
      listPatterns: async (req, ctx) => {
        const ps = await kb.listPatterns({
          teamId: team(req.team_id, ctx),
          query: req.query,
          service: req.service,
          limit: req.limit,
        });
        return {
          patterns: ps.map((p) => ({
            pattern_id: p.pattern_id,
            symptoms: p.symptoms,
            root_cause: p.root_cause,
            solution: p.solution,
            confidence: Math.round(p.confidence * 1000) / 1000,
            occurrences: p.occurrences,
            service: p.service,
            first_seen_at: p.first_seen_at,
            last_seen_at: p.last_seen_at,
          })),
        };
      },
      deleteDocument: async (req, ctx) => {
        if (!req.document_id) throw invalidRequest('document_id is required');
        await kb.deleteDocument(team(req.team_id, ctx), req.document_id);
        return {};
      },
      getGraph: async (req, ctx) => kb.graph(team(req.team_id, ctx), req.entity, req.depth),
      listSources: async (req, ctx) => ({
        sources: (await sources.status(team(req.team_id, ctx))).map(sourceStatus),
      }),
      syncSources: async (req, ctx) => ({
        sources: (await sources.syncNow(team(req.team_id, ctx))).map(sourceStatus),
      }),
    },
    logger,
  );
}
