// Port and adapters of the alerts area are exported from here.
export type {
  AlertGroupRecord,
  AlertRecord,
  AlertStatus,
  AlertStore,
  ListAlertsQuery,
  NewAlert,
  OpenGroupOutcome,
  OpenGroupRequest,
} from './alert-store';
export { SqliteAlertStore } from './sqlite-alert-store';
export { MongoAlertStore } from './mongo-alert-store';
