import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InProcessEventBus } from '@inquest/events';
import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import { WorldIndex } from '@inquest/kube';
import {
  aScenarioWorld,
  startFakeKubeApiServer,
  writeKubeconfig,
  type FakeKubeApiServer,
} from '@inquest/kube/testing';
import { silentLogger } from '@inquest/observability';
import { toolsV1 } from '@inquest/proto';
import {
  freePort,
  startConfigServiceDouble,
  tempDir,
  type ConfigServiceDouble,
} from '@inquest/testing';
import { start as startProxy, type RunningService } from '@inquest/toolserver-proxy-service';
import { startKubernetesToolServer, type RunningKubernetesToolServer } from '../src/main';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The real toolserver-proxy lists and calls this server over both transports, as agents reach it. */
describe('toolserver-kubernetes through the toolserver-proxy (HTTP contract and MCP)', () => {
  const bus = new InProcessEventBus();
  const dir = tempDir();
  let api: FakeKubeApiServer;
  let k8s: RunningKubernetesToolServer;
  let config: ConfigServiceDouble;
  let proxy: RunningService;
  let client: PromiseClient<toolsV1.ToolServiceClient>;

  beforeAll(async () => {
    const world = new WorldIndex(aScenarioWorld());
    api = await startFakeKubeApiServer(world);
    k8s = await startKubernetesToolServer({
      kubeconfig: writeKubeconfig(api.url),
      now: () => world.now,
    });
    writeFileSync(join(dir, 'secrets.json'), '{}');
    config = await startConfigServiceDouble();
    config.effective.set('team-k8s', {
      mcp_servers: [
        { name: 'k8s', url: k8s.url },
        { name: 'k8smcp', url: `${k8s.url}/mcp`, transport: 'mcp' },
      ],
    });
    proxy = await startProxy(
      {
        INQUEST_GRPC_PORT: String(await freePort()),
        INQUEST_CONFIG_ADDR: config.address,
        INQUEST_EGRESS_ALLOW: '127.0.0.0/8,::1',
        INQUEST_DATA_DIR: dir,
        INQUEST_TOOLS_HEALTH_INTERVAL_MS: '600000',
      },
      { bus, logger: silentLogger() },
    );
    client = createClient(toolsV1.ToolServiceClient, proxy.address, {
      deadlineMs: 10_000,
      retries: 0,
    });
  });

  afterAll(async () => {
    client.close();
    await proxy.stop();
    await Promise.all([k8s.stop(), api.close(), config.stop()]);
    await bus.close();
  });

  it('lists the tools of both transports, healthy and read-only', async () => {
    const res = await client.listTools({ team_id: 'team-k8s', refresh: true });
    expect(res.servers.map((s) => [s.name, s.healthy])).toEqual([
      ['k8s', true],
      ['k8smcp', true],
    ]);
    const names = res.tools.map((t) => t.full_name);
    for (const server of ['k8s', 'k8smcp']) {
      for (const tool of ['describe_resource', 'get_pod_logs', 'get_events', 'top_pods']) {
        expect(names).toContain(`${server}:${tool}`);
      }
    }
    expect(res.tools).toHaveLength(20);
  });

  it.each(['k8s', 'k8smcp'])('calls describe and logs through %s', async (server) => {
    const described = await client.callTool({
      team_id: 'team-k8s',
      tool: `${server}:describe_resource`,
      parameters: { kind: 'pod', name: 'checkout-7d9f8b6c5-x2x4z', namespace: 'shop' },
    });
    expect((described.output as Obj).text).toContain('Reason:       CrashLoopBackOff');
    const logs = await client.callTool({
      team_id: 'team-k8s',
      tool: `${server}:get_pod_logs`,
      parameters: { namespace: 'shop', pod: 'checkout-7d9f8b6c5-x2x4z', previous: true },
    });
    expect((logs.output as Obj).text).toContain('PAYMENT_API_KEY');
  });

  it.each(['k8s', 'k8smcp'])('passes tool errors on through %s', async (server) => {
    const err = await client
      .callTool({
        team_id: 'team-k8s',
        tool: `${server}:describe_resource`,
        parameters: { kind: 'pod', name: 'ghost', namespace: 'shop' },
      })
      .then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string },
      );
    expect(err?.message).toContain('pods "ghost" not found');
    // the proxy validates against the server's schema before calling it
    const invalid = await client
      .callTool({
        team_id: 'team-k8s',
        tool: `${server}:get_pod_logs`,
        parameters: { namespace: 'shop', pod: 'x', tail_lines: 100000 },
      })
      .then(
        () => undefined,
        (e: unknown) => e as { code: string },
      );
    expect(invalid?.code).toBe('validation_error');
    expect(api.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
  });
});
