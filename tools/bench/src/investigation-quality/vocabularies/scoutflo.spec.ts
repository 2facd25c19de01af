import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WorldIndex } from '@inquest/kube';
import type { Scenario } from '../scenario';
import { optionalVocabularies } from './index';
import { scoutfloTools } from './scoutflo';

/** A small world: a crashing pod of a Deployment, a node, events, metrics. */
const WORLD: Scenario = {
  id: 'scoutflo-spec',
  class: 'crashloop_config',
  title: 'api crashes on a missing env var',
  now: '2026-03-12T10:30:00Z',
  request: { message: 'api keeps restarting', context: { namespace: 'shop' } },
  objects: [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-a' },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api', namespace: 'shop' },
      spec: { replicas: 2 },
      status: { replicas: 2, readyReplicas: 1, updatedReplicas: 2, availableReplicas: 1 },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'api-7d9f8b6c5-x2x4z', namespace: 'shop', labels: { app: 'api' } },
      spec: { containers: [{ name: 'app', image: 'api:1.2.0' }] },
      status: { phase: 'Running' },
    },
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'api-7d9f8b6c5-x2x4z.1', namespace: 'shop' },
      involvedObject: { apiVersion: 'v1', kind: 'Pod', name: 'api-7d9f8b6c5-x2x4z' },
      reason: 'BackOff',
      message: 'Back-off restarting failed container app',
      type: 'Warning',
      lastTimestamp: '2026-03-12T10:29:00Z',
    },
  ],
  logs: [
    {
      namespace: 'shop',
      pod: 'api-7d9f8b6c5-x2x4z',
      text: 'line 1\nline 2\nFATAL missing DATABASE_URL\n',
    },
  ],
  metrics: {
    nodes: [{ name: 'node-a', cpu: '250m', memory: '1024Mi' }],
    pods: [
      {
        namespace: 'shop',
        name: 'api-7d9f8b6c5-x2x4z',
        containers: [{ name: 'app', cpu: '5m', memory: '30Mi' }],
      },
    ],
  },
  expected: { healthy: false, subject: ['api'], facts: [['DATABASE_URL']] },
};

