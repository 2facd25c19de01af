import { openSqlite, type SqliteDb } from '../sqlite/open-sqlite';
import type {
  DocumentRecord,
  GraphEdgeRecord,
  KnowledgeStore,
  Learning,
  LearningOutcome,
  PatternRecord,
  QueryRecord,
  TreeMeta,
} from './knowledge-store';

const MIGRATIONS = [
  {
    id: 'kb-001',
    sql: `
      CREATE TABLE kb_documents (
        document_id TEXT PRIMARY KEY, team_id TEXT NOT NULL, content_hash TEXT NOT NULL, type TEXT NOT NULL,
        level TEXT NOT NULL, service TEXT, tags TEXT NOT NULL, title TEXT, author TEXT, content TEXT NOT NULL,
        status TEXT NOT NULL, chunks INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, indexed_at TEXT, error TEXT,
        usage_count INTEGER NOT NULL DEFAULT 0, helpful INTEGER NOT NULL DEFAULT 0, unhelpful INTEGER NOT NULL DEFAULT 0,
        last_used_at TEXT, confidence REAL NOT NULL, source TEXT NOT NULL,
        UNIQUE (team_id, content_hash));
      CREATE INDEX kb_documents_status ON kb_documents (status);
      CREATE TABLE kb_queries (query_id TEXT PRIMARY KEY, team_id TEXT NOT NULL, query TEXT NOT NULL, service TEXT,
        document_ids TEXT NOT NULL, created_at TEXT NOT NULL);
      CREATE TABLE kb_feedback (id INTEGER PRIMARY KEY, team_id TEXT NOT NULL, query_id TEXT NOT NULL, document_id TEXT NOT NULL,
        helpful INTEGER NOT NULL, comment TEXT, created_at TEXT NOT NULL);
      CREATE TABLE kb_patterns (pattern_id TEXT PRIMARY KEY, team_id TEXT NOT NULL, service TEXT, symptoms TEXT NOT NULL,
        root_cause TEXT NOT NULL, solution TEXT NOT NULL, confidence REAL NOT NULL, base_confidence REAL NOT NULL,
        occurrences INTEGER NOT NULL, first_seen_at TEXT NOT NULL, last_seen_at TEXT NOT NULL);
      CREATE INDEX kb_patterns_team ON kb_patterns (team_id);
      CREATE TABLE kb_processed_events (event_id TEXT PRIMARY KEY, processed_at TEXT NOT NULL);
      CREATE TABLE kb_graph_edges (team_id TEXT NOT NULL, from_id TEXT NOT NULL, from_kind TEXT NOT NULL, to_id TEXT NOT NULL,
        to_kind TEXT NOT NULL, relation TEXT NOT NULL, weight REAL NOT NULL, PRIMARY KEY (team_id, from_id, to_id, relation));
      CREATE INDEX kb_graph_to ON kb_graph_edges (team_id, to_id);
      CREATE TABLE kb_tree_meta (team_id TEXT PRIMARY KEY, depth INTEGER NOT NULL, nodes_by_level TEXT NOT NULL, last_sync_at TEXT);
    `,
  },
  {
    id: 'kb-002',
    sql: 'ALTER TABLE kb_patterns ADD COLUMN version INTEGER NOT NULL DEFAULT 1;',
  },
];

type Row = Record<string, unknown>;

function toDoc(r: Row): DocumentRecord {
  return {
    document_id: r['document_id'] as string,
    team_id: r['team_id'] as string,
    content_hash: r['content_hash'] as string,
    type: r['type'] as string,
    level: r['level'] as string,
    service: (r['service'] as string | null) ?? undefined,
    tags: JSON.parse(r['tags'] as string) as string[],
    title: (r['title'] as string | null) ?? undefined,
    author: (r['author'] as string | null) ?? undefined,
    content: r['content'] as string,
    status: r['status'] as string,
    chunks: r['chunks'] as number,
    created_at: r['created_at'] as string,
    indexed_at: (r['indexed_at'] as string | null) ?? undefined,
    error: (r['error'] as string | null) ?? undefined,
    usage_count: r['usage_count'] as number,
    helpful: r['helpful'] as number,
    unhelpful: r['unhelpful'] as number,
    last_used_at: (r['last_used_at'] as string | null) ?? undefined,
    confidence: r['confidence'] as number,
    source: r['source'] as string,
  };
}

function toPattern(r: Row): PatternRecord {
  return {
    pattern_id: r['pattern_id'] as string,
    team_id: r['team_id'] as string,
    service: (r['service'] as string | null) ?? undefined,
    symptoms: JSON.parse(r['symptoms'] as string) as string[],
    root_cause: r['root_cause'] as string,
    solution: r['solution'] as string,
    confidence: r['confidence'] as number,
    base_confidence: r['base_confidence'] as number,
    occurrences: r['occurrences'] as number,
    first_seen_at: r['first_seen_at'] as string,
    last_seen_at: r['last_seen_at'] as string,
    version: r['version'] as number,
  };
}

