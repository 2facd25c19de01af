import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { scriptRoutes, startScriptedServer } from '@inquest/client/testing';
import type { ScriptedReply, ScriptedServer } from '@inquest/client/testing';
import { tempDir } from '@inquest/testing';

// The CLI is tested as users run it: the built binary, in a child process.
const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'tools/cli/dist/main.js');
const API = '/api/v1';
const BASE = tempDir('inquest-cli-spec-');
/** A fresh directory under BASE (tempDir registers afterAll, which jest refuses inside a test). */
const freshDir = (prefix: string): string => mkdtempSync(join(BASE, prefix));

beforeAll(() => {
  execFileSync(
    process.execPath,
    [join(ROOT, 'tools/scripts/build.js'), 'libs/client', 'tools/cli'],
    { cwd: ROOT },
  );
});

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(
  args: string[],
  opts: { env?: Record<string, string | undefined>; input?: string; home?: string } = {},
): Promise<RunResult> {
  const home = opts.home ?? freshDir('home-');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home };
  for (const [k, v] of Object.entries(opts.env ?? {})) if (v !== undefined) env[k] = v;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

async function serve(routes: Parameters<typeof scriptRoutes>[0]): Promise<ScriptedServer> {
  server = await startScriptedServer(scriptRoutes(routes));
  return server;
}

const creds = (s: ScriptedServer, token = 'tok_aaaaaaaaaaaaaaaaaaaa.secret') => ({
  INQUEST_URL: s.url,
  INQUEST_TOKEN: token,
});

const started: ScriptedReply = {
  status: 202,
  body: {
    investigation_id: 'inv_7',
    status: 'running',
    poll_url: `${API}/agents/status/inv_7`,
    created_at: '2026-01-01T00:00:00.000Z',
  },
};
const runningAt = (step: string, done: number): ScriptedReply => ({
  status: 200,
  body: {
    investigation_id: 'inv_7',
    status: 'running',
    agent: 'k8s_agent',
    message: 'pods crashlooping',
    progress: { current_step: step, steps_completed: done, steps_total: 3 },
  },
});
const completed: ScriptedReply = {
  status: 200,
  body: {
    investigation_id: 'inv_7',
    status: 'completed',
    agent: 'k8s_agent',
    message: 'pods crashlooping',
    duration_seconds: 4.2,
    tools_used: ['k8s:get_pods', 'logs:search'],
    result: {
      summary: 'payments pods OOMKilled',
      root_cause: {
        description: 'memory limit 256Mi too low after release 1.4',
        confidence: 87,
        evidence: ['OOMKilled x12'],
      },
      timeline: [{ timestamp: '2026-01-01T00:01:00.000Z', event: 'deploy 1.4' }],
      affected_systems: ['payments'],
      recommendations: [{ priority: 'high', action: 'raise memory limit to 512Mi' }],
    },
  },
};

