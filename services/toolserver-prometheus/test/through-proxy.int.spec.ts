import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import { createLogger } from '@inquest/observability';
import { toolsV1 } from '@inquest/proto';
import {
  freePort,
  startConfigServiceDouble,
  startPrometheus,
  tempDir,
  type ConfigServiceDouble,
  type RunningHttpServerProcess,
} from '@inquest/testing';
import { start as startProxy, type RunningService } from '@inquest/toolserver-proxy-service';
import { start, type RunningPrometheusToolServer } from '../src/main';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('toolserver-prometheus through the real toolserver-proxy (gRPC in, HTTP and MCP out)', () => {
  const logger = createLogger({ name: 'through-proxy-test', level: 'silent' });
  let prometheus: RunningHttpServerProcess;
  let server: RunningPrometheusToolServer;
  let config: ConfigServiceDouble;
  let proxy: RunningService;
  let client: PromiseClient<toolsV1.ToolServiceClient>;

  beforeAll(async () => {
    prometheus = await startPrometheus();
    server = await start(
      {
        INQUEST_TOOLSERVER_PROMETHEUS_PORT: '0',
        INQUEST_PROMETHEUS_URL: prometheus.url,
        INQUEST_DATA_DIR: tempDir(),
      },
      { logger },
    );
    config = await startConfigServiceDouble();
    config.effective.set('team-obs', {
      mcp_servers: [
        { name: 'prom', url: server.url },
        { name: 'prom-mcp', url: `${server.url}/mcp`, transport: 'mcp' },
      ],
    });
    proxy = await startProxy(
      {
        INQUEST_GRPC_PORT: String(await freePort()),
        INQUEST_CONFIG_ADDR: config.address,
        INQUEST_EGRESS_ALLOW: '127.0.0.0/8',
        INQUEST_DATA_DIR: tempDir(),
        INQUEST_TOOLS_HEALTH_INTERVAL_MS: '600000',
      },
      { logger },
    );
    client = createClient(toolsV1.ToolServiceClient, proxy.address, {
      deadlineMs: 10_000,
      retries: 0,
    });
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await proxy?.stop();
    await config?.stop();
    await server?.stop();
    await prometheus?.stop();
  });

  it('lists the tools (read-only annotations kept) and calls them over both transports', async () => {
    const listed = await client.listTools({ team_id: 'team-obs', refresh: true });
    expect(listed.servers.map((s) => [s.name, s.healthy])).toEqual([
      ['prom', true],
      ['prom-mcp', true],
    ]);
    const names = listed.tools.map((t) => t.full_name);
    expect(names).toEqual(
      expect.arrayContaining(['prom:prometheus_query_range', 'prom-mcp:prometheus_targets']),
    );
    // no Alertmanager configured: its tools are not offered
    expect(names.filter((n) => n.includes('alertmanager'))).toEqual([]);
    const range = listed.tools.find((t) => t.full_name === 'prom:prometheus_query_range')!;
    expect(range.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });

    for (const tool of ['prom:prometheus_query_range', 'prom-mcp:prometheus_query_range']) {
      const res = await client.callTool({
        team_id: 'team-obs',
        tool,
        parameters: { query: 'vector(time())', start: 'now-5m', step: '10s', points: 3 },
      });
      const out = res.output as Obj;
      expect(out.series[0]).toMatchObject({ trend: 'rising', samples: 31 });
      expect(out.series[0].points).toHaveLength(3);
    }
  });

  it('a malformed query reaches the caller as a clear error, not a failure of the server', async () => {
    for (const tool of ['prom:prometheus_query', 'prom-mcp:prometheus_query']) {
      const err = (await client
        .callTool({ team_id: 'team-obs', tool, parameters: { query: 'sum(rate(x[5m]' } })
        .then(
          () => undefined,
          (e: unknown) => e,
        )) as { code: string; message: string } | undefined;
      expect(err?.message).toMatch(/parse error/);
    }
    const health = await client.getServerHealth({ team_id: 'team-obs' });
    expect(health.servers.every((s) => s.breaker_state === 'closed')).toBe(true);
  });
});
