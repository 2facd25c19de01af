import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  ConfigChangeDecidedEvent,
  ErrorBody,
  InvestigationCompleteEvent,
} from '@inquest/api-contract';
import type { Logger } from '@inquest/observability';
import { rateClassOf, type RouteDef } from '../http/route';

/** The OpenAPI document object (3.1), as served at /api/v1/openapi.json. */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export interface OpenApiOptions {
  version?: string;
  /** server URL the paths are relative to (default /api/v1) */
  serverUrl?: string;
  logger?: Logger;
}

/** `/agents/status/:investigation_id` -> `/agents/status/{investigation_id}` */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const RATE_HEADERS = {
  'X-RateLimit-Limit': 'Requests allowed in the current one-minute window of this rate class.',
  'X-RateLimit-Remaining': 'Requests left in the current window.',
  'X-RateLimit-Reset': 'Unix epoch seconds at which the window resets.',
  'RateLimit-Policy': 'IETF form of the policy, e.g. "read";q=100;w=60.',
  RateLimit: 'IETF form of the state, e.g. "read";r=99;t=42 (t: seconds until reset).',
} as const;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (invalid_request, invalid_field or validation_error).',
  401: 'Missing, malformed, unknown, revoked or expired credential (unauthorized).',
  403: 'The credential lacks the needed permission (forbidden).',
  404: 'Not found (not_found).',
  413: 'Body larger than 1 MiB (payload_too_large).',
  415: 'Body is not application/json (unsupported_media_type).',
  429: 'Rate limit exceeded (rate_limited, with retry_after and Retry-After).',
  500: 'Server error (internal; never carries internal details).',
  503: 'A backing service is unavailable or did not answer in time (unavailable).',
};

/**
 * Generates the OpenAPI 3.1 document from the routes' own zod schemas (the ones that validate
 * requests). A route whose schema cannot be expressed in OpenAPI is still listed, with an
 * unconstrained schema and a warning in the log, so the document never drops an endpoint.
 */
export function buildOpenApiDocument(
  routes: RouteDef[],
  options: OpenApiOptions = {},
): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerCommon(registry);
  registerWebhooks(registry);
  for (const route of routes) {
    const config = routeConfig(route, true);
    if (generates(config)) {
      registry.registerPath(config);
    } else {
      options.logger?.warn(
        { route: `${route.method} ${route.path}` },
        'route schema not expressible in OpenAPI',
      );
      registry.registerPath(routeConfig(route, false));
    }
  }
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Inquest API',
      version: options.version ?? '1.0.0',
      description:
        'Incident investigation service. Every endpoint except this document and the reference page needs ' +
        '`Authorization: Bearer <token>` (team token, OIDC JWT, or the admin token with `X-Inquest-Team` on team ' +
        'endpoints). Bodies are bare JSON; errors are `{"error": {"code", "message", "request_id", ...}}`. ' +
        'Rate limits: reads 100, writes 20, investigation triggers 10 per credential per minute by default.',
    },
    servers: [{ url: options.serverUrl ?? '/api/v1' }],
  });
}

/**
 * The webhooks Inquest sends (OpenAPI 3.1 `webhooks`): what a receiver gets, signed per Standard
 * Webhooks when `webhooks.signing_secret` is set; any 2xx acknowledges, 410 stops the delivery.
 */
function registerWebhooks(registry: OpenAPIRegistry): void {
  const events = [
    [
      'investigation_complete',
      'To `webhooks.investigation_complete` when an investigation ends (completed, failed or cancelled)',
      InvestigationCompleteEvent,
    ],
    [
      'config_change_decided',
      'To `webhooks.config_change` when a change request is approved or rejected (never to investigation_complete)',
      ConfigChangeDecidedEvent,
    ],
  ] as const;
  for (const [name, summary, schema] of events) {
    registry.registerWebhook({
      method: 'post',
      path: name,
      summary,
      request: { body: { content: { 'application/json': { schema } } } },
      responses: {
        200: { description: 'Any 2xx acknowledges the delivery' },
        410: { description: 'Stops this delivery' },
      },
    });
  }
}

