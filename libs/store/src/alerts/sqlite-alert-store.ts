import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { openSqlite, type Migration, type SqliteDb } from '../sqlite/open-sqlite';
import type {
  AlertGroupRecord,
  AlertRecord,
  AlertStore,
  ListAlertsQuery,
  NewAlert,
  OpenGroupOutcome,
  OpenGroupRequest,
} from './alert-store';

const MIGRATIONS: Migration[] = [
  {
    id: '101-alerts',
    sql: `
      CREATE TABLE alerts (
        alert_id TEXT PRIMARY KEY,
        team_id TEXT NOT NULL,
        source TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        group_key TEXT NOT NULL,
        alertname TEXT NOT NULL,
        status TEXT NOT NULL,
        seq INTEGER NOT NULL,
        doc TEXT NOT NULL
      );
      CREATE INDEX alerts_team ON alerts (team_id, seq DESC);
      CREATE INDEX alerts_fingerprint ON alerts (team_id, source, fingerprint, seq DESC);
      CREATE INDEX alerts_group ON alerts (team_id, group_key, status);
      CREATE TABLE alert_groups (
        team_id TEXT NOT NULL,
        group_key TEXT NOT NULL,
        episode INTEGER NOT NULL,
        status TEXT NOT NULL,
        start_state TEXT NOT NULL,
        opened_at INTEGER NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (team_id, group_key, episode)
      );
      CREATE UNIQUE INDEX alert_groups_firing ON alert_groups (team_id, group_key) WHERE status = 'firing';
      CREATE INDEX alert_groups_opened ON alert_groups (team_id, opened_at);
      CREATE INDEX alert_groups_starting ON alert_groups (start_state);
    `,
  },
];

interface DocRow {
  doc: string;
}

/** SQLite adapter (embedded mode); may share the runner's investigations file. */
export class SqliteAlertStore implements AlertStore {
  private seq: number;
  private readonly statements = new Map<string, Statement<unknown[]>>();

  private constructor(private readonly db: SqliteDb) {
    const row = db.prepare('SELECT MAX(seq) AS m FROM alerts').get() as { m: number | null };
    this.seq = row.m ?? 0;
  }

  static open(file: string): SqliteAlertStore {
    return new SqliteAlertStore(openSqlite(file, MIGRATIONS));
  }

  async record(
    alert: NewAlert,
    now: string,
    link?: { investigation_id?: string; skipped_reason?: string },
  ): Promise<AlertRecord> {
    return this.db
      .transaction((): AlertRecord => {
        const latest = this.stmt(
          'SELECT doc FROM alerts WHERE team_id = ? AND source = ? AND fingerprint = ? ORDER BY seq DESC LIMIT 1',
        ).get(alert.team_id, alert.source, alert.fingerprint) as DocRow | undefined;
        const prev = latest ? (JSON.parse(latest.doc) as AlertRecord) : undefined;
        // a repeat of a firing alert, its resolution, or a repeat of a resolution
        const same =
          prev && (prev.status === 'firing' || alert.status === 'resolved') ? prev : undefined;
        if (same) {
          const rec = mergeRepeat(same, alert, now);
          if (link) applyLink(rec, link);
          this.stmt('UPDATE alerts SET status = ?, group_key = ?, doc = ? WHERE alert_id = ?').run(
            rec.status,
            rec.group_key,
            JSON.stringify(rec),
            rec.alert_id,
          );
          return rec;
        }
        const rec = newRecord(alert, now);
        if (link) applyLink(rec, link);
        this.stmt(
          'INSERT INTO alerts (alert_id, team_id, source, fingerprint, group_key, alertname, status, seq, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        ).run(
          rec.alert_id,
          rec.team_id,
          rec.source,
          rec.fingerprint,
          rec.group_key,
          rec.alertname,
          rec.status,
          ++this.seq,
          JSON.stringify(rec),
        );
        return rec;
      })
      .immediate();
  }

  async link(
    teamId: string,
    alertIds: string[],
    patch: { investigation_id?: string; skipped_reason?: string },
  ): Promise<void> {
    this.db
      .transaction(() => {
        for (const id of alertIds) {
          const row = this.stmt('SELECT doc FROM alerts WHERE alert_id = ? AND team_id = ?').get(
            id,
            teamId,
          ) as DocRow | undefined;
          if (!row) continue;
          const rec = applyLink(JSON.parse(row.doc) as AlertRecord, patch);
          this.stmt('UPDATE alerts SET doc = ? WHERE alert_id = ?').run(JSON.stringify(rec), id);
        }
      })
      .immediate();
  }

  async openGroup(req: OpenGroupRequest): Promise<OpenGroupOutcome> {
    return this.db
      .transaction((): OpenGroupOutcome => {
        const firing = this.readFiring(req.team_id, req.group_key);
        if (firing) return { kind: 'existing', group: firing };
        const recent = (
          this.stmt(
            'SELECT COUNT(*) AS n FROM alert_groups WHERE team_id = ? AND opened_at > ?',
          ).get(req.team_id, req.now - 60_000) as { n: number }
        ).n;
        if (recent >= req.maxPerMinute) return { kind: 'capped' };
        const last = this.stmt(
          'SELECT MAX(episode) AS e FROM alert_groups WHERE team_id = ? AND group_key = ?',
        ).get(req.team_id, req.group_key) as { e: number | null };
        const group: AlertGroupRecord = {
          team_id: req.team_id,
          group_key: req.group_key,
          episode: (last.e ?? 0) + 1,
          status: 'firing',
          source: req.source,
          alertname: req.alertname,
          investigation_id: req.investigation_id,
          start_state: 'starting',
          run: req.run,
          opened_at: req.now,
        };
        this.writeGroup(group, true);
        return { kind: 'opened', group };
      })
      .immediate();
  }

