import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSecretResolver, type SecretResolver } from '../secret-resolver';

/** Writes a secrets file (path -> value) in `dir` and returns a resolver over it (no cache). */
export function fileSecretResolver(
  dir: string,
  secrets: Record<string, unknown>,
): SecretResolver & { file: string } {
  const file = join(dir, 'secrets.json');
  writeFileSync(file, JSON.stringify(secrets));
  return Object.assign(createSecretResolver({ file, cacheTtlMs: 0 }), { file });
}
