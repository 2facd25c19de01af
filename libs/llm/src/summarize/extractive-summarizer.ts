import type { SummarizeOptions, Summarizer } from './summarizer';

const WORD = /[\p{L}\p{N}]+/gu;
const STOP = new Set(
  'a an and are as at be by for from has have in is it of on or that the this to was were will with you your not but if then'.split(
    ' ',
  ),
);

interface Sentence {
  text: string;
  passage: number;
  position: number;
  tf: Map<string, number>;
  words: number;
}

/**
 * Extractive summarizer (no model): splits passages into sentences (Markdown headings and list
 * items count as sentences), scores each by cosine similarity of its term vector to the
 * centroid of all passages (plus the focus text when given) with a small bonus for leading
 * sentences, picks the best until `maxWords` while skipping near-duplicates, and returns them
 * in their original order. Deterministic.
 */
export class ExtractiveSummarizer implements Summarizer {
  readonly id = 'extractive-v1';

  async summarize(passages: string[], options: SummarizeOptions = {}): Promise<string> {
    return this.summarizeSync(passages, options);
  }

  summarizeSync(passages: string[], options: SummarizeOptions = {}): string {
    const maxWords = options.maxWords ?? 120;
    const sentences: Sentence[] = [];
    passages.forEach((p, pi) => {
      splitSentences(p).forEach((text, position) => {
        const tf = termVector(text);
        if (tf.size)
          sentences.push({ text, passage: pi, position, tf, words: text.split(/\s+/).length });
      });
    });
    if (!sentences.length) return '';
    const centroid = new Map<string, number>();
    for (const s of sentences)
      for (const [t, n] of s.tf) centroid.set(t, (centroid.get(t) ?? 0) + n);
    const focus = options.focus ? termVector(options.focus) : undefined;
    const scored = sentences.map((s) => ({
      s,
      score:
        cos(s.tf, centroid) +
        (focus ? 2 * cos(s.tf, focus) : 0) +
        (s.position === 0 ? 0.15 : s.position === 1 ? 0.05 : 0),
    }));
    scored.sort(
      (a, b) => b.score - a.score || a.s.passage - b.s.passage || a.s.position - b.s.position,
    );
    const picked: Sentence[] = [];
    let words = 0;
    for (const { s } of scored) {
      if (picked.some((p) => cos(p.tf, s.tf) > 0.8)) continue;
      if (words && words + s.words > maxWords) continue;
      picked.push(s);
      words += s.words;
      if (words >= maxWords) break;
    }
    picked.sort((a, b) => a.passage - b.passage || a.position - b.position);
    const out = picked.map((s) => s.text).join(' ');
    const all = out.split(/\s+/);
    return all.length > maxWords ? `${all.slice(0, maxWords).join(' ')}…` : out;
  }
}

/** Sentences of a passage; headings, list items and code lines are kept as units. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let inCode = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line.startsWith('```')) {
      inCode = !inCode;
      continue;
    }
    if (!line) continue;
    if (inCode) {
      out.push(line);
      continue;
    }
    const clean = line.replace(/^#{1,6}\s+/, '').replace(/^([-*+]|\d+[.)])\s+/, '');
    for (const s of clean.split(/(?<=[.!?])\s+(?=[\p{Lu}\d`])/u)) if (s.trim()) out.push(s.trim());
  }
  return out;
}

function termVector(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  for (const w of text.toLowerCase().match(WORD) ?? [])
    if (!STOP.has(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
  return tf;
}

function cos(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [t, x] of a) {
    na += x * x;
    const y = b.get(t);
    if (y) dot += x * y;
  }
  for (const y of b.values()) nb += y * y;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
