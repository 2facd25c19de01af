import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isDomainError, type ErrorKind } from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import type { KubernetesTools } from '../domain/kubernetes-tools';

export interface ToolHttpServerOptions {
  tools: KubernetesTools;
  logger: Logger;
  /** reachability of the Kubernetes API, for GET /health */
  health: () => Promise<{ ok: boolean; detail: string }>;
  port?: number;
  host?: string;
  /** when set, every request must carry `Authorization: Bearer <token>` */
  token?: string;
}

export interface RunningToolHttpServer {
  url: string;
  stop(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

const STATUS: Record<ErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, `body larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'body is not valid JSON');
  }
}

/** A tool failure as an HTTP status and message; anything unexpected is a 500 without details. */
function failure(err: unknown): { status: number; message: string; code: string } {
  if (err instanceof HttpError)
    return { status: err.status, message: err.message, code: 'invalid_request' };
  if (isDomainError(err))
    return { status: STATUS[err.kind] ?? 500, message: err.message, code: err.code };
  return { status: 500, message: 'internal error', code: 'internal' };
}

function mcpServerFor(
  tools: KubernetesTools,
  run: (name: string, params: unknown) => Promise<Record<string, unknown>>,
): McpServer {
  const server = new McpServer(
    { name: 'inquest-toolserver-kubernetes', version: '0.1.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.definitions.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.parameters,
      annotations: t.annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    try {
      const out = await run(req.params.name, req.params.arguments ?? {});
      // people and models read `text`; the structured answer carries every field
      const text = typeof out.text === 'string' ? out.text : JSON.stringify(out);
      return { content: [{ type: 'text', text }], structuredContent: out };
    } catch (err) {
      const f = failure(err);
      return { isError: true, content: [{ type: 'text', text: f.message }] };
    }
  });
  return server;
}

/**
 * The Kubernetes tools over Inquest's tool-server contract (GET /tools, POST /tools/{name} with
 * `{parameters}`, GET /health) and MCP Streamable HTTP (stateless, POST /mcp). Tool errors are
 * 4xx/5xx answers `{error, code}` (MCP: isError), never a crash.
 */
export async function startToolHttpServer(
  options: ToolHttpServerOptions,
): Promise<RunningToolHttpServer> {
  const { tools, logger } = options;

  const run = async (name: string, params: unknown): Promise<Record<string, unknown>> => {
    const started = performance.now();
    try {
      const out = await tools.call(name, params);
      logger.debug({ tool: name, ms: Math.round(performance.now() - started) }, 'tool call');
      return out;
    } catch (err) {
      const f = failure(err);
      const log = f.status >= 500 ? logger.warn.bind(logger) : logger.info.bind(logger);
      log(
        {
          tool: name,
          status: f.status,
          code: f.code,
          error: f.message,
          ...(f.status === 500 ? { err } : {}),
        },
        'tool call failed',
      );
      throw err;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      throw new HttpError(401, 'missing or wrong bearer token');
    }
    const path = new URL(req.url ?? '/', 'http://toolserver').pathname;
    if (path === '/health' && req.method === 'GET') {
      const h = await options.health();
      return send(res, h.ok ? 200 : 503, {
        status: h.ok ? 'ok' : 'unavailable',
        kubernetes: h.detail,
      });
    }
    if (path === '/tools' && req.method === 'GET') return send(res, 200, tools.definitions);
    const call = /^\/tools\/([^/]+)$/.exec(path);
    if (call && req.method === 'POST') {
      const body = await readBody(req);
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new HttpError(400, 'body must be a JSON object');
      const params = (body as { parameters?: unknown }).parameters;
      if (
        params !== undefined &&
        (typeof params !== 'object' || params === null || Array.isArray(params))
      ) {
        throw new HttpError(400, 'parameters must be a JSON object');
      }
      return send(res, 200, await run(decodeURIComponent(call[1] ?? ''), params ?? {}));
    }
    if (path === '/mcp') {
      if (req.method !== 'POST') throw new HttpError(405, 'only POST is served (stateless MCP)');
      const body = await readBody(req);
      const server = mcpServerFor(tools, run);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    throw new HttpError(404, `no route ${req.method ?? ''} ${path}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const f = failure(err);
      send(res, f.status, { error: f.message, code: f.code });
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
