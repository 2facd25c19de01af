/**
 * Gateway authentication + rate limiting overhead: the same trivial route served once with
 * `auth: 'team'` (team token verified through config-hierarchy, cached, then rate limited) and
 * once with `auth: 'public'`, by the real gateway (start()) on loopback, requests interleaved in
 * one run over keep-alive connections. Prints p50/p90/p99 of both and the p50 difference.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { InProcessEventBus } from '@inquest/events';
import { implement, startGrpcServer } from '@inquest/grpc-kit';
import { configV1 } from '@inquest/proto';
import { defineRoute, start } from '@inquest/gateway-service';
import { unavailable } from '@inquest/errors';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function run(args: string[]): Promise<void> {
  const n = Number(args.find((a) => a.startsWith('--requests='))?.split('=')[1] ?? 5000);
  const tokenId = `tok_${randomBytes(10).toString('hex')}`;
  const token = `${tokenId}.${randomBytes(32).toString('base64url')}`;
  let verifyCalls = 0;
  const handlers = Object.fromEntries(
    Object.keys(configV1.ConfigServiceService).map((m) => [
      m,
      m === 'verifyToken'
        ? async (req: configV1.VerifyTokenRequest) => {
            verifyCalls++;
            return req.token === token
              ? {
                  valid: true,
                  token: {
                    token_id: tokenId,
                    team_id: 'bench-team',
                    permissions: ['read'],
                    owner: 'bench@example.com',
                    created_at: new Date().toISOString(),
                  },
                }
              : { valid: false };
          }
        : async () => {
            throw unavailable('not in the benchmark double');
          },
    ]),
  );
  const config = await startGrpcServer({
    port: 0,
    services: [
      {
        definition: configV1.ConfigServiceService,
        implementation: implement(configV1.ConfigServiceService, handlers as never),
        name: 'inquest.config.v1.ConfigService',
      },
    ],
  });
  const handler = async () => ({ status: 200, body: { ok: true } });
  const bus = new InProcessEventBus();
  const gw = await start(
    {
      PORT: '0',
      INQUEST_HTTP_HOST: '127.0.0.1',
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_RATE_LIMITS: 'read=1000000000,write=1000000000,trigger=1000000000',
    },
    {
      bus,
      extraRoutes: [
        defineRoute({
          method: 'get',
          path: '/bench/authed',
          summary: 'bench',
          tags: ['bench'],
          auth: 'team',
          responses: { 200: { description: 'ok' } },
          handler,
        }),
        defineRoute({
          method: 'get',
          path: '/bench/open',
          summary: 'bench',
          tags: ['bench'],
          auth: 'public',
          responses: { 200: { description: 'ok' } },
          handler,
        }),
      ],
    },
  );
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = (path: string, auth: boolean) =>
    new Promise<number>((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const req = request(
        {
          host: '127.0.0.1',
          port: gw.port,
          path,
          agent,
          headers: auth ? { authorization: `Bearer ${token}` } : {},
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}`));
            else resolve(Number(process.hrtime.bigint() - t0) / 1000);
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  try {
    for (let i = 0; i < 500; i++) {
      await once('/api/v1/bench/authed', true);
      await once('/api/v1/bench/open', false);
    }
    const authed: number[] = [];
    const open: number[] = [];
    for (let i = 0; i < n; i++) {
      // alternate so both see the same machine load
      if (i % 2 === 0) {
        authed.push(await once('/api/v1/bench/authed', true));
        open.push(await once('/api/v1/bench/open', false));
      } else {
        open.push(await once('/api/v1/bench/open', false));
        authed.push(await once('/api/v1/bench/authed', true));
      }
    }
    authed.sort((a, b) => a - b);
    open.sort((a, b) => a - b);
    const row = (name: string, s: number[]) =>
      `${name.padEnd(28)} p50 ${pct(s, 50).toFixed(0).padStart(6)} us  p90 ${pct(s, 90).toFixed(0).padStart(6)} us  p99 ${pct(s, 99).toFixed(0).padStart(6)} us`;
    process.stdout.write(`${n} sequential requests each, keep-alive, loopback\n`);
    process.stdout.write(`${row('without auth + rate limit', open)}\n`);
    process.stdout.write(`${row('with team token + limit', authed)}\n`);
    process.stdout.write(
      `p50 overhead: ${(pct(authed, 50) - pct(open, 50)).toFixed(0)} us (budget 1000 us)\n`,
    );
    process.stdout.write(
      `VerifyToken calls to config-hierarchy: ${verifyCalls} for ${n + 500} authenticated requests\n`,
    );
  } finally {
    agent.destroy();
    await gw.stop();
    await config.shutdown(500);
    await bus.close();
  }
}
