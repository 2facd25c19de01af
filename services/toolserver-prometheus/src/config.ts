import { z } from 'zod';
import { envLogLevel, envPort, envPositiveInt, envSecrets } from '@inquest/runtime';
import { isVaultRef } from '@inquest/secrets';
import { parseDurationMs } from './domain/time-range';

const vaultRef = z
  .string()
  .refine(isVaultRef, 'expected a vault:// reference (secrets are never given in plain text)');
const httpUrl = z
  .string()
  .url('expected an http(s) URL')
  .refine((u) => /^https?:\/\//.test(u), 'expected an http(s) URL');
const duration = (def: string) =>
  z
    .string()
    .default(def)
    .refine((d) => parseDurationMs(d) !== undefined, 'expected a duration like 31d or 12h')
    .transform((d) => parseDurationMs(d)!);

/** Environment of the Prometheus/Alertmanager tool server (validated at start). */
export const EnvSchema = z
  .object({
    INQUEST_TOOLSERVER_PROMETHEUS_PORT: envPort(7072),
    INQUEST_TOOLSERVER_PROMETHEUS_HOST: z.string().default('127.0.0.1'),
    /** callers (the toolserver-proxy) must send this bearer token, when set */
    INQUEST_TOOLSERVER_PROMETHEUS_TOKEN: vaultRef.optional(),
    INQUEST_PROMETHEUS_URL: httpUrl,
    INQUEST_PROMETHEUS_BEARER_TOKEN: vaultRef.optional(),
    INQUEST_PROMETHEUS_BASIC_USERNAME: z.string().min(1).optional(),
    INQUEST_PROMETHEUS_BASIC_PASSWORD: vaultRef.optional(),
    INQUEST_ALERTMANAGER_URL: httpUrl.optional(),
    INQUEST_ALERTMANAGER_BEARER_TOKEN: vaultRef.optional(),
    INQUEST_ALERTMANAGER_BASIC_USERNAME: z.string().min(1).optional(),
    INQUEST_ALERTMANAGER_BASIC_PASSWORD: vaultRef.optional(),
    INQUEST_PROMETHEUS_TIMEOUT_MS: envPositiveInt(30_000),
    INQUEST_PROMETHEUS_MAX_RESPONSE_BYTES: envPositiveInt(32 * 1024 * 1024),
    INQUEST_PROMETHEUS_MAX_POINTS: envPositiveInt(1_100),
    INQUEST_PROMETHEUS_MAX_RANGE: duration('31d'),
    INQUEST_DATA_DIR: z.string().default('./.inquest'),
    ...envSecrets,
    INQUEST_LOG_LEVEL: envLogLevel,
  })
  .superRefine((env, ctx) => {
    for (const up of ['PROMETHEUS', 'ALERTMANAGER'] as const) {
      const bearer = env[`INQUEST_${up}_BEARER_TOKEN`];
      const user = env[`INQUEST_${up}_BASIC_USERNAME`];
      const pass = env[`INQUEST_${up}_BASIC_PASSWORD`];
      if (bearer && (user || pass))
        ctx.addIssue({
          code: 'custom',
          path: [`INQUEST_${up}_BEARER_TOKEN`],
          message: 'set either a bearer token or basic auth, not both',
        });
      if (Boolean(user) !== Boolean(pass))
        ctx.addIssue({
          code: 'custom',
          path: [`INQUEST_${up}_BASIC_PASSWORD`],
          message: 'basic auth needs both _BASIC_USERNAME and _BASIC_PASSWORD',
        });
    }
  });

export type Env = z.infer<typeof EnvSchema>;
