import { invalidRequest } from '@inquest/errors';
import { implement, type GrpcServiceBinding } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import { alertStatusEnum, alertsV1 } from '@inquest/proto';
import type { AlertRecord } from '@inquest/store';
import type { AlertIntake } from '../domain/alerts/alert-intake';

function toMessage(r: AlertRecord): alertsV1.AlertRecord {
  return {
    alert_id: r.alert_id,
    team_id: r.team_id,
    source: r.source,
    group_key: r.group_key,
    fingerprint: r.fingerprint,
    alertname: r.alertname,
    // both forms: the enum, and the string peers built before it read (ADR 0012)
    status: r.status,
    status_enum: alertStatusEnum.toProto(r.status),
    labels: { ...r.labels },
    annotations: { ...r.annotations },
    starts_at: r.starts_at,
    ends_at: r.ends_at,
    generator_url: r.generator_url,
    received_at: r.received_at,
    last_received_at: r.last_received_at,
    receive_count: r.receive_count,
    investigation_id: r.investigation_id,
    skipped_reason: r.skipped_reason,
    resolved_at: r.resolved_at,
    external_id: r.external_id,
  };
}

function alertStatusOf(a: alertsV1.IncomingAlert, i: number) {
  const status = alertStatusEnum.read(a.status_enum, a.status);
  if (!status) throw invalidRequest(`alerts[${i}].status must be firing or resolved`);
  return status;
}

/** inquest.alerts.v1.AlertService: decode, call the domain, encode. */
export function alertBinding(intake: AlertIntake, logger: Logger): GrpcServiceBinding {
  const def = alertsV1.AlertServiceService;
  return {
    definition: def,
    name: 'inquest.alerts.v1.AlertService',
    implementation: implement(
      def,
      {
        ingestAlerts: async (req) => {
          const res = await intake.ingest({
            teamId: req.team_id,
            source: req.source,
            requestedBy: req.requested_by,
            alerts: req.alerts.map((a, i) => ({
              // the enum, or the string of a gateway built before it
              status: alertStatusOf(a, i),
              group_key: a.group_key,
              fingerprint: a.fingerprint,
              alertname: a.alertname,
              labels: a.labels,
              annotations: a.annotations,
              starts_at: a.starts_at,
              ends_at: a.ends_at,
              generator_url: a.generator_url,
              external_id: a.external_id,
            })),
          });
          return { alerts_received: res.alertsReceived, groups: res.groups };
        },
        listAlerts: async (req) => {
          const limit = req.limit || 20;
          const offset = req.offset || 0;
          const page = await intake.list({
            teamId: req.team_id,
            limit,
            offset,
            status: alertStatusEnum.read(req.status_enum, req.status) ?? req.status,
            alertname: req.alertname,
            group_key: req.group_key,
          });
          return { alerts: page.items.map(toMessage), total: page.total, limit, offset };
        },
        verifyAlertSender: async (req) => ({
          ok: await intake.verifySender({
            teamId: req.team_id,
            intakeSecret: req.intake_secret,
            pagerdutySignature: req.pagerduty_signature,
            body: Buffer.from(req.body),
          }),
        }),
      },
      logger,
    ),
  };
}
