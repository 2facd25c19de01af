import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { securityHeaders } from './security-headers';

describe('securityHeaders', () => {
  it("are the headers helmet's middleware sets on a response, in its order", () => {
    const options = { crossOriginResourcePolicy: { policy: 'same-site' as const } };
    const req = new IncomingMessage(new Socket());
    const res = new ServerResponse(req);
    let done = false;
    helmet(options)(req, res, () => (done = true));
    expect(done).toBe(true);
    const fromHelmet = res.getHeaderNames().map((n) => [n, res.getHeader(n)]);
    const precomputed = securityHeaders(options);
    expect(precomputed.map(([n, v]) => [n.toLowerCase(), v])).toEqual(fromHelmet);
    expect(precomputed.length).toBeGreaterThan(10);
  });

  it('refuses options whose headers depend on the request', () => {
    expect(() =>
      securityHeaders({
        contentSecurityPolicy: {
          directives: {
            scriptSrc: ["'self'", (_req, res) => `'nonce-${String(res.getHeader('x-nonce'))}'`],
          },
        },
      }),
    ).toThrow(/read the request|cannot be precomputed/);
  });
});
