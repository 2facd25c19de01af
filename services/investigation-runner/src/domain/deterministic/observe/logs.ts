import { parseTime, type LogLine } from './views';

export function looksLikeLog(t: string): boolean {
  return /^\s*(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|[IWEF]\d{4} \d{2}:\d{2}|\{"(ts|time|level|msg|timestamp)"|time=|level=|\[\w+\])/m.test(
    t,
  );
}

const LEVEL_RE =
  /\b(ERROR|ERR|FATAL|CRITICAL|PANIC|SEVERE)\b|\[(?:alert|crit|emerg)\]|"level"\s*:\s*"(error|fatal|critical|panic)"|level=(error|fatal|crit|panic)|^\s*panic:|^\s*Traceback|Exception\b|^\s*[EF]\d{4} |\bfatal\b|\bfailed\b|\bcannot\b|\bunable to\b/i;
/** the short level names, upper case only: "crt" in apiserver.crt or an "alert" word is none */
const SHORT_LEVEL_RE = /\b(FTL|CRIT|CRT|PNC|EMERG|ALERT)\b/;
const WARN_RE = /\b(WARN|WARNING|WRN)\b|"level"\s*:\s*"warn(ing)?"|level=warn|^\s*W\d{4} /i;

export function parseLogLine(raw: string): LogLine {
  const text = raw.replace(/\s+$/, '').slice(0, 2000);
  let at: number | undefined;
  const iso = /(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)/.exec(
    text.slice(0, 80),
  );
  if (iso?.[1])
    at = parseTime(iso[1].replace(' ', 'T').replace(/(\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/, '$1Z'));
  const level =
    LEVEL_RE.test(text) || SHORT_LEVEL_RE.test(text)
      ? 'error'
      : WARN_RE.test(text)
        ? 'warn'
        : undefined;
  return { at, level, text };
}
