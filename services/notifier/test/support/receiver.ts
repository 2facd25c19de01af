import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export type Behaviour = (
  req: IncomingMessage,
  res: ServerResponse,
  nth: number,
  body: string,
) => void;

export interface Receiver {
  url: string;
  port: number;
  /** every request that arrived with a complete body, in order */
  received: Received[];
  /** requests answered 2xx, by webhook-id */
  acceptedIds(): string[];
  setBehaviour(b: Behaviour): void;
  stop(): Promise<void>;
}

export const ok: Behaviour = (_req, res) => {
  res.writeHead(204).end();
};

/** A real HTTP receiver on 127.0.0.1 whose answers a test scripts per request. */
export async function startReceiver(behaviour: Behaviour = ok): Promise<Receiver> {
  let current = behaviour;
  const received: Received[] = [];
  const accepted: string[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({ path: req.url ?? '/', headers, body, at: Date.now() });
      const nth = ++n;
      res.on('finish', () => {
        if (res.statusCode >= 200 && res.statusCode < 300)
          accepted.push(headers['webhook-id'] ?? '');
      });
      current(req, res, nth, body);
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    acceptedIds: () => [...accepted],
    setBehaviour: (b) => {
      current = b;
    },
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
