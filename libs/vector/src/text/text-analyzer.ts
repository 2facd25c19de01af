import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One concept of the operations vocabulary and the words or phrases that express it. */
export interface VocabularyConcept {
  concept: string;
  terms: string[];
}

export interface Vocabulary {
  version: string;
  concepts: VocabularyConcept[];
}

/** The operations vocabulary shipped as data next to this file (ops-vocabulary.json). */
export function loadOpsVocabulary(): Vocabulary {
  const raw = JSON.parse(
    readFileSync(join(__dirname, 'ops-vocabulary.json'), 'utf8'),
  ) as Vocabulary;
  return { version: raw.version, concepts: raw.concepts };
}

const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have how i if in into is it its ' +
    'me my no nor not of on or our so such than that the their them then there these they this those to too was we were ' +
    'what when where which while who whom why will with would you your should shall may might must also just about after ' +
    'again all any because before below between both during each few further here more most other over own same some ' +
    'only out under until up very off once am get got'
  ).split(' '),
);

/** Prefix of the synthetic tokens the vocabulary adds; never produced by plain words. */
export const CONCEPT_PREFIX = 'c_';

/**
 * The one tokenizer of the knowledge base: every backend (FTS5, Qdrant sparse vectors) and the
 * hashing embedder see the same terms, so BM25 ranks alike wherever it runs.
 *
 * Steps: NFKC; split on anything that is not a letter or digit (unicode aware); split
 * alert-style compound names at case changes (`KubePodCrashLooping` -> kube pod crash looping,
 * the whole name kept as one more term so an exact name still matches); lower case; drop
 * stopwords; light English stemming; then add `c_<concept>` for every vocabulary term or phrase
 * found in the token stream (compared stemmed, so "crash looping" finds "crash loop").
 */
export class TextAnalyzer {
  readonly version: string;
  /** first stemmed token -> phrases (stemmed) starting with it, longest first */
  private readonly phrases = new Map<string, { concept: string; toks: string[] }[]>();

  constructor(vocabulary: Vocabulary = loadOpsVocabulary()) {
    this.version = `analyzer-3+${vocabulary.version}`;
    for (const c of vocabulary.concepts) {
      for (const term of c.terms) {
        const toks = rawTokens(term).map(stem);
        const head = toks[0];
        if (!head) continue;
        const list = this.phrases.get(head) ?? [];
        if (list.some((p) => p.concept === CONCEPT_PREFIX + c.concept && same(p.toks, toks)))
          continue;
        list.push({ concept: CONCEPT_PREFIX + c.concept, toks });
        list.sort((a, b) => b.toks.length - a.toks.length);
        this.phrases.set(head, list);
      }
    }
  }

  /**
   * Index/query terms: stemmed words (stopwords removed), each split compound name once more
   * as a whole, then concept tokens.
   */
  terms(text: string): string[] {
    const { parts, compounds } = splitWords(text);
    const out: string[] = [];
    for (const t of parts) {
      if (STOPWORDS.has(t) || t.length > 40) continue;
      out.push(stem(t));
    }
    for (const c of compounds) if (c.length <= 40) out.push(c);
    return out.concat(this.concepts(parts, compounds));
  }

  /** Concept tokens found in the text (each once per occurrence). */
  conceptsOf(text: string): string[] {
    const { parts, compounds } = splitWords(text);
    return this.concepts(parts, compounds);
  }

  /** Term -> count. */
  termFrequencies(text: string): Map<string, number> {
    const tf = new Map<string, number>();
    for (const t of this.terms(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  }

  private concepts(raw: string[], compounds: string[] = []): string[] {
    const stems = raw.map(stem);
    const out: string[] = [];
    for (let i = 0; i < stems.length; i++) {
      const cands = this.phrases.get(stems[i]!);
      if (!cands) continue;
      const seen = new Set<string>();
      for (const c of cands) {
        if (seen.has(c.concept)) continue;
        let ok = true;
        for (let j = 1; j < c.toks.length; j++) {
          if (stems[i + j] !== c.toks[j]) {
            ok = false;
            break;
          }
        }
        if (ok) {
          seen.add(c.concept);
          out.push(c.concept);
        }
      }
    }
    // a compound name that is itself a vocabulary word (CrashLoopBackOff, OOMKilled) counts too,
    // unless its parts already found that concept
    for (const w of compounds) {
      for (const c of this.phrases.get(stem(w)) ?? [])
        if (c.toks.length === 1 && !out.includes(c.concept)) out.push(c.concept);
    }
    return out;
  }
}

function same(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** lower→Upper, or an upper-case run before a capitalised word (OOMKilled -> OOM Killed) */
const CASE_BREAK = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/**
 * Lower-cased word parts (compound names split at case changes) and the lower-cased compounds
 * that were split.
 */
export function splitWords(text: string): { parts: string[]; compounds: string[] } {
  const parts: string[] = [];
  const compounds: string[] = [];
  for (const w of text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []) {
    // a status code used as a word ("502ing since 10:40", "lots of 503s") is the code
    const code = /^(\d{3})(?:s|ing|ed)$/i.exec(w);
    if (code) {
      parts.push(code[1]!);
      continue;
    }
    const pieces = w.length > 3 ? w.split(CASE_BREAK) : [w];
    if (pieces.length > 1) compounds.push(w.toLowerCase());
    for (const p of pieces) parts.push(p.toLowerCase());
  }
  return { parts, compounds };
}

/** Lower-cased letter/digit runs; hyphenated words are split (on-call -> on, call). */
export function rawTokens(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** A light suffix stemmer: enough to join plural/verb forms without a dictionary. */
export function stem(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('ing') && w.length > 5) return undouble(w.slice(0, -3));
  if (w.endsWith('ed') && w.length > 4) return undouble(w.slice(0, -2));
  if (w.endsWith('ly') && w.length > 5) return w.slice(0, -2);
  if (w.endsWith('es') && /(ch|sh|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is'))
    return w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  const n = w.length;
  if (n >= 3 && w[n - 1] === w[n - 2] && !'lsz'.includes(w[n - 1]!)) return w.slice(0, -1);
  return w;
}

/** FNV-1a 32-bit: the term id used for sparse vectors and feature hashing. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
