import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InProcessEventBus } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import { startConfigServiceDouble, tempDir, type ConfigServiceDouble } from '@inquest/testing';
import { start, type RunningService } from '../src/main';

const TEAM = 'team-sync';

/** A real Git repository of Markdown runbooks, changed by the test through the real git binary. */
function gitRepo() {
  const dir = tempDir();
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: {
        PATH: process.env['PATH'],
        HOME: dir,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.com',
      },
    }).toString();
  git('init', '--quiet', '--initial-branch=main');
  return {
    url: `file://${dir}`,
    write(path: string, text: string) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    },
    remove(path: string) {
      rmSync(join(dir, path));
    },
    commit(message: string) {
      git('add', '--all');
      git('commit', '--quiet', '-m', message);
    },
  };
}

describe('knowledge source sync (real git)', () => {
  let config: ConfigServiceDouble;
  let svc: RunningService;
  const dataDir = tempDir();
  const repo = gitRepo();

  const setSources = (sources: Record<string, unknown>) =>
    config.effective.set(TEAM, { knowledge_base: { sources } } as never);
  const top = async (query: string) =>
    (await svc.knowledge.retrieve({ teamId: TEAM, query, topK: 5, minRelevance: 0 })).results;

  beforeAll(async () => {
    config = await startConfigServiceDouble({ unknownTeam: 'empty' });
    svc = await start(
      {
        INQUEST_GRPC_PORT: '0',
        INQUEST_DATA_DIR: dataDir,
        INQUEST_CONFIG_ADDR: config.address,
        INQUEST_KB_REBUILD_DEBOUNCE_MS: '60000',
        INQUEST_KB_SETTINGS_CACHE_MS: '0',
        INQUEST_LOG_LEVEL: 'silent',
      },
      { bus: new InProcessEventBus(), logger: silentLogger() },
    );
  });
  afterAll(async () => {
    await svc?.stop();
    await config?.stop();
  });

  it('adds, updates and removes documents as the repository changes; unchanged files are skipped', async () => {
    repo.write(
      'runbooks/redis.md',
      '# Redis evictions\nWhen redis evicts keys under memory pressure raise maxmemory.',
    );
    repo.write(
      'runbooks/dns.md',
      '# CoreDNS timeouts\nScale coredns replicas when lookups time out.',
    );
    repo.write('notes/todo.md', '# Unrelated zebra notes\nzebra giraffe');
    repo.write('README.txt', 'not markdown');
    repo.commit('first');
    setSources({ git: { url: repo.url, branch: 'main', paths: ['runbooks/**/*.md'] } });

    let [status] = await svc.sources.syncNow(TEAM);
    expect(status).toMatchObject({ name: 'git', state: 'ok', added: 2, documents: 2 });
    expect((await top('redis evicts keys maxmemory'))[0]?.title).toBe('Redis evictions');
    expect((await top('zebra giraffe')).some((r) => r.title === 'Unrelated zebra notes')).toBe(
      false,
    );

    // change one file, delete another, add a third
    repo.write(
      'runbooks/redis.md',
      '# Redis evictions\nWhen redis evicts keys enable the allkeys-lru policy and add shards.',
    );
    repo.remove('runbooks/dns.md');
    repo.write('runbooks/disk/pressure.md', '# Disk pressure\nPrune images with crictl.');
    repo.commit('second');
    [status] = await svc.sources.syncNow(TEAM);
    expect(status).toMatchObject({ state: 'ok', added: 1, updated: 1, removed: 1, documents: 2 });
    const redis = await top('redis evicts keys allkeys-lru shards');
    expect(redis[0]?.content).toContain('allkeys-lru');
    expect(redis.some((r) => r.content.includes('raise maxmemory'))).toBe(false);
    expect(
      (await top('coredns lookups time out')).some((r) => r.title === 'CoreDNS timeouts'),
    ).toBe(false);
    expect((await top('prune images crictl'))[0]?.title).toBe('Disk pressure');
    expect((await svc.knowledge.treeStats(TEAM)).total_documents).toBe(2);

    // nothing changed: nothing taught again
    [status] = await svc.sources.syncNow(TEAM);
    expect(status).toMatchObject({ state: 'ok', added: 0, updated: 0, removed: 0, unchanged: 2 });
    expect((await svc.knowledge.treeStats(TEAM)).last_sync_at).toBe(status?.last_sync_at);
  });

  it('reports an unreachable repository or a bad reference in the status and keeps the documents', async () => {
    setSources({
      git: { url: repo.url, branch: 'main', paths: ['runbooks/**/*.md'] },
      broken: { kind: 'git', url: 'file:///nonexistent/repo.git' },
      badref: { kind: 'git', url: repo.url, token: 'vault://elsewhere/secret#token' },
      // loopback is not in INQUEST_EGRESS_ALLOW: git is never started
      private: { kind: 'git', url: 'http://127.0.0.1:9/repo.git' },
    });
    const statuses = await svc.sources.syncNow(TEAM);
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ['git', 'ok'],
      ['broken', 'error'],
      ['badref', 'error'],
      ['private', 'error'],
    ]);
    expect(statuses[3]?.error).toMatch(/egress refused/);
    expect(statuses[1]?.error).toMatch(/git clone/);
    expect(statuses[2]?.error).toBeTruthy();
    expect((await top('prune images crictl'))[0]?.title).toBe('Disk pressure');
    expect(await svc.sources.status(TEAM)).toEqual(statuses);
  });
});
