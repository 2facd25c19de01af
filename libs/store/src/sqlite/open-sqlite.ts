import Database from 'better-sqlite3';
import type { Database as SqliteDb } from 'better-sqlite3';
import { dirname } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile } from './private-files';

export type { SqliteDb };

/** One migration: applied once, in order, inside a transaction. */
export interface Migration {
  /** unique, ordered name, e.g. '001-config' */
  id: string;
  sql: string;
}

/**
 * Opens (creating if needed, owner-only) a SQLite file in WAL mode with a busy timeout, then applies the
 * given migrations that have not run yet. Several stores may share one file: each migration id
 * is recorded once in `_migrations`.
 */
export function openSqlite(file: string, migrations: Migration[] = []): SqliteDb {
  if (file !== ':memory:') {
    // owner-only: the directory 0700 when created here, the database (and so its WAL) 0600
    ensurePrivateDir(dirname(file));
    ensurePrivateFile(file);
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db, migrations);
  return db;
}

export function migrate(db: SqliteDb, migrations: Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS _migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const done = new Set(
    (db.prepare('SELECT id FROM _migrations').all() as { id: string }[]).map((r) => r.id),
  );
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    // IMMEDIATE takes the write lock first; re-checking inside it lets processes that open a new
    // file at the same moment (runner replicas) apply each migration exactly once
    db.transaction(() => {
      if (db.prepare('SELECT 1 FROM _migrations WHERE id = ?').get(m.id)) return;
      db.exec(m.sql);
      db.prepare('INSERT INTO _migrations (id, applied_at) VALUES (?, ?)').run(
        m.id,
        new Date().toISOString(),
      );
    }).immediate();
  }
}
