import { isDomainError, type ErrorKind } from '@inquest/errors';

/**
 * A tool call that cannot be answered, with the HTTP status the tool-server contract answers
 * (4xx for the caller's input, 5xx when what the tool reads fails) and an optional machine
 * code for the error body. The message is meant for the engine and for people.
 */
export class ToolError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Checked by name, not instanceof (a package loaded twice breaks instanceof). */
export function isToolError(err: unknown): err is ToolError {
  return (
    err instanceof Error &&
    err.name === 'ToolError' &&
    typeof (err as { status?: unknown }).status === 'number'
  );
}

/** How a failed call is answered: HTTP status, message and machine code. */
export interface ToolFailure {
  status: number;
  message: string;
  code?: string;
}

const STATUS: Record<ErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};

/**
 * A `ToolError` keeps its status; a `DomainError` (@inquest/errors) answers its kind's status and
 * its code; anything else is a 500 without details (the message may carry internals).
 */
export function toolFailure(err: unknown): ToolFailure {
  if (isToolError(err))
    return { status: err.status, message: err.message, ...(err.code ? { code: err.code } : {}) };
  if (isDomainError(err))
    return { status: STATUS[err.kind] ?? 500, message: err.message, code: err.code };
  return { status: 500, message: 'internal error', code: 'internal' };
}

/** The contract's error body: `{error, code?}`. */
export const errorBody = (f: ToolFailure): { error: string; code?: string } => ({
  error: f.message,
  ...(f.code ? { code: f.code } : {}),
});
