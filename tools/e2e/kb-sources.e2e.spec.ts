/**
 * REST tests of /kb/sources: the real gateway in front of the real knowledge-raptor service,
 * syncing a real Git repository made by the test (the `git` binary) for one team; another team
 * sees its own (empty) sources, a read-only token cannot start a sync.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessEventBus } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import {
  gatewayRequest,
  startConfigServiceDouble,
  tempDir,
  type ConfigServiceDouble,
} from '@inquest/testing';
import { start as startGateway } from '@inquest/gateway-service';
import { start as startKnowledge } from '@inquest/knowledge-raptor-service';

let config: ConfigServiceDouble;
let svc: Awaited<ReturnType<typeof startKnowledge>>;
let gw: Awaited<ReturnType<typeof startGateway>>;
const bus = new InProcessEventBus();
const repo = tempDir();
let rw: string;
let ro: string;
let other: string;

const call = (token: string, method: string, path: string) =>
  gatewayRequest(gw.url, method, `/api/v1${path}`, { token });

beforeAll(async () => {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      env: {
        PATH: process.env['PATH'],
        HOME: repo,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.com',
      },
    });
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(
    join(repo, 'payments.md'),
    '# Payments 502 from the gateway\nRestart the payments-api pods and check the upstream pool.',
  );
  git('add', '--all');
  git('commit', '--quiet', '-m', 'runbook');

  config = await startConfigServiceDouble({ unknownTeam: 'empty' });
  config.effective.set('payments', {
    knowledge_base: {
      sources: {
        runbooks: { kind: 'git', url: `file://${repo}`, branch: 'main' },
        broken: { kind: 'web', url: 'http://10.255.255.1/sitemap.xml' },
      },
    },
  } as never);
  svc = await startKnowledge(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_DATA_DIR: tempDir(),
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_KB_SETTINGS_CACHE_MS: '0',
      INQUEST_LOG_LEVEL: 'silent',
      // the test's repository is made under the system's temporary directory
      INQUEST_KB_GIT_FILE_ROOTS: tmpdir(),
    },
    { bus, logger: silentLogger() },
  );
  gw = await startGateway(
    {
      PORT: '0',
      INQUEST_HTTP_HOST: '127.0.0.1',
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_ADMIN_TOKEN: `admin.${randomBytes(24).toString('base64url')}`,
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_KNOWLEDGE_ADDR: svc.address,
      INQUEST_RATE_LIMITS: 'read=100000,write=100000,trigger=100000',
    },
    { bus, logger: silentLogger() },
  );
  rw = config.issue('payments', ['read', 'write']).token;
  ro = config.issue('payments', ['read']).token;
  other = config.issue('checkout', ['read', 'write']).token;
});

afterAll(async () => {
  await gw?.stop();
  await svc?.stop();
  await config?.stop();
  await bus.close();
});

describe('/kb/sources', () => {
  it('lists the sources never synced, syncs them on request, and shows each one’s outcome', async () => {
    const before = await call(ro, 'GET', '/kb/sources');
    expect(before.status).toBe(200);
    expect(
      before.body.sources.map((s: { name: string; state: string }) => [s.name, s.state]),
    ).toEqual([
      ['runbooks', 'never'],
      ['broken', 'never'],
    ]);
    expect((await call(ro, 'GET', '/kb/tree/stats')).body.last_sync_at).toBeNull();

    expect((await call(ro, 'POST', '/kb/sources/sync')).status).toBe(403);
    const synced = await call(rw, 'POST', '/kb/sources/sync');
    expect(synced.status).toBe(200);
    expect(synced.body.sources[0]).toMatchObject({
      name: 'runbooks',
      kind: 'git',
      state: 'ok',
      added: 1,
      documents: 1,
      error: null,
    });
    expect(synced.body.sources[1]).toMatchObject({ name: 'broken', kind: 'web', state: 'error' });
    expect(synced.body.sources[1].error).toMatch(/refus|private|not allowed/i);

    const listed = await call(ro, 'GET', '/kb/sources');
    expect(listed.body).toEqual(synced.body);
    const stats = await call(ro, 'GET', '/kb/tree/stats');
    expect(stats.body.last_sync_at).toBe(synced.body.sources[1].last_sync_at);
    expect(stats.body.total_documents).toBe(1);
  });

  it('is team-scoped: another team sees only its own sources', async () => {
    const res = await call(other, 'GET', '/kb/sources');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sources: [] });
  });
});
