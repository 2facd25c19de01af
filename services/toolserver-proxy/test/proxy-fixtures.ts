import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@inquest/observability';

type Obj = Record<string, unknown>;

/** A logger whose JSON lines the test can read. */
export function capturingLogger(): { logger: Logger; lines: () => Obj[]; text: () => string } {
  const out: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, cb) {
      out.push(chunk.toString());
      cb();
    },
  });
  const logger = createLogger({ name: 'toolserver-proxy-test', level: 'info', destination: sink });
  const text = () => out.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Obj),
  };
}

export interface BadServers {
  url: string;
  stats: {
    lists: Record<string, number>;
    calls: Record<string, number>;
    maxInFlight: number;
    hangClosed: number;
    lastHeaders: Record<string, string | undefined>;
    /** every X-Api-Key header received, in order */
    apiKeys: string[];
  };
  flaky: { failing: boolean };
  stop(): Promise<void>;
}

const OK_TOOLS = [
  {
    name: 'echo',
    description: 'Echo parameters',
    parameters: {
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1 }, s: { type: 'string' } },
      required: ['n'],
      additionalProperties: false,
    },
  },
  { name: 'big', description: 'A large answer', parameters: { type: 'object', properties: {} } },
  { name: 'hang', description: 'Never answers', parameters: { type: 'object', properties: {} } },
  {
    name: 'slowish',
    description: 'Answers after 150 ms',
    parameters: { type: 'object', properties: {} },
  },
  {
    name: 'scalar',
    description: 'Answers a bare string',
    parameters: { type: 'object', properties: {} },
  },
  {
    name: 'reject',
    description: 'The server refuses every call (404)',
    parameters: { type: 'object', properties: {} },
  },
  {
    name: 'wipe',
    description: 'Deletes things',
    parameters: { type: 'object', properties: {} },
    annotations: { destructiveHint: true },
  },
];

/**
 * One HTTP server playing many tool servers, by path prefix: `/ok`, `/garbage`, `/shape`,
 * `/huge`, `/slow`, `/err500`, `/badtools`, `/flaky`, `/apikey`, `/redirect`.
 */
export async function startBadServers(): Promise<BadServers> {
  const stats: BadServers['stats'] = {
    lists: {},
    calls: {},
    maxInFlight: 0,
    hangClosed: 0,
    lastHeaders: {},
    apiKeys: [],
  };
  const flaky = { failing: true };
  let inFlight = 0;
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const [, mode = '', ...rest] = (req.url ?? '/').split('/');
    const path = `/${rest.join('/')}`;
    const isList = req.method === 'GET' && path === '/tools';
    const call = req.method === 'POST' ? /^\/tools\/(.+)$/.exec(path)?.[1] : undefined;
    if (isList) stats.lists[mode] = (stats.lists[mode] ?? 0) + 1;
    if (call) stats.calls[`${mode}:${call}`] = (stats.calls[`${mode}:${call}`] ?? 0) + 1;
    stats.lastHeaders = {
      authorization: req.headers.authorization,
      'x-api-key': req.headers['x-api-key'] as string | undefined,
    };
    if (typeof req.headers['x-api-key'] === 'string') stats.apiKeys.push(req.headers['x-api-key']);
    if (path === '/health') {
      if (mode === 'err500' || (mode === 'flaky' && flaky.failing))
        return json(res, 500, { error: 'down' });
      if (mode === 'garbage') return res.end('<html>ok</html>');
      return json(res, 200, { status: 'ok' });
    }
    switch (mode) {
      case 'garbage':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html><body>Welcome to nginx!</body></html>');
      case 'shape':
        return isList ? json(res, 200, { foo: 'bar' }) : json(res, 200, 'x');
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 32);
        let sent = 0;
        const push = () => {
          while (sent < 3 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', push);
          }
          res.end();
        };
        return push();
      }
      case 'slow': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const t = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(t));
        return;
      }
      case 'err500':
        return json(res, 500, { error: 'internal boom' });
      case 'redirect':
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      case 'badtools':
        if (isList) {
          return json(res, 200, [
            { name: 'a/b', parameters: { type: 'object' } },
            { name: '..', parameters: { type: 'object' } },
            { name: 'has space', parameters: { type: 'object' } },
            { name: 12 },
            'not an object',
            {
              name: 'bad_schema',
              parameters: { type: 'object', properties: { x: { type: 'nonsense' } } },
            },
            { name: 'not_object', parameters: { type: 'string' } },
            {
              name: 'ok_tool',
              description: 'fine',
              parameters: {
                type: 'object',
                properties: { n: { type: 'integer' } },
                required: ['n'],
              },
            },
          ]);
        }
        return json(res, 200, { ok: true });
      case 'apikey':
        if (req.headers['x-api-key'] !== 'k-123') return json(res, 401, { error: 'bad api key' });
        return isList ? json(res, 200, OK_TOOLS.slice(0, 1)) : json(res, 200, { ok: true });
      case 'flaky':
        if (flaky.failing) return json(res, 503, { error: 'overloaded' });
        return isList ? json(res, 200, OK_TOOLS.slice(0, 1)) : json(res, 200, { ok: true });
      case 'ok':
      default:
        break;
    }
    if (isList) return json(res, 200, OK_TOOLS);
    if (!call) return json(res, 404, { error: 'no route' });
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const params = (JSON.parse(body || '{}') as { parameters?: Obj }).parameters ?? {};
      switch (call) {
        case 'echo':
          return json(res, 200, { echoed: params });
        case 'big':
          return json(res, 200, {
            items: Array.from({ length: 5000 }, (_, i) => ({ i, text: `line ${i} `.repeat(4) })),
          });
        case 'scalar':
          return json(res, 200, 'just a string');
        case 'wipe':
          return json(res, 200, { wiped: true });
        case 'hang':
          res.on('close', () => stats.hangClosed++);
          return;
        case 'slowish':
          inFlight++;
          stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
          setTimeout(() => {
            inFlight--;
            json(res, 200, { done: true });
          }, 150);
          return;
        default:
          return json(res, 404, { error: `unknown tool ${call}` });
      }
    });
  };
  const server: Server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    flaky,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
