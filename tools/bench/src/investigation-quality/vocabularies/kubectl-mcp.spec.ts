import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningVocabulary } from '../run';
import type { Scenario } from '../scenario';
import { optionalVocabularies } from '.';

/** A small world of our own: a crash-looping api in shop, its Deployment, Service and node. */
const WORLD: Scenario = {
  id: 'kubectl-mcp-spec-world',
  class: 'crashloop_config',
  title: 'api crashes on a missing env var',
  now: '2026-03-12T10:30:00Z',
  request: { message: 'api keeps restarting', context: { service: 'api', namespace: 'shop' } },
  objects: [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop', uid: 'ns-1', creationTimestamp: '2026-01-01T00:00:00Z' },
      status: { phase: 'Active' },
    },
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-a', uid: 'node-1', creationTimestamp: '2026-01-01T00:00:00Z' },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
        capacity: { cpu: '4', memory: '16Gi', pods: '110' },
        allocatable: { cpu: '3900m', memory: '15Gi', pods: '110' },
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'api',
        namespace: 'shop',
        uid: 'dep-1',
        creationTimestamp: '2026-01-01T00:00:00Z',
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'api' } },
        template: {
          metadata: { labels: { app: 'api' } },
          spec: { containers: [{ name: 'app', image: 'registry.example/api:1.2.0' }] },
        },
      },
      status: { replicas: 1, updatedReplicas: 1, readyReplicas: 0, unavailableReplicas: 1 },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api', namespace: 'shop', uid: 'svc-1' },
      spec: {
        type: 'ClusterIP',
        clusterIP: '10.96.0.10',
        selector: { app: 'api' },
        ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'api-7d9f8b6c5-x2x4z',
        namespace: 'shop',
        uid: 'pod-1',
        labels: { app: 'api' },
        creationTimestamp: '2026-03-12T10:00:00Z',
      },
      spec: {
        nodeName: 'node-a',
        containers: [{ name: 'app', image: 'registry.example/api:1.2.0' }],
      },
      status: {
        phase: 'Running',
        podIP: '10.0.0.12',
        containerStatuses: [
          {
            name: 'app',
            ready: false,
            restartCount: 6,
            image: 'registry.example/api:1.2.0',
            state: {
              waiting: {
                reason: 'CrashLoopBackOff',
                message: 'back-off 5m0s restarting failed container=app',
              },
            },
            lastState: {
              terminated: {
                reason: 'Error',
                exitCode: 1,
                startedAt: '2026-03-12T10:24:00Z',
                finishedAt: '2026-03-12T10:24:01Z',
              },
            },
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'api-7d9f8b6c5-x2x4z.1', namespace: 'shop', uid: 'ev-1' },
      involvedObject: { kind: 'Pod', name: 'api-7d9f8b6c5-x2x4z', namespace: 'shop', uid: 'pod-1' },
      reason: 'BackOff',
      message: 'Back-off restarting failed container app in pod api-7d9f8b6c5-x2x4z_shop(pod-1)',
      type: 'Warning',
      count: 25,
      firstTimestamp: '2026-03-12T10:01:00Z',
      lastTimestamp: '2026-03-12T10:29:00Z',
      source: { component: 'kubelet', host: 'node-a' },
    },
  ],
  logs: [
    {
      namespace: 'shop',
      pod: 'api-7d9f8b6c5-x2x4z',
      container: 'app',
      previous: true,
      text: '2026-03-12T10:24:01Z FATAL missing required environment variable DATABASE_URL\n',
    },
  ],
  expected: { healthy: false, subject: ['api'], facts: [['DATABASE_URL']] },
};

const POD = 'api-7d9f8b6c5-x2x4z';

