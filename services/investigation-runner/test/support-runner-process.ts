import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** Transpiles the runner and the libs it needs to dist/ (incremental), as `npm run build` would. */
export function buildRunner(): void {
  const projects = [
    'errors',
    'events',
    'grpc-kit',
    'llm',
    'observability',
    'proto',
    'runtime',
    'secrets',
    'store',
  ].map((l) => `libs/${l}`);
  execFileSync(
    process.execPath,
    [join(ROOT, 'tools/scripts/build.js'), ...projects, 'services/investigation-runner'],
    {
      cwd: ROOT,
      stdio: 'pipe',
    },
  );
}

export interface RunnerProcess {
  address: string;
  child: ChildProcess;
  /** SIGKILL: a crash, no graceful shutdown */
  kill(): void;
  stop(): Promise<void>;
}

/** Starts `node services/investigation-runner/dist/main.js` as its own process; resolves once it listens. */
export function startRunnerProcess(env: Record<string, string>): Promise<RunnerProcess> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'services/investigation-runner/dist/main.js')],
    {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        INQUEST_LOG_LEVEL: 'info',
        INQUEST_GRPC_PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`runner did not start: ${out.slice(-2000)}`)),
      15_000,
    );
    const onData = (b: Buffer) => {
      out += b.toString('utf8');
      const m = /"address":"([^"]+)".*gRPC server listening/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          address: m[1]!,
          child,
          kill: () => child.kill('SIGKILL'),
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => {
      out += b.toString('utf8');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`runner exited (${code}): ${out.slice(-2000)}`));
    });
  });
}
