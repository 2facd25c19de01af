import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh directory, removed when the process exits. (Not an afterAll hook: jest refuses hooks
 * added from inside a hook, which is where tests usually make their directories.)
 */
export function tempDir(prefix = 'inquest-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