describe('vocabulary kubectl-mcp (rohitg00/kubectl-mcp-server)', () => {
  const vocab = optionalVocabularies().find((v) => v.name === 'kubectl-mcp')!;
  let running: RunningVocabulary;
  const client = new Client({ name: 'kubectl-mcp-spec', version: '0.0.0' });
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
    const text = (res.content as { text: string }[]).map((c) => c.text).join('\n');
    return { isError: res.isError === true, text };
  };
  /** a tool answering a dict: FastMCP's compact JSON */
  const json = async (name: string, args: Record<string, unknown> = {}) => {
    const res = await call(name, args);
    expect(res.isError).toBe(false);
    return JSON.parse(res.text) as Record<string, unknown>;
  };

  it('lists every tool of the default mode, with pydantic schemas and declared annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(281);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['get_pods', 'get_logs', 'get_previous_logs', 'helm_list', 'keda_detect'])
      expect(byName.has(name)).toBe(true);
    expect(byName.get('get_pods')).toEqual({
      name: 'get_pods',
      description: 'Get all pods in the specified namespace.',
      inputSchema: {
        type: 'object',
        properties: {
          namespace: {
            anyOf: [{ type: 'string' }, { type: 'null' }],
            default: null,
            description: 'Namespace to list pods from (all namespaces if not specified)',
          },
          context: {
            type: 'string',
            default: '',
            description: 'Kubernetes context to use (uses current context if not specified)',
          },
        },
      },
      annotations: {
        title: 'Get Pods',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
    });
    expect(byName.get('get_logs')!.inputSchema.required).toEqual(['pod_name']);
    expect(byName.get('kubectl_rollout')!.annotations).toEqual({
      title: 'Kubectl Rollout',
      destructiveHint: true,
    });
    // the ecosystem toolsets declare no title
    expect(byName.get('keda_detect')!.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
  });

  it('answers pod reads as {"success": true, ...} dicts', async () => {
    expect(await json('get_pods', { namespace: 'shop' })).toEqual({
      success: true,
      context: 'current',
      pods: [{ name: POD, namespace: 'shop', status: 'Running', ip: '10.0.0.12' }],
    });
    // get_logs reads the current container (empty here); the crash is in the previous one
    expect(await json('get_logs', { pod_name: POD, namespace: 'shop' })).toEqual({
      success: true,
      context: 'current',
      logs: '',
    });
    expect(await json('get_previous_logs', { pod_name: POD, namespace: 'shop' })).toEqual({
      success: true,
      context: 'current',
      pod: POD,
      namespace: 'shop',
      container: null,
      logs: '2026-03-12T10:24:01Z FATAL missing required environment variable DATABASE_URL\n',
      lineCount: 2,
    });
    expect(await json('get_pod_events', { pod_name: POD, namespace: 'shop' })).toEqual({
      success: true,
      context: 'current',
      events: [
        {
          name: 'api-7d9f8b6c5-x2x4z.1',
          type: 'Warning',
          reason: 'BackOff',
          message:
            'Back-off restarting failed container app in pod api-7d9f8b6c5-x2x4z_shop(pod-1)',
          timestamp: '2026-03-12T10:29:00+00:00',
        },
      ],
    });
    const crash = (await json('diagnose_pod_crash', { pod_name: POD, namespace: 'shop' }))
      .diagnosis as Record<string, unknown>;
    expect(crash.issues).toEqual([
      {
        container: 'app',
        issue: 'CrashLoopBackOff',
        severity: 'critical',
        description: 'Container is crashing repeatedly',
      },
    ]);
    expect(crash.containerStatuses).toEqual([
      expect.objectContaining({
        restartCount: 6,
        lastState: {
          status: 'terminated',
          exitCode: 1,
          reason: 'Error',
          finishedAt: '2026-03-12 10:24:01+00:00',
        },
      }),
    ]);
  });

  it('answers cluster and workload reads', async () => {
    expect(await json('get_namespaces')).toEqual({
      success: true,
      context: 'current',
      namespaces: ['shop'],
    });
    expect(await json('get_deployments', { namespace: 'shop' })).toEqual({
      success: true,
      context: 'current',
      deployments: [{ name: 'api', namespace: 'shop', replicas: 1, ready: 0, available: 0 }],
    });
    expect(await json('get_services', { namespace: 'shop' })).toEqual({
      success: true,
      context: 'current',
      services: [{ name: 'api', namespace: 'shop', type: 'ClusterIP', cluster_ip: '10.96.0.10' }],
    });
    expect(await json('get_nodes')).toEqual({
      success: true,
      context: 'current',
      nodes: [{ name: 'node-a', status: 'Ready', addresses: ['10.0.0.1'] }],
    });
    expect((await json('get_events', { namespace: 'shop' })).events).toEqual([
      expect.objectContaining({ namespace: 'shop', reason: 'BackOff', type: 'Warning' }),
    ]);
  });

  it('prints kubectl text inside its dicts', async () => {
    const described = await json('kubectl_describe', {
      resource_type: 'pod',
      name: POD,
      namespace: 'shop',
    });
    expect(described.success).toBe(true);
    expect(described.description).toMatch(/Reason: +CrashLoopBackOff[\s\S]*Exit Code: +1/);
    const generic = await json('kubectl_generic', { command: 'kubectl get pods -n shop' });
    expect(generic.output).toMatch(
      /^NAME +READY +STATUS +RESTARTS +AGE\napi-7d9f8b6c5-x2x4z +0\/1 /,
    );
    expect(generic.error).toBeNull();
    // a rollout that never completes: kubectl keeps watching until the tool's 60 s timeout
    expect(
      await json('kubectl_rollout', {
        action: 'status',
        resource_type: 'deployment',
        name: 'api',
        namespace: 'shop',
      }),
    ).toEqual({
      success: false,
      error:
        "Command '['kubectl', 'rollout', 'status', 'deployment/api', '-n', 'shop']' timed out after 60 seconds",
    });
  });

  it('answers Helm from the cluster, and Artifact Hub with no chart of the world', async () => {
    expect(await json('helm_list', { all_namespaces: true })).toEqual({
      success: true,
      context: 'current',
      releases: [],
      count: 0,
    });
    expect(await json('helm_search_hub', { keyword: 'api' })).toEqual({
      success: true,
      charts: [],
      count: 0,
      source: 'Artifact Hub (artifacthub.io)',
    });
  });

  it('answers the ecosystem toolsets as indented JSON text', async () => {
    const keda = await call('keda_detect');
    expect(keda.text).toMatch(/^\{\n {2}"context": "current",\n {2}"installed": false,/);
    expect(JSON.parse((await call('list_certs')).text)).toEqual({
      success: false,
      error: 'cert-manager is not installed (certificates.cert-manager.io CRD not found)',
    });
  });

  it('reports unknown objects and bad arguments as the real server does', async () => {
    const logs = await json('get_logs', { pod_name: 'nope', namespace: 'shop' });
    expect(logs.success).toBe(false);
    expect(logs.error).toMatch(
      /^\(404\)\nReason: Not Found\nHTTP response headers: HTTPHeaderDict\([\s\S]*HTTP response body: \{"kind":"Status".*"message":"pods \\"nope\\" not found"/,
    );
    expect(
      await json('kubectl_describe', { resource_type: 'pod', name: 'nope', namespace: 'shop' }),
    ).toEqual({ success: false, error: 'Error from server (NotFound): pods "nope" not found' });
    expect(await json('get_pods', { context: 'other' })).toEqual({
      success: false,
      error:
        'Invalid kube-config. Context: other. Error: Invalid kube-config file. Expected object with name other in /root/.kube/config/contexts list',
    });
    // a missing argument fails FastMCP's validation: a tool error
    expect(await call('get_previous_logs', { namespace: 'shop' })).toEqual({
      isError: true,
      text: expect.stringMatching(
        /^Error calling tool 'get_previous_logs': 1 validation error for call\[get_previous_logs\]\npod_name\n {2}Missing required argument/,
      ),
    });
    expect(await json('kubectl_generic', { command: 'delete pod x' })).toEqual({
      success: false,
      error:
        'Command not allowed. Allowed: get, describe, logs, top, explain, api-resources, version, cluster-info, config, auth can-i',
    });
  });

  it('refuses and counts write tools, and kubectl_rollout only for a writing action', async () => {
    expect((await call('scale_deployment', { name: 'api', replicas: 0 })).isError).toBe(true);
    expect(
      (await call('delete_resource', { resource_type: 'pod', name: POD, namespace: 'shop' }))
        .isError,
    ).toBe(true);
    expect(
      (
        await call('kubectl_rollout', {
          action: 'restart',
          resource_type: 'deployment',
          name: 'api',
          namespace: 'shop',
        })
      ).isError,
    ).toBe(true);
    expect(
      (running.calls() ?? [])
        .filter((c) => c.destructive)
        .map((c) => `${c.tool}${c.arguments.action ? ` ${c.arguments.action as string}` : ''}`),
    ).toEqual(['scale_deployment', 'delete_resource', 'kubectl_rollout restart']);
  });
});
