import {
  AlertIntakeQuery,
  AlertIntakeResponse,
  AlertList,
  AlertmanagerWebhook,
  GenericAlert,
  GrafanaWebhook,
  ListAlertsQuery,
  PagerDutyWebhook,
  type AlertItem,
} from '@inquest/api-contract';
import { forbidden, internal, invalidRequest, unauthenticated } from '@inquest/errors';
import type { alertsV1 } from '@inquest/proto';
import type { z } from 'zod';
import {
  defineRoute,
  type ApiRequest,
  type AuthContext,
  type RouteDef,
  type SenderAuthInput,
} from '../http/route';
import { alertFilterFields, alertStatusOf } from '../grpc/alert-messages';
import {
  fromAlertmanager,
  fromGeneric,
  fromGrafana,
  fromPagerDuty,
  isoTime,
} from './alert-payloads';
import type { GatewayDeps } from './gateway-deps';
import { err } from './route-helpers';

export const INTAKE_SECRET_HEADER = 'x-inquest-intake-secret';
export const PAGERDUTY_SIGNATURE_HEADER = 'x-pagerduty-signature';
const NODE_ID = /^[a-z0-9][a-z0-9-]{1,62}$/;

const header = (h: SenderAuthInput['headers'], name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

type Source = 'alertmanager' | 'grafana' | 'pagerduty' | 'generic';

const AUTH_DOC =
  'Authentication: a team token (`Authorization: Bearer`, e.g. Alertmanager `http_config.authorization`), or for senders that cannot send one the team in `?team=` with its intake secret in `X-Inquest-Intake-Secret` (`alerts.intake_secret`, a vault reference under `inquest/<team>/`)';

const ALERT_RESPONSES = {
  202: {
    description: 'Recorded; the investigations started or linked, and the groups that started none',
    schema: AlertIntakeResponse,
  },
  400: err('invalid_request: not the payload of this sender'),
  401: err('unauthorized: no or wrong token, intake secret or signature'),
  403: err('forbidden'),
  413: err('payload_too_large: over 1 MiB'),
  415: err('unsupported_media_type: not JSON'),
  429: err('rate_limited (class alert)'),
};

/** Alert receivers and the team's alert list (investigation-runner AlertService). */
export function alertsRoutes({ clients }: GatewayDeps): RouteDef[] {
  const alerts = clients.alerts;

  /** The intake secret or PagerDuty signature of a request without Authorization, checked by the runner. */
  const senderAuth =
    (source: Source) =>
    async (input: SenderAuthInput): Promise<AuthContext | undefined> => {
      const intakeSecret = header(input.headers, INTAKE_SECRET_HEADER);
      const signature =
        source === 'pagerduty' ? header(input.headers, PAGERDUTY_SIGNATURE_HEADER) : undefined;
      if (intakeSecret === undefined && signature === undefined) return undefined;
      const team = input.query['team'] ?? header(input.headers, 'x-inquest-team');
      if (typeof team !== 'string' || !NODE_ID.test(team)) throw unauthenticated();
      const res = await alerts.verifyAlertSender(
        {
          team_id: team,
          intake_secret: intakeSecret,
          pagerduty_signature: signature,
          body: input.rawBody ?? Buffer.alloc(0),
        },
        { ctx: { requestId: input.requestId, teamId: team, principal: `alerts:${team}` } },
      );
      if (!res.ok) throw unauthenticated();
      return {
        kind: 'team',
        teamId: team,
        principal: `alerts:${team}`,
        identity: `alerts:${source}`,
        permissions: ['read'],
      };
    };

  const ingest = async (
    req: ApiRequest<unknown, unknown, unknown>,
    source: Source,
    incoming: alertsV1.IncomingAlert[],
  ) => {
    const teamId = req.auth.teamId;
    if (!teamId) throw internal('team route without a team');
    if (!incoming.length) {
      const body: AlertIntakeResponse = {
        alerts_received: 0,
        investigations: [],
        skipped: [],
      };
      return { status: 202, body };
    }
    const res = await alerts.ingestAlerts(
      { team_id: teamId, source, alerts: incoming, requested_by: req.auth.identity },
      { ctx: req.ctx, signal: req.signal, deadlineMs: 10_000 },
    );
    const body: AlertIntakeResponse = {
      alerts_received: res.alerts_received,
      investigations: [],
      skipped: [],
    };
    for (const g of res.groups) {
      if (g.investigation_id && g.outcome !== 'skipped') {
        body.investigations.push({
          investigation_id: g.investigation_id,
          alertname: g.alertname,
          group_key: g.group_key,
          outcome: g.outcome as 'started' | 'existing' | 'resolved',
          alerts: g.alerts,
        });
      } else {
        body.skipped.push({
          alertname: g.alertname,
          group_key: g.group_key,
          reason: (g.reason ??
            'resolved_without_investigation') as AlertIntakeResponse['skipped'][number]['reason'],
          alerts: g.alerts,
        });
      }
    }
    return { status: 202, body };
  };

  const receiver = <B>(o: {
    source: Source;
    summary: string;
    description: string;
    schema: z.ZodType<B>;
    toAlerts: (body: B) => alertsV1.IncomingAlert[];
    rawBody?: boolean;
    verifySignature?: boolean;
  }): RouteDef =>
    defineRoute({
      method: 'post',
      path: `/alerts/${o.source}`,
      summary: o.summary,
      description: `${o.description}\n\n${AUTH_DOC}. Each alert is recorded before the answer; one investigation per alert group while it fires (repeats link to it), a resolved notification resolves the group, a re-fire after that starts a new one. \`alerts.disabled\` names alerts that start nothing; at most \`alerts.max_investigations_per_minute\` (default 10) alert-started investigations per team and minute, the rest skipped as rate_capped. The agent is \`alerts.agent\` (default planner).`,
      tags: ['alerts'],
      auth: 'team',
      permission: 'read',
      rateClass: 'alert',
      body: o.schema,
      query: AlertIntakeQuery,
      senderAuth: senderAuth(o.source),
      senderSchemes:
        o.source === 'pagerduty' ? ['intakeSecret', 'pagerdutySignature'] : ['intakeSecret'],
      rawBody: o.rawBody,
      responses: ALERT_RESPONSES,
      handler: async (req) => {
        const named = (req.query as { team?: string }).team;
        if (named !== undefined && named !== req.auth.teamId)
          throw forbidden('the credential belongs to another team than ?team= names');
        // a bearer-token request that also carries a signature must carry a valid one
        const signature = o.verifySignature
          ? header(req.headers, PAGERDUTY_SIGNATURE_HEADER)
          : undefined;
        if (signature !== undefined && req.auth.principal !== `alerts:${req.auth.teamId}`) {
          const res = await alerts.verifyAlertSender(
            {
              team_id: req.auth.teamId ?? '',
              pagerduty_signature: signature,
              body: req.rawBody ?? Buffer.alloc(0),
            },
            { ctx: req.ctx, signal: req.signal },
          );
          if (!res.ok) throw unauthenticated();
        }
        return ingest(req, o.source, o.toAlerts(req.body));
      },
    });

  return [
    receiver({
      source: 'alertmanager',
      summary: 'Receive an Alertmanager notification',
      description:
        'The Alertmanager `webhook_config` payload (version 4): groupKey, status, alerts[] with labels, annotations, startsAt, endsAt, fingerprint, generatorURL. Context from labels and annotations: namespace; service from service/app/job/deployment/pod; severity; alertname as related_alert; startsAt as the time window; summary/description as the message; runbook_url as hint.',
      schema: AlertmanagerWebhook,
      toAlerts: fromAlertmanager,
    }),
    receiver({
      source: 'grafana',
      summary: 'Receive a Grafana alerting notification',
      description:
        'The Grafana unified alerting webhook contact point payload. Grouped by its groupKey (or by fingerprint when absent).',
      schema: GrafanaWebhook,
      toAlerts: fromGrafana,
    }),
    receiver({
      source: 'pagerduty',
      summary: 'Receive a PagerDuty v3 webhook',
      description:
        'PagerDuty v3 webhook subscriptions: incident.triggered starts an investigation of the incident, incident.resolved resolves it; other event types are answered 202 and ignored. With `alerts.pagerduty.signing_secret` set, `X-PagerDuty-Signature` (one or more `v1=<hex HMAC-SHA256 of the raw body>`) authenticates the request with `?team=`; a wrong signature is 401 even with a bearer token.',
      schema: PagerDutyWebhook,
      toAlerts: fromPagerDuty,
      rawBody: true,
      verifySignature: true,
    }),
    receiver({
      source: 'generic',
      summary: 'Receive a generic alert',
      description:
        'One alert: `{title, status?, severity?, service?, namespace?, environment?, description?, runbook_url?, source_url?, starts_at?, dedup_key?, labels?}`. Alerts with the same dedup_key (default: title, service, namespace) share one investigation while they fire.',
      schema: GenericAlert,
      toAlerts: fromGeneric,
    }),
    defineRoute({
      method: 'get',
      path: '/alerts',
      summary: 'Alerts the team received',
      description:
        'Newest first: every alert received, its status (firing, resolved), its group, how often it was repeated, the investigation of its group or why it started none.',
      tags: ['alerts'],
      auth: 'team',
      permission: 'read',
      query: ListAlertsQuery,
      responses: {
        200: { description: 'The alerts', schema: AlertList },
        400: err('Bad limit, offset or status'),
      },
      handler: async (req) => {
        const teamId = req.auth.teamId;
        if (!teamId) throw invalidRequest('this endpoint acts on one team');
        const res = await alerts.listAlerts(
          {
            team_id: teamId,
            limit: req.query.limit,
            offset: req.query.offset,
            ...alertFilterFields(req.query.status),
            alertname: req.query.alertname,
            group_key: req.query.group_key,
          },
          { ctx: req.ctx, signal: req.signal },
        );
        const body: AlertList = {
          alerts: res.alerts.map(toItem),
          pagination: { total: res.total, limit: req.query.limit, offset: req.query.offset },
        };
        return { status: 200, body };
      },
    }),
  ];
}

function toItem(a: alertsV1.AlertRecord): AlertItem {
  const out: AlertItem = {
    alert_id: a.alert_id,
    source: a.source as AlertItem['source'],
    alertname: a.alertname,
    status: alertStatusOf(a),
    group_key: a.group_key,
    fingerprint: a.fingerprint,
    labels: a.labels,
    annotations: a.annotations,
    received_at: a.received_at,
    last_received_at: a.last_received_at,
    receive_count: a.receive_count,
  };
  for (const k of ['generator_url', 'external_id', 'investigation_id', 'skipped_reason'] as const) {
    const v = a[k];
    if (v !== undefined) out[k] = v;
  }
  // a time stored as its sender wrote it (before the intake normalized them) is shown like the rest
  for (const k of ['starts_at', 'ends_at', 'resolved_at'] as const) {
    const v = isoTime(a[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
