import { invalidRequest, isDomainError, timeoutError, unavailable } from '@inquest/errors';
import { createCircuitBreaker } from './circuit-breaker';

const aBreaker = () =>
  createCircuitBreaker({
    name: 'the test API',
    openCode: 'test_unavailable',
    volumeThreshold: 2,
    errorThresholdPercentage: 50,
    resetTimeoutMs: 60_000,
  });

describe('createCircuitBreaker', () => {
  it('passes answers and errors through while closed', async () => {
    const b = aBreaker();
    await expect(b.fire(() => Promise.resolve(42))).resolves.toBe(42);
    await expect(b.fire(() => Promise.reject(unavailable('down')))).rejects.toThrow('down');
    expect(b.state).toBe('closed');
    b.shutdown();
  });

  it('opens after repeated failures and then refuses without calling', async () => {
    const b = aBreaker();
    await expect(b.fire(() => Promise.reject(unavailable('one')))).rejects.toThrow('one');
    await expect(b.fire(() => Promise.reject(timeoutError('two')))).rejects.toThrow('two');
    expect(b.state).toBe('open');
    const call = jest.fn(() => Promise.resolve('never'));
    const refused = await b.fire(call).catch((e: unknown) => e);
    expect(call).not.toHaveBeenCalled();
    expect(isDomainError(refused) && refused.kind).toBe('unavailable');
    expect(refused).toMatchObject({ code: 'test_unavailable' });
    b.shutdown();
  });

  it("does not count the caller's errors or its cancels", async () => {
    const b = aBreaker();
    for (let i = 0; i < 5; i++)
      await expect(b.fire(() => Promise.reject(invalidRequest('bad input')))).rejects.toThrow();
    const ac = new AbortController();
    ac.abort();
    for (let i = 0; i < 5; i++)
      await expect(b.fire(() => Promise.reject(new Error('aborted')), ac.signal)).rejects.toThrow(
        'aborted',
      );
    expect(b.state).toBe('closed');
    b.shutdown();
  });
});
