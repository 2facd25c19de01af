import {
  round,
  seriesName,
  sortSummaries,
  summarizeSeries,
  type MatrixSeries,
  type SortBy,
} from './series-summary';
import { formatDuration, iso, parseStepMs, parseTime } from './time-range';
import { badInput, ToolError } from './tool-error';
import type { UpstreamApi } from './upstream';

/** A tool definition as the tool-server contract lists it (MCP annotations included). */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
    additionalProperties: false;
  };
  annotations: { title: string; readOnlyHint: true; destructiveHint: false; openWorldHint: true };
  /** every tool here only reads */
  read_only: true;
}

/** Bounds that keep answers small and Prometheus unharmed. */
export interface ToolLimits {
  /** most samples per series a range query asks for; a finer step is raised and the answer says so */
  maxPointsPerSeries: number;
  /** longest range (end - start) a range, series or label call may cover */
  maxRangeMs: number;
  /** Prometheus's own evaluation timeout for a query, seconds */
  queryTimeoutSeconds: number;
}

export const DEFAULT_LIMITS: ToolLimits = {
  maxPointsPerSeries: 1_100,
  maxRangeMs: 31 * 86_400_000,
  queryTimeoutSeconds: 20,
};

export interface ToolContext {
  prometheus: UpstreamApi;
  /** absent when no Alertmanager is configured (its tools are then not listed) */
  alertmanager?: UpstreamApi;
  limits: ToolLimits;
  nowMs: number;
  signal?: AbortSignal;
}

type Params = Record<string, unknown>;
type Handler = (ctx: ToolContext, p: Params) => Promise<Record<string, unknown>>;
type Tool = ToolDefinition & { handler: Handler; needs: 'prometheus' | 'alertmanager' };

const str = (description: string, extra: Record<string, unknown> = {}) => ({
  type: 'string',
  description,
  ...extra,
});
const int = (description: string, minimum: number, maximum: number, def: number) => ({
  type: 'integer',
  description: `${description} (default ${def}, at most ${maximum})`,
  minimum,
  maximum,
  default: def,
});
const TIME_HELP =
  'now, now-1h, 30m (that long ago), RFC 3339 (2026-01-31T12:00:00Z) or Unix seconds';
const time = (description: string) => ({
  type: ['string', 'number'],
  description: `${description}: ${TIME_HELP}`,
});
const MATCH = {
  type: ['string', 'array'],
  items: { type: 'string' },
  description:
    'series selector(s), e.g. up{job="node"} or ["node_load1", "{__name__=~\\"http_.*\\"}"]',
};
const MATCHERS = {
  type: ['string', 'array'],
  items: { type: 'string' },
  description:
    'label matchers, e.g. ["alertname=\\"HighLatency\\"", "severity=~\\"critical|page\\""] or {service="checkout",env="prod"}',
};

const annotations = (title: string) =>
  ({ title, readOnlyHint: true, destructiveHint: false, openWorldHint: true }) as const;

const asList = (v: unknown): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)];
const limitOf = (p: Params, def: number) => (typeof p['limit'] === 'number' ? p['limit'] : def);

