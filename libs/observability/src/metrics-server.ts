import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from './logger';

export interface MetricsServer {
  /** host:port the server listens on */
  address: string;
  close(): Promise<void>;
}

/**
 * Serves a registry at GET /metrics (Prometheus text format) on its own port: the gRPC services
 * have no HTTP listener of their own to hang it on. Anything else answers 404.
 */
export async function startMetricsServer(options: {
  registry: Registry;
  port: number;
  host?: string;
  logger?: Logger;
}): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    options.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': options.registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        options.logger?.error({ err }, 'collecting metrics failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  // keep-alive scrapes must not hold shutdown
  server.keepAliveTimeout = 5000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  options.logger?.info({ address }, 'metrics listening on /metrics');
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