describe('inquest investigate', () => {
  it('starts an async run, shows progress on stderr, then prints the report and exits 0', async () => {
    const s = await serve({
      [`POST ${API}/agents/run`]: started,
      [`GET ${API}/agents/status/inv_7`]: [
        runningAt('list pods', 1),
        runningAt('read logs', 2),
        completed,
      ],
    });
    const r = await run(
      [
        'investigate',
        'pods crashlooping',
        '--agent',
        'k8s_agent',
        '--service',
        'payments',
        '--namespace',
        'prod-pay',
      ],
      {
        env: creds(s),
      },
    );
    expect(r.code).toBe(0);
    expect(s.requests[0]!.body).toEqual({
      agent_name: 'k8s_agent',
      message: 'pods crashlooping',
      context: { service: 'payments', namespace: 'prod-pay' },
      async: true,
    });
    expect(r.stderr).toContain('inv_7 running · list pods (1/3)');
    expect(r.stderr).toContain('inv_7 running · read logs (2/3)');
    expect(r.stdout).toContain('Root cause (confidence 87%)');
    expect(r.stdout).toContain('memory limit 256Mi too low after release 1.4');
    expect(r.stdout).toContain('2026-01-01T00:01:00.000Z  deploy 1.4');
    expect(r.stdout).toContain('[high] raise memory limit to 512Mi');
    // not a TTY: no colour codes anywhere
    expect(r.stdout + r.stderr).not.toContain('\u001b[');
  }, 20_000);

  it('prints JSON with --json and exits 1 when the investigation failed', async () => {
    const failed: ScriptedReply = {
      status: 200,
      body: {
        investigation_id: 'inv_7',
        status: 'failed',
        agent: 'planner',
        message: 'm',
        error: { code: 'data_source_unavailable', message: 'all tool servers unreachable' },
      },
    };
    const s = await serve({
      [`POST ${API}/agents/run`]: started,
      [`GET ${API}/agents/status/inv_7`]: failed,
    });
    const r = await run(['investigate', 'm', '--json'], { env: creds(s) });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'failed',
      error: { code: 'data_source_unavailable' },
    });
    const human = await run(['status', 'inv_7'], { env: creds(s) });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('Error data_source_unavailable: all tool servers unreachable');
  });

  it('exits 3 for a cancelled investigation and --no-wait prints only the id', async () => {
    const s = await serve({
      [`POST ${API}/agents/run`]: started,
      [`GET ${API}/agents/status/inv_7`]: {
        status: 200,
        body: { investigation_id: 'inv_7', status: 'cancelled', agent: 'planner', message: 'm' },
      },
    });
    expect((await run(['investigate', 'm'], { env: creds(s) })).code).toBe(3);
    const nowait = await run(['investigate', 'm', '--no-wait'], { env: creds(s) });
    expect(nowait).toMatchObject({ code: 0, stdout: 'inv_7\n' });
  });

  it('collapses repeated timeline events and keeps the deploy and the first error in the human report', async () => {
    const ts = (min: number) => `2026-01-01T00:${String(min).padStart(2, '0')}:00.000Z`;
    const timeline = [
      { timestamp: ts(0), event: 'rollout: ReplicaSet checkout-7d9f created (shop/checkout:1.4)' },
      ...Array.from({ length: 18 }, (_, i) => ({
        timestamp: ts(2 + i),
        event: `OOMKilled Pod/checkout-7d9f-x2k4p: container app OOMKilled (exit 137)`,
      })),
      { timestamp: ts(25), event: 'log checkout-7d9f-x2k4p: java.lang.OutOfMemoryError' },
    ];
    const body = { ...(completed.body as Record<string, unknown>) };
    body.result = { ...(body.result as Record<string, unknown>), timeline };
    const s = await serve({ [`GET ${API}/agents/status/inv_7`]: { status: 200, body } });
    const r = await run(['status', 'inv_7'], { env: creds(s) });
    const shown = r.stdout.slice(r.stdout.indexOf('Timeline'));
    expect(shown).toContain(
      `${ts(0)}  rollout: ReplicaSet checkout-7d9f created (shop/checkout:1.4)\n`,
    );
    expect(shown).toContain(
      `${ts(2)}  OOMKilled Pod/checkout-7d9f-x2k4p: container app OOMKilled (exit 137)  (×18, 00:02:00–00:19:00)\n`,
    );
    expect(shown).toContain(`${ts(25)}  log checkout-7d9f-x2k4p: java.lang.OutOfMemoryError\n`);
    expect(shown.match(/OOMKilled Pod/g)).toHaveLength(1);
    expect(shown).not.toContain('left out');
    const j = await run(['status', 'inv_7', '--json'], { env: creds(s) });
    expect(JSON.parse(j.stdout).result.timeline).toHaveLength(20);
  });

  it('rejects an unknown agent as a usage error (exit 2) without calling the API', async () => {
    const s = await serve({});
    const r = await run(['investigate', 'm', '--agent', 'bogus'], { env: creds(s) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Allowed choices are planner, investigation_agent');
    expect(s.requests).toHaveLength(0);
  });
});

