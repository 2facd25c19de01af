import { isDomainError, unauthenticated, type DomainError, type ErrorKind } from '@inquest/errors';

export interface HttpErrorBody {
  error: {
    code: string;
    message: string;
    request_id?: string;
    field?: string;
    details?: { field: string; error: string };
    errors?: { field: string; error: string }[];
    retry_after?: number;
  };
}

export interface HttpError {
  status: number;
  body: HttpErrorBody;
  headers: Record<string, string>;
}

/**
 * The one table from machine code (carried over gRPC in `x-inquest-error-code`) to the HTTP
 * status and the code the client sees. It wins over the gRPC status, so a service that answers
 * FAILED_PRECONDITION with `invalid_field` still gives 400 invalid_field.
 */
export const CODE_TO_HTTP: Readonly<Record<string, { status: number; code: string }>> = {
  invalid_request: { status: 400, code: 'invalid_request' },
  invalid_field: { status: 400, code: 'invalid_field' },
  validation_error: { status: 400, code: 'validation_error' },
  unauthorized: { status: 401, code: 'unauthorized' },
  forbidden: { status: 403, code: 'forbidden' },
  not_found: { status: 404, code: 'not_found' },
  method_not_allowed: { status: 405, code: 'method_not_allowed' },
  conflict: { status: 409, code: 'conflict' },
  payload_too_large: { status: 413, code: 'payload_too_large' },
  unsupported_media_type: { status: 415, code: 'unsupported_media_type' },
  rate_limited: { status: 429, code: 'rate_limited' },
  internal: { status: 500, code: 'internal' },
  unavailable: { status: 503, code: 'unavailable' },
  // a backing call that ran out of time is reported as unavailable (never a hang, never a 504)
  timeout: { status: 503, code: 'unavailable' },
};

/** Codes outside the table (a service's own, e.g. data_source_unavailable) take the status of their kind. */
export const KIND_TO_HTTP: Readonly<Record<ErrorKind, { status: number; code: string }>> = {
  invalid_input: { status: 400, code: 'invalid_request' },
  unauthenticated: { status: 401, code: 'unauthorized' },
  forbidden: { status: 403, code: 'forbidden' },
  not_found: { status: 404, code: 'not_found' },
  conflict: { status: 409, code: 'conflict' },
  rate_limited: { status: 429, code: 'rate_limited' },
  unavailable: { status: 503, code: 'unavailable' },
  timeout: { status: 503, code: 'unavailable' },
  internal: { status: 500, code: 'internal' },
};

const SAFE_CODE = /^[a-z][a-z0-9_]{0,63}$/;
const UNAUTHORIZED_MESSAGE = unauthenticated().message;

/** Turns anything thrown into the spec's error answer; internal details never leak. */
export function toHttpError(err: unknown, requestId: string): HttpError {
  if (!isDomainError(err)) {
    return {
      status: 500,
      body: { error: { code: 'internal', message: 'internal error', request_id: requestId } },
      headers: {},
    };
  }
  return fromDomainError(err, requestId);
}

function fromDomainError(err: DomainError, requestId: string): HttpError {
  const byKind = KIND_TO_HTTP[err.kind] ?? KIND_TO_HTTP.internal;
  const mapped = Object.hasOwn(CODE_TO_HTTP, err.code)
    ? CODE_TO_HTTP[err.code]!
    : { status: byKind.status, code: SAFE_CODE.test(err.code) ? err.code : byKind.code };
  const { status } = mapped;
  const headers: Record<string, string> = {};
  let message = err.message;
  if (status === 500) message = 'internal error';
  // one message for every authentication failure: nothing tells a guesser why
  if (status === 401) message = UNAUTHORIZED_MESSAGE;
  const body: HttpErrorBody = {
    error: { code: status === 500 ? 'internal' : mapped.code, message, request_id: requestId },
  };
  if (mapped.code === 'invalid_field' && err.options.field) body.error.field = err.options.field;
  if (mapped.code === 'validation_error' && err.options.errors?.length) {
    body.error.details = err.options.errors[0];
    body.error.errors = err.options.errors;
  }
  if (status === 429) {
    const retry = Math.max(1, Math.ceil(Number(err.options.retryAfter) || 1));
    body.error.retry_after = retry;
    headers['Retry-After'] = String(retry);
  }
  return { status, body, headers };
}
