import { silentLogger } from '@inquest/observability';
import { startNatsServer } from '@inquest/testing';
import type { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process/in-process-event-bus';
import { NatsEventBus } from './nats/nats-event-bus';
import { eventBusContract, type EventBusAdapter } from './testing';

const inProcess: EventBusAdapter = {
  name: 'InProcessEventBus',
  persistent: false,
  enforcesAckWait: false,
  restartable: false,
  start: async () => {
    // one process: every "replica" is the same bus
    const bus = new InProcessEventBus();
    return { bus: async () => bus, stop: () => bus.close() };
  },
};

const nats: EventBusAdapter = {
  name: 'NatsEventBus (real nats-server -js)',
  persistent: true,
  enforcesAckWait: true,
  // a server named by INQUEST_TEST_NATS_URL is not ours to restart
  restartable: !process.env['INQUEST_TEST_NATS_URL'],
  start: async () => {
    const server = await startNatsServer();
    const buses: EventBus[] = [];
    return {
      // each bus is its own connection, as a separate service replica would be
      bus: async () => {
        const bus = await NatsEventBus.connect({
          url: server.url,
          logger: silentLogger(),
          drainGraceMs: 2000,
        });
        buses.push(bus);
        return bus;
      },
      restartServer: server.owned ? () => server.restart() : undefined,
      stop: async () => {
        await Promise.all(buses.map((b) => b.close()));
        await server.stop();
      },
    };
  },
};

describe.each([inProcess, nats].map((a) => [a.name, a] as const))(
  'EventBus contract: %s',
  (_name, adapter) => {
    eventBusContract(adapter);
  },
);
