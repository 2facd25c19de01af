import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import Ajv, { type ValidateFunction } from 'ajv';
import type { Logger } from '@inquest/observability';
import { readJsonBody, sendJson } from './http-json';
import { ToolError, toolFailure } from './tool-error';

/** MCP tool annotations, as the tool-server contract lists them too. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool definition as the tool-server contract's GET /tools returns it. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON schema of the call's `parameters` */
  parameters: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
    additionalProperties?: boolean;
  };
  annotations?: ToolAnnotations;
  /** the contract's flag: this tool changes nothing (MCP: `_meta.read_only`) */
  read_only?: boolean;
}

/** What a handler learns about the call besides its parameters. */
export interface ToolCall {
  /** aborted when the caller goes away (HTTP) or cancels (MCP) */
  signal: AbortSignal;
}

/** Answers a JSON object, or throws a `ToolError` (or a `DomainError`) for the status to answer. */
export type ToolHandler = (
  params: Record<string, unknown>,
  call: ToolCall,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

/** One tool: its definition, served as is, and the handler that answers it. */
export interface ServedTool {
  definition: ToolDefinition;
  handler: ToolHandler;
}

/** GET /health's answer. */
export interface HealthReport {
  status: number;
  body: Record<string, unknown>;
}

export interface ToolRoutesOptions {
  /** the MCP server name reported on initialize, e.g. `inquest-toolserver-kubernetes` */
  name: string;
  version?: string;
  tools: readonly ServedTool[];
  /**
   * Check parameters against each tool's schema before its handler runs (default true). Off when
   * the handlers check their own and answer their own messages.
   */
  checkParameters?: boolean;
  /** default: 200 `{status: 'ok'}` */
  health?: () => Promise<HealthReport> | HealthReport;
  /** largest request body, bytes (default 1 MiB) */
  maxBodyBytes?: number;
  /** the MCP result's text for an answer (default: the answer as JSON) */
  mcpText?: (out: Record<string, unknown>) => string;
  /** logs each call (debug) and each failure (info, warn for 5xx) */
  logger?: Logger;
}

/** The contract's routes for one set of tools, to mount under `startToolServer`. */
export interface ToolRoutes {
  /** Serves GET /health, GET /tools, POST /tools/{name}, POST /mcp; anything else is a 404. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** Runs one tool as POST /tools/{name} does. */
  call(name: string, parameters: unknown, signal?: AbortSignal): Promise<Record<string, unknown>>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The tool-server contract (GET /tools, POST /tools/{name} with `{parameters}`, GET /health)
 * and the same tools over MCP Streamable HTTP (stateless, JSON answers) at POST /mcp. A failed
 * call answers its status and `{error, code?}` over HTTP and `isError` with the message over
 * MCP; an unexpected error answers 500 `internal error`.
 */
export function toolRoutes(options: ToolRoutesOptions): ToolRoutes {
  const { logger } = options;
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const mcpText = options.mcpText ?? ((out) => JSON.stringify(out));
  const definitions = options.tools.map((t) => t.definition);
  const byName = new Map(options.tools.map((t) => [t.definition.name, t]));
  const ajv = new Ajv({ allErrors: false, strict: false });
  const validators =
    options.checkParameters === false
      ? undefined
      : new Map<string, ValidateFunction>(
          definitions.map((d) => [d.name, ajv.compile(d.parameters)]),
        );

  const check = (name: string, params: unknown): void => {
    const validate = validators?.get(name);
    if (!validate || validate(params)) return;
    const first = validate.errors?.[0];
    throw new ToolError(
      400,
      `invalid parameters: ${first ? `${first.instancePath || '/'} ${first.message ?? ''}` : 'invalid'}`,
      'invalid_field',
    );
  };

  const call = async (
    name: string,
    parameters: unknown,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<Record<string, unknown>> => {
    const started = performance.now();
    try {
      const tool = byName.get(name);
      if (!tool) {
        throw new ToolError(
          404,
          `unknown tool ${name} (tools: ${definitions.map((d) => d.name).join(', ')})`,
          'not_found',
        );
      }
      const params = parameters ?? {};
      check(name, params);
      const out = await tool.handler(params as Record<string, unknown>, { signal });
      logger?.debug({ tool: name, ms: Math.round(performance.now() - started) }, 'tool call');
      return out;
    } catch (err) {
      if (logger) {
        const f = toolFailure(err);
        const fields = {
          tool: name,
          status: f.status,
          code: f.code,
          error: f.message,
          ...(f.status === 500 ? { err } : {}),
        };
        if (f.status >= 500) logger.warn(fields, 'tool call failed');
        else logger.info(fields, 'tool call failed');
      }
      throw err;
    }
  };

  const mcpServer = (): McpServer => {
    const server = new McpServer(
      { name: options.name, version: options.version ?? '0.1.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: definitions.map((t) => ({
        name: t.name,
        ...(t.annotations?.title ? { title: t.annotations.title } : {}),
        description: t.description,
        inputSchema: t.parameters,
        ...(t.annotations ? { annotations: t.annotations } : {}),
        ...(t.read_only !== undefined ? { _meta: { read_only: t.read_only } } : {}),
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      try {
        const out = await call(req.params.name, req.params.arguments ?? {}, extra.signal);
        return { content: [{ type: 'text', text: mcpText(out) }], structuredContent: out };
      } catch (err) {
        return { isError: true, content: [{ type: 'text', text: toolFailure(err).message }] };
      }
    });
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (path === '/health' && req.method === 'GET') {
      const h = options.health ? await options.health() : { status: 200, body: { status: 'ok' } };
      return sendJson(res, h.status, h.body);
    }
    if (path === '/tools' && req.method === 'GET') return sendJson(res, 200, definitions);
    const named = /^\/tools\/([^/]+)$/.exec(path);
    if (named && req.method === 'POST') {
      const body = await readJsonBody(req, maxBody);
      if (!isObject(body))
        throw new ToolError(
          400,
          'body must be a JSON object {"parameters": {...}}',
          'invalid_request',
        );
      if (body.parameters !== undefined && !isObject(body.parameters))
        throw new ToolError(400, 'parameters must be a JSON object', 'invalid_request');
      const aborted = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) aborted.abort();
      });
      const out = await call(decodeURIComponent(named[1] ?? ''), body.parameters, aborted.signal);
      return sendJson(res, 200, out);
    }
    if (path === '/mcp') {
      if (req.method !== 'POST')
        throw new ToolError(405, 'only POST is served (stateless MCP)', 'invalid_request');
      const body = await readJsonBody(req, maxBody);
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
    throw new ToolError(404, `no route ${req.method ?? ''} ${path}`, 'invalid_request');
  };

  return { handle, call };
}
