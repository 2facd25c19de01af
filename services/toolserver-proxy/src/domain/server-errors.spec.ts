import { DomainError, type DomainError as DomainErrorType } from '@inquest/errors';
import { BreakerOpenError } from './circuit-breaker';
import { toolServerFailure } from './server-errors';
import { ToolServerError } from './tool-server-client';

const live = new AbortController().signal;
const map = (err: unknown, signal: AbortSignal = live) =>
  toolServerFailure('k8s', err, signal) as DomainErrorType;

describe('toolServerFailure', () => {
  it('passes domain errors through unchanged', () => {
    const own = new DomainError('forbidden', 'nope', 'no');
    expect(map(own)).toBe(own);
  });

  it('is a cancellation whenever the caller gave up, whatever the transport said', () => {
    const ac = new AbortController();
    ac.abort();
    expect(map(new ToolServerError('unreachable', 'socket closed'), ac.signal).code).toBe(
      'cancelled',
    );
  });

  it('maps an open circuit to data_source_unavailable', () => {
    const e = map(new BreakerOpenError());
    expect([e.code, e.message]).toEqual([
      'data_source_unavailable',
      'tool server k8s: circuit open after repeated failures; calls are refused until it half-opens',
    ]);
  });

  it.each([
    [new ToolServerError('timeout', 'no answer in 30000 ms'), 'timeout', 'timeout'],
    [new ToolServerError('rejected', 'answered 404', 404), 'not_found', 'not_found'],
    [new ToolServerError('rejected', 'answered 400', 400), 'invalid_input', 'tool_rejected'],
    [new ToolServerError('unreachable', 'ECONNREFUSED'), 'unavailable', 'data_source_unavailable'],
    [
      new ToolServerError('server_error', 'answered 500', 500),
      'unavailable',
      'data_source_unavailable',
    ],
    [new ToolServerError('too_large', 'body too large'), 'unavailable', 'data_source_unavailable'],
    [new Error('something else'), 'unavailable', 'data_source_unavailable'],
  ])('maps %s to %s / %s, naming the server', (err, kind, code) => {
    const e = map(err);
    expect([e.kind, e.code]).toEqual([kind, code]);
    expect(e.message).toBe(`tool server k8s: ${(err as Error).message}`);
  });
});
