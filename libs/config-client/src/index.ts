export type {
  ConfigChange,
  EffectiveConfig,
  EffectiveConfigLoader,
  EffectiveConfigSource,
  EffectiveSecretScope,
  ReadOptions,
} from './effective-config-source';
export { CachedEffectiveConfigSource } from './cached-effective-config-source';
export type { CachedEffectiveConfigSourceOptions } from './cached-effective-config-source';
export { CONFIG_READ_POLICY, configRequestId } from './config-read-policy';
export {
  connectEffectiveConfigSource,
  grpcEffectiveConfigLoader,
} from './grpc-effective-config-source';
export type {
  EffectiveConfigRpc,
  GrpcEffectiveConfigSourceOptions,
} from './grpc-effective-config-source';
