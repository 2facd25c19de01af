import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/** A server process listening on a loopback HTTP port, started by a test. */
export interface RunningHttpServerProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** the process's own directory (config, data); removed by stop() */
  dir: string;
  /** SIGTERM, wait for the exit (SIGKILL after 5 s), remove `dir` */
  stop(): Promise<void>;
  /** stderr/stdout tail, for failure messages */
  logTail(): string;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A crashed test run must not leave server processes behind.
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

export interface SpawnHttpServerOptions {
  /** name for messages, for example `prometheus` */
  label: string;
  bin: string;
  args: string[];
  port: number;
  dir: string;
  /** path answering 200 once the server is ready (for example `/-/ready`) */
  readyPath: string;
  readyTimeoutMs?: number;
}

/**
 * Spawns a server binary and resolves once `readyPath` answers 200 on its loopback port; rejects
 * with the log tail if the process exits first or the timeout passes (the process is killed).
 */
export async function spawnHttpServer(
  opts: SpawnHttpServerOptions,
): Promise<RunningHttpServerProcess> {
  installExitHook();
  const url = `http://127.0.0.1:${opts.port}`;
  const proc = spawn(opts.bin, opts.args, { cwd: opts.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  let log = '';
  const keep = (b: Buffer) => {
    log = (log + b.toString('utf8')).slice(-4000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  let exited: string | undefined;
  proc.once('exit', (code, signal) => {
    exited = String(code ?? signal);
    live.delete(proc);
  });
  proc.once('error', (err) => {
    exited = err.message;
    live.delete(proc);
  });

  const stop = async (): Promise<void> => {
    if (exited === undefined) {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => proc.kill('SIGKILL'), 5000);
        proc.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        proc.kill('SIGTERM');
      });
    }
    rmSync(opts.dir, { recursive: true, force: true });
  };

  const until = Date.now() + (opts.readyTimeoutMs ?? 20_000);
  for (;;) {
    if (exited !== undefined) {
      await stop();
      throw new Error(`${opts.label} exited (${exited}) during start: ${log.trim().slice(-1500)}`);
    }
    if (await answers200(`${url}${opts.readyPath}`)) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(
        `${opts.label} on ${url} was not ready within ${opts.readyTimeoutMs ?? 20_000} ms: ${log.trim().slice(-1500)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, port: opts.port, dir: opts.dir, stop, logTail: () => log };
}

async function answers200(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}
