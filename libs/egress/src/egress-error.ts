export type EgressErrorCode =
  'egress_refused' | 'timeout' | 'body_too_large' | 'connect_failed' | 'invalid_url';

/** A call to a user-supplied URL failed before a complete answer arrived. Check by `code`. */
export class EgressError extends Error {
  readonly isEgressError = true as const;
  constructor(
    readonly code: EgressErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EgressError';
  }
}

export function isEgressError(e: unknown): e is EgressError {
  return (
    typeof e === 'object' && e !== null && (e as { isEgressError?: unknown }).isEgressError === true
  );
}
