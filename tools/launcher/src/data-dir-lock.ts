import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '@inquest/runtime';

/** The lock file of a data dir: the pid of the Inquest that uses it. */
export const LOCK_FILE = 'inquest.lock';

export interface DataDirLock {
  /** the lock file's path */
  file: string;
  /** removes the lock file if it still holds this process's pid */
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: unknown) {
    // EPERM: the process exists but belongs to someone else
    return (err as { code?: unknown }).code === 'EPERM';
  }
}

function holder(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** An empty lock file younger than 2 s is a start between creating it and writing its pid. */
function justWritten(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < 2000;
  } catch {
    return false;
  }
}

/**
 * Takes the data dir for this process: two all-in-one processes on one SQLite data dir would
 * corrupt each other's view (two leases, two admin tokens). A lock left by a process that no
 * longer runs (kill -9, a crash, a reboot) is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  const lock: DataDirLock = {
    file,
    release: () => {
      if (holder(file) !== process.pid) return;
      try {
        unlinkSync(file);
      } catch {
        // already gone
      }
    },
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return lock;
    } catch (err: unknown) {
      if ((err as { code?: unknown }).code !== 'EEXIST') throw err;
    }
    const pid = holder(file);
    if (pid === undefined && justWritten(file))
      throw new StartupError(
        `another Inquest is starting on ${dataDir} (${file} was just created)`,
      );
    if (pid !== undefined && isAlive(pid))
      throw new StartupError(
        `Inquest is already running on ${dataDir} (pid ${pid}): stop it, or set INQUEST_DATA_DIR ` +
          `to another directory (if pid ${pid} is not Inquest, delete ${file})`,
      );
    // stale: the retry's 'wx' settles who wins when two starts take it over at once
    try {
      unlinkSync(file);
    } catch {
      // someone else took it over first
    }
  }
  throw new StartupError(`could not lock ${file}: another Inquest is starting on ${dataDir}`);
}
