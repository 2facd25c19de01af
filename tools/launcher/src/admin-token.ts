import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface AdminToken {
  sha256: string;
  /** set only when generated now: shown once */
  generated?: string;
}

/**
 * The admin token of an all-in-one install: INQUEST_ADMIN_TOKEN / _SHA256 when set, else the hash
 * kept in the data dir, else a new token (printed once; only its hash is kept).
 */
export function resolveAdminToken(dataDir: string, token?: string, sha256?: string): AdminToken {
  if (sha256) return { sha256 };
  if (token) return { sha256: createHash('sha256').update(token).digest('hex') };
  const file = join(dataDir, 'admin-token.sha256');
  if (existsSync(file)) return { sha256: readFileSync(file, 'utf8').trim() };
  const generated = `admin.${randomBytes(32).toString('base64url')}`;
  const hash = createHash('sha256').update(generated).digest('hex');
  writeFileSync(file, `${hash}\n`, { mode: 0o600 });
  return { sha256: hash, generated };
}
