#!/usr/bin/env node
// Transpiles every project's src/ to dist/ with swc (type checking is `npm run typecheck`).
// Usage: build.js [projectRoot ...]   (default: every project under libs/, services/, tools/)
// Incremental: a file is rewritten only when its source is newer than its output.
// A project with a vite.config.mjs (libs/console) is a browser app: only its Node entry
// src/index.ts goes through swc; `vite build` builds the rest to dist/app when a source is newer.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '../..');
const swcrc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;

function projects() {
  const out = [];
  for (const group of ['libs', 'services', 'tools']) {
    const dir = path.join(root, group);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir)) {
      if (fs.existsSync(path.join(dir, name, 'src'))) out.push(path.join(dir, name));
    }
  }
  return out;
}

function walk(dir, files = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, files);
    else files.push(p);
  }
  return files;
}

let written = 0;

/** Removes outputs whose source file is gone (a renamed or deleted module must not linger in dist/). */
function prune(src, dist) {
  if (!fs.existsSync(dist)) return;
  for (const file of walk(dist)) {
    const rel = path.relative(dist, file);
    const base = rel.replace(/\.js\.map$/, '.js');
    const asTs = path.join(src, base.replace(/\.js$/, '.ts'));
    if (!fs.existsSync(asTs) && !fs.existsSync(path.join(src, base))) fs.rmSync(file);
  }
}

function buildProject(projectRoot) {
  const src = path.join(projectRoot, 'src');
  const dist = path.join(projectRoot, 'dist');
  if (fs.existsSync(path.join(projectRoot, 'vite.config.mjs')))
    return buildViteProject(projectRoot);
  prune(src, dist);
  for (const file of walk(src)) transpile(file, src, dist);
}

function transpile(file, src, dist) {
  const rel = path.relative(src, file);
  if (/\.spec\.ts$/.test(rel) || /\.d\.ts$/.test(rel)) return;
  const isTs = rel.endsWith('.ts');
  const target = path.join(dist, isTs ? rel.replace(/\.ts$/, '.js') : rel);
  if (fs.existsSync(target) && fs.statSync(target).mtimeMs >= fs.statSync(file).mtimeMs) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (isTs) {
    const out = swc.transformFileSync(file, {
      ...swcrc,
      filename: file,
      sourceFileName: path.relative(path.dirname(target), file),
      swcrc: false,
      configFile: false,
    });
    fs.writeFileSync(target, out.code + `\n//# sourceMappingURL=${path.basename(target)}.map\n`);
    if (out.map) fs.writeFileSync(target + '.map', out.map);
  } else {
    fs.copyFileSync(file, target);
  }
  written++;
}

/** Newest modification time under the given files and directories (0 when none exist). */
function newestMtime(paths) {
  let newest = 0;
  for (const p of paths) {
    if (!fs.existsSync(p)) continue;
    const files = fs.statSync(p).isDirectory() ? walk(p) : [p];
    for (const f of files) newest = Math.max(newest, fs.statSync(f).mtimeMs);
  }
  return newest;
}

function buildViteProject(projectRoot) {
  const src = path.join(projectRoot, 'src');
  const dist = path.join(projectRoot, 'dist');
  transpile(path.join(src, 'index.ts'), src, dist);
  const marker = path.join(dist, 'app', 'index.html');
  const inputs = [src, 'index.html', 'vite.config.mjs', 'package.json', 'public'].map((p) =>
    path.resolve(projectRoot, p),
  );
  // the client library is bundled into the app: its sources count too
  inputs.push(path.join(root, 'libs', 'client', 'src'));
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= newestMtime(inputs)) return;
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  execFileSync(
    process.execPath,
    [
      vite,
      'build',
      '--config',
      'vite.config.mjs',
      '--logLevel',
      process.env.INQUEST_BUILD_VERBOSE ? 'info' : 'warn',
    ],
    { cwd: projectRoot, stdio: 'inherit' },
  );
  written++;
}

const args = process.argv.slice(2).map((p) => path.resolve(root, p));
for (const p of args.length ? args : projects()) buildProject(p);
if (process.env.INQUEST_BUILD_VERBOSE) console.log(`build: ${written} file(s) written`);