describe('inquest list / cancel', () => {
  it('lists investigations as a table and cancels one', async () => {
    const s = await serve({
      [`GET ${API}/agents/investigations`]: {
        status: 200,
        body: {
          investigations: [
            {
              investigation_id: 'inv_1',
              status: 'running',
              agent: 'planner',
              message: 'api latency',
              created_at: '2026-01-01T00:00:00.000Z',
            },
          ],
          pagination: { total: 3, limit: 1, offset: 0 },
        },
      },
      [`POST ${API}/agents/status/inv_1/cancel`]: {
        status: 200,
        body: {
          investigation_id: 'inv_1',
          status: 'cancelled',
          cancelled_at: '2026-01-01T00:00:05.000Z',
        },
      },
    });
    const list = await run(['list', '--limit', '1', '--status', 'running'], { env: creds(s) });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/ID\s+STATUS\s+AGENT\s+CREATED\s+MESSAGE/);
    expect(list.stdout).toContain('inv_1');
    expect(list.stdout).toContain('next page: --offset 1');
    expect(s.requests[0]!.query.toString()).toBe('limit=1&offset=0&status=running');
    const cancel = await run(['cancel', 'inv_1'], { env: creds(s) });
    expect(cancel).toMatchObject({
      code: 0,
      stdout: 'Cancelled inv_1 at 2026-01-01T00:00:05.000Z\n',
    });
  });
});

describe('inquest config', () => {
  it('config set sends a nested partial document and reports the version', async () => {
    const s = await serve({
      [`PUT ${API}/config/me`]: [
        {
          status: 200,
          body: {
            message: 'ok',
            version: 4,
            changed_fields: ['agents.planner.timeout'],
            effective_config: {},
          },
        },
        {
          status: 202,
          body: {
            message: 'needs approval',
            change_request_id: 'cr_1',
            status: 'pending_approval',
            approvers: ['lead@acme.io'],
            changes: {},
          },
        },
      ],
    });
    const a = await run(['config', 'set', 'agents.planner.timeout', '600'], { env: creds(s) });
    expect(a).toMatchObject({ code: 0, stdout: 'Applied version 4: agents.planner.timeout\n' });
    const b = await run(['config', 'set', 'chat_channel', '#ops'], { env: creds(s) });
    expect(b.stdout).toBe('Pending approval by lead@acme.io: change request cr_1\n');
    expect(s.requests.map((r) => r.body)).toEqual([
      { agents: { planner: { timeout: 600 } } },
      { chat_channel: '#ops' },
    ]);
  });

  it('config get prints the effective config, a dot path, or --raw', async () => {
    const s = await serve({
      [`GET ${API}/config/me/effective`]: {
        status: 200,
        body: { agents: { planner: { enabled: true } }, chat_channel: '#x' },
      },
      [`GET ${API}/config/me/raw`]: {
        status: 200,
        body: { lineage: ['acme', 'pay'], configs: { acme: {}, pay: { chat_channel: '#x' } } },
      },
    });
    expect(JSON.parse((await run(['config', 'get'], { env: creds(s) })).stdout).chat_channel).toBe(
      '#x',
    );
    expect(
      JSON.parse((await run(['config', 'get', 'agents.planner'], { env: creds(s) })).stdout),
    ).toEqual({ enabled: true });
    expect(
      JSON.parse((await run(['config', 'get', '--raw'], { env: creds(s) })).stdout).lineage,
    ).toEqual(['acme', 'pay']);
    const missing = await run(['config', 'get', 'nope.nothing'], { env: creds(s) });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.nothing is not set');
  });

  it('config edit opens $EDITOR on the team overrides, shows the diff, confirms and applies the changes', async () => {
    const s = await serve({
      [`GET ${API}/config/me/raw`]: {
        status: 200,
        body: {
          lineage: ['acme', 'pay'],
          configs: {
            acme: { chat_channel: '#org' },
            pay: { chat_channel: '#pay', alerts: { disabled: ['a'] } },
          },
        },
      },
      [`PUT ${API}/config/me`]: {
        status: 200,
        body: {
          message: 'ok',
          version: 9,
          changed_fields: ['chat_channel', 'feature_flags.require_approval'],
          effective_config: {},
        },
      },
    });
    const dir = freshDir('editor-');
    const editor = join(dir, 'edit.js');
    writeFileSync(
      editor,
      `const fs=require('fs');const f=process.argv[2];const c=JSON.parse(fs.readFileSync(f,'utf8'));` +
        `c.chat_channel='#pay-oncall';c.feature_flags={require_approval:true};delete c.alerts;fs.writeFileSync(f,JSON.stringify(c));`,
    );
    const env = { ...creds(s), EDITOR: `${process.execPath} ${editor}` };
    const declined = await run(['config', 'edit'], { env, input: 'n\n' });
    expect(declined.code).toBe(0);
    expect(declined.stdout).toContain('- chat_channel: "#pay"');
    expect(declined.stdout).toContain('+ chat_channel: "#pay-oncall"');
    expect(declined.stdout).toContain('+ feature_flags: {"require_approval":true}');
    expect(declined.stdout).toContain('Aborted; nothing changed.');
    expect(s.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);

    const accepted = await run(['config', 'edit'], { env, input: 'y\n' });
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain('Applied version 9');
    const put = s.requests.find((r) => r.method === 'PUT')!;
    // only what changed is sent (a JSON Merge Patch): a removed key is null
    expect(accepted.stdout).toContain('removed keys fall back to the inherited value: alerts');
    expect(put.body).toEqual({
      chat_channel: '#pay-oncall',
      feature_flags: { require_approval: true },
      alerts: null,
    });
  });

  it('config approve/reject decide a pending change as a listed approver', async () => {
    const s = await serve({
      [`POST ${API}/config/me/pending/cr_1/approve`]: {
        status: 200,
        body: {
          change_request_id: 'cr_1',
          team_id: 'pay',
          status: 'approved',
          requested_by: 'dev@acme.io',
          requested_at: '2026-01-01T00:00:00.000Z',
          approvers: ['boss@acme.io'],
          changes: {},
          applied_version: 4,
        },
      },
      [`POST ${API}/config/me/pending/cr_2/reject`]: {
        status: 403,
        body: { error: { code: 'forbidden', message: 'not an approver', request_id: 'r' } },
      },
    });
    const ok = await run(['config', 'approve', 'cr_1', '--comment', 'fine'], { env: creds(s) });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('cr_1 approved (version 4)');
    expect(s.requests[0]!.body).toEqual({ comment: 'fine' });
    const denied = await run(['config', 'reject', 'cr_2'], { env: creds(s) });
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('not an approver');
  });

  it('config audit prints a table of versions', async () => {
    const s = await serve({
      [`GET ${API}/config/me/audit`]: {
        status: 200,
        body: {
          history: [
            {
              version: 2,
              changed_at: '2026-01-02T00:00:00.000Z',
              changed_by: 'ana@acme.io',
              diff: { chat_channel: { old: '#a', new: '#b' } },
              node_id: 'acme',
              level: 'org',
            },
          ],
          pagination: { total: 7, limit: 5, offset: 2 },
        },
      },
    });
    const r = await run(['config', 'audit', '--limit', '5', '--offset', '2'], { env: creds(s) });
    expect(r.stdout).toMatch(
      /VERSION\s+CHANGED AT\s+CHANGED BY\s+LEVEL\s+FIELDS\n2\s+2026-01-02T00:00:00.000Z\s+ana@acme.io\s+org acme\s+chat_channel/,
    );
    expect(s.requests[0]!.query.toString()).toBe('limit=5&offset=2&include_full=false');
  });
});

