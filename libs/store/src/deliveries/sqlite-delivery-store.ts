import { randomUUID } from 'node:crypto';
import { migrate, openSqlite, type Migration, type SqliteDb } from '../sqlite/open-sqlite';
import {
  laneOf,
  attemptRecord,
  type AttemptOutcome,
  type ClaimOptions,
  type Delivery,
  type DeliveryAttempt,
  type DeliverySecretScope,
  type DeliveryStore,
  type ListDeliveriesOptions,
  type NewDelivery,
} from './delivery-store';

// `due_at` is when the row next becomes claimable: next_attempt_at while pending, lease_until
// while delivering, NULL once final. One indexed column keeps the claim query a range scan.
const MIGRATIONS: Migration[] = [
  {
    id: '001-deliveries',
    sql: `
      CREATE TABLE deliveries (
        delivery_id TEXT PRIMARY KEY,
        dedupe_key TEXT NOT NULL UNIQUE,
        team_id TEXT NOT NULL,
        event TEXT NOT NULL,
        event_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        target TEXT NOT NULL,
        payload TEXT NOT NULL,
        secret_ref TEXT,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_status_code INTEGER,
        last_error TEXT,
        next_attempt_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        delivered_at TEXT,
        redelivery_of TEXT,
        lease_owner TEXT,
        lease_until TEXT,
        claim_id TEXT,
        due_at TEXT,
        seq INTEGER NOT NULL
      );
      CREATE INDEX deliveries_due ON deliveries (due_at) WHERE due_at IS NOT NULL;
      CREATE INDEX deliveries_team ON deliveries (team_id, seq DESC);
    `,
  },
  {
    id: '002-secret-scope',
    sql: `ALTER TABLE deliveries ADD COLUMN secret_scope TEXT;`,
  },
  {
    id: '003-attempt-log',
    sql: `ALTER TABLE deliveries ADD COLUMN attempt_log TEXT;`,
  },
];

interface Row {
  delivery_id: string;
  team_id: string;
  event: string;
  event_id: string;
  channel: string;
  target: string;
  payload: string;
  secret_ref: string | null;
  secret_scope: string | null;
  attempt_log: string | null;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  redelivery_of: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  claim_id: string | null;
}

