import { z } from 'zod';
import {
  DEFAULT_ADDRESSES,
  envAddress,
  envLogLevel,
  envPort,
  envPositiveInt,
  envOptionalPort,
  envBus,
  envMongo,
  envSecrets,
} from '@inquest/runtime';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const httpUrl = (def: string) =>
  z
    .string()
    .default(def)
    .refine(
      (v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v),
      'expected an absolute http(s) URL',
    )
    .transform((v) => v.replace(/\/+$/, ''));

/** Environment of the notifier service (validated at start). */
export const EnvSchema = z
  .object({
    INQUEST_GRPC_PORT: envPort(50055),
    INQUEST_GRPC_HOST: z.string().default('127.0.0.1'),
    /** serves GET /metrics (Prometheus) on this port when set */
    INQUEST_METRICS_PORT: envOptionalPort,
    INQUEST_LOG_LEVEL: envLogLevel,
    INQUEST_CONFIG_ADDR: envAddress(DEFAULT_ADDRESSES.config),
    INQUEST_DATA_DIR: z.string().default('./.inquest'),
    ...envMongo,
    ...envBus,
    /** first retry delay; each further one grows x4 (+/-20% jitter) */
    INQUEST_WEBHOOK_RETRY_BASE_MS: envPositiveInt(5000),
    INQUEST_WEBHOOK_RETRY_CAP_MS: envPositiveInt(10 * 60 * 60 * 1000),
    INQUEST_WEBHOOK_MAX_ATTEMPTS: envPositiveInt(10),
    /** per-attempt request timeout (API-DECISIONS: 15 s) */
    INQUEST_WEBHOOK_TIMEOUT_MS: envPositiveInt(15_000),
    INQUEST_EGRESS_ALLOW: optionalString,
    INQUEST_SLACK_API_URL: httpUrl('https://slack.com/api'),
    /**
     * the web console as users reach it: chat messages link an investigation's page there
     * (`{investigation_id}` in it is replaced, else `/investigations/<id>` is appended). Unset:
     * no link (the API's status URL needs a token a browser does not send).
     */
    INQUEST_CONSOLE_URL: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
      .refine(
        (v) => v === undefined || (/^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v)),
        'expected an absolute http(s) URL',
      ),
    ...envSecrets,
    /** attempts running at once in this replica */
    INQUEST_NOTIFIER_CONCURRENCY: envPositiveInt(32),
    /** attempts running at once per team and channel (head-of-line isolation) */
    INQUEST_NOTIFIER_LANE_CONCURRENCY: envPositiveInt(4),
    /** claim lease; must outlast one attempt so a live replica never loses its claim */
    INQUEST_NOTIFIER_LEASE_MS: envPositiveInt(60_000),
    /** longest sleep between looks at the delivery log (other replicas' retries, expired leases) */
    INQUEST_NOTIFIER_POLL_MS: envPositiveInt(1000),
    INQUEST_NOTIFIER_REPLICA_ID: optionalString,
  })
  .superRefine((v, ctx) => {
    if (v.INQUEST_NOTIFIER_LEASE_MS < v.INQUEST_WEBHOOK_TIMEOUT_MS + 5000) {
      ctx.addIssue({
        code: 'custom',
        path: ['INQUEST_NOTIFIER_LEASE_MS'],
        message: `must be at least INQUEST_WEBHOOK_TIMEOUT_MS + 5000 (${v.INQUEST_WEBHOOK_TIMEOUT_MS + 5000})`,
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;
