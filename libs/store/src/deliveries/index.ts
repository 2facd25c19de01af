// Port and adapters of the deliveries area are exported from here.
export { attemptRecord, laneOf } from './delivery-store';
export type {
  AttemptOutcome,
  ClaimOptions,
  Delivery,
  DeliveryAttempt,
  DeliveryChannel,
  DeliverySecretScope,
  DeliveryStatus,
  DeliveryStore,
  ListDeliveriesOptions,
  NewDelivery,
} from './delivery-store';
export { SqliteDeliveryStore } from './sqlite-delivery-store';
export { MongoDeliveryStore } from './mongo-delivery-store';
