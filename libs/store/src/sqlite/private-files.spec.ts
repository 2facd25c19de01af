import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@inquest/testing';
import { openSqlite } from './open-sqlite';
import { ensurePrivateDir, ensurePrivateFile } from './private-files';

const mode = (p: string) => statSync(p).mode & 0o777;

// Issue 16: data files were created 0644 (readable by every local user).
describe('owner-only data files', () => {
  it('creates the directory 0700 and the database and its WAL 0600, whatever the umask', () => {
    const old = process.umask(0o022);
    try {
      const dir = join(tempDir(), 'data', 'nested');
      const file = join(dir, 'config.db');
      const db = openSqlite(file, [{ id: '001', sql: 'CREATE TABLE t (x)' }]);
      db.prepare('INSERT INTO t VALUES (1)').run();
      expect(mode(dir)).toBe(0o700);
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-wal`)).toBe(0o600);
      db.close();
    } finally {
      process.umask(old);
    }
  });

  it('tightens an existing database file, and a data dir when asked', () => {
    const dir = join(tempDir(), 'old');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const file = join(dir, 'old.db');
    writeFileSync(file, '', { mode: 0o644 });
    chmodSync(file, 0o644);
    ensurePrivateFile(file);
    expect(mode(file)).toBe(0o600);
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o755); // a directory that may not be ours alone: untouched
    ensurePrivateDir(dir, { tighten: true });
    expect(mode(dir)).toBe(0o700);
  });
});
