import { performance } from 'node:perf_hooks';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import cors from 'cors';
import type { Registry } from 'prom-client';
import { Counter, Histogram } from 'prom-client';
import {
  DomainError,
  invalidRequest,
  forbidden,
  unavailable,
  validationError,
} from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import { newRequestId, requestIdFrom } from '@inquest/observability';
import type { z } from 'zod';
import type { Authenticator } from './auth/authenticator';
import type { TeamDirectory } from './auth/team-directory';
import { toHttpError } from './http/http-error';
import { hasBody, parseJsonBody, readJsonBody, readRawBody } from './http/json-body';
import { RequestAbort } from './http/request-abort';
import type { RateLimiter, RateState } from './http/rate-limiter';
import { unlimited } from './http/rate-limiter';
import { HttpApiRequest } from './http/api-request';
import { PreparedBody } from './http/prepared-body';
import {
  holdHeaders,
  installHeldHeaders,
  setHeldHeader,
  writeHeadWith,
} from './http/response-head';
import type { ApiResponse, AuthContext, RateClass, RouteDef } from './http/route';
import { rateClassOf } from './http/route';
import { securityHeaders } from './http/security-headers';
import { mountConsole, CONSOLE_PATH, type ConsoleOptions } from './console/console-static';
import { mountRedocAsset } from './openapi/docs-page';
import { metaRoutes } from './openapi/meta-routes';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi/openapi-document';

export const API_PREFIX = '/api/v1';

export interface Readiness {
  ok: boolean;
  services: Record<string, 'up' | 'down'>;
}

export interface AppDeps {
  routes: RouteDef[];
  authenticator: Authenticator;
  /** checks that the team the admin token names in X-Inquest-Team exists */
  teams: TeamDirectory;
  logger: Logger;
  metrics: Registry;
  rateLimiter?: RateLimiter;
  readiness?: () => Promise<Readiness>;
  /** extra express handlers mounted before the API router */
  extend?: (app: express.Express) => void;
  /** exact origins allowed by CORS; empty or absent = no CORS headers at all */
  corsOrigins?: string[];
  /** a request not answered by then gets 503 unavailable and its signal aborts (default 30 s) */
  requestTimeoutMs?: number;
  /**
   * The proxies in front of the gateway (express `trust proxy`: a hop count, or the addresses and
   * CIDRs of the proxies): the client address that failed authentications are counted for is
   * then read from their X-Forwarded-For. Default none: the peer address.
   */
  trustProxy?: number | string[];
  /** serve /api/v1/openapi.json and /api/v1/docs (default true) */
  openapi?: boolean;
  /** version shown in the OpenAPI document */
  version?: string;
  /** serve the web console at /console (and redirect / there) */
  console?: ConsoleOptions;
}

/** Headers a browser client may send and read when CORS is on. */
const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'X-Inquest-Team', 'X-Request-Id'];
const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
];

type Locals = { requestId: string };

/**
 * Security headers on every answer (helmet's, computed once), as a flat `[name, value, ...]` list;
 * the docs page loosens its own CSP for Redoc.
 */
const SECURITY_HEADERS = securityHeaders({
  crossOriginResourcePolicy: { policy: 'same-site' },
}).flat();

/**
 * API answers carry a team's data (configuration, investigations, knowledge, audit): no cache,
 * the browser's or a proxy's, keeps them (OWASP REST Security: `Cache-Control: no-store`). The
 * public API reference (the OpenAPI document and the docs page's assets) stays cacheable.
 */
const API_HEADERS = [...SECURITY_HEADERS, 'Cache-Control', 'no-store'];
const API_PATH = `${API_PREFIX}/`;
/** express mounts the API prefix in any case (`/API/V1/whoami` answers too) */
const isApiAnswer = (url: string) => {
  if (url.length <= API_PATH.length) return false;
  const start = url.slice(0, API_PATH.length + 12).toLowerCase();
  return (
    start.startsWith(API_PATH) &&
    !start.startsWith(`${API_PREFIX}/docs`) &&
    !start.startsWith(`${API_PREFIX}/openapi.json`)
  );
};

