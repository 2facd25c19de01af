#!/usr/bin/env node
// Generates libs/proto/src/gen from proto/ with buf + ts-proto (both from node_modules: works offline).
// Skips the work when the generated code is newer than every .proto file.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const protoDir = path.join(root, 'proto');
const outDir = path.join(root, 'libs/proto/src/gen');
const stamp = path.join(outDir, '.stamp');

function newest(dir) {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const inputs = Math.max(newest(protoDir), fs.statSync(path.join(root, 'buf.gen.yaml')).mtimeMs);
if (
  fs.existsSync(stamp) &&
  fs.statSync(stamp).mtimeMs >= inputs &&
  !process.argv.includes('--force')
) {
  process.exit(0);
}
fs.rmSync(outDir, { recursive: true, force: true });
const buf = path.join(root, 'node_modules/.bin/buf');
execFileSync(buf, ['generate'], { cwd: root, stdio: 'inherit' });
fs.writeFileSync(stamp, new Date().toISOString());
