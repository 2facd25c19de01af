#!/usr/bin/env node
// First step of `npm test` (the pretest script): makes sure the real servers the tests spawn are
// installed. Found on PATH, in /usr/sbin, /usr/bin, /usr/local/bin, or named by their env
// variable: nothing to do (a few stat calls). Missing, as root with apt-get: `apt-get update`
// once and `apt-get install -y --no-install-recommends <packages>` (services are not started).
// Otherwise: one line naming exactly what to install, exit 1, before anything else runs.
// INQUEST_TEST_SETUP=skip skips the whole check.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/**
 * What the test suites spawn. `bins`: any one of these names will do; `env`: a variable that
 * names the binary explicitly; `unlessEnv`: a variable that makes the requirement moot (an
 * existing server is reused); `pkg`: the Debian package.
 */
const REQUIREMENTS = [
  {
    bins: ['nats-server'],
    pkg: 'nats-server',
    env: 'INQUEST_NATS_SERVER_BIN',
    unlessEnv: 'INQUEST_TEST_NATS_URL',
    why: 'events and queue tests',
  },
  {
    bins: ['prometheus'],
    pkg: 'prometheus',
    env: 'INQUEST_PROMETHEUS_BIN',
    why: 'Prometheus tool server tests',
  },
  { bins: ['promtool'], pkg: 'prometheus', env: 'INQUEST_PROMTOOL_BIN', why: 'backfill' },
  {
    bins: ['prometheus-alertmanager'],
    pkg: 'prometheus-alertmanager',
    env: 'INQUEST_ALERTMANAGER_BIN',
    why: 'Alertmanager tool tests',
  },
  {
    bins: ['prometheus-node-exporter'],
    pkg: 'prometheus-node-exporter',
    env: 'INQUEST_NODE_EXPORTER_BIN',
    why: 'Prometheus scrape target',
  },
  { bins: ['python3'], pkg: 'python3', why: 'Python client tests' },
  {
    // the console's browser tests and `npm run bench -- console` (tools/e2e/support/browser.ts)
    bins: ['chromium', 'chromium-browser'],
    pkg: 'chromium',
    env: 'INQUEST_CHROMIUM_BIN',
    why: 'console end-to-end tests',
  },
];

const SYSTEM_DIRS = ['/usr/sbin', '/usr/bin', '/usr/local/bin', '/sbin', '/bin'];

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** PATH entries, then the system directories: the first executable `name`. */
function findOnPath(name, envPath) {
  const dirs = [...(envPath || '').split(path.delimiter).filter(Boolean), ...SYSTEM_DIRS];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

/**
 * The decision, free of side effects (unit-tested):
 * - `ok`: nothing missing;
 * - `install`: run apt-get for `packages` (root and apt-get present);
 * - `fail`: `message` is the one line to print.
 * `host`: { env, uid, hasAptGet, find(name) -> path | undefined }.
 */
function plan(requirements, host) {
  const missing = requirements.filter((r) => {
    if (r.unlessEnv && host.env[r.unlessEnv]) return false;
    if (r.env && host.env[r.env]) return !host.exists(host.env[r.env]);
    return !r.bins.some((b) => host.find(b));
  });
  if (missing.length === 0) return { action: 'ok', missing: [], packages: [] };
  const packages = [...new Set(missing.map((r) => r.pkg))];
  if (host.uid === 0 && host.hasAptGet) return { action: 'install', missing, packages };
  const what = missing.map((r) => r.bins[0]).join(', ');
  const vars = missing.filter((r) => r.env).map((r) => r.env);
  const how = host.hasAptGet
    ? `sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`
    : `install the packages ${packages.join(' ')} (Debian names)`;
  const message =
    `npm test needs ${what} (test servers and browser, not found on PATH or in /usr/sbin, /usr/bin): run ` +
    `\`${how}\`${vars.length ? ` or point ${vars.join(', ')} at the binaries` : ''}`;
  return { action: 'fail', missing, packages, message };
}

function realHost(env) {
  return {
    env,
    uid: typeof process.getuid === 'function' ? process.getuid() : -1,
    hasAptGet: Boolean(findOnPath('apt-get', env.PATH)),
    find: (name) => findOnPath(name, env.PATH),
    exists: (file) => isExecutable(file),
  };
}

/** apt-get as root; Debian's maintainer scripts must not start the servers (policy-rc.d 101). */
function aptInstall(packages) {
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !fs.existsSync(policy);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
    for (const args of [
      ['update', '-qq'],
      // another apt run (unattended upgrades, a parallel job) holds the lock for a while
      [
        'install',
        '-y',
        '-qq',
        '-o',
        'DPkg::Lock::Timeout=120',
        '--no-install-recommends',
        ...packages,
      ],
    ]) {
      const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      if (r.status !== 0) {
        const err = (r.stderr || '').toString().trim().split('\n').pop();
        return `apt-get ${args[0]} failed (exit ${r.status}): ${err}`;
      }
    }
    return undefined;
  } finally {
    if (ownPolicy) fs.rmSync(policy, { force: true });
  }
}

function main() {
  if (process.env.INQUEST_TEST_SETUP === 'skip') return 0;
  const host = realHost(process.env);
  const first = plan(REQUIREMENTS, host);
  if (first.action === 'ok') return 0;
  if (first.action === 'fail') {
    process.stderr.write(`${first.message}\n`);
    return 1;
  }
  const t0 = Date.now();
  process.stdout.write(
    `test-setup: installing ${first.packages.join(' ')} with apt-get (test servers, browser)...\n`,
  );
  const failed = aptInstall(first.packages);
  const after = plan(REQUIREMENTS, { ...host, uid: -1 });
  if (failed || after.action !== 'ok') {
    process.stderr.write(
      `npm test could not install ${first.packages.join(' ')}: ${failed ?? after.message}\n`,
    );
    return 1;
  }
  process.stdout.write(`test-setup: installed in ${Math.round((Date.now() - t0) / 1000)} s\n`);
  return 0;
}

module.exports = { REQUIREMENTS, plan, findOnPath };

if (require.main === module) process.exitCode = main();
