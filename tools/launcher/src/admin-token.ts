import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '@inquest/runtime';

/** Where an all-in-one install keeps the SHA-256 of its admin token. */
export const ADMIN_TOKEN_FILE = 'admin-token.sha256';

export interface AdminToken {
  sha256: string;
  /** set only when generated now: shown once */
  generated?: string;
  /**
   * Keeps the hash of a token generated now in the data dir. Called only once the start
   * succeeded: a start that dies earlier (a port in use) must not keep a hash whose token
   * nobody saw. A no-op for a token that was not generated now.
   */
  persist(): void;
}

export interface AdminTokenOptions {
  /** INQUEST_ADMIN_TOKEN */
  token?: string;
  /** INQUEST_ADMIN_TOKEN_SHA256 */
  sha256?: string;
  /** `--reset-admin-token`: generate a new token even when the data dir keeps one */
  reset?: boolean;
}

/**
 * The admin token of an all-in-one install: INQUEST_ADMIN_TOKEN / _SHA256 when set, else the hash
 * kept in the data dir, else (or with `reset`) a new token, printed once; only its hash is kept,
 * by `persist()`.
 */
export function resolveAdminToken(dataDir: string, opts: AdminTokenOptions = {}): AdminToken {
  const none = () => undefined;
  if (opts.reset && (opts.token || opts.sha256))
    throw new StartupError(
      '--reset-admin-token: the admin token comes from INQUEST_ADMIN_TOKEN' +
        `${opts.sha256 ? '_SHA256' : ''}; change that variable instead`,
    );
  if (opts.sha256) return { sha256: opts.sha256, persist: none };
  if (opts.token)
    return { sha256: createHash('sha256').update(opts.token).digest('hex'), persist: none };
  const file = join(dataDir, ADMIN_TOKEN_FILE);
  if (!opts.reset && existsSync(file))
    return { sha256: readFileSync(file, 'utf8').trim(), persist: none };
  const generated = `admin.${randomBytes(32).toString('base64url')}`;
  const hash = createHash('sha256').update(generated).digest('hex');
  return {
    sha256: hash,
    generated,
    persist: () => {
      // write-then-rename: a crash mid-write never leaves a truncated hash behind
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, `${hash}\n`, { mode: 0o600 });
      renameSync(tmp, file);
    },
  };
}
