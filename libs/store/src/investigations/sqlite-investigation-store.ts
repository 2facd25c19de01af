import type { Statement } from 'better-sqlite3';
import { openSqlite, type Migration, type SqliteDb } from '../sqlite/open-sqlite';
import type {
  ClaimOutcome,
  FinishPatch,
  InvestigationRecord,
  InvestigationStore,
  ListInvestigationsQuery,
  ProgressRecord,
} from './investigation-store';

const MIGRATIONS: Migration[] = [
  {
    id: '001-investigations',
    sql: `
      CREATE TABLE investigations (
        investigation_id TEXT PRIMARY KEY,
        team_id TEXT NOT NULL,
        status TEXT NOT NULL,
        agent TEXT NOT NULL,
        created_at TEXT NOT NULL,
        seq INTEGER NOT NULL,
        doc TEXT NOT NULL
      );
      CREATE INDEX investigations_team ON investigations (team_id, created_at DESC, seq DESC);
      CREATE INDEX investigations_status ON investigations (status);
    `,
  },
];

interface Row {
  doc: string;
}

const ACTIVE = new Set(['pending', 'running']);

/** SQLite adapter (embedded mode): one row per investigation, the record as JSON. */
export class SqliteInvestigationStore implements InvestigationStore {
  private seq = 0;
  private readonly statements = new Map<string, Statement<unknown[]>>();

  private constructor(private readonly db: SqliteDb) {
    const row = db.prepare('SELECT MAX(seq) AS m FROM investigations').get() as {
      m: number | null;
    };
    this.seq = row.m ?? 0;
  }

  /** Opens (creating) the file; several stores may share one file. */
  static open(file: string): SqliteInvestigationStore {
    return new SqliteInvestigationStore(openSqlite(file, MIGRATIONS));
  }

  async create(record: InvestigationRecord): Promise<void> {
    this.stmt(
      'INSERT INTO investigations (investigation_id, team_id, status, agent, created_at, seq, doc) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(
      record.investigation_id,
      record.team_id,
      record.status,
      record.agent,
      record.created_at,
      ++this.seq,
      JSON.stringify(record),
    );
  }

  async get(teamId: string, investigationId: string): Promise<InvestigationRecord | undefined> {
    const rec = this.read(investigationId);
    return rec && rec.team_id === teamId ? rec : undefined;
  }

  async getById(investigationId: string): Promise<InvestigationRecord | undefined> {
    return this.read(investigationId);
  }

  async list(q: ListInvestigationsQuery): Promise<{ items: InvestigationRecord[]; total: number }> {
    const where = ['team_id = ?'];
    const args: unknown[] = [q.teamId];
    if (q.status) {
      where.push('status = ?');
      args.push(q.status);
    }
    if (q.agent) {
      where.push('agent = ?');
      args.push(q.agent);
    }
    const w = where.join(' AND ');
    const total = (
      this.stmt(`SELECT COUNT(*) AS n FROM investigations WHERE ${w}`).get(...args) as { n: number }
    ).n;
    const rows = this.stmt(
      `SELECT doc FROM investigations WHERE ${w} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`,
    ).all(...args, q.limit, q.offset) as Row[];
    return { items: rows.map((r) => JSON.parse(r.doc) as InvestigationRecord), total };
  }

  async claim(
    investigationId: string,
    owner: string,
    leaseMs: number,
    maxAttempts: number,
    now = Date.now(),
  ): Promise<ClaimOutcome> {
    // IMMEDIATE: the write lock is taken before the read, so two runner processes sharing the
    // file cannot both see the lease free (and a deferred upgrade cannot fail with SQLITE_BUSY)
    return this.db
      .transaction((): ClaimOutcome => {
        const rec = this.read(investigationId);
        if (!rec) return { kind: 'missing' };
        if (!ACTIVE.has(rec.status)) return { kind: 'terminal', record: rec };
        const leaseLive =
          rec.status === 'running' &&
          (rec.lease_expires_at ?? 0) > now &&
          rec.lease_owner !== owner;
        if (leaseLive) return { kind: 'busy', record: rec };
        if (rec.attempt >= maxAttempts) return { kind: 'exhausted', record: rec };
        rec.status = 'running';
        rec.attempt += 1;
        rec.lease_owner = owner;
        rec.lease_expires_at = now + leaseMs;
        rec.started_at ??= new Date(now).toISOString();
        this.write(rec);
        return { kind: 'claimed', record: rec };
      })
      .immediate();
  }

