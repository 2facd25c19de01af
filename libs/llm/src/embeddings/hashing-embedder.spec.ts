import { cosine } from '@inquest/vector';
import { DEFAULT_NGRAM_SIZES, HashingEmbedder } from './hashing-embedder';

describe('HashingEmbedder', () => {
  const e = new HashingEmbedder();
  it('makes deterministic unit vectors of the configured size with a version tag', async () => {
    const [a, b] = await e.embed([
      'database connection pool exhausted',
      'database connection pool exhausted',
    ]);
    expect(a).toHaveLength(768);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(cosine(a!, a!)).toBeCloseTo(1, 5);
    expect(e.id).toBe('hashing-v2-d768');
    expect(new HashingEmbedder({ dimensions: 64, tokenizerVersion: 'x' }).id).toBe(
      'hashing-v2-d64+x',
    );
  });
  it('takes character 3-4-grams by default; other sizes are another model (another id)', async () => {
    expect(DEFAULT_NGRAM_SIZES).toEqual([3, 4]);
    const wide = new HashingEmbedder({ ngramSizes: [5, 3, 4] });
    expect(wide.id).toBe('hashing-v2-d768-g345');
    expect(new HashingEmbedder({ ngramSizes: [4, 3] }).id).toBe(e.id);
    // a word of five letters: its 5-gram "<word" is a feature of the wide embedder only
    const [a, b] = await e.embed(['alpha', 'alpha']);
    const [c] = await wide.embed(['alpha']);
    expect(cosine(a!, b!)).toBeCloseTo(1, 6);
    expect(cosine(a!, c!)).toBeLessThan(0.999);
    expect(() => new HashingEmbedder({ ngramSizes: [0] })).toThrow(/positive integers/);
    expect(() => new HashingEmbedder({ ngramSizes: [2.5] })).toThrow(/positive integers/);
  });
  it('brings inflections of a word together through their shared n-grams', async () => {
    const [throttled, throttling, evicted] = await e.embed(['throttled', 'throttling', 'evicted']);
    expect(cosine(throttled!, throttling!)).toBeGreaterThan(0.5);
    expect(cosine(throttled!, throttling!)).toBeGreaterThan(cosine(throttled!, evicted!) + 0.3);
    const words = new HashingEmbedder({ ngramWeight: 0 });
    const [w1, w2] = await words.embed(['throttled', 'throttling']);
    expect(Math.abs(cosine(w1!, w2!))).toBeLessThan(0.2);
  });
  it('puts similar wording closer than unrelated wording (character n-grams catch inflections)', async () => {
    const [q, near, far] = await e.embed([
      'connections exhausted in pool',
      'connection pool exhaustion',
      'rotate TLS certificate',
    ]);
    expect(cosine(q!, near!)).toBeGreaterThan(cosine(q!, far!) + 0.2);
  });
  it('embeds empty text as a zero vector', async () => {
    const [z] = await e.embed(['']);
    expect(Array.from(z!).every((x) => x === 0)).toBe(true);
  });
});
