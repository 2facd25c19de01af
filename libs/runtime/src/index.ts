export { parseEnv, EnvError } from './env';
export {
  envPort,
  envAddress,
  envUrl,
  envHttpUrl,
  envBool,
  envLogLevel,
  envPositiveInt,
  envOptionalPort,
  envMongoUrl,
  envNatsUrl,
  DEFAULT_ADDRESSES,
} from './env-schemas';
export { runMain } from './run-main';
export { Closers } from './closers';
export type { Closer, ClosersOptions } from './closers';
export { envMongo, mongoFromEnv } from './mongo-env';
export type { MongoEnv, MongoSettings } from './mongo-env';
export { envSecrets, secretsFromEnv } from './secrets-env';
export type { SecretsEnv } from './secrets-env';
export { envBus, busFor } from './bus';
export { createCircuitBreaker } from './circuit-breaker';
export type { CircuitBreaker, CircuitBreakerOptions, CircuitState } from './circuit-breaker';
export type { BusOptions } from './bus';
export { StartupError, listenOrExplain } from './startup-error';
export type { Stoppable } from './run-main';
export type { ServiceDeps, RunningService } from './service';
