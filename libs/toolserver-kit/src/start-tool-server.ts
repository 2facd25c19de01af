import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@inquest/observability';
import { sendJson } from './http-json';
import { errorBody, isToolError, ToolError, toolFailure } from './tool-error';

export interface ToolServerOptions {
  /** default 127.0.0.1 */
  host?: string;
  /** default 0: a free port */
  port?: number;
  /**
   * When set, every request must carry `Authorization: Bearer <token>`; a function is asked on
   * every request (a secret that rotates).
   */
  token?: string | (() => Promise<string>);
  /** logs unexpected errors */
  logger?: Logger;
  /** Answers a request that passed the token check; `path` is the URL's pathname. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

export interface RunningToolServer {
  url: string;
  stop(): Promise<void>;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * An HTTP server for a tool server: checks the bearer token, hands the request to `handle`, and
 * answers whatever it throws as `{error, code?}` with the failure's status (`toolFailure`).
 */
export async function startToolServer(options: ToolServerOptions): Promise<RunningToolServer> {
  const { logger, token } = options;

  const authorized = async (req: IncomingMessage): Promise<boolean> => {
    if (token === undefined) return true;
    const want = typeof token === 'string' ? token : await token();
    const got = /^Bearer\s+(.*)$/i.exec(req.headers.authorization ?? '')?.[1];
    // digests have one length, so the comparison takes the same time whatever was sent
    return got !== undefined && timingSafeEqual(digest(got), digest(want));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!(await authorized(req)))
      throw new ToolError(401, 'missing or wrong bearer token', 'invalid_request');
    await options.handle(req, res, new URL(req.url ?? '/', 'http://toolserver').pathname);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const f = toolFailure(err);
      if (f.status === 500 && !isToolError(err)) logger?.error({ err }, 'tool server error');
      sendJson(res, f.status, errorBody(f));
    });
  });
  server.keepAliveTimeout = 5_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
