import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import Ajv, { type ValidateFunction } from 'ajv';
import {
  buildEnvironment,
  DEFAULT_SCENARIO,
  isScenario,
  SCENARIOS,
  type Environment,
  type Scenario,
} from './environment';
import { TOOL_DEFINITIONS, TOOLS, ToolError } from './tools';

export interface DemoToolServerOptions {
  port?: number;
  host?: string;
  /** default scenario; a request may pick another with `/scenarios/<name>/...` or `x-demo-scenario` */
  scenario?: string;
  /** when set, every request must carry `Authorization: Bearer <token>` */
  token?: string;
}

export interface RunningDemoToolServer {
  url: string;
  stop(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

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
    if (size > MAX_BODY) throw new HttpError(413, 'body too large');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'body is not valid JSON');
  }
}

/**
 * Runs one tool against a scenario's environment; throws ToolError (4xx) for bad input.
 * Shared by the plain HTTP contract and the MCP endpoint.
 */
export function runDemoTool(
  validators: Map<string, ValidateFunction>,
  env: Environment,
  name: string,
  parameters: unknown,
): Record<string, unknown> {
  const tool = TOOLS.find((t) => t.name === name);
  const validate = validators.get(name);
  if (!tool || !validate) throw new ToolError(404, `unknown tool ${name}`);
  const params = parameters ?? {};
  if (!validate(params)) {
    const first = validate.errors?.[0];
    throw new ToolError(
      400,
      `invalid parameters: ${first ? `${first.instancePath || '/'} ${first.message ?? ''}` : 'invalid'}`,
    );
  }
  return tool.handler(env, params as Record<string, unknown>, Date.now());
}

function mcpServerFor(validators: Map<string, ValidateFunction>, env: Environment): McpServer {
  const server = new McpServer(
    { name: 'inquest-demo-toolserver', version: '0.1.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOL_DEFINITIONS.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.parameters,
      ...(t.annotations ? { annotations: t.annotations } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    try {
      const out = runDemoTool(validators, env, req.params.name, req.params.arguments ?? {});
      return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
    } catch (err) {
      if (err instanceof ToolError)
        return { isError: true, content: [{ type: 'text', text: err.message }] };
      throw err;
    }
  });
  return server;
}

/**
 * The demo tool server: the tool-server contract (GET /tools, POST /tools/{name}, GET /health)
 * plus the same tools over MCP Streamable HTTP at `/mcp`, on a synthetic environment.
 * `/scenarios/<name>/...` serves the same routes for another scenario.
 */
export async function startDemoToolServer(
  options: DemoToolServerOptions = {},
): Promise<RunningDemoToolServer> {
  const defaultScenario: Scenario =
    options.scenario === undefined ? DEFAULT_SCENARIO : validScenario(options.scenario);
  const ajv = new Ajv({ allErrors: false, strict: false });
  const validators = new Map(TOOL_DEFINITIONS.map((t) => [t.name, ajv.compile(t.parameters)]));
  const environments = new Map<Scenario, Environment>();
  const envFor = (s: Scenario) => {
    let env = environments.get(s);
    if (!env) {
      env = buildEnvironment(s);
      environments.set(s, env);
    }
    return env;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      throw new HttpError(401, 'missing or wrong bearer token');
    }
    const url = new URL(req.url ?? '/', 'http://demo');
    let path = url.pathname;
    let scenario = defaultScenario;
    const m = /^\/scenarios\/([^/]+)(\/.*)?$/.exec(path);
    if (m) {
      scenario = validScenario(decodeURIComponent(m[1] ?? ''));
      path = m[2] ?? '/';
    } else if (typeof req.headers['x-demo-scenario'] === 'string') {
      scenario = validScenario(req.headers['x-demo-scenario']);
    }
    const env = envFor(scenario);
    if (path === '/scenarios' && req.method === 'GET') {
      return send(res, 200, { default: defaultScenario, scenarios: SCENARIOS });
    }
    if (path === '/health' && req.method === 'GET') {
      return send(res, 200, { status: 'ok', scenario });
    }
    if (path === '/tools' && req.method === 'GET') {
      return send(res, 200, TOOL_DEFINITIONS);
    }
    const call = /^\/tools\/([^/]+)$/.exec(path);
    if (call && req.method === 'POST') {
      const body = await readBody(req);
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new HttpError(400, 'body must be a JSON object');
      const name = decodeURIComponent(call[1] ?? '');
      return send(
        res,
        200,
        runDemoTool(validators, env, name, (body as { parameters?: unknown }).parameters),
      );
    }
    if (path === '/mcp') {
      if (req.method !== 'POST') throw new HttpError(405, 'only POST is served (stateless MCP)');
      const body = await readBody(req);
      const server = mcpServerFor(validators, env);
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
      if (err instanceof ToolError || err instanceof HttpError)
        send(res, err.status, { error: err.message });
      else send(res, 500, { error: 'internal error' });
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

function validScenario(s: string): Scenario {
  if (!isScenario(s))
    throw new HttpError(404, `unknown scenario ${s} (scenarios: ${SCENARIOS.join(', ')})`);
  return s;
}
