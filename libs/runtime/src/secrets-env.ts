import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '@inquest/observability';
import { createSecretResolver, type SecretResolver } from '@inquest/secrets';
import { EnvError } from './env';
import { envHttpUrl, envPositiveInt } from './env-schemas';

/**
 * The secret-store variables of every service that resolves `vault://` references; spread into
 * its env schema: `z.object({ ...envSecrets, ... })`.
 */
export const envSecrets = {
  /** Vault KV v2; needs INQUEST_VAULT_TOKEN */
  INQUEST_VAULT_ADDR: envHttpUrl.optional(),
  INQUEST_VAULT_TOKEN: z.string().min(1).optional(),
  /** KV v2 mount, default `secret` */
  INQUEST_VAULT_MOUNT: z.string().min(1).optional(),
  /** JSON file of vault path -> value when Vault is not configured (default <data dir>/secrets.json) */
  INQUEST_SECRETS_FILE: z.string().min(1).optional(),
  /** how long a resolved value is reused */
  INQUEST_SECRETS_CACHE_MS: envPositiveInt(30_000),
};

/** What `secretsFromEnv` reads. */
export interface SecretsEnv {
  INQUEST_VAULT_ADDR?: string | undefined;
  INQUEST_VAULT_TOKEN?: string | undefined;
  INQUEST_VAULT_MOUNT?: string | undefined;
  INQUEST_SECRETS_FILE?: string | undefined;
  INQUEST_SECRETS_CACHE_MS?: number | undefined;
  INQUEST_DATA_DIR: string;
}

/**
 * The one rule for the secret store: Vault KV v2 when `INQUEST_VAULT_ADDR` is set (with
 * `INQUEST_VAULT_TOKEN`: an address without a token is an `EnvError` at start, never a silent
 * fall-back to the file), else the secrets file (`INQUEST_SECRETS_FILE`, default
 * `<INQUEST_DATA_DIR>/secrets.json`).
 */
export function secretsFromEnv(
  env: SecretsEnv,
  deps: { logger?: Pick<Logger, 'debug' | 'warn'> } = {},
): SecretResolver {
  if (env.INQUEST_VAULT_ADDR && !env.INQUEST_VAULT_TOKEN)
    throw new EnvError('INQUEST_VAULT_TOKEN: required when INQUEST_VAULT_ADDR is set');
  return createSecretResolver({
    ...(env.INQUEST_VAULT_ADDR && env.INQUEST_VAULT_TOKEN
      ? {
          vault: {
            addr: env.INQUEST_VAULT_ADDR,
            token: env.INQUEST_VAULT_TOKEN,
            ...(env.INQUEST_VAULT_MOUNT ? { mount: env.INQUEST_VAULT_MOUNT } : {}),
          },
        }
      : { file: env.INQUEST_SECRETS_FILE ?? join(env.INQUEST_DATA_DIR, 'secrets.json') }),
    ...(env.INQUEST_SECRETS_CACHE_MS !== undefined
      ? { cacheTtlMs: env.INQUEST_SECRETS_CACHE_MS }
      : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
}
