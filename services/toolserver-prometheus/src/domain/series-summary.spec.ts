import {
  classifyTrend,
  pickPoints,
  seriesName,
  sortSummaries,
  summarizeSeries,
} from './series-summary';

const T0 = 1_795_608_000;
const series = (
  f: (i: number) => number | string,
  n = 61,
  labels = { __name__: 'm', job: 'x' },
) => ({
  metric: labels,
  values: Array.from({ length: n }, (_, i) => [T0 + i * 60, String(f(i))] as [number, string]),
});

describe('range summaries', () => {
  it('a steady climb: min/max/avg/first/last, slope per minute, rising', () => {
    const s = summarizeSeries(
      series((i) => 100 + 2 * i),
      5,
    );
    expect(s).toMatchObject({
      series: 'm{job="x"}',
      samples: 61,
      first: 100,
      last: 220,
      min: 100,
      max: 220,
      avg: 160,
      slope_per_minute: 2,
      change: 120,
      trend: 'rising',
      first_at: '2026-11-25T12:00:00.000Z',
      max_at: '2026-11-25T13:00:00.000Z',
    });
    expect(s.points.map((p) => p[1])).toEqual([100, 130, 160, 190, 220]);
  });

  it('noise around a level is flat, a drop is falling, a spike that came back is flat', () => {
    const noise = summarizeSeries(
      series((i) => 50 + ((i * 7919) % 11) - 5),
      0,
    );
    expect(noise.trend).toBe('flat');
    expect(noise.points).toEqual([]);
    expect(
      summarizeSeries(
        series((i) => (i < 30 ? 10 : 2)),
        3,
      ).trend,
    ).toBe('falling');
    expect(
      summarizeSeries(
        series((i) => (i === 30 ? 500 : 1)),
        3,
      ).trend,
    ).toBe('flat');
    expect(classifyTrend(0, 1, 1)).toBe('flat');
  });

  it('NaN and Inf samples are counted, not summarized; an empty series has null figures', () => {
    const s = summarizeSeries(
      series((i) => (i % 2 ? 'NaN' : i % 4 ? '+Inf' : 3), 9),
      2,
    );
    expect(s).toMatchObject({ samples: 3, non_finite: 6, min: 3, max: 3, trend: 'flat' });
    const empty = summarizeSeries({ metric: {}, values: [] }, 3);
    expect(empty).toMatchObject({ series: '{}', samples: 0, min: null, avg: null, points: [] });
  });

  it('names, point picks and sorting', () => {
    expect(seriesName({ job: 'b', __name__: 'up', instance: 'a' })).toBe(
      'up{instance="a",job="b"}',
    );
    expect(pickPoints(series((i) => i, 3).values, 10)).toHaveLength(3);
    expect(pickPoints(series((i) => i, 100).values, 1)).toEqual([['2026-11-25T13:39:00.000Z', 99]]);
    const a = summarizeSeries(
      series((i) => i, 5, { __name__: 'a', job: 'x' }),
      0,
    );
    const b = summarizeSeries(
      series((i) => 10 - i, 5, { __name__: 'b', job: 'x' }),
      0,
    );
    expect(sortSummaries([a, b], 'max').map((s) => s.series)).toEqual(['b{job="x"}', 'a{job="x"}']);
    expect(sortSummaries([b, a], 'last')[0]!.series).toBe('b{job="x"}');
    expect(sortSummaries([b, a], 'series')[0]!.series).toBe('a{job="x"}');
  });
});
