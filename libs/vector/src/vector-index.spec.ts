import { spaceKey } from './vector-index';

describe('spaceKey', () => {
  it('keeps short model names readable', () => {
    expect(spaceKey({ model: 'hashing-v1-d768', dimensions: 768 })).toBe('hashing_v1_d768_768');
  });

  it('tells apart long names that differ only at the end (an appended analyzer version)', () => {
    const a = spaceKey({
      model: 'text-embedding-3-small+analyzer-2+ops-vocab-2',
      dimensions: 1536,
    });
    const b = spaceKey({
      model: 'text-embedding-3-small+analyzer-2+ops-vocab-3',
      dimensions: 1536,
    });
    expect(a).not.toBe(b);
    expect(a).toMatch(/^text_embedding_3_small_analyzer_[a-z0-9]+_1536$/);
    expect(a.length).toBeLessThanOrEqual(50);
  });
});
