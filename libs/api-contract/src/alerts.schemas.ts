import { z } from 'zod';

/** Alerts one notification may carry. */
export const MAX_ALERTS_PER_NOTIFICATION = 1000;

const Labels = z.record(z.string(), z.string({ message: 'label values must be strings' }));
const Annotations = z.record(
  z.string(),
  z.string({ message: 'annotation values must be strings' }),
);
const AlertStatus = z.enum(['firing', 'resolved'], {
  message: 'status must be firing or resolved',
});

/** An RFC 3339 time (ISO 8601 with a date, a time, any fraction of a second, and Z or an offset). */
export const RFC3339_TIME =
  /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** One alert of an Alertmanager or Grafana notification. */
export const PrometheusStyleAlert = z.looseObject({
  status: AlertStatus,
  labels: Labels.describe('Must hold alertname (Alertmanager always sets it)'),
  annotations: Annotations.optional(),
  startsAt: z.string().optional(),
  endsAt: z.string().optional(),
  generatorURL: z.string().optional(),
  fingerprint: z.string().optional(),
});

/** Body of POST /alerts/alertmanager: the Alertmanager webhook payload (version 4). */
export const AlertmanagerWebhook = z
  .looseObject({
    version: z.string().optional().describe('"4"'),
    groupKey: z.string({ message: 'groupKey is required' }).min(1, 'groupKey is required'),
    truncatedAlerts: z.number().int().optional(),
    status: AlertStatus,
    receiver: z.string().optional(),
    groupLabels: Labels.optional(),
    commonLabels: Labels.optional(),
    commonAnnotations: Annotations.optional(),
    externalURL: z.string().optional(),
    alerts: z
      .array(PrometheusStyleAlert, { message: 'alerts must be an array' })
      .min(1, 'alerts must not be empty')
      .max(MAX_ALERTS_PER_NOTIFICATION, `at most ${MAX_ALERTS_PER_NOTIFICATION} alerts`),
  })
  .meta({
    id: 'AlertmanagerWebhook',
    description:
      'Alertmanager webhook_config payload (version 4). One investigation per groupKey while it fires.',
  });
export type AlertmanagerWebhook = z.infer<typeof AlertmanagerWebhook>;

/** Body of POST /alerts/grafana: the Grafana unified alerting webhook payload. */
export const GrafanaWebhook = z
  .looseObject({
    receiver: z.string().optional(),
    status: AlertStatus,
    orgId: z.number().optional(),
    groupKey: z.string().optional().describe('Alerts without one are grouped by fingerprint'),
    groupLabels: Labels.optional(),
    commonLabels: Labels.optional(),
    commonAnnotations: Annotations.optional(),
    externalURL: z.string().optional(),
    version: z.string().optional(),
    title: z.string().optional(),
    message: z.string().optional(),
    alerts: z
      .array(
        PrometheusStyleAlert.extend({
          dashboardURL: z.string().optional(),
          panelURL: z.string().optional(),
          silenceURL: z.string().optional(),
          valueString: z.string().optional(),
        }),
        { message: 'alerts must be an array' },
      )
      .min(1, 'alerts must not be empty')
      .max(MAX_ALERTS_PER_NOTIFICATION, `at most ${MAX_ALERTS_PER_NOTIFICATION} alerts`),
  })
  .meta({ id: 'GrafanaWebhook', description: 'Grafana unified alerting webhook payload.' });
export type GrafanaWebhook = z.infer<typeof GrafanaWebhook>;

const Ref = z.looseObject({ id: z.string().optional(), summary: z.string().optional() });

/** Body of POST /alerts/pagerduty: a PagerDuty v3 webhook event. */
export const PagerDutyWebhook = z
  .looseObject({
    event: z.looseObject({
      id: z.string().optional(),
      event_type: z
        .string({ message: 'event.event_type is required' })
        .describe(
          'incident.triggered starts an investigation, incident.resolved resolves it; other types are acknowledged and ignored',
        ),
      resource_type: z.string().optional(),
      occurred_at: z.string().optional(),
      data: z
        .looseObject({
          id: z.string({ message: 'event.data.id is required' }).min(1),
          type: z.string().optional(),
          title: z.string().optional(),
          summary: z.string().optional(),
          html_url: z.string().optional(),
          number: z.number().optional(),
          status: z.string().optional(),
          incident_key: z.string().nullish(),
          created_at: z.string().optional(),
          urgency: z.string().optional(),
          service: Ref.nullish(),
          priority: Ref.nullish(),
          body: z.looseObject({ details: z.unknown().optional() }).nullish(),
        })
        .optional(),
    }),
  })
  .meta({
    id: 'PagerDutyWebhook',
    description:
      'PagerDuty v3 webhook. Signed: X-PagerDuty-Signature v1=<hex HMAC-SHA256 of the body> with alerts.pagerduty.signing_secret.',
  });
export type PagerDutyWebhook = z.infer<typeof PagerDutyWebhook>;

