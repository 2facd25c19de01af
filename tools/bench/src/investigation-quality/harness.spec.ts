import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { customResourceObjects } from '@inquest/kube/testing';
import { grade, type GradedResult } from './grade';
import { startHarness, type Harness } from './harness';
import { DATA_DIR, loadDemoCases, runDemo, runScenario } from './run';
import { loadScenarios, selectScenarios, type Scenario } from './scenario';
import { vocabularies } from './vocabularies';

const result = (summary: string, description: string, confidence = 70): GradedResult => ({
  summary,
  root_cause: { description, confidence },
});

describe('grade', () => {
  const expected = {
    healthy: false,
    subject: ['checkout'],
    facts: [['OOMKilled', 'out of memory'], ['256Mi']],
    forbidden: ['deploy'],
  };

  it('passes a conclusion that names the subject and every fact group', () => {
    const g = grade(
      expected,
      result('checkout pods are oomkilled', 'The container hits its 256Mi limit.'),
    );
    expect(g).toEqual({ right: true, reasons: [] });
  });

  it('fails a conclusion that misses the subject or a fact', () => {
    const g = grade(expected, result('cart pods are OOMKilled', 'The node is busy.'));
    expect(g.right).toBe(false);
    expect(g.reasons.join(' ')).toMatch(/subject not named/);
    expect(g.reasons.join(' ')).toMatch(/fact missing \(any of: 256Mi\)/);
  });

  it('fails a right conclusion that contains a forbidden word', () => {
    const g = grade(expected, result('checkout OOMKilled at 256Mi', 'Caused by a recent Deploy.'));
    expect(g.right).toBe(false);
    expect(g.reasons).toEqual(['forbidden "deploy" appears']);
  });

  it('matches a forbidden term only where a word starts', () => {
    const g = grade(
      { ...expected, forbidden: ['OOM', 'deploy'] },
      result(
        'checkout OOMKilled at 256Mi',
        'ScalingLimited TooManyReplicas; redeployment pending.',
      ),
    );
    expect(g.reasons).toEqual(['forbidden "OOM" appears']);
    expect(
      grade(
        { ...expected, forbidden: ['OOM'] },
        result('checkout out of memory at 256Mi', 'TooManyReplicas'),
      ).right,
    ).toBe(true);
  });

  it('fails "No problem found" when something is wrong', () => {
    const g = grade(
      expected,
      result('checkout OOMKilled 256Mi', 'No problem found in checkout.', 20),
    );
    expect(g.right).toBe(false);
  });

  it('grades healthy: "No problem found" at confidence <= 30 only', () => {
    const healthy = { healthy: true };
    expect(grade(healthy, result('all good', 'No problem found: pods Running.', 30)).right).toBe(
      true,
    );
    expect(grade(healthy, result('all good', 'No problem found.', 31)).right).toBe(false);
    expect(grade(healthy, result('all good', 'Recent deploy of checkout.', 10)).right).toBe(false);
    expect(grade(healthy, undefined, 'timeout').reasons).toEqual(['no result: timeout']);
  });
});

