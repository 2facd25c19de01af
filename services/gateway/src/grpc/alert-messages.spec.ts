import { alertsV1, notifierV1 } from '@inquest/proto';
import {
  alertFilterFields,
  alertStatusFields,
  alertStatusOf,
  deliveryFilterFields,
  deliveryStatusOf,
} from './alert-messages';

const { AlertStatus: A } = alertsV1;
const { DeliveryStatus: D } = notifierV1;

describe('alert and delivery messages', () => {
  it('reads the enums first, the strings of an older peer otherwise', () => {
    expect(alertStatusOf({ status: 'firing', status_enum: A.ALERT_STATUS_RESOLVED })).toBe(
      'resolved',
    );
    expect(alertStatusOf({ status: 'firing', status_enum: A.ALERT_STATUS_UNSPECIFIED })).toBe(
      'firing',
    );
    expect(deliveryStatusOf({ status: 'pending', status_enum: D.DELIVERY_STATUS_STOPPED })).toBe(
      'stopped',
    );
    expect(deliveryStatusOf({ status: 'failed', status_enum: D.DELIVERY_STATUS_UNSPECIFIED })).toBe(
      'failed',
    );
    expect(() => deliveryStatusOf({ status: 'lost', status_enum: 0 })).toThrow(
      /unknown delivery status/,
    );
  });

  it('writes statuses and filters in both forms', () => {
    expect(alertStatusFields('resolved')).toEqual({
      status: 'resolved',
      status_enum: A.ALERT_STATUS_RESOLVED,
    });
    // an unknown status goes as the string only: the runner refuses it by name
    expect(alertStatusFields('weird')).toEqual({ status: 'weird', status_enum: 0 });
    expect(alertFilterFields(undefined)).toEqual({ status_enum: A.ALERT_STATUS_UNSPECIFIED });
    expect(deliveryFilterFields('delivering')).toEqual({
      status: 'delivering',
      status_enum: D.DELIVERY_STATUS_DELIVERING,
    });
  });
});
