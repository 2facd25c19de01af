import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
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
import { DUPLICATE_KEY, fromMongo, isDuplicateKeyError } from '../mongo/mongo-documents';

type DocumentDoc = DocumentRecord & { _id: string };
type QueryDoc = QueryRecord & { _id: string };
type PatternDoc = PatternRecord & { _id: string; events: string[] };
type EdgeDoc = GraphEdgeRecord & { _id: string; team_id: string; events?: string[] };
type TreeMetaDoc = TreeMeta & { _id: string };
interface FeedbackDoc {
  team_id: string;
  query_id: string;
  document_id: string;
  helpful: boolean;
  comment?: string;
  created_at: string;
}
/**
 * One entry per investigation.completed event: written first with the whole change
 * (`applying`), marked `done` after the pattern and edges are stored. An `applying` entry left by
 * a crash is finished by the next delivery of the same event.
 */
interface LearningDoc {
  _id: string;
  team_id: string;
  state: 'applying' | 'done';
  pattern?: PatternRecord;
  expected_version?: number;
  edges?: GraphEdgeRecord[];
  at: string;
}

/** how many event ids a pattern or edge remembers to recognise a replayed write */
const REMEMBERED_EVENTS = 50;

interface WriteError {
  index: number;
  code?: number;
}

/** Drops undefined values so they are not stored as nulls. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const edgeKey = (teamId: string, e: GraphEdgeRecord) =>
  [teamId, e.from, e.to, e.relation].join('\u0000');

/**
 * MongoDB adapter of the knowledge store (distributed mode: several knowledge-raptor replicas on
 * one database). No multi-document transactions (a standalone server has none): every write is a
 * single-document conditional update, and learning from an event goes through a journal entry so
 * a crash part-way is completed, not repeated, by the redelivery.
 */
export class MongoKnowledgeStore implements KnowledgeStore {
  private constructor(
    private readonly documents: Collection<DocumentDoc>,
    private readonly queries: Collection<QueryDoc>,
    private readonly feedback: Collection<FeedbackDoc>,
    private readonly patterns: Collection<PatternDoc>,
    private readonly learnings: Collection<LearningDoc>,
    private readonly edges: Collection<EdgeDoc>,
    private readonly treeMeta: Collection<TreeMetaDoc>,
  ) {}

  static async open(db: Db, prefix = 'kb_'): Promise<MongoKnowledgeStore> {
    const documents = db.collection<DocumentDoc>(`${prefix}documents`);
    await documents.createIndex({ team_id: 1, content_hash: 1 }, { unique: true });
    await documents.createIndex({ status: 1 });
    await documents.createIndex({ team_id: 1, created_at: 1 });
    const feedback = db.collection<FeedbackDoc>(`${prefix}feedback`);
    await feedback.createIndex({ team_id: 1, query_id: 1 });
    const patterns = db.collection<PatternDoc>(`${prefix}patterns`);
    await patterns.createIndex({ team_id: 1 });
    const edges = db.collection<EdgeDoc>(`${prefix}graph_edges`);
    await edges.createIndex({ team_id: 1, from: 1 });
    await edges.createIndex({ team_id: 1, to: 1 });
    return new MongoKnowledgeStore(
      documents,
      db.collection<QueryDoc>(`${prefix}queries`),
      feedback,
      patterns,
      db.collection<LearningDoc>(`${prefix}learning_events`),
      edges,
      db.collection<TreeMetaDoc>(`${prefix}tree_meta`),
    );
  }

  async findDocumentByHash(teamId: string, hash: string) {
    return fromMongo<DocumentRecord>(
      await this.documents.findOne({ team_id: teamId, content_hash: hash }),
    );
  }

  async insertDocument(doc: DocumentRecord) {
    await this.documents.insertOne(defined({ ...doc, _id: doc.document_id }));
  }

