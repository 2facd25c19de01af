export { freePort } from './free-port';
export { tempDir } from './temp-dir';
export { waitFor } from './wait-for';
export { startNatsServer, natsServerBinary } from './nats-server';
export type { RunningNatsServer } from './nats-server';
export { untilAborted } from './until-aborted';
export * from './doubles/index';
export { gatewayRequest } from './gateway-request';
export type { GatewayResponse, GatewayRequestOptions } from './gateway-request';
