// Each area's schemas are re-exported from here.
export * from './common.schemas';
export * from './webhooks.schemas';
export * from './config.schemas';
export * from './admin.schemas';
export * from './agents.schemas';
export * from './kb.schemas';
export * from './tools.schemas';
export * from './alerts.schemas';
export * from './auth.schemas';
