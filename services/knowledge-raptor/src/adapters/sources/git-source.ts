import { execFile } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAddressPolicy, deniedReason, isHostAllowed, refusalReason } from '@inquest/egress';
import type { SecretResolver } from '@inquest/secrets';
import type {
  SourceConnector,
  SourceDocument,
  SourceSettings,
} from '../../domain/sources/source-sync';

/**
 * Checks the host of an http(s) source before git connects to it (the egress rules); answers the
 * checked address git must connect to (pinned), or undefined for a host allowed by name.
 */
export type HostCheck = (url: URL) => Promise<string | undefined | void>;

export interface GitSourceOptions {
  /** resolves `token_ref` in the scope of the node that set it */
  secrets?: SecretResolver;
  checkHost?: HostCheck;
  /**
   * Directories whose repositories `file://` URLs may name (the operator's
   * INQUEST_KB_GIT_FILE_ROOTS). None by default: a team's file:// URL would otherwise read any
   * repository on the host (the service's own, another team's checkout).
   */
  fileRoots?: string[];
  /** deadline of each git command */
  timeoutMs?: number;
  /** the git binary */
  git?: string;
  /** largest Markdown file read; larger ones are skipped */
  maxFileBytes?: number;
}

const MARKDOWN = ['**/*.md', '**/*.markdown'];

type GlobToken =
  { k: 'dirs' } | { k: 'any' } | { k: 'star' } | { k: 'one' } | { k: 'char'; c: string };

