import { z } from 'zod';
import { KNOWLEDGE_TYPES, MAX_CONTENT_BYTES, MAX_TOP_K } from './kb-limits';

export const KnowledgeType = z
  .enum(KNOWLEDGE_TYPES, { message: `type must be one of ${KNOWLEDGE_TYPES.join(', ')}` })
  .describe(
    'runbook, procedure, remediation, procedural: L1; fact, configuration, threshold, sla, factual: L2; incident, deployment, temporal: L3; policy, escalation, oncall: L4',
  );

export const KnowledgeLevel = z.enum(['L1', 'L2', 'L3', 'L4']);
export const RetrievalStrategy = z.enum(['dense', 'sparse', 'hybrid'], {
  message: 'strategy must be one of dense, sparse, hybrid',
});

const content = (what: string) =>
  z
    .string({ message: `${what} is required and must be a string` })
    .refine((s) => s.trim().length > 0, `${what} must not be empty`)
    .refine(
      (s) => Buffer.byteLength(s, 'utf8') <= MAX_CONTENT_BYTES,
      `${what} must be at most 1 MiB`,
    );

const Tags = z
  .array(
    z
      .string({ message: 'tags must be strings' })
      .trim()
      .min(1, 'tags must not be empty')
      .max(64, 'a tag is at most 64 characters'),
    {
      message: 'tags must be an array of strings',
    },
  )
  .max(32, 'at most 32 tags')
  .describe('Free-form labels (at most 32, each 1..64 characters)');

const Service = z
  .string({ message: 'service must be a string' })
  .trim()
  .min(1)
  .max(128)
  .describe('Service the knowledge is about');

/** Body of POST /kb/teach. */
export const TeachRequest = z.object({
  content: content('content').describe('The knowledge text (Markdown allowed; at most 1 MiB)'),
  type: KnowledgeType,
  service: Service.optional(),
  tags: Tags.optional(),
  title: z.string().trim().min(1).max(300).optional().describe('Title (extension)'),
});
export type TeachRequest = z.infer<typeof TeachRequest>;

/** Body of POST /kb/documents: a Markdown file split by its top-level headings. */
export const DocumentUploadRequest = z.object({
  content: content('content').describe('Markdown; one document per top-level heading section'),
  type: KnowledgeType.default('runbook'),
  service: Service.optional(),
  tags: Tags.optional(),
  title: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .optional()
    .describe('Title used for text before the first heading'),
});
export type DocumentUploadRequest = z.infer<typeof DocumentUploadRequest>;

export const TeachResponse = z.object({
  document_id: z.string(),
  status: z.enum(['pending', 'indexed']),
  level: KnowledgeLevel,
  chunks: z.number().int().describe('Leaf chunks stored (all sections for an upload)'),
  document_ids: z
    .array(z.string())
    .optional()
    .describe('Every document created by a Markdown upload'),
});
export type TeachResponse = z.infer<typeof TeachResponse>;

export const DocumentStatusQuery = z.object({
  document_id: z
    .string({ message: 'document_id is required' })
    .min(1, 'document_id is required')
    .max(100),
});
export type DocumentStatusQuery = z.infer<typeof DocumentStatusQuery>;

export const DocumentIdParams = z.object({
  document_id: z
    .string()
    .regex(/^doc_[0-9a-f]{20}$/, 'document_id must look like doc_ followed by 20 hex digits')
    .describe('Document id as returned by POST /kb/teach or /kb/documents'),
});
export type DocumentIdParams = z.infer<typeof DocumentIdParams>;

export const DocumentStatus = z.object({
  document_id: z.string(),
  status: z.enum(['pending', 'indexed', 'failed']),
  indexed_at: z.string().optional(),
  chunks: z.number().int(),
});
export type DocumentStatus = z.infer<typeof DocumentStatus>;

/** Body of POST /kb/retrieve; defaults come from knowledge_base.retrieval. */
export const RetrieveRequest = z.object({
  query: z
    .string({ message: 'query is required and must be a string' })
    .max(8192, 'query must be at most 8192 characters')
    .refine((s) => s.trim().length > 0, 'query must not be empty'),
  service: Service.optional(),
  top_k: z
    .number({ message: 'top_k must be a number' })
    .int('top_k must be an integer')
    .min(1, 'top_k must be at least 1')
    .max(MAX_TOP_K, `top_k must be at most ${MAX_TOP_K}`)
    .optional(),
  strategy: RetrievalStrategy.optional(),
  min_relevance: z
    .number({ message: 'min_relevance must be a number' })
    .min(0, 'min_relevance must be in [0,1]')
    .max(1, 'min_relevance must be in [0,1]')
    .optional()
    .describe('Extension: overrides knowledge_base.retrieval.min_relevance'),
  levels: z
    .array(KnowledgeLevel)
    .max(4)
    .optional()
    .describe('Extension: restrict to knowledge levels'),
});
export type RetrieveRequest = z.infer<typeof RetrieveRequest>;

