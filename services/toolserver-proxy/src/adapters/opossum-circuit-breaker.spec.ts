import { isBreakerOpen, type BreakerState } from '../domain/circuit-breaker';
import { opossumCircuitBreaker } from './opossum-circuit-breaker';

const fail = (message: string) => () => Promise.reject(new Error(message));

function aBreaker(ignore: (err: unknown) => boolean = () => false) {
  const states: BreakerState[] = [];
  const breaker = opossumCircuitBreaker({
    resetTimeoutMs: 60_000,
    volumeThreshold: 2,
    errorThresholdPercentage: 50,
    rollingCountTimeoutMs: 60_000,
    ignore,
    onStateChange: (s) => states.push(s),
  });
  return { breaker, states };
}

describe('opossumCircuitBreaker', () => {
  it('passes answers and errors through while closed', async () => {
    const { breaker } = aBreaker();
    await expect(breaker.fire(() => Promise.resolve(42))).resolves.toBe(42);
    await expect(breaker.fire(fail('boom'))).rejects.toThrow('boom');
    expect(breaker.state).toBe('closed');
    breaker.shutdown();
  });

  it('opens after repeated failures and then refuses without calling', async () => {
    const { breaker, states } = aBreaker();
    await expect(breaker.fire(fail('one'))).rejects.toThrow('one');
    await expect(breaker.fire(fail('two'))).rejects.toThrow('two');
    expect(breaker.state).toBe('open');
    expect(states).toEqual(['open']);
    const fn = jest.fn(() => Promise.resolve('never'));
    const refused = await breaker.fire(fn).catch((e: unknown) => e);
    expect(isBreakerOpen(refused)).toBe(true);
    expect(fn).not.toHaveBeenCalled();
    breaker.shutdown();
  });

  it('does not count ignored errors', async () => {
    const { breaker } = aBreaker((err) => (err as Error).message === 'your fault');
    for (let i = 0; i < 5; i++) await expect(breaker.fire(fail('your fault'))).rejects.toThrow();
    expect(breaker.state).toBe('closed');
    breaker.shutdown();
  });
});
