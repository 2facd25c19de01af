import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '@inquest/runtime';

/**
 * Where an all-in-one install keeps the bearer tokens its Kubernetes and Prometheus tool servers
 * require (mode 0600, beside `admin-token.sha256`): generated at the first start that runs the
 * server, the same at every start after.
 */
export const TOOLSERVER_TOKENS_FILE = 'toolserver-tokens.json';

export type LauncherToolServer = 'kubernetes' | 'prometheus';

/**
 * The secret path under demo-team's own prefix (`inquest/demo-team/`) where each token is kept
 * for the toolserver-proxy: only demo-team's config may name it, so another team's entry with
 * the same URL has no credential and gets 401.
 */
export const TOOLSERVER_SECRET_PATHS: Record<LauncherToolServer, string> = {
  kubernetes: 'inquest/demo-team/k8s-toolserver',
  prometheus: 'inquest/demo-team/prometheus-toolserver',
};

export const toolServerTokenRef = (server: LauncherToolServer): string =>
  `vault://${TOOLSERVER_SECRET_PATHS[server]}`;

/** write-then-rename, owner-only: a crash mid-write never leaves a truncated file behind */
function writePrivateJson(file: string, doc: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/** A JSON object file, `{}` when absent; anything else stops the start with one line. */
function readJsonObject(file: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new StartupError(`${what} ${file} is unreadable (${(err as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new StartupError(`${what} ${file} is not valid JSON: fix or remove it`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new StartupError(`${what} ${file} must hold a JSON object: fix or remove it`);
  return doc as Record<string, unknown>;
}

/**
 * The token `server` requires: the one kept in `<data dir>/toolserver-tokens.json`, else a new
 * random one, kept there (mode 0600) for the next starts.
 */
export function toolServerToken(dataDir: string, server: LauncherToolServer): string {
  const file = join(dataDir, TOOLSERVER_TOKENS_FILE);
  const kept = readJsonObject(file, 'tool server tokens file');
  const token = kept[server];
  if (typeof token === 'string' && token.length >= 32) return token;
  const generated = `ts.${randomBytes(32).toString('base64url')}`;
  writePrivateJson(file, { ...kept, [server]: generated });
  return generated;
}

/**
 * Puts `value` at `path` of the secrets file (the embedded vault of an all-in-one install),
 * keeping every other entry; the file is rewritten (mode 0600) only when the entry differs.
 */
export function putFileSecret(secretsFile: string, path: string, value: string): void {
  const doc = readJsonObject(secretsFile, 'secrets file');
  if (doc[path] === value) return;
  writePrivateJson(secretsFile, { ...doc, [path]: value });
}