export const RetrievedChunk = z.object({
  id: z.string(),
  document_id: z.string(),
  content: z.string(),
  score: z.number().describe('0..1: relevance adjusted by the ranking signals'),
  level: KnowledgeLevel,
  type: z.string().describe('Knowledge type, or `summary` for a RAPTOR summary node'),
  service: z
    .string()
    .nullable()
    .describe('Service of the document; null where it names none (RAPTOR summaries among them)'),
  tags: z.array(z.string()),
  tree_layer: z.number().int().describe('0 for taught chunks, 1.. for RAPTOR summary layers'),
  title: z.string().optional(),
  provenance: z
    .enum(['authored', 'generated'])
    .optional()
    .describe(
      'authored: taught by people; generated: learned from investigations or a RAPTOR summary',
    ),
  occurrences: z
    .number()
    .int()
    .optional()
    .describe('Generated incidents: investigations that found this failure'),
  last_seen_at: z.string().optional().describe('Generated incidents: when it was last found'),
});

export const RetrieveResponse = z.object({
  query_id: z.string(),
  strategy: RetrievalStrategy,
  results: z.array(RetrievedChunk),
  took_ms: z.number(),
});
export type RetrieveResponse = z.infer<typeof RetrieveResponse>;

export const AnswerRequest = z.object({
  question: z
    .string({ message: 'question is required and must be a string' })
    .max(8192, 'question must be at most 8192 characters')
    .refine((s) => s.trim().length > 0, 'question must not be empty'),
  include_sources: z.boolean({ message: 'include_sources must be a boolean' }).optional(),
  service: Service.optional(),
});
export type AnswerRequest = z.infer<typeof AnswerRequest>;

export const AnswerResponse = z.object({
  query_id: z.string(),
  answer: z.string(),
  confidence: z.number().describe('0..1'),
  sources: z
    .array(
      z.object({
        document_id: z.string(),
        title: z.string(),
        snippet: z.string(),
        score: z.number(),
        type: z
          .string()
          .optional()
          .describe('Knowledge type of the passage, `summary` for a tree node'),
        provenance: z.enum(['authored', 'generated']).optional(),
      }),
    )
    .optional(),
});
export type AnswerResponse = z.infer<typeof AnswerResponse>;

export const FeedbackRequest = z.object({
  query_id: z.string({ message: 'query_id is required' }).min(1, 'query_id is required').max(100),
  helpful: z.boolean({ message: 'helpful is required and must be a boolean' }),
  comment: z.string().max(4000).optional(),
  document_id: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Extension: the result the feedback is about (default: all results of the query)'),
});
export type FeedbackRequest = z.infer<typeof FeedbackRequest>;

export const TreeStats = z.object({
  total_documents: z.number().int(),
  total_chunks: z.number().int(),
  tree_depth: z.number().int(),
  nodes_by_level: z
    .record(z.string(), z.number().int())
    .describe('Tree layer ("0" = leaves) to node count'),
  last_sync_at: z
    .string()
    .nullable()
    .describe(
      'When a knowledge source of the team (knowledge_base.sources) was last synced (null before the first sync)',
    ),
});
export type TreeStats = z.infer<typeof TreeStats>;

export const KnowledgeSourceStatus = z.object({
  name: z.string().describe('Its name in knowledge_base.sources'),
  kind: z.enum(['git', 'web', 'confluence']),
  url: z.string(),
  state: z
    .enum(['never', 'ok', 'error'])
    .describe('never: not synced yet; ok: the last sync succeeded; error: it failed'),
  last_sync_at: z.string().nullable().describe('When the last sync ended'),
  last_success_at: z.string().nullable().describe('When the last successful sync ended'),
  error: z
    .string()
    .nullable()
    .describe(
      "Why the last sync failed (state error: the source's documents are kept), or which documents it skipped (state ok)",
    ),
  documents: z
    .number()
    .int()
    .describe('Source documents (files, pages) held in the knowledge base'),
  added: z.number().int().describe('Taught by the last sync'),
  updated: z.number().int().describe('Taught again by the last sync (a new version)'),
  removed: z.number().int().describe('Gone from the source: their documents were deleted'),
  unchanged: z.number().int().describe('Same version: skipped'),
});
export type KnowledgeSourceStatus = z.infer<typeof KnowledgeSourceStatus>;

export const KnowledgeSourceList = z.object({ sources: z.array(KnowledgeSourceStatus) });
export type KnowledgeSourceList = z.infer<typeof KnowledgeSourceList>;

export const PatternsQuery = z.object({
  query: z.string().max(8192).optional().describe('Rank patterns by match with this text'),
  service: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type PatternsQuery = z.infer<typeof PatternsQuery>;

export const LearnedPattern = z.object({
  pattern_id: z.string(),
  symptoms: z.array(z.string()),
  root_cause: z.string(),
  solution: z.string(),
  confidence: z.number().describe('0..1, grows with occurrences'),
  occurrences: z.number().int(),
  service: z.string().optional(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
});
export const PatternList = z.object({ patterns: z.array(LearnedPattern) });
export type PatternList = z.infer<typeof PatternList>;

export const GraphQuery = z.object({
  entity: z.string({ message: 'entity is required' }).trim().min(1, 'entity is required').max(200),
  depth: z.coerce.number().int().min(1).max(3).default(1),
});
export type GraphQuery = z.infer<typeof GraphQuery>;

export const KnowledgeGraph = z.object({
  entity: z.string(),
  nodes: z.array(z.object({ id: z.string(), kind: z.enum(['service', 'team', 'person']) })),
  edges: z.array(
    z.object({
      from: z.string(),
      to: z.string(),
      relation: z.enum(['depends_on', 'owned_by', 'expert_in', 'related_to']),
      weight: z.number(),
    }),
  ),
});
export type KnowledgeGraph = z.infer<typeof KnowledgeGraph>;