/** SQLite adapter of the knowledge store (knowledge.db in the data dir). */
export class SqliteKnowledgeStore implements KnowledgeStore {
  private constructor(private readonly db: SqliteDb) {}

  static open(file: string): SqliteKnowledgeStore {
    return new SqliteKnowledgeStore(openSqlite(file, MIGRATIONS));
  }

  async findDocumentByHash(teamId: string, hash: string) {
    const r = this.db
      .prepare('SELECT * FROM kb_documents WHERE team_id = ? AND content_hash = ?')
      .get(teamId, hash) as Row | undefined;
    return r ? toDoc(r) : undefined;
  }

  async insertDocument(d: DocumentRecord) {
    this.db
      .prepare(
        `INSERT INTO kb_documents (document_id, team_id, content_hash, type, level, service, tags, title, author, content, status,
          chunks, created_at, indexed_at, error, usage_count, helpful, unhelpful, last_used_at, confidence, source)
         VALUES (@document_id, @team_id, @content_hash, @type, @level, @service, @tags, @title, @author, @content, @status,
          @chunks, @created_at, @indexed_at, @error, @usage_count, @helpful, @unhelpful, @last_used_at, @confidence, @source)`,
      )
      .run({
        ...d,
        service: d.service ?? null,
        title: d.title ?? null,
        author: d.author ?? null,
        indexed_at: d.indexed_at ?? null,
        error: d.error ?? null,
        last_used_at: d.last_used_at ?? null,
        tags: JSON.stringify(d.tags),
      });
  }

  async updateDocumentStatus(
    teamId: string,
    id: string,
    p: { status: string; chunks?: number; indexed_at?: string; error?: string },
  ) {
    this.db
      .prepare(
        'UPDATE kb_documents SET status = ?, chunks = COALESCE(?, chunks), indexed_at = COALESCE(?, indexed_at), error = ? WHERE +team_id = ? AND document_id = ?',
      )
      .run(p.status, p.chunks ?? null, p.indexed_at ?? null, p.error ?? null, teamId, id);
  }

  async getDocument(teamId: string, id: string) {
    const r = this.db
      .prepare('SELECT * FROM kb_documents WHERE +team_id = ? AND document_id = ?')
      .get(teamId, id) as Row | undefined;
    return r ? toDoc(r) : undefined;
  }

  async getDocuments(teamId: string, ids: string[]) {
    if (!ids.length) return [];
    const out: DocumentRecord[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const rows = this.db
        .prepare(
          `SELECT * FROM kb_documents WHERE +team_id = ? AND document_id IN (${part.map(() => '?').join(',')})`,
        )
        .all(teamId, ...part) as Row[];
      out.push(...rows.map(toDoc));
    }
    return out;
  }

  async deleteDocument(teamId: string, id: string) {
    return this.db.transaction(() => {
      const gone = this.db
        .prepare('DELETE FROM kb_documents WHERE +team_id = ? AND document_id = ?')
        .run(teamId, id).changes;
      if (gone) {
        this.db
          .prepare('DELETE FROM kb_feedback WHERE team_id = ? AND document_id = ?')
          .run(teamId, id);
      }
      return gone > 0;
    })();
  }

  async listDocumentsByStatus(status: string) {
    return (
      this.db.prepare('SELECT * FROM kb_documents WHERE status = ?').all(status) as Row[]
    ).map(toDoc);
  }

  async listTeamDocuments(teamId: string) {
    return (
      this.db
        .prepare('SELECT * FROM kb_documents WHERE team_id = ? ORDER BY created_at')
        .all(teamId) as Row[]
    ).map(toDoc);
  }

  async countDocuments(teamId: string) {
    return (
      this.db.prepare('SELECT count(*) AS n FROM kb_documents WHERE team_id = ?').get(teamId) as {
        n: number;
      }
    ).n;
  }

  async recordUsage(teamId: string, ids: string[], at: string) {
    const st = this.db.prepare(
      'UPDATE kb_documents SET usage_count = usage_count + 1, last_used_at = ? WHERE +team_id = ? AND document_id = ?',
    );
    this.db.transaction(() => {
      for (const id of new Set(ids)) st.run(at, teamId, id);
    })();
  }

  async addFeedback(
    teamId: string,
    queryId: string,
    documentIds: string[],
    helpful: boolean,
    comment: string | undefined,
    at: string,
  ) {
    const ins = this.db.prepare(
      'INSERT INTO kb_feedback (team_id, query_id, document_id, helpful, comment, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const upd = this.db.prepare(
      `UPDATE kb_documents SET ${helpful ? 'helpful = helpful + 1' : 'unhelpful = unhelpful + 1'} WHERE +team_id = ? AND document_id = ?`,
    );
    this.db.transaction(() => {
      for (const d of new Set(documentIds)) {
        ins.run(teamId, queryId, d, helpful ? 1 : 0, comment ?? null, at);
        upd.run(teamId, d);
      }
    })();
  }

  async insertQuery(q: QueryRecord) {
    this.db
      .prepare(
        'INSERT INTO kb_queries (query_id, team_id, query, service, document_ids, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        q.query_id,
        q.team_id,
        q.query,
        q.service ?? null,
        JSON.stringify(q.document_ids),
        q.created_at,
      );
  }

