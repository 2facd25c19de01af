import { internal } from '@inquest/errors';
import {
  alertStatusEnum,
  deliveryStatusEnum,
  type alertsV1,
  type notifierV1,
} from '@inquest/proto';

// Alert and delivery statuses, read from the enums (or, from a peer built before them, from the
// deprecated strings), and the fields that carry them in both forms (ADR 0012).

type AlertStatus = (typeof alertStatusEnum.names)[number];
type DeliveryStatus = (typeof deliveryStatusEnum.names)[number];

function named<N extends string>(what: string, name: N | undefined): N {
  if (name === undefined) throw internal(`a backing service answered an unknown ${what}`);
  return name;
}

/** `status` of an IncomingAlert, as the enum and as the deprecated string. */
export const alertStatusFields = (
  status: string,
): Pick<alertsV1.IncomingAlert, 'status' | 'status_enum'> => ({
  status,
  status_enum: alertStatusEnum.toProto(status),
});

/** The status filter of a ListAlertsRequest, as the enum and as the deprecated string. */
export const alertFilterFields = (
  status: AlertStatus | undefined,
): Pick<alertsV1.ListAlertsRequest, 'status' | 'status_enum'> => ({
  ...(status ? { status } : {}),
  status_enum: alertStatusEnum.toProto(status),
});

/** The status of a recorded alert. */
export const alertStatusOf = (a: Pick<alertsV1.AlertRecord, 'status' | 'status_enum'>) =>
  named<AlertStatus>('alert status', alertStatusEnum.read(a.status_enum, a.status));

/** The status of a delivery. */
export const deliveryStatusOf = (d: Pick<notifierV1.Delivery, 'status' | 'status_enum'>) =>
  named<DeliveryStatus>('delivery status', deliveryStatusEnum.read(d.status_enum, d.status));

/** The status filter of a ListDeliveriesRequest, as the enum and as the deprecated string. */
export const deliveryFilterFields = (
  status: DeliveryStatus | undefined,
): Pick<notifierV1.ListDeliveriesRequest, 'status' | 'status_enum'> => ({
  ...(status ? { status } : {}),
  status_enum: deliveryStatusEnum.toProto(status),
});
