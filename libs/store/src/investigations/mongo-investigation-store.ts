import type { Collection, Db, Filter } from 'mongodb';
import type {
  ClaimOutcome,
  FinishPatch,
  InvestigationRecord,
  InvestigationStore,
  ListInvestigationsQuery,
  ProgressRecord,
} from './investigation-store';

type Doc = InvestigationRecord & { _id: string; seq: number };

const ACTIVE = ['pending', 'running'];
const CLEAR_LEASE = { progress: '', lease_owner: '', lease_expires_at: '' } as const;

function strip(doc: Doc | null | undefined): InvestigationRecord | undefined {
  if (!doc) return undefined;
  const { _id, seq, ...rest } = doc;
  void _id;
  void seq;
  return rest as InvestigationRecord;
}

/**
 * MongoDB adapter (distributed mode). Transitions are single-document conditional updates
 * (findOneAndUpdate with the precondition in the filter), so concurrent runners and cancels race
 * safely without transactions.
 */
export class MongoInvestigationStore implements InvestigationStore {
  private constructor(private readonly col: Collection<Doc>) {}

  static async open(db: Db, collection = 'investigations'): Promise<MongoInvestigationStore> {
    const col = db.collection<Doc>(collection);
    await col.createIndex({ team_id: 1, created_at: -1, seq: -1 });
    await col.createIndex({ status: 1 });
    return new MongoInvestigationStore(col);
  }

  async create(record: InvestigationRecord): Promise<void> {
    // seq breaks ties between investigations created in the same millisecond
    await this.col.insertOne({
      ...record,
      _id: record.investigation_id,
      seq: Date.now() * 1000 + Math.floor(Math.random() * 1000),
    });
  }

  async get(teamId: string, investigationId: string): Promise<InvestigationRecord | undefined> {
    return strip(await this.col.findOne({ _id: investigationId, team_id: teamId }));
  }

  async getById(investigationId: string): Promise<InvestigationRecord | undefined> {
    return strip(await this.col.findOne({ _id: investigationId }));
  }

  async list(q: ListInvestigationsQuery): Promise<{ items: InvestigationRecord[]; total: number }> {
    const filter: Filter<Doc> = { team_id: q.teamId };
    if (q.status) filter.status = q.status as Doc['status'];
    if (q.agent) filter.agent = q.agent;
    const [total, docs] = await Promise.all([
      this.col.countDocuments(filter),
      this.col
        .find(filter)
        .sort({ created_at: -1, seq: -1 })
        .skip(q.offset)
        .limit(q.limit)
        .toArray(),
    ]);
    return { items: docs.map((d) => strip(d)!), total };
  }

  async claim(
    investigationId: string,
    owner: string,
    leaseMs: number,
    maxAttempts: number,
    now = Date.now(),
  ): Promise<ClaimOutcome> {
    const updated = await this.col.findOneAndUpdate(
      {
        _id: investigationId,
        attempt: { $lt: maxAttempts },
        $or: [
          { status: 'pending' },
          { status: 'running', lease_expires_at: { $lte: now } },
          { status: 'running', lease_owner: owner },
        ],
      },
      [
        {
          $set: {
            status: 'running',
            attempt: { $add: ['$attempt', 1] },
            lease_owner: owner,
            lease_expires_at: now + leaseMs,
            started_at: { $ifNull: ['$started_at', new Date(now).toISOString()] },
          },
        },
      ],
      { returnDocument: 'after' },
    );
    if (updated) return { kind: 'claimed', record: strip(updated)! };
    const rec = await this.getById(investigationId);
    if (!rec) return { kind: 'missing' };
    if (!ACTIVE.includes(rec.status)) return { kind: 'terminal', record: rec };
    if (
      rec.status === 'running' &&
      (rec.lease_expires_at ?? 0) > now &&
      rec.lease_owner !== owner
    ) {
      return { kind: 'busy', record: rec };
    }
    return { kind: 'exhausted', record: rec };
  }

  async renewLease(
    investigationId: string,
    owner: string,
    leaseMs: number,
    now = Date.now(),
  ): Promise<boolean> {
    const r = await this.col.updateOne(
      { _id: investigationId, status: 'running', lease_owner: owner },
      { $set: { lease_expires_at: now + leaseMs } },
    );
    return r.matchedCount === 1;
  }

  async updateProgress(
    investigationId: string,
    owner: string,
    progress: ProgressRecord,
    toolsUsed?: string[],
  ): Promise<boolean> {
    const set: Partial<Doc> = { progress };
    if (toolsUsed) set.tools_used = toolsUsed;
    const r = await this.col.updateOne(
      { _id: investigationId, status: 'running', lease_owner: owner },
      { $set: set },
    );
    return r.matchedCount === 1;
  }

  async finish(
    investigationId: string,
    owner: string | undefined,
    patch: FinishPatch,
  ): Promise<InvestigationRecord | undefined> {
    const filter: Filter<Doc> =
      owner === undefined
        ? { _id: investigationId, status: { $in: ACTIVE as Doc['status'][] } }
        : {
            _id: investigationId,
            $or: [{ status: 'pending' }, { status: 'running', lease_owner: owner }],
          };
    const set: Record<string, unknown> = { status: patch.status };
    const unset: Record<string, ''> = { ...CLEAR_LEASE };
    if (patch.status === 'completed') {
      set.completed_at = patch.at;
      set.result = patch.result;
      unset.error = '';
    } else {
      set.failed_at = patch.at;
      set.error = patch.error ?? { code: 'internal', message: 'internal error' };
    }
    if (patch.tools_used) set.tools_used = patch.tools_used;
    if (patch.duration_seconds !== undefined) set.duration_seconds = patch.duration_seconds;
    const doc = await this.col.findOneAndUpdate(
      filter,
      { $set: set, $unset: unset },
      { returnDocument: 'after' },
    );
    return strip(doc);
  }

  async cancel(
    teamId: string,
    investigationId: string,
    at: string,
  ): Promise<InvestigationRecord | undefined> {
    const doc = await this.col.findOneAndUpdate(
      { _id: investigationId, team_id: teamId, status: { $in: ACTIVE as Doc['status'][] } },
      { $set: { status: 'cancelled', cancelled_at: at }, $unset: { ...CLEAR_LEASE } },
      { returnDocument: 'after' },
    );
    return strip(doc);
  }

  async listUnfinished(limit = 1000): Promise<InvestigationRecord[]> {
    const docs = await this.col
      .find({ status: { $in: ACTIVE as Doc['status'][] } })
      .sort({ seq: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => strip(d)!);
  }

  async close(): Promise<void> {
    // the MongoClient belongs to the caller
  }
}