describe('inquest tools', () => {
  it('prints each server with health and its tools with access and agents', async () => {
    const s = await serve({
      [`GET ${API}/tools`]: {
        status: 200,
        body: {
          servers: [
            {
              name: 'demo',
              url: 'http://demo:9000',
              enabled: true,
              healthy: true,
              breaker_state: 'closed',
              tools: [
                {
                  name: 'demo:list_pods',
                  tool: 'list_pods',
                  description: 'List pods',
                  parameters: { type: 'object' },
                  read_only: true,
                  destructive: false,
                  safety_reason: 'name',
                  agents: ['k8s_agent', 'planner'],
                },
                {
                  name: 'demo:restart_deployment',
                  tool: 'restart_deployment',
                  description: 'Restart',
                  parameters: { type: 'object' },
                  read_only: false,
                  destructive: true,
                  safety_reason: 'name says restart',
                  agents: [],
                },
              ],
            },
          ],
          builtin_tools: [{ name: 'knowledge_search', agents: ['planner'] }],
        },
      },
    });
    const r = await run(['tools', '--refresh'], { env: creds(s) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('demo · http://demo:9000 · healthy · breaker closed');
    expect(r.stdout).toMatch(/demo:list_pods\s+read-only\s+k8s_agent, planner\s+List pods/);
    expect(r.stdout).toMatch(/demo:restart_deployment\s+destructive\s+-\s+Restart/);
    expect(r.stdout).toContain('built-in: knowledge_search (planner)');
    expect(s.requests[0]!.query.toString()).toBe('refresh=true');
  });
});

describe('inquest kb', () => {
  it('teaches from a file and from stdin, searches and asks', async () => {
    const s = await serve({
      [`POST ${API}/kb/teach`]: {
        status: 201,
        body: { document_id: 'doc_1', status: 'indexed', level: 'L1', chunks: 2 },
      },
      [`POST ${API}/kb/retrieve`]: {
        status: 200,
        body: {
          query_id: 'q_1',
          strategy: 'hybrid',
          took_ms: 3,
          results: [
            {
              id: 'c1',
              document_id: 'doc_1',
              content: 'Restart the payments pods',
              score: 0.91,
              level: 'L1',
              type: 'runbook',
              tags: [],
              tree_layer: 0,
            },
          ],
        },
      },
      [`POST ${API}/kb/answer`]: {
        status: 200,
        body: {
          query_id: 'q_2',
          answer: 'Restart the pods.',
          confidence: 0.8,
          sources: [{ document_id: 'doc_1', title: 'oom.md', snippet: 's', score: 0.9 }],
        },
      },
    });
    const dir = freshDir('kb-');
    const file = join(dir, 'oom.md');
    writeFileSync(file, '# OOM\nRestart the payments pods');
    const t1 = await run(['kb', 'teach', file, '--service', 'payments', '--tags', 'oom, k8s'], {
      env: creds(s),
    });
    expect(t1).toMatchObject({ code: 0, stdout: 'Taught doc_1 (L1, 2 chunks, indexed)\n' });
    const t2 = await run(['kb', 'teach', '-', '--type', 'sla'], {
      env: creds(s),
      input: 'p99 < 300ms',
    });
    expect(t2.code).toBe(0);
    expect(s.requests[0]!.body).toEqual({
      content: '# OOM\nRestart the payments pods',
      type: 'runbook',
      service: 'payments',
      tags: ['oom', 'k8s'],
      title: 'oom.md',
    });
    expect(s.requests[1]!.body).toEqual({ content: 'p99 < 300ms', type: 'sla' });
    const search = await run(['kb', 'search', 'oom payments', '-k', '3'], { env: creds(s) });
    expect(search.stdout).toContain('0.910');
    expect(search.stdout).toContain('Restart the payments pods');
    expect(s.requests[2]!.body).toEqual({ query: 'oom payments', top_k: 3 });
    const ask = await run(['kb', 'ask', 'what to do on OOM?'], { env: creds(s) });
    expect(ask.stdout).toContain('Restart the pods.');
    expect(ask.stdout).toContain('oom.md');
    const empty = await run(['kb', 'teach', '-'], { env: creds(s), input: '  ' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('stdin is empty');
  });
});

describe('inquest kb delete', () => {
  it('deletes a document; an unknown one exits non-zero with the error', async () => {
    const s = await serve({
      [`DELETE ${API}/kb/documents/doc_0123456789abcdef0123`]: { status: 204 },
      [`DELETE ${API}/kb/documents/doc_ffffffffffffffffffff`]: {
        status: 404,
        body: {
          error: { code: 'not_found', message: 'document doc_ffffffffffffffffffff not found' },
        },
      },
    });
    const ok = await run(['kb', 'delete', 'doc_0123456789abcdef0123'], { env: creds(s) });
    expect(ok).toMatchObject({ code: 0, stdout: 'Deleted doc_0123456789abcdef0123\n' });
    expect(s.requests[0]!.method).toBe('DELETE');
    const missing = await run(['kb', 'delete', 'doc_ffffffffffffffffffff'], { env: creds(s) });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('not found');
  });
});

describe('inquest admin', () => {
  it('creates a node and a token, lists tokens, revokes one, with X-Inquest-Team unset', async () => {
    const s = await serve({
      [`POST ${API}/admin/nodes`]: {
        status: 201,
        body: {
          node_id: 'pay',
          parent_id: 'acme',
          kind: 'team',
          name: 'Payments',
          org_id: 'acme',
          created_at: 'c',
        },
      },
      [`POST ${API}/admin/nodes/pay/tokens`]: {
        status: 201,
        body: {
          token: 'tok_bbbbbbbbbbbbbbbbbbbb.sek',
          token_id: 'tok_bbbbbbbbbbbbbbbbbbbb',
          permissions: ['read', 'write'],
          owner: 'ana@acme.io',
          created_at: 'c',
          expires_at: null,
        },
      },
      [`GET ${API}/admin/nodes/pay/tokens`]: {
        status: 200,
        body: {
          tokens: [
            {
              token_id: 'tok_bbbbbbbbbbbbbbbbbbbb',
              permissions: ['read', 'write'],
              owner: 'ana@acme.io',
              created_at: 'c',
              expires_at: null,
            },
          ],
        },
      },
      [`DELETE ${API}/admin/tokens/tok_bbbbbbbbbbbbbbbbbbbb`]: { status: 204 },
    });
    const env = creds(s, 'admin.topsecret');
    const node = await run(
      [
        'admin',
        'nodes',
        'create',
        'pay',
        '--kind',
        'team',
        '--name',
        'Payments',
        '--parent',
        'acme',
      ],
      { env },
    );
    expect(node).toMatchObject({ code: 0, stdout: 'Created team pay (org acme)\n' });
    const tok = await run(
      ['admin', 'tokens', 'create', 'pay', '--owner', 'ana@acme.io', '--write'],
      { env },
    );
    expect(tok.stdout).toBe('tok_bbbbbbbbbbbbbbbbbbbb.sek\n');
    expect(s.requests[1]!.body).toEqual({ permissions: ['read', 'write'], owner: 'ana@acme.io' });
    const list = await run(['admin', 'tokens', 'list', 'pay'], { env });
    expect(list.stdout).toMatch(/tok_bbbbbbbbbbbbbbbbbbbb\s+read,write\s+ana@acme.io/);
    expect(
      (await run(['admin', 'tokens', 'revoke', 'tok_bbbbbbbbbbbbbbbbbbbb'], { env })).stdout,
    ).toBe('Revoked tok_bbbbbbbbbbbbbbbbbbbb\n');
    expect(s.requests.every((r) => r.headers.authorization === 'Bearer admin.topsecret')).toBe(
      true,
    );
  });
});

describe('inquest webhooks', () => {
  it('lists deliveries and redelivers one', async () => {
    const delivery = {
      delivery_id: 'dlv_1',
      event: 'investigation_complete',
      event_id: 'evt_1',
      channel: 'webhook',
      target: 'https://hooks.example.test/inquest',
      status: 'failed',
      attempts: 10,
      last_status_code: 500,
      created_at: '2026-01-01T00:00:00.000Z',
    };
    const s = await serve({
      [`GET ${API}/webhooks/deliveries`]: { status: 200, body: { deliveries: [delivery] } },
      [`POST ${API}/webhooks/deliveries/dlv_1/redeliver`]: {
        status: 202,
        body: {
          delivery: {
            ...delivery,
            delivery_id: 'dlv_2',
            status: 'pending',
            attempts: 0,
            redelivery_of: 'dlv_1',
          },
        },
      },
    });
    const list = await run(['webhooks', 'deliveries', '--status', 'failed'], { env: creds(s) });
    expect(list.stdout).toMatch(
      /dlv_1\s+investigation_complete\s+failed\s+10\s+500\s+2026-01-01T00:00:00.000Z\s+https:\/\/hooks.example.test\/inquest/,
    );
    expect(s.requests[0]!.query.toString()).toBe('limit=20&status=failed');
    const re = await run(['webhooks', 'redeliver', 'dlv_1'], { env: creds(s) });
    expect(re.stdout).toBe('Redelivering dlv_1 as dlv_2 (pending)\n');
  });
});

describe('credentials and errors', () => {
  it('explains missing credentials', async () => {
    const r = await run(['list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no INQUEST_URL and INQUEST_TOKEN set');
    expect(r.stderr).toContain('inquest login');
  });

  it('login checks the token and writes the config file with mode 0600; later commands use it', async () => {
    const s = await serve({
      [`GET ${API}/config/me/effective`]: { status: 200, body: {} },
      [`GET ${API}/agents/investigations`]: {
        status: 200,
        body: { investigations: [], pagination: { total: 0, limit: 20, offset: 0 } },
      },
    });
    const home = freshDir('home-');
    const login = await run(['login', '--url', s.url, '--token', 'tok_cccccccccccccccccccc.x'], {
      home,
    });
    expect(login.code).toBe(0);
    const file = join(home, '.config/inquest/config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      url: s.url,
      token: 'tok_cccccccccccccccccccc.x',
    });
    const list = await run(['list'], { home });
    expect(list).toMatchObject({ code: 0, stdout: 'No investigations.\n', stderr: '' });
    expect(s.requests[1]!.headers.authorization).toBe('Bearer tok_cccccccccccccccccccc.x');
  });

  it('warns when the config file is readable by others, and env vars win over it', async () => {
    const s = await serve({
      [`GET ${API}/agents/investigations`]: {
        status: 200,
        body: { investigations: [], pagination: { total: 0, limit: 20, offset: 0 } },
      },
    });
    const home = freshDir('home-');
    mkdirSync(join(home, '.config/inquest'), { recursive: true });
    const file = join(home, '.config/inquest/config.json');
    writeFileSync(file, JSON.stringify({ url: 'http://127.0.0.1:1', token: 'tok_from_file.x' }));
    chmodSync(file, 0o644);
    const r = await run(['list'], { home, env: { INQUEST_URL: s.url } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('is readable by other users');
    expect(s.requests[0]!.headers.authorization).toBe('Bearer tok_from_file.x');
  });

  it('shows field problems of a validation error, the request id and a hint for 401', async () => {
    const s = await serve({
      [`PUT ${API}/config/me`]: {
        status: 400,
        body: {
          error: {
            code: 'validation_error',
            message: 'configuration is invalid',
            request_id: 'req_abc',
            details: { field: 'agents.planner.timeout', error: 'must be a positive integer' },
            errors: [
              { field: 'agents.planner.timeout', error: 'must be a positive integer' },
              {
                field: 'knowledge_base.retrieval.strategy',
                error: 'must be one of dense, sparse, hybrid',
              },
            ],
          },
        },
      },
      [`GET ${API}/config/me/effective`]: {
        status: 401,
        body: { error: { code: 'unauthorized', message: 'invalid or missing credentials' } },
      },
    });
    const v = await run(['config', 'set', 'agents.planner.timeout', '-5'], { env: creds(s) });
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('error: configuration is invalid (validation_error, HTTP 400)');
    expect(v.stderr).toContain(
      '- knowledge_base.retrieval.strategy: must be one of dense, sparse, hybrid',
    );
    expect(v.stderr).toContain('request id: req_abc');
    const u = await run(['config', 'get'], { env: creds(s) });
    expect(u.stderr).toContain('hint: check INQUEST_TOKEN');
  });

  it('tells a team token refused by an admin endpoint to pass the admin token', async () => {
    const s = await serve({
      [`GET ${API}/admin/nodes`]: {
        status: 403,
        body: { error: { code: 'forbidden', message: 'this endpoint needs the admin token' } },
      },
    });
    const r = await run(['admin', 'nodes', 'list'], { env: creds(s) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: this endpoint needs the admin token (forbidden, HTTP 403)');
    expect(r.stderr).toContain(
      'hint: pass the admin token (admin.…, printed by the first `npm start`) with --token, or set INQUEST_TOKEN to it',
    );
  });

  it('says where it tried to connect when the service is down, in colour only when forced', async () => {
    const s = await serve({});
    const url = s.url;
    await s.close();
    server = undefined;
    const plain = await run(['cancel', 'inv_1'], {
      env: { INQUEST_URL: url, INQUEST_TOKEN: 'a.b' },
    });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain(`is Inquest running at ${url}?`);
    expect(plain.stderr).not.toContain('\u001b[');
    const coloured = await run(['cancel', 'inv_1'], {
      env: { INQUEST_URL: url, INQUEST_TOKEN: 'a.b', FORCE_COLOR: '1' },
    });
    expect(coloured.stderr).toContain('\u001b[31merror:\u001b[39m');
  });
});