/** The gateway's express app: request ids, metrics, health, then every declared route under /api/v1. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // the opening headers of an answer are held and written with its head (./http/response-head)
  installHeldHeaders(app);
  // Behind an ingress every client would otherwise share its address: one client's failed
  // guesses would lock out everyone. Only the operator's proxies are believed, never a client.
  app.set(
    'trust proxy',
    typeof deps.trustProxy === 'number' || deps.trustProxy?.length ? deps.trustProxy : false,
  );
  app.set('query parser', 'extended');
  const limiter = deps.rateLimiter ?? unlimited;
  let document: OpenApiDocument | undefined;
  const routes: RouteDef[] =
    deps.openapi === false
      ? deps.routes
      : [
          ...deps.routes,
          ...metaRoutes(
            (): OpenApiDocument =>
              (document ??= buildOpenApiDocument(routes, {
                version: deps.version,
                logger: deps.logger,
              })),
          ),
        ];

  const requests = new Counter({
    name: 'inquest_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [deps.metrics],
  });
  const latency = new Histogram({
    name: 'inquest_http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [deps.metrics],
  });

  // one listener for every answer (no closure per request): `this` is the response
  function recordFinished(this: Response<unknown, Locals & { route?: string; started: number }>) {
    const labels = {
      method: this.req.method,
      route: this.locals.route ?? 'unmatched',
      status: String(this.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, (performance.now() - this.locals.started) / 1000);
  }
  app.use(
    (req: Request, res: Response<unknown, Locals & { started: number }>, next: NextFunction) => {
      const requestId = requestIdFrom(req.headers['x-request-id']);
      res.locals.requestId = requestId;
      res.locals.started = performance.now();
      holdHeaders(res, [
        'X-Request-Id',
        requestId,
        ...(isApiAnswer(req.url) ? API_HEADERS : SECURITY_HEADERS),
      ]);
      res.on('finish', recordFinished);
      next();
    },
  );
  if (deps.corsOrigins?.length) {
    const allowed = new Set(deps.corsOrigins);
    app.use(
      cors({
        origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
        methods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
        allowedHeaders: CORS_ALLOWED_HEADERS,
        exposedHeaders: CORS_EXPOSED_HEADERS,
        credentials: false,
        maxAge: 600,
      }),
    );
  }

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const r = deps.readiness ? await deps.readiness() : { ok: true, services: {} };
    res
      .status(r.ok ? 200 : 503)
      .json({ status: r.ok ? 'ready' : 'not_ready', services: r.services });
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', deps.metrics.contentType);
    res.send(await deps.metrics.metrics());
  });
  // like the API's routes: another method on a path that exists is 405 with Allow, not 404
  app.all(['/healthz', '/readyz', '/metrics'], (req: Request, res: Response<unknown, Locals>) => {
    res.setHeader('Allow', 'GET, HEAD');
    sendError(
      res,
      new DomainError(
        'invalid_input',
        'method_not_allowed',
        `method ${req.method} not allowed here`,
      ),
      deps.logger,
    );
  });
  // A browser pointed at the bare URL lands on the console (else on the API reference).
  if (deps.console) mountConsole(app, deps.console);
  if (deps.console || deps.openapi !== false)
    app.get('/', (_req, res) => {
      res.redirect(302, deps.console ? `${CONSOLE_PATH}/` : `${API_PREFIX}/docs`);
    });

  if (deps.openapi !== false) mountRedocAsset(app);
  deps.extend?.(app);

  const timeoutMs = deps.requestTimeoutMs ?? 30_000;
  const router = express.Router({ strict: false, caseSensitive: true });
  for (const route of routes) {
    router[route.method](route.path, (req: Request, res: Response<unknown, Locals>) => {
      (res.locals as { route?: string }).route = `${API_PREFIX}${route.path}`;
      const abort = new RequestAbort(res);
      const timer = setTimeout(() => {
        deps.logger.warn(
          { request_id: res.locals.requestId, route: route.path },
          'request timed out',
        );
        abort.abort(new Error('request timed out'));
        sendError(res, unavailable('the request was not answered in time'), deps.logger);
      }, route.timeoutMs ?? timeoutMs);
      handle(route, req, res, deps, limiter, abort).then(
        () => clearTimeout(timer),
        (err: unknown) => {
          clearTimeout(timer);
          sendError(res, err, deps.logger);
        },
      );
    });
  }
  // A path that exists with other methods is 405 with Allow; anything else 404.
  const patterns = routes.map((r) => ({ re: pathRegex(r.path), method: r.method.toUpperCase() }));
  router.use((req: Request, res: Response<unknown, Locals>) => {
    const allowed = patterns.filter((p) => p.re.test(req.path)).map((p) => p.method);
    if (allowed.length > 0) {
      // express answers HEAD wherever GET is routed
      if (allowed.includes('GET')) allowed.push('HEAD');
      res.setHeader('Allow', [...new Set(allowed)].join(', '));
      sendError(
        res,
        new DomainError(
          'invalid_input',
          'method_not_allowed',
          `method ${req.method} not allowed here`,
        ),
        deps.logger,
      );
      return;
    }
    sendError(
      res,
      new DomainError('not_found', 'not_found', `no route ${req.method} ${API_PREFIX}${req.path}`),
      deps.logger,
    );
  });
  app.use(API_PREFIX, router);
  app.use((req: Request, res: Response<unknown, Locals>) => {
    sendError(
      res,
      new DomainError('not_found', 'not_found', `no route ${req.method} ${req.path}`),
      deps.logger,
    );
  });
  // errors thrown by express itself or by middleware (never a stack trace in the answer)
  app.use((err: unknown, _req: Request, res: Response<unknown, Locals>, _next: NextFunction) => {
    // the router decodes path parameters: `%` or `%zz` throws a URIError, the client's mistake
    const mapped = isUriError(err)
      ? invalidRequest('the URL path has malformed percent-encoding')
      : err;
    sendError(res, mapped, deps.logger);
  });
  return app;
}

async function handle(
  route: RouteDef,
  req: Request,
  res: Response<unknown, Locals>,
  deps: AppDeps,
  limiter: RateLimiter,
  abort: RequestAbort,
): Promise<void> {
  const requestId = res.locals.requestId;
  let auth: AuthContext = {
    kind: 'admin',
    principal: 'anonymous',
    identity: 'anonymous',
    permissions: [],
  };
  // An investigation trigger counts once its request is valid: a refused one starts nothing
  // (API-DECISIONS "Rate limits": triggers are the investigations started). Others count first.
  const rateClass = rateClassOf(route);
  const countsValidOnly = rateClass === 'trigger';
  let rateKey: string | undefined;
  let rawBody: Buffer | undefined;
  let rawRead = false;
  const readRaw = async (): Promise<Buffer | undefined> => {
    if (!rawRead) {
      rawBody = await readRawBody(req, undefined, route.formBody);
      rawRead = true;
    }
    return rawBody;
  };
  if (route.auth !== 'public') {
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    // an address that used up its failed attempts gets 429 for everything, so it learns nothing
    await limiter.checkAuthFailures?.(ip);
    // a sender credential (signature, intake secret) was checked: its refusal is an attempt
    let senderChecked = false;
    try {
      senderChecked = route.senderAuth !== undefined && !req.headers.authorization;
      const sender =
        route.senderAuth && !req.headers.authorization
          ? await route.senderAuth({
              headers: req.headers,
              query: req.query as Record<string, unknown>,
              rawBody: await readRaw(),
              requestId,
            })
          : undefined;
      senderChecked = sender !== undefined;
      auth =
        sender ??
        (await deps.authenticator.authenticate({
          authorization: req.headers.authorization,
          team: headerValue(req.headers['x-inquest-team']),
          ip,
          requestId,
        }));
    } catch (err) {
      // Only a refused credential counts as a failed attempt: no header, another scheme or a
      // malformed token guessed nothing (a client checking its 401s is not locked out by them).
      if (
        isUnauthenticated(err) &&
        (senderChecked ||
          deps.authenticator.presentsCredential?.(req.headers.authorization) !== false)
      )
        await limiter.recordAuthFailure?.(ip);
      throw err;
    }
    rateKey = `${auth.kind}:${auth.principal}`;
    if (!countsValidOnly) await countRequest(res, limiter, rateKey, rateClass);
    auth = authorize(route, auth, req);
    // The admin token acts on the team it names, an OIDC identity on the team of its claim: that
    // team must exist (not a group, not a typo that would create orphan data a team created
    // later with that id inherits). A team token is bound to an existing team when issued.
    if (auth.kind !== 'team' && route.auth === 'team' && auth.teamId)
      await deps.teams.requireTeam(
        auth.teamId,
        requestId,
        auth.kind === 'admin' ? 'X-Inquest-Team' : 'the team claim',
      );
  }
  let parsedBody: unknown;
  let query: { value: unknown } | undefined;
  let params: unknown;
  try {
    const body = route.formBody
      ? void (await readRaw())
      : rawRead || route.rawBody || route.senderAuth
        ? parseJsonBody(await readRaw())
        : hasBody(req)
          ? await readJsonBody(req)
          : undefined;
    if (
      route.body &&
      (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body))
    ) {
      throw invalidRequest('request body must be a JSON object');
    }
    parsedBody = route.body ? parse(route, route.body, body, 'body') : body;
    query = route.query ? { value: parse(route, route.query, req.query, 'query') } : undefined;
    params = route.params ? parse(route, route.params, req.params, 'params') : req.params;
  } catch (err) {
    // a refused trigger is not counted; it still shows where the credential stands
    if (countsValidOnly && rateKey && limiter.peek)
      setRateHeaders(res, await limiter.peek(rateKey, rateClass));
    throw err;
  }
  if (countsValidOnly && rateKey) await countRequest(res, limiter, rateKey, rateClass);

  abort.watch();
  const apiReq = new HttpApiRequest(
    req,
    abort,
    requestId,
    auth,
    parsedBody,
    query,
    params,
    rawBody,
  );
  if (abort.aborted) return;
  const out: ApiResponse = await route.handler(apiReq);
  // the request timed out (answered 503) or the client left while the handler ran
  if (res.headersSent || abort.aborted) return;
  if (out.body instanceof PreparedBody) {
    sendPrepared(req, res, out.status, out.body, out.headers);
    return;
  }
  for (const [k, v] of Object.entries(out.headers ?? {})) res.setHeader(k, v);
  if (out.body === undefined) res.status(out.status).end();
  else if (out.contentType) res.status(out.status).type(out.contentType).send(out.body);
  else res.status(out.status).json(out.body);
}

/**
 * A prepared body with its fields (with 304: the ETag and no body; HEAD: no body) after the
 * answer's own headers, in one writeHead.
 */
