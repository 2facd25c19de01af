import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import Ajv, { type ValidateFunction } from 'ajv';
import type { Logger } from '@inquest/observability';
import { isToolError, ToolError } from '../domain/tool-error';
import {
  definitionOf,
  toolsFor,
  type ToolContext,
  type ToolDefinition,
  type ToolLimits,
} from '../domain/tools';
import type { UpstreamApi } from '../domain/upstream';

export interface ToolHttpServerOptions {
  host: string;
  port: number;
  prometheus: UpstreamApi;
  alertmanager?: UpstreamApi;
  limits: ToolLimits;
  logger: Logger;
  /** when set, every request must carry `Authorization: Bearer <token>` (resolved per request) */
  token?: () => Promise<string>;
  now?: () => number;
}

export interface RunningToolHttpServer {
  url: string;
  stop(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

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
    if (size > MAX_BODY) throw new ToolError(413, 'body too large (1 MiB at most)');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ToolError(400, 'body is not valid JSON');
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The Prometheus/Alertmanager tool server: the tool-server contract (GET /tools,
 * POST /tools/{name} with `{parameters}`, GET /health) and the same tools over MCP Streamable
 * HTTP (stateless, JSON answers) at POST /mcp.
 */
export async function startToolHttpServer(
  options: ToolHttpServerOptions,
): Promise<RunningToolHttpServer> {
  const { logger } = options;
  const tools = toolsFor(options.alertmanager !== undefined);
  const definitions: ToolDefinition[] = tools.map(definitionOf);
  const ajv = new Ajv({ allErrors: false, strict: false });
  const validators = new Map<string, ValidateFunction>(
    definitions.map((t) => [t.name, ajv.compile(t.parameters)]),
  );
  const now = options.now ?? Date.now;

  async function run(name: string, parameters: unknown, signal?: AbortSignal) {
    const tool = tools.find((t) => t.name === name);
    const validate = validators.get(name);
    if (!tool || !validate)
      throw new ToolError(
        404,
        `unknown tool ${name} (tools: ${definitions.map((d) => d.name).join(', ')})`,
      );
    const params = parameters ?? {};
    if (!validate(params)) {
      const first = validate.errors?.[0];
      throw new ToolError(
        400,
        `invalid parameters: ${first ? `${first.instancePath || '/'} ${first.message ?? ''}` : 'invalid'}`,
      );
    }
    const ctx: ToolContext = {
      prometheus: options.prometheus,
      ...(options.alertmanager ? { alertmanager: options.alertmanager } : {}),
      limits: options.limits,
      nowMs: now(),
      ...(signal ? { signal } : {}),
    };
    const t0 = performance.now();
    try {
      const out = await tool.handler(ctx, params as Record<string, unknown>);
      logger.debug({ tool: name, ms: Math.round(performance.now() - t0) }, 'tool call');
      return out;
    } catch (err) {
      logger.info(
        { tool: name, status: isToolError(err) ? err.status : 500, err: (err as Error).message },
        'tool call failed',
      );
      throw err;
    }
  }

  async function health(): Promise<Record<string, unknown>> {
    const probe = async (api: UpstreamApi | undefined) => {
      if (!api) return undefined;
      try {
        // /-/ready answers text, so ask something small that answers JSON
        await api.call({
          method: 'GET',
          path: api.name === 'Prometheus' ? '/api/v1/status/buildinfo' : '/api/v2/status',
        });
        return 'up';
      } catch (err) {
        return `down: ${(err as Error).message}`;
      }
    };
    const [prometheus, alertmanager] = await Promise.all([
      probe(options.prometheus),
      probe(options.alertmanager),
    ]);
    const ok = prometheus === 'up' && (alertmanager === undefined || alertmanager === 'up');
    return {
      status: ok ? 'ok' : 'degraded',
      prometheus,
      ...(alertmanager ? { alertmanager } : {}),
    };
  }

  function mcpServer(): McpServer {
    const server = new McpServer(
      { name: 'inquest-toolserver-prometheus', version: '0.1.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: definitions.map((t) => ({
        name: t.name,
        title: t.annotations.title,
        description: t.description,
        inputSchema: t.parameters,
        annotations: t.annotations,
        _meta: { read_only: true },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      try {
        const out = await run(req.params.name, req.params.arguments ?? {}, extra.signal);
        return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
      } catch (err) {
        if (isToolError(err))
          return { isError: true, content: [{ type: 'text', text: err.message }] };
        throw err;
      }
    });
    return server;
  }

  const expected = async () => (options.token ? digest(await options.token()) : undefined);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const want = await expected();
    if (want) {
      const got = digest(req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '');
      if (!req.headers.authorization || !timingSafeEqual(got, want))
        throw new ToolError(401, 'missing or wrong bearer token');
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/health' && req.method === 'GET') return send(res, 200, await health());
    if (path === '/tools' && req.method === 'GET') return send(res, 200, definitions);
    const call = /^\/tools\/([^/]+)$/.exec(path);
    if (call && req.method === 'POST') {
      const body = await readBody(req);
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new ToolError(400, 'body must be a JSON object {"parameters": {...}}');
      const aborted = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) aborted.abort();
      });
      const out = await run(
        decodeURIComponent(call[1] ?? ''),
        (body as { parameters?: unknown }).parameters,
        aborted.signal,
      );
      return send(res, 200, out);
    }
    if (path === '/mcp') {
      if (req.method !== 'POST') throw new ToolError(405, 'only POST is served (stateless MCP)');
      const body = await readBody(req);
      const server = mcpServer();
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
    throw new ToolError(404, `no route ${req.method ?? ''} ${path}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (isToolError(err)) return send(res, err.status, { error: err.message });
      logger.error({ err }, 'tool server error');
      send(res, 500, { error: 'internal error' });
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