  async getQuery(teamId: string, queryId: string) {
    const r = this.db
      .prepare('SELECT * FROM kb_queries WHERE +team_id = ? AND query_id = ?')
      .get(teamId, queryId) as Row | undefined;
    if (!r) return undefined;
    return {
      query_id: r['query_id'] as string,
      team_id: r['team_id'] as string,
      query: r['query'] as string,
      service: (r['service'] as string | null) ?? undefined,
      document_ids: JSON.parse(r['document_ids'] as string) as string[],
      created_at: r['created_at'] as string,
    };
  }

  async listPatterns(teamId: string) {
    return (
      this.db.prepare('SELECT * FROM kb_patterns WHERE team_id = ?').all(teamId) as Row[]
    ).map(toPattern);
  }

  async applyLearning(l: Learning): Promise<LearningOutcome> {
    // one transaction: the version check, the writes and the processed mark succeed together
    return this.db.transaction((): LearningOutcome => {
      if (this.db.prepare('SELECT 1 FROM kb_processed_events WHERE event_id = ?').get(l.eventId))
        return 'duplicate';
      const p = l.pattern;
      const row = { ...p, service: p.service ?? null, symptoms: JSON.stringify(p.symptoms) };
      if (l.expectedVersion === 0) {
        const inserted = this.db
          .prepare(
            `INSERT INTO kb_patterns (pattern_id, team_id, service, symptoms, root_cause, solution, confidence, base_confidence, occurrences, first_seen_at, last_seen_at, version)
             VALUES (@pattern_id, @team_id, @service, @symptoms, @root_cause, @solution, @confidence, @base_confidence, @occurrences, @first_seen_at, @last_seen_at, 1)
             ON CONFLICT (pattern_id) DO NOTHING`,
          )
          .run(row);
        if (!inserted.changes) return 'conflict';
      } else {
        const updated = this.db
          .prepare(
            `UPDATE kb_patterns SET symptoms = @symptoms, root_cause = @root_cause, solution = @solution, confidence = @confidence,
               occurrences = @occurrences, last_seen_at = @last_seen_at, version = version + 1
             WHERE pattern_id = @pattern_id AND team_id = @team_id AND version = @expected`,
          )
          .run({ ...row, expected: l.expectedVersion });
        if (!updated.changes) return 'conflict';
      }
      this.insertEdges(l.teamId, l.edges);
      this.db
        .prepare('INSERT INTO kb_processed_events (event_id, processed_at) VALUES (?, ?)')
        .run(l.eventId, new Date().toISOString());
      return 'applied';
    })();
  }

  async isEventProcessed(eventId: string) {
    return !!this.db.prepare('SELECT 1 FROM kb_processed_events WHERE event_id = ?').get(eventId);
  }

  async addEdges(teamId: string, edges: GraphEdgeRecord[]) {
    this.db.transaction(() => this.insertEdges(teamId, edges))();
  }

  private insertEdges(teamId: string, edges: GraphEdgeRecord[]) {
    const st = this.db.prepare(
      `INSERT INTO kb_graph_edges (team_id, from_id, from_kind, to_id, to_kind, relation, weight) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (team_id, from_id, to_id, relation) DO UPDATE SET weight = weight + excluded.weight`,
    );
    for (const e of edges)
      st.run(teamId, e.from, e.from_kind, e.to, e.to_kind, e.relation, e.weight);
  }

  async edgesAround(teamId: string, entity: string) {
    const rows = this.db
      .prepare('SELECT * FROM kb_graph_edges WHERE team_id = ? AND (from_id = ? OR to_id = ?)')
      .all(teamId, entity, entity) as Row[];
    return rows.map((r) => ({
      from: r['from_id'] as string,
      from_kind: r['from_kind'] as string,
      to: r['to_id'] as string,
      to_kind: r['to_kind'] as string,
      relation: r['relation'] as string,
      weight: r['weight'] as number,
    }));
  }

  async getTreeMeta(teamId: string) {
    const r = this.db.prepare('SELECT * FROM kb_tree_meta WHERE team_id = ?').get(teamId) as
      Row | undefined;
    if (!r) return undefined;
    return {
      depth: r['depth'] as number,
      nodes_by_level: JSON.parse(r['nodes_by_level'] as string) as Record<string, number>,
      last_sync_at: (r['last_sync_at'] as string | null) ?? undefined,
    };
  }

  async setTreeMeta(teamId: string, m: TreeMeta) {
    this.db
      .prepare(
        `INSERT INTO kb_tree_meta (team_id, depth, nodes_by_level, last_sync_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (team_id) DO UPDATE SET depth = excluded.depth, nodes_by_level = excluded.nodes_by_level, last_sync_at = excluded.last_sync_at`,
      )
      .run(teamId, m.depth, JSON.stringify(m.nodes_by_level), m.last_sync_at ?? null);
  }

  async close() {
    if (this.db.open) this.db.close();
  }
}
