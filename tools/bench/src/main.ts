/**
 * Benchmark runner: `npm run bench` runs every benchmark, `npm run bench -- <name> [...]` only
 * those named. A benchmark is a file `src/<name>.bench.ts` exporting
 * `run(args: string[]): Promise<void>` that prints its figures.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .sort();
  const available = files.map((f) => f.replace(/\.bench\.js$/, ''));
  const selected = wanted.length ? wanted : available;
  for (const name of selected) {
    if (!available.includes(name)) {
      process.stderr.write(`unknown benchmark "${name}"; available: ${available.join(', ')}\n`);
      process.exitCode = 2;
      return;
    }
  }
  for (const name of selected) {
    process.stdout.write(`\n=== ${name} ===\n`);
    const mod = (await import(join(__dirname, `${name}.bench.js`))) as {
      run(args: string[]): Promise<void>;
    };
    await mod.run(process.argv.slice(2));
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    process.stderr.write(
      `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
