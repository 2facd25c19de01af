import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { InProcessEventBus } from '@inquest/events';
import { createClient } from '@inquest/grpc-kit';
import { silentLogger } from '@inquest/observability';
import { knowledgeV1 } from '@inquest/proto';
import { startConfigServiceDouble, tempDir, type ConfigServiceDouble } from '@inquest/testing';
import { start, type RunningService } from '../src/main';

const TEAM = 'team-sync';
/**
 * The one directory file:// sources may read (INQUEST_KB_GIT_FILE_ROOTS): the test's
 * repositories are made in it. Not the system's temporary directory itself: a checkout of this
 * project there (CI clones into /tmp) would be inside the allowed root.
 */
const GIT_ROOT = tempDir();

/** A real Git repository of Markdown runbooks, changed by the test through the real git binary. */
function gitRepo() {
  const dir = mkdtempSync(join(GIT_ROOT, 'repo-'));
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

/** A loopback HTTP server answering from a mutable path -> [content type, body] map. */
async function pageServer() {
  const pages = new Map<string, [string, string]>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const page = pages.get(req.url ?? '');
    if (!page) return res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': page[0] }).end(page[1]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    pages,
    requests,
    html: (path: string, body: string) => pages.set(path, ['text/html; charset=utf-8', body]),
    xml: (path: string, body: string) => pages.set(path, ['application/xml', body]),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const sitemapOf = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((u) => `<url><loc>${u}</loc></url>`)
    .join('')}</urlset>`;

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><script>var tracking = 1;</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About navigation menu</a></nav>
<main><h1>${title}</h1>${body}</main><footer>Copyright footer text</footer></body></html>`;

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
        // the test's web and Confluence servers listen on loopback
        INQUEST_EGRESS_ALLOW: '127.0.0.1/32',
        // the test's repositories are made under GIT_ROOT
        INQUEST_KB_GIT_FILE_ROOTS: GIT_ROOT,
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
    const linkOut = join(mkdtempSync(join(GIT_ROOT, 'link-')), 'checkout');
    symlinkSync(resolve(__dirname, '../../..'), linkOut);
    setSources({
      git: { url: repo.url, branch: 'main', paths: ['runbooks/**/*.md'] },
      broken: { kind: 'git', url: `file://${join(GIT_ROOT, 'inquest-no-such-repo.git')}` },
      badref: { kind: 'git', url: repo.url, token: 'vault://elsewhere/secret#token' },
      // a private address is not in INQUEST_EGRESS_ALLOW: git never connects
      private: { kind: 'git', url: 'http://10.255.255.1/repo.git' },
      // a repository of the host outside INQUEST_KB_GIT_FILE_ROOTS (this very checkout)
      host: { kind: 'git', url: `file://${resolve(__dirname, '../../..')}` },
      // under the allowed root by its text, outside it once the dots are resolved
      dots: {
        kind: 'git',
        url: `file://${GIT_ROOT}/${relative(GIT_ROOT, resolve(__dirname, '../../..'))}`,
      },
      // a symbolic link under the allowed directory that leads out of it
      link: { kind: 'git', url: `file://${linkOut}` },
    });
    const statuses = await svc.sources.syncNow(TEAM);
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ['git', 'ok'],
      ['broken', 'error'],
      ['badref', 'error'],
      ['private', 'error'],
      ['host', 'error'],
      ['dots', 'error'],
      ['link', 'error'],
    ]);
    expect(statuses[3]?.error).toMatch(/egress refused/);
    expect(statuses[4]?.error).toMatch(/outside .*INQUEST_KB_GIT_FILE_ROOTS/);
    expect(statuses[5]?.error).toMatch(/outside .*INQUEST_KB_GIT_FILE_ROOTS/);
    expect(statuses[6]?.error).toMatch(/outside .*INQUEST_KB_GIT_FILE_ROOTS/);
    expect(statuses[1]?.error).toMatch(/git clone/);
    expect(await svc.sources.status(TEAM)).toEqual(statuses);
    // the same over gRPC (what the gateway's GET /kb/sources and POST /kb/sources/sync call)
    const kb = createClient(knowledgeV1.KnowledgeServiceClient, svc.address, {
      deadlineMs: 30_000,
    });
    try {
      const listed = await kb.listSources({ team_id: TEAM });
      expect(listed.sources.map((s) => [s.name, s.state, s.error ?? ''])).toEqual(
        statuses.map((s) => [s.name, s.state, s.error ?? '']),
      );
      const synced = await kb.syncSources({ team_id: TEAM });
      expect(synced.sources[0]).toMatchObject({ name: 'git', state: 'ok', unchanged: 2 });
    } finally {
      kb.close();
    }
    expect(statuses[2]?.error).toBeTruthy();
    expect((await top('prune images crictl'))[0]?.title).toBe('Disk pressure');
  });
});

