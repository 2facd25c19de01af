import { chmodSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@inquest/observability';
import { tempDir } from '@inquest/testing';
import { createSecretResolver } from './secret-resolver';
import { isVaultRef, parseVaultRef } from './secret-ref';
import { OPERATOR_SECRET_SCOPE, secretScopeOf } from './secret-scope';

const DIR = tempDir();
// Scope checks have their own tests below; these exercise the stores.
const ANY = OPERATOR_SECRET_SCOPE;
const TOKEN = 's.root-token-for-tests';
const SECRET = 'sup3r-s3cret-value-9f8e7d';

/** A small server speaking the Vault KV v2 read API (GET /v1/<mount>/data/<path>). */
async function startFakeVault(data: Record<string, Record<string, unknown> | null>) {
  const reads: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    reads.push(url);
    res.setHeader('content-type', 'application/json');
    if (req.headers['x-vault-token'] !== TOKEN) {
      res.statusCode = 403;
      res.end(JSON.stringify({ errors: ['permission denied'] }));
      return;
    }
    const m = /^\/v1\/([^/]+)\/data\/(.+)$/.exec(url);
    if (!m || req.method !== 'GET') {
      res.statusCode = 404;
      res.end(JSON.stringify({ errors: [] }));
      return;
    }
    const key = `${m[1]}/${decodeURIComponent(m[2] ?? '')}`;
    if (!(key in data)) {
      res.statusCode = 404;
      res.end(JSON.stringify({ errors: [] }));
      return;
    }
    res.end(
      JSON.stringify({
        request_id: 'r1',
        data: { data: data[key], metadata: { version: 3, deletion_time: '', destroyed: false } },
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { addr, reads, close: () => new Promise((r) => server.close(r)) };
}

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('vault refs', () => {
  it('parses path and key, rejects traversal and junk', () => {
    expect(isVaultRef('vault://a/b')).toBe(true);
    expect(isVaultRef('plain')).toBe(false);
    expect(isVaultRef('vault://')).toBe(false);
    expect(parseVaultRef('vault://teams/pay/grafana#token')).toEqual({
      path: 'teams/pay/grafana',
      key: 'token',
    });
    expect(parseVaultRef('vault://x')).toEqual({ path: 'x' });
    for (const bad of [
      'vault://a/../b',
      'vault://a//b',
      'vault:///a',
      'vault://a b',
      'vault://a#',
      'vault://a#b/c',
      'x',
    ]) {
      expect(() => parseVaultRef(bad)).toThrow(
        expect.objectContaining({ code: 'invalid_request' }),
      );
    }
  });
});

describe('createSecretResolver with Vault KV v2', () => {
  let vault: Awaited<ReturnType<typeof startFakeVault>>;
  beforeAll(async () => {
    vault = await startFakeVault({
      'secret/teams/payments/grafana': { token: SECRET, other: 'x' },
      'secret/single': { api_key: 'only-one' },
      'kv/custom/mount': { value: 'from-custom-mount' },
      'secret/deleted': null,
    });
  });
  afterAll(() => vault.close());

  it('reads a field of a secret', async () => {
    const r = createSecretResolver({ vault: { addr: vault.addr, token: TOKEN } });
    await expect(r.resolve('vault://teams/payments/grafana#token', ANY)).resolves.toBe(SECRET);
    await expect(r.resolve('vault://single', ANY)).resolves.toBe('only-one');
  });

  it('uses the configured mount', async () => {
    const r = createSecretResolver({
      vault: { addr: `${vault.addr}/`, token: TOKEN, mount: 'kv' },
    });
    await expect(r.resolve('vault://custom/mount', ANY)).resolves.toBe('from-custom-mount');
  });

  it('maps missing secrets, missing keys and ambiguity to clear errors', async () => {
    const r = createSecretResolver({ vault: { addr: vault.addr, token: TOKEN } });
    await expect(codeOf(r.resolve('vault://nope', ANY))).resolves.toBe('not_found');
    await expect(codeOf(r.resolve('vault://deleted', ANY))).resolves.toBe('not_found');
    await expect(codeOf(r.resolve('vault://teams/payments/grafana#missing', ANY))).resolves.toBe(
      'not_found',
    );
    await expect(codeOf(r.resolve('vault://teams/payments/grafana', ANY))).resolves.toBe(
      'invalid_request',
    );
    await expect(codeOf(r.resolve('not-a-ref', ANY))).resolves.toBe('invalid_request');
  });

  it('reports a bad token or an unreachable Vault as unavailable', async () => {
    const bad = createSecretResolver({ vault: { addr: vault.addr, token: 'wrong' } });
    await expect(codeOf(bad.resolve('vault://single', ANY))).resolves.toBe('unavailable');
    const down = createSecretResolver({ vault: { addr: 'http://127.0.0.1:1', token: TOKEN } });
    await expect(codeOf(down.resolve('vault://single', ANY))).resolves.toBe('unavailable');
  });

  it('caches briefly and shares concurrent reads', async () => {
    const r = createSecretResolver({ vault: { addr: vault.addr, token: TOKEN }, cacheTtlMs: 150 });
    const before = vault.reads.length;
    await Promise.all([
      r.resolve('vault://single', ANY),
      r.resolve('vault://single', ANY),
      r.resolve('vault://single#api_key', ANY),
    ]);
    expect(vault.reads.length - before).toBe(1);
    await new Promise((res) => setTimeout(res, 200));
    await r.resolve('vault://single', ANY);
    expect(vault.reads.length - before).toBe(2);
  });
});

describe('createSecretResolver with the secrets file', () => {
  it('resolves strings and fields, and sees edits after the cache expires', async () => {
    const dir = DIR;
    const file = join(dir, 'secrets.json');
    writeFileSync(
      file,
      JSON.stringify({ 'teams/a/token': 'v1', 'teams/a/obj': { key: 'k1', value: 'vv' } }),
    );
    const r = createSecretResolver({ file, cacheTtlMs: 100 });
    await expect(r.resolve('vault://teams/a/token', ANY)).resolves.toBe('v1');
    await expect(r.resolve('vault://teams/a/obj#key', ANY)).resolves.toBe('k1');
    await expect(r.resolve('vault://teams/a/obj', ANY)).resolves.toBe('vv');
    await expect(codeOf(r.resolve('vault://teams/a/token#x', ANY))).resolves.toBe(
      'invalid_request',
    );
    await expect(codeOf(r.resolve('vault://teams/b', ANY))).resolves.toBe('not_found');
    writeFileSync(file, JSON.stringify({ 'teams/a/token': 'v2' }));
    await expect(r.resolve('vault://teams/a/token', ANY)).resolves.toBe('v1');
    await new Promise((res) => setTimeout(res, 150));
    await expect(r.resolve('vault://teams/a/token', ANY)).resolves.toBe('v2');
  });

  it('treats a missing file as not_found and a broken one as unavailable', async () => {
    const dir = DIR;
    await expect(
      codeOf(createSecretResolver({ file: join(dir, 'none.json') }).resolve('vault://a', ANY)),
    ).resolves.toBe('not_found');
    writeFileSync(join(dir, 'bad.json'), '{not json');
    await expect(
      codeOf(createSecretResolver({ file: join(dir, 'bad.json') }).resolve('vault://a', ANY)),
    ).resolves.toBe('unavailable');
  });

  it('has no store configured: unavailable', async () => {
    await expect(codeOf(createSecretResolver({}).resolve('vault://a', ANY))).resolves.toBe(
      'unavailable',
    );
  });
});

describe('secret values never reach the logs', () => {
  it('logs refs and outcomes only, and the pino logger redacts secret-named fields', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logger = createLogger({ name: 'secrets-test', level: 'debug', destination: sink });
    const dir = DIR;
    const file = join(dir, 'logged.json');
    writeFileSync(
      file,
      JSON.stringify({ 'teams/a/token': SECRET, 'teams/a/multi': { a: SECRET, b: SECRET } }),
    );
    const r = createSecretResolver({ file, cacheTtlMs: 0, logger });
    const value = await r.resolve('vault://teams/a/token', ANY);
    expect(value).toBe(SECRET);
    const err = await r.resolve('vault://teams/a/multi', ANY).catch((e: Error) => e);
    expect(String((err as Error).message)).not.toContain(SECRET);
    // What a careless caller might log: the logger's redaction catches the usual secret fields.
    logger.info(
      {
        token: value,
        auth: { api_key: value, token: value },
        headers: { authorization: `Bearer ${value}` },
      },
      'tool call',
    );
    logger.flush();
    await new Promise((res) => setImmediate(res));
    const out = lines.join('');
    expect(out).toContain('secret resolved');
    expect(out).toContain('vault://teams/a/token');
    expect(out).toContain('[redacted]');
    expect(out).not.toContain(SECRET);
  });
});

describe('secret scopes', () => {
  const file = join(DIR, 'scoped.json');
  writeFileSync(
    file,
    JSON.stringify({
      'inquest/team-a/toolkey': 'a-key',
      'inquest/team-b/toolkey': 'b-key',
      'shared/team-a/x': 'granted',
    }),
  );

  it('resolves a path under the owner prefix and refuses another node path before reading', async () => {
    const r = createSecretResolver({ file, cacheTtlMs: 0 });
    const a = secretScopeOf('team-a');
    expect(a.prefixes).toEqual(['inquest/team-a/']);
    await expect(r.resolve('vault://inquest/team-a/toolkey', a)).resolves.toBe('a-key');
    await expect(codeOf(r.resolve('vault://inquest/team-b/toolkey', a))).resolves.toBe('forbidden');
    // a prefix of the id is not the node's prefix
    await expect(codeOf(r.resolve('vault://inquest/team-a-b/x', a))).resolves.toBe('forbidden');
    await expect(codeOf(r.resolve('vault://shared/team-a/x', a))).resolves.toBe('forbidden');
  });

  it('adds the org grants, {node_id} replaced, and ignores malformed grants', async () => {
    const r = createSecretResolver({ file, cacheTtlMs: 0 });
    const a = secretScopeOf('team-a', ['shared/{node_id}/', 'bad', '../', 7]);
    expect(a.prefixes).toEqual(['inquest/team-a/', 'shared/team-a/']);
    await expect(r.resolve('vault://shared/team-a/x', a)).resolves.toBe('granted');
    await expect(
      codeOf(r.resolve('vault://shared/team-a/x', secretScopeOf('team-b', ['shared/{node_id}/']))),
    ).resolves.toBe('forbidden');
  });
});

describe('the secrets file mode', () => {
  it('warns once when other users may read the secrets file', async () => {
    const warnings: string[] = [];
    const logger = {
      debug: () => undefined,
      warn: (_o: object, msg?: string) => void warnings.push(msg ?? ''),
    };
    const open = join(DIR, 'open-secrets.json');
    writeFileSync(open, JSON.stringify({ 'inquest/a/x': 'v' }));
    chmodSync(open, 0o644);
    const r = createSecretResolver({ file: open, cacheTtlMs: 0, logger });
    await r.resolve('vault://inquest/a/x', ANY);
    await r.resolve('vault://inquest/a/x', ANY);
    await new Promise((res) => setTimeout(res, 20));
    expect(warnings.filter((w) => w.includes('chmod 600'))).toHaveLength(1);
    const closed = join(DIR, 'closed-secrets.json');
    writeFileSync(closed, JSON.stringify({ 'inquest/a/x': 'v' }), { mode: 0o600 });
    chmodSync(closed, 0o600);
    const quiet: string[] = [];
    await createSecretResolver({
      file: closed,
      logger: {
        debug: () => undefined,
        warn: (_o: object, m?: string) => void quiet.push(m ?? ''),
      },
    }).resolve('vault://inquest/a/x', ANY);
    await new Promise((res) => setTimeout(res, 20));
    expect(quiet).toEqual([]);
  });
});
