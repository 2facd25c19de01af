import { badInput } from './tool-error';

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
};

const DURATION = /^(\d+(?:\.\d+)?(ms|s|m|h|d|w|y))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w|y)/g;

/**
 * A duration like Prometheus writes them (`30s`, `5m`, `1h30m`, `2d`), or a bare number of
 * seconds; undefined when it is neither.
 */
export function parseDurationMs(text: string): number | undefined {
  const s = text.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  if (!DURATION.test(s)) return undefined;
  let total = 0;
  for (const m of s.matchAll(PART)) total += Number(m[1]) * UNIT_MS[m[2]!]!;
  return total;
}

/**
 * A point in time as the tools accept it: `now`, `now-1h`, `now-15m`, `-1h` or `1h` (that long
 * ago), RFC 3339 (`2026-11-25T12:00:00Z`), or Unix seconds (number or numeric string).
 * Returns epoch milliseconds; a bad value is a 400 naming the parameter.
 */
export function parseTime(value: unknown, param: string, nowMs: number): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw badTime(param, String(value));
    return value * 1000;
  }
  if (typeof value !== 'string' || value.trim() === '') throw badTime(param, String(value));
  const s = value.trim();
  if (s === 'now') return nowMs;
  const rel = /^now\s*([-+])\s*(.+)$/.exec(s) ?? /^(-)\s*(.+)$/.exec(s);
  const relative = rel
    ? { sign: rel[1], text: rel[2]! }
    : DURATION.test(s)
      ? { sign: '-', text: s }
      : undefined;
  if (relative) {
    const ms = parseDurationMs(relative.text);
    if (ms === undefined) throw badTime(param, s);
    return relative.sign === '+' ? nowMs + ms : nowMs - ms;
  }
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  if (/^\d{4}-\d{2}-\d{2}/.test(s)) {
    const t = Date.parse(s);
    if (!Number.isNaN(t)) return t;
  }
  throw badTime(param, s);
}

function badTime(param: string, got: string) {
  return badInput(
    `${param}: cannot read "${got}" as a time; use now, now-1h, 30m (that long ago), RFC 3339 (2026-01-31T12:00:00Z) or Unix seconds`,
  );
}

/** A step/interval parameter: a duration or seconds; a bad value is a 400 naming the parameter. */
export function parseStepMs(value: unknown, param: string): number {
  const ms =
    typeof value === 'number'
      ? value * 1000
      : typeof value === 'string'
        ? parseDurationMs(value)
        : undefined;
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0)
    throw badInput(
      `${param}: cannot read "${String(value)}" as a duration; use 15s, 1m, 5m or seconds`,
    );
  return ms;
}

/** `3600000` -> `1h`, `90000` -> `1m30s`: how durations appear in answers. */
export function formatDuration(ms: number): string {
  if (ms > 0 && ms < 1000) return `${ms}ms`;
  let rest = Math.round(ms / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join('') || '0s';
}

export const iso = (ms: number) => new Date(ms).toISOString();
