import type { z } from 'zod';
import type { CallContext } from '@inquest/grpc-kit';

/** Who made the request, after authentication. */
export interface AuthContext {
  kind: 'team' | 'admin' | 'oidc';
  /** the team acted on (for admin: from X-Inquest-Team on team-scoped routes) */
  teamId?: string;
  /** token id, `admin`, or the OIDC subject: the rate-limit key */
  principal: string;
  /** changed_by in audit: token owner e-mail, OIDC e-mail, or `admin` */
  identity: string;
  permissions: string[];
  /** when the credential stops being valid (ms since the epoch), if it expires */
  expiresAt?: number;
}

export type RouteAuth = 'team' | 'admin' | 'public';
export type RateClass = 'read' | 'write' | 'trigger' | 'alert';
export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

export interface ApiRequest<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** set on every route except auth: 'public' */
  auth: AuthContext;
  /** pass to gRPC clients as `{ ctx: req.ctx }` */
  ctx: CallContext;
  /** aborted when the client goes away or the request times out */
  signal: AbortSignal;
  requestId: string;
  headers: Record<string, string | string[] | undefined>;
  /** scheme://host of the request, for absolute links */
  baseUrl: string;
  /** the body as received, on routes that declare `rawBody` or `senderAuth` */
  rawBody?: Buffer;
}

/** What a route's own sender authentication sees (before the body is parsed). */
export interface SenderAuthInput {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  rawBody: Buffer | undefined;
  requestId: string;
}

export interface ApiResponse {
  status: number;
  /**
   * JSON-serialized; a PreparedBody is sent as is with its own fields (with status 304: its ETag,
   * no body)
   */
  body?: unknown;
  headers?: Record<string, string>;
  /** send `body` (a string or Buffer) as is with this content type instead of as JSON */
  contentType?: string;
}

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** documented media type (default application/json) */
  contentType?: string;
  /** response headers this status carries besides the common ones: name -> description */
  headers?: Record<string, string>;
}

export interface RouteDef<B = unknown, Q = unknown, P = unknown> {
  method: HttpMethod;
  /** path below /api/v1, express style: '/agents/status/:investigation_id' */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: RouteAuth;
  /** needed permission (team routes); admin has every permission */
  permission?: 'read' | 'write';
  /** rate-limit class; defaults to read for GET, write otherwise */
  rateClass?: RateClass;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** error code when body/query validation fails (default invalid_request) */
  invalidCode?: 'invalid_request' | 'validation_error';
  responses: Record<number, ResponseDoc>;
  /** optional request headers the route reads (documented): name -> description */
  requestHeaders?: Record<string, string>;
  /**
   * Credentials other than `Authorization` (alert senders that sign their body or send an intake
   * secret): tried when the request has no Authorization header; answers undefined when none of
   * its credentials is present (then the usual 401), throws unauthenticated when one is wrong.
   */
  senderAuth?: (input: SenderAuthInput) => Promise<AuthContext | undefined>;
  /** OpenAPI security schemes `senderAuth` accepts besides `bearer` (`intakeSecret`, `pagerdutySignature`) */
  senderSchemes?: ('intakeSecret' | 'pagerdutySignature')[];
  /** read the body as received and hand it to the handler as `rawBody` */
  rawBody?: boolean;
  /**
   * also accept `application/x-www-form-urlencoded` (Slack's commands and interactions): the body
   * is not parsed, the handler reads `rawBody`
   */
  formBody?: boolean;
  /** answer 503 unavailable when the handler has not answered by then (default: the gateway's request timeout) */
  timeoutMs?: number;
  handler: (req: ApiRequest<B, Q, P>) => Promise<ApiResponse>;
}

/** Declares a route; the types of body/query/params flow from the zod schemas into the handler. */
export function defineRoute<B = undefined, Q = Record<string, unknown>, P = Record<string, string>>(
  def: RouteDef<B, Q, P>,
): RouteDef {
  return def as unknown as RouteDef;
}

export function rateClassOf(route: RouteDef): RateClass {
  return route.rateClass ?? (route.method === 'get' ? 'read' : 'write');
}