/**
 * `**` any directories, `*` any characters but `/`, `?` one of them; matched on the whole path.
 * A team writes these globs: they are matched by dynamic programming in time linear in
 * (glob length x path length), never by a backtracking regular expression (`**a**a**a…b` would
 * hold the service's one thread for minutes).
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      while (glob[i + 1] === '*') i++; // *** is **
      if (glob[i + 1] === '/') {
        i++;
        tokens.push({ k: 'dirs' });
      } else tokens.push({ k: 'any' });
    } else if (c === '*') tokens.push({ k: 'star' });
    else if (c === '?') tokens.push({ k: 'one' });
    else tokens.push({ k: 'char', c });
  }
  return (path) => {
    const n = path.length;
    // next[j]: tokens[t+1..] match path[j..]; cur[j]: tokens[t..] match path[j..]
    let next = new Uint8Array(n + 1);
    next[n] = 1;
    for (let t = tokens.length - 1; t >= 0; t--) {
      const tok = tokens[t]!;
      const cur = new Uint8Array(n + 1);
      // `**/`: nothing, or anything up to and including a `/`
      let dirs = 0;
      for (let j = n; j >= 0; j--) {
        const ch = path[j];
        switch (tok.k) {
          case 'char':
            cur[j] = j < n && ch === tok.c ? next[j + 1]! : 0;
            break;
          case 'one':
            cur[j] = j < n && ch !== '/' ? next[j + 1]! : 0;
            break;
          case 'star':
            cur[j] = next[j]! || (j < n && ch !== '/' ? cur[j + 1]! : 0);
            break;
          case 'any':
            cur[j] = next[j]! || (j < n ? cur[j + 1]! : 0);
            break;
          case 'dirs':
            if (j < n) dirs = (ch === '/' && next[j + 1]) || dirs ? 1 : 0;
            cur[j] = next[j]! || dirs;
            break;
        }
      }
      next = cur;
    }
    return next[0] === 1;
  };
}

/**
 * A Git repository of Markdown, read with the real `git` binary: a shallow clone of the branch
 * into a temporary directory, the files matching the source's globs, each versioned by its blob
 * id (unchanged files keep theirs across commits). file:// and http(s) URLs only; a token is
 * sent as an HTTP Basic `extraHeader`, never written into the URL or a file.
 */
export class GitSourceConnector implements SourceConnector {
  constructor(private readonly opts: GitSourceOptions = {}) {}

  async fetch(source: SourceSettings, signal?: AbortSignal): Promise<SourceDocument[]> {
    const url = parseGitUrl(source.url);
    const config: Record<string, string> = {
      'protocol.allow': 'never',
      [`protocol.${url.protocol.slice(0, -1)}.allow`]: 'always',
      'core.hooksPath': '/dev/null',
      'credential.helper': '',
      // a redirect would reach a host the egress check never saw
      'http.followRedirects': 'false',
    };
    if (source.token_ref) {
      // a reference that cannot be resolved is an error even where no token is needed
      if (!this.opts.secrets || !source.scope)
        throw new Error('no secret store to resolve the source token');
      const token = await this.opts.secrets.resolve(source.token_ref, source.scope);
      const basic = Buffer.from(`${source.username ?? 'git'}:${token}`).toString('base64');
      // through the environment: a command-line argument would show in the process list
      if (url.protocol !== 'file:') config['http.extraHeader'] = `Authorization: Basic ${basic}`;
    }
    if (url.protocol === 'file:') await this.checkFileUrl(url);
    else {
      const pinned = await this.opts.checkHost?.(url);
      // git would resolve the name again itself: a rebinding name could then answer another
      // address than the one checked. curl's resolve option makes it connect to the checked one.
      if (pinned) {
        const port = url.port || (url.protocol === 'https:' ? '443' : '80');
        const host = url.hostname.replace(/^\[|\]$/g, '');
        config['http.curloptResolve'] =
          `${host}:${port}:${pinned.includes(':') ? `[${pinned}]` : pinned}`;
      }
    }
    const dir = await mkdtemp(join(tmpdir(), 'inquest-git-source-'));
    try {
      await this.git(
        [
          'clone',
          '--quiet',
          '--depth',
          '1',
          '--single-branch',
          '--no-tags',
          ...(source.branch ? ['--branch', source.branch] : []),
          '--',
          url.href,
          dir,
        ],
        undefined,
        signal,
        config,
      );
      const listing = await this.git(['ls-files', '-s', '-z'], dir, signal, config);
      const globs = (source.paths?.length ? source.paths : MARKDOWN).map(globMatcher);
      const max = this.opts.maxFileBytes ?? 1024 * 1024;
      const docs: SourceDocument[] = [];
      for (const entry of listing.split('\0')) {
        // <mode> <blob> <stage>\t<path>
        const m = /^(\d+) ([0-9a-f]+) \d+\t(.+)$/s.exec(entry);
        if (!m || m[1] === '120000' || m[1] === '160000') continue; // symlinks, submodules
        const path = m[3]!;
        if (!globs.some((matches) => matches(path))) continue;
        const content = await readFile(join(dir, path));
        if (content.length > max) continue;
        docs.push({
          path,
          version: m[2]!,
          content: content.toString('utf8'),
          format: /\.(md|markdown)$/i.test(path) ? 'markdown' : 'text',
        });
      }
      return docs;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** A file:// URL must name a directory under one of the operator's roots (symlinks resolved). */
  private async checkFileUrl(url: URL): Promise<void> {
    const roots = (this.opts.fileRoots ?? []).map((r) => resolve(r));
    const refused = new Error(
      roots.length
        ? 'file:// URL outside the directories the operator allows (INQUEST_KB_GIT_FILE_ROOTS)'
        : 'file:// git sources are off (the operator allows local repositories with INQUEST_KB_GIT_FILE_ROOTS)',
    );
    if (!roots.length || url.host !== '') throw refused;
    const under = (path: string, rootList: string[]) =>
      rootList.some((r) => path === r || path.startsWith(r.endsWith(sep) ? r : r + sep));
    let path: string;
    try {
      path = resolve(fileURLToPath(url));
    } catch {
      throw refused;
    }
    if (!under(path, roots)) throw refused;
    // a symlink inside a root must not lead out of it
    const real = await realpath(path).catch(() => undefined);
    if (real !== undefined) {
      const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => r)));
      if (!under(real, realRoots)) throw refused;
    }
  }

  private git(
    args: string[],
    cwd: string | undefined,
    signal: AbortSignal | undefined,
    config: Record<string, string>,
  ): Promise<string> {
    const entries = Object.entries(config);
    const configEnv: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
    entries.forEach(([k, v], i) => {
      configEnv[`GIT_CONFIG_KEY_${i}`] = k;
      configEnv[`GIT_CONFIG_VALUE_${i}`] = v;
    });
    return new Promise((resolve, reject) => {
      execFile(
        this.opts.git ?? 'git',
        args,
        {
          cwd,
          timeout: this.opts.timeoutMs ?? 60_000,
          maxBuffer: 64 * 1024 * 1024,
          signal,
          env: {
            PATH: process.env['PATH'] ?? '/usr/bin:/bin',
            HOME: tmpdir(),
            GIT_TERMINAL_PROMPT: '0',
            GIT_CONFIG_NOSYSTEM: '1',
            GIT_CONFIG_GLOBAL: '/dev/null',
            GIT_ASKPASS: '/bin/false',
            LANG: 'C',
            ...configEnv,
          },
        },
        (err, stdout, stderr) => {
          if (!err) return resolve(stdout);
          const killed = (err as { killed?: boolean }).killed;
          const why = killed
            ? `timed out after ${this.opts.timeoutMs ?? 60_000} ms`
            : stderr.trim().split('\n').slice(-2).join(' ') || err.message;
          // stderr may echo the URL; never the extraHeader, which git does not print
          reject(
            new Error(`git ${args.find((a) => !a.startsWith('-') && !a.includes('='))}: ${why}`),
          );
        },
      );
    });
  }
}

function parseGitUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`not a URL: ${raw}`);
  }
  if (!['file:', 'http:', 'https:'].includes(url.protocol))
    throw new Error(
      `unsupported git URL scheme ${url.protocol} (use file://, http:// or https://)`,
    );
  if (url.username || url.password)
    throw new Error('credentials do not belong in the URL: use token (a vault reference)');
  return url;
}

/**
 * The egress guard's address rules for git's own connections: every address the host resolves
 * to must be allowed (public, or in INQUEST_EGRESS_ALLOW); answers the first, which the connector
 * pins with git's `http.curloptResolve` (git would otherwise resolve the name again).
 */
export function egressHostCheck(allow: string[]): HostCheck {
  const policy = buildAddressPolicy(allow);
  return async (url) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const hostAllowed = isHostAllowed(host, policy);
    // an allowed name is not checked against the ranges, but a `!` entry still refuses it
    if (hostAllowed && !policy.deny?.length) return undefined;
    const addresses = isIP(host)
      ? [host]
      : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    for (const a of addresses) {
      const why = hostAllowed ? deniedReason(a, policy, port) : refusalReason(a, policy, port);
      if (why) throw new Error(`egress refused: ${url.host} resolves to a ${why}`);
    }
    return isIP(host) ? undefined : addresses[0];
  };
}
