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
  it('ranks by weighted reciprocal rank of the two legs within the candidates', () => {
    const out = fuseHybrid([hit('a', 0.9, 0), hit('b', 0.5, 9), hit('c', 0.8, 5)], {
      dense: 1,
      sparse: 1,
      k: 60,
    });
    // b (3rd dense + 1st sparse) and c (2nd + 2nd) are on both legs: above a (1st dense only)
    expect(out.map((h) => h.id)).toEqual(['b', 'c', 'a']);
    expect(out[0]!.score).toBeLessThan(2 / 61);
  });
  it('weights move the order toward the heavier leg', () => {
    const out = fuseHybrid([hit('a', 0.9, 1), hit('b', 0.5, 9)], { dense: 1, sparse: 3, k: 60 });
    expect(out[0]!.id).toBe('b');
  });
  it('keeps the backend order when it does not report both scores', () => {
    const hits = [hit('a', undefined, 1), hit('b', undefined, 9)];
    expect(fuseHybrid(hits)).toBe(hits);
    const noBm25 = [hit('a', 0.2, 1), hit('b', 0.9, 9)].map((h) => ({ ...h, bm25: undefined }));
    expect(fuseHybrid(noBm25)).toBe(noBm25);
  });
});