function registerCommon(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description:
      'Team token `<token_id>.<secret>`, OIDC JWT (issuer and audience configured on the gateway), or the admin ' +
      'token `admin.<secret>` together with `X-Inquest-Team`.',
  });
  registry.registerComponent('securitySchemes', 'intakeSecret', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Inquest-Intake-Secret',
    description:
      "Alert receivers only: the team's intake secret (`alerts.intake_secret`), with the team in `?team=`.",
  });
  registry.registerComponent('securitySchemes', 'pagerdutySignature', {
    type: 'apiKey',
    in: 'header',
    name: 'X-PagerDuty-Signature',
    description:
      'PagerDuty receiver only: `v1=<hex HMAC-SHA256 of the raw body>` (one or more, comma-separated) with `alerts.pagerduty.signing_secret`, the team in `?team=`.',
  });
  registry.registerComponent('securitySchemes', 'admin', {
    type: 'http',
    scheme: 'bearer',
    description: 'The admin token `admin.<secret>`.',
  });
  for (const [name, description] of Object.entries(RATE_HEADERS)) {
    registry.registerComponent('headers', name, {
      description,
      schema: name.startsWith('X-') ? { type: 'integer' } : { type: 'string' },
    });
  }
  registry.registerComponent('headers', 'Retry-After', {
    description: 'Whole seconds to wait before retrying (same as error.retry_after).',
    schema: { type: 'integer', minimum: 1 },
  });
  registry.registerComponent('headers', 'X-Request-Id', {
    description: 'Echoes a well-formed incoming X-Request-Id, else a generated one.',
    schema: { type: 'string' },
  });
}

function generates(config: RouteConfig): boolean {
  try {
    const r = new OpenAPIRegistry();
    registerCommon(r);
    r.registerPath(config);
    new OpenApiGeneratorV31(r.definitions).generateDocument({
      openapi: '3.1.0',
      info: { title: 't', version: '0' },
    });
    return true;
  } catch {
    return false;
  }
}

function routeConfig(route: RouteDef, withSchemas: boolean): RouteConfig {
  const path = toOpenApiPath(route.path);
  const pathParams = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const limited = route.auth !== 'public';
  const refHeader = (name: string) => ({ $ref: `#/components/headers/${name}` });
  const successHeaders = {
    'X-Request-Id': refHeader('X-Request-Id'),
    ...(limited ? Object.fromEntries(Object.keys(RATE_HEADERS).map((h) => [h, refHeader(h)])) : {}),
  };
  const loose = z.unknown();

  const responses: RouteConfig['responses'] = {};
  for (const [status, doc] of Object.entries(route.responses)) {
    const own = Object.fromEntries(
      Object.entries(doc.headers ?? {}).map(([h, d]) => [
        h,
        { description: d, schema: { type: 'string' } },
      ]),
    );
    responses[status] = {
      description: doc.description,
      headers: { ...successHeaders, ...own },
      ...(doc.schema || doc.contentType
        ? {
            content: {
              [doc.contentType ?? 'application/json']: {
                schema: withSchemas && doc.schema ? doc.schema : loose,
              },
            },
          }
        : {}),
    };
  }
  const errorStatuses = [400, 404, 500, 503];
  if (limited) errorStatuses.push(401, 403, 429);
  if (route.body) errorStatuses.push(413, 415);
  for (const status of errorStatuses.sort()) {
    if (responses[String(status)]) continue;
    responses[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
      headers:
        status === 429
          ? { ...successHeaders, 'Retry-After': refHeader('Retry-After') }
          : { 'X-Request-Id': refHeader('X-Request-Id') },
      content: { 'application/json': { schema: ErrorBody } },
    };
  }

  const params =
    withSchemas && route.params instanceof z.ZodObject
      ? route.params
      : pathParams.length
        ? z.object(Object.fromEntries(pathParams.map((p) => [p, z.string()])))
        : undefined;
  const query = withSchemas && route.query instanceof z.ZodObject ? route.query : undefined;
  const ownHeaders = Object.fromEntries(
    Object.entries(route.requestHeaders ?? {}).map(([h, d]) => [
      h,
      z.string().optional().describe(d),
    ]),
  );
  const headers =
    route.auth === 'team' || route.requestHeaders
      ? z.object({
          ...(route.auth === 'team'
            ? {
                'X-Inquest-Team': z
                  .string()
                  .regex(/^[a-z0-9][a-z0-9-]{1,62}$/)
                  .optional()
                  .describe(
                    'Team node id; required with the admin token on team endpoints, ignored otherwise.',
                  ),
              }
            : {}),
          ...ownHeaders,
        })
      : undefined;

  const description = [
    route.description,
    limited ? `Rate class: \`${rateClassOf(route)}\`.` : 'No token needed.',
    route.auth === 'team' ? `Needs \`${route.permission ?? 'read'}\` permission.` : undefined,
    route.auth === 'admin' ? 'Admin token only.' : undefined,
  ]
    .filter(Boolean)
    .join(' ');

  return {
    method: route.method,
    path,
    operationId: `${route.method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: route.summary,
    description,
    tags: route.tags,
    security:
      route.auth === 'public'
        ? []
        : route.auth === 'admin'
          ? [{ admin: [] }]
          : [{ bearer: [] }, ...(route.senderSchemes ?? []).map((s) => ({ [s]: [] }))],
    request: {
      ...(params ? { params } : {}),
      ...(query ? { query } : {}),
      ...(headers ? { headers } : {}),
      ...(route.body
        ? {
            body: {
              required: true,
              content: { 'application/json': { schema: withSchemas ? route.body : loose } },
            },
          }
        : {}),
    },
    responses,
  } as RouteConfig;
}
