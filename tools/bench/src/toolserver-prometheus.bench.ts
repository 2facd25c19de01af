/**
 * toolserver-prometheus benchmark (issue 14): a range query summary over 1 h x 100 series
 * against the real Prometheus (Debian 2.42), through the real toolserver-proxy (gRPC in, HTTP
 * out to the tool server, which asks Prometheus and summarizes). Target: p50 <= 50 ms.
 *
 * The hour of history is real TSDB data: 100 gauge series (`bench_value`, a level, a slope and a
 * wave each) sampled every 15 s for the last hour, written with
 * `promtool tsdb create-blocks-from openmetrics` before Prometheus starts.
 *
 * Args: --calls=<sequential calls per path> (default 200) --series=<n> (default 100)
 */
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { createClient } from '@inquest/grpc-kit';
import { createLogger } from '@inquest/observability';
import { toolsV1 } from '@inquest/proto';
import { freePort, startConfigServiceDouble, startPrometheus } from '@inquest/testing';
import { start as startProxy } from '@inquest/toolserver-proxy-service';
import { start as startToolServer } from '@inquest/toolserver-prometheus-service';

const arg = (name: string, def: number) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : def;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN) : NaN;
};
const fmt = (xs: number[]) =>
  `p50=${pct(xs, 50).toFixed(2)} ms p95=${pct(xs, 95).toFixed(2)} ms p99=${pct(xs, 99).toFixed(2)} ms`;

/** OpenMetrics text: `series` gauges sampled every 15 s over the hour before `endS`. */
function history(series: number, endS: number): string {
  const lines = ['# HELP bench_value synthetic gauge', '# TYPE bench_value gauge'];
  const steps = 240;
  for (let i = 0; i < series; i++) {
    const level = 100 + i * 10;
    const slope = ((i % 5) - 2) * 0.5; // per sample: falling, flat and rising series
    for (let k = 0; k <= steps; k++) {
      const t = endS - (steps - k) * 15;
      const v = level + slope * k + 5 * Math.sin((k + i) / 7);
      lines.push(
        `bench_value{series="s${String(i).padStart(3, '0')}",service="svc-${i % 10}"} ${v.toFixed(3)} ${t}`,
      );
    }
  }
  lines.push('# EOF', '');
  return lines.join('\n');
}

async function time(calls: number, fn: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < Math.min(20, calls); i++) await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

export async function run(): Promise<void> {
  const calls = arg('calls', 200);
  const series = arg('series', 100);
  const endS = Math.floor(Date.now() / 1000);
  const t0 = performance.now();
  const prometheus = await startPrometheus({
    scrapeSelf: false,
    backfillOpenMetrics: history(series, endS),
  });
  process.stdout.write(
    `prometheus ${prometheus.url}: ${series} series x 241 samples (1 h at 15 s) backfilled with promtool, ready in ${Math.round(performance.now() - t0)} ms\n`,
  );
  const logger = createLogger({ name: 'bench', level: 'silent' });
  const dir = mkdtempSync(join(tmpdir(), 'inquest-bench-prom-'));
  const toolServer = await startToolServer(
    {
      INQUEST_TOOLSERVER_PROMETHEUS_PORT: '0',
      INQUEST_PROMETHEUS_URL: prometheus.url,
      INQUEST_DATA_DIR: dir,
    },
    { logger },
  );
  const config = await startConfigServiceDouble();
  config.effective.set('team-bench', { mcp_servers: [{ name: 'prom', url: toolServer.url }] });
  const proxy = await startProxy(
    {
      INQUEST_GRPC_PORT: String(await freePort()),
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_EGRESS_ALLOW: '127.0.0.0/8',
      INQUEST_DATA_DIR: dir,
      INQUEST_TOOLS_HEALTH_INTERVAL_MS: '600000',
    },
    { logger },
  );
  const client = createClient(toolsV1.ToolServiceClient, proxy.address, { retries: 0 });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const start = String(endS - 3600);
  const end = String(endS);
  const parameters = { query: 'bench_value', start, end, points: 10, max_series: series };

  try {
    // what the tool answers, once
    const sample = await client.callTool({
      team_id: 'team-bench',
      tool: 'prom:prometheus_query_range',
      parameters,
    });
    const out = sample.output as {
      series_total: number;
      step: string;
      trends: Record<string, number>;
      series: Array<{ samples: number }>;
    };
    process.stdout.write(
      `answer: ${out.series_total} series summarized, step ${out.step}, ${out.series[0]?.samples} samples each, trends ${JSON.stringify(out.trends)}, ${sample.output_bytes} bytes (vs raw matrix below)\n`,
    );

    let rawBytes = 0;
    const raw = await time(calls, async () => {
      const res = await request(
        `${prometheus.url}/api/v1/query_range?query=bench_value&start=${start}&end=${end}&step=15`,
        { dispatcher: agent },
      );
      rawBytes = (await res.body.arrayBuffer()).byteLength;
    });
    const direct = await time(calls, async () => {
      const res = await request(`${toolServer.url}/tools/prometheus_query_range`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ parameters }),
      });
      if (res.statusCode !== 200) throw new Error(`tool server answered ${res.statusCode}`);
      await res.body.json();
    });
    const cpu0 = process.cpuUsage();
    const viaProxy = await time(calls, async () => {
      await client.callTool({
        team_id: 'team-bench',
        tool: 'prom:prometheus_query_range',
        parameters,
      });
    });
    const cpu = process.cpuUsage(cpu0);
    // Wall times swing with what else runs on the machine; the CPU this process spends per call
    // (proxy + tool server, both in-process; Prometheus is another process) does not.
    const cpuPerCall = (cpu.user + cpu.system) / 1000 / (calls + Math.min(20, calls));
    const load = loadavg()[0]!.toFixed(1);
    process.stdout.write(
      `Prometheus query_range alone (raw matrix, ${Math.round(rawBytes / 1024)} KiB): ${fmt(raw)}\n` +
        `tool server direct (HTTP, query + summary): ${fmt(direct)}\n` +
        `through toolserver-proxy (gRPC -> proxy -> HTTP tool server -> Prometheus): ${fmt(viaProxy)}\n` +
        `CPU of this process (proxy + tool server) per call through the proxy: ${cpuPerCall.toFixed(2)} ms; machine: ${cpus().length} CPUs, load average ${load}\n` +
        `target: p50 <= 50 ms through the proxy for 1 h x ${series} series -> ${pct(viaProxy, 50) <= 50 ? 'met' : 'NOT met'} (${calls} sequential calls per path)\n`,
    );
  } finally {
    client.close();
    await agent.close();
    await proxy.stop();
    await config.stop();
    await toolServer.stop();
    await prometheus.stop();
  }
}