  async updateDocumentStatus(
    teamId: string,
    id: string,
    p: { status: string; chunks?: number; indexed_at?: string; error?: string },
  ) {
    const set: Record<string, unknown> = { status: p.status };
    if (p.chunks !== undefined) set['chunks'] = p.chunks;
    if (p.indexed_at !== undefined) set['indexed_at'] = p.indexed_at;
    if (p.error !== undefined) set['error'] = p.error;
    await this.documents.updateOne(
      { _id: id, team_id: teamId },
      p.error === undefined ? { $set: set, $unset: { error: '' } } : { $set: set },
    );
  }

  async getDocument(teamId: string, id: string) {
    return fromMongo<DocumentRecord>(await this.documents.findOne({ _id: id, team_id: teamId }));
  }

  async getDocuments(teamId: string, ids: string[]) {
    if (!ids.length) return [];
    const docs = await this.documents.find({ _id: { $in: ids }, team_id: teamId }).toArray();
    return docs.map((d) => fromMongo<DocumentRecord>(d)!);
  }

  async deleteDocument(teamId: string, id: string) {
    const r = await this.documents.deleteOne({ _id: id, team_id: teamId });
    // the document goes first: leftover feedback of a deleted document is harmless
    if (r.deletedCount) await this.feedback.deleteMany({ team_id: teamId, document_id: id });
    return r.deletedCount > 0;
  }

  async listDocumentsByStatus(status: string) {
    const docs = await this.documents.find({ status }).toArray();
    return docs.map((d) => fromMongo<DocumentRecord>(d)!);
  }

  async listTeamDocuments(teamId: string) {
    const docs = await this.documents
      .find({ team_id: teamId })
      .sort({ created_at: 1, _id: 1 })
      .toArray();
    return docs.map((d) => fromMongo<DocumentRecord>(d)!);
  }

  async countDocuments(teamId: string) {
    return this.documents.countDocuments({ team_id: teamId });
  }

  async recordUsage(teamId: string, ids: string[], at: string) {
    if (!ids.length) return;
    await this.documents.updateMany(
      { _id: { $in: [...new Set(ids)] }, team_id: teamId },
      { $inc: { usage_count: 1 }, $set: { last_used_at: at } },
    );
  }

  async addFeedback(
    teamId: string,
    queryId: string,
    documentIds: string[],
    helpful: boolean,
    comment: string | undefined,
    at: string,
  ) {
    const ids = [...new Set(documentIds)];
    if (!ids.length) return;
    await this.documents.updateMany(
      { _id: { $in: ids }, team_id: teamId },
      { $inc: helpful ? { helpful: 1 } : { unhelpful: 1 } },
    );
    await this.feedback.insertMany(
      ids.map((d) =>
        defined({
          team_id: teamId,
          query_id: queryId,
          document_id: d,
          helpful,
          comment,
          created_at: at,
        }),
      ),
    );
  }

  async insertQuery(q: QueryRecord) {
    await this.queries.insertOne(defined({ ...q, _id: q.query_id }));
  }

  async getQuery(teamId: string, queryId: string) {
    return fromMongo<QueryRecord>(await this.queries.findOne({ _id: queryId, team_id: teamId }));
  }

  async listPatterns(teamId: string) {
    const docs = await this.patterns.find({ team_id: teamId }).toArray();
    return docs.map((d) => fromMongo<PatternRecord>(d, ['events'])!);
  }

  async applyLearning(l: Learning): Promise<LearningOutcome> {
    let entry: LearningDoc = {
      _id: l.eventId,
      team_id: l.teamId,
      state: 'applying',
      pattern: defined(l.pattern),
      expected_version: l.expectedVersion,
      edges: l.edges,
      at: new Date().toISOString(),
    };
    try {
      await this.learnings.insertOne(entry);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const existing = await this.learnings.findOne({ _id: l.eventId });
      // removed by a conflicting attempt in between: the caller reads again and retries
      if (!existing) return 'conflict';
      if (existing.state === 'done') return 'duplicate';
      // an attempt stopped part-way (crash) or is running elsewhere: finish what it recorded
      entry = existing;
    }
    if (!(await this.applyPattern(entry))) {
      await this.learnings.deleteOne({ _id: entry._id, state: 'applying' });
      return 'conflict';
    }
    await this.applyEdges(entry.team_id, entry.edges ?? [], entry._id);
    await this.learnings.updateOne(
      { _id: entry._id },
      { $set: { state: 'done' }, $unset: { pattern: '', edges: '', expected_version: '' } },
    );
    return 'applied';
  }

