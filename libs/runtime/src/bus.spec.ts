import { InProcessEventBus, NatsEventBus } from '@inquest/events';
import { startNatsServer } from '@inquest/testing';
import { silentLogger } from '@inquest/observability';
import { busFor } from './bus';
import { Closers } from './closers';

describe('busFor', () => {
  const logger = silentLogger();

  it('a bus handed in is used and left to its owner', async () => {
    const shared = new InProcessEventBus();
    const close = jest.spyOn(shared, 'close');
    const closers = new Closers();
    const bus = await busFor({}, { bus: shared }, { name: 't', logger, closers });
    expect(bus).toBe(shared);
    await closers.closeAll();
    expect(close).not.toHaveBeenCalled();
  });

  it('without one and without NATS: an in-process bus this service closes', async () => {
    const closers = new Closers();
    const bus = await busFor({}, {}, { name: 't', logger, closers });
    expect(bus).toBeInstanceOf(InProcessEventBus);
    const close = jest.spyOn(bus, 'close');
    await closers.closeAll();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('optional: no bus at all without NATS, nothing to close', async () => {
    const closers = new Closers();
    const add = jest.spyOn(closers, 'add');
    await expect(
      busFor({}, {}, { name: 't', logger, closers, optional: true }),
    ).resolves.toBeUndefined();
    expect(add).not.toHaveBeenCalled();
  });

  it('with a NATS URL: connects to NATS and closes that connection', async () => {
    const nats = await startNatsServer();
    try {
      const closers = new Closers();
      const bus = await busFor(
        { INQUEST_NATS_URL: nats.url },
        {},
        { name: 't', logger, closers, optional: true },
      );
      expect(bus).toBeInstanceOf(NatsEventBus);
      const close = jest.spyOn(bus!, 'close');
      await closers.closeAll();
      expect(close).toHaveBeenCalledTimes(1);
    } finally {
      await nats.stop();
    }
  });
});
