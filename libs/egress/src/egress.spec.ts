import { createServer, type Server, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@inquest/testing';
import { createEgress, type Egress } from './egress';
import { isEgressError } from './egress-error';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(
  handler: Handler,
  host = '127.0.0.1',
): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, host, r));
  return { server, port: (server.address() as AddressInfo).port };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (isEgressError(err)) return err.code;
    throw err;
  }
}

describe('createEgress', () => {
  let server: Server;
  let port: number;
  let server6: Server | undefined;
  let port6 = 0;
  const open: Egress[] = [];
  const egress = (o: Parameters<typeof createEgress>[0] = {}) => {
    const e = createEgress(o);
    open.push(e);
    return e;
  };

  beforeAll(async () => {
    ({ server, port } = await listen((req, res) => {
      const url = req.url ?? '/';
      if (url === '/json') {
        res.setHeader('content-type', 'application/json');
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.end(JSON.stringify({ ok: true, method: req.method }));
      } else if (url === '/echo') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () =>
          res.end(JSON.stringify({ body, auth: req.headers.authorization ?? null })),
        );
      } else if (url.startsWith('/redirect')) {
        res.statusCode = 302;
        res.setHeader(
          'location',
          url === '/redirect-meta' ? 'http://169.254.169.254/latest/meta-data/' : '/json',
        );
        res.end();
      } else if (url === '/big-declared') {
        res.setHeader('content-length', String(6 * 1024 * 1024));
        res.write(Buffer.alloc(1024));
        // never finishes: the client must give up on the declared length alone
      } else if (url === '/big-chunked') {
        const chunk = Buffer.alloc(64 * 1024, 120);
        let sent = 0;
        const push = (): void => {
          while (sent < 8 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', push);
              return;
            }
          }
          res.end();
        };
        push();
      } else if (url === '/slowloris') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const t = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(t));
      } else if (url === '/hang') {
        // no answer at all
      } else {
        res.end('hello');
      }
    }));
    try {
      ({ server: server6, port: port6 } = await listen((_req, res) => res.end('v6'), '::1'));
    } catch {
      server6 = undefined;
    }
  });

  afterAll(async () => {
    await Promise.all(open.map((e) => e.close()));
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    if (server6) {
      server6.closeAllConnections();
      await new Promise((r) => server6?.close(r));
    }
  });

  describe('with no allow list (production default)', () => {
    const forms = () => [
      `http://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`, // decimal
      `http://0x7f000001:${port}/`, // hex
      `http://0177.0.0.1:${port}/`, // octal
      `http://0x7f.1:${port}/`, // mixed short form
      `http://127.1:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
      `http://localhost:${port}/`, // a name resolving to loopback
      `http://0.0.0.0:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://10.0.0.1/',
      'http://192.168.0.1/',
      'http://100.64.0.1/',
      'http://[fe80::1]/',
    ];

    it('refuses loopback, private, link-local, CGNAT and metadata addresses in every notation', async () => {
      const e = egress({ connectTimeoutMs: 500 });
      for (const url of forms()) {
        await expect(codeOf(e.request(url))).resolves.toBe('egress_refused');
      }
    });

    it('refuses IPv4 embedded in IPv6 (::/96, NAT64, 6to4) even with loopback allowed', async () => {
      const e = egress({ allow: ['127.0.0.0/8', '::1'], connectTimeoutMs: 500 });
      for (const url of [
        `http://[::127.0.0.1]:${port}/`,
        `http://[::7f00:1]:${port}/`,
        `http://[64:ff9b::127.0.0.1]:${port}/`,
        `http://[2002:7f00:1::1]:${port}/`,
        'http://[::a9fe:a9fe]/',
      ]) {
        await expect(codeOf(e.request(url))).resolves.toBe('egress_refused');
      }
    });

    it('refuses a host name any of whose answers is refused (rebinding answer mix)', async () => {
      const e = egress({ lookup: async () => ['93.184.216.34', '127.0.0.1'] });
      await expect(codeOf(e.request(`http://rebind.example:${port}/`))).resolves.toBe(
        'egress_refused',
      );
      const e2 = egress({ lookup: async () => ['::ffff:10.1.2.3'] });
      await expect(codeOf(e2.request('http://mapped.example/'))).resolves.toBe('egress_refused');
    });

    it('connects to the checked address, not to a second DNS answer', async () => {
      let calls = 0;
      const e = egress({
        allow: ['127.0.0.0/8'],
        lookup: async () => (++calls === 1 ? ['127.0.0.1'] : ['169.254.169.254']),
      });
      const res = await e.request(`http://pinned.example:${port}/json`);
      expect(res.status).toBe(200);
      expect(calls).toBe(1);
    });
  });

  describe('refusal messages', () => {
    const messageOf = async (p: Promise<unknown>): Promise<string> => {
      try {
        await p;
        return 'ok';
      } catch (err) {
        if (isEgressError(err)) return `${err.code}: ${err.message}`;
        throw err;
      }
    };

    it('name the INQUEST_EGRESS_ALLOW entry that opens a refused address on that port, which does open it', async () => {
      const refused = await messageOf(egress().request(`http://127.0.0.1:${port}/json`));
      expect(refused).toBe(
        `egress_refused: 127.0.0.1 is not allowed: loopback address (an operator can allow it by adding 127.0.0.1:${port} to INQUEST_EGRESS_ALLOW)`,
      );
      const named = await messageOf(
        egress({ lookup: async () => ['10.1.2.3'] }).request('http://wiki.corp.example/'),
      );
      expect(named).toMatch(/adding 10\.1\.2\.3:80 to INQUEST_EGRESS_ALLOW\)$/);
      const six = await messageOf(
        egress({ connectTimeoutMs: 500 }).request('http://[fe80::1]:8080/'),
      );
      expect(six).toMatch(/adding \[fe80::1\]:8080 to INQUEST_EGRESS_ALLOW\)$/);
      // the advice works: that entry reaches the server
      const e = egress({ allow: [`127.0.0.1:${port}`] });
      expect((await e.request(`http://127.0.0.1:${port}/json`)).status).toBe(200);
    });

    it('never suggest opening a cloud metadata address', async () => {
      for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/']) {
        const m = await messageOf(egress().request(url));
        expect(m).toMatch(/^egress_refused: .*cloud metadata address$/);
      }
    });
  });

  describe('with one loopback port allowed (address:port entries)', () => {
    it('reaches that port, in every notation, and no other port of the address', async () => {
      const other = await listen((_req, res) => res.end('{}'));
      try {
        const e = egress({ allow: [`127.0.0.1:${port}`], connectTimeoutMs: 500 });
        expect((await e.request(`http://127.0.0.1:${port}/json`)).status).toBe(200);
        expect((await e.request(`http://2130706433:${port}/json`)).status).toBe(200);
        await expect(codeOf(e.request(`http://127.0.0.1:${other.port}/json`))).resolves.toBe(
          'egress_refused',
        );
        await expect(codeOf(e.request('http://127.0.0.1/json'))).resolves.toBe('egress_refused');
        await expect(codeOf(e.request(`http://127.0.0.2:${port}/json`))).resolves.toBe(
          'egress_refused',
        );
        const named = egress({ allow: [`127.0.0.1:${port}`], lookup: async () => ['127.0.0.1'] });
        await expect(codeOf(named.request(`http://loopback.example:${other.port}/`))).resolves.toBe(
          'egress_refused',
        );
        expect((await named.request(`http://loopback.example:${port}/json`)).status).toBe(200);
      } finally {
        other.server.close();
      }
    });
  });

  describe('with loopback allowed minus some ports (all-in-one: ! entries)', () => {
    it("reaches a receiver's port and refuses the denied ports in every spelling, by name, and after a redirect", async () => {
      // `own` stands for the gateway, `grpc` for a gRPC port of the same process
      const hits: string[] = [];
      const own = await listen((req, res) => {
        hits.push(`own ${req.url}`);
        res.end('{}');
      });
      const grpc = await listen((req, res) => {
        hits.push(`grpc ${req.url}`);
        res.end('{}');
      });
      const receiver = await listen((req, res) => {
        if (req.url === '/to-own') {
          res.statusCode = 302;
          res.setHeader('location', `http://127.0.0.1:${own.port}/admin`);
        }
        res.end('received');
      });
      const allow = [
        '127.0.0.0/8',
        '::1',
        `!127.0.0.0/8:${own.port}=gateway port of this Inquest`,
        `![::1]:${own.port}=gateway port of this Inquest`,
        `!127.0.0.0/8:${grpc.port}=gRPC port of this Inquest`,
        `![::1]:${grpc.port}=gRPC port of this Inquest`,
      ];
      const messageOf = async (p: Promise<unknown>): Promise<string> =>
        p.then(
          () => 'ok',
          (err: unknown) => (isEgressError(err) ? `${err.code}: ${err.message}` : String(err)),
        );
      try {
        const e = egress({ allow, connectTimeoutMs: 500 });
        for (const host of ['127.0.0.1', '127.1', '2130706433', '[::ffff:127.0.0.1]', 'localhost'])
          expect((await e.request(`http://${host}:${receiver.port}/`)).text()).toBe('received');
        const spellings = (p: number) => [
          `http://127.0.0.1:${p}/`,
          `http://localhost:${p}/`,
          `http://127.1:${p}/`,
          `http://127.0.0.2:${p}/`,
          `http://2130706433:${p}/`,
          `http://0x7f000001:${p}/`,
          `http://0177.0.0.1:${p}/`,
          `http://[::1]:${p}/`,
          `http://[::ffff:127.0.0.1]:${p}/`,
          `http://[::ffff:7f00:1]:${p}/`,
          `http://[::127.0.0.1]:${p}/`,
          `http://0.0.0.0:${p}/`,
          `http://[::]:${p}/`,
        ];
        for (const [what, p] of [
          ['gateway', own.port],
          ['gRPC', grpc.port],
        ] as const) {
          for (const url of spellings(p)) {
            const m = await messageOf(e.request(url));
            expect(m).toMatch(/^egress_refused: /);
            // a denied port says whose it is, and suggests no allow entry (none would open it)
            // (::/96, 0.0.0.0 and :: are refused on every port by the range rules, not the ! entries)
            if (!/\[::(127|\])|0\.0\.0\.0/.test(url)) {
              expect(m).toContain(`${what} port of this Inquest (egress entry !`);
              expect(m).not.toContain('INQUEST_EGRESS_ALLOW');
            }
          }
        }
        // 0.0.0.0 and :: reach this host on Linux: refused on every port, a receiver's too
        for (const url of [`http://0.0.0.0:${receiver.port}/`, `http://[::]:${receiver.port}/`])
          await expect(codeOf(e.request(url))).resolves.toBe('egress_refused');
        // a DNS name resolving to loopback, and a host name on the allow list, are refused too
        const named = egress({ allow, lookup: async () => ['127.0.0.1'] });
        expect(await messageOf(named.request(`http://rebind.example:${own.port}/`))).toBe(
          `egress_refused: rebind.example is not allowed: gateway port of this Inquest (egress entry !127.0.0.0/8:${own.port})`,
        );
        expect((await named.request(`http://rebind.example:${receiver.port}/`)).status).toBe(200);
        const byName = egress({
          allow: [...allow, 'inquest.internal'],
          lookup: async () => ['::1'],
        });
        await expect(codeOf(byName.request(`http://inquest.internal:${own.port}/`))).resolves.toBe(
          'egress_refused',
        );
        // a redirect to the gateway is returned, never followed
        const redirected = await e.request(`http://127.0.0.1:${receiver.port}/to-own`);
        expect(redirected.status).toBe(302);
        expect(hits).toEqual([]);
      } finally {
        for (const s of [own, grpc, receiver]) {
          s.server.closeAllConnections();
          s.server.close();
        }
      }
    });
  });

  describe('with loopback allowed', () => {
    it('calls an allowed address and returns status, headers and body', async () => {
      const e = egress({ allow: ['127.0.0.0/8', '::1'] });
      const res = await e.request(`http://127.0.0.1:${port}/json`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['set-cookie']).toBe('a=1, b=2');
      expect(res.json()).toEqual({ ok: true, method: 'GET' });
      const via = await e.request(`http://2130706433:${port}/json`);
      expect(via.status).toBe(200);
    });

    it('sends method, headers and body', async () => {
      const e = egress({ allow: ['127.0.0.1'] });
      const res = await e.request(`http://127.0.0.1:${port}/echo`, {
        method: 'POST',
        headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(res.json()).toEqual({ body: '{"a":1}', auth: 'Bearer x' });
    });

    it('allows IPv6 loopback only when listed', async () => {
      if (!server6) return;
      await expect(
        codeOf(egress({ allow: ['127.0.0.0/8'] }).request(`http://[::1]:${port6}/`)),
      ).resolves.toBe('egress_refused');
      const res = await egress({ allow: ['::1'] }).request(`http://[::1]:${port6}/`);
      expect(res.text()).toBe('v6');
    });

    it('allows a host name on the allow list', async () => {
      const res = await egress({ allow: ['localhost'] }).request(`http://localhost:${port}/json`);
      expect(res.status).toBe(200);
    });

    it('never follows redirects, so a redirect to a metadata address goes nowhere', async () => {
      const e = egress({ allow: ['127.0.0.0/8'] });
      const res = await e.request(`http://127.0.0.1:${port}/redirect-meta`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('http://169.254.169.254/latest/meta-data/');
      const local = await e.request(`http://127.0.0.1:${port}/redirect`);
      expect(local.status).toBe(302);
      expect(local.body.length).toBe(0);
    });

    it('bounds the body by declared length and by bytes received', async () => {
      const e = egress({ allow: ['127.0.0.0/8'], timeoutMs: 5_000 });
      await expect(codeOf(e.request(`http://127.0.0.1:${port}/big-declared`))).resolves.toBe(
        'body_too_large',
      );
      await expect(codeOf(e.request(`http://127.0.0.1:${port}/big-chunked`))).resolves.toBe(
        'body_too_large',
      );
      const small = egress({ allow: ['127.0.0.0/8'], maxBodyBytes: 3 });
      await expect(codeOf(small.request(`http://127.0.0.1:${port}/`))).resolves.toBe(
        'body_too_large',
      );
      const res = await e.request(`http://127.0.0.1:${port}/big-chunked`, {
        maxBodyBytes: 9 * 1024 * 1024,
      });
      expect(res.body.length).toBe(8 * 1024 * 1024);
    });

    it('times out a slowloris answer as a whole, not per chunk', async () => {
      const e = egress({ allow: ['127.0.0.0/8'] });
      const t0 = Date.now();
      await expect(
        codeOf(e.request(`http://127.0.0.1:${port}/slowloris`, { timeoutMs: 400 })),
      ).resolves.toBe('timeout');
      expect(Date.now() - t0).toBeLessThan(3_000);
      await expect(
        codeOf(e.request(`http://127.0.0.1:${port}/hang`, { timeoutMs: 300 })),
      ).resolves.toBe('timeout');
    });

    it('reports a closed port as connect_failed', async () => {
      const closed = await freePort();
      await expect(
        codeOf(egress({ allow: ['127.0.0.0/8'] }).request(`http://127.0.0.1:${closed}/`)),
      ).resolves.toBe('connect_failed');
    });

    it('reports a TLS failure as connect_failed', async () => {
      // A plain HTTP server spoken to over https fails the handshake.
      await expect(
        codeOf(egress({ allow: ['127.0.0.0/8'] }).request(`https://127.0.0.1:${port}/`)),
      ).resolves.toBe('connect_failed');
    });

    it('passes a caller abort through', async () => {
      const e = egress({ allow: ['127.0.0.0/8'] });
      const ac = new AbortController();
      const p = e.request(`http://127.0.0.1:${port}/hang`, { signal: ac.signal });
      setTimeout(() => ac.abort(new Error('cancelled by caller')), 50);
      await expect(p).rejects.toThrow('cancelled by caller');
    });
  });

  it.each([
    'not a url',
    'ftp://example.com/',
    'file:///etc/passwd',
    'http://user:pw@example.com/',
    '/relative',
  ])('rejects %s as invalid_url', async (url) => {
    await expect(codeOf(egress().request(url))).resolves.toBe('invalid_url');
  });
});
