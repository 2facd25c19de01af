import {
  baseConfidence,
  findMatchingPattern,
  patternConfidence,
  symptomSimilarity,
} from './patterns';
import type { PatternRecord } from '@inquest/store';

describe('learned patterns', () => {
  it('confidence starts from the root-cause confidence and grows towards 1 with repetition', () => {
    const c1 = baseConfidence(80);
    expect(c1).toBeCloseTo(0.54, 5);
    const seq = [1, 2, 3, 5, 10].map((n) => patternConfidence(c1, n));
    for (let i = 1; i < seq.length; i++) expect(seq[i]!).toBeGreaterThan(seq[i - 1]!);
    expect(seq[0]).toBeCloseTo(c1, 10);
    expect(seq[4]).toBeLessThan(1);
    expect(baseConfidence(undefined)).toBeCloseTo(0.45, 5);
  });
  it('matches on symptoms, service and root cause', () => {
    const p: PatternRecord = {
      pattern_id: 'p1',
      team_id: 't',
      service: 'checkout',
      symptoms: ['oom', 'crashloop'],
      root_cause: 'memory limit too low',
      solution: 'raise it',
      confidence: 0.5,
      base_confidence: 0.5,
      occurrences: 1,
      first_seen_at: '',
      last_seen_at: '',
      version: 1,
    };
    const overlap = (a: string, b: string) =>
      a.includes('memory') && b.includes('memory') ? 1 : 0;
    expect(symptomSimilarity(['oom'], ['oom', 'crashloop'])).toBeCloseTo(0.5);
    expect(
      findMatchingPattern([p], ['oom', 'crashloop'], 'memory limit', 'checkout', overlap),
    ).toBe(p);
    expect(
      findMatchingPattern([p], ['oom', 'crashloop'], 'memory limit', 'payments', overlap),
    ).toBeUndefined();
    expect(findMatchingPattern([p], ['dns'], 'memory limit', 'checkout', overlap)).toBeUndefined();
    expect(
      findMatchingPattern([p], ['oom', 'crashloop'], 'expired certificate', 'checkout', overlap),
    ).toBeUndefined();
  });
});
