/**
 * toolserver-proxy benchmark (issue 5): overhead the proxy adds to one tool call (gRPC in,
 * config/listing cache, ajv validation, breaker, concurrency limit, egress guard, HTTP out to a
 * loopback tool server that answers at once, audit log line) and sustained calls/s.
 * The proxy runs in-process via its start(), with a real gRPC ConfigService double on loopback.
 *
 * Args: --calls=<sequential calls> (default 3000) --seconds=<throughput run> (default 5)
 *       --concurrency=<parallel callers> (default 32)
 */
import { createWriteStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, Agent } from 'undici';
import { notFound } from '@inquest/errors';
import { createClient, implement, startGrpcServer, type AsyncHandlers } from '@inquest/grpc-kit';
import { createLogger } from '@inquest/observability';
import { configV1, toolsV1 } from '@inquest/proto';
import { start } from '@inquest/toolserver-proxy-service';

const arg = (name: string, def: number) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : def;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN) : NaN;
};
const fmt = (xs: number[]) =>
  `p50=${pct(xs, 50).toFixed(3)} ms p95=${pct(xs, 95).toFixed(3)} ms p99=${pct(xs, 99).toFixed(3)} ms`;

const TOOL = {
  name: 'lookup',
  description: 'answers at once',
  parameters: {
    type: 'object',
    properties: {
      namespace: { type: 'string' },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
    },
    required: ['namespace'],
    additionalProperties: false,
  },
};

async function toolServer(): Promise<{ url: string; close(): Promise<void> }> {
  const answer = JSON.stringify({ ok: true, items: [{ name: 'pod-a', status: 'Running' }] });
  const list = JSON.stringify([TOOL]);
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'GET' ? (req.url === '/health' ? '{"status":"ok"}' : list) : answer);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export async function run(): Promise<void> {
  const calls = arg('calls', 3000);
  const seconds = arg('seconds', 5);
  const concurrency = arg('concurrency', 32);
  const dir = mkdtempSync(join(tmpdir(), 'inquest-bench-tools-'));
  const tools = await toolServer();
  const effective = { mcp_servers: [{ name: 'bench', url: tools.url }] };
  const config = await startGrpcServer({
    port: 0,
    services: [
      {
        definition: configV1.ConfigServiceService,
        implementation: implement(configV1.ConfigServiceService, {
          async getEffectiveConfig(req: configV1.GetEffectiveConfigRequest) {
            if (req.team_id !== 'team-bench') throw notFound('no team');
            return { config: effective, version: 1, secret_scopes: {} };
          },
          async getRawConfig() {
            return {
              lineage: ['team-bench'],
              configs: { 'team-bench': effective },
              versions: { 'team-bench': 1 },
            };
          },
        } as unknown as AsyncHandlers<typeof configV1.ConfigServiceService>),
        name: 'inquest.config.v1.ConfigService',
      },
    ],
  });
  // Audit lines are written as in production, to /dev/null so they cost what they cost.
  const logger = createLogger({
    name: 'toolserver-proxy',
    level: 'info',
    destination: createWriteStream('/dev/null'),
  });
  const proxy = await start(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_EGRESS_ALLOW: '127.0.0.0/8',
      INQUEST_DATA_DIR: dir,
    },
    { logger },
  );
  const client = createClient(toolsV1.ToolServiceClient, proxy.address, { retries: 0 });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const body = JSON.stringify({ parameters: { namespace: 'shop', limit: 10 } });
  const direct = async () => {
    const res = await request(`${tools.url}/tools/lookup`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
      body,
    });
    await res.body.json();
  };
  const viaProxy = () =>
    client.callTool({
      team_id: 'team-bench',
      investigation_id: 'inv_bench',
      tool: 'bench:lookup',
      parameters: { namespace: 'shop', limit: 10 },
    });

  try {
    for (let i = 0; i < 300; i++) {
      await direct();
      await viaProxy();
    }
    const directMs: number[] = [];
    const proxyMs: number[] = [];
    // Interleaved so both see the same machine load.
    for (let i = 0; i < calls; i++) {
      let t = performance.now();
      await direct();
      directMs.push(performance.now() - t);
      t = performance.now();
      await viaProxy();
      proxyMs.push(performance.now() - t);
    }
    process.stdout.write(`direct HTTP to the tool server : ${fmt(directMs)}\n`);
    process.stdout.write(`gRPC CallTool through the proxy: ${fmt(proxyMs)}\n`);
    process.stdout.write(
      `proxy overhead (p50 proxy - p50 direct): ${(pct(proxyMs, 50) - pct(directMs, 50)).toFixed(3)} ms (target <= 2 ms)\n`,
    );

    let done = 0;
    let failed = 0;
    const until = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < until) {
        try {
          await viaProxy();
          done++;
        } catch {
          failed++;
        }
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const elapsed = (performance.now() - t0) / 1000;
    process.stdout.write(
      `throughput: ${(done / elapsed).toFixed(0)} calls/s with ${concurrency} callers for ${elapsed.toFixed(1)} s (${failed} failed; target >= 1000)\n`,
    );
  } finally {
    client.close();
    await agent.close();
    await proxy.stop();
    await config.shutdown(100);
    await tools.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
