import { DEFAULT_SETTINGS } from './knowledge-settings';
import { rank, type RankInput } from './ranking';

const now = Date.parse('2026-06-01T00:00:00Z');
const base: RankInput = {
  relevance: 0.8,
  queryConcepts: new Set(),
  neighbours: new Set(),
  level: 'L1',
  chunkConcepts: new Set(),
  createdAt: '2026-05-31T00:00:00Z',
  usageCount: 0,
  helpful: 0,
  unhelpful: 0,
  confidence: 0.7,
  now,
};
const r = (o: Partial<RankInput>) =>
  rank({ ...base, ...o }, DEFAULT_SETTINGS.retrieval.ranking).score;

describe('ranking formula', () => {
  it('never exceeds the relevance and moves it by at most λ', () => {
    for (const o of [
      {},
      { usageCount: 1000, helpful: 50 },
      { createdAt: '2000-01-01T00:00:00Z', unhelpful: 50 },
    ]) {
      const s = r(o);
      expect(s).toBeLessThanOrEqual(0.8);
      expect(s).toBeGreaterThanOrEqual(0.8 * 0.7);
    }
  });
  it('each signal moves the score in its direction', () => {
    expect(r({ createdAt: '2025-01-01T00:00:00Z' })).toBeLessThan(r({}));
    expect(r({ usageCount: 20 })).toBeGreaterThan(r({}));
    expect(r({ helpful: 5 })).toBeGreaterThan(r({}));
    expect(r({ unhelpful: 5 })).toBeLessThan(r({}));
    expect(r({ queryService: 'checkout', service: 'checkout' })).toBeGreaterThan(
      r({ queryService: 'checkout', service: 'payments' }),
    );
    expect(
      r({ queryConcepts: new Set(['c_oom']), chunkConcepts: new Set(['c_oom']) }),
    ).toBeGreaterThan(r({ queryConcepts: new Set(['c_oom']) }));
    expect(r({ authorExpertise: 5 })).toBeGreaterThan(r({ authorExpertise: 0 }));
    expect(r({ confidence: 1 })).toBeGreaterThan(r({ confidence: 0.2 }));
    const ctx = { queryService: 'checkout', neighbours: new Set(['postgres']) };
    expect(r({ ...ctx, service: 'postgres' })).toBeGreaterThan(r({ ...ctx, service: 'kafka' }));
  });
  it('temporal knowledge decays faster than procedures', () => {
    const old = { createdAt: '2026-03-01T00:00:00Z' };
    const l3 = r({ ...old, level: 'L3' }) / r({ level: 'L3' });
    const l1 = r({ ...old, level: 'L1' }) / r({ level: 'L1' });
    expect(l3).toBeLessThan(l1);
  });
  it('λ = 0 is pure relevance', () => {
    const s = rank(
      { ...base, usageCount: 99 },
      { ...DEFAULT_SETTINGS.retrieval.ranking, signal_influence: 0 },
    ).score;
    expect(s).toBeCloseTo(0.8, 10);
  });
});
