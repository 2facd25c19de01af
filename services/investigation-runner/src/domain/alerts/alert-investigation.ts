import type {
  InvestigationAlertRecord,
  InvestigationContextRecord,
  NewAlert,
} from '@inquest/store';
import { MAX_CONTEXT_FIELD_CHARS } from '../investigation-request';

/** Labels that name the affected service, most specific first. */
const SERVICE_LABELS = [
  'service',
  'app',
  'app_kubernetes_io_name',
  'app.kubernetes.io/name',
  'job',
  'deployment',
  'pod',
];
const NAMESPACE_LABELS = ['namespace', 'kubernetes_namespace', 'exported_namespace'];
const SEVERITY: Record<string, 'high' | 'medium' | 'low'> = {
  critical: 'high',
  fatal: 'high',
  page: 'high',
  error: 'high',
  high: 'high',
  p1: 'high',
  p2: 'high',
  warning: 'medium',
  warn: 'medium',
  medium: 'medium',
  major: 'medium',
  p3: 'medium',
  info: 'low',
  informational: 'low',
  low: 'low',
  minor: 'low',
  none: 'low',
  p4: 'low',
  p5: 'low',
};
const ENVIRONMENT: Record<string, 'prod' | 'staging' | 'dev'> = {
  prod: 'prod',
  production: 'prod',
  prd: 'prod',
  staging: 'staging',
  stage: 'staging',
  stg: 'staging',
  dev: 'dev',
  development: 'dev',
};
/** The window starts this long before the alert started, so its cause is inside it. */
const LEAD_MS = 15 * 60_000;
const MAX_MESSAGE_CHARS = 4_000;

/** What an alert group's investigation is started with. */
export interface AlertRun {
  message: string;
  context: InvestigationContextRecord;
  alert: InvestigationAlertRecord;
}

const clip = (s: string, n = MAX_CONTEXT_FIELD_CHARS) =>
  s.length > n ? s.slice(0, n - 1) + '…' : s;

function firstLabel(labels: Record<string, string>, names: string[]): string | undefined {
  for (const n of names) {
    const v = labels[n]?.trim();
    if (v) return v;
  }
  return undefined;
}

/** The severity of a label value (`critical`, `warning`, `P2`...) on the spec's high|medium|low scale. */
export function severityOf(value: string | undefined): 'high' | 'medium' | 'low' | undefined {
  return value ? SEVERITY[value.trim().toLowerCase()] : undefined;
}

/** A time window that reaches from a while before the alert started until now, e.g. `45m`. */
export function timeWindowSince(startsAt: string | undefined, now: number): string | undefined {
  const start = startsAt ? Date.parse(startsAt) : NaN;
  if (!Number.isFinite(start) || start <= 0) return undefined;
  const minutes = Math.max(1, Math.ceil((now - start + LEAD_MS) / 60_000));
  if (minutes <= 120) return `${minutes}m`;
  const hours = Math.ceil(minutes / 60);
  if (hours <= 48) return `${hours}h`;
  return `${Math.min(30, Math.ceil(hours / 24))}d`;
}

function describe(a: NewAlert): string {
  const labels = Object.entries(a.labels)
    .filter(([k]) => k !== 'alertname')
    .slice(0, 12)
    .map(([k, v]) => `${k}="${clip(v, 120)}"`)
    .join(', ');
  return `${a.alertname}{${labels}}${a.starts_at ? ` since ${a.starts_at}` : ''}`;
}

/**
 * The investigation of an alert group: the first firing alert sets the context (namespace,
 * service, severity, alertname as related_alert, startsAt as the time window, runbook_url as
 * hint), summary/description become the message, and every alert of the group is listed in it.
 */
export function alertRunOf(source: string, firing: NewAlert[], now = Date.now()): AlertRun {
  const lead = firing[0]!;
  const labels = lead.labels;
  const ann = lead.annotations;
  const context: InvestigationContextRecord = { related_alert: clip(lead.alertname) };
  const service = firstLabel(labels, SERVICE_LABELS);
  if (service) context.service = clip(service);
  const namespace = firstLabel(labels, NAMESPACE_LABELS);
  if (namespace) context.namespace = clip(namespace);
  const severity =
    severityOf(labels['severity']) ?? severityOf(labels['priority']) ?? severityOf(labels['level']);
  if (severity) context.severity = severity;
  const env = firstLabel(labels, ['environment', 'env']);
  const environment = env ? ENVIRONMENT[env.toLowerCase()] : undefined;
  if (environment) context.environment = environment;
  const earliest = firing
    .map((a) => a.starts_at)
    .filter((s): s is string => !!s)
    .sort()[0];
  const window = timeWindowSince(earliest, now);
  if (window) context.time_window = window;
  const runbook = ann['runbook_url'] ?? ann['runbook'] ?? labels['runbook_url'];
  if (runbook) context.hint = clip(`runbook: ${runbook}`);

  const summary = ann['summary'] ?? ann['title'] ?? ann['message'];
  const description = ann['description'];
  const lines = [
    `Alert ${lead.alertname} is firing (${source}${firing.length > 1 ? `, ${firing.length} alerts in the group` : ''})${summary ? `: ${summary}` : ''}`,
  ];
  if (description && description !== summary) lines.push(description);
  lines.push('Alerts:');
  for (const a of firing.slice(0, 20)) lines.push(`- ${describe(a)}`);
  if (firing.length > 20) lines.push(`- ... and ${firing.length - 20} more`);
  if (lead.generator_url) lines.push(`Source: ${lead.generator_url}`);
  let message = lines.join('\n');
  if (message.length > MAX_MESSAGE_CHARS) message = message.slice(0, MAX_MESSAGE_CHARS - 1) + '…';

  const alert: InvestigationAlertRecord = {
    source,
    alertname: lead.alertname,
    group_key: lead.group_key,
    labels: { ...labels },
  };
  if (severity) alert.severity = severity;
  if (lead.starts_at) alert.starts_at = lead.starts_at;
  if (lead.generator_url) alert.generator_url = lead.generator_url;
  if (lead.external_id) alert.external_id = lead.external_id;
  return { message, context, alert };
}
