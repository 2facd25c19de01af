import { DomainError, isDomainError } from '@inquest/errors';
import { isBreakerOpen } from './circuit-breaker';
import { cancelled } from './concurrency-limit';
import { isToolServerError } from './tool-server-client';

/** The domain error for a tool server that cannot serve (unreachable, refused, misconfigured). */
export const unavailableFor = (server: string, message: string): DomainError =>
  new DomainError('unavailable', 'data_source_unavailable', `tool server ${server}: ${message}`);

export function isCancel(err: unknown): boolean {
  return isDomainError(err) && err.code === 'cancelled';
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * What a failed tool-server request means for the caller: cancelled (the caller gave up),
 * timeout, not_found / tool_rejected (the server refused this call) or data_source_unavailable.
 */
export function toolServerFailure(server: string, err: unknown, signal: AbortSignal): unknown {
  if (isDomainError(err)) return err;
  if (signal.aborted || isCancel(err)) return cancelled();
  if (isBreakerOpen(err)) return unavailableFor(server, err.message);
  if (isToolServerError(err)) {
    switch (err.failure) {
      case 'timeout':
        return new DomainError('timeout', 'timeout', `tool server ${server}: ${err.message}`);
      case 'rejected':
        return new DomainError(
          err.status === 404 ? 'not_found' : 'invalid_input',
          err.status === 404 ? 'not_found' : 'tool_rejected',
          `tool server ${server}: ${err.message}`,
        );
      default:
        return unavailableFor(server, err.message);
    }
  }
  return unavailableFor(server, errorText(err));
}
