import { request as httpRequest, type Server } from 'node:http';
import express from 'express';
import type { Request, Response } from 'express';
import { holdHeaders, installHeldHeaders, setHeldHeader, writeHeadWith } from './response-head';

interface RawAnswer {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

function raw(url: string, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const headers: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** the answer's own fields, without those Node adds (Date, Connection, Keep-Alive) */
const own = (a: RawAnswer) =>
  a.headers.filter(([k]) => !['Date', 'Connection', 'Keep-Alive'].includes(k));

describe('held response headers', () => {
  let server: Server;
  let url: string;
  const released: string[] = [];

  beforeAll(async () => {
    const app = express();
    app.disable('x-powered-by');
    installHeldHeaders(app);
    app.use((_req: Request, res: Response, next) => {
      holdHeaders(res, ['X-Request-Id', 'req_1', 'X-Frame-Options', 'SAMEORIGIN']);
      setHeldHeader(res, 'X-Limit', '10');
      next();
    });
    app.get('/written', (_req, res) => {
      writeHeadWith(res, 200, ['x-frame-options', 'DENY', 'Content-Length', '2']);
      res.end('ok');
    });
    app.get('/json', (_req, res) => {
      res.status(201).json({ a: 1 });
    });
    app.get('/read-then-write', (_req, res) => {
      released.push(String(res.getHeader('X-Request-Id')));
      setHeldHeader(res, 'X-Late', 'yes');
      writeHeadWith(res, 200, ['Content-Length', '0']);
      res.end();
    });
    app.get('/no-head', (_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    app.get('/invalid', (_req, res) => {
      try {
        setHeldHeader(res, 'X-Bad', 'a\nb');
        res.end('accepted');
      } catch (err) {
        res.status(500).end((err as { code?: string }).code);
      }
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('writes the held fields, then the answer fields, in one head; a held name keeps its place', async () => {
    const res = await raw(`${url}/written`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('ok');
    expect(own(res)).toEqual([
      ['X-Request-Id', 'req_1'],
      ['x-frame-options', 'DENY'],
      ['X-Limit', '10'],
      ['Content-Length', '2'],
    ]);
  });

  it('sets the held fields first, in order, when express writes the answer', async () => {
    const res = await raw(`${url}/json`);
    expect(res.status).toBe(201);
    expect(own(res).map(([k]) => k)).toEqual([
      'X-Request-Id',
      'X-Frame-Options',
      'X-Limit',
      'Content-Type',
      'Content-Length',
      'ETag',
    ]);
  });

  it('a header read releases the held fields; later fields are set after them', async () => {
    const res = await raw(`${url}/read-then-write`);
    expect(released).toEqual(['req_1']);
    expect(own(res)).toEqual([
      ['X-Request-Id', 'req_1'],
      ['X-Frame-Options', 'SAMEORIGIN'],
      ['X-Limit', '10'],
      ['X-Late', 'yes'],
      ['Content-Length', '0'],
    ]);
  });

  it('an implicit head (end without writeHead) carries the held fields', async () => {
    const res = await raw(`${url}/no-head`);
    expect(res.status).toBe(204);
    expect(own(res)).toEqual([
      ['X-Request-Id', 'req_1'],
      ['X-Frame-Options', 'SAMEORIGIN'],
      ['X-Limit', '10'],
    ]);
  });

  it('refuses an invalid value at once, as setHeader does', async () => {
    const res = await raw(`${url}/invalid`);
    expect(res.status).toBe(500);
    expect(res.body).toBe('ERR_INVALID_CHAR');
  });
});
