import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { forbidden, unavailable } from '@inquest/errors';
import {
  startToolServer,
  toolRoutes,
  ToolError,
  type RunningToolServer,
  type ServedTool,
  type ToolRoutesOptions,
} from './index';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const echo: ServedTool = {
  definition: {
    name: 'echo',
    description: 'Echoes a word.',
    parameters: {
      type: 'object',
      properties: { word: { type: 'string', minLength: 1 } },
      required: ['word'],
      additionalProperties: false,
    },
    annotations: { title: 'Echo', readOnlyHint: true, destructiveHint: false },
    read_only: true,
  },
  handler: (p) => ({ word: p.word, text: `said ${String(p.word)}` }),
};

const failing = (name: string, fail: () => never): ServedTool => ({
  definition: { name, description: name, parameters: { type: 'object', properties: {} } },
  handler: () => fail(),
});

const TOOLS: ServedTool[] = [
  echo,
  failing('gone', () => {
    throw new ToolError(502, 'upstream said no');
  }),
  failing('coded', () => {
    throw new ToolError(409, 'already there', 'conflict');
  }),
  failing('denied', () => {
    throw forbidden('namespace kube-system is not allowed');
  }),
  failing('down', () => {
    throw unavailable('metrics-server not installed', 'metrics_unavailable');
  }),
  failing('broken', () => {
    throw new Error('secret internals');
  }),
];

async function start(
  routes: Partial<ToolRoutesOptions> = {},
  token?: string | (() => Promise<string>),
): Promise<RunningToolServer> {
  const r = toolRoutes({ name: 'test-toolserver', tools: TOOLS, ...routes });
  return startToolServer({ ...(token ? { token } : {}), handle: r.handle });
}

async function post(base: string, path: string, body: string, headers: Obj = {}) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as Obj };
}

const call = (base: string, tool: string, parameters: unknown) =>
  post(base, `/tools/${tool}`, JSON.stringify({ parameters }));

describe('toolRoutes + startToolServer', () => {
  let srv: RunningToolServer;
  beforeAll(async () => {
    srv = await start();
  });
  afterAll(() => srv.stop());

  it('lists the definitions as given and answers health', async () => {
    const tools = (await (await fetch(`${srv.url}/tools`)).json()) as Obj[];
    expect(tools[0]).toEqual(echo.definition);
    expect(tools.map((t) => t.name)).toEqual(['echo', 'gone', 'coded', 'denied', 'down', 'broken']);
    const health = await fetch(`${srv.url}/health`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('calls a tool after checking its parameters against the schema', async () => {
    expect(await call(srv.url, 'echo', { word: 'hi' })).toEqual({
      status: 200,
      body: { word: 'hi', text: 'said hi' },
    });
    expect(await call(srv.url, 'echo', { word: 'hi', more: 1 })).toEqual({
      status: 400,
      body: {
        error: 'invalid parameters: / must NOT have additional properties',
        code: 'invalid_field',
      },
    });
    expect((await call(srv.url, 'echo', undefined)).body.error).toBe(
      "invalid parameters: / must have required property 'word'",
    );
    expect(await call(srv.url, 'nope', {})).toEqual({
      status: 404,
      body: {
        error: 'unknown tool nope (tools: echo, gone, coded, denied, down, broken)',
        code: 'not_found',
      },
    });
  });

  it('answers tool errors, domain errors and unexpected errors with their status', async () => {
    expect(await call(srv.url, 'gone', {})).toEqual({
      status: 502,
      body: { error: 'upstream said no' },
    });
    expect(await call(srv.url, 'coded', {})).toEqual({
      status: 409,
      body: { error: 'already there', code: 'conflict' },
    });
    expect(await call(srv.url, 'denied', {})).toEqual({
      status: 403,
      body: { error: 'namespace kube-system is not allowed', code: 'forbidden' },
    });
    expect(await call(srv.url, 'down', {})).toEqual({
      status: 503,
      body: { error: 'metrics-server not installed', code: 'metrics_unavailable' },
    });
    expect(await call(srv.url, 'broken', {})).toEqual({
      status: 500,
      body: { error: 'internal error', code: 'internal' },
    });
  });

  it('refuses bodies that are not a JSON object with object parameters, and unknown routes', async () => {
    const invalid = (error: string) => ({ error, code: 'invalid_request' });
    expect(await post(srv.url, '/tools/echo', '{nope')).toEqual({
      status: 400,
      body: invalid('body is not valid JSON'),
    });
    expect(await post(srv.url, '/tools/echo', '[1]')).toEqual({
      status: 400,
      body: invalid('body must be a JSON object {"parameters": {...}}'),
    });
    expect(await post(srv.url, '/tools/echo', '{"parameters": [1]}')).toEqual({
      status: 400,
      body: invalid('parameters must be a JSON object'),
    });
    const mcpGet = await fetch(`${srv.url}/mcp`);
    expect([mcpGet.status, await mcpGet.json()]).toEqual([
      405,
      invalid('only POST is served (stateless MCP)'),
    ]);
    const nowhere = await fetch(`${srv.url}/elsewhere`);
    expect([nowhere.status, await nowhere.json()]).toEqual([
      404,
      invalid('no route GET /elsewhere'),
    ]);
  });

  it('serves the same tools over MCP Streamable HTTP', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools[0]).toEqual({
        name: 'echo',
        title: 'Echo',
        description: 'Echoes a word.',
        inputSchema: echo.definition.parameters,
        annotations: echo.definition.annotations,
        _meta: { read_only: true },
      });
      expect(tools[1]).not.toHaveProperty('annotations');
      const out = await client.callTool({ name: 'echo', arguments: { word: 'hi' } });
      expect(out.structuredContent).toEqual({ word: 'hi', text: 'said hi' });
      expect(out.content).toEqual([{ type: 'text', text: '{"word":"hi","text":"said hi"}' }]);
      for (const [name, args, text] of [
        ['echo', {}, "invalid parameters: / must have required property 'word'"],
        ['nope', {}, /^unknown tool nope/],
        ['denied', {}, 'namespace kube-system is not allowed'],
        ['broken', {}, 'internal error'],
      ] as const) {
        const bad = await client.callTool({ name, arguments: args });
        expect(bad.isError).toBe(true);
        expect((bad.content as Obj[])[0]!.text).toMatch(text);
      }
    } finally {
      await client.close();
    }
  });
});

