/**
 * The closed set of domain errors. Domain code throws them; only the edges translate them
 * (`toGrpcStatus` in grpc-kit, `toHttpError` in the gateway). Check by `kind`/`code`, never
 * `instanceof` (a package installed twice breaks it).
 */
export type ErrorKind =
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'internal';

export interface ErrorDetail {
  field: string;
  error: string;
}

export interface DomainErrorOptions {
  /** invalid_field: the offending field */
  field?: string;
  /** validation_error: every problem found */
  errors?: ErrorDetail[];
  /** rate_limited: seconds until a retry may succeed */
  retryAfter?: number;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly isDomainError = true as const;
  constructor(
    readonly kind: ErrorKind,
    /** machine code, e.g. validation_error, invalid_field, invalid_request, not_found */
    readonly code: string,
    message: string,
    readonly options: DomainErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
  }
}

export function isDomainError(e: unknown): e is DomainError {
  return (
    typeof e === 'object' && e !== null && (e as { isDomainError?: unknown }).isDomainError === true
  );
}

export const invalidRequest = (message: string) =>
  new DomainError('invalid_input', 'invalid_request', message);

export const invalidField = (field: string, message: string) =>
  new DomainError('invalid_input', 'invalid_field', message, { field });

export const validationError = (errors: ErrorDetail[], message?: string) =>
  new DomainError(
    'invalid_input',
    'validation_error',
    message ?? (errors[0] ? `${errors[0].field}: ${errors[0].error}` : 'validation failed'),
    { errors },
  );

export const notFound = (message: string) => new DomainError('not_found', 'not_found', message);
export const conflict = (message: string) => new DomainError('conflict', 'conflict', message);
export const forbidden = (message: string) => new DomainError('forbidden', 'forbidden', message);
export const unauthenticated = (message = 'missing, invalid or expired credentials') =>
  new DomainError('unauthenticated', 'unauthorized', message);
export const unavailable = (message: string, code = 'unavailable') =>
  new DomainError('unavailable', code, message);
export const rateLimited = (retryAfter: number, message = 'too many requests') =>
  new DomainError('rate_limited', 'rate_limited', message, { retryAfter });
export const timeoutError = (message: string) => new DomainError('timeout', 'timeout', message);
export const internal = (message = 'internal error', cause?: unknown) =>
  new DomainError('internal', 'internal', message, { cause });