function sendPrepared(
  req: Request,
  res: Response,
  status: number,
  prepared: PreparedBody,
  headers: Record<string, string> | undefined,
): void {
  if (headers) for (const [k, v] of Object.entries(headers)) setHeldHeader(res, k, v);
  if (status === 304) {
    writeHeadWith(res, status, prepared.notModifiedFields);
    res.end();
    return;
  }
  writeHeadWith(res, status, prepared.fields);
  if (req.method === 'HEAD') res.end();
  else res.end(prepared.body);
}

function isUriError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'URIError';
}

function isUnauthenticated(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { kind?: unknown }).kind === 'unauthenticated'
  );
}

/** Team routes need a team (admin names it in X-Inquest-Team) and the route's permission. */
function authorize(route: RouteDef, auth: AuthContext, req: Request): AuthContext {
  if (route.auth === 'admin') {
    if (auth.kind !== 'admin') throw forbidden('this endpoint needs the admin token');
    return auth;
  }
  if (auth.kind === 'admin') {
    const team = headerValue(req.headers['x-inquest-team']);
    if (!team)
      throw invalidRequest('admin requests to team endpoints must name the team in X-Inquest-Team');
    if (!/^[a-z0-9][a-z0-9-]{1,62}$/.test(team))
      throw invalidRequest('X-Inquest-Team is not a valid node id');
    return { ...auth, teamId: team };
  }
  if (!auth.teamId) throw forbidden('this credential is not bound to a team');
  const needed = route.permission ?? 'read';
  if (!auth.permissions.includes(needed))
    throw forbidden(`this credential lacks ${needed} permission`);
  return auth;
}

