import { MongoClient } from 'mongodb';
import { NatsEventBus } from '@inquest/events';
import { freePort } from '@inquest/testing';
import { EnvError } from './env';
import { startFailureText } from './run-main';
import { StartupError } from './startup-error';

const failure = async (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('startFailureText', () => {
  it('prints an unreachable MongoDB as one line naming INQUEST_MONGODB_URL, not the driver stack', async () => {
    const port = await freePort();
    const err = await failure(
      MongoClient.connect(`mongodb://127.0.0.1:${port}/inquest`, {
        serverSelectionTimeoutMS: 200,
      }),
    );
    const text = startFailureText('config-hierarchy', err);
    expect(text).toMatch(
      new RegExp(
        `^config-hierarchy: cannot reach MongoDB \\(.*ECONNREFUSED 127\\.0\\.0\\.1:${port}.*\\): check INQUEST_MONGODB_URL and that MongoDB runs there$`,
      ),
    );
    expect(text.split('\n')).toHaveLength(1);
  });

  it('prints an unreachable NATS server as one line naming INQUEST_NATS_URL', async () => {
    const port = await freePort();
    const err = await failure(
      NatsEventBus.connect({ url: `nats://127.0.0.1:${port}`, connectTimeoutMs: 200 }),
    );
    const text = startFailureText('notifier', err);
    expect(text.split('\n')).toHaveLength(1);
    expect(text).toMatch(
      new RegExp(
        `^notifier: cannot connect to NATS at nats://127\\.0\\.0\\.1:${port}: .*: check INQUEST_NATS_URL and that nats-server runs there with JetStream \\(-js\\)$`,
      ),
    );
  });

  it('keeps one line for a bad variable or a start-up error, and the stack for anything else', () => {
    expect(startFailureText('gateway', new EnvError('PORT: expected a port number'))).toBe(
      'gateway: invalid configuration: PORT: expected a port number',
    );
    expect(startFailureText('gateway', new StartupError('port 8080 is in use'))).toBe(
      'gateway: port 8080 is in use',
    );
    const bug = new TypeError('x is undefined');
    expect(startFailureText('gateway', bug)).toBe(`gateway: failed to start: ${bug.stack}`);
  });
});