  async firingGroup(teamId: string, groupKey: string): Promise<AlertGroupRecord | undefined> {
    return this.readFiring(teamId, groupKey);
  }

  async markGroupStarted(teamId: string, groupKey: string, episode: number): Promise<void> {
    this.db
      .transaction(() => {
        const row = this.stmt(
          'SELECT doc FROM alert_groups WHERE team_id = ? AND group_key = ? AND episode = ?',
        ).get(teamId, groupKey, episode) as DocRow | undefined;
        if (!row) return;
        const g = JSON.parse(row.doc) as AlertGroupRecord;
        if (g.start_state === 'started') return;
        g.start_state = 'started';
        this.writeGroup(g, false);
      })
      .immediate();
  }

  async resolveGroupIfQuiet(
    teamId: string,
    groupKey: string,
    at: string,
  ): Promise<AlertGroupRecord | undefined> {
    return this.db
      .transaction((): AlertGroupRecord | undefined => {
        const g = this.readFiring(teamId, groupKey);
        if (!g) return undefined;
        const firing = this.stmt(
          "SELECT 1 FROM alerts WHERE team_id = ? AND group_key = ? AND status = 'firing' LIMIT 1",
        ).get(teamId, groupKey);
        if (firing) return undefined;
        g.status = 'resolved';
        g.resolved_at = at;
        this.writeGroup(g, false);
        return g;
      })
      .immediate();
  }

  async listStartingGroups(limit = 1000): Promise<AlertGroupRecord[]> {
    const rows = this.stmt(
      "SELECT doc FROM alert_groups WHERE start_state = 'starting' ORDER BY opened_at LIMIT ?",
    ).all(limit) as DocRow[];
    return rows.map((r) => JSON.parse(r.doc) as AlertGroupRecord);
  }

  async list(q: ListAlertsQuery): Promise<{ items: AlertRecord[]; total: number }> {
    const where = ['team_id = ?'];
    const args: unknown[] = [q.teamId];
    if (q.status) {
      where.push('status = ?');
      args.push(q.status);
    }
    if (q.alertname) {
      where.push('alertname = ?');
      args.push(q.alertname);
    }
    if (q.group_key) {
      where.push('group_key = ?');
      args.push(q.group_key);
    }
    const w = where.join(' AND ');
    const total = (
      this.stmt(`SELECT COUNT(*) AS n FROM alerts WHERE ${w}`).get(...args) as { n: number }
    ).n;
    const rows = this.stmt(
      `SELECT doc FROM alerts WHERE ${w} ORDER BY seq DESC LIMIT ? OFFSET ?`,
    ).all(...args, q.limit, q.offset) as DocRow[];
    return { items: rows.map((r) => JSON.parse(r.doc) as AlertRecord), total };
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private readFiring(teamId: string, groupKey: string): AlertGroupRecord | undefined {
    const row = this.stmt(
      "SELECT doc FROM alert_groups WHERE team_id = ? AND group_key = ? AND status = 'firing'",
    ).get(teamId, groupKey) as DocRow | undefined;
    return row ? (JSON.parse(row.doc) as AlertGroupRecord) : undefined;
  }

  private writeGroup(g: AlertGroupRecord, insert: boolean): void {
    if (insert) {
      this.stmt(
        'INSERT INTO alert_groups (team_id, group_key, episode, status, start_state, opened_at, doc) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(
        g.team_id,
        g.group_key,
        g.episode,
        g.status,
        g.start_state,
        g.opened_at,
        JSON.stringify(g),
      );
      return;
    }
    this.stmt(
      'UPDATE alert_groups SET status = ?, start_state = ?, doc = ? WHERE team_id = ? AND group_key = ? AND episode = ?',
    ).run(g.status, g.start_state, JSON.stringify(g), g.team_id, g.group_key, g.episode);
  }

  private stmt(sql: string): Statement<unknown[]> {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare<unknown[]>(sql);
      this.statements.set(sql, st);
    }
    return st;
  }
}

/** Shared by the adapters: a new record for an alert not seen in this episode. */
export function newRecord(alert: NewAlert, now: string): AlertRecord {
  const rec: AlertRecord = {
    ...alert,
    alert_id: `alt_${randomBytes(12).toString('hex')}`,
    received_at: now,
    last_received_at: now,
    receive_count: 1,
  };
  if (alert.status === 'resolved') rec.resolved_at = now;
  return rec;
}

/** Shared by the adapters: a repeat (or the resolution) of a recorded alert. */
export function mergeRepeat(prev: AlertRecord, alert: NewAlert, now: string): AlertRecord {
  const rec: AlertRecord = {
    ...prev,
    labels: alert.labels,
    annotations: alert.annotations,
    group_key: alert.group_key,
    last_received_at: now,
    receive_count: prev.receive_count + 1,
  };
  if (alert.ends_at) rec.ends_at = alert.ends_at;
  if (alert.generator_url) rec.generator_url = alert.generator_url;
  if (alert.status === 'resolved' && prev.status === 'firing') {
    rec.status = 'resolved';
    rec.resolved_at = now;
  }
  return rec;
}

/** Shared by the adapters: linking a record to its investigation or its skip reason. */
export function applyLink(
  rec: AlertRecord,
  patch: { investigation_id?: string; skipped_reason?: string },
): AlertRecord {
  if (patch.investigation_id) {
    rec.investigation_id = patch.investigation_id;
    delete rec.skipped_reason;
  }
  // a skip never hides the investigation the alert already has
  if (patch.skipped_reason && !rec.investigation_id) rec.skipped_reason = patch.skipped_reason;
  return rec;
}