describe('toolRoutes options', () => {
  it('uses the health report, body limit, MCP text and the handlers own checks', async () => {
    const srv = await start({
      health: async () => ({ status: 503, body: { status: 'unavailable', upstream: 'down' } }),
      maxBodyBytes: 1000,
      mcpText: (out) => String(out.text),
      checkParameters: false,
    });
    try {
      const health = await fetch(`${srv.url}/health`);
      expect([health.status, await health.json()]).toEqual([
        503,
        { status: 'unavailable', upstream: 'down' },
      ]);
      expect(await post(srv.url, '/tools/echo', JSON.stringify({ pad: 'x'.repeat(2000) }))).toEqual(
        {
          status: 413,
          body: { error: 'body larger than 1000 bytes', code: 'invalid_request' },
        },
      );
      expect((await call(srv.url, 'echo', { word: 'hi', more: 1 })).status).toBe(200);
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)));
      try {
        const out = await client.callTool({ name: 'echo', arguments: { word: 'hi' } });
        expect(out.content).toEqual([{ type: 'text', text: 'said hi' }]);
      } finally {
        await client.close();
      }
    } finally {
      await srv.stop();
    }
  });

  it('aborts the handler signal when the HTTP caller goes away', async () => {
    let aborted: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => (aborted = resolve));
    const slow: ServedTool = {
      definition: {
        name: 'slow',
        description: 'slow',
        parameters: { type: 'object', properties: {} },
      },
      handler: (_p, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted();
            resolve({});
          });
        }),
    };
    const srv = await startToolServer({
      handle: toolRoutes({ name: 't', tools: [slow] }).handle,
    });
    try {
      const caller = new AbortController();
      const pending = fetch(`${srv.url}/tools/slow`, {
        method: 'POST',
        body: '{}',
        signal: caller.signal,
      }).catch(() => undefined);
      setTimeout(() => caller.abort(), 50);
      await seen;
      await pending;
    } finally {
      await srv.stop();
    }
  });
});

describe('startToolServer bearer token', () => {
  it.each([
    ['a string', 't0k'],
    ['a function asked per request', async () => 't0k'],
  ])('requires the token when it is %s', async (_what, token) => {
    const srv = await start({}, token);
    try {
      const status = async (headers: Obj) => (await fetch(`${srv.url}/tools`, { headers })).status;
      expect(await status({})).toBe(401);
      expect(await status({ authorization: 'Bearer wrong' })).toBe(401);
      expect(await status({ authorization: 't0k' })).toBe(401);
      expect(await status({ authorization: 'Bearer t0k' })).toBe(200);
      const denied = await fetch(`${srv.url}/health`);
      expect(await denied.json()).toEqual({
        error: 'missing or wrong bearer token',
        code: 'invalid_request',
      });
    } finally {
      await srv.stop();
    }
  });
});