/** A small world of our own (not one of the blind-written scenarios). */
const WORLD: Scenario = {
  id: 'harness-spec-world',
  class: 'crashloop_config',
  title: 'api crashes on a missing env var',
  now: '2026-03-12T10:30:00Z',
  request: {
    message: 'api keeps restarting, what is wrong?',
    context: { service: 'api', namespace: 'shop' },
  },
  objects: [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop', uid: 'ns-1', creationTimestamp: '2026-01-01T00:00:00Z' },
      status: { phase: 'Active' },
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

const available = [
  ...vocabularies().filter((v) => !v.unavailable()),
  {
    ...vocabularies({ holmesLogs: 'kubectl' }).find((v) => v.name === 'holmes')!,
    name: 'holmes (kubectl logs)',
  },
];

describe.each(available.map((v) => [v.name, v] as const))('vocabulary %s', (_name, vocab) => {
  it('serves the world: tools listed, a read answered, write tools refused and counted', async () => {
    const running = await vocab.start(WORLD);
    const client = new Client({ name: 'harness-spec', version: '0.0.0' });
    try {
      const server = running.servers[0]!;
      if (server.transport === 'http') {
        // Inquest's tool-server contract: the listing answers; calls are covered by the harness run
        const res = await fetch(`${server.url}/tools`);
        expect(((await res.json()) as unknown[]).length).toBeGreaterThan(3);
        return;
      }
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(3);
      // kubectl-mcp's get_logs has no `previous`; its previous-container log is its own tool
      const logsTool =
        tools.find((t) => t.name === 'get_previous_logs') ??
        tools.find((t) => /log/.test(t.name) && !/node/.test(t.name))!;
      const args: Record<string, unknown> = {};
      const props = Object.keys((logsTool.inputSchema.properties ?? {}) as object);
      const needed = logsTool.inputSchema.required ?? [];
      for (const p of props) {
        if (/pod_name|^name$|^pod$/.test(p)) args[p] = 'api-7d9f8b6c5-x2x4z';
        if (p === 'namespace') args[p] = 'shop';
        if (p === 'previous' || p === 'previousContainer') args[p] = true;
        if (p === 'resourceType') args[p] = 'pod';
        // mcp-k8s-go requires the kubeconfig context by name
        if (p === 'context' && needed.includes(p)) args[p] = 'bench';
      }
      const res = await client.callTool({ name: logsTool.name, arguments: args });
      const text = (res.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
      expect(text).toContain('DATABASE_URL');
      const write = tools.find((t) => t.annotations?.destructiveHint === true);
      if (write) {
        const denied = await client.callTool({ name: write.name, arguments: { name: 'x' } });
        expect(denied.isError).toBe(true);
        expect((running.calls() ?? []).filter((c) => c.destructive).map((c) => c.tool)).toEqual([
          write.name,
        ]);
      }
    } finally {
      await client.close();
      await running.stop();
    }
  });
});

/** WORLD with custom resources: an Argo CD Application, a Flux Kustomization (Ready=False)... */
const GITOPS: Scenario = { ...WORLD, objects: [...WORLD.objects, ...customResourceObjects()] };

describe('foreign vocabularies read custom resources, as they do against a real cluster', () => {
  const reads: Record<
    string,
    Array<[tool: string, args: Record<string, unknown>, expected: RegExp]>
  > = {
    holmes: [
      [
        'kubectl_get_by_kind_in_namespace',
        { kind: 'kustomization', namespace: 'flux-system' },
        /apps +\d+d +False +Deployment\/shop\/checkout dry-run failed/,
      ],
      [
        'kubectl_get_by_kind_in_cluster',
        { kind: 'applications.argoproj.io' },
        /argocd +pricing-api +OutOfSync +Degraded/,
      ],
      [
        'kubectl_describe',
        { kind: 'Kustomization', name: 'apps', namespace: 'flux-system' },
        /Ready +False +ReconciliationFailed[\s\S]*Warning +ReconciliationFailed/,
      ],
      [
        'kubectl_get_yaml',
        { kind: 'application', name: 'pricing-api', namespace: 'argocd' },
        /kind: Application[\s\S]*status: OutOfSync/,
      ],
    ],
    'k8s-mcp': [
      [
        'resources_list',
        { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization' },
        /flux-system +kustomize\.toolkit\.fluxcd\.io\/v1 +Kustomization +apps /,
      ],
      [
        'resources_get',
        {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'Application',
          name: 'pricing-api',
          namespace: 'argocd',
        },
        /health:\n +status: Degraded/,
      ],
    ],
    mcpk8s: [
      [
        'kubectl_get',
        { resourceType: 'kustomizations.kustomize.toolkit.fluxcd.io', namespace: 'flux-system' },
        /"kind": "Kustomization"/,
      ],
      [
        'kubectl_describe',
        { resourceType: 'application', name: 'pricing-api', namespace: 'argocd' },
        /SyncError[\s\S]*OperationCompleted/,
      ],
      ['kubectl_get', { resourceType: 'clusterissuers', output: 'wide' }, /letsencrypt-prod +True/],
    ],
    'mcp-k8s-go': [
      [
        'list-k8s-resources',
        { kind: 'Kustomization', namespace: 'flux-system' },
        /^\{"name":"apps","namespace":"flux-system"\}$/m,
      ],
      [
        'get-k8s-resource',
        {
          kind: 'application',
          name: 'pricing-api',
          namespace: 'argocd',
          go_template: '{{ .status.sync.status }} {{ .status.health.status }}',
        },
        /^OutOfSync Degraded$/,
      ],
    ],
  };

  it.each(Object.keys(reads))('%s', async (name) => {
    const vocab = vocabularies().find((v) => v.name === name)!;
    const running = await vocab.start(GITOPS);
    const client = new Client({ name: 'harness-spec', version: '0.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.servers[0]!.url)));
      for (const [tool, args, expected] of reads[name]!) {
        const res = await client.callTool({ name: tool, arguments: args });
        const text = (res.content as { text: string }[]).map((c) => c.text).join('\n');
        expect([tool, res.isError === true, text]).toEqual([
          tool,
          false,
          expect.stringMatching(expected),
        ]);
      }
    } finally {
      await client.close();
      await running.stop();
    }
  });
});

describe('vocabulary mcpk8s (Flux159/mcp-server-kubernetes)', () => {
  const mcpk8s = vocabularies().find((v) => v.name === 'mcpk8s')!;
  let running: Awaited<ReturnType<typeof mcpk8s.start>>;
  const client = new Client({ name: 'harness-spec', version: '0.0.0' });
  beforeAll(async () => {
    running = await mcpk8s.start(WORLD);
    await client.connect(new StreamableHTTPClientTransport(new URL(running.servers[0]!.url)));
  });
  afterAll(async () => {
    await client.close();
    await running.stop();
  });
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    const text = (res.content as { text: string }[]).map((c) => c.text).join('\n');
    return { isError: res.isError === true, text };
  };

  it('kubectl_get lists as its JSON summary by default, and prints kubectl tables and YAML', async () => {
    const list = await call('kubectl_get', { resourceType: 'pods', namespace: 'shop' });
    expect(JSON.parse(list.text)).toEqual({
      items: [
        {
          name: 'api-7d9f8b6c5-x2x4z',
          namespace: 'shop',
          kind: 'Pod',
          status: 'CrashLoopBackOff',
          createdAt: '2026-03-12T10:00:00Z',
        },
      ],
    });
    // events: every namespace unless one is given, as a summary of each event
    const events = JSON.parse((await call('kubectl_get', { resourceType: 'events' })).text);
    expect(events.events).toEqual([
      expect.objectContaining({ reason: 'BackOff', count: 25, type: 'Warning' }),
    ]);
    const wide = await call('kubectl_get', {
      resourceType: 'pods',
      namespace: 'shop',
      output: 'wide',
    });
    expect(wide.text).toMatch(/^NAME +READY +STATUS +RESTARTS +AGE +IP +NODE/);
    expect(wide.text).toMatch(/api-7d9f8b6c5-x2x4z +0\/1 +CrashLoopBackOff +6 /);
    const yaml = await call('kubectl_get', {
      resourceType: 'pod',
      name: 'api-7d9f8b6c5-x2x4z',
      namespace: 'shop',
      output: 'yaml',
    });
    expect(yaml.text).toContain('reason: CrashLoopBackOff');
    // the namespace defaults to "default": not found there, as a JSON error body
    const missing = await call('kubectl_get', {
      resourceType: 'pods',
      name: 'api-7d9f8b6c5-x2x4z',
    });
    expect(missing).toEqual({
      isError: true,
      text: JSON.stringify(
        { error: 'Resource pods/api-7d9f8b6c5-x2x4z not found', status: 'not_found' },
        null,
        2,
      ),
    });
  });

  it('kubectl_logs answers JSON; kubectl failures are JSON-RPC errors; writes are refused and counted', async () => {
    const logs = await call('kubectl_logs', {
      resourceType: 'pod',
      name: 'api-7d9f8b6c5-x2x4z',
      namespace: 'shop',
      previous: true,
    });
    expect(JSON.parse(logs.text)).toEqual({
      name: 'api-7d9f8b6c5-x2x4z',
      logs: '2026-03-12T10:24:01Z FATAL missing required environment variable DATABASE_URL\n',
    });
    await expect(
      client.callTool({ name: 'kubectl_get', arguments: { resourceType: 'widgets' } }),
    ).rejects.toThrow(/the server doesn't have a resource type "widgets"/);
    // a generic kubectl command that only reads is served; one that writes is refused
    const top = await call('kubectl_generic', {
      command: 'get',
      resourceType: 'pods',
      namespace: 'shop',
    });
    expect(top.text).toMatch(/^NAME +READY +STATUS/);
    expect(
      (await call('kubectl_generic', { command: 'delete', resourceType: 'pod', name: 'x' }))
        .isError,
    ).toBe(true);
    expect((await call('kubectl_scale', { name: 'api', replicas: 0 })).isError).toBe(true);
    expect((running.calls() ?? []).filter((c) => c.destructive).map((c) => c.tool)).toEqual([
      'kubectl_generic',
      'kubectl_scale',
    ]);
  });
});

describe('harness (engine through the real proxy)', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  }, 30_000);
  afterAll(() => harness.close());

  it('runs the demo scenarios and grades every one', async () => {
    const cases = loadDemoCases().filter((c) => ['bad-config-5xx', 'healthy'].includes(c.id));
    const results = await runDemo(harness, cases);
    expect(results.map((r) => r.id)).toEqual(['bad-config-5xx', 'healthy']);
    for (const r of results) {
      expect(r.error).toBeUndefined();
      expect(r.conclusion).toEqual(expect.any(String));
      expect(r.calls.length).toBeGreaterThan(0);
      expect(typeof r.right).toBe('boolean');
    }
  }, 60_000);

  it.each(available.map((v) => [v.name, v] as const))(
    'runs scenarios in the %s vocabulary: tools are called through the proxy and the server sees them',
    async (_name, vocab) => {
      const { scenarios } = loadScenarios(join(DATA_DIR, 'scenarios'));
      const picked = [WORLD, ...selectScenarios(scenarios, {}).slice(0, 2)];
      for (const s of picked) {
        const r = await runScenario(harness, vocab, s);
        expect(r.error).toBeUndefined();
        expect(r.conclusion).toEqual(expect.any(String));
        expect(r.calls.length).toBeGreaterThan(0);
        // a server that records its calls saw exactly the calls the proxy passed on
        if (r.serverCalls.length)
          expect(r.calls.filter((c) => c.ok).length).toBe(
            r.serverCalls.filter((c) => !c.error).length,
          );
      }
    },
    120_000,
  );
});
