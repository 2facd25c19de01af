import { AlertStatus } from '../gen/inquest/alerts/v1/alert_service';
import { DeliveryStatus } from '../gen/inquest/notifier/v1/notifier_service';
import { stringEnum } from './string-enum';

/** `IncomingAlert.status_enum`, `AlertRecord.status_enum` and the list filter. */
export const alertStatusEnum = stringEnum(
  {
    firing: AlertStatus.ALERT_STATUS_FIRING,
    resolved: AlertStatus.ALERT_STATUS_RESOLVED,
  },
  AlertStatus.ALERT_STATUS_UNSPECIFIED,
);

/** `Delivery.status_enum` and the list filter. */
export const deliveryStatusEnum = stringEnum(
  {
    pending: DeliveryStatus.DELIVERY_STATUS_PENDING,
    delivering: DeliveryStatus.DELIVERY_STATUS_DELIVERING,
    delivered: DeliveryStatus.DELIVERY_STATUS_DELIVERED,
    failed: DeliveryStatus.DELIVERY_STATUS_FAILED,
    stopped: DeliveryStatus.DELIVERY_STATUS_STOPPED,
  },
  DeliveryStatus.DELIVERY_STATUS_UNSPECIFIED,
);
