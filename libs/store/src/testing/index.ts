// Contract suites of the store ports (each area adds its own export here).
export { investigationStoreContract, anInvestigationRecord } from './investigation-store.contract';
export type { InvestigationStoreFactory } from './investigation-store.contract';
export { deliveryStoreContract, aNewDelivery } from './delivery-store.contract';
export type { DeliveryStoreFactory } from './delivery-store.contract';
export { configStoresContract, aNodeRecord } from './config-store.contract';
export type { ConfigStoresFactory } from './config-store.contract';
export {
  knowledgeStoreContract,
  aDocumentRecord,
  aPatternRecord,
} from './knowledge-store.contract';
export type { KnowledgeStoreFactory } from './knowledge-store.contract';
export { alertStoreContract, aNewAlert } from './alert-store.contract';
export type { AlertStoreFactory } from './alert-store.contract';
