export { freePort } from './free-port';
export { tempDir } from './temp-dir';
export { waitFor } from './wait-for';
export { startNatsServer, natsServerBinary } from './nats-server';
export type { RunningNatsServer } from './nats-server';
export {
  startPrometheus,
  startAlertmanager,
  startNodeExporter,
  SILENT_ALERTMANAGER_CONFIG,
} from './prometheus-servers';
export type {
  StartPrometheusOptions,
  StartAlertmanagerOptions,
  StartNodeExporterOptions,
  ScrapeJob,
  PrometheusRule,
} from './prometheus-servers';
export type { RunningHttpServerProcess } from './http-server-process';
export {
  findServerBinary,
  requireServerBinary,
  PROMETHEUS,
  PROMTOOL,
  ALERTMANAGER,
  NODE_EXPORTER,
} from './server-binary';
export type { ServerBinary } from './server-binary';
export { untilAborted } from './until-aborted';
export * from './doubles/index';
export { gatewayRequest } from './gateway-request';
export type { GatewayResponse, GatewayRequestOptions } from './gateway-request';
export { CHROMIUM, chromiumBinary, launchChromium } from './browser';