describe('knowledge source sync (web pages through the egress guard)', () => {
  let config: ConfigServiceDouble;
  let svc: RunningService;
  let web: Awaited<ReturnType<typeof pageServer>>;
  const TEAM_WEB = 'team-web';
  const top = async (query: string) =>
    (await svc.knowledge.retrieve({ teamId: TEAM_WEB, query, topK: 5, minRelevance: 0 })).results;

  beforeAll(async () => {
    web = await pageServer();
    config = await startConfigServiceDouble({ unknownTeam: 'empty' });
    svc = await start(
      {
        INQUEST_GRPC_PORT: '0',
        INQUEST_DATA_DIR: tempDir(),
        INQUEST_CONFIG_ADDR: config.address,
        INQUEST_KB_REBUILD_DEBOUNCE_MS: '60000',
        INQUEST_KB_SETTINGS_CACHE_MS: '0',
        INQUEST_LOG_LEVEL: 'silent',
        INQUEST_EGRESS_ALLOW: '127.0.0.1/32',
        // the test's repositories are made under GIT_ROOT
        INQUEST_KB_GIT_FILE_ROOTS: GIT_ROOT,
      },
      { bus: new InProcessEventBus(), logger: silentLogger() },
    );
  });
  afterAll(async () => {
    await svc?.stop();
    await config?.stop();
    await web?.close();
  });

  it('reads the pages of a sitemap as Markdown, follows changes and removals', async () => {
    web.html(
      '/kafka.html',
      page(
        'Kafka consumer lag',
        '<p>When consumer lag grows, scale the consumer group &amp; check rebalances.</p><ul><li>kafka-consumer-groups --describe</li></ul>',
      ),
    );
    web.html('/tls.html', page('TLS expiry', '<p>Renew certificates with cert-manager.</p>'));
    web.xml('/sitemap.xml', sitemapOf([`${web.base}/kafka.html`, `${web.base}/tls.html`]));
    config.effective.set(TEAM_WEB, {
      knowledge_base: { sources: { web: { url: `${web.base}/sitemap.xml` } } },
    } as never);

    let [status] = await svc.sources.syncNow(TEAM_WEB);
    expect(status).toMatchObject({ state: 'ok', added: 2, documents: 2 });
    const kafka = (await top('consumer lag rebalances'))[0];
    expect(kafka?.title).toBe('Kafka consumer lag');
    expect(kafka?.content).toContain('scale the consumer group & check rebalances');
    expect(kafka?.content).toContain('- kafka-consumer-groups --describe');
    expect(kafka?.content).not.toMatch(/tracking|navigation menu|Copyright footer/);

    // one page changes its words, the other leaves the sitemap
    web.html(
      '/kafka.html',
      page('Kafka consumer lag', '<p>When consumer lag grows, add partitions first.</p>'),
    );
    web.xml('/sitemap.xml', sitemapOf([`${web.base}/kafka.html`]));
    [status] = await svc.sources.syncNow(TEAM_WEB);
    expect(status).toMatchObject({ state: 'ok', updated: 1, removed: 1, documents: 1 });
    expect((await top('consumer lag partitions'))[0]?.content).toContain('add partitions');
    expect(
      (await top('renew certificates cert-manager')).some((r) => r.title === 'TLS expiry'),
    ).toBe(false);
    expect((await svc.knowledge.treeStats(TEAM_WEB)).total_documents).toBe(1);
  });

  it('a malformed sitemap, a missing page or a refused address is an error of that source only', async () => {
    web.xml('/bad-sitemap.xml', '<urlset><url><loc>http://x/a</url></urlset>');
    config.effective.set(TEAM_WEB, {
      knowledge_base: {
        sources: {
          web: { url: `${web.base}/sitemap.xml` },
          bad: { kind: 'web', url: `${web.base}/bad-sitemap.xml` },
          missing: { kind: 'web', url: `${web.base}/gone.html` },
          private: { kind: 'web', url: 'http://10.255.255.1/runbook.html' },
        },
      },
    } as never);
    const statuses = await svc.sources.syncNow(TEAM_WEB);
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ['web', 'ok'],
      ['bad', 'error'],
      ['missing', 'error'],
      ['private', 'error'],
    ]);
    expect(statuses[1]?.error).toMatch(/malformed sitemap/);
    expect(statuses[2]?.error).toMatch(/404/);
    expect(statuses[3]?.error).toBeTruthy();
    expect((await top('consumer lag partitions'))[0]?.title).toBe('Kafka consumer lag');
  });
});

