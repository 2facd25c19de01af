import type { ErrorBody } from '@inquest/api-contract';

type ErrorMember = ErrorBody['error'];

/** Error codes the service answers with (interface spec + API decisions), plus client-side ones. */
export type InquestErrorCode =
  | 'invalid_request'
  | 'invalid_field'
  | 'validation_error'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal'
  | 'unavailable'
  // client side: no HTTP answer, or an answer that is not an error body
  | 'network_error'
  | 'timeout'
  | 'wait_timeout'
  | 'invalid_response'
  | (string & {});

export interface FieldProblem {
  field: string;
  error: string;
}

/**
 * Every failure of a client call. Check `code` (not `instanceof`: a package installed twice
 * breaks it); `status` is the HTTP status, 0 when no answer arrived.
 */
export class InquestError extends Error {
  readonly code: InquestErrorCode;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly field: string | undefined;
  readonly details: FieldProblem | undefined;
  readonly errors: FieldProblem[] | undefined;
  /** Seconds to wait before retrying (rate_limited). */
  readonly retryAfter: number | undefined;
  /** The parsed error body, when the service sent one. */
  readonly body: unknown;
  /** Brand for `isInquestError`, which must not rely on `instanceof`. */
  readonly isInquestError = true as const;

  constructor(init: {
    code: InquestErrorCode;
    message: string;
    status?: number;
    requestId?: string;
    field?: string;
    details?: FieldProblem;
    errors?: FieldProblem[];
    retryAfter?: number;
    body?: unknown;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status ?? 0;
    this.requestId = init.requestId;
    this.field = init.field;
    this.details = init.details;
    this.errors = init.errors;
    this.retryAfter = init.retryAfter;
    this.body = init.body;
  }

  /** Same as `requestId`, spelled as in the error body. */
  get request_id(): string | undefined {
    return this.requestId;
  }
  /** Same as `retryAfter`, spelled as in the error body. */
  get retry_after(): number | undefined {
    return this.retryAfter;
  }
}

export class InvalidRequestError extends InquestError {}
export class InvalidFieldError extends InquestError {}
export class ValidationError extends InquestError {}
export class UnauthorizedError extends InquestError {}
export class ForbiddenError extends InquestError {}
export class NotFoundError extends InquestError {}
export class ConflictError extends InquestError {}
export class RateLimitedError extends InquestError {}
export class UnavailableError extends InquestError {}
export class InternalError extends InquestError {}
/** No HTTP answer: connection refused, DNS failure, reset. */
export class NetworkError extends InquestError {}
/** A single request ran past the client's per-request timeout. */
export class RequestTimeoutError extends InquestError {}
/** `waitForInvestigation` ran past its overall cap; the investigation may still finish. */
export class WaitTimeoutError extends InquestError {}

const byCode: Record<string, typeof InquestError> = {
  invalid_request: InvalidRequestError,
  invalid_field: InvalidFieldError,
  validation_error: ValidationError,
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  conflict: ConflictError,
  rate_limited: RateLimitedError,
  unavailable: UnavailableError,
  internal: InternalError,
};

const codeByStatus: Record<number, InquestErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal',
  502: 'unavailable',
  503: 'unavailable',
  504: 'unavailable',
};

function isFieldProblem(v: unknown): v is FieldProblem {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as FieldProblem).field === 'string' &&
    typeof (v as FieldProblem).error === 'string'
  );
}

/** Builds the typed error for a non-2xx answer; tolerates bodies that are not the spec's shape (a proxy's HTML page). */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: { get(name: string): string | null },
): InquestError {
  const member =
    typeof body === 'object' && body !== null && 'error' in body
      ? ((body as { error: unknown }).error as Partial<ErrorMember> | null)
      : null;
  const m = typeof member === 'object' && member !== null ? member : {};
  const code =
    typeof m.code === 'string' && m.code ? m.code : (codeByStatus[status] ?? `http_${status}`);
  const message =
    typeof m.message === 'string' && m.message ? m.message : `HTTP ${status} from the Inquest API`;
  const headerRetry = Number(headers.get('retry-after'));
  const retryAfter =
    typeof m.retry_after === 'number'
      ? m.retry_after
      : Number.isFinite(headerRetry) && headerRetry > 0
        ? headerRetry
        : undefined;
  const Ctor = byCode[code] ?? InquestError;
  return new Ctor({
    code,
    message,
    status,
    requestId:
      (typeof m.request_id === 'string' ? m.request_id : undefined) ??
      headers.get('x-request-id') ??
      undefined,
    field: typeof m.field === 'string' ? m.field : undefined,
    details: isFieldProblem(m.details) ? m.details : undefined,
    errors: Array.isArray(m.errors) ? m.errors.filter(isFieldProblem) : undefined,
    retryAfter,
    body,
  });
}

/** True for any error thrown by this client (duck-typed on purpose, see InquestError). */
export function isInquestError(err: unknown): err is InquestError {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as InquestError).code === 'string' &&
    typeof (err as InquestError).status === 'number' &&
    (err as InquestError).isInquestError === true
  );
}
