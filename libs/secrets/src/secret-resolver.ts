import { readFile, stat } from 'node:fs/promises';
import { invalidRequest, notFound, unavailable } from '@inquest/errors';
import { request } from 'undici';
import { parseVaultRef, type SecretRef } from './secret-ref';
import { assertRefInScope, type SecretScope } from './secret-scope';

/** Resolves `vault://` references to secret values. Values are never logged or stored. */
export interface SecretResolver {
  /**
   * The value a reference names, if its path lies within `scope` (the node that set the reference
   * and the prefixes it may use); `forbidden` otherwise, before the store is read.
   */
  resolve(ref: string, scope: SecretScope): Promise<string>;
}

/** Where secret objects come from: the whole secret at a path (KV v2 `data.data`, or a file entry). */
export interface SecretSource {
  readonly kind: 'vault' | 'file';
  read(path: string): Promise<unknown>;
}

export interface VaultOptions {
  addr: string;
  token: string;
  /** KV v2 mount, default `secret` */
  mount?: string;
  timeoutMs?: number;
}

export interface SecretResolverOptions {
  vault?: VaultOptions;
  /** JSON file: object of path to value (a string, or an object of key to string) */
  file?: string;
  /** How long a resolved value is reused; default 30 s. 0 disables the cache. */
  cacheTtlMs?: number;
  /** Only for logging which ref failed; values never reach it. */
  logger?: { debug(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

/** HashiCorp Vault KV v2 read API: GET /v1/<mount>/data/<path>, answer `{data: {data: {...}}}`. */
export function vaultSource(options: VaultOptions): SecretSource {
  const base = options.addr.replace(/\/+$/, '');
  const mount = (options.mount ?? 'secret').replace(/^\/+|\/+$/g, '');
  return {
    kind: 'vault',
    async read(path) {
      const url = `${base}/v1/${mount}/data/${path.split('/').map(encodeURIComponent).join('/')}`;
      let res;
      try {
        res = await request(url, {
          method: 'GET',
          headers: { 'x-vault-token': options.token, accept: 'application/json' },
          headersTimeout: options.timeoutMs ?? 5_000,
          bodyTimeout: options.timeoutMs ?? 5_000,
        });
      } catch {
        throw unavailable('secret store (vault) is unreachable');
      }
      // The body may hold secret material (or echo the token in an error): never put it in a message.
      const text = await res.body.text();
      if (res.statusCode === 404) throw notFound(`secret vault://${path} not found`);
      if (res.statusCode === 403) throw unavailable('secret store (vault) refused the token');
      if (res.statusCode !== 200)
        throw unavailable(`secret store (vault) answered ${res.statusCode}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw unavailable('secret store (vault) answered with invalid JSON');
      }
      const data = (parsed as { data?: { data?: unknown } } | null)?.data?.data;
      // A deleted/destroyed version answers data: null.
      if (data === null || data === undefined) throw notFound(`secret vault://${path} not found`);
      return data;
    },
  };
}

/** Local JSON file of path to value; re-read when the cache expires, so edits apply. */
export function fileSource(file: string): SecretSource {
  return {
    kind: 'file',
    async read(path) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT')
          throw notFound(`secret vault://${path} not found`);
        throw unavailable('secrets file is unreadable');
      }
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch {
        throw unavailable('secrets file is not valid JSON');
      }
      if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
        throw unavailable('secrets file must hold a JSON object');
      }
      const map = doc as Record<string, unknown>;
      if (!Object.prototype.hasOwnProperty.call(map, path))
        throw notFound(`secret vault://${path} not found`);
      return map[path];
    },
  };
}

function pick(ref: SecretRef, secret: unknown): string {
  const label = `vault://${ref.path}${ref.key ? `#${ref.key}` : ''}`;
  if (typeof secret === 'string') {
    if (ref.key !== undefined) throw invalidRequest(`secret ${label}: the secret has no fields`);
    return secret;
  }
  if (typeof secret !== 'object' || secret === null || Array.isArray(secret)) {
    throw invalidRequest(`secret ${label} is not a string or an object of strings`);
  }
  const obj = secret as Record<string, unknown>;
  let key = ref.key;
  if (key === undefined) {
    const keys = Object.keys(obj);
    // Without #key a single-field secret (or one with a `value` field) is unambiguous.
    if (keys.length === 1) key = keys[0];
    else if ('value' in obj) key = 'value';
    else throw invalidRequest(`secret ${label} has several fields; name one with #key`);
  }
  const value = key === undefined ? undefined : obj[key];
  if (value === undefined) throw notFound(`secret ${label} not found`);
  if (typeof value !== 'string') throw invalidRequest(`secret ${label} is not a string`);
  return value;
}

/**
 * Resolves `vault://<path>[#key]` through Vault KV v2 when `vault` is given, else through the
 * secrets file. Values are cached for `cacheTtlMs` (concurrent look-ups share one read).
 */
export function createSecretResolver(options: SecretResolverOptions): SecretResolver {
  const source: SecretSource | undefined = options.vault
    ? vaultSource(options.vault)
    : options.file
      ? fileSource(options.file)
      : undefined;
  const ttl = options.cacheTtlMs ?? 30_000;
  // The secrets file should be the operator's alone: say so once when others may read it.
  let modeChecked = false;
  const checkFileMode = () => {
    if (modeChecked || options.vault || !options.file) return;
    modeChecked = true;
    const file = options.file;
    stat(file).then(
      (st) => {
        if (st.mode & 0o077)
          options.logger?.warn(
            { file, mode: (st.mode & 0o777).toString(8) },
            'the secrets file is readable by other users: chmod 600 it',
          );
      },
      () => undefined,
    );
  };
  const cache = new Map<string, { expires: number; value: Promise<unknown> }>();

  return {
    async resolve(refText, scope) {
      const ref = parseVaultRef(refText);
      try {
        assertRefInScope(refText, scope);
      } catch (err) {
        options.logger?.warn(
          { ref: `vault://${ref.path}`, owner: scope.owner, code: 'forbidden' },
          'secret reference outside the node scope refused',
        );
        throw err;
      }
      if (!source) throw unavailable('no secret store is configured');
      checkFileMode();
      const now = Date.now();
      let entry = cache.get(ref.path);
      if (!entry || entry.expires <= now) {
        const value = source.read(ref.path);
        entry = { expires: now + ttl, value };
        if (ttl > 0) cache.set(ref.path, entry);
        // A failed read is not cached: the next call tries again.
        value.catch(() => {
          if (cache.get(ref.path) === entry) cache.delete(ref.path);
        });
      }
      try {
        const secret = await entry.value;
        options.logger?.debug(
          { ref: `vault://${ref.path}`, source: source.kind },
          'secret resolved',
        );
        return pick(ref, secret);
      } catch (err) {
        options.logger?.warn(
          {
            ref: `vault://${ref.path}`,
            source: source.kind,
            code: (err as { code?: string }).code,
          },
          'secret resolution failed',
        );
        throw err;
      }
    },
  };
}
