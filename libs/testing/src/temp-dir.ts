import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory; removed after the test file when called inside jest (afterAll). */
export function tempDir(prefix = 'inquest-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const g = globalThis as { afterAll?: (fn: () => void) => void };
  if (typeof g.afterAll === 'function') {
    try {
      g.afterAll(() => rmSync(dir, { recursive: true, force: true }));
    } catch {
      // called inside a test: leave cleanup to the OS temp dir
    }
  }
  return dir;
}
