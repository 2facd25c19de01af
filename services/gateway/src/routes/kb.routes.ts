import {
  AnswerRequest,
  AnswerResponse,
  DocumentIdParams,
  DocumentStatus,
  DocumentStatusQuery,
  DocumentUploadRequest,
  FeedbackRequest,
  GraphQuery,
  KnowledgeGraph,
  KnowledgeSourceList,
  PatternList,
  PatternsQuery,
  RetrieveRequest,
  RetrieveResponse,
  TeachRequest,
  TeachResponse,
  TreeStats,
} from '@inquest/api-contract';
import type { knowledgeV1 } from '@inquest/proto';
import {
  chunkBody,
  documentStatusOf,
  knowledgeLevelOf,
  levelFilterFields,
} from '../grpc/knowledge-messages';
import { defineRoute, type ApiRequest, type RouteDef } from '../http/route';
import type { GatewayDeps } from './gateway-deps';
import { err, teamOf } from './route-helpers';

const sourceBody = (s: knowledgeV1.SourceStatus): KnowledgeSourceList['sources'][number] => ({
  name: s.name,
  kind: s.kind as KnowledgeSourceList['sources'][number]['kind'],
  url: s.url,
  state: s.state as KnowledgeSourceList['sources'][number]['state'],
  last_sync_at: s.last_sync_at ?? null,
  last_success_at: s.last_success_at ?? null,
  error: s.error ?? null,
  documents: s.documents,
  added: s.added,
  updated: s.updated,
  removed: s.removed,
  unchanged: s.unchanged,
});

/** A sync reads whole repositories and spaces: longer than the knowledge client's deadline. */
const SYNC_DEADLINE_MS = 600_000;

type TeachFields = Pick<TeachRequest, 'content' | 'type' | 'service' | 'tags' | 'title'>;

function teachBody(r: knowledgeV1.TeachResponse, withIds: boolean): TeachResponse {
  const body: TeachResponse = {
    document_id: r.document_id,
    // a teach answers pending or indexed (indexing failures show in the document's status)
    status: documentStatusOf(r) === 'indexed' ? 'indexed' : 'pending',
    level: knowledgeLevelOf(r),
    chunks: r.chunks,
  };
  if (withIds) body.document_ids = r.document_ids;
  return body;
}

