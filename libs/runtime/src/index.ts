export { parseEnv, EnvError } from './env';
export {
  envPort,
  envAddress,
  envUrl,
  envBool,
  envLogLevel,
  envPositiveInt,
  envOptionalPort,
  envMongoUrl,
  envNatsUrl,
  DEFAULT_ADDRESSES,
} from './env-schemas';
export { runMain } from './run-main';
export { StartupError, listenOrExplain } from './startup-error';
export type { Stoppable } from './run-main';
export type { ServiceDeps, RunningService } from './service';
