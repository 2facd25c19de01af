import { InquestClient } from '@inquest/client';
import { describeError } from './describe-error';

const ORIGIN = 'https://inquest.example.com';

/** The error the real client throws for one scripted HTTP answer (or network failure). */
async function errorOf(answer: () => Promise<Response>): Promise<unknown> {
  const client = new InquestClient({
    baseUrl: ORIGIN,
    token: 'tok_x.y',
    fetch: () => answer(),
    retry: { maxRetries: 0 },
  });
  try {
    await client.agents.list();
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

const errorBody = (status: number, code: string, message: string, headers = {}) =>
  Promise.resolve(
    new Response(JSON.stringify({ error: { code, message, request_id: 'req_1' } }), {
      status,
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req_1', ...headers },
    }),
  );

describe('describeError (what the console says for an API failure)', () => {
  it('401: the session expired or the token is wrong', async () => {
    const d = describeError(await errorOf(() => errorBody(401, 'unauthorized', 'bad')), ORIGIN);
    expect(d).toMatchObject({
      kind: 'unauthorized',
      message: 'Your session has expired or the token is wrong.',
    });
  });

  it('403: says what is not allowed', async () => {
    const e = await errorOf(() =>
      errorBody(403, 'forbidden', 'this token may only read (write permission needed)'),
    );
    expect(describeError(e, ORIGIN)).toMatchObject({
      kind: 'forbidden',
      message: 'Your token may not do this: this token may only read (write permission needed)',
      requestId: 'req_1',
    });
  });

  it('429: retry in the Retry-After seconds', async () => {
    const e = await errorOf(() =>
      errorBody(429, 'rate_limited', 'slow down', { 'Retry-After': '17' }),
    );
    expect(describeError(e, ORIGIN)).toMatchObject({
      kind: 'rate_limited',
      message: 'Too many requests, retry in 17 s.',
      retryAfter: 17,
    });
  });

  it('network down: cannot reach Inquest at its origin', async () => {
    const e = await errorOf(() => Promise.reject(new TypeError('fetch failed')));
    expect(describeError(e, ORIGIN)).toMatchObject({
      kind: 'network',
      message: `Cannot reach Inquest at ${ORIGIN}.`,
    });
  });

  it('anything else: its message, never a blank', async () => {
    const e = await errorOf(() => errorBody(500, 'internal', 'internal error'));
    expect(describeError(e, ORIGIN)).toMatchObject({ kind: 'other', message: 'internal error' });
    expect(describeError(new Error('boom'), ORIGIN)).toMatchObject({
      kind: 'other',
      message: 'boom',
    });
    expect(describeError('odd', ORIGIN).message).toBe('odd');
  });

  it('a page whose code did not load: says so and to reload (not a blank screen)', () => {
    const chrome = new TypeError(
      'Failed to fetch dynamically imported module: https://inquest.example.com/console/assets/X-1.js',
    );
    const safari = new TypeError('Importing a module script failed.');
    for (const e of [chrome, safari])
      expect(describeError(e, ORIGIN)).toMatchObject({
        kind: 'code_missing',
        message: expect.stringContaining('Reload the page'),
      });
    // a plain failed fetch is still the network
    expect(describeError(new TypeError('Failed to fetch'), ORIGIN).kind).toBe('network');
  });
});
