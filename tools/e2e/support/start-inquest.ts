import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';

export interface RunningInquest {
  url: string;
  apiUrl: string;
  adminToken: string;
  /** read-write token of the demo team, when INQUEST_DEMO is on */
  demoTeamToken?: string;
  dataDir: string;
  output: () => string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const ROOT = resolve(__dirname, '../../..');

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => res(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/**
 * Starts Inquest the way a user does (`node tools/launcher/dist/main.js`, what `npm start` runs
 * after building) on free ports with a fresh data dir, and waits until /readyz answers 200.
 * Requires `npm run build` first (npm test's pretest does it).
 */
export async function startInquest(
  env: Record<string, string> = {},
  options: { dataDir?: string; timeoutMs?: number } = {},
): Promise<RunningInquest> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'inquest-e2e-'));
  const adminToken =
    env.INQUEST_ADMIN_TOKEN ?? `admin.${Math.random().toString(36).slice(2)}e2e-admin-secret`;
  let out = '';
  const child = spawn(process.execPath, [join(ROOT, 'tools/launcher/dist/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      INQUEST_DATA_DIR: dataDir,
      INQUEST_ADMIN_TOKEN: adminToken,
      INQUEST_DEMO_TOOLSERVER_PORT: '0',
      INQUEST_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  // on 2 cores several all-in-one instances of the e2e suite start at the same time; under the
  // specs' 90 s hook timeouts, so this error (with the last /readyz answer) is the one reported
  const timeoutMs = options.timeoutMs ?? 85_000;
  const until = Date.now() + timeoutMs;
  let lastReady = '';
  let exited = false;
  let stopping = false;
  child.once('exit', (code, signal) => {
    exited = true;
    // A crash mid-test shows up as a network error in the test; say why on stderr.
    if (!stopping && code !== 0)
      process.stderr.write(`inquest exited unexpectedly (${code ?? signal}):\n${out}\n`);
  });
  for (;;) {
    if (exited) throw new Error(`inquest exited during start:\n${out}`);
    try {
      const r = await fetch(`${url}/readyz`);
      if (r.status === 200 && /Press Ctrl-C/.test(out)) break;
      lastReady = `${r.status} ${await r.text()}`;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(
        `inquest not ready within ${timeoutMs} ms (last /readyz: ${lastReady || 'no answer'}):\n${out}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const demoTeamToken = /read-write token \(shown once\): (\S+)/.exec(out)?.[1];
  return {
    url,
    apiUrl: `${url}/api/v1`,
    adminToken,
    demoTeamToken,
    dataDir,
    output: () => out,
    process: child,
    stop: async () => {
      stopping = true;
      if (!exited) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await done;
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