  async renewLease(
    investigationId: string,
    owner: string,
    leaseMs: number,
    now = Date.now(),
  ): Promise<boolean> {
    return this.db
      .transaction(() => {
        const rec = this.read(investigationId);
        if (!rec || rec.status !== 'running' || rec.lease_owner !== owner) return false;
        rec.lease_expires_at = now + leaseMs;
        this.write(rec);
        return true;
      })
      .immediate();
  }

  async updateProgress(
    investigationId: string,
    owner: string,
    progress: ProgressRecord,
    toolsUsed?: string[],
  ): Promise<boolean> {
    return this.db
      .transaction(() => {
        const rec = this.read(investigationId);
        if (!rec || rec.status !== 'running' || rec.lease_owner !== owner) return false;
        rec.progress = progress;
        if (toolsUsed) rec.tools_used = toolsUsed;
        this.write(rec);
        return true;
      })
      .immediate();
  }

  async finish(
    investigationId: string,
    owner: string | undefined,
    patch: FinishPatch,
  ): Promise<InvestigationRecord | undefined> {
    return this.db
      .transaction(() => {
        const rec = this.read(investigationId);
        if (!rec || !ACTIVE.has(rec.status)) return undefined;
        if (owner !== undefined && rec.status === 'running' && rec.lease_owner !== owner)
          return undefined;
        applyFinish(rec, patch);
        this.write(rec);
        return rec;
      })
      .immediate();
  }

  async cancel(
    teamId: string,
    investigationId: string,
    at: string,
  ): Promise<InvestigationRecord | undefined> {
    return this.db
      .transaction(() => {
        const rec = this.read(investigationId);
        if (!rec || rec.team_id !== teamId || !ACTIVE.has(rec.status)) return undefined;
        rec.status = 'cancelled';
        rec.cancelled_at = at;
        delete rec.progress;
        delete rec.lease_owner;
        delete rec.lease_expires_at;
        this.write(rec);
        return rec;
      })
      .immediate();
  }

  async listUnfinished(limit = 1000): Promise<InvestigationRecord[]> {
    const rows = this.stmt(
      "SELECT doc FROM investigations WHERE status IN ('pending','running') ORDER BY seq LIMIT ?",
    ).all(limit) as Row[];
    return rows.map((r) => JSON.parse(r.doc) as InvestigationRecord);
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private stmt(sql: string): Statement<unknown[]> {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare<unknown[]>(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  private read(id: string): InvestigationRecord | undefined {
    const row = this.stmt('SELECT doc FROM investigations WHERE investigation_id = ?').get(id) as
      Row | undefined;
    return row ? (JSON.parse(row.doc) as InvestigationRecord) : undefined;
  }

  private write(rec: InvestigationRecord): void {
    this.stmt('UPDATE investigations SET status = ?, doc = ? WHERE investigation_id = ?').run(
      rec.status,
      JSON.stringify(rec),
      rec.investigation_id,
    );
  }
}

/** Shared by the adapters: the terminal write of completed/failed. */
export function applyFinish(rec: InvestigationRecord, patch: FinishPatch): void {
  rec.status = patch.status;
  if (patch.status === 'completed') {
    rec.completed_at = patch.at;
    rec.result = patch.result;
    delete rec.error;
  } else {
    rec.failed_at = patch.at;
    rec.error = patch.error ?? { code: 'internal', message: 'internal error' };
  }
  if (patch.tools_used) rec.tools_used = patch.tools_used;
  if (patch.duration_seconds !== undefined) rec.duration_seconds = patch.duration_seconds;
  delete rec.progress;
  delete rec.lease_owner;
  delete rec.lease_expires_at;
}
