export { openSqlite, migrate } from './sqlite/open-sqlite';
export { ensurePrivateDir, ensurePrivateFile } from './sqlite/private-files';
export type { SqliteDb, Migration } from './sqlite/open-sqlite';
export * from './config/index';
export * from './investigations/index';
export * from './deliveries/index';
export * from './knowledge/index';
export * from './alerts/index';