/** Routes of /kb/*: teach, retrieve, answer, feedback, status, tree stats, sources, patterns, graph, uploads. */
export function kbRoutes({ clients }: GatewayDeps): RouteDef[] {
  const kb = clients.knowledge;
  /** POST /kb/teach and /kb/documents differ only in how the content is split. */
  const teach = (req: ApiRequest<TeachFields, unknown, unknown>, format: 'text' | 'markdown') =>
    kb.teach(
      {
        team_id: teamOf(req),
        content: req.body.content,
        type: req.body.type,
        service: req.body.service,
        tags: req.body.tags ?? [],
        title: req.body.title,
        author: req.auth.identity,
        format,
      },
      { ctx: req.ctx, signal: req.signal },
    );
  return [
    defineRoute({
      method: 'post',
      path: '/kb/teach',
      summary: 'Add knowledge',
      description:
        'Chunks, embeds and indexes the content (searchable at once). Identical content is stored once.',
      tags: ['kb'],
      auth: 'team',
      permission: 'write',
      rateClass: 'write',
      body: TeachRequest,
      invalidCode: 'validation_error',
      responses: {
        201: { description: 'Document stored', schema: TeachResponse },
        400: err('Empty content, unknown type, bad tags'),
        413: err('Body over 1 MiB'),
      },
      handler: async (req) => ({ status: 201, body: teachBody(await teach(req, 'text'), false) }),
    }),
    defineRoute({
      method: 'post',
      path: '/kb/documents',
      summary: 'Upload a Markdown document',
      description:
        'Extension: the Markdown is split by its top-level headings, one document per section.',
      tags: ['kb'],
      auth: 'team',
      permission: 'write',
      rateClass: 'write',
      body: DocumentUploadRequest,
      invalidCode: 'validation_error',
      responses: {
        201: { description: 'Documents stored', schema: TeachResponse },
        400: err('Bad document'),
      },
      handler: async (req) => ({
        status: 201,
        body: teachBody(await teach(req, 'markdown'), true),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/kb/status',
      summary: 'Check whether a document is indexed',
      tags: ['kb'],
      auth: 'team',
      permission: 'read',
      query: DocumentStatusQuery,
      invalidCode: 'validation_error',
      responses: {
        200: { description: 'Indexing status', schema: DocumentStatus },
        404: err('Unknown document'),
      },
      handler: async (req) => {
        const r = await kb.getDocumentStatus(
          { team_id: teamOf(req), document_id: req.query.document_id },
          { ctx: req.ctx, signal: req.signal },
        );
        const body: DocumentStatus = {
          document_id: r.document_id,
          status: documentStatusOf(r),
          chunks: r.chunks,
        };
        if (r.indexed_at) body.indexed_at = r.indexed_at;
        return { status: 200, body };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/kb/documents/:document_id',
      summary: 'Delete a knowledge document',
      description:
        "Removes a document of the caller's team and its chunks: retrieval and answers no longer use it. Another team's document is not found.",
      tags: ['kb'],
      auth: 'team',
      permission: 'write',
      rateClass: 'write',
      params: DocumentIdParams,
      invalidCode: 'validation_error',
      responses: {
        204: { description: 'Deleted' },
        400: err('Malformed document_id'),
        404: err('Unknown document'),
      },
      handler: async (req) => {
        await kb.deleteDocument(
          { team_id: teamOf(req), document_id: req.params.document_id },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/kb/retrieve',
      summary: 'Retrieve knowledge',
      description:
        'Collapsed-tree search over every RAPTOR layer (dense, sparse BM25 or hybrid RRF), optional reranker, then the ranking signals. Defaults from knowledge_base.retrieval; results below min_relevance are dropped.',
      tags: ['kb'],
      auth: 'team',
      permission: 'read',
      rateClass: 'read',
      body: RetrieveRequest,
      invalidCode: 'validation_error',
      responses: {
        200: { description: 'Ranked results', schema: RetrieveResponse },
        400: err('Bad query, top_k, strategy or min_relevance'),
      },
      handler: async (req) => {
        const r = await kb.retrieve(
          {
            team_id: teamOf(req),
            query: req.body.query,
            service: req.body.service,
            top_k: req.body.top_k,
            strategy: req.body.strategy,
            min_relevance: req.body.min_relevance,
            ...levelFilterFields(req.body.levels ?? []),
          },
          { ctx: req.ctx, signal: req.signal },
        );
        return {
          status: 200,
          body: {
            query_id: r.query_id,
            strategy: r.strategy,
            took_ms: r.took_ms,
            results: r.results.map((x) => ({
              ...chunkBody(x),
              // every result has the documented field: null where the document names no service
              service: x.service || null,
              title: x.title || undefined,
            })),
          },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/kb/answer',
      summary: 'Answer with sources',
      tags: ['kb'],
      auth: 'team',
      permission: 'read',
      rateClass: 'read',
      body: AnswerRequest,
      invalidCode: 'validation_error',
      responses: {
        200: { description: 'Answer', schema: AnswerResponse },
        400: err('Bad question'),
      },
      handler: async (req) => {
        const include = req.body.include_sources ?? false;
        const r = await kb.answer(
          {
            team_id: teamOf(req),
            question: req.body.question,
            include_sources: include,
            service: req.body.service,
          },
          { ctx: req.ctx, signal: req.signal },
        );
        const body: AnswerResponse = {
          query_id: r.query_id,
          answer: r.answer,
          confidence: r.confidence,
        };
        if (include)
          body.sources = r.sources.map((x) => ({
            ...x,
            type: x.type || undefined,
            provenance:
              x.provenance === 'authored' || x.provenance === 'generated'
                ? x.provenance
                : undefined,
          }));
        return { status: 200, body };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/kb/feedback',
      summary: 'Give feedback on retrieval',
      description:
        'Moves the feedback signal of the documents the query returned (or of `document_id` only).',
      tags: ['kb'],
      auth: 'team',
      permission: 'write',
      rateClass: 'write',
      body: FeedbackRequest,
      invalidCode: 'validation_error',
      responses: {
        204: { description: 'Recorded' },
        400: err('Bad body'),
        404: err('Unknown query_id or document_id'),
      },
      handler: async (req) => {
        await kb.feedback(
          {
            team_id: teamOf(req),
            query_id: req.body.query_id,
            helpful: req.body.helpful,
            comment: req.body.comment,
            document_id: req.body.document_id,
          },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/kb/tree/stats',
      summary: 'Knowledge tree statistics',
      tags: ['kb'],
      auth: 'team',
      permission: 'read',
      responses: {
        200: {
          description: 'Documents, chunks, depth, nodes by layer, last sync',
          schema: TreeStats,
        },
      },
      handler: async (req) => {
        const r = await kb.getTreeStats(
          { team_id: teamOf(req) },
          { ctx: req.ctx, signal: req.signal },
        );
        const body: TreeStats = {
          total_documents: r.total_documents,
          total_chunks: r.total_chunks,
          tree_depth: r.tree_depth,
          nodes_by_level: r.nodes_by_level,
          last_sync_at: r.last_sync_at ?? null,
        };
        return { status: 200, body };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/kb/sources',
      summary: 'Knowledge sources and their sync status',
      description:
        "Extension: each source of the team's knowledge_base.sources (Git, web pages, Confluence) with its last sync: when, what it did, and the error when it failed.",
      tags: ['kb'],
      auth: 'team',
      permission: 'read',
      responses: { 200: { description: 'Sources by name', schema: KnowledgeSourceList } },
      handler: async (req) => {
        const r = await kb.listSources(
          { team_id: teamOf(req) },
          { ctx: req.ctx, signal: req.signal },
        );
        const body: KnowledgeSourceList = { sources: r.sources.map(sourceBody) };
        return { status: 200, body };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/kb/sources/sync',
      summary: 'Sync the knowledge sources now',
      description:
        "Extension: syncs every source of the team now, whatever its sync_interval, and answers once done with each source's status (a failed source is an `error` state, not a failed request).",
      tags: ['kb'],
      auth: 'team',
      permission: 'write',
      rateClass: 'write',
      responses: { 200: { description: 'Sources after the sync', schema: KnowledgeSourceList } },
      handler: async (req) => {
        const r = await kb.syncSources(
          { team_id: teamOf(req) },
          { ctx: req.ctx, signal: req.signal, deadlineMs: SYNC_DEADLINE_MS },
        );
        const body: KnowledgeSourceList = { sources: r.sources.map(sourceBody) };
        return { status: 200, body };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/kb/patterns',
      summary: 'Learned patterns',
      description:
        'Extension: patterns learned from completed investigations, by confidence or by match with `query`.',
      tags: ['kb'],
      auth: 'team',
      permission: 'read',
      query: PatternsQuery,
      invalidCode: 'validation_error',
      responses: { 200: { description: 'Patterns', schema: PatternList } },
      handler: async (req) => {
        const r = await kb.listPatterns(
          {
            team_id: teamOf(req),
            query: req.query.query,
            service: req.query.service,
            limit: req.query.limit,
          },
          { ctx: req.ctx, signal: req.signal },
        );
        return {
          status: 200,
          body: { patterns: r.patterns.map((p) => ({ ...p, service: p.service || undefined })) },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/kb/graph',
      summary: 'Knowledge-graph neighbourhood of an entity',
      description:
        'Extension: services, teams and people with depends_on, owned_by, expert_in and related_to edges.',
      tags: ['kb'],
      auth: 'team',
      permission: 'read',
      query: GraphQuery,
      invalidCode: 'validation_error',
      responses: {
        200: { description: 'Nodes and edges', schema: KnowledgeGraph },
        404: err('Entity not in the graph'),
      },
      handler: async (req) => {
        const r = await kb.getGraph(
          { team_id: teamOf(req), entity: req.query.entity, depth: req.query.depth },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 200, body: r };
      },
    }),
  ];
}
