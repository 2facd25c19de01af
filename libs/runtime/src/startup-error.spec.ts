import { createServer } from 'node:net';
import { listenOrExplain, StartupError } from './startup-error';

describe('listenOrExplain', () => {
  it('turns a port in use into one line naming the variable to set', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as { port: number }).port;
    try {
      const second = createServer();
      const err = await listenOrExplain(
        'PORT',
        port,
        () =>
          new Promise<void>((resolve, reject) => {
            second.once('error', reject);
            second.listen(port, '127.0.0.1', () => resolve());
          }),
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StartupError);
      expect((err as Error).name).toBe('StartupError');
      expect((err as Error).message).toBe(
        `port ${port} is in use (another Inquest or another program): set PORT to a free port`,
      );
    } finally {
      busy.close();
    }
  });

  it('passes other errors and results through', async () => {
    await expect(listenOrExplain('PORT', 1, async () => 7)).resolves.toBe(7);
    const other = new Error('boom');
    await expect(listenOrExplain('PORT', 1, () => Promise.reject(other))).rejects.toBe(other);
  });
});
