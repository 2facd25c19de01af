import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncStateStore, TeamSyncState } from '../../domain/sources/source-sync';

/**
 * Sync state as one JSON file per team under a directory (the service's data dir): small (a
 * version and document ids per source file), written atomically by rename.
 */
export class FileSyncStateStore implements SyncStateStore {
  constructor(private readonly dir: string) {}

  private file(teamId: string): string {
    return join(this.dir, `${encodeURIComponent(teamId)}.json`);
  }

  async load(teamId: string): Promise<TeamSyncState | undefined> {
    try {
      return JSON.parse(await readFile(this.file(teamId), 'utf8')) as TeamSyncState;
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Teams with sync state (synced before a restart). */
  async teams(): Promise<string[]> {
    try {
      return (await readdir(this.dir))
        .filter((f) => f.endsWith('.json'))
        .map((f) => decodeURIComponent(f.slice(0, -'.json'.length)));
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return [];
      throw err;
    }
  }

  async save(teamId: string, state: TeamSyncState): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const tmp = `${this.file(teamId)}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(state));
    await rename(tmp, this.file(teamId));
  }
}
