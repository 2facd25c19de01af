import { connect } from 'node:net';
import { startNatsServer } from './nats-server';
import { waitFor } from './wait-for';

function infoLine(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host: '127.0.0.1', port });
    sock.once('error', reject);
    sock.once('data', (b: Buffer) => {
      sock.destroy();
      resolve(b.toString('utf8'));
    });
  });
}

const ownServer = process.env['INQUEST_TEST_NATS_URL'] ? describe.skip : describe;

ownServer('startNatsServer', () => {
  it('starts a JetStream server that accepts connections, restarts on the same port and stops', async () => {
    const nats = await startNatsServer();
    try {
      expect(nats.url).toBe(`nats://127.0.0.1:${nats.port}`);
      const info = JSON.parse((await infoLine(nats.port)).replace(/^INFO /, '')) as {
        jetstream?: boolean;
        port: number;
      };
      expect(info.jetstream).toBe(true);
      expect(info.port).toBe(nats.port);

      nats.kill();
      await waitFor(() =>
        infoLine(nats.port).then(
          () => false,
          () => true,
        ),
      );
      await nats.restart();
      expect(await infoLine(nats.port)).toMatch(/^INFO /);
    } finally {
      await nats.stop();
    }
    await expect(infoLine(nats.port)).rejects.toThrow();
  });
});
