import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { OPERATOR_SECRET_SCOPE } from '@inquest/secrets';
import { parseEnv } from './env';
import { envSecrets, secretsFromEnv } from './secrets-env';

const Schema = z.object({ ...envSecrets, INQUEST_DATA_DIR: z.string().default('.') });
const resolverOf = (env: Record<string, string>) => secretsFromEnv(parseEnv(Schema, env));

describe('envSecrets / secretsFromEnv', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-env-'));
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ 'ops/llm': 'from-file' }), {
      mode: 0o600,
    });
  });

  it('an address without a token is a start-up error, not a silent fall-back', () => {
    expect(() =>
      resolverOf({ INQUEST_VAULT_ADDR: 'http://vault:8200', INQUEST_DATA_DIR: dir }),
    ).toThrow(
      expect.objectContaining({
        name: 'EnvError',
        message: 'INQUEST_VAULT_TOKEN: required when INQUEST_VAULT_ADDR is set',
      }),
    );
  });

  it('the address must be an http(s) URL', () => {
    expect(() =>
      resolverOf({ INQUEST_VAULT_ADDR: 'vault:8200', INQUEST_VAULT_TOKEN: 't' }),
    ).toThrow(/^INQUEST_VAULT_ADDR: expected an http\(s\) URL/);
  });

  it('without Vault: <data dir>/secrets.json, or INQUEST_SECRETS_FILE', async () => {
    await expect(
      resolverOf({ INQUEST_DATA_DIR: dir }).resolve('vault://ops/llm', OPERATOR_SECRET_SCOPE),
    ).resolves.toBe('from-file');
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ 'ops/llm': 'other-file' }), { mode: 0o600 });
    await expect(
      resolverOf({ INQUEST_DATA_DIR: dir, INQUEST_SECRETS_FILE: other }).resolve(
        'vault://ops/llm',
        OPERATOR_SECRET_SCOPE,
      ),
    ).resolves.toBe('other-file');
  });

  describe('with Vault', () => {
    let server: Server;
    let url: string;
    const seen: { path: string | undefined; token: unknown }[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        seen.push({ path: req.url, token: req.headers['x-vault-token'] });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: { data: { value: 'from-vault' } } }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const a = server.address();
      url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('reads Vault KV v2 (mount `secret` by default, or INQUEST_VAULT_MOUNT), not the file', async () => {
      await expect(
        resolverOf({
          INQUEST_VAULT_ADDR: url,
          INQUEST_VAULT_TOKEN: 'tok',
          INQUEST_DATA_DIR: dir,
        }).resolve('vault://ops/llm', OPERATOR_SECRET_SCOPE),
      ).resolves.toBe('from-vault');
      await resolverOf({
        INQUEST_VAULT_ADDR: url,
        INQUEST_VAULT_TOKEN: 'tok',
        INQUEST_VAULT_MOUNT: 'kv',
        INQUEST_DATA_DIR: dir,
      }).resolve('vault://ops/llm', OPERATOR_SECRET_SCOPE);
      expect(seen).toEqual([
        { path: '/v1/secret/data/ops/llm', token: 'tok' },
        { path: '/v1/kv/data/ops/llm', token: 'tok' },
      ]);
    });
  });
});
