import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body, the raw text when it is not JSON, undefined when empty. */
  body: unknown;
}

export interface ScriptedReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait before answering (for timeouts and aborts). */
  delayMs?: number;
  /** Close the connection without an answer. */
  drop?: boolean;
}

export type ScriptedHandler = (req: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` (no /api/v1). */
  url: string;
  /** Every request received, in order. */
  requests: ScriptedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP server answering from a script, for testing client behaviour (retries,
 * errors, polling, aborts) without the real service.
 */
export async function startScriptedServer(handler: ScriptedHandler): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      const u = new URL(req.url ?? '/', 'http://localhost');
      const sreq: ScriptedRequest = {
        method: req.method ?? 'GET',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body,
      };
      requests.push(sreq);
      void (async () => {
        let reply: ScriptedReply;
        try {
          reply = await handler(sreq);
        } catch (err) {
          reply = { status: 500, body: { error: { code: 'internal', message: String(err) } } };
        }
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (reply.drop) {
          req.socket.destroy();
          return;
        }
        if (res.destroyed) return;
        const headers: Record<string, string> = {
          'x-request-id': `req-${requests.length}`,
          ...reply.headers,
        };
        if (reply.body === undefined) {
          res.writeHead(reply.status, headers).end();
        } else if (typeof reply.body === 'string') {
          res.writeHead(reply.status, { 'content-type': 'text/plain', ...headers }).end(reply.body);
        } else {
          res
            .writeHead(reply.status, { 'content-type': 'application/json', ...headers })
            .end(JSON.stringify(reply.body));
        }
      })();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A handler from a route table: `'GET /api/v1/agents/status/inv_1': [reply1, reply2]` answers
 * the replies in order and repeats the last. Unknown routes answer 404 not_found.
 */
export function scriptRoutes(
  routes: Record<string, ScriptedReply | ScriptedReply[] | ScriptedHandler>,
): ScriptedHandler {
  const counters = new Map<string, number>();
  return (req) => {
    const key = `${req.method} ${req.path}`;
    const entry = routes[key];
    if (entry === undefined) {
      return { status: 404, body: { error: { code: 'not_found', message: `no route ${key}` } } };
    }
    if (typeof entry === 'function') return entry(req);
    if (!Array.isArray(entry)) return entry;
    const n = counters.get(key) ?? 0;
    counters.set(key, n + 1);
    return entry[Math.min(n, entry.length - 1)]!;
  };
}