function parse<T>(route: RouteDef, schema: z.ZodType<T>, value: unknown, where: string): T {
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  const errors = res.error.issues.map((i) => ({
    field: i.path.length ? i.path.join('.') : where,
    error: i.message,
  }));
  if (route.invalidCode === 'validation_error') throw validationError(errors);
  const first = errors[0]!;
  throw invalidRequest(`${first.field}: ${first.error}`);
}

function sendError(res: Response<unknown, Locals>, err: unknown, logger: Logger): void {
  // every error carries a request id, even one raised before the request-id middleware ran
  let requestId = res.locals.requestId;
  if (!requestId) {
    requestId = newRequestId();
    res.locals.requestId = requestId;
    if (!res.headersSent) res.setHeader('X-Request-Id', requestId);
  }
  const http = toHttpError(err, requestId);
  if (http.status >= 500) {
    logger.error({ err, request_id: requestId }, 'request failed');
  }
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  for (const [k, v] of Object.entries(http.headers)) res.setHeader(k, v);
  res.status(http.status).json(http.body);
}

/** Counts the request in its rate class and sets the rate-limit headers (on a 429 too). */
async function countRequest(
  res: Response,
  limiter: RateLimiter,
  key: string,
  rateClass: RateClass,
): Promise<void> {
  let state: RateState;
  try {
    state = await limiter.consume(key, rateClass);
  } catch (err) {
    const s = (err as { state?: RateState }).state;
    if (s) setRateHeaders(res, s);
    throw err;
  }
  setRateHeaders(res, state);
}

function setRateHeaders(res: Response, s: RateState): void {
  if (s.limit >= Number.MAX_SAFE_INTEGER) return;
  const secs = Math.max(0, s.resetAt - Math.ceil(Date.now() / 1000));
  setHeldHeader(res, 'X-RateLimit-Limit', String(s.limit));
  setHeldHeader(res, 'X-RateLimit-Remaining', String(Math.max(0, s.remaining)));
  setHeldHeader(res, 'X-RateLimit-Reset', String(s.resetAt));
  setHeldHeader(res, 'RateLimit-Policy', `"${s.class}";q=${s.limit};w=60`);
  setHeldHeader(res, 'RateLimit', `"${s.class}";r=${Math.max(0, s.remaining)};t=${secs}`);
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function pathRegex(path: string): RegExp {
  const src = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${src}/?$`);
}
