import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The docs stand alone: every relative link of the READMEs and docs/ names a file in the repo. */
const ROOT = resolve(__dirname, '../..');

function markdownFiles(): string[] {
  const out = [join(ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  };
  for (const top of ['docs', 'libs', 'services', 'tools', 'clients', 'deploy'])
    if (existsSync(join(ROOT, top))) walk(join(ROOT, top));
  return out;
}

describe('documentation links', () => {
  it('point at files inside the repository that exist', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
        const path = resolve(dirname(file), decodeURIComponent(target.split('#')[0]!));
        const where = `${relative(ROOT, file)} -> ${target}`;
        if (relative(ROOT, path).startsWith('..')) broken.push(`${where} (outside the repository)`);
        else if (!existsSync(path)) broken.push(`${where} (missing)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('name no design documents outside the repository', () => {
    const outside = markdownFiles().filter((f) =>
      /\.\.\/shared\/|\/work\/shared/.test(readFileSync(f, 'utf8')),
    );
    expect(outside.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
