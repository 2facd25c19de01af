import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@inquest/testing';
import { egressHostCheck, GitSourceConnector, globMatcher } from './git-source';

const source = (url: string) => ({
  name: 'rb',
  kind: 'git' as const,
  url,
  sync_interval_ms: 60_000,
});

describe('GitSourceConnector file:// URLs', () => {
  it('refuses every file:// URL when the operator allows no directory', async () => {
    const git = new GitSourceConnector({ git: '/bin/false' });
    await expect(git.fetch(source(`file://${tempDir()}`))).rejects.toThrow(
      /file:\/\/ git sources are off .*INQUEST_KB_GIT_FILE_ROOTS/,
    );
  });

  it('refuses a file:// URL outside the allowed directories, or naming a host', async () => {
    const root = tempDir();
    const git = new GitSourceConnector({ git: '/bin/false', fileRoots: [root] });
    for (const url of ['file:///etc', `file://${root}-other/repo`, `file://host${root}/repo`])
      await expect(git.fetch(source(url))).rejects.toThrow(/outside the directories/);
    // inside the root the check passes and git runs (here /bin/false, which fails)
    await expect(git.fetch(source(`file://${root}/repo`))).rejects.toThrow(/^git clone/);
  });
});

describe('GitSourceConnector http(s) URLs', () => {
  /** a `git` that records the configuration it was given through the environment, then fails */
  function recordingGit(): { bin: string; config: () => Record<string, string> } {
    const dir = tempDir();
    const bin = join(dir, 'git');
    writeFileSync(bin, `#!/bin/sh\nenv > "${dir}/env"\nexit 1\n`, { mode: 0o755 });
    return {
      bin,
      config: () => {
        const env = Object.fromEntries(
          readFileSync(join(dir, 'env'), 'utf8')
            .split('\n')
            .filter((l) => l.includes('='))
            .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
        );
        const out: Record<string, string> = {};
        for (let i = 0; i < Number(env['GIT_CONFIG_COUNT']); i++)
          out[env[`GIT_CONFIG_KEY_${i}`]!] = env[`GIT_CONFIG_VALUE_${i}`]!;
        return out;
      },
    };
  }

  it('pins the address the egress check accepted, so a rebinding name cannot swap it', async () => {
    const git = recordingGit();
    const connector = new GitSourceConnector({
      git: git.bin,
      checkHost: async () => '93.184.216.34',
    });
    await expect(
      connector.fetch(source('https://git.example.com/ops/runbooks.git')),
    ).rejects.toThrow(/^git clone/);
    expect(git.config()).toMatchObject({
      'http.curloptResolve': 'git.example.com:443:93.184.216.34',
      'http.followRedirects': 'false',
    });
    const v6 = recordingGit();
    await expect(
      new GitSourceConnector({ git: v6.bin, checkHost: async () => '2606:2800:220:1::' }).fetch(
        source('http://git.example.com:8080/r.git'),
      ),
    ).rejects.toThrow(/^git clone/);
    expect(v6.config()['http.curloptResolve']).toBe('git.example.com:8080:[2606:2800:220:1::]');
  });

  it('checks every address of the name against the egress rules and answers the first', async () => {
    const check = egressHostCheck([]);
    await expect(check(new URL('http://127.0.0.1/r.git'))).rejects.toThrow(/egress refused/);
    await expect(check(new URL('http://93.184.216.34/r.git'))).resolves.toBeUndefined();
    const allowed = egressHostCheck(['git.internal.example']);
    await expect(allowed(new URL('http://git.internal.example/r.git'))).resolves.toBeUndefined();
    // all-in-one: loopback allowed, the gateway's port refused, even for a name on the list
    const loopback = egressHostCheck([
      '127.0.0.0/8',
      'localhost',
      '!127.0.0.0/8:8080=gateway port',
    ]);
    await expect(loopback(new URL('http://127.0.0.1:9000/r.git'))).resolves.toBeUndefined();
    await expect(loopback(new URL('http://127.1:8080/r.git'))).rejects.toThrow(
      'egress refused: 127.0.0.1:8080 resolves to a gateway port (egress entry !127.0.0.0/8:8080)',
    );
    await expect(loopback(new URL('http://localhost:8080/r.git'))).rejects.toThrow(/gateway port/);
  });
});

describe('globMatcher', () => {
  it.each([
    ['**/*.md', 'a.md', true],
    ['**/*.md', 'docs/runbooks/a.md', true],
    ['**/*.md', 'docs/a.txt', false],
    ['runbooks/**/*.md', 'runbooks/a.md', true],
    ['runbooks/**/*.md', 'runbooks/x/y/a.md', true],
    ['runbooks/**/*.md', 'other/runbooks/a.md', false],
    ['runbooks/*.md', 'runbooks/x/a.md', false],
    ['docs/?.md', 'docs/a.md', true],
    ['docs/?.md', 'docs/ab.md', false],
    ['docs/**', 'docs/a/b/c', true],
    ['**', 'anything/at/all', true],
    ['a.md', 'a.md', true],
    ['a.md', 'xa.md', false],
    ['*', 'a/b', false],
    ['**.md', 'a/b.md', true],
  ])('%s matches %s: %s', (glob, path, expected) => {
    expect(globMatcher(glob)(path)).toBe(expected);
  });

  it('answers a glob written to backtrack at once (no regular expression behind it)', () => {
    const glob = `${'**a'.repeat(20)}**b`;
    const path = `docs/${'a'.repeat(200)}.md`;
    const started = Date.now();
    expect(globMatcher(glob)(path)).toBe(false);
    expect(globMatcher(`${'*a'.repeat(20)}*`)(`${'a'.repeat(300)}/x`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
