export {
  toMetadata,
  fromMetadata,
  MD_REQUEST_ID,
  MD_TEAM,
  MD_PRINCIPAL,
  MD_PERMISSIONS,
} from './call-context';
export type { CallContext } from './call-context';
export { toGrpcStatus, fromGrpcError, MD_ERROR_CODE } from './status-mapping';
export { implement, startGrpcServer } from './server';
export type {
  HandlerContext,
  AsyncHandlers,
  GrpcServiceBinding,
  RunningGrpcServer,
  StartGrpcServerOptions,
} from './server';
export { createClient, checkHealth } from './client';
export type { PromiseClient, RpcOptions, ClientOptions } from './client';
