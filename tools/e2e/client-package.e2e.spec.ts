import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startInquest, type RunningInquest } from './support/start-inquest';

/**
 * @inquest/client as another project gets it: `npm pack` in libs/client, the tarball installed
 * offline into a fresh project, and an ES module and a CommonJS program (and their TypeScript
 * twins, type-checked) using it against the running service.
 */
const ROOT = resolve(__dirname, '../..');
const PKG = join(ROOT, 'libs/client');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

type PackedFile = { path: string };
type PackResult = { filename: string; files: PackedFile[] };

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, ...env },
  });
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The same program in ESM and CJS: one investigation, one validation error, one line of JSON. */
const program = (load: string) => `${load}
const inquest = new InquestClient({ baseUrl: process.env.INQUEST_URL, token: process.env.INQUEST_TOKEN });
const main = async () => {
  const health = await inquest.health();
  const started = await inquest.agents.run({
    agent_name: 'planner',
    message: 'checkout is returning 500s',
    context: { service: 'checkout', namespace: 'shop' },
    async: true,
  });
  const done = await inquest.waitForInvestigation(started.investigation_id, { initialDelayMs: 200 });
  let error;
  try {
    await inquest.config.update({ agents: { planner: { timeout: -1 } } });
  } catch (err) {
    error = { isInquestError: isInquestError(err), code: err.code, isValidationError: err instanceof ValidationError };
  }
  console.log(JSON.stringify({
    health: health.status,
    status: done.status,
    confidence: done.result ? done.result.root_cause.confidence : undefined,
    error,
    scripted: typeof startScriptedServer,
  }));
};
main().catch((err) => { console.error(err); process.exit(1); });
`;

const typed = (load: string) => `${load}
export async function check(inquest: InquestClient): Promise<string> {
  const req: RunInvestigationRequest = { agent_name: 'planner', message: 'x', async: true };
  // @ts-expect-error not an agent: the REST types are real, not any
  const bad: RunInvestigationRequest = { agent_name: 'nobody', message: 'x' };
  void bad;
  const started = await inquest.agents.run(req);
  const done: Investigation = await inquest.waitForInvestigation(started.investigation_id);
  const confidence: number | undefined = done.result?.root_cause.confidence;
  return \`\${done.status} \${confidence ?? ''}\`;
}
`;

describe('@inquest/client packed and installed in another project', () => {
  const work = mkdtempSync(join(tmpdir(), 'inquest-client-pkg-'));
  const consumer = join(work, 'consumer');
  let packed: PackResult;
  let inquest: RunningInquest;

  beforeAll(async () => {
    packed = (
      JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], PKG)) as PackResult[]
    )[0]!;
    mkdirSync(consumer);
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
    );
    // offline: the tarball has no dependencies, so npm needs no registry
    run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', join(work, packed.filename)],
      consumer,
    );
    inquest = await startInquest();
  }, 240_000);

  afterAll(async () => {
    await inquest?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('packs built ESM, CJS and declarations, and no private package', () => {
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/index.js',
        'dist/testing/index.js',
        'esm/index.mjs',
        'esm/testing/index.mjs',
        'types/index.d.ts',
        'types/types.d.ts',
        'types/testing/index.d.ts',
      ]),
    );
    expect(files.filter((f) => f.startsWith('src/') || f.endsWith('.map'))).toEqual([]);
    const manifest = JSON.parse(
      run('node', ['-p', 'JSON.stringify(require("@inquest/client/package.json"))'], consumer),
    ) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.exports).toMatchObject({
      '.': { types: './types/index.d.ts', import: './esm/index.mjs', default: './dist/index.js' },
    });
    // no shipped code or declaration loads a private package or zod
    const leaked = spawnSync(
      'grep',
      [
        '-rlE',
        '--include=*.js',
        '--include=*.mjs',
        '--include=*.ts',
        `(require\\(|from |import\\()\\s*['"](@inquest/[a-z-]+|zod)['"]`,
        '.',
      ],
      { cwd: join(consumer, 'node_modules/@inquest/client'), encoding: 'utf8' },
    );
    expect(leaked.stdout).toBe('');
  });

  it.each([
    [
      'ESM',
      'consumer.mjs',
      `import { InquestClient, isInquestError, ValidationError } from '@inquest/client';
import { startScriptedServer } from '@inquest/client/testing';
import { createRequire } from 'node:module';
if (createRequire(import.meta.url)('@inquest/client').InquestClient !== InquestClient)
  throw new Error('two copies of the client');`,
    ],
    [
      'CJS',
      'consumer.cjs',
      `const { InquestClient, isInquestError, ValidationError } = require('@inquest/client');
const { startScriptedServer } = require('@inquest/client/testing');`,
    ],
  ])(
    'a program loading it as %s runs an investigation and gets typed errors',
    (_kind, file, load) => {
      writeFileSync(join(consumer, file), program(load));
      const out = run('node', [file], consumer, {
        INQUEST_URL: inquest.url,
        INQUEST_TOKEN: inquest.demoTeamToken!,
      });
      expect(JSON.parse(out)).toEqual({
        health: 'ok',
        status: 'completed',
        confidence: expect.any(Number),
        error: { isInquestError: true, code: 'validation_error', isValidationError: true },
        scripted: 'function',
      });
    },
    120_000,
  );

  it('type-checks an ESM and a CJS TypeScript program against the shipped declarations', () => {
    writeFileSync(
      join(consumer, 'typed.mts'),
      typed(
        `import { InquestClient, type Investigation, type RunInvestigationRequest } from '@inquest/client';`,
      ),
    );
    writeFileSync(
      join(consumer, 'typed.cts'),
      typed(
        `import { InquestClient, type Investigation, type RunInvestigationRequest } from '@inquest/client';`,
      ),
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
          skipLibCheck: false,
        },
        files: ['typed.mts', 'typed.cts'],
      }),
    );
    run('node', [TSC, '-p', 'tsconfig.json'], consumer);
  }, 120_000);
});
