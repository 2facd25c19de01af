import { createHash } from 'node:crypto';
import {
  RFC3339_TIME,
  type AlertmanagerWebhook,
  type GenericAlert,
  type GrafanaWebhook,
  type PagerDutyWebhook,
} from '@inquest/api-contract';
import type { alertsV1 } from '@inquest/proto';
import { alertStatusFields } from '../grpc/alert-messages';

/** Keys longer than this are replaced by their hash (the runner bounds keys at 512 characters). */
const MAX_KEY_CHARS = 500;
/** Go's zero time: Alertmanager's endsAt of an alert that has not ended. */
const ZERO_TIME = /^0001-01-01T/;

const key = (s: string): string =>
  s.length <= MAX_KEY_CHARS ? s : `sha256:${createHash('sha256').update(s).digest('hex')}`;

/** A stable fingerprint of a label set (senders that send none). */
export function labelsFingerprint(labels: Record<string, string>): string {
  const canonical = Object.keys(labels)
    .sort()
    .map((k) => `${k}\u0000${labels[k]}`)
    .join('\u0001');
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/**
 * A sender's time as the API shows every time (API-DECISIONS "General": ISO 8601 UTC with
 * milliseconds and Z): Alertmanager sends nanoseconds, Grafana and PagerDuty an offset. Go's zero
 * time (an alert that has not ended) and anything that is no RFC 3339 time are left out.
 */
export function isoTime(s: string | undefined): string | undefined {
  if (!s || ZERO_TIME.test(s) || !RFC3339_TIME.test(s)) return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

function clean(m: Record<string, string> | undefined): Record<string, string> {
  return { ...(m ?? {}) };
}

/** Alertmanager webhook (version 4): one group per notification, keyed by groupKey. */
export function fromAlertmanager(p: AlertmanagerWebhook): alertsV1.IncomingAlert[] {
  return p.alerts.map((a) => {
    const labels = clean(a.labels);
    return {
      ...alertStatusFields(a.status),
      group_key: key(p.groupKey),
      fingerprint: key(a.fingerprint || labelsFingerprint(labels)),
      alertname: key(
        labels['alertname'] ??
          p.groupLabels?.['alertname'] ??
          p.commonLabels?.['alertname'] ??
          'alert',
      ),
      labels,
      annotations: { ...clean(p.commonAnnotations), ...clean(a.annotations) },
      starts_at: isoTime(a.startsAt),
      ends_at: isoTime(a.endsAt),
      generator_url: a.generatorURL || undefined,
    };
  });
}

/** Grafana unified alerting: like Alertmanager; without a groupKey each alert is its own group. */
export function fromGrafana(p: GrafanaWebhook): alertsV1.IncomingAlert[] {
  return p.alerts.map((a) => {
    const labels = clean(a.labels);
    const fingerprint = key(a.fingerprint || labelsFingerprint(labels));
    const annotations = { ...clean(p.commonAnnotations), ...clean(a.annotations) };
    if (a.valueString && !annotations['value']) annotations['value'] = a.valueString;
    return {
      ...alertStatusFields(a.status),
      group_key: key(`grafana:${p.groupKey || fingerprint}`),
      fingerprint,
      alertname: key(labels['alertname'] ?? p.commonLabels?.['alertname'] ?? p.title ?? 'alert'),
      labels,
      annotations,
      starts_at: isoTime(a.startsAt),
      ends_at: isoTime(a.endsAt),
      generator_url: a.panelURL || a.dashboardURL || a.generatorURL || undefined,
    };
  });
}

/**
 * PagerDuty v3: incident.triggered fires, incident.resolved resolves, keyed by the incident id;
 * other event types (acknowledged, annotated, pings) carry no alert.
 */
export function fromPagerDuty(p: PagerDutyWebhook): alertsV1.IncomingAlert[] {
  const e = p.event;
  const status =
    e.event_type === 'incident.triggered'
      ? 'firing'
      : e.event_type === 'incident.resolved'
        ? 'resolved'
        : undefined;
  const d = e.data;
  if (!status || !d) return [];
  const title = d.title || d.summary || `PagerDuty incident ${d.id}`;
  const labels: Record<string, string> = { alertname: title, incident_id: d.id };
  if (d.service?.summary) labels['service'] = d.service.summary;
  if (d.urgency) labels['urgency'] = d.urgency;
  const severity = d.priority?.summary || (d.urgency === 'high' ? 'high' : d.urgency);
  if (severity) labels['severity'] = severity;
  if (d.number !== undefined) labels['incident_number'] = String(d.number);
  if (d.incident_key) labels['incident_key'] = d.incident_key;
  const annotations: Record<string, string> = { summary: title };
  const details = d.body?.details;
  if (typeof details === 'string' && details) annotations['description'] = details;
  else if (details && typeof details === 'object')
    annotations['description'] = JSON.stringify(details).slice(0, 4000);
  return [
    {
      ...alertStatusFields(status),
      group_key: key(`pagerduty:${d.id}`),
      fingerprint: key(d.id),
      alertname: key(title),
      labels,
      annotations,
      starts_at: isoTime(d.created_at),
      generator_url: d.html_url,
      external_id: d.id,
    },
  ];
}

/** The generic shape: one alert; dedup_key (default: title, service, namespace) groups repeats. */
export function fromGeneric(p: GenericAlert): alertsV1.IncomingAlert[] {
  const labels: Record<string, string> = { ...(p.labels ?? {}), alertname: p.title };
  if (p.service) labels['service'] = p.service;
  if (p.namespace) labels['namespace'] = p.namespace;
  if (p.severity) labels['severity'] = p.severity;
  if (p.environment) labels['environment'] = p.environment;
  const annotations: Record<string, string> = { summary: p.title };
  if (p.description) annotations['description'] = p.description;
  if (p.runbook_url) annotations['runbook_url'] = p.runbook_url;
  const dedup =
    p.dedup_key ?? labelsFingerprint({ t: p.title, s: p.service ?? '', n: p.namespace ?? '' });
  return [
    {
      ...alertStatusFields(p.status ?? 'firing'),
      group_key: key(`generic:${dedup}`),
      fingerprint: key(p.dedup_key ?? labelsFingerprint(labels)),
      alertname: p.title,
      labels,
      annotations,
      starts_at: isoTime(p.starts_at) ?? new Date().toISOString(),
      generator_url: p.source_url,
    },
  ];
}
