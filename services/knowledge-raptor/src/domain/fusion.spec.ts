import type { SearchHit } from '@inquest/vector';
import { fuseHybrid } from './fusion';

const hit = (id: string, similarity: number | undefined, bm25: number): SearchHit => ({
  id,
  score: 0,
  similarity,
  bm25,
  payload: {
    document_id: id,
    level: 'L1',
    type: 'runbook',
    tags: [],
    created_at: '',
    tree_layer: 0,
    content: id,
  },
});

describe('fuseHybrid', () => {
  it('ranks by the weighted mean of normalised cosine and BM25 within the candidates', () => {
    const out = fuseHybrid([hit('a', 0.9, 0), hit('b', 0.5, 9), hit('c', 0.8, 5)], {
      dense: 1,
      sparse: 1,
    });
    // a: cosine 1, BM25 0 -> 0.5; b: 0.556 and 1 -> 0.778; c: 0.889 and 0.556 -> 0.722
    expect(out.map((h) => h.id)).toEqual(['b', 'c', 'a']);
    expect(out[0]!.score).toBeCloseTo(((0.5 / 0.9 + 1) / 2) * (2 / 61), 6);
  });
  it('keeps the distance between candidates that rank fusion would make neighbours', () => {
    // b is far ahead on BM25 and barely behind on cosine: it wins although a is first on cosine
    const out = fuseHybrid([hit('a', 0.61, 2), hit('b', 0.6, 20), hit('c', 0.2, 1)], {
      dense: 1,
      sparse: 1,
    });
    expect(out[0]!.id).toBe('b');
  });
  it('weights move the order toward the heavier leg', () => {
    const hits = [hit('a', 0.9, 1), hit('b', 0.5, 9)];
    expect(fuseHybrid(hits, { dense: 3, sparse: 1 })[0]!.id).toBe('a');
    expect(fuseHybrid(hits, { dense: 1, sparse: 3 })[0]!.id).toBe('b');
  });
  it('scores the best possible candidate like first place on both legs of RRF', () => {
    const out = fuseHybrid([hit('a', 0.9, 9), hit('b', 0.5, 1)]);
    expect(out[0]!.score).toBeCloseTo(2 / 61, 9);
  });
  it('keeps the backend order when it does not report both scores', () => {
    const hits = [hit('a', undefined, 1), hit('b', undefined, 9)];
    expect(fuseHybrid(hits)).toBe(hits);
    const noBm25 = [hit('a', 0.2, 1), hit('b', 0.9, 9)].map((h) => ({ ...h, bm25: undefined }));
    expect(fuseHybrid(noBm25)).toBe(noBm25);
  });
});
