import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startInquest, type RunningInquest } from './support/start-inquest';

/** The built `inquest` binary against the real all-in-one service. */
const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'tools/cli/dist/main.js');

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('inquest CLI against the running service', () => {
  let inquest: RunningInquest;
  let work: string;
  let teamToken: string;
  let demoToken: string;

  function run(args: string[], env: Record<string, string> = {}, input = ''): Promise<RunResult> {
    return new Promise((done, fail) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: join(work, 'home'),
          INQUEST_URL: inquest.url,
          ...env,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout, stderr }));
      child.stdin.end(input);
    });
  }
  const asAdmin = (args: string[]) => run(args, { INQUEST_TOKEN: inquest.adminToken });
  const asTeam = (args: string[], env: Record<string, string> = {}, input = '') =>
    run(args, { INQUEST_TOKEN: teamToken, ...env }, input);
  const asDemo = (args: string[]) => run(args, { INQUEST_TOKEN: demoToken });

  beforeAll(async () => {
    execFileSync(
      process.execPath,
      [join(ROOT, 'tools/scripts/build.js'), 'libs/client', 'tools/cli'],
      { cwd: ROOT },
    );
    work = mkdtempSync(join(tmpdir(), 'inquest-cli-e2e-'));
    inquest = await startInquest();
  }, 90_000);

  afterAll(async () => {
    await inquest?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('admin: creates a hierarchy and issues tokens', async () => {
    expect(
      (await asAdmin(['admin', 'nodes', 'create', 'cli-org', '--kind', 'org', '--name', 'CLI org']))
        .stdout,
    ).toBe('Created org cli-org (org cli-org)\n');
    expect(
      (
        await asAdmin([
          'admin',
          'nodes',
          'create',
          'cli-team',
          '--kind',
          'team',
          '--name',
          'CLI team',
          '--parent',
          'cli-org',
        ])
      ).code,
    ).toBe(0);
    const nodes = await asAdmin(['admin', 'nodes', 'list']);
    expect(nodes.stdout).toMatch(/cli-team\s+team\s+cli-org\s+cli-org\s+CLI team/);
    const tok = await asAdmin([
      'admin',
      'tokens',
      'create',
      'cli-team',
      '--owner',
      'cli@clients.test',
      '--write',
    ]);
    expect(tok.code).toBe(0);
    teamToken = tok.stdout.trim();
    expect(teamToken).toMatch(/^tok_[a-z2-7]{20}\./);
    const demo = await asAdmin([
      'admin',
      'tokens',
      'create',
      'demo-team',
      '--owner',
      'cli@clients.test',
      '--write',
      '--json',
    ]);
    demoToken = (JSON.parse(demo.stdout) as { token: string }).token;
    const list = await asAdmin(['admin', 'tokens', 'list', 'cli-team']);
    expect(list.stdout).toContain(teamToken.split('.')[0]);
    expect(list.stdout).not.toContain(teamToken.split('.')[1]);
    const dup = await asAdmin([
      'admin',
      'nodes',
      'create',
      'cli-org',
      '--kind',
      'org',
      '--name',
      'again',
    ]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('(conflict, HTTP 409)');
  });

  it('login saves credentials with mode 0600 and later commands use them', async () => {
    const login = await run(['login', '--url', inquest.url, '--token', teamToken]);
    expect(login.code).toBe(0);
    const file = join(work, 'home/.config/inquest/config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const got = await run(['config', 'get', 'team_node_id'], { INQUEST_URL: '' });
    expect(got).toMatchObject({ code: 0, stdout: '"cli-team"\n' });
  });

  it('config set / get / audit / edit, and a helpful invalid_field error', async () => {
    const set = await asTeam(['config', 'set', 'chat_channel', '#cli']);
    expect(set.stdout).toMatch(/^Applied version \d+: chat_channel\n$/);
    expect((await asTeam(['config', 'get', 'chat_channel'])).stdout).toBe('"#cli"\n');
    const raw = JSON.parse((await asTeam(['config', 'get', '--raw'])).stdout) as {
      lineage: string[];
    };
    expect(raw.lineage).toEqual(['cli-org', 'cli-team']);
    const audit = await asTeam(['config', 'audit']);
    expect(audit.stdout).toMatch(/cli@clients\.test\s+team cli-team\s+chat_channel/);

    const editor = join(work, 'editor.js');
    writeFileSync(
      editor,
      "const fs=require('fs');const f=process.argv[2];const c=JSON.parse(fs.readFileSync(f,'utf8'));" +
        'c.agents={investigation_agent:{timeout:45}};fs.writeFileSync(f,JSON.stringify(c));',
    );
    const edit = await asTeam(
      ['config', 'edit'],
      { EDITOR: `${process.execPath} ${editor}` },
      'y\n',
    );
    expect(edit.code).toBe(0);
    expect(edit.stdout).toContain('+ agents: {"investigation_agent":{"timeout":45}}');
    expect(edit.stdout).toMatch(/Applied version \d+: agents\.investigation_agent\.timeout/);
    expect((await asTeam(['config', 'get', 'agents.investigation_agent.timeout'])).stdout).toBe(
      '45\n',
    );

    const bad = await asTeam(['config', 'set', 'team_name', '"Renamed"']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('(invalid_field, HTTP 400)');
    expect(bad.stderr).toContain('field: team_name');
    expect(bad.stderr).toMatch(/request id: \S+/);
    const invalid = await asTeam(['config', 'set', 'agents.investigation_agent.timeout', '0']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('- agents.investigation_agent.timeout:');
  });

  it('kb teach (file and stdin), search and ask', async () => {
    const file = join(work, 'queue-backlog.md');
    writeFileSync(
      file,
      '# Queue backlog\nWhen the orders queue backlog grows, scale the orders-worker deployment to 6 replicas.',
    );
    const taught = await asTeam(['kb', 'teach', file, '--service', 'orders', '--tags', 'queue']);
    expect(taught.stdout).toMatch(/^Taught \S+ \(L1, \d+ chunks?, (pending|indexed)\)\n$/);
    const fromStdin = await asTeam(
      ['kb', 'teach', '-', '--type', 'sla', '--title', 'orders-sla'],
      {},
      'orders p99 latency SLA is 300 ms',
    );
    expect(fromStdin.stdout).toContain('(L2,');
    const docId = taught.stdout.split(' ')[1]!;
    let indexed = false;
    for (let i = 0; i < 100 && !indexed; i++) {
      indexed = (await asTeam(['kb', 'status', docId])).stdout.includes(' indexed ');
      if (!indexed) await new Promise((r) => setTimeout(r, 200));
    }
    expect(indexed).toBe(true);
    const search = await asTeam(['kb', 'search', 'orders queue backlog scale workers']);
    expect(search.stdout).toContain(docId);
    const ask = await asTeam(['kb', 'ask', 'What to do when the orders queue backlog grows?']);
    expect(ask.code).toBe(0);
    expect(ask.stdout).toContain('Sources');
    expect(ask.stdout).toContain(docId);
  });

  it('investigate shows progress, then a readable report; status, list and cancel work on it', async () => {
    const r = await asDemo([
      'investigate',
      'checkout is returning 500s',
      '--service',
      'checkout',
      '--namespace',
      'shop',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✔ inv\S* completed · planner/);
    expect(r.stdout).toMatch(/Root cause \(confidence \d+%\)/);
    expect(r.stdout).toContain('Recommendations');
    expect(r.stdout).not.toContain('\u001b[');
    const id = /(inv\S*) completed/.exec(r.stdout)![1]!;
    expect(r.stderr).toContain(`started ${id}`);

    const json = await asDemo(['status', id, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ investigation_id: id, status: 'completed' });
    const list = await asDemo(['list', '--limit', '5']);
    expect(list.stdout).toContain(id);
    const cancel = await asDemo(['cancel', id]);
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toContain('(conflict, HTTP 409)');
  }, 90_000);

  it('investigate --json exits non-zero when the investigation failed', async () => {
    // A team whose only tool server is unreachable: the run fails with data_source_unavailable.
    await asAdmin([
      'admin',
      'nodes',
      'create',
      'cli-broken',
      '--kind',
      'team',
      '--name',
      'Broken',
      '--parent',
      'cli-org',
    ]);
    const setCfg = await asAdmin([
      'admin',
      'nodes',
      'set-config',
      'cli-broken',
      JSON.stringify({
        mcp_servers: [{ name: 'dead', url: 'http://127.0.0.1:9', enabled: true, timeout: 1 }],
        agents: { planner: { enable_extra_tools: ['dead:search_logs'] } },
      }),
    ]);
    expect(setCfg.code).toBe(0);
    const tok = (
      await asAdmin([
        'admin',
        'tokens',
        'create',
        'cli-broken',
        '--owner',
        'cli@clients.test',
        '--write',
      ])
    ).stdout.trim();
    const r = await run(['investigate', 'orders are failing', '--service', 'orders', '--json'], {
      INQUEST_TOKEN: tok,
    });
    const inv = JSON.parse(r.stdout) as { status: string; error?: { code: string } };
    expect(inv.status).toBe('failed');
    expect(inv.error?.code).toBe('data_source_unavailable');
    expect(r.code).toBe(1);
  }, 90_000);

  it('explains a bad token and an unreachable service', async () => {
    const bad = await run(['list'], { INQUEST_TOKEN: 'tok_aaaaaaaaaaaaaaaaaaaa.wrong' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('(unauthorized, HTTP 401)');
    expect(bad.stderr).toContain('hint: check INQUEST_TOKEN');
    const down = await run(['list'], {
      INQUEST_URL: 'http://127.0.0.1:9',
      INQUEST_TOKEN: teamToken,
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('is Inquest running at http://127.0.0.1:9?');
  }, 60_000);
});