/** `{a="b",c=~"d"}` or `a="b", c=~"d"` -> one matcher per entry (commas inside quotes kept). */
export function splitMatchers(v: unknown): string[] {
  const out: string[] = [];
  for (const item of asList(v)) {
    const inner = item.trim().replace(/^\{/, '').replace(/\}$/, '');
    const parts = inner.match(/(?:[^,"]|"(?:\\.|[^"\\])*")+/g) ?? [];
    for (const part of parts) if (part.trim()) out.push(part.trim());
  }
  return out;
}

function promData(body: unknown): unknown {
  const b = body as { status?: unknown; data?: unknown } | null;
  if (b?.status !== 'success')
    throw new ToolError(502, 'Prometheus answered without status success');
  return b.data;
}

function rangeOf(ctx: ToolContext, p: Params, defStart: string) {
  const start = parseTime(p['start'] ?? defStart, 'start', ctx.nowMs);
  const end = parseTime(p['end'] ?? 'now', 'end', ctx.nowMs);
  if (start >= end) throw badInput(`start (${iso(start)}) must be before end (${iso(end)})`);
  if (end - start > ctx.limits.maxRangeMs)
    throw badInput(
      `the range ${formatDuration(end - start)} is longer than the limit ${formatDuration(ctx.limits.maxRangeMs)}: shorten it`,
    );
  return { start, end };
}

const secs = (ms: number) => String(ms / 1000);

async function prom(
  ctx: ToolContext,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string | string[] | undefined> = {},
) {
  return promData(
    await ctx.prometheus.call({
      method,
      path,
      params,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    }),
  );
}

function am(ctx: ToolContext): UpstreamApi {
  if (!ctx.alertmanager)
    throw new ToolError(404, 'no Alertmanager is configured for this tool server');
  return ctx.alertmanager;
}

const query = str('PromQL expression, e.g. rate(http_requests_total{service="checkout"}[5m])', {
  minLength: 1,
  maxLength: 20_000,
});

export const TOOLS: Tool[] = [
  {
    name: 'prometheus_query',
    description:
      'Run an instant PromQL query on Prometheus: the current value (or the value at `time`) of every matching series, e.g. up == 0, or sum by (service) (rate(http_requests_total{code=~"5.."}[5m])). A range selector (metric[5m]) is summarized per series.',
    parameters: {
      type: 'object',
      properties: {
        query,
        time: time('evaluation time (default now)'),
        limit: int('most series in the answer', 1, 1000, 100),
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: annotations('Prometheus instant query'),
    read_only: true,
    needs: 'prometheus',
    handler: async (ctx, p) => {
      const at = p['time'] === undefined ? ctx.nowMs : parseTime(p['time'], 'time', ctx.nowMs);
      const data = (await prom(ctx, 'POST', '/api/v1/query', {
        query: String(p['query']),
        time: secs(at),
        timeout: `${ctx.limits.queryTimeoutSeconds}s`,
      })) as { resultType: string; result: unknown };
      const limit = limitOf(p, 100);
      const base = { query: p['query'], time: iso(at), result_type: data.resultType };
      if (data.resultType === 'scalar' || data.resultType === 'string') {
        const [t, v] = data.result as [number, string];
        return {
          ...base,
          value: data.resultType === 'scalar' ? round(Number(v)) : v,
          at: iso(t * 1000),
        };
      }
      if (data.resultType === 'matrix') {
        const all = data.result as MatrixSeries[];
        return {
          ...base,
          series_total: all.length,
          truncated: all.length > limit,
          series: all.slice(0, limit).map((s) => summarizeSeries(s, 5)),
        };
      }
      const vector = data.result as Array<{
        metric: Record<string, string>;
        value: [number, string];
      }>;
      return {
        ...base,
        result_total: vector.length,
        truncated: vector.length > limit,
        ...(vector.length > limit
          ? {
              note: `showing ${limit} of ${vector.length} series: aggregate (sum by, topk) or add label matchers`,
            }
          : {}),
        result: vector.slice(0, limit).map((s) => ({
          series: seriesName(s.metric),
          labels: s.metric,
          value: round(Number(s.value[1])),
        })),
      };
    },
  },
  {
    name: 'prometheus_query_range',
    description:
      'Run a PromQL range query over a time window and get each series summarized (first, last, min, max, avg, trend rising/falling/flat with slope per minute, and a few sample points), never thousands of raw samples. Use it to see how a metric (error rate, latency, memory, CPU) moved before and during an incident.',
    parameters: {
      type: 'object',
      properties: {
        query,
        start: time('window start (default now-1h)'),
        end: time('window end (default now)'),
        step: {
          type: ['string', 'number'],
          description:
            'resolution, e.g. 15s, 1m (default: the window / 250); raised when the window would need too many points, and the answer says so',
        },
        points: int('sample points kept per series, evenly spread', 0, 60, 10),
        max_series: int('most series in the answer', 1, 500, 50),
        sort_by: {
          type: 'string',
          enum: ['max', 'last', 'avg', 'change', 'series'],
          description:
            'order of the series: largest max/last/avg/|change| first, or by name (default max)',
          default: 'max',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: annotations('Prometheus range query (summarized)'),
    read_only: true,
    needs: 'prometheus',
    handler: async (ctx, p) => {
      const { start, end } = rangeOf(ctx, p, 'now-1h');
      const span = end - start;
      const maxPoints = ctx.limits.maxPointsPerSeries;
      const notes: string[] = [];
      let step =
        p['step'] === undefined
          ? Math.max(1000, Math.ceil(span / 250 / 1000) * 1000)
          : parseStepMs(p['step'], 'step');
      if (span / step + 1 > maxPoints) {
        const raised = Math.ceil(span / (maxPoints - 1) / 1000) * 1000;
        notes.push(
          `step raised from ${formatDuration(step)} to ${formatDuration(raised)}: ${formatDuration(span)} at ${formatDuration(step)} would be ${Math.floor(span / step) + 1} points per series, the limit is ${maxPoints}`,
        );
        step = raised;
      }
      const data = (await prom(ctx, 'POST', '/api/v1/query_range', {
        query: String(p['query']),
        start: secs(start),
        end: secs(end),
        step: secs(step),
        timeout: `${ctx.limits.queryTimeoutSeconds}s`,
      })) as { resultType: string; result: MatrixSeries[] };
      const points = typeof p['points'] === 'number' ? p['points'] : 10;
      const maxSeries = typeof p['max_series'] === 'number' ? p['max_series'] : 50;
      const all = sortSummaries(
        data.result.map((s) => summarizeSeries(s, points)),
        (p['sort_by'] as SortBy | undefined) ?? 'max',
      );
      if (all.length > maxSeries)
        notes.push(
          `showing ${maxSeries} of ${all.length} series: aggregate (sum by, topk) or add label matchers`,
        );
      if (all.length === 0) notes.push('no series matched in this window');
      const trends = { rising: 0, falling: 0, flat: 0 };
      for (const s of all) trends[s.trend]++;
      return {
        query: p['query'],
        start: iso(start),
        end: iso(end),
        step: formatDuration(step),
        series_total: all.length,
        truncated: all.length > maxSeries,
        trends,
        ...(notes.length ? { notes } : {}),
        series: all.slice(0, maxSeries),
      };
    },
  },
  {
    name: 'prometheus_alerts',
    description:
      'List the alerts Prometheus is evaluating right now (firing and pending) with labels, annotations, since when they are active and their value. Filter by state, alertname, severity or labels.',
    parameters: {
      type: 'object',
      properties: {
        state: str('firing or pending (default both)', { enum: ['firing', 'pending'] }),
        alertname: str('only this alert name'),
        severity: str('only alerts with this severity label'),
        labels: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description:
            'only alerts whose labels have these exact values, e.g. {"namespace": "shop"}',
        },
        limit: int('most alerts in the answer', 1, 1000, 200),
      },
      additionalProperties: false,
    },
    annotations: annotations('Prometheus alerts'),
    read_only: true,
    needs: 'prometheus',
    handler: async (ctx, p) => {
      const data = (await prom(ctx, 'GET', '/api/v1/alerts')) as {
        alerts: Array<{
          labels: Record<string, string>;
          annotations: Record<string, string>;
          state: string;
          activeAt?: string;
          value?: string;
        }>;
      };
      const want: Record<string, string> = {
        ...((p['labels'] as Record<string, string> | undefined) ?? {}),
        ...(p['alertname'] ? { alertname: String(p['alertname']) } : {}),
        ...(p['severity'] ? { severity: String(p['severity']) } : {}),
      };
      const alerts = data.alerts
        .filter((a) => !p['state'] || a.state === p['state'])
        .filter((a) => Object.entries(want).every(([k, v]) => a.labels[k] === v))
        .sort((a, b) => (a.state === b.state ? 0 : a.state === 'firing' ? -1 : 1));
      const limit = limitOf(p, 200);
      return {
        total: alerts.length,
        firing: alerts.filter((a) => a.state === 'firing').length,
        pending: alerts.filter((a) => a.state === 'pending').length,
        truncated: alerts.length > limit,
        alerts: alerts.slice(0, limit).map((a) => ({
          alertname: a.labels['alertname'],
          state: a.state,
          labels: a.labels,
          annotations: a.annotations,
          active_at: a.activeAt,
          value: a.value === undefined ? undefined : round(Number(a.value)),
        })),
      };
    },
  },
  {
    name: 'prometheus_rules',
    description:
      'List Prometheus alerting and recording rules with their state (firing/pending/inactive), health and last evaluation error, expression, for-duration, labels and annotations. Filter by type, state, health or a name fragment.',
    parameters: {
      type: 'object',
      properties: {
        type: str('alert or record (default both)', { enum: ['alert', 'record'] }),
        state: str('alerting rules in this state', { enum: ['firing', 'pending', 'inactive'] }),
        health: str('rules with this health (err: the rule fails to evaluate)', {
          enum: ['ok', 'err', 'unknown'],
        }),
        name: str('fragment of the rule or group name (case-insensitive)'),
        limit: int('most rules in the answer', 1, 2000, 200),
      },
      additionalProperties: false,
    },
    annotations: annotations('Prometheus rules'),
    read_only: true,
    needs: 'prometheus',
    handler: async (ctx, p) => {
      const data = (await prom(ctx, 'GET', '/api/v1/rules', {
        ...(p['type'] ? { type: String(p['type']) } : {}),
      })) as {
        groups: Array<{
          name: string;
          file: string;
          interval?: number;
          rules: Array<Record<string, unknown>>;
        }>;
      };
      const frag = typeof p['name'] === 'string' ? p['name'].toLowerCase() : undefined;
      const rules = data.groups.flatMap((g) =>
        g.rules.map((r) => ({
          group: g.name,
          file: g.file,
          name: r['name'] as string,
          type: r['type'] === 'alerting' ? 'alert' : 'record',
          query: r['query'],
          ...(r['type'] === 'alerting'
            ? {
                state: r['state'],
                for: formatDuration(Number(r['duration'] ?? 0) * 1000),
                active_alerts: Array.isArray(r['alerts']) ? r['alerts'].length : 0,
                annotations: r['annotations'],
              }
            : {}),
          labels: r['labels'] ?? {},
          health: r['health'],
          ...(r['lastError'] ? { last_error: r['lastError'] } : {}),
          last_evaluation: r['lastEvaluation'],
          evaluation_ms: round(Number(r['evaluationTime'] ?? 0) * 1000),
        })),
      );
      const selected = rules
        .filter((r) => !p['state'] || r.state === p['state'])
        .filter((r) => !p['health'] || r.health === p['health'])
        .filter(
          (r) =>
            !frag || r.name.toLowerCase().includes(frag) || r.group.toLowerCase().includes(frag),
        );
      const limit = limitOf(p, 200);
      return {
        total: selected.length,
        firing: selected.filter((r) => r.state === 'firing').length,
        pending: selected.filter((r) => r.state === 'pending').length,
        unhealthy: selected.filter((r) => r.health === 'err').length,
        truncated: selected.length > limit,
        rules: selected.slice(0, limit),
      };
    },
  },
  {
    name: 'prometheus_targets',
    description:
      'List Prometheus scrape targets and their health (up/down), last scrape error, last scrape time and duration, per job, down targets first. Use it when metrics are missing or a service looks down.',
    parameters: {
      type: 'object',
      properties: {
        job: str('only this scrape job'),
        health: str('only targets with this health', { enum: ['up', 'down', 'unknown'] }),
        limit: int('most targets in the answer', 1, 2000, 200),
      },
      additionalProperties: false,
    },
    annotations: annotations('Prometheus scrape targets'),
    read_only: true,
    needs: 'prometheus',
    handler: async (ctx, p) => {
      const data = (await prom(ctx, 'GET', '/api/v1/targets', { state: 'active' })) as {
        activeTargets: Array<{
          labels: Record<string, string>;
          scrapePool: string;
          scrapeUrl: string;
          lastError: string;
          lastScrape: string;
          lastScrapeDuration: number;
          health: string;
          scrapeInterval?: string;
        }>;
      };
      const jobs = new Map<string, { job: string; up: number; down: number; unknown: number }>();
      const targets = data.activeTargets
        .map((t) => ({
          job: t.labels['job'] ?? t.scrapePool,
          instance: t.labels['instance'],
          health: t.health,
          ...(t.lastError ? { last_error: t.lastError } : {}),
          last_scrape: t.lastScrape,
          last_scrape_duration_ms: round(t.lastScrapeDuration * 1000),
          scrape_interval: t.scrapeInterval,
          scrape_url: t.scrapeUrl,
          labels: t.labels,
        }))
        .filter((t) => !p['job'] || t.job === p['job']);
      for (const t of targets) {
        const j = jobs.get(t.job) ?? { job: t.job, up: 0, down: 0, unknown: 0 };
        if (t.health === 'up' || t.health === 'down') j[t.health]++;
        else j.unknown++;
        jobs.set(t.job, j);
      }
      const rank = (h: string) => (h === 'down' ? 0 : h === 'unknown' ? 1 : 2);
      const selected = targets
        .filter((t) => !p['health'] || t.health === p['health'])
        .sort((a, b) => rank(a.health) - rank(b.health) || a.job.localeCompare(b.job));
      const limit = limitOf(p, 200);
      return {
        total: selected.length,
        jobs: [...jobs.values()],
        truncated: selected.length > limit,
        targets: selected.slice(0, limit),
      };
    },
  },
  {
    name: 'prometheus_series',
    description:
      'Find the series (metric name and labels) that match selectors in a time window, e.g. to learn which labels a metric carries or which instances report it.',
    parameters: {
      type: 'object',
      properties: {
        match: MATCH,
        start: time('window start (default now-1h)'),
        end: time('window end (default now)'),
        limit: int('most series in the answer', 1, 1000, 100),
      },
      required: ['match'],
      additionalProperties: false,
    },
    annotations: annotations('Prometheus series lookup'),
    read_only: true,
    needs: 'prometheus',
    handler: async (ctx, p) => {
      const match = asList(p['match']).filter((m) => m.trim());
      if (!match.length)
        throw badInput('match: give at least one series selector, e.g. up{job="node"}');
      const { start, end } = rangeOf(ctx, p, 'now-1h');
      const data = (await prom(ctx, 'POST', '/api/v1/series', {
        'match[]': match,
        start: secs(start),
        end: secs(end),
      })) as Array<Record<string, string>>;
      const limit = limitOf(p, 100);
      const names = data.map(seriesName).sort();
      return {
        match,
        total: names.length,
        truncated: names.length > limit,
        series: names.slice(0, limit),
      };
    },
  },
  {
    name: 'prometheus_label_names',
    description:
      'List label names known to Prometheus in a time window, optionally only those of series matching selectors (e.g. match: http_requests_total).',
    parameters: {
      type: 'object',
      properties: {
        match: MATCH,
        start: time('window start (default now-1h)'),
        end: time('window end (default now)'),
      },
      additionalProperties: false,
    },
    annotations: annotations('Prometheus label names'),
    read_only: true,
    needs: 'prometheus',
    handler: async (ctx, p) => {
      const { start, end } = rangeOf(ctx, p, 'now-1h');
      const match = asList(p['match']).filter((m) => m.trim());
      const data = (await prom(ctx, 'POST', '/api/v1/labels', {
        ...(match.length ? { 'match[]': match } : {}),
        start: secs(start),
        end: secs(end),
      })) as string[];
      return { total: data.length, labels: data };
    },
  },
  {
    name: 'prometheus_label_values',
    description:
      'List the values of one label in a time window (e.g. label "job", "namespace", "service", "instance" or "__name__" for metric names), optionally only on series matching selectors.',
    parameters: {
      type: 'object',
      properties: {
        label: str('label name, e.g. job, namespace, __name__', {
          pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$',
        }),
        match: MATCH,
        start: time('window start (default now-1h)'),
        end: time('window end (default now)'),
        limit: int('most values in the answer', 1, 5000, 500),
      },
      required: ['label'],
      additionalProperties: false,
    },
    annotations: annotations('Prometheus label values'),
    read_only: true,
    needs: 'prometheus',
    handler: async (ctx, p) => {
      const label = String(p['label']);
      if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(label))
        throw badInput(`label: "${label}" is not a label name (letters, digits, _)`);
      const { start, end } = rangeOf(ctx, p, 'now-1h');
      const match = asList(p['match']).filter((m) => m.trim());
      const data = (await prom(ctx, 'GET', `/api/v1/label/${label}/values`, {
        ...(match.length ? { 'match[]': match } : {}),
        start: secs(start),
        end: secs(end),
      })) as string[];
      const limit = limitOf(p, 500);
      return {
        label,
        total: data.length,
        truncated: data.length > limit,
        values: data.slice(0, limit),
      };
    },
  },
  {
    name: 'alertmanager_alerts',
    description:
      'List the alerts Alertmanager holds: active, silenced (with the silence ids) and inhibited (with the inhibiting alerts), with labels, annotations, start and receivers. Filter by label matchers such as alertname="HighErrorRate" or service=~"checkout.*".',
    parameters: {
      type: 'object',
      properties: {
        filter: MATCHERS,
        active: {
          type: 'boolean',
          description: 'include active alerts (default true)',
          default: true,
        },
        silenced: {
          type: 'boolean',
          description: 'include silenced alerts (default true)',
          default: true,
        },
        inhibited: {
          type: 'boolean',
          description: 'include inhibited alerts (default true)',
          default: true,
        },
        receiver: str('only alerts routed to receivers matching this regex'),
        limit: int('most alerts in the answer', 1, 1000, 200),
      },
      additionalProperties: false,
    },
    annotations: annotations('Alertmanager alerts'),
    read_only: true,
    needs: 'alertmanager',
    handler: async (ctx, p) => {
      const bool = (k: string) => String(p[k] !== false);
      const list = (await am(ctx).call({
        method: 'GET',
        path: '/api/v2/alerts',
        params: {
          filter: splitMatchers(p['filter']),
          active: bool('active'),
          silenced: bool('silenced'),
          inhibited: bool('inhibited'),
          ...(p['receiver'] ? { receiver: String(p['receiver']) } : {}),
        },
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      })) as Array<{
        labels: Record<string, string>;
        annotations: Record<string, string>;
        status: { state: string; silencedBy: string[]; inhibitedBy: string[] };
        startsAt: string;
        endsAt: string;
        updatedAt: string;
        receivers: Array<{ name: string }>;
        fingerprint: string;
        generatorURL?: string;
      }>;
      const alerts = list.map((a) => ({
        alertname: a.labels['alertname'],
        state:
          a.status.state === 'suppressed'
            ? a.status.silencedBy.length
              ? 'silenced'
              : 'inhibited'
            : a.status.state,
        labels: a.labels,
        annotations: a.annotations,
        silenced_by: a.status.silencedBy,
        inhibited_by: a.status.inhibitedBy,
        starts_at: a.startsAt,
        ends_at: a.endsAt,
        updated_at: a.updatedAt,
        receivers: a.receivers.map((r) => r.name),
        fingerprint: a.fingerprint,
        ...(a.generatorURL ? { generator_url: a.generatorURL } : {}),
      }));
      const count = (s: string) => alerts.filter((a) => a.state === s).length;
      const limit = limitOf(p, 200);
      return {
        total: alerts.length,
        active: count('active'),
        silenced: count('silenced'),
        inhibited: count('inhibited'),
        truncated: alerts.length > limit,
        alerts: alerts.slice(0, limit),
      };
    },
  },
  {
    name: 'alertmanager_silences',
    description:
      'List Alertmanager silences (read only): who silenced what, why, matchers, and from when to when. Default: current silences (active and pending). Filter by label matchers.',
    parameters: {
      type: 'object',
      properties: {
        state: str('current = active + pending (default), or one state, or all', {
          enum: ['current', 'active', 'pending', 'expired', 'all'],
          default: 'current',
        }),
        filter: MATCHERS,
        limit: int('most silences in the answer', 1, 1000, 100),
      },
      additionalProperties: false,
    },
    annotations: annotations('Alertmanager silences'),
    read_only: true,
    needs: 'alertmanager',
    handler: async (ctx, p) => {
      const list = (await am(ctx).call({
        method: 'GET',
        path: '/api/v2/silences',
        params: { filter: splitMatchers(p['filter']) },
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      })) as Array<{
        id: string;
        status: { state: string };
        matchers: Array<{ name: string; value: string; isRegex: boolean; isEqual?: boolean }>;
        createdBy: string;
        comment: string;
        startsAt: string;
        endsAt: string;
        updatedAt: string;
      }>;
      const state = (p['state'] as string | undefined) ?? 'current';
      const keep = (s: string) =>
        state === 'all' || (state === 'current' ? s === 'active' || s === 'pending' : s === state);
      const silences = list
        .filter((s) => keep(s.status.state))
        .sort((a, b) => a.endsAt.localeCompare(b.endsAt))
        .map((s) => ({
          id: s.id,
          state: s.status.state,
          matchers: s.matchers.map(
            (m) =>
              `${m.name}${m.isEqual === false ? (m.isRegex ? '!~' : '!=') : m.isRegex ? '=~' : '='}${JSON.stringify(m.value)}`,
          ),
          created_by: s.createdBy,
          comment: s.comment,
          starts_at: s.startsAt,
          ends_at: s.endsAt,
        }));
      const limit = limitOf(p, 100);
      return {
        total: silences.length,
        truncated: silences.length > limit,
        silences: silences.slice(0, limit),
      };
    },
  },
];

/** The tools served: the Alertmanager ones only when an Alertmanager is configured. */
export function toolsFor(hasAlertmanager: boolean): Tool[] {
  return TOOLS.filter((t) => t.needs === 'prometheus' || hasAlertmanager);
}

/** What GET /tools and MCP tools/list show (no handlers). */
export function definitionOf(t: Tool): ToolDefinition {
  const { handler: _h, needs: _n, ...def } = t;
  return def;
}