/** Body of POST /alerts/generic: one alert in a small documented shape. */
export const GenericAlert = z
  .strictObject({
    title: z
      .string({ message: 'title is required' })
      .min(1, 'title is required')
      .max(512, 'title is longer than 512 characters')
      .describe('The alert name (becomes related_alert)'),
    status: AlertStatus.optional().describe('Default firing'),
    severity: z
      .string()
      .max(64)
      .optional()
      .describe('critical|warning|info, P1..P5, high|medium|low'),
    service: z.string().max(256).optional(),
    namespace: z.string().max(256).optional(),
    environment: z.string().max(64).optional(),
    description: z.string().max(4096).optional(),
    runbook_url: z.string().max(2048).optional(),
    source_url: z.string().max(2048).optional(),
    starts_at: z
      .string()
      .max(64)
      .refine(
        (t) => RFC3339_TIME.test(t) && !Number.isNaN(Date.parse(t)),
        'starts_at must be an ISO 8601 time such as 2026-11-29T12:00:00Z',
      )
      .optional()
      .describe('ISO 8601 with a time zone (Z or an offset); default now'),
    dedup_key: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe(
        'Alerts with the same key share one investigation while they fire; default: title, service and namespace',
      ),
    labels: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'GenericAlert', description: 'A generic alert.' });
export type GenericAlert = z.infer<typeof GenericAlert>;

/** Where an alert group went. */
export const AlertIntakeInvestigation = z.object({
  investigation_id: z.string(),
  alertname: z.string(),
  group_key: z.string(),
  outcome: z
    .enum(['started', 'existing', 'resolved'])
    .describe(
      'started: this notification started it; existing: the group already had it (a repeat); resolved: the group resolved',
    ),
  alerts: z.number().int(),
});

export const AlertIntakeSkipped = z.object({
  alertname: z.string(),
  group_key: z.string(),
  reason: z
    .enum([
      'disabled',
      'rate_capped',
      'agent_disabled',
      'resolved_without_investigation',
      'event_type_ignored',
    ])
    .describe(
      'disabled: alerts.disabled names it; rate_capped: alerts.max_investigations_per_minute reached (a later repeat may start it); agent_disabled: the alerts agent is disabled; resolved_without_investigation; event_type_ignored (PagerDuty events other than triggered/resolved)',
    ),
  alerts: z.number().int(),
});

/** 202 answer of every alert receiver. */
export const AlertIntakeResponse = z
  .object({
    alerts_received: z.number().int(),
    investigations: z.array(AlertIntakeInvestigation),
    skipped: z.array(AlertIntakeSkipped),
  })
  .meta({ id: 'AlertIntakeResponse' });
export type AlertIntakeResponse = z.infer<typeof AlertIntakeResponse>;

/** Query of the receivers for senders that cannot send a bearer token. */
export const AlertIntakeQuery = z.object({
  team: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'team must be a node id')
    .optional()
    .describe(
      'The team, with X-Inquest-Intake-Secret or X-PagerDuty-Signature instead of a bearer token',
    ),
});

export const ListAlertsQuery = z.object({
  limit: z.coerce
    .number({ message: 'limit must be an integer from 1 to 100' })
    .int('limit must be an integer from 1 to 100')
    .min(1, 'limit must be an integer from 1 to 100')
    .max(100, 'limit must be an integer from 1 to 100')
    .default(20)
    .describe('1..100, default 20'),
  offset: z.coerce
    .number({ message: 'offset must be a non-negative integer' })
    .int('offset must be a non-negative integer')
    .min(0, 'offset must be a non-negative integer')
    .max(1_000_000, 'offset must be at most 1000000')
    .default(0)
    .describe('default 0'),
  status: AlertStatus.optional(),
  alertname: z.string().max(512).optional(),
  group_key: z.string().max(512).optional(),
});
export type ListAlertsQuery = z.infer<typeof ListAlertsQuery>;

export const AlertItem = z.object({
  alert_id: z.string(),
  source: z.enum(['alertmanager', 'grafana', 'pagerduty', 'generic']),
  alertname: z.string(),
  status: AlertStatus,
  group_key: z.string(),
  fingerprint: z.string(),
  labels: Labels,
  annotations: Annotations,
  starts_at: z.string().optional(),
  ends_at: z.string().optional(),
  generator_url: z.string().optional(),
  external_id: z.string().optional(),
  received_at: z.string(),
  last_received_at: z.string(),
  receive_count: z.number().int().describe('Notifications that carried it (repeats)'),
  investigation_id: z.string().optional().describe('The investigation of its group'),
  skipped_reason: z.string().optional().describe('Why it started none'),
  resolved_at: z.string().optional(),
});
export type AlertItem = z.infer<typeof AlertItem>;

export const AlertList = z
  .object({
    alerts: z.array(AlertItem).describe('Newest first'),
    pagination: z.object({
      total: z.number().int(),
      limit: z.number().int(),
      offset: z.number().int(),
    }),
  })
  .meta({ id: 'AlertList' });
export type AlertList = z.infer<typeof AlertList>;
