import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { silentLogger } from '@inquest/observability';
import { freePort, startNatsServer, waitFor, type RunningNatsServer } from '@inquest/testing';
import { createEventBus } from '../create-event-bus';
import type { EventBus } from '../event-bus';
import { InProcessEventBus } from '../in-process/in-process-event-bus';
import { STREAM_NAME } from '../subjects';
import { NatsEventBus } from './nats-event-bus';

const ownServer = process.env['INQUEST_TEST_NATS_URL'] ? describe.skip : describe;

ownServer('NatsEventBus setup on a fresh nats-server', () => {
  let server: RunningNatsServer;
  const buses: EventBus[] = [];

  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await server.stop();
  });

  const connectBus = async (extra: { duplicateWindowMs?: number } = {}) => {
    const bus = await NatsEventBus.connect({
      url: server.url,
      logger: silentLogger(),
      drainGraceMs: 2000,
      ...extra,
    });
    buses.push(bus);
    return bus;
  };

  async function streamConfig() {
    const nc = await connect({ servers: server.url });
    try {
      return (await (await jetstreamManager(nc)).streams.info(STREAM_NAME)).config;
    } finally {
      await nc.close();
    }
  }

  it('creates the stream and durable consumers idempotently when replicas start at the same time', async () => {
    const replicas = await Promise.all([connectBus(), connectBus(), connectBus()]);
    const cfg = await streamConfig();
    expect(cfg.subjects).toEqual(['inquest.v1.>']);
    expect(cfg.storage).toBe('file');
    expect(cfg.duplicate_window).toBe(120_000 * 1_000_000);

    const got: string[] = [];
    await Promise.all(
      replicas.map((bus, i) =>
        bus.subscribe(
          'inquest.v1.setup.job',
          async (m) => {
            got.push(`${i}:${m.msgId}`);
          },
          { durable: 'setup_workers' },
        ),
      ),
    );
    for (let n = 0; n < 6; n++)
      await replicas[0]!.publish('inquest.v1.setup.job', { event_id: `job${n}` });
    await waitFor(() => got.length >= 6);
    await new Promise((r) => setTimeout(r, 300));
    expect(got.map((g) => g.split(':')[1]).sort()).toEqual([
      'job0',
      'job1',
      'job2',
      'job3',
      'job4',
      'job5',
    ]);
  });

  it('updates the stream when a bus starts with other settings', async () => {
    await connectBus({ duplicateWindowMs: 60_000 });
    expect((await streamConfig()).duplicate_window).toBe(60_000 * 1_000_000);
  });

  it('rejects durable names and subjects JetStream cannot serve', async () => {
    const bus = await connectBus();
    await expect(
      bus.subscribe('inquest.v1.x', async () => undefined, { durable: 'has.dot' }),
    ).rejects.toThrow(/invalid durable name/);
    await expect(
      bus.subscribe('other.subject', async () => undefined, { durable: 'ok' }),
    ).rejects.toThrow(/durable subscriptions need a subject under inquest\.v1\.>/);
  });

  it('publishes subjects outside the stream over core NATS to plain subscribers', async () => {
    const bus = await connectBus();
    const got: unknown[] = [];
    await bus.subscribe('outside.stream', async (m) => void got.push(m.data));
    await bus.publish('outside.stream', { hello: 'world' });
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ hello: 'world' }]);
  });

  it('rejects publish and subscribe after close', async () => {
    const bus = await connectBus();
    await bus.close();
    await expect(bus.publish('inquest.v1.closed', {})).rejects.toThrow(/closed/);
    await expect(bus.subscribe('inquest.v1.closed', async () => undefined)).rejects.toThrow(
      /closed/,
    );
  });
});

describe('createEventBus', () => {
  it('returns the in-process bus without a NATS URL', async () => {
    const bus = await createEventBus({ logger: silentLogger() });
    expect(bus).toBeInstanceOf(InProcessEventBus);
    await bus.close();
  });

  it('fails with the URL in the message when NATS stays unreachable', async () => {
    const port = await freePort();
    await expect(
      NatsEventBus.connect({
        url: `nats://127.0.0.1:${port}`,
        logger: silentLogger(),
        connectTimeoutMs: 300,
      }),
    ).rejects.toThrow(`cannot connect to NATS at nats://127.0.0.1:${port}`);
  });

  ownServer('with a server', () => {
    it('returns a NATS bus with a NATS URL', async () => {
      const server = await startNatsServer();
      try {
        const bus = await createEventBus({
          natsUrl: server.url,
          logger: silentLogger(),
          name: 'test',
        });
        expect(bus).toBeInstanceOf(NatsEventBus);
        await bus.close();
      } finally {
        await server.stop();
      }
    });
  });
});
