import { iso } from './time-range';

/** One series of a Prometheus matrix: labels and `[unix seconds, "value"]` samples. */
export interface MatrixSeries {
  metric: Record<string, string>;
  values: Array<[number, string]>;
}

export type Trend = 'rising' | 'falling' | 'flat';

/** What a range query says about one series, instead of its thousands of samples. */
export interface SeriesSummary {
  /** `name{label="value",...}` */
  series: string;
  labels: Record<string, string>;
  samples: number;
  first: number | null;
  last: number | null;
  min: number | null;
  max: number | null;
  avg: number | null;
  /** least-squares slope over the window, in value units per minute */
  slope_per_minute: number;
  /** the fitted change over the window (slope x span) */
  change: number;
  trend: Trend;
  first_at?: string;
  last_at?: string;
  min_at?: string;
  max_at?: string;
  /** NaN/Inf samples, left out of every figure above */
  non_finite?: number;
  /** at most `points` samples, evenly spread, first and last included: [time, value] */
  points: Array<[string, number]>;
}

/** Twelve significant digits: drops float noise (0.30000000000000004), keeps counters and timestamps exact. */
export function round(v: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  return Number(v.toPrecision(12));
}

/** `up{instance="a",job="b"}`; a series without `__name__` is just its label set. */
export function seriesName(metric: Record<string, string>): string {
  const { __name__: name = '', ...labels } = metric;
  const inner = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',');
  return `${name}{${inner}}`;
}

/**
 * Flat when the fitted change over the window is small against the series' own spread (under
 * a fifth of max - min: noise around a level, or a spike that came and went). A steady climb
 * of a large value (a counter) is rising however small against its level.
 */
export function classifyTrend(change: number, min: number, max: number): Trend {
  const spread = max - min;
  if (spread === 0 || change === 0) return 'flat';
  if (Math.abs(change) < 0.2 * spread) return 'flat';
  return change > 0 ? 'rising' : 'falling';
}

/** Summarizes one series in a single pass plus the sample picks. */
export function summarizeSeries(s: MatrixSeries, points: number): SeriesSummary {
  let n = 0;
  let nonFinite = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let minT = 0;
  let maxT = 0;
  let firstV: number | null = null;
  let lastV: number | null = null;
  let firstT = 0;
  let lastT = 0;
  // least squares on (t in minutes from the first sample, v)
  let st = 0;
  let stt = 0;
  let stv = 0;
  let t0: number | undefined;
  for (const [t, raw] of s.values) {
    const v = Number(raw);
    if (!Number.isFinite(v)) {
      nonFinite++;
      continue;
    }
    if (t0 === undefined) t0 = t;
    const x = (t - t0) / 60;
    n++;
    sum += v;
    st += x;
    stt += x * x;
    stv += x * v;
    if (v < min) {
      min = v;
      minT = t;
    }
    if (v > max) {
      max = v;
      maxT = t;
    }
    if (firstV === null) {
      firstV = v;
      firstT = t;
    }
    lastV = v;
    lastT = t;
  }
  const avg = n ? sum / n : 0;
  const denom = n * stt - st * st;
  const slope = n > 1 && denom !== 0 ? (n * stv - st * sum) / denom : 0;
  const span = n > 1 ? (lastT - firstT) / 60 : 0;
  const change = slope * span;
  return {
    series: seriesName(s.metric),
    labels: s.metric,
    samples: n,
    first: firstV === null ? null : round(firstV),
    last: lastV === null ? null : round(lastV),
    min: n ? round(min) : null,
    max: n ? round(max) : null,
    avg: n ? round(avg) : null,
    slope_per_minute: round(slope),
    change: round(change),
    trend: n > 1 ? classifyTrend(change, min, max) : 'flat',
    ...(n
      ? {
          first_at: iso(firstT * 1000),
          last_at: iso(lastT * 1000),
          min_at: iso(minT * 1000),
          max_at: iso(maxT * 1000),
        }
      : {}),
    ...(nonFinite ? { non_finite: nonFinite } : {}),
    points: pickPoints(s.values, points),
  };
}

/** `count` samples evenly spread over the series, first and last included. */
export function pickPoints(
  values: Array<[number, string]>,
  count: number,
): Array<[string, number]> {
  if (count <= 0 || values.length === 0) return [];
  const idx =
    count === 1
      ? [values.length - 1]
      : values.length <= count
        ? values.map((_, i) => i)
        : Array.from({ length: count }, (_, i) =>
            Math.round((i * (values.length - 1)) / (count - 1)),
          );
  return [...new Set(idx)].map((i) => {
    const [t, v] = values[i]!;
    return [iso(t * 1000), round(Number(v))];
  });
}

export type SortBy = 'max' | 'last' | 'avg' | 'change' | 'series';

/** Orders summaries: largest first for figures (nulls last), by name for `series`. */
export function sortSummaries(list: SeriesSummary[], by: SortBy): SeriesSummary[] {
  if (by === 'series') return [...list].sort((a, b) => a.series.localeCompare(b.series));
  const key = (s: SeriesSummary) => {
    const v = by === 'change' ? Math.abs(s.change) : s[by];
    return v === null || Number.isNaN(v) ? -Infinity : v;
  };
  return [...list].sort((a, b) => key(b) - key(a));
}
