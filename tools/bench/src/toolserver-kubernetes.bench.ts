/**
 * toolserver-kubernetes benchmark (issue 14): a tool call's latency through the real
 * toolserver-proxy (gRPC in, HTTP contract out) to the Kubernetes tool server, which reads a
 * loopback Kubernetes API server through @kubernetes/client-node. Targets: describe p50 <= 5 ms,
 * logs with tail 1,000 p50 <= 20 ms. No Kubernetes cluster runs here: the API server is
 * @inquest/kube's fake over a scenario world (the only fake; everything else is real).
 *
 * Custom resources (a Flux Kustomization, an Argo CD Application) are resolved through the API
 * server's discovery, cached by the tool server: the line after the table counts how often it
 * was read.
 *
 * Args: --calls=<calls per measured tool> (default 500)
 */
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { notFound } from '@inquest/errors';
import { createClient, implement, startGrpcServer, type AsyncHandlers } from '@inquest/grpc-kit';
import { WorldIndex } from '@inquest/kube';
import { aScenarioWorld, startFakeKubeApiServer, writeKubeconfig } from '@inquest/kube/testing';
import { createLogger } from '@inquest/observability';
import { configV1, toolsV1 } from '@inquest/proto';
import { startKubernetesToolServer } from '@inquest/toolserver-kubernetes-service';
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
  `p50=${pct(xs, 50).toFixed(2)} ms p95=${pct(xs, 95).toFixed(2)} ms p99=${pct(xs, 99).toFixed(2)} ms`;

/** The test world (with its custom resources) and a 5,000-line current log for the CrashLoopBackOff pod. */
function benchWorld() {
  const world = aScenarioWorld({ customResources: true });
  const start = Date.parse('2026-03-12T09:00:00Z');
  const lines = Array.from(
    { length: 5000 },
    (_, i) =>
      `${new Date(start + i * 1000).toISOString().replace('.000Z', 'Z')} ${i % 50 === 0 ? 'ERROR' : 'INFO'} request ${i} handled path=/api/cart/${i % 97} status=${i % 50 === 0 ? 500 : 200} duration_ms=${(i * 7) % 300}`,
  );
  const current = world.logs!.find((l) => l.pod === 'checkout-7d9f8b6c5-x2x4z' && !l.previous)!;
  current.text = lines.join('\n') + '\n';
  return new WorldIndex(world);
}

export async function run(): Promise<void> {
  const calls = arg('calls', 500);
  const dir = mkdtempSync(join(tmpdir(), 'inquest-bench-k8s-'));
  writeFileSync(join(dir, 'secrets.json'), '{}');
  const world = benchWorld();
  const api = await startFakeKubeApiServer(world);
  const k8s = await startKubernetesToolServer({
    kubeconfig: writeKubeconfig(api.url),
    now: () => world.now,
  });
  const effective = { mcp_servers: [{ name: 'k8s', url: k8s.url }] };
  const config = await startGrpcServer({
    port: 0,
    services: [
      {
        definition: configV1.ConfigServiceService,
        implementation: implement(configV1.ConfigServiceService, {
          async getEffectiveConfig(req: configV1.GetEffectiveConfigRequest) {
            if (req.team_id !== 'team-bench') throw notFound('no team');
            return { config: effective, version: 1, secret_scopes: [] };
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
      INQUEST_TOOLS_HEALTH_INTERVAL_MS: '600000',
    },
    { logger },
  );
  const client = createClient(toolsV1.ToolServiceClient, proxy.address, { retries: 0 });
  const callTool = (tool: string, parameters: Record<string, unknown>) =>
    client.callTool({
      team_id: 'team-bench',
      investigation_id: 'inv_bench',
      tool: `k8s:${tool}`,
      parameters,
    });

  const cases: Array<{
    label: string;
    tool: string;
    parameters: Record<string, unknown>;
    target: number;
    check: (o: Record<string, unknown>) => boolean;
  }> = [
    {
      label: 'describe_resource pod (CrashLoopBackOff, 4 events)',
      tool: 'describe_resource',
      parameters: { kind: 'pod', name: 'checkout-7d9f8b6c5-x2x4z', namespace: 'shop' },
      target: 5,
      check: (o) => String(o.text).includes('CrashLoopBackOff'),
    },
    {
      label: 'get_pod_logs tail_lines=1000 (of 5,000)',
      tool: 'get_pod_logs',
      parameters: { namespace: 'shop', pod: 'checkout-7d9f8b6c5-x2x4z', tail_lines: 1000 },
      target: 20,
      check: (o) => o.lines === 1000,
    },
    {
      label: 'list_resources pods, all namespaces',
      tool: 'list_resources',
      parameters: { kind: 'pods' },
      target: Number.NaN,
      check: (o) => o.count === 4,
    },
    {
      label: 'list_resources kustomizations (custom, discovery)',
      tool: 'list_resources',
      parameters: { kind: 'kustomizations.kustomize.toolkit.fluxcd.io' },
      target: Number.NaN,
      check: (o) => o.count === 1,
    },
    {
      label: 'describe_resource Argo CD Application (custom)',
      tool: 'describe_resource',
      parameters: { kind: 'application', name: 'pricing-api', namespace: 'argocd' },
      target: Number.NaN,
      check: (o) => String(o.text).includes('SyncError'),
    },
  ];

  try {
    for (const c of cases) {
      const first = await callTool(c.tool, c.parameters);
      if (!c.check(first.output as Record<string, unknown>))
        throw new Error(`${c.tool}: unexpected answer`);
      for (let i = 0; i < 50; i++) await callTool(c.tool, c.parameters);
    }
    for (const c of cases) {
      const ms: number[] = [];
      for (let i = 0; i < calls; i++) {
        const t = performance.now();
        await callTool(c.tool, c.parameters);
        ms.push(performance.now() - t);
      }
      const p50 = pct(ms, 50);
      const verdict = Number.isNaN(c.target)
        ? ''
        : ` (target p50 <= ${c.target} ms: ${p50 <= c.target ? 'met' : 'MISSED'})`;
      process.stdout.write(`${c.label.padEnd(52)} ${fmt(ms)}${verdict}\n`);
    }
    const discovery = api.requests.filter((r) => r === 'GET /apis').length;
    process.stdout.write(
      `(${calls} calls each through the proxy; API server requests served: ${api.requests.length}, of which discovery (GET /apis): ${discovery})\n`,
    );
  } finally {
    client.close();
    await proxy.stop();
    await config.shutdown(100);
    await k8s.stop();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
