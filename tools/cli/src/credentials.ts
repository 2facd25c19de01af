import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface StoredCredentials {
  url?: string;
  token?: string;
  team?: string;
}

export interface ResolvedCredentials {
  url: string;
  token: string;
  team: string | undefined;
}

/** `$INQUEST_CONFIG`, else `$XDG_CONFIG_HOME/inquest/config.json`, else `~/.config/inquest/config.json`. */
export function credentialsPath(env: NodeJS.ProcessEnv, home: string): string {
  if (env.INQUEST_CONFIG) return env.INQUEST_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(home, '.config');
  return join(base, 'inquest', 'config.json');
}

export class CredentialsError extends Error {
  override name = 'CredentialsError';
}

/** Reads the config file; warns (like ssh) when others can read a file holding a token. */
export function readCredentialsFile(path: string, warn: (msg: string) => void): StoredCredentials {
  if (!existsSync(path)) return {};
  const mode = statSync(path).mode & 0o777;
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    warn(
      `warning: ${path} is readable by other users (mode ${mode.toString(8)}); run: chmod 600 ${path}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CredentialsError(`${path} is not valid JSON (${(err as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CredentialsError(
      `${path} must hold a JSON object like {"url": "...", "token": "..."}`,
    );
  }
  const o = parsed as Record<string, unknown>;
  const str = (k: string): string | undefined =>
    typeof o[k] === 'string' ? (o[k] as string) : undefined;
  return { url: str('url'), token: str('token'), team: str('team') };
}

/** Writes the file with mode 0600 in a 0700 directory, whatever the umask. */
export function writeCredentialsFile(path: string, creds: StoredCredentials): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** Flags win over INQUEST_URL / INQUEST_TOKEN / INQUEST_TEAM, which win over the config file. */
export function resolveCredentials(
  flags: StoredCredentials,
  env: NodeJS.ProcessEnv,
  file: () => StoredCredentials,
  path: string,
): ResolvedCredentials {
  const needFile = !(flags.url ?? env.INQUEST_URL) || !(flags.token ?? env.INQUEST_TOKEN);
  const stored = needFile || !(flags.team ?? env.INQUEST_TEAM) ? file() : {};
  const url = flags.url || env.INQUEST_URL || stored.url;
  const token = flags.token || env.INQUEST_TOKEN || stored.token;
  const team = flags.team || env.INQUEST_TEAM || stored.team || undefined;
  if (!url || !token) {
    const missing = [!url && 'INQUEST_URL', !token && 'INQUEST_TOKEN']
      .filter(Boolean)
      .join(' and ');
    throw new CredentialsError(
      `no ${missing} set. Export ${missing}, pass --url/--token, or run: inquest login --url <url> --token <token> (saved in ${path})`,
    );
  }
  return { url, token, team };
}