  /** true when the pattern now carries this event's change (written now or by an earlier attempt) */
  private async applyPattern(entry: LearningDoc): Promise<boolean> {
    const p = entry.pattern!;
    const expected = entry.expected_version ?? 0;
    const eventId = entry._id;
    if (expected === 0) {
      try {
        await this.patterns.insertOne({ ...p, _id: p.pattern_id, version: 1, events: [eventId] });
        return true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    } else {
      const res = await this.patterns.updateOne(
        { _id: p.pattern_id, team_id: entry.team_id, version: expected },
        {
          $set: {
            symptoms: p.symptoms,
            root_cause: p.root_cause,
            solution: p.solution,
            confidence: p.confidence,
            occurrences: p.occurrences,
            last_seen_at: p.last_seen_at,
            version: expected + 1,
          },
          $push: { events: { $each: [eventId], $slice: -REMEMBERED_EVENTS } },
        },
      );
      if (res.modifiedCount === 1) return true;
    }
    return !!(await this.patterns.findOne({ _id: p.pattern_id, events: eventId }));
  }

  async isEventProcessed(eventId: string) {
    return !!(await this.learnings.findOne({ _id: eventId, state: 'done' }));
  }

  async addEdges(teamId: string, edges: GraphEdgeRecord[]) {
    await this.applyEdges(teamId, edges);
  }

  /**
   * Adds edge weights with upserts. With an event id an edge that already counted that event is
   * skipped (its upsert then collides on _id, which is the "already applied" answer).
   */
  private async applyEdges(teamId: string, edges: GraphEdgeRecord[], eventId?: string) {
    if (!edges.length) return;
    const ops: AnyBulkWriteOperation<EdgeDoc>[] = edges.map((e) => ({
      updateOne: {
        filter: eventId
          ? { _id: edgeKey(teamId, e), events: { $ne: eventId } }
          : { _id: edgeKey(teamId, e) },
        update: {
          $inc: { weight: e.weight },
          $setOnInsert: {
            team_id: teamId,
            from: e.from,
            from_kind: e.from_kind,
            to: e.to,
            to_kind: e.to_kind,
            relation: e.relation,
          },
          ...(eventId
            ? { $push: { events: { $each: [eventId], $slice: -REMEMBERED_EVENTS } } }
            : {}),
        },
        upsert: true,
      },
    }));
    try {
      await this.edges.bulkWrite(ops, { ordered: false });
    } catch (err) {
      const raw = (err as { writeErrors?: WriteError[] | WriteError }).writeErrors;
      const failed = Array.isArray(raw) ? raw : raw ? [raw] : [];
      if (!failed.length || failed.some((w) => w.code !== DUPLICATE_KEY)) throw err;
      // with an event guard a duplicate key means the edge already counted this event; without
      // one it is a concurrent first insert of the same edge, which now exists: add to it
      if (!eventId)
        await this.edges.bulkWrite(
          failed.map((w) => ops[w.index]!),
          { ordered: false },
        );
    }
  }

  async edgesAround(teamId: string, entity: string) {
    const docs = await this.edges
      .find({ team_id: teamId, $or: [{ from: entity }, { to: entity }] })
      .toArray();
    return docs.map((d) => ({
      from: d.from,
      from_kind: d.from_kind,
      to: d.to,
      to_kind: d.to_kind,
      relation: d.relation,
      weight: d.weight,
    }));
  }

  async getTreeMeta(teamId: string) {
    return fromMongo<TreeMeta>(await this.treeMeta.findOne({ _id: teamId }));
  }

  async setTreeMeta(teamId: string, m: TreeMeta) {
    await this.treeMeta.replaceOne({ _id: teamId }, defined({ ...m, _id: teamId }), {
      upsert: true,
    });
  }

  async close() {
    // the MongoClient belongs to the composition root, which closes it
  }
}
