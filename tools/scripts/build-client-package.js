#!/usr/bin/env node
// Builds what `npm pack` ships of @inquest/client (libs/client), run by its `prepack` script:
//   dist/   CommonJS, the workspace build (tools/scripts/build.js libs/client)
//   esm/    ES module entry points re-exporting the CommonJS build by name (one instance of each
//           class whichever way it is loaded, so `instanceof` and error codes agree)
//   types/  declarations with the REST types written out: the sources derive them from the zod
//           schemas of the private @inquest/api-contract, which a package user does not have
// Usage: node tools/scripts/build-client-package.js   (from anywhere)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '../..');
const pkgDir = path.join(root, 'libs/client');
const src = path.join(pkgDir, 'src');
/** the package's entry points: subpath -> source file under src/ (without .ts) */
const ENTRIES = { '.': 'index', './testing': 'testing/index' };
/** modules the shipped declarations may import (besides relative ones) */
const ALLOWED_IMPORT = /^node:/;

function fail(message) {
  process.stderr.write(`build-client-package: ${message}\n`);
  process.exit(1);
}

function buildCommonJs() {
  const r = spawnSync(process.execPath, [path.join(root, 'tools/scripts/build.js'), pkgDir], {
    stdio: 'inherit',
  });
  if (r.status !== 0) fail('the CommonJS build failed');
}

function writeEsmEntries() {
  const out = path.join(pkgDir, 'esm');
  fs.rmSync(out, { recursive: true, force: true });
  for (const entry of Object.values(ENTRIES)) {
    const cjsFile = path.join(pkgDir, 'dist', `${entry}.js`);
    const names = Object.keys(require(cjsFile)).filter(
      (n) => n !== '__esModule' && n !== 'default',
    );
    const file = path.join(out, `${entry}.mjs`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const rel = path.relative(path.dirname(file), cjsFile).split(path.sep).join('/');
    fs.writeFileSync(
      file,
      `// ES module entry of @inquest/client: the CommonJS build's exports, by name.\n` +
        `import cjs from '${rel}';\n\n` +
        `export const {\n${names.map((n) => `  ${n},`).join('\n')}\n} = cjs;\n`,
    );
  }
}

/** Leading JSDoc of a statement, kept on the written-out type. */
function jsDocOf(ts, sourceFile, node) {
  const text = sourceFile.getFullText();
  return (ts.getLeadingCommentRanges(text, node.pos) ?? [])
    .map((r) => text.slice(r.pos, r.end))
    .filter((c) => c.startsWith('/**'))
    .join('\n');
}

async function writeDeclarations() {
  const ts = require('typescript');
  const prettier = require('prettier');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) =>
        fail(ts.flattenDiagnosticMessageText(d.messageText, ' ')),
    },
  );
  const options = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
  };
  const program = ts.createProgram(
    Object.values(ENTRIES).map((e) => path.join(src, `${e}.ts`)),
    options,
  );
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && d.file.fileName.startsWith(src + path.sep));
  if (errors.length > 0)
    fail(
      `type errors in libs/client:\n${ts.formatDiagnostics(errors, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => root,
        getNewLine: () => '\n',
      })}`,
    );
  const checker = program.getTypeChecker();
  const flags =
    ts.TypeFormatFlags.NoTruncation |
    ts.TypeFormatFlags.InTypeAlias |
    ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
    ts.TypeFormatFlags.MultilineObjectLiterals;
  const written = (node) => checker.typeToString(checker.getTypeAtLocation(node), node, flags);

  const files = new Map(); // path relative to src (.d.ts) -> text
  /** types imported from private packages, written out into contract.d.ts */
  const contract = new Map();
  let usesContract = false;
  for (const sourceFile of program.getSourceFiles()) {
    const name = sourceFile.fileName;
    if (!name.startsWith(src + path.sep) || name.endsWith('.spec.ts')) continue;
    const rel = path.relative(src, name).replace(/\.ts$/, '.d.ts');
    const importsPrivate = sourceFile.statements.some(
      (s) =>
        ts.isImportDeclaration(s) &&
        !s.moduleSpecifier.text.startsWith('.') &&
        !ALLOWED_IMPORT.test(s.moduleSpecifier.text),
    );
    const exportsOnlyTypes = sourceFile.statements.every(
      (s) =>
        ts.isImportDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s),
    );
    if (importsPrivate && exportsOnlyTypes) {
      // a module of type aliases over the schemas (types.ts): every exported alias written out
      const parts = [];
      for (const s of sourceFile.statements) {
        if (!s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
        if (ts.isTypeAliasDeclaration(s))
          parts.push(
            `${jsDocOf(ts, sourceFile, s)}\nexport type ${s.name.text} = ${written(s.name)};`,
          );
        // an interface written by hand is kept as it is (the leftover check below catches one
        // that names a schema)
        else if (ts.isInterfaceDeclaration(s))
          parts.push(`${jsDocOf(ts, sourceFile, s)}\n${s.getText(sourceFile)}`);
      }
      files.set(rel, parts.join('\n\n') + '\n');
      continue;
    }
    let text;
    program.emit(sourceFile, (_f, t) => (text = t), undefined, true);
    if (text === undefined) fail(`no declarations emitted for ${rel}`);
    if (importsPrivate) {
      // named type imports from a private package: written out into contract.d.ts
      for (const s of sourceFile.statements) {
        if (!ts.isImportDeclaration(s)) continue;
        const spec = s.moduleSpecifier.text;
        if (spec.startsWith('.') || ALLOWED_IMPORT.test(spec)) continue;
        const named = s.importClause?.namedBindings;
        if (!named || !ts.isNamedImports(named))
          fail(`${rel}: only named type imports from ${spec} can be written out`);
        for (const el of named.elements) contract.set(el.name.text, written(el.name));
        const toContract = path.relative(path.dirname(rel), 'contract').split(path.sep).join('/');
        const rewritten = text
          .split(`'${spec}'`)
          .join(`'${toContract.startsWith('.') ? toContract : `./${toContract}`}'`);
        if (rewritten !== text) usesContract = true;
        text = rewritten;
      }
    }
    files.set(rel, text);
  }
  if (usesContract)
    files.set(
      'contract.d.ts',
      [...contract].map(([n, t]) => `export type ${n} = ${t};`).join('\n\n') + '\n',
    );

  const out = path.join(pkgDir, 'types');
  fs.rmSync(out, { recursive: true, force: true });
  for (const [rel, text] of files) {
    const leftovers = [...text.matchAll(/(?:from\s+|import\()\s*['"]([^'"]+)['"]/g)]
      .map((m) => m[1])
      .filter((m) => !m.startsWith('.') && !ALLOWED_IMPORT.test(m));
    if (leftovers.length > 0) fail(`${rel} still imports ${[...new Set(leftovers)].join(', ')}`);
    const file = path.join(out, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      await prettier.format(text, { parser: 'typescript', singleQuote: true, printWidth: 100 }),
    );
  }
}

async function main() {
  buildCommonJs();
  writeEsmEntries();
  await writeDeclarations();
}

main().catch((err) => fail(err instanceof Error ? (err.stack ?? err.message) : String(err)));
