import { isEgressError } from '@inquest/egress';
import { ToolServerError, type ToolServerFailure } from '../domain/tool-server-client';

/**
 * The tool-server failure of an egress error (both transports reach servers through the egress
 * guard): a refused address or a bad URL is `refused` (the breaker does not count it); anything
 * that is not an egress error comes back unchanged.
 */
export function egressFailure(err: unknown): unknown {
  if (!isEgressError(err)) return err;
  const failure: ToolServerFailure =
    err.code === 'timeout'
      ? 'timeout'
      : err.code === 'body_too_large'
        ? 'too_large'
        : err.code === 'egress_refused' || err.code === 'invalid_url'
          ? 'refused'
          : 'unreachable';
  return new ToolServerError(failure, err.message);
}
