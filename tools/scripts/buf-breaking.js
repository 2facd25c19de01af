#!/usr/bin/env node
// `buf breaking` for proto/ (part of `npm run lint`): the protos in the working tree against the
// protos "on main" before this change. What that base is depends on where it runs:
//   - INQUEST_BUF_AGAINST=<git ref>: that commit (explicit).
//   - on a branch that main does not contain (a worktree before landing): the merge base with
//     main, so every commit of the branch and the uncommitted work count.
//   - on main itself (CI runs on a fresh clone of main, and developers who commit to main): the
//     parent of the last commit that changed proto/, i.e. proto/ as it was before its latest
//     change; uncommitted proto changes count too.
// With no history to compare with (not a git checkout, a shallow clone without that commit,
// proto/ only ever in the first commit) it says so on one line and passes.
// The base is read with `git archive` into a temporary folder: works in worktrees and needs no
// network.
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const BUF = path.join(__dirname, '../../node_modules/.bin/buf');

function git(args, cwd) {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** The commit to compare with and why, or `{ skip }` with the reason. */
function chooseBase(root, env) {
  if (env.INQUEST_BUF_AGAINST) {
    const sha = git(['rev-parse', '--verify', `${env.INQUEST_BUF_AGAINST}^{commit}`], root);
    if (!sha)
      return { fail: `INQUEST_BUF_AGAINST=${env.INQUEST_BUF_AGAINST} is not a commit here` };
    return { sha, why: `INQUEST_BUF_AGAINST=${env.INQUEST_BUF_AGAINST}` };
  }
  if (!git(['rev-parse', '--verify', 'HEAD^{commit}'], root))
    return { skip: 'no git history here' };
  const main = git(['rev-parse', '--verify', 'refs/heads/main^{commit}'], root);
  const onMain =
    !main ||
    spawnSync('git', ['merge-base', '--is-ancestor', 'HEAD', 'main'], { cwd: root }).status === 0;
  if (!onMain) {
    const base = git(['merge-base', 'HEAD', 'main'], root);
    if (base) return { sha: base, why: 'the merge base with main' };
  }
  const last = git(['log', '-1', '--format=%H', 'HEAD', '--', 'proto'], root);
  if (!last) return { skip: 'proto/ has no commit yet' };
  const parent = git(['rev-parse', '--verify', `${last}^^{commit}`], root);
  if (!parent)
    return {
      skip: `proto/ has no earlier version to compare with (${last.slice(0, 10)} is the first commit here)`,
    };
  return {
    sha: parent,
    why: `proto/ before its last change ${last.slice(0, 10)} on main`,
  };
}

function main() {
  const root = git(['rev-parse', '--show-toplevel'], process.cwd()) ?? process.cwd();
  const base = chooseBase(root, process.env);
  if (base.fail) {
    console.error(`buf breaking: ${base.fail}`);
    return 2;
  }
  if (base.skip) {
    console.log(`buf breaking: skipped, ${base.skip}`);
    return 0;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inquest-buf-base-'));
  try {
    const tar = path.join(dir, 'base.tar');
    const archived = spawnSync('git', ['archive', '--format=tar', '-o', tar, base.sha], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    if (archived.status !== 0) {
      console.log(`buf breaking: skipped, git archive ${base.sha.slice(0, 10)} failed`);
      return 0;
    }
    const against = path.join(dir, 'base');
    fs.mkdirSync(against);
    const extracted = spawnSync(
      'tar',
      ['-xf', tar, '-C', against, '--wildcards', 'buf.yaml', 'proto/*'],
      { stdio: 'ignore' },
    );
    if (extracted.status !== 0) {
      console.log(`buf breaking: skipped, ${base.sha.slice(0, 10)} has no buf.yaml and proto/`);
      return 0;
    }
    console.log(`buf breaking: proto/ against ${base.sha.slice(0, 10)} (${base.why})`);
    const res = spawnSync(BUF, ['breaking', '--against', against], { cwd: root, stdio: 'inherit' });
    if (res.status !== 0) {
      console.error(
        'buf breaking: the protos above break compatibility with the base; keep field numbers and ' +
          'names, reserve removed ones, or add a new versioned package',
      );
    }
    return res.status ?? 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = main();
