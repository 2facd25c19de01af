import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Egress } from '@inquest/egress';
import {
  ToolServerError,
  type CallOptions,
  type ToolServerClient,
} from '../domain/tool-server-client';
import { egressFailure } from './egress-failure';

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * fetch for the MCP SDK built on the egress guard: same address checks, deadlines and size
 * bound as the plain contract. The optional GET event stream (server-initiated messages) is not
 * used, so it is answered 405, which the SDK reads as "no stream offered".
 */
function egressFetch(egress: Egress, maxBodyBytes: number, timeoutMs: () => number): FetchLike {
  return async (url, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method === 'GET') return new Response(null, { status: 405 });
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => {
      headers[k] = v;
    });
    try {
      const res = await egress.request(String(url), {
        method,
        headers,
        ...(typeof init.body === 'string' ? { body: init.body } : {}),
        ...(init.signal ? { signal: init.signal } : {}),
        timeoutMs: timeoutMs(),
        maxBodyBytes,
      });
      return new Response(NULL_BODY.has(res.status) ? null : new Uint8Array(res.body), {
        status: res.status,
        headers: res.headers,
      });
    } catch (err) {
      throw egressFailure(err);
    }
  };
}

/**
 * A Model Context Protocol server over Streamable HTTP (tools/list, tools/call). One session is
 * kept per credential set and rebuilt after a failure.
 */
export function mcpToolServerClient(
  url: string,
  egress: Egress,
  maxBodyBytes: number,
): ToolServerClient {
  let session: { key: string; client: Promise<Client> } | undefined;
  let currentTimeout = 30_000;
  const fetchImpl = egressFetch(egress, maxBodyBytes, () => currentTimeout);

  function connect(opts: CallOptions): { key: string; client: Promise<Client> } {
    const key = JSON.stringify(opts.headers);
    if (session && session.key === key) return session;
    const old = session;
    const client = new Client({ name: 'inquest-toolserver-proxy', version: '0.1.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: fetchImpl,
      requestInit: { headers: opts.headers },
    });
    const connecting = client
      .connect(transport, { signal: opts.signal, timeout: opts.timeoutMs })
      .then(() => client);
    const mine = { key, client: connecting };
    session = mine;
    connecting.catch(() => {
      if (session === mine) session = undefined;
    });
    if (old) void old.client.then((c) => c.close()).catch(() => undefined);
    return mine;
  }

  async function run<T>(opts: CallOptions, fn: (c: Client) => Promise<T>): Promise<T> {
    currentTimeout = opts.timeoutMs;
    const used = connect(opts);
    try {
      return await fn(await used.client);
    } catch (err) {
      // Only a failure of the session itself ends it. A call its caller cancelled leaves the
      // session (shared by every team and investigation using the server) usable: closing it
      // would fail every other call in flight on it with "Connection closed". A session already
      // replaced by another call is not this call's to close.
      if (!opts.signal?.aborted && !answered(err) && session === used) {
        session = undefined;
        void used.client.then((c) => c.close()).catch(() => undefined);
      }
      throw toFailure(err);
    }
  }

  const reqOpts = (opts: CallOptions) => ({
    signal: opts.signal,
    timeout: opts.timeoutMs,
    maxTotalTimeout: opts.timeoutMs,
  });

  return {
    listTools: (opts) =>
      run(opts, async (c) => {
        const out = await c.listTools(undefined, reqOpts(opts));
        return out.tools.map((t) => ({
          name: t.name,
          description: t.description,
          parameters: t.inputSchema,
          ...(t.annotations ? { annotations: t.annotations } : {}),
        }));
      }),
    callTool: async (name, parameters, opts) => {
      const res = await run(opts, (c) =>
        c.callTool({ name, arguments: parameters }, undefined, reqOpts(opts)),
      );
      const content = Array.isArray(res.content)
        ? (res.content as Array<{ type: string; text?: string }>)
        : [];
      const text = content
        .filter((x) => x.type === 'text' && typeof x.text === 'string')
        .map((x) => x.text ?? '')
        .join('\n');
      // a tool that answers an error leaves the session healthy: thrown inside run() it would
      // close the session and fail every call in flight on it with "Connection closed"
      if (res.isError)
        throw new ToolServerError(
          'rejected',
          `tool ${name} failed: ${text.slice(0, 300) || 'error'}`,
          400,
        );
      let output: unknown;
      if (res.structuredContent && typeof res.structuredContent === 'object')
        output = res.structuredContent;
      else {
        try {
          output = content.length === 1 && text ? JSON.parse(text) : { content };
        } catch {
          output = { text };
        }
      }
      return { output, bytes: Buffer.byteLength(JSON.stringify(output)) };
    },
    health: (opts) =>
      run(opts, async (c) => {
        await c.ping(reqOpts(opts));
        return 'ok';
      }),
    async close() {
      const s = session;
      session = undefined;
      if (s) await s.client.then((c) => c.close()).catch(() => undefined);
    },
  };
}

/**
 * The server answered the request with a JSON-RPC error (a low-level MCP server reports a failed
 * command so): the session is healthy. Not so the SDK's own codes for a closed connection
 * (-32000) or a request that timed out (-32001).
 */
function answered(err: unknown): err is McpError {
  return (
    err instanceof McpError &&
    err.code !== ErrorCode.ConnectionClosed &&
    err.code !== ErrorCode.RequestTimeout
  );
}

function toFailure(err: unknown): unknown {
  if (err instanceof ToolServerError) return err;
  // the tool server refused this call: the caller's error, not an outage of the server
  if (answered(err)) return new ToolServerError('rejected', err.message.slice(0, 300), 400);
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof ToolServerError) return cause;
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown })?.code;
  // McpError -32001 is the SDK's request timeout.
  if (code === -32001 || /timed out|timeout/i.test(message))
    return new ToolServerError('timeout', message);
  if (/HTTP 4\d\d|Error POSTing to endpoint \(HTTP 4/.test(message) && !/HTTP 429/.test(message))
    return new ToolServerError('rejected', message.slice(0, 300), 400);
  if (/Invalid|parse|JSON|Unexpected/i.test(message))
    return new ToolServerError('bad_answer', message.slice(0, 300));
  return new ToolServerError('unreachable', message.slice(0, 300));
}
