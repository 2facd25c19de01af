import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root (benchmark data lives in tools/bench/data, outside src/). */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (
      existsSync(pkg) &&
      (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'inquest'
    )
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
}

export interface Runbook {
  id: string;
  type: string;
  service?: string;
  title: string;
  content: string;
}

export interface LabelledQuestion {
  q: string;
  relevant: string[];
  /** questions-hard.json, questions-blind.json: symptom | chat | alert */
  kind?: string;
}

export function loadKbCorpus(): {
  runbooks: Runbook[];
  questions: LabelledQuestion[];
  /** questions-hard.json (written from the runbooks' titles only), when present */
  hardQuestions: LabelledQuestion[];
  /**
   * questions-blind.json: written later, the same way, by a writer who never saw the other sets,
   * the runbooks or the retrieval code, before any change was measured on it
   */
  blindQuestions: LabelledQuestion[];
} {
  const dir = join(repoRoot(), 'tools/bench/data/kb');
  const hard = join(dir, 'questions-hard.json');
  const blind = join(dir, 'questions-blind.json');
  return {
    runbooks: JSON.parse(readFileSync(join(dir, 'runbooks.json'), 'utf8')) as Runbook[],
    questions: JSON.parse(readFileSync(join(dir, 'questions.json'), 'utf8')) as LabelledQuestion[],
    hardQuestions: existsSync(hard)
      ? (JSON.parse(readFileSync(hard, 'utf8')) as LabelledQuestion[])
      : [],
    blindQuestions: existsSync(blind)
      ? (JSON.parse(readFileSync(blind, 'utf8')) as LabelledQuestion[])
      : [],
  };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** `--name=value` (the bench runner takes bare words for benchmark names). */
export function flag(args: string[], name: string, def: number): number {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  const v = a ? Number(a.slice(name.length + 3)) : NaN;
  return Number.isFinite(v) ? v : def;
}

/** Deterministic ~1 KB documents mixing sentences of the runbook corpus with random ids. */
export function docFactory(seed: number): (i: number) => string {
  const { runbooks } = loadKbCorpus();
  const sentences = runbooks.flatMap((r) =>
    r.content.split(/(?<=[.!?])\s+|\n/).filter((s) => s.trim().length > 20),
  );
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (i) => {
    const parts = [`# Note ${i} for svc-${i % 97}`];
    let len = parts[0]!.length;
    while (len < 1000) {
      const x = sentences[Math.floor(rand() * sentences.length)]!;
      parts.push(x);
      len += x.length + 1;
    }
    parts.push(`ref-${i}-${Math.floor(rand() * 1e9).toString(36)}`);
    return parts.join('\n');
  };
}
