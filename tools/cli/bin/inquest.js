#!/usr/bin/env node
// The `inquest` bin that npm links into node_modules/.bin. It is a file in git, not dist/main.js:
// npm links a bin only when its file exists at install time, and `npm ci` runs before the first
// build creates dist/ (the link was then missing and `npx inquest` said "could not determine
// executable to run").
'use strict';
const { existsSync } = require('node:fs');
const { join, resolve } = require('node:path');

const main = join(__dirname, '..', 'dist', 'main.js');
if (!existsSync(main)) {
  process.stderr.write(
    `inquest: the CLI is not built yet: run \`npm run build\` in ${resolve(__dirname, '../../..')}\n`,
  );
  process.exit(1);
}
// `inquest list | head`: a reader that went away ends the output, not with an EPIPE stack trace
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
require(main);
