import { implement } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import { deliveryStatusEnum, notifierV1 } from '@inquest/proto';
import type { Delivery } from '@inquest/store';
import type { DeliveryLog } from '../domain/delivery-log';

/** Encodes a stored delivery for the wire (no payload, secret reference or lease internals). */
export function toProtoDelivery(d: Delivery): notifierV1.Delivery {
  return {
    delivery_id: d.delivery_id,
    team_id: d.team_id,
    event: d.event,
    event_id: d.event_id,
    channel: d.channel,
    target: d.target,
    // both forms: the enum, and the string peers built before it read (ADR 0012)
    status: d.status,
    status_enum: deliveryStatusEnum.toProto(d.status),
    attempts: d.attempts,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    next_attempt_at: d.status === 'pending' ? d.next_attempt_at : undefined,
    created_at: d.created_at,
    delivered_at: d.delivered_at,
    redelivery_of: d.redelivery_of,
    updated_at: d.updated_at,
    attempt_log: (d.attempt_log ?? []).map((a) => ({
      attempt: a.attempt,
      at: a.at,
      outcome: a.outcome,
      status_code: a.status_code,
      error: a.error,
    })),
  };
}

/** NotifierService: decode, call the delivery log, encode. The team comes from the request (set by the gateway). */
export function notifierService(log: DeliveryLog, logger: Logger) {
  return implement(
    notifierV1.NotifierServiceService,
    {
      listDeliveries: async (req) => {
        const deliveries = await log.list(req.team_id, {
          limit: req.limit,
          ...(req.status || req.status_enum
            ? { status: deliveryStatusEnum.read(req.status_enum, req.status) ?? req.status }
            : {}),
          ...(req.channel ? { channel: req.channel } : {}),
        });
        return { deliveries: deliveries.map(toProtoDelivery) };
      },
      redeliver: async (req) => ({
        delivery: toProtoDelivery(await log.redeliver(req.team_id, req.delivery_id)),
      }),
    },
    logger,
  );
}
