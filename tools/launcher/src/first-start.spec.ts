import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { freePort, tempDir } from '@inquest/testing';
import { ADMIN_TOKEN_FILE } from './admin-token';
import { LOCK_FILE } from './data-dir-lock';
import { startAllInOne, parseArgs, type AllInOne } from './main';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function hold(port = 0): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return { port: (server.address() as { port: number }).port, server };
}

async function adminStatus(app: AllInOne, token: string): Promise<number> {
  const res = await fetch(`${app.url}/api/v1/admin/nodes`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return res.status;
}

async function demoUrl(app: AllInOne, teamToken: string): Promise<string> {
  const res = await fetch(`${app.url}/api/v1/config/me/effective`, {
    headers: { authorization: `Bearer ${teamToken}` },
  });
  const servers = ((await res.json()) as Obj).mcp_servers as Obj[];
  return servers.find((s) => s.name === 'demo')!.url as string;
}

/** a pid that surely runs no more: a child that has exited */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

describe('the first start and the ones after it', () => {
  const dataDir = tempDir();
  const env = async (extra: Record<string, string> = {}) => ({
    PORT: String(await freePort()),
    INQUEST_DATA_DIR: dataDir,
    INQUEST_LOG_LEVEL: 'silent',
    ...extra,
  });
  const lines: string[] = [];
  const out = (l: string) => lines.push(l);

  it('keeps no admin token hash when the first start fails, shows one when a start succeeds, and resets it on request', async () => {
    // 1. the gateway port is taken: one line naming PORT, nothing kept
    const busy = await hold();
    try {
      const err = (await startAllInOne(await env({ PORT: String(busy.port) }), out).catch(
        (e: unknown) => e,
      )) as Error;
      expect(err.name).toBe('StartupError');
      expect(err.message).toBe(
        `port ${busy.port} is in use (another Inquest or another program): set PORT to a free port`,
      );
    } finally {
      busy.server.close();
    }
    expect(existsSync(join(dataDir, ADMIN_TOKEN_FILE))).toBe(false);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);

    // 2. the next start shows the admin token and keeps its hash
    const first = await startAllInOne(await env(), out);
    let adminToken: string;
    let teamToken: string;
    let firstDemoUrl: string;
    try {
      adminToken = first.adminToken!;
      teamToken = first.demoTeamToken!;
      expect(adminToken).toMatch(/^admin\./);
      expect(lines.join('\n')).toContain(`--reset-admin-token\` prints a new one): ${adminToken}`);
      expect(existsSync(join(dataDir, ADMIN_TOKEN_FILE))).toBe(true);
      expect(await adminStatus(first, adminToken)).toBe(200);
      expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
      firstDemoUrl = await demoUrl(first, teamToken);

      // 3. a second start on the same data dir while this one runs
      const err = (await startAllInOne(await env(), out).catch((e: unknown) => e)) as Error;
      expect(err.name).toBe('StartupError');
      expect(err.message).toMatch(
        new RegExp(`^Inquest is already running on \\S+ \\(pid ${process.pid}\\)`),
      );
    } finally {
      await first.stop();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);

    // 4. a restart (over a stale lock of a dead process) shows no token; the first one still works,
    //    and the demo tool server is back on its port
    writeFileSync(join(dataDir, LOCK_FILE), `${await deadPid()}\n`);
    const second = await startAllInOne(await env(), out);
    try {
      expect(second.adminToken).toBeUndefined();
      expect(await adminStatus(second, adminToken)).toBe(200);
      expect(await demoUrl(second, teamToken)).toBe(firstDemoUrl);
    } finally {
      await second.stop();
    }

    // 5. --reset-admin-token: a new token, the old one refused
    const third = await startAllInOne(await env(), out, { resetAdminToken: true });
    try {
      expect(third.adminToken).toMatch(/^admin\./);
      expect(third.adminToken).not.toBe(adminToken);
      expect(await adminStatus(third, third.adminToken!)).toBe(200);
      expect(await adminStatus(third, adminToken)).toBe(401);
    } finally {
      await third.stop();
    }
    const fourth = await startAllInOne(await env(), out);
    try {
      expect(fourth.adminToken).toBeUndefined();
      expect(await adminStatus(fourth, third.adminToken!)).toBe(200);
    } finally {
      await fourth.stop();
    }
  }, 120_000);

  it('moves the demo tool server to a free port when its last one is taken, and re-points the demo team at it', async () => {
    const dir = tempDir();
    const first = await startAllInOne(await env({ INQUEST_DATA_DIR: dir }), out);
    const teamToken = first.demoTeamToken!;
    const before = await demoUrl(first, teamToken);
    await first.stop();
    const taken = await hold(Number(new URL(before).port));
    try {
      const second = await startAllInOne(await env({ INQUEST_DATA_DIR: dir }), out);
      try {
        const after = await demoUrl(second, teamToken);
        expect(after).not.toBe(before);
        const res = await fetch(`${after}/tools`);
        expect(res.status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      taken.server.close();
    }
  }, 60_000);

  it("allows loopback by default but not its own ports: a webhook to a receiver on 127.0.0.1 is delivered, one to the gateway's port is refused saying why, and so is a tool server there", async () => {
    const bodies: Obj[] = [];
    const receiver = (await import('node:http')).createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.method === 'POST') bodies.push(JSON.parse(body) as Obj);
        res.setHeader('content-type', 'application/json');
        res.end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const receiverPort = (receiver.address() as { port: number }).port;
    // PORT=0: the launcher picks the gateway's port before the services start, to refuse it
    const app = await startAllInOne(await env({ INQUEST_DATA_DIR: tempDir(), PORT: '0' }), out);
    try {
      const token = app.demoTeamToken!;
      const banner = lines.join('\n');
      expect(banner).toContain('Egress: loopback allowed (127.0.0.0/8, ::1');
      expect(banner).toContain(`except this Inquest's own ports (gateway ${app.port}; gRPC `);
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${app.url}/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: res.status, body: (await res.json()) as Obj };
      };
      const deliveryOf = async (hook: string): Promise<Obj> => {
        const run = await call('POST', '/agents/run', {
          agent_name: 'planner',
          message: 'checkout is returning 500s',
          context: { service: 'checkout', namespace: 'shop' },
        });
        expect(run.status).toBe(200);
        const id = run.body.investigation_id as string;
        for (let i = 0; i < 200; i++) {
          const list = await call('GET', '/webhooks/deliveries?limit=100&channel=webhook');
          const d = (list.body.deliveries as Obj[]).find(
            (x) => String(x.event_id).startsWith(id) && x.target === hook,
          );
          if (d && ['delivered', 'failed', 'stopped'].includes(String(d.status))) return d;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`no settled delivery to ${hook}`);
      };

      const toReceiver = `http://127.0.0.1:${receiverPort}/hook`;
      expect(
        (await call('PUT', '/config/me', { webhooks: { investigation_complete: toReceiver } }))
          .status,
      ).toBe(200);
      expect((await deliveryOf(toReceiver)).status).toBe('delivered');
      expect(bodies.map((b) => b.event)).toEqual(['investigation_complete']);

      for (const host of ['127.0.0.1', 'localhost']) {
        const toGateway = `http://${host}:${app.port}/api/v1/config/me`;
        expect(
          (await call('PUT', '/config/me', { webhooks: { investigation_complete: toGateway } }))
            .status,
        ).toBe(200);
        const refused = await deliveryOf(toGateway);
        expect(refused.status).not.toBe('delivered');
        const errors = (refused.attempt_log as Obj[]).map((a) => String(a.error));
        expect(errors.join('\n')).toMatch(
          new RegExp(
            `egress_refused: .*gateway port of this Inquest \\(egress entry !127\\.0\\.0\\.0/8:${app.port}\\)`,
          ),
        );
      }

      // the same for a tool server: one on loopback answers, one on the gateway's port is refused
      const put = await call('PUT', '/config/me', {
        webhooks: {},
        mcp_servers: ['demo', { name: 'own', url: `http://127.0.0.1:${app.port}/` }],
      });
      expect(put.status).toBe(200);
      const tools = await call('GET', '/tools?refresh=true');
      const servers = tools.body.servers as Obj[];
      expect(servers.find((x) => x.name === 'demo')!.healthy).toBe(true);
      const own = servers.find((x) => x.name === 'own')!;
      expect(own.healthy).toBe(false);
      expect(own.last_error).toContain('gateway port of this Inquest');
    } finally {
      await app.stop();
      receiver.close();
    }
  }, 90_000);

  it('names INQUEST_DEMO_TOOLSERVER_PORT when the port set there is taken', async () => {
    const busy = await hold();
    try {
      const err = (await startAllInOne(
        await env({ INQUEST_DATA_DIR: tempDir(), INQUEST_DEMO_TOOLSERVER_PORT: String(busy.port) }),
        out,
      ).catch((e: unknown) => e)) as Error;
      expect(err.message).toBe(
        `port ${busy.port} is in use (another Inquest or another program): set INQUEST_DEMO_TOOLSERVER_PORT to a free port`,
      );
    } finally {
      busy.server.close();
    }
  });

  it('refuses --reset-admin-token when the token comes from the environment', async () => {
    const dir = tempDir();
    const err = (await startAllInOne(
      await env({ INQUEST_DATA_DIR: dir, INQUEST_ADMIN_TOKEN: 'admin.from-env-secret' }),
      out,
      { resetAdminToken: true },
    ).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(
      '--reset-admin-token: the admin token comes from INQUEST_ADMIN_TOKEN; change that variable instead',
    );
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('without the demo, on an empty hierarchy, prints the commands that make a first team, and they work', async () => {
    const bare: string[] = [];
    const app = await startAllInOne(
      await env({ INQUEST_DATA_DIR: tempDir(), INQUEST_DEMO: 'false' }),
      (l) => bare.push(l),
    );
    try {
      expect(bare).not.toContain(`Next step: curl -s ${app.url}/readyz`);
      const commands = bare.filter((l) => l.startsWith('  npx inquest '));
      expect(commands).toEqual([
        `  npx inquest --url ${app.url} --token ${app.adminToken} admin nodes create my-org --kind org --name "My org"`,
        `  npx inquest --url ${app.url} --token ${app.adminToken} admin nodes create my-team --kind team --name "My team" --parent my-org`,
        `  npx inquest --url ${app.url} --token ${app.adminToken} admin tokens create my-team --owner you@example.com --write`,
      ]);
      // run as printed (the CLI's bin instead of npx, the quoted names as one argument each)
      const bin = join(__dirname, '../../cli/bin/inquest.js');
      let printed = '';
      for (const line of commands) {
        const argv = (line.trim().match(/"[^"]*"|\S+/g) ?? [])
          .slice(2)
          .map((a) => a.replace(/^"|"$/g, ''));
        const child = spawn(process.execPath, [bin, ...argv], {
          env: { ...process.env, NO_COLOR: '1' },
        });
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        const code = await new Promise((r) => child.once('exit', r));
        expect([line, code]).toEqual([line, 0]);
        printed = stdout;
      }
      const token = /^(tok_\S+)/.exec(printed)![1]!;
      const res = await fetch(`${app.url}/api/v1/config/me/effective`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as Obj).team_node_id).toBe('my-team');
    } finally {
      await app.stop();
    }
  }, 60_000);

  it('parses its command line', () => {
    expect(parseArgs([])).toEqual({});
    expect(parseArgs(['--reset-admin-token'])).toEqual({ resetAdminToken: true });
    expect(() => parseArgs(['--reset'])).toThrow('unknown argument "--reset" (see --help)');
  });
});
