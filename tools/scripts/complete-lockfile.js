#!/usr/bin/env node
// Adds lock entries for platform-specific optional packages that the registry mirror of this
// workplace does not serve (it serves only the linux builds, so `npm install` leaves e.g.
// @swc/core-darwin-arm64 out of package-lock.json, and `npm ci` then refuses the lock as "out of
// sync"). Each added entry carries the os/cpu/libc its name states, so npm skips it here as it
// would on any other platform mismatch. Run after changing dependencies:
//   npm install && node tools/scripts/complete-lockfile.js && npm ci
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.resolve(__dirname, '../../package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const pkgs = lock.packages;

const OS = [
  'darwin',
  'win32',
  'linux',
  'android',
  'freebsd',
  'openbsd',
  'netbsd',
  'sunos',
  'aix',
  'openharmony',
];
const CPU = [
  'arm64',
  'x64',
  'ia32',
  'arm',
  'ppc64',
  'ppc64le',
  's390x',
  'riscv64',
  'loong64',
  'mips64el',
  'wasm32',
  'armv7',
];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p) || p === 'windows' || p === 'macos');
  const cpuRaw = parts.find((p) => CPU.includes(p) || p === 'armv7' || p === 'universal');
  const out = {};
  if (os) out.os = [os === 'windows' ? 'win32' : os === 'macos' ? 'darwin' : os];
  if (cpuRaw) out.cpu = [cpuRaw === 'armv7' ? 'arm' : cpuRaw === 'universal' ? 'arm64' : cpuRaw];
  if (parts.includes('musl') || parts.includes('musleabihf')) out.libc = ['musl'];
  else if (parts.includes('gnu') || parts.includes('gnueabihf')) out.libc = ['glibc'];
  if (!out.os && !out.cpu) out.cpu = ['none']; // e.g. wasm builds: never installed by npm here
  return out;
}

let added = 0;
for (const [loc, entry] of Object.entries(pkgs)) {
  const opt = entry.optionalDependencies;
  if (!opt) continue;
  const base = loc === '' ? 'node_modules/' : `${loc}/node_modules/`;
  for (const [dep, range] of Object.entries(opt)) {
    // resolved the way node does: nested first, then hoisted
    if (pkgs[`${base}${dep}`] || pkgs[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform.os && !platform.libc && platform.cpu?.[0] === 'none' && !/wasm|wasi/.test(dep))
      continue;
    pkgs[`node_modules/${dep}`] = {
      version: String(range).replace(/^[\^~=]/, ''),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added++;
  }
}
// keep the file sorted the way npm writes it
lock.packages = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
