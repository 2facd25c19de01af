import { type DomainError } from '@inquest/errors';
import {
  MAX_CONTEXT_FIELD_CHARS,
  MAX_MESSAGE_CHARS,
  validateRunRequest,
  type RunRequest,
} from './investigation-request';

const aRequest = (over: Partial<RunRequest> = {}): RunRequest => ({
  teamId: 'payments',
  agentName: 'k8s_agent',
  message: 'checkout pods crash',
  async: false,
  ...over,
});

function messageOf(req: RunRequest): string {
  try {
    validateRunRequest(req);
  } catch (err) {
    expect((err as DomainError).code).toBe('invalid_request');
    return (err as Error).message;
  }
  throw new Error('expected the request to be refused');
}

describe('validateRunRequest', () => {
  it('keeps a valid request and its string context fields, dropping null and undefined', () => {
    const context = { namespace: 'shop', environment: 'prod', severity: undefined } as never;
    const valid = validateRunRequest(aRequest({ context, requestedBy: 'dev@example.com' }));
    expect(valid).toMatchObject({
      teamId: 'payments',
      agentName: 'k8s_agent',
      requestedBy: 'dev@example.com',
      context: { namespace: 'shop', environment: 'prod' },
    });
    expect(valid.context).not.toHaveProperty('severity');
    expect(validateRunRequest(aRequest()).context).toEqual({});
  });

  it.each<[string, Partial<RunRequest>, RegExp]>([
    ['no team', { teamId: '' }, /team is required/],
    ['no agent', { agentName: '' }, /agent_name is required/],
    ['an unknown agent', { agentName: 'chat_agent' }, /agent_name must be one of planner, /],
    ['a blank message', { message: '   ' }, /message is required/],
    ['a message too long', { message: 'x'.repeat(MAX_MESSAGE_CHARS + 1) }, /longer than 32768/],
    [
      'a context field not a string',
      { context: { namespace: 3 } as never },
      /context.namespace must be a string/,
    ],
    [
      'a context field too long',
      { context: { hint: 'h'.repeat(MAX_CONTEXT_FIELD_CHARS + 1) } },
      /context.hint is longer than 1024/,
    ],
    [
      'an unknown environment',
      { context: { environment: 'qa' } },
      /environment must be one of prod, staging, dev/,
    ],
    [
      'an unknown severity',
      { context: { severity: 'critical' } },
      /severity must be one of high, medium, low/,
    ],
  ])('refuses %s', (_what, over, message) => {
    expect(messageOf(aRequest(over))).toMatch(message);
  });

  it('takes a message of exactly the limit', () => {
    expect(() =>
      validateRunRequest(aRequest({ message: 'x'.repeat(MAX_MESSAGE_CHARS) })),
    ).not.toThrow();
  });
});
