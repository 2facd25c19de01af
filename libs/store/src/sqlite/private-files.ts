import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';

/**
 * Creates `dir` (and missing parents) readable by the owner only (0700). With `tighten`, an
 * existing directory is set to 0700 as well (a data dir created by an older version).
 * Permission changes on something another user owns are left alone.
 */
export function ensurePrivateDir(dir: string, options: { tighten?: boolean } = {}): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (options.tighten) tryChmod(dir, 0o700);
}

/**
 * Creates `file` if it is missing, owner-only (0600), and sets an existing one to 0600: data
 * files (SQLite databases, their WAL, which SQLite creates with the database's mode) hold
 * configuration, audit and investigation results.
 */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  tryChmod(file, 0o600);
}

function tryChmod(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch {
    // not ours (or a file system without modes): nothing to tighten
  }
}
