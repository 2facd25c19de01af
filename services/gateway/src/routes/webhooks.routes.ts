import {
  ErrorBody,
  ListWebhookDeliveriesQuery,
  ListWebhookDeliveriesResponse,
  RedeliverParams,
  RedeliverResponse,
  type WebhookDelivery,
} from '@inquest/api-contract';
import { invalidRequest } from '@inquest/errors';
import type { notifierV1 } from '@inquest/proto';
import { deliveryFilterFields, deliveryStatusOf } from '../grpc/alert-messages';
import { defineRoute, type RouteDef } from '../http/route';
import type { GatewayDeps } from './gateway-deps';

function toBody(d: notifierV1.Delivery): WebhookDelivery {
  const out: WebhookDelivery = {
    delivery_id: d.delivery_id,
    event: d.event,
    event_id: d.event_id,
    channel: d.channel as WebhookDelivery['channel'],
    target: d.target,
    status: deliveryStatusOf(d),
    attempts: d.attempts,
    created_at: d.created_at,
  };
  if (d.last_status_code !== undefined) out.last_status_code = d.last_status_code;
  if (d.last_error !== undefined) out.last_error = d.last_error;
  if (d.next_attempt_at !== undefined) out.next_attempt_at = d.next_attempt_at;
  if (d.updated_at) out.updated_at = d.updated_at;
  if (d.delivered_at !== undefined) out.delivered_at = d.delivered_at;
  if (d.redelivery_of !== undefined) out.redelivery_of = d.redelivery_of;
  if (d.attempt_log.length)
    out.attempt_log = d.attempt_log.map((a) => {
      const attempt: NonNullable<WebhookDelivery['attempt_log']>[number] = {
        attempt: a.attempt,
        at: a.at,
        outcome: a.outcome as NonNullable<WebhookDelivery['attempt_log']>[number]['outcome'],
      };
      if (a.status_code !== undefined) attempt.status_code = a.status_code;
      if (a.error !== undefined) attempt.error = a.error;
      return attempt;
    });
  return out;
}

const teamOf = (auth: { teamId?: string }): string => {
  if (!auth.teamId)
    throw invalidRequest(
      'this endpoint acts on one team: use a team token (or X-Inquest-Team as admin)',
    );
  return auth.teamId;
};

/** The team's delivery log of webhooks and chat notifications (notifier service). */
export function webhooksRoutes(deps: GatewayDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/webhooks/deliveries',
      summary: 'List recent webhook and chat deliveries of the team',
      description:
        'Newest first: event, target, attempts, last status and the next attempt. Deliveries are retried with backoff (x4 from 5 s, +/-20% jitter, capped at 10 h, 10 attempts).',
      tags: ['webhooks'],
      auth: 'team',
      permission: 'read',
      query: ListWebhookDeliveriesQuery,
      responses: {
        200: { description: 'The delivery log', schema: ListWebhookDeliveriesResponse },
        400: { description: 'Invalid query', schema: ErrorBody },
      },
      handler: async (req) => {
        const res = await deps.clients.notifier.listDeliveries(
          {
            team_id: teamOf(req.auth),
            limit: req.query.limit,
            ...deliveryFilterFields(req.query.status),
            ...(req.query.channel ? { channel: req.query.channel } : {}),
          },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 200, body: { deliveries: res.deliveries.map(toBody) } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/deliveries/:delivery_id/redeliver',
      summary: 'Send a finished delivery again',
      description:
        'Creates a new delivery with the same event, body and webhook-id (receivers can dedupe) and a fresh attempt budget. A delivery still pending or in flight answers 409 conflict.',
      tags: ['webhooks'],
      auth: 'team',
      permission: 'write',
      params: RedeliverParams,
      responses: {
        202: { description: 'The new delivery, queued', schema: RedeliverResponse },
        404: { description: 'No such delivery for this team', schema: ErrorBody },
        409: { description: 'The delivery is still pending or in flight', schema: ErrorBody },
      },
      handler: async (req) => {
        const res = await deps.clients.notifier.redeliver(
          { team_id: teamOf(req.auth), delivery_id: req.params.delivery_id },
          { ctx: req.ctx, signal: req.signal },
        );
        if (!res.delivery) throw invalidRequest('notifier returned no delivery');
        return { status: 202, body: { delivery: toBody(res.delivery) } };
      },
    }),
  ];
}
