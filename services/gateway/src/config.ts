import { isIP } from 'node:net';
import { z } from 'zod';
import {
  envBool,
  DEFAULT_ADDRESSES,
  envAddress,
  envBus,
  envLogLevel,
  envMongo,
  envPort,
  envPositiveInt,
  envSecrets,
} from '@inquest/runtime';
import { parseRateLimits } from './http/rate-limits';

/** Unset and empty (as compose passes `${X:-}`) are the same. */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** Environment of the gateway (validated at start). */
export const EnvSchema = z
  .object({
    PORT: envPort(8080),
    INQUEST_HTTP_HOST: z.string().default('0.0.0.0'),
    INQUEST_LOG_LEVEL: envLogLevel,
    INQUEST_ADMIN_TOKEN: z
      .string()
      .regex(
        /^admin\.[A-Za-z0-9_-]{16,}$/,
        'expected admin.<secret> with a secret of at least 16 characters',
      )
      .optional(),
    INQUEST_ADMIN_TOKEN_SHA256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'expected 64 hex characters')
      .optional(),
    INQUEST_CONFIG_ADDR: envAddress(DEFAULT_ADDRESSES.config),
    INQUEST_INVESTIGATION_ADDR: envAddress(DEFAULT_ADDRESSES.investigation),
    INQUEST_KNOWLEDGE_ADDR: envAddress(DEFAULT_ADDRESSES.knowledge),
    INQUEST_TOOLS_ADDR: envAddress(DEFAULT_ADDRESSES.tools),
    INQUEST_NOTIFIER_ADDR: envAddress(DEFAULT_ADDRESSES.notifier),
    /** token revocations from other gateway replicas */
    ...envBus,
    /** rate-limit counters and seen Slack deliveries shared by gateway replicas */
    ...envMongo,
    /** `read=100,write=20,trigger=10,auth_fail=30`; missing classes keep their default */
    INQUEST_RATE_LIMITS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        try {
          return parseRateLimits(v);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      }),
    INQUEST_OIDC_ISSUER: z.string().url('expected the issuer URL').optional(),
    INQUEST_OIDC_AUDIENCE: z.string().min(1).optional(),
    INQUEST_OIDC_TEAM_CLAIM: z.string().min(1).default('inquest_team'),
    INQUEST_OIDC_PERMISSIONS_CLAIM: z.string().min(1).default('inquest_permissions'),
    /** comma-separated exact origins allowed by CORS; unset = CORS off */
    INQUEST_CORS_ORIGINS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const list = (v ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        for (const o of list) {
          if (!/^https?:\/\/[^/\s]+$/.test(o)) {
            ctx.addIssue({
              code: 'custom',
              message: `expected origins like https://console.example.com, got "${o}"`,
            });
            return z.NEVER;
          }
        }
        return list;
      }),
    /**
     * the proxies in front of the gateway (ingress): a hop count, or comma-separated addresses
     * and CIDRs (`loopback`, `uniquelocal` too); failed authentications are then counted per
     * client address of X-Forwarded-For. Unset: the peer address (no proxy believed).
     */
    INQUEST_TRUST_PROXY: z
      .string()
      .optional()
      .transform((v, ctx): number | string[] | undefined => {
        const s = (v ?? '').trim();
        if (!s || s === 'false') return undefined;
        if (/^\d{1,2}$/.test(s)) return Number(s);
        const list = s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        for (const e of list) {
          const [addr, bits] = e.split('/');
          const named = ['loopback', 'linklocal', 'uniquelocal'].includes(e);
          if (!named && (!isIP(addr ?? '') || (bits !== undefined && !/^\d{1,3}$/.test(bits)))) {
            ctx.addIssue({
              code: 'custom',
              message: `expected a hop count or proxy addresses/CIDRs (loopback, uniquelocal), got "${e}"`,
            });
            return z.NEVER;
          }
        }
        return list;
      }),
    /** a request (reading the body + handler) not answered by then gets 503 unavailable */
    INQUEST_REQUEST_TIMEOUT_MS: envPositiveInt(30_000),
    /** how long a verified team token is trusted without asking config-hierarchy again */
    INQUEST_TOKEN_CACHE_TTL_MS: envPositiveInt(30_000),
    /** Slack chat front end: the Web API it answers through, and where its secrets resolve */
    INQUEST_SLACK_API_URL: z
      .string()
      .default('https://slack.com/api')
      .refine((v) => /^https?:\/\/[^\s]+$/.test(v), 'expected an http(s) URL')
      .transform((v) => v.replace(/\/+$/, '')),
    /** how often a Slack-started investigation's progress message is refreshed */
    INQUEST_SLACK_PROGRESS_POLL_MS: envPositiveInt(1000),
    INQUEST_DATA_DIR: z.string().default('./.inquest'),
    /** serve the web console at /console (and redirect / there) */
    INQUEST_CONSOLE: envBool(true),
    /** the console's OIDC client (public, PKCE); with INQUEST_OIDC_ISSUER it offers OIDC sign-in */
    INQUEST_CONSOLE_OIDC_CLIENT_ID: optionalString,
    INQUEST_CONSOLE_OIDC_SCOPES: z.string().min(1).default('openid email profile'),
    ...envSecrets,
  })
  .superRefine((env, ctx) => {
    if (env.INQUEST_OIDC_ISSUER && !env.INQUEST_OIDC_AUDIENCE) {
      ctx.addIssue({
        code: 'custom',
        path: ['INQUEST_OIDC_AUDIENCE'],
        message: 'required when INQUEST_OIDC_ISSUER is set',
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;
