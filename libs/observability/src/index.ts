export { createLogger, silentLogger, REDACT_PATHS } from './logger';
export type { Logger, LoggerOptions } from './logger';
export { createMetricsRegistry } from './metrics';
export { requestIdFrom, newRequestId } from './request-id';
export { startMetricsServer } from './metrics-server';
export type { MetricsServer } from './metrics-server';
