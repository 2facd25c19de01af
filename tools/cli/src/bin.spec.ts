import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '@inquest/testing';

const ROOT = resolve(__dirname, '../../..');
const CLI = resolve(__dirname, '..');

describe('the inquest bin', () => {
  it('runs as `npx --no-install inquest` from the repository root', () => {
    const r = spawnSync('npx', ['--no-install', 'inquest', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: inquest /);
  }, 60_000);

  it('points at a file kept in git, executable, so npm links it before the first build', () => {
    const bin = (require(join(CLI, 'package.json')) as { bin: Record<string, string> }).bin;
    expect(Object.keys(bin)).toEqual(['inquest']);
    expect(bin.inquest).not.toMatch(/^(\.\/)?dist\//);
    expect(statSync(join(CLI, bin.inquest!)).mode & 0o111).toBe(0o111);
  });

  it('is linked by npm in a workspace that was never built, and says to build', () => {
    // what `npm ci` meets on a fresh clone: the cli workspace without dist/
    const root = tempDir();
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ name: 'fresh', private: true, workspaces: ['cli'] }),
    );
    mkdirSync(join(root, 'cli/bin'), { recursive: true });
    copyFileSync(join(CLI, 'package.json'), join(root, 'cli/package.json'));
    copyFileSync(join(CLI, 'bin/inquest.js'), join(root, 'cli/bin/inquest.js'));
    const install = spawnSync(
      'npm',
      ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect(install.status).toBe(0);
    expect(existsSync(join(root, 'node_modules/.bin/inquest'))).toBe(true);
    const r = spawnSync('npx', ['--no-install', 'inquest', '--help'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^inquest: the CLI is not built yet: run `npm run build` in /);
  }, 90_000);
});
