export {
  DomainError,
  isDomainError,
  invalidRequest,
  invalidField,
  validationError,
  notFound,
  conflict,
  forbidden,
  unauthenticated,
  unavailable,
  rateLimited,
  timeoutError,
  internal,
} from './domain-error';
export type { ErrorKind, ErrorDetail, DomainErrorOptions } from './domain-error';
