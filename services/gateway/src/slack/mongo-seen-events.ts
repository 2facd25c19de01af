import type { Collection, Db } from 'mongodb';
import { SEEN_EVENTS_TTL_MS, type SeenEvents } from './seen-events';

interface SeenDoc {
  _id: string;
  seen_at: number;
  /** read by the TTL index, which removes a document some time after this */
  expire_at: Date;
}

const DUPLICATE_KEY = 11000;

/**
 * Seen Slack deliveries in MongoDB, next to the shared rate-limit counters: every gateway
 * replica sees the same ids. An upsert that only matches an expired sighting decides atomically:
 * a live sighting makes it collide on `_id` (duplicate key), which means "seen".
 */
export class MongoSeenEvents implements SeenEvents {
  private constructor(
    private readonly coll: Collection<SeenDoc>,
    private readonly ttlMs: number,
  ) {}

  static async open(
    db: Db,
    ttlMs = SEEN_EVENTS_TTL_MS,
    collection = 'gateway_slack_seen_events',
  ): Promise<MongoSeenEvents> {
    const coll = db.collection<SeenDoc>(collection);
    await coll.createIndex({ expire_at: 1 }, { expireAfterSeconds: 0 });
    return new MongoSeenEvents(coll, ttlMs);
  }

  async first(id: string, now: number): Promise<boolean> {
    try {
      // the TTL monitor runs about once a minute, so an expired sighting may still be there
      const r = await this.coll.updateOne(
        { _id: id, seen_at: { $lte: now - this.ttlMs } },
        { $set: { seen_at: now, expire_at: new Date(now + this.ttlMs) } },
        { upsert: true },
      );
      return r.upsertedCount > 0 || r.modifiedCount > 0;
    } catch (err) {
      if ((err as { code?: unknown }).code === DUPLICATE_KEY) return false;
      throw err;
    }
  }

  async close(): Promise<void> {
    // the client belongs to the gateway, which closes it
  }
}
