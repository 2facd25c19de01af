import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export interface RunningNatsServer {
  /** nats://127.0.0.1:<port> */
  url: string;
  port: number;
  /** SIGTERM and wait for exit; removes the store dir */
  stop(): Promise<void>;
  /** stop and start again on the same port and store dir (streams and consumers survive) */
  restart(): Promise<void>;
  /** SIGKILL at once, no cleanup (a crash); `restart()` can start it again */
  kill(): void;
  /** false when INQUEST_TEST_NATS_URL points at a server this process did not start */
  owned: boolean;
}

const CANDIDATES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];

/** The nats-server binary: $INQUEST_NATS_SERVER_BIN, then PATH, then the Debian locations. */
export function natsServerBinary(): string | undefined {
  const fromEnv = process.env['INQUEST_NATS_SERVER_BIN'];
  if (fromEnv) return fromEnv;
  const which = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  const found = which.status === 0 ? which.stdout.trim() : '';
  if (found) return found;
  return CANDIDATES.find((p) => existsSync(p));
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A crashed test run must not leave nats-server processes behind.
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/**
 * Starts a real `nats-server -js` on a free loopback port with its own store directory and
 * resolves once it accepts connections. With INQUEST_TEST_NATS_URL set, that server is reused
 * instead (stop is a no-op; restart and kill throw, as the server is not ours).
 */
export async function startNatsServer(): Promise<RunningNatsServer> {
  const external = process.env['INQUEST_TEST_NATS_URL'];
  if (external) {
    const u = new URL(external);
    const port = Number(u.port || 4222);
    await waitForNats(u.hostname, port, 10_000);
    const notOurs = () => {
      throw new Error('INQUEST_TEST_NATS_URL is set: the server is not ours to restart or kill');
    };
    return {
      url: external,
      port,
      owned: false,
      stop: async () => undefined,
      restart: async () => notOurs(),
      kill: () => notOurs(),
    };
  }

  const bin = natsServerBinary();
  if (!bin) {
    throw new Error(
      'nats-server not found: install it (apt-get install -y nats-server) or set INQUEST_NATS_SERVER_BIN',
    );
  }
  installExitHook();
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'inquest-nats-'));
  let child: ChildProcess | undefined;
  let stderr = '';

  const launch = async (): Promise<void> => {
    stderr = '';
    const proc = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = proc;
    live.add(proc);
    proc.stderr?.on('data', (b: Buffer) => {
      // nats-server logs to stderr; keep the tail for error messages only.
      stderr = (stderr + b.toString('utf8')).slice(-4000);
    });
    let exited = false;
    const exitedEarly = new Promise<never>((_, reject) => {
      proc.once('exit', (code, signal) => {
        exited = true;
        live.delete(proc);
        reject(new Error(`nats-server exited (${code ?? signal}) during start: ${stderr.trim()}`));
      });
    });
    exitedEarly.catch(() => undefined);
    try {
      await Promise.race([waitForNats('127.0.0.1', port, 15_000, () => exited), exitedEarly]);
    } catch (err) {
      if (!exited) proc.kill('SIGKILL');
      throw err;
    }
  };

  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) {
      if (proc) live.delete(proc);
      return;
    }
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => proc.kill('SIGKILL'), 5000);
      proc.once('exit', () => {
        clearTimeout(force);
        live.delete(proc);
        resolve();
      });
      proc.kill(signal);
    });
  };

  await launch();
  const running: RunningNatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    owned: true,
    stop: async () => {
      await halt('SIGTERM');
      rmSync(storeDir, { recursive: true, force: true });
    },
    restart: async () => {
      await halt('SIGTERM');
      await launch();
    },
    kill: () => {
      // `child` stays set so that stop()/restart() wait for the process to be gone.
      child?.kill('SIGKILL');
    },
  };
  // No automatic afterAll here: jest refuses hooks added from inside a hook, and reports that
  // as a failed suite rather than throwing. Callers stop the server; the exit hook kills it anyway.
  return running;
}

/**
 * Resolves once a NATS server on host:port answers with its INFO line (it then accepts clients
 * and, having JetStream enabled before listening, serves JetStream too).
 */
async function waitForNats(
  host: string,
  port: number,
  timeoutMs: number,
  gaveUp: () => boolean = () => false,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await probe(host, port)) return;
    if (gaveUp()) throw new Error('nats-server is gone');
    if (Date.now() > until)
      throw new Error(
        `nats-server on ${host}:${port} did not accept connections within ${timeoutMs} ms`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

function probe(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = tcpConnect({ host, port });
    let buf = '';
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.on('error', () => done(false));
    sock.on('data', (b: Buffer) => {
      buf += b.toString('utf8');
      if (buf.startsWith('INFO ')) done(true);
    });
  });
}
