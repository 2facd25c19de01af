import { cosine } from '@inquest/vector';
import { HashingEmbedder } from './hashing-embedder';

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
    expect(e.id).toBe('hashing-v1-d768');
    expect(new HashingEmbedder({ dimensions: 64, tokenizerVersion: 'x' }).id).toBe(
      'hashing-v1-d64+x',
    );
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
