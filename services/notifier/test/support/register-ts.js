// Lets a child `node` process run the TypeScript sources directly (as jest does with @swc/jest):
// .ts files are transpiled by swc on require, and @inquest/<lib> resolves to libs/<lib>/src.
'use strict';
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '../../../..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const m = /^@inquest\/([a-z0-9-]+)(\/testing)?$/.exec(request);
  if (m) request = path.join(root, 'libs', m[1], 'src', m[2] ? 'testing/index.ts' : 'index.ts');
  else if (
    (request.startsWith('./') || request.startsWith('../')) &&
    parent &&
    parent.filename &&
    parent.filename.endsWith('.ts')
  ) {
    const base = path.resolve(path.dirname(parent.filename), request);
    for (const c of [base + '.ts', path.join(base, 'index.ts')]) if (fs.existsSync(c)) return c;
  }
  return resolve.call(this, request, parent, ...rest);
};
require.extensions['.ts'] = function (module, filename) {
  const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(out.code, filename);
};
