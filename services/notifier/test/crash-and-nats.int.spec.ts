import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createEventBus, Subjects, type EventBus } from '@inquest/events';
import { checkHealth } from '@inquest/grpc-kit';
import { silentLogger } from '@inquest/observability';
import { SqliteDeliveryStore } from '@inquest/store';
import {
  freePort,
  natsServerBinary,
  startConfigServiceDouble,
  startNatsServer,
  tempDir,
  waitFor,
  type ConfigServiceDouble,
  type RunningNatsServer,
} from '@inquest/testing';
import { start } from '../src/main';
import { completedEvent, notifierEnv } from './support/notifier-env';
import { ok, startReceiver, type Receiver } from './support/receiver';

const root = resolve(__dirname, '../../..');
const dirs = { crash: tempDir(), nats: tempDir() };
const describeNats = natsServerBinary() ? describe : describe.skip;

let nats: RunningNatsServer;
let config: ConfigServiceDouble;
let publisher: EventBus;
const receivers: Receiver[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  config = await startConfigServiceDouble();
  publisher = await createEventBus({
    natsUrl: nats.url,
    logger: silentLogger(),
    name: 'test-publisher',
  });
}, 30_000);

afterAll(async () => {
  await publisher?.close();
  for (const r of receivers) await r.stop();
  await config?.stop();
  await nats?.stop();
});

async function spawnNotifier(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-r', join(__dirname, 'support/register-ts.js'), join(root, 'services/notifier/src/main.ts')],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const addr = `127.0.0.1:${env['INQUEST_GRPC_PORT']}`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`notifier exited: ${stderr}`);
    return checkHealth(addr, 500);
  }, 20_000);
  return child;
}

describeNats('notifier crash and NATS faults', () => {
  it('SIGKILLed between recording and delivering, a restart delivers exactly the pending ones', async () => {
    let hanging = false;
    const r = await startReceiver((_q, res) => {
      if (!hanging) res.writeHead(200).end();
    });
    receivers.push(r);
    config.effective.set('t-crash', { webhooks: { investigation_complete: r.url } });
    const env = notifierEnv(dirs.crash, config.address, {
      INQUEST_NATS_URL: nats.url,
      INQUEST_GRPC_PORT: String(await freePort()),
      INQUEST_NOTIFIER_LANE_CONCURRENCY: '2',
    });
    let child = await spawnNotifier(env);

    const early = Array.from({ length: 3 }, () => completedEvent('t-crash'));
    for (const ev of early) await publisher.publish(Subjects.investigationCompleted, ev);
    await waitFor(() => r.acceptedIds().length === 3, 15_000);

    hanging = true;
    const pending = Array.from({ length: 6 }, () => completedEvent('t-crash'));
    for (const ev of pending) await publisher.publish(Subjects.investigationCompleted, ev);
    const store = SqliteDeliveryStore.open(join(dirs.crash, 'notifier.db'));
    try {
      // two attempts hang in flight (lane capacity 2), four are recorded and not yet attempted
      await waitFor(
        async () =>
          (await store.list('t-crash', { limit: 20 })).length === 9 && r.received.length === 5,
        15_000,
      );
      child.kill('SIGKILL');
      await new Promise((res) => child.once('exit', res));
      const before = await store.list('t-crash', { limit: 20 });
      expect(before.filter((d) => d.status === 'delivered')).toHaveLength(3);
      const cutOff = before.filter((d) => d.status === 'delivering');
      expect(cutOff).toHaveLength(2);
      // recorded before sending: the attempts the crash cut off count
      expect(cutOff.map((d) => d.attempts)).toEqual([1, 1]);
      expect(before.filter((d) => d.status === 'pending' && d.attempts === 0)).toHaveLength(4);

      hanging = false;
      r.setBehaviour(ok);
      child = await spawnNotifier(env);
      // the four never attempted go at once; the two whose lease the dead process held, once it expires (6 s)
      await waitFor(() => r.acceptedIds().length === 9, 20_000);
      await new Promise((res) => setTimeout(res, 500));
      const accepted = r.acceptedIds();
      expect(accepted).toHaveLength(9);
      expect(new Set(accepted)).toEqual(new Set([...early, ...pending].map((e) => e.event_id)));
      const after = await store.list('t-crash', { limit: 20 });
      expect(after.every((d) => d.status === 'delivered')).toBe(true);
      const ids = new Set(cutOff.map((d) => d.delivery_id));
      expect(after.filter((d) => ids.has(d.delivery_id)).map((d) => d.attempts)).toEqual([2, 2]);
      expect(after.filter((d) => !ids.has(d.delivery_id)).every((d) => d.attempts === 1)).toBe(
        true,
      );
    } finally {
      child.kill('SIGTERM');
      await new Promise((res) =>
        child.exitCode !== null ? res(undefined) : child.once('exit', res),
      );
      await store.close();
    }
  }, 60_000);

  it('loses no event when NATS restarts with events in flight', async () => {
    const r = await startReceiver(ok);
    receivers.push(r);
    config.effective.set('t-nats', { webhooks: { investigation_complete: r.url } });
    const svc = await start(notifierEnv(dirs.nats, config.address, { INQUEST_NATS_URL: nats.url }));
    try {
      const events = Array.from({ length: 40 }, () => completedEvent('t-nats'));
      for (const ev of events.slice(0, 20))
        await publisher.publish(Subjects.investigationCompleted, ev);
      const restarting = nats.restart();
      // published while the server is down or coming back: the client retries them
      const rest = Promise.all(
        events.slice(20).map((ev) => publisher.publish(Subjects.investigationCompleted, ev)),
      );
      await restarting;
      await rest;
      await waitFor(() => r.acceptedIds().length >= 40, 30_000);
      await new Promise((res) => setTimeout(res, 500));
      const accepted = r.acceptedIds();
      expect(new Set(accepted)).toEqual(new Set(events.map((e) => e.event_id)));
      expect(accepted).toHaveLength(40); // a redelivered event is recorded once, so sent once
    } finally {
      await svc.stop();
    }
  }, 60_000);
});
