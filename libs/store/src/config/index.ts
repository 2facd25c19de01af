export type {
  StoredJson,
  NodeKind,
  NodeRecord,
  NodeConfigRecord,
  AuditList,
  AuditPage,
  AuditRecord,
  ChangeRequestStatus,
  ChangeRequestRecord,
  TokenRecord,
  ConfigWrite,
  NodeStore,
  ChangeRequestStore,
  TokenStore,
  ConfigStores,
} from './config-store';
export { openSqliteConfigStores, CONFIG_MIGRATIONS } from './sqlite-config-stores';
export { connectMongoConfigStores } from './mongo-config-stores';
export type { MongoConfigStoresOptions } from './mongo-config-stores';
