import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/**
 * The architecture rules of eslint.config.mjs fail on deliberate violations. The repository's
 * real config lints fixture files written (and removed again) where the rules apply: a domain
 * folder, an adapters folder, a lib and a service. One ESLint process lints them all (the
 * project graph and the type-aware parser take most of its time).
 */
const ROOT = resolve(__dirname, '../..');

interface Fixture {
  path: string;
  code: string;
}

interface Finding {
  path: string;
  rule: string | null;
  message: string;
}

const RUNNER = `
const { mkdirSync, writeFileSync, rmSync } = require('node:fs');
const { dirname } = require('node:path');
const { ESLint } = require('eslint');
const fixtures = JSON.parse(process.argv[1]);
(async () => {
  const out = [];
  try {
    for (const f of fixtures) {
      mkdirSync(dirname(f.path), { recursive: true });
      writeFileSync(f.path, f.code);
    }
    const eslint = new ESLint({ cwd: process.cwd() });
    for (const r of await eslint.lintFiles(fixtures.map((f) => f.path)))
      for (const m of r.messages)
        out.push({ path: r.filePath, rule: m.ruleId, message: m.message });
  } finally {
    for (const f of fixtures) rmSync(f.path, { force: true });
  }
  process.stdout.write(JSON.stringify(out));
})().catch((err) => {
  console.error(err);
  process.exit(2);
});
`;

function lint(fixtures: Fixture[]): Finding[] {
  const abs = fixtures.map((f) => ({ ...f, path: join(ROOT, f.path) }));
  const out = execFileSync(process.execPath, ['-e', RUNNER, JSON.stringify(abs)], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return (JSON.parse(out) as Finding[]).map((f) => ({ ...f, path: f.path.slice(ROOT.length + 1) }));
}

// The name is unique per run and ignored by git (.gitignore: lint-fixture-*), so a crashed run
// leaves nothing that could be committed.
const tag = `lint-fixture-${process.pid}`;
const FORBIDDEN = [
  "import { Counter } from 'prom-client';",
  "import CircuitBreaker from 'opossum';",
  "import { MongoClient } from 'mongodb';",
  "import Database from 'better-sqlite3';",
  "import { status } from '@grpc/grpc-js';",
  "import { toolsV1 } from '@inquest/proto';",
  // a subpath is the same package
  "import { Metadata } from '@grpc/grpc-js/build/src/metadata';",
];
const USES =
  'export const used = [Counter, CircuitBreaker, MongoClient, Database, status, toolsV1, Metadata];\n';

const fixtures: Fixture[] = [
  {
    path: `services/toolserver-proxy/src/domain/${tag}.ts`,
    code: `${FORBIDDEN.join('\n')}\n${USES}`,
  },
  {
    // a nested domain folder is still domain code
    path: `services/investigation-runner/src/domain/deterministic/${tag}.ts`,
    code: "import type { investigationV1 } from '@inquest/proto';\nexport type M = investigationV1.Investigation;\n",
  },
  {
    // adapters are where these packages belong
    path: `services/toolserver-proxy/src/adapters/${tag}.ts`,
    code: `${FORBIDDEN.join('\n')}\n${USES}`,
  },
  {
    path: `libs/write-guard/src/${tag}.ts`,
    code: "import { start } from '@inquest/notifier-service';\nexport const s = start;\n",
  },
  {
    path: `services/notifier/src/${tag}.ts`,
    code: "import { start } from '@inquest/gateway-service';\nexport const s = start;\n",
  },
  {
    path: `services/notifier/src/${tag}-relative.ts`,
    code: "import { EnvSchema } from '../../gateway/src/config';\nexport const e = EnvSchema;\n",
  },
  {
    // production code: neither the test helpers lib nor a lib's testing subpath
    path: `services/notifier/src/domain/${tag}-prod.ts`,
    code: "import { freePort } from '@inquest/testing';\nimport { aTeamConfig } from '@inquest/config-model/testing';\nexport const t = [freePort, aTeamConfig];\n",
  },
  {
    // a spec may use both, in a domain folder too; the domain's own rule still holds there
    path: `services/notifier/src/domain/${tag}.spec.ts`,
    code: "import { freePort } from '@inquest/testing';\nimport { aTeamConfig } from '@inquest/config-model/testing';\nimport { Counter } from 'prom-client';\nexport const t = [freePort, aTeamConfig, Counter];\n",
  },
];

let findings: Finding[] = [];
beforeAll(() => {
  findings = lint(fixtures);
}, 150_000);

const of = (path: string, rule: string) =>
  findings.filter((f) => f.path === path && f.rule === rule);

describe('eslint.config.mjs architecture rules', () => {
  it('refuses transport, storage and metrics packages in domain code, subpaths included', () => {
    const hits = of(fixtures[0]!.path, 'no-restricted-imports').map((f) => f.message);
    expect(hits).toHaveLength(FORBIDDEN.length);
    for (const name of [
      'prom-client',
      'opossum',
      'mongodb',
      'better-sqlite3',
      '@grpc/grpc-js',
      '@inquest/proto',
    ])
      expect(hits.some((m) => m.includes(`must not import ${name}`))).toBe(true);
  });

  it('applies to folders nested in a domain folder', () => {
    expect(of(fixtures[1]!.path, 'no-restricted-imports')).toHaveLength(1);
  });

  it('lets adapters import them', () => {
    expect(of(fixtures[2]!.path, 'no-restricted-imports')).toEqual([]);
    // the adapter fixture is otherwise clean: the rule is what differs, not a parse failure
    expect(findings.filter((f) => f.path === fixtures[2]!.path && f.rule === null)).toEqual([]);
  });

  it('refuses a lib importing a service', () => {
    expect(of(fixtures[3]!.path, '@nx/enforce-module-boundaries')).toHaveLength(1);
  });

  it('refuses a service importing another service, by package or by a path into its src', () => {
    expect(of(fixtures[4]!.path, '@nx/enforce-module-boundaries')).toHaveLength(1);
    expect(of(fixtures[5]!.path, '@nx/enforce-module-boundaries')).toHaveLength(1);
  });

  it('refuses test helpers in production code (@inquest/testing and testing subpaths)', () => {
    const hits = of(fixtures[6]!.path, 'no-restricted-imports').map((f) => f.message);
    expect(hits).toEqual([
      expect.stringMatching(/'@inquest\/testing' import is restricted.*for specs only/),
      expect.stringMatching(
        /'@inquest\/config-model\/testing' import is restricted.*for specs only/,
      ),
    ]);
  });

  it('lets specs use test helpers, but not a forbidden package in a domain folder', () => {
    expect(of(fixtures[7]!.path, 'no-restricted-imports').map((f) => f.message)).toEqual([
      expect.stringContaining('must not import prom-client'),
    ]);
  });
});
