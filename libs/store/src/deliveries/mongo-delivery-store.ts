import { randomUUID } from 'node:crypto';
import type { Collection, Db, Filter } from 'mongodb';
import {
  attemptRecord,
  laneOf,
  type AttemptOutcome,
  type ClaimOptions,
  type Delivery,
  type DeliveryStore,
  type ListDeliveriesOptions,
  type NewDelivery,
} from './delivery-store';
import { fromMongo, isDuplicateKeyError } from '../mongo/mongo-documents';

type Doc = Delivery & { _id: string; dedupe_key: string; due_at: string | null; seq: number };

/** bookkeeping fields of the stored document that the port does not show */
const INTERNAL = ['dedupe_key', 'due_at', 'seq'];
const strip = (doc: Doc | null | undefined) => fromMongo<Delivery>(doc, INTERNAL);

/**
 * MongoDB adapter (distributed mode). A claim is a single-document conditional update whose
 * filter repeats the due-ness condition, so two replicas racing for one delivery cannot both win.
 */
export class MongoDeliveryStore implements DeliveryStore {
  private constructor(private readonly col: Collection<Doc>) {}

  static async open(db: Db, collection = 'deliveries'): Promise<MongoDeliveryStore> {
    const col = db.collection<Doc>(collection);
    await col.createIndex({ dedupe_key: 1 }, { unique: true });
    await col.createIndex(
      { due_at: 1 },
      { partialFilterExpression: { due_at: { $type: 'string' } } },
    );
    await col.createIndex({ team_id: 1, seq: -1 });
    return new MongoDeliveryStore(col);
  }

  async create(input: NewDelivery): Promise<{ delivery: Delivery; created: boolean }> {
    const { dedupe_key, ...rest } = input;
    const doc: Doc = {
      ...rest,
      _id: input.delivery_id,
      dedupe_key,
      status: 'pending',
      attempts: 0,
      updated_at: input.created_at,
      due_at: input.next_attempt_at,
      seq: Date.now() * 1000 + Math.floor(Math.random() * 1000),
    };
    try {
      await this.col.insertOne(doc);
      return { delivery: strip(doc)!, created: true };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const existing = await this.col.findOne({ dedupe_key });
      if (!existing) throw err;
      return { delivery: strip(existing)!, created: false };
    }
  }

  async get(deliveryId: string): Promise<Delivery | undefined> {
    return strip(await this.col.findOne({ _id: deliveryId }));
  }

  async list(teamId: string, options: ListDeliveriesOptions): Promise<Delivery[]> {
    const filter: Filter<Doc> = { team_id: teamId };
    if (options.status) filter.status = options.status;
    if (options.channel) filter.channel = options.channel;
    const docs = await this.col.find(filter).sort({ seq: -1 }).limit(options.limit).toArray();
    return docs.map((d) => strip(d)!);
  }

  async claimDue(options: ClaimOptions): Promise<Delivery[]> {
    if (options.limit <= 0) return [];
    const leaseUntil = new Date(Date.parse(options.now) + options.leaseMs).toISOString();
    const capacity = new Map(Object.entries(options.laneCapacity ?? {}));
    const defaultCap = options.defaultLaneCapacity ?? Number.POSITIVE_INFINITY;
    const out: Delivery[] = [];
    // Lanes already full are left out of the query, so a long blocked lane cannot hide others.
    const full = [...capacity].filter(([, left]) => left <= 0).map(([lane]) => lane);
    const filter: Filter<Doc> = { due_at: { $type: 'string', $lte: options.now } };
    if (full.length) {
      filter.$nor = full.map((lane) => {
        const cut = lane.lastIndexOf('/');
        return { team_id: lane.slice(0, cut), channel: lane.slice(cut + 1) as Doc['channel'] };
      });
    }
    const candidates = await this.col
      .find(filter)
      .sort({ due_at: 1 })
      .limit(Math.max(options.limit * 4, 64))
      .toArray();
    for (const c of candidates) {
      if (out.length >= options.limit) break;
      const lane = laneOf(c);
      const left = capacity.get(lane) ?? defaultCap;
      if (left <= 0) continue;
      const claimId = randomUUID();
      const won = await this.col.findOneAndUpdate(
        {
          _id: c._id,
          due_at: { $type: 'string', $lte: options.now },
          claim_id: c.claim_id ?? null,
        } as Filter<Doc>,
        {
          $set: {
            status: 'delivering',
            lease_owner: options.owner,
            lease_until: leaseUntil,
            claim_id: claimId,
            due_at: leaseUntil,
            updated_at: options.now,
          },
          $inc: { attempts: 1 },
        },
        { returnDocument: 'after' },
      );
      if (!won) continue;
      capacity.set(lane, left - 1);
      out.push(strip(won)!);
    }
    return out;
  }

  async complete(deliveryId: string, claimId: string, o: AttemptOutcome): Promise<boolean> {
    const nextAt = o.status === 'pending' ? (o.next_attempt_at ?? o.updated_at) : null;
    const set: Record<string, unknown> = {
      status: o.status,
      attempts: o.attempts,
      last_status_code: o.last_status_code ?? null,
      last_error: o.last_error ?? null,
      next_attempt_at: nextAt,
      updated_at: o.updated_at,
      lease_owner: null,
      lease_until: null,
      claim_id: null,
      due_at: nextAt,
    };
    if (o.delivered_at) set['delivered_at'] = o.delivered_at;
    const res = await this.col.updateOne(
      { _id: deliveryId, claim_id: claimId, status: 'delivering' },
      { $set: set as Partial<Doc>, $push: { attempt_log: attemptRecord(o) } },
    );
    return res.modifiedCount === 1;
  }

  async renew(deliveryId: string, claimId: string, leaseUntil: string): Promise<boolean> {
    const res = await this.col.updateOne(
      { _id: deliveryId, claim_id: claimId, status: 'delivering' },
      { $set: { lease_until: leaseUntil, due_at: leaseUntil } },
    );
    return res.matchedCount === 1;
  }

  async nextDueAt(): Promise<string | undefined> {
    const doc = await this.col
      .find({ due_at: { $type: 'string' } })
      .sort({ due_at: 1 })
      .limit(1)
      .next();
    return doc?.due_at ?? undefined;
  }

  async close(): Promise<void> {
    // the MongoClient belongs to the caller
  }
}
