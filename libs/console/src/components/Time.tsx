let rtf: Intl.RelativeTimeFormat | undefined;

/** "3 min ago" / "in 2 h" for an instant, relative to `now`. */
export function relativeTime(iso: string | Date, now: number = Date.now()): string {
  const t = typeof iso === 'string' ? Date.parse(iso) : iso.getTime();
  if (Number.isNaN(t)) return String(iso);
  const s = Math.round((t - now) / 1000);
  const abs = Math.abs(s);
  const fmt = (rtf ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }));
  if (abs < 45) return fmt.format(s, 'second');
  if (abs < 45 * 60) return fmt.format(Math.round(s / 60), 'minute');
  if (abs < 22 * 3600) return fmt.format(Math.round(s / 3600), 'hour');
  if (abs < 26 * 86400) return fmt.format(Math.round(s / 86400), 'day');
  return new Date(t).toLocaleDateString();
}

/** A point in time: relative text, the exact ISO instant as title and datetime. */
export function Time(props: { value: string | undefined | null }) {
  if (!props.value) return <span className="muted">—</span>;
  const d = new Date(props.value);
  const iso = Number.isNaN(d.getTime()) ? props.value : d.toISOString();
  return (
    <time dateTime={iso} title={iso}>
      {relativeTime(props.value)}
    </time>
  );
}
