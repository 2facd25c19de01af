import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

export interface SpawnedService {
  name: string;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts one built service as its own process (`node services/<name>/dist/main.js`), the way the
 * distributed mode runs it. Requires `npm run build`.
 */
export function spawnService(name: string, env: Record<string, string>): SpawnedService {
  let out = '';
  const child = spawn(process.execPath, [join(ROOT, 'services', name, 'dist/main.js')], {
    cwd: ROOT,
    env: { ...process.env, INQUEST_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  return {
    name,
    process: child,
    output: () => out,
    stop: async () => {
      if (exited) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await done;
    },
  };
}
