import { InProcessEventBus } from './in-process-event-bus';

describe('InProcessEventBus msgId dedupe window', () => {
  afterEach(() => jest.useRealTimers());

  it('drops a repeat inside the window, delivers it again after, and forgets expired ids', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const bus = new InProcessEventBus(1000);
    const got: unknown[] = [];
    await bus.subscribe('inquest.v1.test.>', async (m) => void got.push(m.data));
    const seen = (bus as unknown as { seen: Map<string, number> }).seen;

    await bus.publish('inquest.v1.test.a', 1, { msgId: 'x' });
    await bus.publish('inquest.v1.test.a', 2, { msgId: 'x' });
    jest.advanceTimersByTime(500);
    await bus.publish('inquest.v1.test.a', 3, { msgId: 'y' });
    jest.advanceTimersByTime(600); // x is 1100 ms old, y 600 ms
    await bus.publish('inquest.v1.test.a', 4, { msgId: 'x' }); // outside the window: delivered
    await bus.publish('inquest.v1.test.a', 5, { msgId: 'y' }); // inside: dropped
    await new Promise((r) => queueMicrotask(() => r(undefined)));
    expect(got).toEqual([1, 3, 4]);
    expect([...seen.keys()]).toEqual(['y', 'x']);

    jest.advanceTimersByTime(2000);
    await bus.publish('inquest.v1.test.a', 6, { msgId: 'z' });
    // expired ids are gone, so the map stays bounded by what the window holds
    expect([...seen.keys()]).toEqual(['z']);
    await bus.close();
  });
});