/**
 * A scripted Confluence on loopback, built from its documented REST API: `GET
 * /wiki/rest/api/content?spaceKey=&type=page&expand=body.storage,version&start=&limit=` answering
 * `{results, start, limit, size, _links: {next?, base, context}}`, HTTP Basic (email:API token)
 * or 401. It pages two results at a time whatever `limit` asks, like a server with a lower cap.
 */
async function confluenceServer(user: string, token: string) {
  const spaces = new Map<
    string,
    { id: string; title: string; version: number; storage: string }[]
  >();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url.pathname + url.search);
    const expected = `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;
    if (req.headers['authorization'] !== expected)
      return res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"no"}');
    if (url.pathname !== '/wiki/rest/api/content') return res.writeHead(404).end();
    const all = spaces.get(url.searchParams.get('spaceKey') ?? '') ?? [];
    const start = Number(url.searchParams.get('start') ?? 0);
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 25), 2);
    const slice = all.slice(start, start + limit);
    const more = start + limit < all.length;
    const next = new URLSearchParams(url.searchParams);
    next.set('start', String(start + limit));
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        results: slice.map((p) => ({
          id: p.id,
          type: 'page',
          status: 'current',
          title: p.title,
          version: { number: p.version },
          body: { storage: { value: p.storage, representation: 'storage' } },
          _links: { webui: `/spaces/X/pages/${p.id}` },
        })),
        start,
        limit,
        size: slice.length,
        _links: {
          base: 'http://example.atlassian.net/wiki',
          context: '/wiki',
          ...(more ? { next: `/rest/api/content?${next}` } : {}),
        },
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spaces,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('knowledge source sync (Confluence REST API, scripted server)', () => {
  let config: ConfigServiceDouble;
  let svc: RunningService;
  let wiki: Awaited<ReturnType<typeof confluenceServer>>;
  const TEAM_WIKI = 'team-wiki';
  const dataDir = tempDir();
  const top = async (query: string) =>
    (await svc.knowledge.retrieve({ teamId: TEAM_WIKI, query, topK: 5, minRelevance: 0 })).results;
  const page = (id: string, title: string, text: string, version = 1) => ({
    id,
    title,
    version,
    storage: `<p>${text}</p>`,
  });

  beforeAll(async () => {
    wiki = await confluenceServer('oncall@example.com', 'api-token-123');
    writeFileSync(
      join(dataDir, 'secrets.json'),
      JSON.stringify({
        'inquest/team-wiki/confluence': { token: 'api-token-123' },
        'inquest/team-wiki/wrong': { token: 'not-the-token' },
      }),
      { mode: 0o600 },
    );
    config = await startConfigServiceDouble({ unknownTeam: 'empty' });
    svc = await start(
      {
        INQUEST_GRPC_PORT: '0',
        INQUEST_DATA_DIR: dataDir,
        INQUEST_CONFIG_ADDR: config.address,
        INQUEST_KB_REBUILD_DEBOUNCE_MS: '60000',
        INQUEST_KB_SETTINGS_CACHE_MS: '0',
        INQUEST_LOG_LEVEL: 'silent',
        INQUEST_EGRESS_ALLOW: '127.0.0.1/32',
        // the test's repositories are made under GIT_ROOT
        INQUEST_KB_GIT_FILE_ROOTS: GIT_ROOT,
      },
      { bus: new InProcessEventBus(), logger: silentLogger() },
    );
  });
  afterAll(async () => {
    await svc?.stop();
    await config?.stop();
    await wiki?.close();
  });

  it('reads every page of a space across result pages; a new version is taught again', async () => {
    wiki.spaces.set('OPS', [
      page('101', 'Elasticsearch yellow cluster', 'Unassigned replica shards: add a data node.'),
      page('102', 'Vault sealed', 'Unseal vault with three key holders.'),
      page('103', 'Cron job missed', 'Check startingDeadlineSeconds of the CronJob.'),
    ]);
    config.effective.set(TEAM_WIKI, {
      knowledge_base: {
        sources: {
          confluence: {
            url: `${wiki.base}/wiki`,
            space_keys: ['OPS'],
            username: 'oncall@example.com',
            token: 'vault://inquest/team-wiki/confluence#token',
          },
        },
      },
    } as never);
    let [status] = await svc.sources.syncNow(TEAM_WIKI);
    expect(status).toMatchObject({ state: 'ok', added: 3, documents: 3 });
    expect(wiki.requests.filter((r) => r.startsWith('/wiki/rest/api/content?'))).toHaveLength(2);
    expect(wiki.requests[0]).toContain('expand=body.storage%2Cversion');
    expect((await top('unseal vault key holders'))[0]?.title).toBe('Vault sealed');

    wiki.spaces.set('OPS', [
      page('101', 'Elasticsearch yellow cluster', 'Lower the replica count to zero.', 2),
      page('102', 'Vault sealed', 'Unseal vault with three key holders.'),
    ]);
    [status] = await svc.sources.syncNow(TEAM_WIKI);
    expect(status).toMatchObject({ updated: 1, removed: 1, unchanged: 1, documents: 2 });
    expect((await top('elasticsearch replica count'))[0]?.content).toContain('zero');
  });

  it('a wrong token or a reference outside the team is an error of that source only', async () => {
    config.effective.set(TEAM_WIKI, {
      knowledge_base: {
        sources: {
          confluence: {
            url: wiki.base,
            space_keys: ['OPS'],
            username: 'oncall@example.com',
            token: 'vault://inquest/team-wiki/confluence#token',
          },
          wrong: {
            kind: 'confluence',
            url: wiki.base,
            space_keys: ['OPS'],
            username: 'oncall@example.com',
            token: 'vault://inquest/team-wiki/wrong#token',
          },
          outside: {
            kind: 'confluence',
            url: wiki.base,
            space_keys: ['OPS'],
            username: 'oncall@example.com',
            token: 'vault://inquest/other-team/confluence#token',
          },
        },
      },
    } as never);
    const statuses = await svc.sources.syncNow(TEAM_WIKI);
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ['confluence', 'ok'],
      ['wrong', 'error'],
      ['outside', 'error'],
    ]);
    expect(statuses[1]?.error).toMatch(/401/);
    expect(statuses[2]?.error).toBeTruthy();
    expect(statuses[2]?.error).not.toContain('api-token-123');
  });
});
