/** Storage port of the knowledge service (documents, queries, feedback, patterns, graph, tree). */
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
}

export interface GraphEdgeRecord {
  from: string;
  from_kind: string;
  to: string;
  to_kind: string;
  relation: string;
  weight: number;
}

export interface TreeMeta {
  depth: number;
  nodes_by_level: Record<string, number>;
  last_sync_at?: string;
}

export interface KnowledgeStore {
  findDocumentByHash(teamId: string, hash: string): Promise<DocumentRecord | undefined>;
  insertDocument(doc: DocumentRecord): Promise<void>;
  updateDocumentStatus(
    teamId: string,
    id: string,
    patch: { status: string; chunks?: number; indexed_at?: string; error?: string },
  ): Promise<void>;
  getDocument(teamId: string, id: string): Promise<DocumentRecord | undefined>;
  getDocuments(teamId: string, ids: string[]): Promise<DocumentRecord[]>;
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
  /** applies the pattern change and marks the event processed, atomically; false when already processed */
  applyEvent(eventId: string, work: () => void): Promise<boolean>;
  upsertPatternSync(p: PatternRecord): void;
  isEventProcessed(eventId: string): Promise<boolean>;
  addEdges(teamId: string, edges: GraphEdgeRecord[]): Promise<void>;
  addEdgesSync(teamId: string, edges: GraphEdgeRecord[]): void;
  edgesAround(teamId: string, entity: string): Promise<GraphEdgeRecord[]>;
  getTreeMeta(teamId: string): Promise<TreeMeta | undefined>;
  setTreeMeta(teamId: string, meta: TreeMeta): Promise<void>;
  close(): Promise<void>;
}