describe('vocabulary scoutflo (Scoutflo/kubernetes-mcp-server)', () => {
  const vocab = optionalVocabularies().find((v) => v.name === 'scoutflo')!;
  let running: Awaited<ReturnType<typeof vocab.start>>;
  const client = new Client({ name: 'scoutflo-spec', version: '0.0.0' });
  beforeAll(async () => {
    running = await vocab.start(WORLD);
    await client.connect(new StreamableHTTPClientTransport(new URL(running.servers[0]!.url)));
  });
  afterAll(async () => {
    await client.close();
    await running.stop();
  });
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const res = await client.callTool({ name, arguments: args });
    return {
      isError: res.isError === true,
      text: (res.content as { text: string }[]).map((c) => c.text).join(''),
    };
  };

  it('lists the tools sorted by name, as mcp-go does, with no annotations by default', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names.slice(0, 4)).toEqual([
      'annotate_resource',
      'apply_manifest',
      'check_ingress_connectivity',
      'check_service_connectivity',
    ]);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('prometheus_metrics_query');
    expect(tools.every((t) => t.annotations === undefined)).toBe(true);
    const log = tools.find((t) => t.name === 'pods_log')!;
    expect(log.inputSchema.required).toEqual(['name']);
    expect(Object.keys(log.inputSchema.properties ?? {})).toEqual([
      'namespace',
      'name',
      'tail_lines',
    ]);
  });

  it("serves mcp-go's default annotations on request", () => {
    const tools = scoutfloTools(new WorldIndex(WORLD), { annotations: 'mcp-go' });
    expect(tools[0]!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('lists pods and resources as the backend JSON list', async () => {
    const pods = await call('pods_list_in_namespace', { namespace: 'shop' });
    const list = JSON.parse(pods.text);
    expect(list.kind).toBe('PodList');
    expect(list.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual([
      'api-7d9f8b6c5-x2x4z',
    ]);
    const deps = JSON.parse(
      (await call('resources_list', { apiVersion: 'apps/v1', kind: 'Deployment' })).text,
    );
    expect(deps.kind).toBe('DeploymentList');
    expect(await call('pods_list_in_namespace', {})).toEqual({
      isError: true,
      text: 'ERROR: failed to list pods in namespace, missing argument namespace',
    });
  });

  it('gets a pod as JSON, and an unknown one as an ERROR: result', async () => {
    const pod = await call('pods_get', { namespace: 'shop', name: 'api-7d9f8b6c5-x2x4z' });
    expect(JSON.parse(pod.text).metadata.name).toBe('api-7d9f8b6c5-x2x4z');
    expect(await call('pods_get', { namespace: 'shop', name: 'nope' })).toEqual({
      isError: true,
      text: 'ERROR: failed to get pod nope in namespace shop: failed to get resource: API request failed with status 404: pods "nope" not found',
    });
    expect(
      await call('resources_get', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }),
    ).toEqual({
      isError: true,
      text: 'ERROR: failed to get resource: failed to get resource: API request failed with status 404: deployments.apps "x" not found',
    });
    expect(await call('get_resources_yaml', { apiVersion: 'v1', kind: 'Pod' })).toEqual({
      isError: true,
      text: 'ERROR: failed to get YAML, missing argument name',
    });
  });

  it('answers events in its YAML format, filtered by involved object', async () => {
    const ev = await call('events_list', { namespace: 'shop', involved_object_kind: 'Pod' });
    expect(ev.text).toMatch(/^The following events \(YAML format\) were found:\n- InvolvedObject:/);
    expect(ev.text).toContain('Reason: BackOff');
    expect((await call('events_list', { involved_object_name: 'zzz' })).text).toBe(
      'No events found',
    );
  });

  it("answers a crash-looping container's log with its last instance's, as the kubelet does", () => {
    const world = new WorldIndex({
      ...WORLD,
      objects: [
        ...WORLD.objects,
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'worker-1', namespace: 'shop' },
          spec: { containers: [{ name: 'w' }] },
          status: {
            containerStatuses: [
              {
                name: 'w',
                state: { waiting: { reason: 'CrashLoopBackOff' } },
                lastState: { terminated: { exitCode: 1 } },
              },
            ],
          },
        },
      ],
      logs: [{ namespace: 'shop', pod: 'worker-1', previous: true, text: 'boom\n' }],
    });
    const log = scoutfloTools(world).find((t) => t.name === 'pods_log')!;
    expect(log.run!({ namespace: 'shop', name: 'worker-1' })).toBe('boom\n');
  });

  it('answers logs with tail_lines, nodes as YAML, metrics as JSON', async () => {
    expect(
      (await call('pods_log', { namespace: 'shop', name: 'api-7d9f8b6c5-x2x4z', tail_lines: 1 }))
        .text,
    ).toBe('FATAL missing DATABASE_URL\n');
    expect((await call('nodes_get', { name: 'node-a' })).text).toContain('name: node-a');
    expect(await call('nodes_get', { name: 'b' })).toEqual({
      isError: true,
      text: `ERROR: failed to get node 'b': nodes "b" not found`,
    });
    const pm = JSON.parse((await call('pods_metrics', { namespace: 'shop' })).text);
    expect(pm.items[0].containers[0].usage).toEqual({ cpu: '5m', memory: '30Mi' });
    const nm = JSON.parse((await call('nodes_metrics', {})).text);
    expect(nm.items[0].usage.cpu).toBe('250m');
  });

  it('answers the prometheus tools as when no Prometheus ingress is found', async () => {
    expect(await call('prometheus_metrics_query', { query: 'up' })).toEqual({
      isError: true,
      text: 'ERROR: Cannot connect to Prometheus server. The server may be unavailable or misconfigured.',
    });
    expect(await call('prometheus_get_alerts')).toEqual({
      isError: true,
      text: 'ERROR: failed to get Prometheus alerts: failed to discover Prometheus: prometheus URL not found via ingress',
    });
    expect(await call('prometheus_metrics_query', {})).toEqual({
      isError: true,
      text: 'ERROR: missing required parameter: query',
    });
  });

  it('answers rollout status and refuses its write actions and the write tools', async () => {
    expect(
      (
        await call('rollout', {
          action: 'status',
          resource_type: 'deployment',
          resource_name: 'api',
          namespace: 'shop',
        })
      ).text,
    ).toContain('Waiting for deployment "api" rollout to finish');
    const restart = await call('rollout', {
      action: 'restart',
      resource_type: 'deployment',
      resource_name: 'api',
      namespace: 'shop',
    });
    expect(restart.isError).toBe(true);
    const del = await call('pods_delete', { namespace: 'shop', name: 'api-7d9f8b6c5-x2x4z' });
    expect(del.isError).toBe(true);
    expect(
      running
        .calls()!
        .filter((c) => c.destructive)
        .map((c) => c.tool),
    ).toEqual(['rollout', 'pods_delete']);
  });
});
