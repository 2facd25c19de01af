// Pure helpers of the investigation pages (no React): evidence grouping, timeline marks,
// the running-poll decision. Tested in investigation-view.spec.ts.

export interface TimelineEntry {
  timestamp: string;
  event: string;
}

export type TimelineKind = 'change' | 'error' | 'other';

export interface TimelinePoint extends TimelineEntry {
  at: number;
  kind: TimelineKind;
  /** 0..1 along the axis */
  x: number;
}

export interface TimelinePicture {
  points: TimelinePoint[];
  from: number;
  to: number;
  /** index into points of the first error, if any */
  firstError?: number;
  /** index into points of the last change at or before the first error, if any */
  changeBefore?: number;
}

// what the engine writes (services/investigation-runner/.../conclude.ts timeline()):
// "rollout: ReplicaSet x created (image)", "rollout: <workload> revision N (image)",
// "ScalingReplicaSet Deployment/x: ...", "log <workload>: <error line>",
// "<Reason> <Kind>/<name>: <message>" for warning events (BackOff, Failed, OOMKilling, Unhealthy...)
const CHANGE =
  /^rollout:|^ScalingReplicaSet\b|\b(deploy(ed|ment rolled)|rolled out|image (changed|updated)|config(map)? (changed|updated)|scaled)\b/i;
const ERROR =
  /^log\b|\b(BackOff|CrashLoopBackOff|Failed\w*|Error\w*|OOM\w*|Unhealthy|Evict\w*|Killing|NodeNotReady|exception|panic|fatal|timeout|refused|5\d\d)\b/i;

export function classifyTimelineEvent(event: string): TimelineKind {
  if (CHANGE.test(event)) return 'change';
  if (ERROR.test(event)) return 'error';
  return 'other';
}

/** Places timeline entries on a time axis and marks the first error and the change before it. */
export function timelinePicture(entries: TimelineEntry[]): TimelinePicture {
  const parsed = entries
    .map((e) => ({ ...e, at: Date.parse(e.timestamp), kind: classifyTimelineEvent(e.event) }))
    .filter((e) => Number.isFinite(e.at))
    .sort((a, b) => a.at - b.at);
  if (parsed.length === 0) return { points: [], from: 0, to: 0 };
  const from = parsed[0]!.at;
  const to = parsed[parsed.length - 1]!.at;
  const span = to - from;
  const points = parsed.map((e) => ({ ...e, x: span > 0 ? (e.at - from) / span : 0.5 }));
  const firstError = points.findIndex((p) => p.kind === 'error');
  const out: TimelinePicture = { points, from, to };
  if (firstError >= 0) {
    out.firstError = firstError;
    for (let i = firstError - 1; i >= 0; i--)
      if (points[i]!.kind === 'change' && points[i]!.at <= points[firstError]!.at) {
        out.changeBefore = i;
        break;
      }
  }
  return out;
}

export interface EvidenceGroup {
  tool: string;
  items: string[];
}

/**
 * Evidence lines are "<tool>: <fact>" (the engine quotes its source, e.g. "k8s:get_events: ...",
 * "learned_patterns: ...", "read-only: ..."): grouped by tool in order of first appearance.
 * "<n> tool call(s): ..." lines go to "summary", lines without a source to "other".
 */
export function groupEvidence(evidence: string[]): EvidenceGroup[] {
  const groups = new Map<string, string[]>();
  const add = (tool: string, item: string) => {
    const list = groups.get(tool) ?? [];
    list.push(item);
    groups.set(tool, list);
  };
  for (const line of evidence) {
    if (/^\d+ tool call\(s\): /.test(line)) {
      add('summary', line);
      continue;
    }
    const m = /^([A-Za-z0-9_.-]+(?::[A-Za-z0-9_./-]+)*): ([\s\S]+)$/.exec(line);
    if (m) add(m[1]!, m[2]!);
    else add('other', line);
  }
  return [...groups].map(([tool, items]) => ({ tool, items }));
}

export type Priority = 'high' | 'medium' | 'low';

/** Recommendations grouped high, medium, low (each group in the order given). */
export function byPriority<T extends { priority: Priority }>(recs: T[]): [Priority, T[]][] {
  const order: Priority[] = ['high', 'medium', 'low'];
  return order
    .map((p) => [p, recs.filter((r) => r.priority === p)] as [Priority, T[]])
    .filter(([, list]) => list.length > 0);
}

export function isActive(status: string): boolean {
  return status === 'pending' || status === 'running';
}

/** Auto-refresh period of the list: every 5 s while a loaded row runs, slower with many pages. */
export function listRefreshMs(statuses: string[], pages: number): number | false {
  if (!statuses.some(isActive)) return false;
  return Math.max(5_000, pages * 1_500);
}

/** "1 h 2 min", "3 min 4 s", "12 s". */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
