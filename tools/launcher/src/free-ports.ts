import { createServer, type Server } from 'node:net';
import { listenOrExplain } from '@inquest/runtime';

/** `n` distinct loopback ports that were free a moment ago (held together, then released). */
export async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = [];
  const ports: number[] = [];
  for (let i = 0; i < n; i++) {
    const srv = createServer();
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => resolve());
    });
    servers.push(srv);
    const addr = srv.address();
    ports.push(typeof addr === 'object' && addr ? addr.port : 0);
  }
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/**
 * Fails at once, with one line naming `variable`, when `host:port` cannot be bound: checked before
 * anything starts, so a busy port stops `npm start` in its first second (the real bind later
 * reports a port taken in between the same way).
 */
export async function assertPortFree(variable: string, host: string, port: number): Promise<void> {
  if (port === 0) return;
  const srv = createServer();
  await listenOrExplain(
    variable,
    port,
    () =>
      new Promise<void>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(port, host, () => resolve());
      }),
  );
  await new Promise((r) => srv.close(r));
}
