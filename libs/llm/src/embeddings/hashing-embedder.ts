import { l2Normalize, type Embedder } from './embedder';

export interface HashingEmbedderOptions {
  /** default 768 */
  dimensions?: number;
  /**
   * Word features; defaults to lower-cased letter/digit runs. The knowledge service passes the
   * shared TextAnalyzer here so the dense path sees the same stems and vocabulary concepts.
   */
  tokenize?: (text: string) => string[];
  /** version of the tokenizer, part of `id` (a changed tokenizer is a different model) */
  tokenizerVersion?: string;
  /** weight of character n-gram features relative to word features (default 0.5) */
  ngramWeight?: number;
  /** lengths of the character n-grams taken of each word (default 3 and 4) */
  ngramSizes?: readonly number[];
}

/**
 * Character n-gram lengths. Measured on tools/bench/data/kb (hashing embedder, 768 dimensions):
 * 3-4-grams against the former 3-5-grams raised dense MRR@10 from 0.871 to 0.878 on the hard set
 * and from 0.932 to 0.935 on the old one; 5-grams of a stemmed word mostly repeat the word
 * feature itself, while the 3-4-grams are what inflections and compounds share
 * (throttled/throttling, evicted/eviction).
 */
export const DEFAULT_NGRAM_SIZES: readonly number[] = [3, 4];

const defaultTokenize = (t: string) =>
  t
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}_]+/gu) ?? [];

/**
 * Local embeddings without weights to download: signed feature hashing (the hashing trick) of
 * words and of character 3-4-grams of each word, sublinear term frequency (1 + ln tf), L2
 * normalised. It is lexical: similar wording gives similar vectors, synonyms only through the
 * tokenizer's vocabulary concepts.
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly tokenize: (text: string) => string[];
  private readonly ngramWeight: number;
  private readonly ngramSizes: readonly number[];

  constructor(options: HashingEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 768;
    this.tokenize = options.tokenize ?? defaultTokenize;
    this.ngramWeight = options.ngramWeight ?? 0.5;
    this.ngramSizes = options.ngramSizes ?? DEFAULT_NGRAM_SIZES;
    if (!this.ngramSizes.every((n) => Number.isInteger(n) && n >= 1))
      throw new Error('n-gram sizes must be positive integers');
    // v2: 3-4-grams (v1 took 3-5-grams); other sizes than the default are part of the id, so
    // vectors of different features never share a space
    const sizes = [...this.ngramSizes].sort((a, b) => a - b).join('');
    this.id = `hashing-v2-d${this.dimensions}${sizes === '34' ? '' : `-g${sizes}`}${options.tokenizerVersion ? `+${options.tokenizerVersion}` : ''}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  /** Synchronous form (the hashing embedder never waits on anything). */
  embedOne(text: string): Float32Array {
    const counts = new Map<string, number>();
    const add = (f: string, w: number) => counts.set(f, (counts.get(f) ?? 0) + w);
    for (const word of this.tokenize(text)) {
      add(`w:${word}`, 1);
      if (word.startsWith('c_') || word.length < 3) continue;
      const padded = `<${word}>`;
      for (const n of this.ngramSizes) {
        for (let i = 0; i + n <= padded.length; i++)
          add(`g:${padded.slice(i, i + n)}`, this.ngramWeight);
      }
    }
    const v = new Float32Array(this.dimensions);
    for (const [f, tf] of counts) {
      const h = murmur3(f, 0x9747b28c);
      const sign = murmur3(f, 0x5bd1e995) & 1 ? 1 : -1;
      const weight = tf >= 1 ? 1 + Math.log(tf) : tf;
      v[h % this.dimensions]! += sign * weight;
    }
    return l2Normalize(v);
  }
}

/** MurmurHash3 (32-bit) of a string's UTF-16 code units. */
function murmur3(key: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < key.length; i++) {
    let k = key.charCodeAt(i);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= key.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
