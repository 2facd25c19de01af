// Port and adapters of the investigations area are exported from here.
export { TERMINAL_STATUSES } from './investigation-store';
export type {
  ClaimOutcome,
  FinishPatch,
  InvestigationAlertRecord,
  InvestigationContextRecord,
  InvestigationRecord,
  InvestigationResultRecord,
  InvestigationStatus,
  InvestigationStore,
  ListInvestigationsQuery,
  ProgressRecord,
} from './investigation-store';
export { SqliteInvestigationStore } from './sqlite-investigation-store';
export { MongoInvestigationStore } from './mongo-investigation-store';
