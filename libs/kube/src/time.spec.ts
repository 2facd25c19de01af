import { age, humanDuration, toDate } from './time';

describe('humanDuration (kubectl ages)', () => {
  const s = 1000;
  const m = 60 * s;
  const h = 60 * m;
  const d = 24 * h;
  it.each([
    [45 * s, '45s'],
    [119 * s, '119s'],
    [5 * m, '5m'],
    [5 * m + 30 * s, '5m30s'],
    [12 * m, '12m'],
    [179 * m, '179m'],
    [3 * h + 12 * m, '3h12m'],
    [7 * h, '7h'],
    [20 * h, '20h'],
    [2 * d, '2d'],
    [2 * d + 5 * h, '2d5h'],
    [30 * d, '30d'],
    [800 * d, '2y70d'],
    [-5 * s, '<invalid>'],
  ])('%d ms -> %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it('ages RFC 3339 strings and Dates against now', () => {
    const now = new Date('2026-03-12T10:30:00Z');
    expect(age('2026-03-12T10:25:00Z', now)).toBe('5m');
    expect(age(new Date('2026-03-10T10:30:00Z'), now)).toBe('2d');
    expect(age(undefined, now)).toBe('<unknown>');
    expect(toDate('not a time')).toBeUndefined();
  });
});
