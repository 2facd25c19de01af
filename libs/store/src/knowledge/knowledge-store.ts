/**
 * Storage port of the knowledge service: documents and their indexing status, queries and
 * feedback, learned patterns, the knowledge graph and tree metadata. Vectors live in the
 * vector index (libs/vector), not here.
 */
export interface DocumentRecord {
  document_id: string;
  team_id: string;
  content_hash: string;
  type: string;
  level: string;
  service?: string;
  tags: string[];
  title?: string;
  author?: string;
  content: string;
  /** pending | indexed | failed */
  status: string;
  chunks: number;
  created_at: string;
  indexed_at?: string;
  error?: string;
  usage_count: number;
  helpful: number;
  unhelpful: number;
  last_used_at?: string;
  /** 0..1: how much the source is trusted (taught 0.7, incidents from their root-cause confidence) */
  confidence: number;
  source: string;
}

export interface QueryRecord {
  query_id: string;
  team_id: string;
  query: string;
  service?: string;
  document_ids: string[];
  created_at: string;
}

export interface PatternRecord {
  pattern_id: string;
  team_id: string;
  service?: string;
  symptoms: string[];
  root_cause: string;
  solution: string;
  confidence: number;
  base_confidence: number;
  occurrences: number;
  first_seen_at: string;
  last_seen_at: string;
  /** optimistic-concurrency version: 1 after the first write, +1 on every update */
  version: number;
}

export interface GraphEdgeRecord {
  from: string;
  from_kind: string;
  to: string;
  to_kind: string;
  relation: string;
  weight: number;
}

/** What one investigation.completed event teaches: the pattern it creates or repeats, graph edges. */
export interface Learning {
  eventId: string;
  teamId: string;
  /** the pattern as it should be after this event (its `version` field is ignored) */
  pattern: PatternRecord;
  /** the version of the pattern that was read to compute `pattern`; 0 for a new pattern */
  expectedVersion: number;
  /** edges whose weights are added to the graph */
  edges: GraphEdgeRecord[];
}

/**
 * `applied`: the pattern and edges are stored and the event is marked processed (exactly once);
 * `duplicate`: the event was processed before, nothing changed;
 * `conflict`: the pattern changed since it was read (another event won), nothing changed:
 * read the patterns again and recompute.
 */
export type LearningOutcome = 'applied' | 'duplicate' | 'conflict';

export interface TreeMeta {
  depth: number;
  nodes_by_level: Record<string, number>;
  last_sync_at?: string;
}

export interface KnowledgeStore {
  findDocumentByHash(teamId: string, hash: string): Promise<DocumentRecord | undefined>;
  /** rejects when the team already has a document with the same content hash */
  insertDocument(doc: DocumentRecord): Promise<void>;
  updateDocumentStatus(
    teamId: string,
    id: string,
    patch: { status: string; chunks?: number; indexed_at?: string; error?: string },
  ): Promise<void>;
  getDocument(teamId: string, id: string): Promise<DocumentRecord | undefined>;
  getDocuments(teamId: string, ids: string[]): Promise<DocumentRecord[]>;
  /**
   * Removes a team's document (its feedback goes with it); true when it existed. Another team's
   * id is treated as unknown. The chunks in the vector index are the caller's to remove.
   */
  deleteDocument(teamId: string, id: string): Promise<boolean>;
  listDocumentsByStatus(status: string): Promise<DocumentRecord[]>;
  listTeamDocuments(teamId: string): Promise<DocumentRecord[]>;
  countDocuments(teamId: string): Promise<number>;
  recordUsage(teamId: string, ids: string[], at: string): Promise<void>;
  addFeedback(
    teamId: string,
    queryId: string,
    documentIds: string[],
    helpful: boolean,
    comment: string | undefined,
    at: string,
  ): Promise<void>;
  insertQuery(q: QueryRecord): Promise<void>;
  getQuery(teamId: string, queryId: string): Promise<QueryRecord | undefined>;
  listPatterns(teamId: string): Promise<PatternRecord[]>;
  /**
   * Stores what an event taught, at most once per event id and only if the pattern is still at
   * `expectedVersion`. A crash part-way leaves the event unprocessed; applying the same learning
   * again completes it without counting anything twice.
   */
  applyLearning(learning: Learning): Promise<LearningOutcome>;
  isEventProcessed(eventId: string): Promise<boolean>;
  /** adds the edges' weights (an existing edge's weight grows) */
  addEdges(teamId: string, edges: GraphEdgeRecord[]): Promise<void>;
  edgesAround(teamId: string, entity: string): Promise<GraphEdgeRecord[]>;
  getTreeMeta(teamId: string): Promise<TreeMeta | undefined>;
  setTreeMeta(teamId: string, meta: TreeMeta): Promise<void>;
  close(): Promise<void>;
}
