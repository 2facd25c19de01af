import { EgressError, type EgressErrorCode } from '@inquest/egress';
import { isToolServerError, type ToolServerError } from '../domain/tool-server-client';
import { egressFailure } from './egress-failure';

describe('egressFailure', () => {
  it.each<[EgressErrorCode, string]>([
    ['timeout', 'timeout'],
    ['body_too_large', 'too_large'],
    ['egress_refused', 'refused'],
    ['invalid_url', 'refused'],
    ['connect_failed', 'unreachable'],
  ])('maps the egress error %s to the tool-server failure %s', (code, failure) => {
    const mapped = egressFailure(new EgressError(code, `egress said ${code}`));
    expect(isToolServerError(mapped)).toBe(true);
    expect([(mapped as ToolServerError).failure, (mapped as ToolServerError).message]).toEqual([
      failure,
      `egress said ${code}`,
    ]);
  });

  it('returns any other error unchanged', () => {
    const other = new Error('not from the egress');
    expect(egressFailure(other)).toBe(other);
  });
});
