/** Timestamps arrive as RFC 3339 strings (raw API JSON) or Date objects (client-node models). */
export function toDate(v: unknown): Date | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v;
  if (typeof v === 'string' && v) {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  return undefined;
}

/** kubectl's HumanDuration: `45s`, `5m30s`, `12m`, `3h12m`, `20h`, `2d5h`, `30d`, `2y40d`. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    const y = Math.floor(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** Age of a timestamp at `now` as kubectl prints it (`<unknown>` when there is none). */
export function age(ts: unknown, now: Date): string {
  const d = toDate(ts);
  return d ? humanDuration(now.getTime() - d.getTime()) : '<unknown>';
}
