import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

/** One tool of a vocabulary: its MCP definition and what it prints. */
export interface VocabularyTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[] };
  annotations?: Record<string, unknown>;
  /** a tool that can change the cluster: every call counts as destructive and is refused */
  write?: boolean;
  /** for a tool that reads or writes by its arguments (a generic command): true for a write call */
  writes?(args: Record<string, unknown>): boolean;
  /**
   * for a server that refuses a write call itself (an access level): the error text it answers
   * instead of running it; the call is still recorded as destructive
   */
  refusal?(args: Record<string, unknown>): string;
  /**
   * the text the real tool would print; throw ToolFailure for the error text it would give. A
   * list is served as that many text content items (none for an empty list), for a server that
   * answers one item per object.
   */
  run?(args: Record<string, unknown>): string | string[];
}

/** An error the real tool would report (MCP `isError: true`). */
export class ToolFailure extends Error {}

/**
 * An error the real server throws out of its handler, so the client gets a JSON-RPC error
 * instead of a tool result (a low-level MCP `Server` whose tools throw `McpError`).
 */
export class ProtocolFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface RecordedCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** the tool is one of the vocabulary's write tools */
  destructive: boolean;
  error?: string;
}

export interface RunningVocabularyServer {
  /** the MCP endpoint to register with the proxy (transport `mcp`) */
  url: string;
  /** every call received, in order */
  calls: RecordedCall[];
  stop(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : undefined);
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}

/**
 * Serves a vocabulary's tools over MCP Streamable HTTP (stateless, JSON responses) at
 * `/mcp` on loopback, recording every call. Write tools answer an error and change nothing.
 */
export async function startVocabularyServer(
  name: string,
  tools: VocabularyTool[],
): Promise<RunningVocabularyServer> {
  const calls: RecordedCall[] = [];
  const byName = new Map(tools.map((t) => [t.name, t]));

  const mcpServer = (): McpServer => {
    const server = new McpServer({ name, version: '0.1.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: tools.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        ...(t.annotations ? { annotations: t.annotations } : {}),
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      const tool = byName.get(req.params.name);
      const call: RecordedCall = {
        tool: req.params.name,
        arguments: args,
        destructive: tool?.write === true || tool?.writes?.(args) === true,
      };
      calls.push(call);
      const fail = (text: string) => {
        call.error = text;
        return { isError: true, content: [{ type: 'text' as const, text }] };
      };
      if (!tool) return fail(`tool ${req.params.name} not found`);
      if (call.destructive && tool.refusal) return fail(tool.refusal(args));
      if (call.destructive || !tool.run)
        return fail(`${tool.name} is not allowed in this cluster (read-only benchmark)`);
      try {
        const out = tool.run(args);
        const texts = typeof out === 'string' ? [out] : out;
        return { content: texts.map((text) => ({ type: 'text' as const, text })) };
      } catch (err) {
        if (err instanceof ProtocolFailure) {
          const thrown = new McpError(err.code, err.message);
          call.error = thrown.message;
          throw thrown;
        }
        const message = err instanceof Error ? err.message : String(err);
        return fail(err instanceof ToolFailure ? message : `failed: ${message}`);
      }
    });
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://vocabulary').pathname;
    if (path !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
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
  };

  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else res.writeHead(400).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    stop: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** A string argument, or undefined when absent or empty. */
export function str(args: Record<string, unknown>, key: string): string | undefined {
  const v = args[key];
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** A required string argument; the error reads like the tool's own. */
export function required(args: Record<string, unknown>, key: string): string {
  const v = str(args, key);
  if (v === undefined) throw new ToolFailure(`${key} parameter required`);
  return v;
}
