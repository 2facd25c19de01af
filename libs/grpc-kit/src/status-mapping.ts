import { Metadata, status as Status } from '@grpc/grpc-js';
import type { ServiceError, StatusObject } from '@grpc/grpc-js';
import { DomainError, isDomainError, type ErrorDetail, type ErrorKind } from '@inquest/errors';

export const MD_ERROR_CODE = 'x-inquest-error-code';
export const MD_ERROR_FIELD = 'x-inquest-error-field';
export const MD_ERROR_DETAILS = 'x-inquest-error-details';
export const MD_RETRY_AFTER = 'x-inquest-retry-after';

const KIND_TO_STATUS: Record<ErrorKind, Status> = {
  invalid_input: Status.INVALID_ARGUMENT,
  unauthenticated: Status.UNAUTHENTICATED,
  forbidden: Status.PERMISSION_DENIED,
  not_found: Status.NOT_FOUND,
  conflict: Status.FAILED_PRECONDITION,
  rate_limited: Status.RESOURCE_EXHAUSTED,
  unavailable: Status.UNAVAILABLE,
  timeout: Status.DEADLINE_EXCEEDED,
  internal: Status.INTERNAL,
};

const STATUS_TO_KIND: Partial<Record<Status, ErrorKind>> = {
  [Status.INVALID_ARGUMENT]: 'invalid_input',
  [Status.OUT_OF_RANGE]: 'invalid_input',
  [Status.UNAUTHENTICATED]: 'unauthenticated',
  [Status.PERMISSION_DENIED]: 'forbidden',
  [Status.NOT_FOUND]: 'not_found',
  [Status.ALREADY_EXISTS]: 'conflict',
  [Status.FAILED_PRECONDITION]: 'conflict',
  [Status.ABORTED]: 'conflict',
  [Status.RESOURCE_EXHAUSTED]: 'rate_limited',
  [Status.UNAVAILABLE]: 'unavailable',
  [Status.DEADLINE_EXCEEDED]: 'timeout',
  [Status.CANCELLED]: 'unavailable',
};

const DEFAULT_CODE: Record<ErrorKind, string> = {
  invalid_input: 'invalid_request',
  unauthenticated: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'conflict',
  rate_limited: 'rate_limited',
  unavailable: 'unavailable',
  timeout: 'timeout',
  internal: 'internal',
};

/** Domain error (or anything thrown) -> gRPC status with the machine code in metadata. */
export function toGrpcStatus(err: unknown): Partial<StatusObject> {
  const md = new Metadata();
  if (!isDomainError(err)) {
    md.set(MD_ERROR_CODE, 'internal');
    return { code: Status.INTERNAL, details: 'internal error', metadata: md };
  }
  md.set(MD_ERROR_CODE, err.code);
  if (err.options.field) md.set(MD_ERROR_FIELD, err.options.field);
  if (err.options.errors) md.set(MD_ERROR_DETAILS, JSON.stringify(err.options.errors));
  if (err.options.retryAfter !== undefined) md.set(MD_RETRY_AFTER, String(err.options.retryAfter));
  return { code: KIND_TO_STATUS[err.kind], details: err.message, metadata: md };
}

/** gRPC error from a call -> domain error (machine code from metadata when present). */
export function fromGrpcError(err: unknown): DomainError {
  if (isDomainError(err)) return err;
  const se = err as Partial<ServiceError>;
  const code = typeof se.code === 'number' ? (se.code as Status) : Status.UNKNOWN;
  const kind = STATUS_TO_KIND[code] ?? 'internal';
  const md = se.metadata;
  const get = (k: string) => {
    const v = md?.get(k)[0];
    return v === undefined ? undefined : String(v);
  };
  const machine = get(MD_ERROR_CODE) ?? DEFAULT_CODE[kind];
  const field = get(MD_ERROR_FIELD);
  const detailsJson = get(MD_ERROR_DETAILS);
  const retry = get(MD_RETRY_AFTER);
  let errors: ErrorDetail[] | undefined;
  if (detailsJson) {
    try {
      errors = JSON.parse(detailsJson) as ErrorDetail[];
    } catch {
      errors = undefined;
    }
  }
  const message =
    kind === 'internal'
      ? 'internal error'
      : kind === 'unavailable' && !get(MD_ERROR_CODE)
        ? 'a backing service is unavailable'
        : (se.details ?? se.message ?? 'error');
  return new DomainError(kind, machine, message, {
    field,
    errors,
    retryAfter: retry === undefined ? undefined : Number(retry),
    cause: err,
  });
}