function fromRow(r: Row): Delivery {
  const d: Delivery = {
    delivery_id: r.delivery_id,
    team_id: r.team_id,
    event: r.event,
    event_id: r.event_id,
    channel: r.channel as Delivery['channel'],
    target: r.target,
    payload: JSON.parse(r.payload) as unknown,
    status: r.status as Delivery['status'],
    attempts: r.attempts,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
  if (r.secret_ref !== null) d.secret_ref = r.secret_ref;
  if (r.secret_scope !== null) d.secret_scope = JSON.parse(r.secret_scope) as DeliverySecretScope;
  if (r.last_status_code !== null) d.last_status_code = r.last_status_code;
  if (r.last_error !== null) d.last_error = r.last_error;
  if (r.next_attempt_at !== null) d.next_attempt_at = r.next_attempt_at;
  if (r.delivered_at !== null) d.delivered_at = r.delivered_at;
  if (r.redelivery_of !== null) d.redelivery_of = r.redelivery_of;
  if (r.attempt_log !== null) d.attempt_log = JSON.parse(r.attempt_log) as DeliveryAttempt[];
  if (r.lease_owner !== null) d.lease_owner = r.lease_owner;
  if (r.lease_until !== null) d.lease_until = r.lease_until;
  if (r.claim_id !== null) d.claim_id = r.claim_id;
  return d;
}

/** SQLite adapter (embedded mode): several processes may share the file; claims are transactions. */
export class SqliteDeliveryStore implements DeliveryStore {
  private constructor(
    private readonly db: SqliteDb,
    private readonly ownsDb: boolean,
  ) {}

  /** Opens (or creates) the file and applies migrations. */
  static open(file: string): SqliteDeliveryStore {
    return new SqliteDeliveryStore(openSqlite(file, MIGRATIONS), true);
  }

  /** Uses an already opened database (shared with other stores). */
  static on(db: SqliteDb): SqliteDeliveryStore {
    migrate(db, MIGRATIONS);
    return new SqliteDeliveryStore(db, false);
  }

  async create(input: NewDelivery): Promise<{ delivery: Delivery; created: boolean }> {
    const res = this.db
      .prepare(
        `INSERT INTO deliveries (delivery_id, dedupe_key, team_id, event, event_id, channel, target, payload,
           secret_ref, secret_scope, status, attempts, next_attempt_at, created_at, updated_at, redelivery_of, due_at, seq)
         VALUES (@delivery_id, @dedupe_key, @team_id, @event, @event_id, @channel, @target, @payload,
           @secret_ref, @secret_scope, 'pending', 0, @next_attempt_at, @created_at, @created_at, @redelivery_of, @next_attempt_at,
           (SELECT COALESCE(MAX(seq), 0) + 1 FROM deliveries))
         ON CONFLICT (dedupe_key) DO NOTHING`,
      )
      .run({
        ...input,
        payload: JSON.stringify(input.payload ?? null),
        secret_ref: input.secret_ref ?? null,
        secret_scope: input.secret_scope ? JSON.stringify(input.secret_scope) : null,
        redelivery_of: input.redelivery_of ?? null,
      });
    const row = this.db
      .prepare('SELECT * FROM deliveries WHERE dedupe_key = ?')
      .get(input.dedupe_key) as Row;
    return { delivery: fromRow(row), created: res.changes === 1 };
  }

  async get(deliveryId: string): Promise<Delivery | undefined> {
    const row = this.db
      .prepare('SELECT * FROM deliveries WHERE delivery_id = ?')
      .get(deliveryId) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  async list(teamId: string, options: ListDeliveriesOptions): Promise<Delivery[]> {
    const where = ['team_id = @teamId'];
    if (options.status) where.push('status = @status');
    if (options.channel) where.push('channel = @channel');
    const rows = this.db
      .prepare(
        `SELECT * FROM deliveries WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT @limit`,
      )
      .all({
        teamId,
        status: options.status,
        channel: options.channel,
        limit: options.limit,
      }) as Row[];
    return rows.map(fromRow);
  }

  async claimDue(options: ClaimOptions): Promise<Delivery[]> {
    if (options.limit <= 0) return [];
    const leaseUntil = new Date(Date.parse(options.now) + options.leaseMs).toISOString();
    const capacity = new Map(Object.entries(options.laneCapacity ?? {}));
    const defaultCap = options.defaultLaneCapacity ?? Number.POSITIVE_INFINITY;
    const select = this.db.prepare(
      'SELECT * FROM deliveries WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ? OFFSET ?',
    );
    const claim = this.db.prepare(
      `UPDATE deliveries SET status = 'delivering', lease_owner = @owner, lease_until = @leaseUntil,
         claim_id = @claimId, due_at = @leaseUntil, updated_at = @now, attempts = attempts + 1
       WHERE delivery_id = @id`,
    );
    // IMMEDIATE takes the write lock first, so two processes never select the same rows.
    const run = this.db.transaction((): Delivery[] => {
      const out: Delivery[] = [];
      const page = Math.max(options.limit * 4, 64);
      for (let offset = 0; out.length < options.limit; offset += page) {
        const rows = select.all(options.now, page, offset) as Row[];
        for (const r of rows) {
          if (out.length >= options.limit) break;
          const lane = laneOf({ team_id: r.team_id, channel: r.channel as Delivery['channel'] });
          const left = capacity.get(lane) ?? defaultCap;
          if (left <= 0) continue;
          capacity.set(lane, left - 1);
          const claimId = randomUUID();
          claim.run({
            owner: options.owner,
            leaseUntil,
            claimId,
            now: options.now,
            id: r.delivery_id,
          });
          out.push(
            fromRow({
              ...r,
              status: 'delivering',
              attempts: r.attempts + 1,
              lease_owner: options.owner,
              lease_until: leaseUntil,
              claim_id: claimId,
              updated_at: options.now,
            }),
          );
        }
        if (rows.length < page) break;
      }
      return out;
    });
    return run.immediate();
  }

  async complete(deliveryId: string, claimId: string, o: AttemptOutcome): Promise<boolean> {
    const res = this.db
      .prepare(
        `UPDATE deliveries SET status = @status, attempts = @attempts, last_status_code = @last_status_code,
           last_error = @last_error, next_attempt_at = @next_attempt_at, delivered_at = COALESCE(@delivered_at, delivered_at),
           updated_at = @updated_at, lease_owner = NULL, lease_until = NULL, claim_id = NULL,
           attempt_log = json_insert(COALESCE(attempt_log, '[]'), '$[#]', json(@entry)),
           due_at = CASE WHEN @status = 'pending' THEN @next_attempt_at ELSE NULL END
         WHERE delivery_id = @id AND claim_id = @claimId AND status = 'delivering'`,
      )
      .run({
        id: deliveryId,
        claimId,
        status: o.status,
        attempts: o.attempts,
        last_status_code: o.last_status_code ?? null,
        last_error: o.last_error ?? null,
        next_attempt_at: o.status === 'pending' ? (o.next_attempt_at ?? o.updated_at) : null,
        delivered_at: o.delivered_at ?? null,
        updated_at: o.updated_at,
        entry: JSON.stringify(attemptRecord(o)),
      });
    return res.changes === 1;
  }

  async renew(deliveryId: string, claimId: string, leaseUntil: string): Promise<boolean> {
    const res = this.db
      .prepare(
        `UPDATE deliveries SET lease_until = @leaseUntil, due_at = @leaseUntil
         WHERE delivery_id = @id AND claim_id = @claimId AND status = 'delivering'`,
      )
      .run({ id: deliveryId, claimId, leaseUntil });
    return res.changes === 1;
  }

  async nextDueAt(): Promise<string | undefined> {
    const row = this.db
      .prepare('SELECT MIN(due_at) AS due FROM deliveries WHERE due_at IS NOT NULL')
      .get() as {
      due: string | null;
    };
    return row.due ?? undefined;
  }

  async close(): Promise<void> {
    if (this.ownsDb && this.db.open) this.db.close();
  }
}
