// Each area's schemas are re-exported from here.
export * from './common.schemas';
export * from './webhooks.schemas';
export * from './config.schemas';
export * from './admin.schemas';
export * from './agents.schemas';
export * from './kb.schemas';
export { KNOWLEDGE_TYPES, MAX_CONTENT_BYTES, MAX_TOP_K, TYPE_LEVEL } from './kb-limits';
export type { KnowledgeTypeName } from './kb-limits';
export * from './tools.schemas';
export * from './alerts.schemas';
export * from './auth.schemas';
