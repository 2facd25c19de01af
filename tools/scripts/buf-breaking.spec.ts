import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * tools/scripts/buf-breaking.js (run by `npm run lint`) on a scratch git repository: it skips
 * with a line where there is nothing to compare with, passes a compatible change and fails a
 * breaking one, both on main (against proto/ before its last change) and on a branch (against
 * the merge base with main).
 */
const SCRIPT = resolve(__dirname, 'buf-breaking.js');
const BUF_YAML = 'version: v2\nmodules:\n  - path: proto\nbreaking:\n  use:\n    - FILE\n';
const protoWith = (fields: string) =>
  `syntax = "proto3";\n\npackage demo.v1;\n\nmessage Thing {\n${fields}}\n`;
const ONE = '  string id = 1;\n';
const TWO = '  string id = 1;\n  string name = 2;\n';

let repo: string;

function git(...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: repo,
    stdio: 'ignore',
  });
}

function writeProto(body: string): void {
  writeFileSync(join(repo, 'proto/demo/v1/thing.proto'), body);
}

function commitAll(message: string): void {
  git('add', 'buf.yaml', 'proto');
  git('commit', '-q', '--allow-empty', '-m', message);
}

function run(env: Record<string, string> = {}): { code: number | null; out: string } {
  const res = spawnSync(process.execPath, [SCRIPT], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, INQUEST_BUF_AGAINST: '', ...env },
    timeout: 60_000,
  });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'buf-breaking-'));
  mkdirSync(join(repo, 'proto/demo/v1'), { recursive: true });
  writeFileSync(join(repo, 'buf.yaml'), BUF_YAML);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
});

afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('buf-breaking.js', () => {
  it('skips with a line when there is no history', () => {
    writeProto(protoWith(ONE));
    const res = run();
    expect(res).toEqual({ code: 0, out: expect.stringContaining('skipped, no git history') });
  });

  it('skips when proto/ exists only in the first commit', () => {
    writeProto(protoWith(ONE));
    commitAll('first');
    const res = run();
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/skipped, proto\/ has no earlier version/);
  });

  it('on main: passes a compatible change, fails a removed field against proto/ before it', () => {
    writeProto(protoWith(ONE));
    commitAll('first');
    writeProto(protoWith(TWO));
    commitAll('add a field');
    const ok = run();
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/against [0-9a-f]{10} \(proto\/ before its last change/);

    writeProto(protoWith(ONE));
    commitAll('drop the field');
    // a later commit that leaves proto/ alone does not hide it
    writeFileSync(join(repo, 'README'), 'x');
    git('add', 'README');
    git('commit', '-q', '-m', 'docs');
    const broken = run();
    expect(broken.code).not.toBe(0);
    expect(broken.out).toMatch(/Previously present field "2" with name "name" on message "Thing"/);
  });

  it('on main: an uncommitted breaking change fails too', () => {
    writeProto(protoWith(TWO));
    commitAll('first');
    writeFileSync(
      join(repo, 'proto/demo/v1/other.proto'),
      protoWith(ONE).replace('Thing', 'Other'),
    );
    commitAll('second');
    writeProto(protoWith(ONE));
    expect(run().code).not.toBe(0);
  });

  it('on a branch: compares with the merge base, so every commit of the branch counts', () => {
    writeProto(protoWith(TWO));
    commitAll('first');
    git('checkout', '-q', '-b', 'feature');
    writeProto(protoWith(ONE));
    commitAll('drop the field');
    writeFileSync(join(repo, 'README'), 'x');
    git('add', 'README');
    git('commit', '-q', '-m', 'docs');
    const res = run();
    expect(res.code).not.toBe(0);
    expect(res.out).toMatch(/the merge base with main/);
  });

  it('takes an explicit base from INQUEST_BUF_AGAINST and refuses one that is not a commit', () => {
    writeProto(protoWith(TWO));
    commitAll('first');
    writeProto(protoWith(ONE));
    commitAll('drop');
    writeProto(protoWith(TWO));
    commitAll('back again');
    // against HEAD~1 (the field was gone there) nothing breaks; the working tree without the field breaks against HEAD
    expect(run({ INQUEST_BUF_AGAINST: 'HEAD~1' }).code).toBe(0);
    writeProto(protoWith(ONE));
    expect(run({ INQUEST_BUF_AGAINST: 'HEAD~1' }).code).toBe(0);
    expect(run({ INQUEST_BUF_AGAINST: 'HEAD' }).code).not.toBe(0);
    expect(run({ INQUEST_BUF_AGAINST: 'no-such-ref' })).toEqual({
      code: 2,
      out: expect.stringContaining('is not a commit here'),
    });
  });
});
