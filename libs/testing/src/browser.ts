import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { ServerBinary } from './server-binary';

/** Debian's chromium, driven by playwright-core (which never downloads a browser of its own). */
export const CHROMIUM: ServerBinary = {
  name: 'chromium',
  env: 'INQUEST_CHROMIUM_BIN',
  debianPackage: 'chromium',
};

const NAMES = ['chromium', 'chromium-browser'];
const DIRS = ['/usr/bin', '/usr/local/bin', '/snap/bin'];

/** The browser: $INQUEST_CHROMIUM_BIN, then `chromium` or `chromium-browser` on PATH or in /usr/bin. */
export function chromiumBinary(): string | undefined {
  const fromEnv = process.env[CHROMIUM.env];
  if (fromEnv) return fromEnv;
  for (const name of NAMES) {
    const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    const found = which.status === 0 ? which.stdout.trim() : '';
    if (found) return found;
  }
  for (const dir of DIRS)
    for (const name of NAMES) if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  return undefined;
}

/**
 * Headless chromium through playwright-core with `executablePath` set to the found binary.
 * As root (CI containers) chromium refuses to start without `--no-sandbox`.
 * Throws one line saying what to install when there is no chromium.
 */
export async function launchChromium(options: { headless?: boolean } = {}): Promise<Browser> {
  const executablePath = chromiumBinary();
  if (!executablePath)
    throw new Error(
      `chromium not found: install it (apt-get install -y --no-install-recommends chromium, or run npm test as root to let it do so) or set ${CHROMIUM.env}`,
    );
  const { chromium } = await import('playwright-core');
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return chromium.launch({
    executablePath,
    headless: options.headless ?? true,
    args: [...(root ? ['--no-sandbox'] : []), '--disable-dev-shm-usage'],
  });
}
