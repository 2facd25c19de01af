/**
 * The knowledge base's types, levels and limits: one declaration for the REST contract (the zod
 * schemas) and for knowledge-raptor, which checks the same rules behind gRPC.
 */

/**
 * Knowledge types and their level (API-DECISIONS "Knowledge"), and the spec's own names of the
 * levels (Procedural, Factual, Temporal; Policy is a type already) as types of their level.
 */
export const TYPE_LEVEL = {
  runbook: 'L1',
  procedure: 'L1',
  remediation: 'L1',
  fact: 'L2',
  configuration: 'L2',
  threshold: 'L2',
  sla: 'L2',
  incident: 'L3',
  deployment: 'L3',
  policy: 'L4',
  escalation: 'L4',
  oncall: 'L4',
  procedural: 'L1',
  factual: 'L2',
  temporal: 'L3',
} as const satisfies Record<string, 'L1' | 'L2' | 'L3' | 'L4'>;

export type KnowledgeTypeName = keyof typeof TYPE_LEVEL;

export const KNOWLEDGE_TYPES = Object.keys(TYPE_LEVEL) as [
  KnowledgeTypeName,
  ...KnowledgeTypeName[],
];

/** Largest document (or answer context) a teach accepts, in UTF-8 bytes. */
export const MAX_CONTENT_BYTES = 1024 * 1024;

/** Most results one retrieval answers. */
export const MAX_TOP_K = 100;
