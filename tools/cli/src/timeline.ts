/** One line of the report's timeline: an event, or a run of repeats of one. */
export interface TimelineLine {
  /** when it (the first of the run) happened */
  timestamp: string;
  event: string;
  /** how many times it happened (1: once) */
  count: number;
  /** when the last of the run happened (count > 1) */
  until?: string;
  /** a change (rollout, deploy, new revision or image) or the first error: never hidden */
  decisive: boolean;
}

export interface CondensedTimeline {
  lines: TimelineLine[];
  /** lines left out to stay within the limit (--json has them) */
  hidden: number;
}

const ROLLOUT =
  /\b(rollout|rolled out|roll(ed)? ?back|deploy(ed|ing|s)?|ScalingReplicaSet|revision \d+|new image|image (changed|updated|set)|upgraded?|helm|config(map)? (change|update)[ds]?)\b/i;
const ROLLOUT_REASONS = new Set(['ScalingReplicaSet', 'DeploymentRollback']);
const ERROR =
  /(error|fail|oom|crash|back-?off|killed|unhealthy|evict|exception|panic|timed? ?out|refused|denied|not ?ready|\b5\d\d\b)/i;
/** the engines' own summary of repeats: `… (x12, until 2026-01-01T00:15:00.000Z)` */
const REPEATS = /\s*\(x(\d+), until (\S+?)\)$/;
/** `Reason Kind/name: message`, the deterministic engine's form of a cluster event */
const REASON_OBJECT = /^(\S+) ([A-Za-z]+\/[^\s:]+):/;

/** A change: a rollout, a deploy, a new revision or image (judged on the message, not the kind). */
function isChange(event: string): boolean {
  const ro = REASON_OBJECT.exec(event);
  if (!ro) return ROLLOUT.test(event);
  return ROLLOUT_REASONS.has(ro[1]!) || ROLLOUT.test(event.slice(ro[0].length));
}

/** What makes two events "the same" in a terminal report. */
function groupKey(event: string): string {
  const ro = REASON_OBJECT.exec(event);
  if (ro) return `${ro[1]} ${ro[2]}`;
  return event
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, '<t>')
    .replace(/\d+(\.\d+)?/g, '#')
    .trim();
}

const time = (s: string): number => {
  const t = Date.parse(s);
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
};

/**
 * The timeline as a person reads it in a terminal: repeats of one event (same reason and object,
 * or the same text but for numbers) collapse into one line with a count and a time range; the
 * decisive events (rollouts and other changes, the first error) always stay; beyond `limit`
 * lines the earliest of the others are left out (and counted).
 */
export function condenseTimeline(
  events: { timestamp: string; event: string }[],
  limit = 15,
): CondensedTimeline {
  const ordered = events
    .map((e, i) => ({ ...e, i }))
    .sort((a, b) => time(a.timestamp) - time(b.timestamp) || a.i - b.i);
  const lines: TimelineLine[] = [];
  const runs = new Map<string, TimelineLine>();
  for (const e of ordered) {
    const rep = REPEATS.exec(e.event);
    const event = rep ? e.event.slice(0, rep.index) : e.event;
    const count = rep ? Number(rep[1]) : 1;
    const last = rep ? rep[2]! : e.timestamp;
    // a change is never merged with another: two rollouts are two facts
    if (isChange(event)) {
      lines.push({
        timestamp: e.timestamp,
        event,
        count,
        ...(count > 1 ? { until: last } : {}),
        decisive: true,
      });
      continue;
    }
    const key = groupKey(event);
    const run = runs.get(key);
    if (run) {
      run.count += count;
      if (!run.until || time(last) > time(run.until)) run.until = last;
      continue;
    }
    const line: TimelineLine = {
      timestamp: e.timestamp,
      event,
      count,
      ...(count > 1 ? { until: last } : {}),
      decisive: false,
    };
    runs.set(key, line);
    lines.push(line);
  }
  const firstError = lines.find((l) => !l.decisive && ERROR.test(l.event));
  if (firstError) firstError.decisive = true;
  if (lines.length <= limit) return { lines, hidden: 0 };
  const others = lines.filter((l) => !l.decisive);
  const room = Math.max(0, limit - (lines.length - others.length));
  const kept = new Set<TimelineLine>([
    ...lines.filter((l) => l.decisive),
    ...(room > 0 ? others.slice(-room) : []),
  ]);
  return { lines: lines.filter((l) => kept.has(l)), hidden: lines.length - kept.size };
}

/** `×14, 00:02:00–00:15:00` (dates too when the run spans days; `×14` when it has no length). */
export function repeatNote(line: TimelineLine): string {
  if (line.count <= 1) return '';
  if (!line.until) return `×${line.count}`;
  const a = new Date(Date.parse(line.timestamp));
  const b = new Date(Date.parse(line.until));
  if (Number.isNaN(a.getTime()) || Number.isNaN(b.getTime()))
    return `×${line.count}, until ${line.until}`;
  const sameDay = a.toISOString().slice(0, 10) === b.toISOString().slice(0, 10);
  const clock = (d: Date) => d.toISOString().slice(11, 19);
  // a source that gives only the last time (an event's count and last_seen) makes a run with no
  // length: the line's own time already says when, and `12:34:23–12:34:23` says nothing more
  if (sameDay && clock(a) === clock(b)) return `×${line.count}`;
  return `×${line.count}, ${clock(a)}–${sameDay ? clock(b) : b.toISOString().slice(0, 19)}`;
}
