import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WorldIndex } from '@inquest/kube';
import { aScenarioWorld, startFakeKubeApiServer, writeKubeconfig } from '@inquest/kube/testing';

/**
 * `npm start` as a new user meets it: the built launcher as a process, no admin token in the
 * environment, its own output read the way a person reads it.
 */
const ROOT = resolve(__dirname, '../..');
const LAUNCHER = join(ROOT, 'tools/launcher/dist/main.js');

interface Launched {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function launch(env: Record<string, string>, args: string[] = []): Launched {
  const baseEnv: Record<string, string | undefined> = { ...process.env };
  delete baseEnv.INQUEST_ADMIN_TOKEN;
  delete baseEnv.INQUEST_ADMIN_TOKEN_SHA256;
  delete baseEnv.INQUEST_DEMO_TOOLSERVER_PORT;
  const child = spawn(process.execPath, [LAUNCHER, ...args], {
    cwd: ROOT,
    env: { ...baseEnv, INQUEST_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

async function ready(l: Launched, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let gone = false;
  void l.exited.then(() => (gone = true));
  while (!/Press Ctrl-C/.test(l.output())) {
    if (gone) throw new Error(`inquest exited during start:\n${l.output()}`);
    if (Date.now() > until) throw new Error(`inquest not ready:\n${l.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(l: Launched, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (l.child.exitCode === null && l.child.signalCode === null) l.child.kill(signal);
  await l.exited;
}

async function hold(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.address() as { port: number }).port, server };
}

async function freePort(): Promise<number> {
  const h = await hold();
  await new Promise((r) => h.server.close(r));
  return h.port;
}

const adminTokenIn = (out: string) => /prints a new one\): (admin\.\S+)/.exec(out)?.[1];

describe('npm start, first hour', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'inquest-first-start-'));
  const running: Launched[] = [];
  afterAll(async () => {
    for (const l of running) await stop(l, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a busy port is one line naming PORT; the next start still shows the admin token', async () => {
    const busy = await hold();
    try {
      const failed = launch({ PORT: String(busy.port), INQUEST_DATA_DIR: dataDir });
      expect(await failed.exited).toBe(1);
      expect(failed.output()).toBe(
        `inquest: port ${busy.port} is in use (another Inquest or another program): set PORT to a free port\n`,
      );
    } finally {
      busy.server.close();
    }
    const first = launch({ PORT: String(await freePort()), INQUEST_DATA_DIR: dataDir });
    running.push(first);
    await ready(first);
    expect(adminTokenIn(first.output())).toMatch(/^admin\./);
  });

  it('a second start on the same data dir says it is already running, with the pid', async () => {
    const first = running[0]!;
    const second = launch({ PORT: String(await freePort()), INQUEST_DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(
      new RegExp(
        `^inquest: Inquest is already running on \\S+ \\(pid ${first.child.pid}\\): stop it, or set INQUEST_DATA_DIR to another directory .*\\n$`,
      ),
    );
    expect(second.output().split('\n')).toHaveLength(2);
  });

  it('after kill -9 (a stale lock) it starts again; --reset-admin-token prints a new token and the old one stops working', async () => {
    const first = running.shift()!;
    const oldToken = adminTokenIn(first.output())!;
    await stop(first, 'SIGKILL');

    const port = await freePort();
    const reset = launch({ PORT: String(port), INQUEST_DATA_DIR: dataDir }, [
      '--reset-admin-token',
    ]);
    running.push(reset);
    await ready(reset);
    const newToken = adminTokenIn(reset.output())!;
    expect(newToken).toMatch(/^admin\./);
    expect(newToken).not.toBe(oldToken);
    const status = async (token: string) =>
      (
        await fetch(`http://127.0.0.1:${port}/api/v1/admin/nodes`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status;
    expect(await status(newToken)).toBe(200);
    expect(await status(oldToken)).toBe(401);
    expect(reset.output()).not.toMatch(/read-write token/); // the hierarchy was already there
    await stop(running.shift()!);
  });

  it('an unknown argument is one line', async () => {
    const bad = launch({ INQUEST_DATA_DIR: dataDir }, ['--frobnicate']);
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toBe('inquest: unknown argument "--frobnicate" (see --help)\n');
  });
});

describe('npm start with a kubeconfig', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'inquest-first-start-k8s-'));
  const running: Launched[] = [];
  afterAll(async () => {
    for (const l of running) await stop(l, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('its Kubernetes tool server answers 401 without the token kept in the data dir, the same after kill -9 and a restart', async () => {
    const api = await startFakeKubeApiServer(new WorldIndex(aScenarioWorld()));
    try {
      const env = { INQUEST_DATA_DIR: dataDir, INQUEST_KUBECONFIG: writeKubeconfig(api.url) };
      const listPods = (url: string, token?: string) =>
        fetch(`${url}/tools/list_resources`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({ parameters: { kind: 'pods', namespace: 'shop' } }),
        });
      const tokens: string[] = [];
      for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
        const l = launch({ ...env, PORT: String(await freePort()) });
        running.push(l);
        await ready(l);
        const url = /Kubernetes tool server: (\S+) .*registered for demo-team as "kubernetes"/.exec(
          l.output(),
        )?.[1];
        expect(url).toBeDefined();
        const token = JSON.parse(readFileSync(join(dataDir, 'toolserver-tokens.json'), 'utf8'))
          .kubernetes as string;
        tokens.push(token);
        expect((await listPods(url!)).status).toBe(401);
        expect((await listPods(url!, token)).status).toBe(200);
        await stop(l, signal);
      }
      expect(tokens[1]).toBe(tokens[0]);
    } finally {
      await api.close();
    }
  }, 150_000);
});
