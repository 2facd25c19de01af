import { openSqlite, type SqliteDb } from '@inquest/store';
import { SEEN_EVENTS_TTL_MS, type SeenEvents } from './seen-events';

const MIGRATIONS = [
  {
    id: 'gateway-slack-seen-001',
    sql: `CREATE TABLE slack_seen_events (id TEXT PRIMARY KEY, seen_at INTEGER NOT NULL);
          CREATE INDEX slack_seen_events_at ON slack_seen_events (seen_at);`,
  },
];

/** Expired rows are swept after this many first sightings. */
const SWEEP_EVERY = 500;

/**
 * Seen Slack deliveries in a SQLite file (WAL, busy timeout): shared by the gateway replicas
 * that share the data directory. One conditional upsert decides, so two replicas receiving the
 * same retry at once cannot both win.
 */
export class SqliteSeenEvents implements SeenEvents {
  private db: SqliteDb | undefined;
  private sightings = 0;

  /** The file is opened on first use: a gateway that never hears from Slack creates nothing. */
  constructor(
    private readonly file: string,
    private readonly ttlMs = SEEN_EVENTS_TTL_MS,
  ) {}

  async first(id: string, now: number): Promise<boolean> {
    this.db ??= openSqlite(this.file, MIGRATIONS);
    const won =
      this.db
        .prepare(
          `INSERT INTO slack_seen_events (id, seen_at) VALUES (?, ?)
           ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at WHERE seen_at <= ?`,
        )
        .run(id, now, now - this.ttlMs).changes > 0;
    if (won && ++this.sightings % SWEEP_EVERY === 0)
      this.db.prepare('DELETE FROM slack_seen_events WHERE seen_at <= ?').run(now - this.ttlMs);
    return won;
  }

  async close(): Promise<void> {
    this.db?.close();
    this.db = undefined;
  }
}
