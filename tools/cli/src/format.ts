import type {
  AuditEntry,
  ChangeRequest,
  Investigation,
  InvestigationListItem,
  RunInvestigationSyncResponse,
} from '@inquest/client';
import type { Style } from './style';
import { condenseTimeline, repeatNote } from './timeline';

const TIMELINE_LINES = 15;

/** Renders rows as aligned columns; the last column is not padded. */
export function table(headers: string[], rows: string[][], style: Style): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [style.bold(line(headers)), ...rows.map(line)].join('\n');
}

export function truncate(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export function colourStatus(status: string, style: Style): string {
  switch (status) {
    case 'completed':
    case 'indexed':
    case 'approved':
      return style.green(status);
    case 'failed':
    case 'rejected':
      return style.red(status);
    case 'cancelled':
      return style.yellow(status);
    default:
      return style.cyan(status);
  }
}

function seconds(inv: { duration_seconds?: number; elapsed_seconds?: number }): string {
  const s = inv.duration_seconds ?? inv.elapsed_seconds;
  return s === undefined ? '' : ` in ${s.toFixed(1)} s`;
}

/** The human report of an investigation: status line, root cause, timeline, recommendations. */
export function investigationReport(
  inv: Investigation | (RunInvestigationSyncResponse & { agent?: string; message?: string }),
  style: Style,
): string {
  const out: string[] = [];
  const mark =
    inv.status === 'completed' ? style.green('✔') : inv.status === 'failed' ? style.red('✖') : '•';
  out.push(
    `${mark} ${style.bold(inv.investigation_id)} ${colourStatus(inv.status, style)}${inv.agent ? ` · ${inv.agent}` : ''}${seconds(inv)}`,
  );
  if (inv.message) out.push(`  ${style.dim('request:')} ${inv.message}`);
  if ('progress' in inv && inv.progress && (inv.status === 'running' || inv.status === 'pending')) {
    const p = inv.progress;
    out.push(`  ${style.dim('step:')} ${p.current_step} (${p.steps_completed}/${p.steps_total})`);
  }
  if (inv.error) {
    out.push('', style.red(`Error ${inv.error.code}: ${inv.error.message}`));
  }
  const r = inv.result;
  if (r) {
    if (r.summary) out.push('', style.bold('Summary'), `  ${r.summary}`);
    if (r.root_cause) {
      const conf = Number.isFinite(r.root_cause.confidence)
        ? ` (confidence ${Math.round(r.root_cause.confidence)}%)`
        : '';
      out.push('', style.bold(`Root cause${conf}`), `  ${r.root_cause.description}`);
      for (const e of r.root_cause.evidence ?? []) out.push(`  ${style.dim('-')} ${e}`);
    }
    if (r.timeline?.length) {
      // Repeats collapse into one line; rollouts and the first error always show; --json has
      // the whole timeline.
      const { lines, hidden } = condenseTimeline(r.timeline, TIMELINE_LINES);
      out.push('', style.bold('Timeline'));
      if (hidden > 0)
        out.push(style.dim(`  … ${hidden} earlier line(s) left out; --json shows all`));
      for (const t of lines) {
        const note = repeatNote(t);
        out.push(
          `  ${style.dim(t.timestamp)}  ${t.event}${note ? `  ${style.dim(`(${note})`)}` : ''}`,
        );
      }
    }
    if (r.affected_systems?.length)
      out.push('', `${style.bold('Affected systems:')} ${r.affected_systems.join(', ')}`);
    if (r.recommendations?.length) {
      out.push('', style.bold('Recommendations'));
      for (const rec of r.recommendations) {
        const tag =
          rec.priority === 'high'
            ? style.red(rec.priority)
            : rec.priority === 'medium'
              ? style.yellow(rec.priority)
              : rec.priority;
        out.push(`  [${tag}] ${rec.action}`);
      }
    }
  }
  if (inv.tools_used?.length)
    out.push('', `${style.dim('Tools used:')} ${inv.tools_used.join(', ')}`);
  return out.join('\n');
}

export function investigationsTable(items: InvestigationListItem[], style: Style): string {
  return table(
    ['ID', 'STATUS', 'AGENT', 'CREATED', 'MESSAGE'],
    items.map((i) => [
      i.investigation_id,
      i.status,
      i.agent,
      i.created_at,
      truncate(i.message, 60),
    ]),
    style,
  );
}

export function auditTable(entries: AuditEntry[], style: Style): string {
  return table(
    ['VERSION', 'CHANGED AT', 'CHANGED BY', 'LEVEL', 'FIELDS'],
    entries.map((e) => [
      String(e.version),
      e.changed_at,
      e.changed_by,
      e.level ? `${e.level} ${e.node_id}` : '',
      Object.keys(e.diff ?? {}).join(', '),
    ]),
    style,
  );
}

export function changeRequestsTable(
  crs: Pick<ChangeRequest, 'change_request_id' | 'status' | 'requested_by' | 'changes'>[],
  style: Style,
): string {
  return table(
    ['ID', 'STATUS', 'REQUESTED BY', 'FIELDS'],
    crs.map((c) => [
      c.change_request_id,
      c.status,
      c.requested_by ?? '',
      Object.keys(c.changes ?? {}).join(', '),
    ]),
    style,
  );
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
