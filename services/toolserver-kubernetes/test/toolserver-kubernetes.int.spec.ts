import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WorldIndex, type KubeObject, type ScenarioWorld } from '@inquest/kube';
import {
  aScenarioWorld,
  startFakeKubeApiServer,
  writeKubeconfig,
  type FakeKubeApiServer,
  type FakeKubeApiServerOptions,
} from '@inquest/kube/testing';
import { classifyTool } from '@inquest/write-guard';
import { createServer } from 'node:net';
import {
  start,
  startKubernetesToolServer,
  type KubernetesToolServerOptions,
  type RunningKubernetesToolServer,
} from '../src/main';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The test world: aScenarioWorld plus a second BackOff event record for the same pod and message. */
function world(opts: { metrics?: boolean; customResources?: boolean } = {}): ScenarioWorld {
  const w = aScenarioWorld(opts);
  const backoff = w.objects.find((o) => o.kind === 'Event' && o.reason === 'BackOff')!;
  const older: KubeObject = {
    ...backoff,
    metadata: {
      ...backoff.metadata,
      name: 'checkout-7d9f8b6c5-x2x4z.17bc1f2a3d4e0001',
      uid: 'ev-older',
    },
    firstTimestamp: '2026-03-12T10:05:10Z',
    lastTimestamp: '2026-03-12T10:05:15Z',
    count: 3,
  };
  w.objects.push(older);
  return w;
}

interface Started {
  api: FakeKubeApiServer;
  srv: RunningKubernetesToolServer;
  stop(): Promise<void>;
}

async function startBoth(
  apiOpts: FakeKubeApiServerOptions = {},
  srvOpts: Partial<KubernetesToolServerOptions> = {},
  worldOpts: { metrics?: boolean; customResources?: boolean } = {},
): Promise<Started> {
  const index = new WorldIndex(world(worldOpts));
  const api = await startFakeKubeApiServer(index, apiOpts);
  const srv = await startKubernetesToolServer({
    kubeconfig: writeKubeconfig(api.url),
    now: () => index.now,
    ...srvOpts,
  });
  return { api, srv, stop: async () => (await srv.stop(), await api.close()) };
}

async function call(
  srv: RunningKubernetesToolServer,
  tool: string,
  parameters: Obj = {},
): Promise<{ status: number; body: Obj }> {
  const res = await fetch(`${srv.url}/tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ parameters }),
  });
  return { status: res.status, body: (await res.json()) as Obj };
}

async function ok(
  srv: RunningKubernetesToolServer,
  tool: string,
  parameters: Obj = {},
): Promise<Obj> {
  const r = await call(srv, tool, parameters);
  if (r.status !== 200) throw new Error(`${tool} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

describe('toolserver-kubernetes through @kubernetes/client-node against a loopback API server', () => {
  let s: Started;
  beforeAll(async () => {
    s = await startBoth({
      forbidden: [{ verb: 'get', resource: 'pods/log', namespace: 'kube-system' }],
    });
  });
  afterAll(() => s.stop());

  it('lists read-only tools with schemas and annotations', async () => {
    const res = await fetch(`${s.srv.url}/tools`);
    const tools = (await res.json()) as Obj[];
    expect(tools.map((t) => t.name)).toEqual([
      'list_namespaces',
      'list_resources',
      'get_resource',
      'describe_resource',
      'find_resources',
      'get_events',
      'get_pod_logs',
      'rollout_history',
      'top_pods',
      'top_nodes',
    ]);
    for (const t of tools) {
      expect(t).toMatchObject({
        read_only: true,
        annotations: { readOnlyHint: true, destructiveHint: false },
        parameters: { type: 'object', additionalProperties: false },
      });
      expect(t.description.length).toBeGreaterThan(60);
      expect(classifyTool(t as never).readOnly).toBe(true);
    }
  });

  it('answers /health with the API server version', async () => {
    const res = await fetch(`${s.srv.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', kubernetes: 'reachable (v1.30.4)' });
  });

  it('lists pods like kubectl get, filtered and bounded', async () => {
    const out = await ok(s.srv, 'list_resources', { kind: 'po', namespace: 'shop' });
    expect(out.text).toContain(
      'checkout-7d9f8b6c5-x2x4z        0/1     CrashLoopBackOff   5 (2m17s ago)',
    );
    expect(out.text).toMatch(/reports-6f7c9d8b5-abcde +0\/1 +Pending/);
    expect(out.items).toHaveLength(3);
    expect(out.items[0]).toEqual({
      name: 'checkout-7d9f8b6c5-x2x4z',
      ready: '0/1',
      status: 'CrashLoopBackOff',
      restarts: '5 (2m17s ago)',
      age: '25m',
    });
    expect(out.truncated).toBe(false);

    const pending = await ok(s.srv, 'list_resources', {
      kind: 'pods',
      field_selector: 'status.phase=Pending',
    });
    expect(pending.items.map((i: Obj) => i.name)).toEqual(['reports-6f7c9d8b5-abcde']);
    expect(pending.text.split('\n')[0]).toMatch(/^NAMESPACE +NAME +READY/);

    const labelled = await ok(s.srv, 'list_resources', {
      kind: 'deploy',
      label_selector: 'k8s-app=kube-dns',
    });
    expect(labelled.items.map((i: Obj) => i.name)).toEqual(['coredns']);
    const fragment = await ok(s.srv, 'list_resources', { kind: 'pods', name_contains: 'NIGHTLY' });
    expect(fragment.items.map((i: Obj) => i.name)).toEqual(['nightly-report-29554680-q7k2m']);

    const one = await ok(s.srv, 'list_resources', { kind: 'pods', limit: 1 });
    expect(one.items).toHaveLength(1);
    expect(one.truncated).toBe(true);
    expect(one.text).toContain('truncated at 1 items');

    const nodes = await ok(s.srv, 'list_resources', { kind: 'nodes', wide: true });
    expect(nodes.text).toMatch(/node-b +NotReady +worker +70d +v1\.30\.4 +10\.0\.0\.12/);
  });

  it('describes a CrashLoopBackOff pod as kubectl describe does', async () => {
    const out = await ok(s.srv, 'describe_resource', {
      kind: 'pod',
      name: 'checkout-7d9f8b6c5-x2x4z',
      namespace: 'shop',
    });
    expect(out.text).toContain(
      '    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1\n',
    );
    expect(out.text).toContain('    Restart Count:  5\n');
    // two BackOff records are two lines in kubectl describe too
    expect(out.text).toMatch(
      /Warning +BackOff +50s \(x27 over 24m\) +kubelet +Back-off restarting failed container app/,
    );
    expect(out.events).toBe(4);
  });

  it('describes a Pending pod, a failed Job, an unbound PVC, a NotReady node and a deployment', async () => {
    const pending = await ok(s.srv, 'describe_resource', {
      kind: 'pod',
      name: 'reports-6f7c9d8b5-abcde',
    });
    expect(pending.namespace).toBe('shop');
    expect(pending.text).toMatch(
      /Warning +FailedScheduling +5m \(x6 over 10m\) +default-scheduler +0\/2 nodes are available/,
    );

    const job = await ok(s.srv, 'describe_resource', {
      kind: 'jobs',
      name: 'nightly-report-29554680',
      namespace: 'shop',
    });
    expect(job.text).toContain('Pods Statuses:    0 Active (0 Ready) / 0 Succeeded / 3 Failed\n');
    expect(job.text).toMatch(
      /Warning +BackoffLimitExceeded +8h +job-controller +Job has reached the specified backoff limit/,
    );

    const pvc = await ok(s.srv, 'describe_resource', {
      kind: 'pvc',
      name: 'data-db-0',
      namespace: 'shop',
    });
    expect(pvc.text).toContain('Status:        Pending\n');
    expect(pvc.text).toContain('storageclass.storage.k8s.io "fast-ssd" not found');

    const node = await ok(s.srv, 'describe_resource', { kind: 'node', name: 'node-b' });
    expect(node.text).toContain('  Ready            Unknown   Thu, 12 Mar 2026 10:11:20 +0000');
    expect(node.text).toContain('Node node-b status is now: NodeNotReady');

    const nodeA = await ok(s.srv, 'describe_resource', { kind: 'node', name: 'node-a' });
    expect(nodeA.text).toContain('Non-terminated Pods:          (2 in total)\n');

    const deploy = await ok(s.srv, 'describe_resource', {
      kind: 'deployment.apps',
      name: 'checkout',
      namespace: 'shop',
    });
    expect(deploy.text).toContain('NewReplicaSet:   checkout-7d9f8b6c5 (1/1 replicas created)\n');
  });

  it('gets an object as YAML', async () => {
    const out = await ok(s.srv, 'get_resource', {
      kind: 'hpa',
      name: 'checkout',
      namespace: 'shop',
    });
    expect(out.text).toContain('apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n');
    expect(out.object.spec.maxReplicas).toBe(5);
  });

  it('reads current and previous logs, tails and greps them', async () => {
    const prev = await ok(s.srv, 'get_pod_logs', {
      namespace: 'shop',
      pod: 'checkout-7d9f8b6c5-x2x4z',
      previous: true,
    });
    expect(prev).toMatchObject({ container: 'app', previous: true, lines: 4, truncated: false });
    expect(prev.text).toContain('ERROR missing required environment variable PAYMENT_API_KEY');
    const tail = await ok(s.srv, 'get_pod_logs', {
      namespace: 'shop',
      pod: 'checkout-7d9f8b6c5-x2x4z',
      previous: true,
      tail_lines: 1,
    });
    expect(tail.text).toBe('2026-03-12T10:27:43Z FATAL exiting with status 1\n');
    expect(tail.truncated).toBe(true);
    const grep = await ok(s.srv, 'get_pod_logs', {
      namespace: 'shop',
      pod: 'checkout-7d9f8b6c5-x2x4z',
      previous: true,
      grep: 'error|fatal',
    });
    expect(grep).toMatchObject({ lines: 2, lines_read: 4 });
    const current = await ok(s.srv, 'get_pod_logs', {
      namespace: 'shop',
      pod: 'checkout-7d9f8b6c5-x2x4z',
    });
    expect(current.text).toBe('(the log is empty)\n');
    const since = await ok(s.srv, 'get_pod_logs', {
      namespace: 'shop',
      pod: 'checkout-7d9f8b6c5-x2x4z',
      previous: true,
      since_seconds: 137,
    });
    expect(since.lines).toBe(2);
  });

  it('answers clear errors for logs that cannot be had', async () => {
    const never = await call(s.srv, 'get_pod_logs', {
      namespace: 'shop',
      pod: 'reports-6f7c9d8b5-abcde',
      previous: true,
    });
    expect(never.status).toBe(400);
    expect(never.body.error).toBe(
      'previous terminated container "reports" in pod "reports-6f7c9d8b5-abcde" not found',
    );
    const missing = await call(s.srv, 'get_pod_logs', { namespace: 'shop', pod: 'ghost' });
    expect(missing).toEqual({
      status: 404,
      body: { error: 'pods "ghost" not found', code: 'not_found' },
    });
    const huge = await call(s.srv, 'get_pod_logs', {
      namespace: 'shop',
      pod: 'checkout-7d9f8b6c5-x2x4z',
      tail_lines: 100000,
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toBe('invalid parameters: tail_lines must be <= 5000');
    const old = await call(s.srv, 'get_pod_logs', {
      namespace: 'shop',
      pod: 'checkout-7d9f8b6c5-x2x4z',
      since_seconds: 30 * 24 * 3600,
    });
    expect(old.status).toBe(400);
    const denied = await call(s.srv, 'get_pod_logs', {
      namespace: 'kube-system',
      pod: 'coredns-76f75df574-9xk2p',
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe(
      'pods "coredns-76f75df574-9xk2p" is forbidden: User "system:serviceaccount:inquest:toolserver" cannot get resource "pods/log" in API group "" in the namespace "kube-system"',
    );
  });

  it('folds repeated events with counts, for an object or a namespace', async () => {
    const pod = await ok(s.srv, 'get_events', {
      kind: 'pod',
      name: 'checkout-7d9f8b6c5-x2x4z',
      namespace: 'shop',
    });
    expect(pod.events.map((e: Obj) => [e.reason, e.count])).toEqual([
      ['Scheduled', 1],
      ['Pulled', 6],
      ['BackOff', 30],
    ]);
    expect(pod.events[2]).toMatchObject({
      first_seen: '2026-03-12T10:05:10.000Z',
      last_seen: '2026-03-12T10:29:10.000Z',
      object: 'pod/checkout-7d9f8b6c5-x2x4z',
    });
    expect(pod.text).toMatch(
      /50s \(x30 over 24m\) +Warning +BackOff +pod\/checkout-7d9f8b6c5-x2x4z/,
    );

    const warnings = await ok(s.srv, 'get_events', { namespace: 'shop', type: 'Warning' });
    expect(warnings.events.map((e: Obj) => e.reason)).toEqual([
      'BackoffLimitExceeded',
      'FailedScheduling',
      'BackOff',
      'ProvisioningFailed',
    ]);
    const recent = await ok(s.srv, 'get_events', { namespace: 'shop', since_minutes: 3 });
    expect(recent.events.map((e: Obj) => e.reason)).toEqual([
      'Pulled',
      'BackOff',
      'ProvisioningFailed',
    ]);
    const node = await ok(s.srv, 'get_events', { kind: 'node', name: 'node-b' });
    expect(node.events.map((e: Obj) => e.reason)).toEqual(['NodeNotReady']);
    const half = await call(s.srv, 'get_events', { name: 'x' });
    expect(half.status).toBe(400);
  });

  it('shows the rollout history with images and change-cause', async () => {
    const out = await ok(s.srv, 'rollout_history', { name: 'checkout', namespace: 'shop' });
    expect(out.current_revision).toBe(2);
    expect(
      out.revisions.map((r: Obj) => [r.revision, r.images, r.change_cause, r.current]),
    ).toEqual([
      [1, ['app=registry.example.com/shop/checkout:1.7.2'], 'initial release 1.7.2', false],
      [2, ['app=registry.example.com/shop/checkout:1.8.0'], 'bump to 1.8.0', true],
    ]);
    expect(out.text).toMatch(/^deployment\.apps\/checkout\nREVISION +CHANGE-CAUSE/);
    expect((await call(s.srv, 'rollout_history', { name: 'nope', namespace: 'shop' })).status).toBe(
      404,
    );
  });

  it('shows pod and node usage from metrics.k8s.io', async () => {
    const pods = await ok(s.srv, 'top_pods', { sort_by: 'memory' });
    expect(pods.pods.map((p: Obj) => [p.name, p.cpu_millicores, p.memory_mib])).toEqual([
      ['coredns-76f75df574-9xk2p', 3, 18],
      ['checkout-7d9f8b6c5-x2x4z', 1, 12],
    ]);
    const nodes = await ok(s.srv, 'top_nodes');
    expect(nodes.nodes).toEqual([
      {
        name: 'node-a',
        cpu_millicores: 412,
        cpu_percent: 10,
        memory_mib: 3120,
        memory_percent: 20,
      },
    ]);
    expect(nodes.text).toContain('node-b   <unknown>');
  });

  it('finds resources by name fragment or label across kinds and namespaces', async () => {
    const out = await ok(s.srv, 'find_resources', { name_contains: 'checkout' });
    expect(out.matches.map((m: Obj) => `${m.kind}/${m.name}`).sort()).toEqual([
      'ConfigMap/checkout-config',
      'Deployment/checkout',
      'HorizontalPodAutoscaler/checkout',
      'Pod/checkout-7d9f8b6c5-x2x4z',
      'Service/checkout',
    ]);
    expect(out.matches.find((m: Obj) => m.kind === 'Pod').summary).toBe(
      'READY=0/1 STATUS=CrashLoopBackOff RESTARTS=5 (2m17s ago)',
    );
    const byLabel = await ok(s.srv, 'find_resources', {
      label_selector: 'app=checkout',
      kinds: ['pods', 'svc'],
    });
    expect(byLabel.matches.map((m: Obj) => m.kind)).toEqual(['Pod', 'Service']);
    expect((await call(s.srv, 'find_resources', {})).status).toBe(400);
  });

  it('keeps Secrets off by default and ConfigMap values hidden', async () => {
    const secret = await call(s.srv, 'get_resource', {
      kind: 'secret',
      name: 'checkout-db',
      namespace: 'shop',
    });
    expect(secret.status).toBe(403);
    expect(secret.body.error).toMatch(/^Secrets are off on this tool server/);
    expect((await call(s.srv, 'list_resources', { kind: 'secrets' })).status).toBe(403);
    const cm = await ok(s.srv, 'get_resource', {
      kind: 'cm',
      name: 'checkout-config',
      namespace: 'shop',
    });
    expect(cm.object.data.payment_url).toMatch(/^<29 bytes, value hidden/);
    expect(cm.text).not.toContain('payments.shop.svc');
    const described = await ok(s.srv, 'describe_resource', {
      kind: 'cm',
      name: 'checkout-config',
      namespace: 'shop',
    });
    expect(described.text).toContain('payment_url:\n----\n<29 bytes, value hidden');
    expect(described.text).not.toContain('payments.shop.svc');
  });

  it('refuses bad input with a clear 4xx, and never writes', async () => {
    const unknownKind = await call(s.srv, 'list_resources', { kind: 'widgets' });
    expect(unknownKind.status).toBe(400);
    expect(unknownKind.body.error).toMatch(
      /^unknown kind "widgets": not a built-in kind \(namespaces, nodes, pods/,
    );
    expect(unknownKind.body.error).toContain('custom resources are looked up by discovery');
    const unknownTool = await call(s.srv, 'delete_pod', { name: 'x' });
    expect(unknownTool.status).toBe(404);
    const extra = await call(s.srv, 'list_resources', { kind: 'pods', verb: 'delete' });
    expect(extra).toEqual({
      status: 400,
      body: {
        error: 'invalid parameters: must NOT have additional properties (verb)',
        code: 'invalid_field',
      },
    });
    const badNs = await call(s.srv, 'list_resources', {
      kind: 'pods',
      namespace: 'Not A Namespace',
    });
    expect(badNs.status).toBe(400);
    const badSelector = await call(s.srv, 'list_resources', {
      kind: 'pods',
      label_selector: 'app in (a b',
    });
    expect(badSelector.status).toBe(400);
    const badField = await call(s.srv, 'list_resources', {
      kind: 'pods',
      field_selector: 'spec.image=x',
    });
    expect(badField).toEqual({
      status: 400,
      body: { error: 'field label not supported: spec.image', code: 'invalid_request' },
    });
    const missing = await call(s.srv, 'describe_resource', {
      kind: 'deploy',
      name: 'ghost',
      namespace: 'shop',
    });
    expect(missing).toEqual({
      status: 404,
      body: { error: 'deployments.apps "ghost" not found', code: 'not_found' },
    });
    const nowhere = await call(s.srv, 'describe_resource', { kind: 'deploy', name: 'ghost' });
    expect(nowhere.body.error).toBe('deployments.apps "ghost" not found in any namespace');
    const notJson = await fetch(`${s.srv.url}/tools/list_namespaces`, {
      method: 'POST',
      body: '{oops',
    });
    expect(notJson.status).toBe(400);
    const arrayParams = await fetch(`${s.srv.url}/tools/list_namespaces`, {
      method: 'POST',
      body: JSON.stringify({ parameters: [1] }),
    });
    expect(arrayParams.status).toBe(400);
    expect(s.api.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
  });

  it('reuses connections to the API server across calls', async () => {
    const before = s.api.connections;
    const requests = s.api.requests.length;
    for (let i = 0; i < 10; i++)
      await ok(s.srv, 'describe_resource', {
        kind: 'pod',
        name: 'checkout-7d9f8b6c5-x2x4z',
        namespace: 'shop',
      });
    expect(s.api.requests.length - requests).toBe(20);
    // client-node alone opens one connection per request
    expect(s.api.connections - before).toBeLessThanOrEqual(2);
  });

  it('serves the same tools over MCP Streamable HTTP', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.srv.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(10);
      expect(
        tools.every(
          (t) => t.annotations?.readOnlyHint === true && t.annotations?.destructiveHint === false,
        ),
      ).toBe(true);
      const out = await client.callTool({
        name: 'describe_resource',
        arguments: { kind: 'pod', name: 'checkout-7d9f8b6c5-x2x4z', namespace: 'shop' },
      });
      expect((out.content as Obj[])[0]!.text).toContain('CrashLoopBackOff');
      expect((out.structuredContent as Obj).events).toBe(4);
      const bad = await client.callTool({ name: 'list_resources', arguments: { kind: 'widgets' } });
      expect(bad.isError).toBe(true);
      expect((bad.content as Obj[])[0]!.text).toMatch(/unknown kind "widgets"/);
    } finally {
      await client.close();
    }
  });
});

describe('toolserver-kubernetes: custom resources, found by discovery', () => {
  let s: Started;
  beforeAll(async () => {
    s = await startBoth({}, {}, { customResources: true });
  });
  afterAll(() => s.stop());

  it('lists an Argo CD Application and a Flux Kustomization with their printer columns', async () => {
    const apps = await ok(s.srv, 'list_resources', { kind: 'applications.argoproj.io' });
    expect(apps).toMatchObject({
      kind: 'Application',
      namespace: 'all',
      count: 1,
      items: [
        {
          namespace: 'argocd',
          name: 'pricing-api',
          sync_status: 'OutOfSync',
          health_status: 'Degraded',
        },
      ],
    });
    expect(apps.text.split('\n')[0]).toMatch(/^NAMESPACE +NAME +SYNC STATUS +HEALTH STATUS$/);
    const ks = await ok(s.srv, 'list_resources', {
      kind: 'Kustomization',
      namespace: 'flux-system',
    });
    expect(ks.items).toEqual([
      {
        name: 'apps',
        age: '55d',
        ready: 'False',
        status:
          'Deployment/shop/checkout dry-run failed: Deployment.apps "checkout" is invalid: spec.selector: Invalid value: field is immutable',
      },
    ]);
    const plural = await ok(s.srv, 'list_resources', {
      kind: 'kustomizations.kustomize.toolkit.fluxcd.io',
    });
    expect(plural.count).toBe(1);
    const issuers = await ok(s.srv, 'list_resources', { kind: 'clusterissuer' });
    expect(issuers).toMatchObject({ kind: 'ClusterIssuer', count: 1 });
    expect(issuers.namespace).toBeUndefined();
  });

  it('gets one as YAML and JSON, found by name when the namespace is not given', async () => {
    const app = await ok(s.srv, 'get_resource', { kind: 'application', name: 'pricing-api' });
    expect(app).toMatchObject({ kind: 'Application', name: 'pricing-api', namespace: 'argocd' });
    expect(app.object.apiVersion).toBe('argoproj.io/v1alpha1');
    expect(app.object.status.sync.status).toBe('OutOfSync');
    expect(app.text).toContain('apiVersion: argoproj.io/v1alpha1\nkind: Application\n');
    expect(app.text).toContain('field is immutable');
  });

  it('describes a Kustomization that is not Ready: conditions table and its events', async () => {
    const d = await ok(s.srv, 'describe_resource', {
      kind: 'kustomization',
      name: 'apps',
      namespace: 'flux-system',
    });
    expect(d).toMatchObject({ kind: 'Kustomization', name: 'apps', events: 1 });
    expect(d.text).toContain('Kind:         Kustomization\n');
    expect(d.text).toMatch(
      /Conditions:\n +Type +Status +Reason +Last Transition Time +Message\n[- ]+\n +Ready +False +ReconciliationFailed +Thu, 12 Mar 2026 10:05:00 \+0000 +Deployment\/shop\/checkout dry-run failed/,
    );
    expect(d.text).toMatch(
      /Warning +ReconciliationFailed +5m \(x3 over 25m\) +kustomize-controller/,
    );
    const app = await ok(s.srv, 'describe_resource', {
      kind: 'applications.argoproj.io',
      name: 'pricing-api',
    });
    expect(app.text).toContain('SyncError');
    expect(app.text).toMatch(/OperationCompleted +20m +argocd-application-controller/);
    const events = await ok(s.srv, 'get_events', {
      kind: 'Application',
      name: 'pricing-api',
      namespace: 'argocd',
    });
    expect(events.events).toMatchObject([
      { reason: 'OperationCompleted', object: 'application/pricing-api' },
    ]);
    const found = await ok(s.srv, 'find_resources', {
      name_contains: 'pricing',
      kinds: ['applications.argoproj.io', 'deployments'],
    });
    expect(found.matches).toMatchObject([{ kind: 'Application', name: 'pricing-api' }]);
  });

  it('caches discovery, and still answers invalid_input for a truly unknown kind', async () => {
    const discoveries = () => s.api.requests.filter((r) => r === 'GET /apis').length;
    const before = discoveries();
    for (let i = 0; i < 5; i++)
      await ok(s.srv, 'list_resources', { kind: 'applications.argoproj.io' });
    expect(discoveries()).toBe(before);
    const unknown = await call(s.srv, 'list_resources', { kind: 'widgets.example.com' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('invalid_field');
    expect(unknown.body.error).toContain(
      "not a custom resource kind the API server's discovery lists",
    );
    // built-in kinds never ask discovery; the built-in wins a short name
    const svc = await ok(s.srv, 'list_resources', { kind: 'svc', namespace: 'shop' });
    expect(svc.kind).toBe('Service');
  });
});

describe('toolserver-kubernetes policies and cluster answers', () => {
  it('confines every tool to the namespace allow-list', async () => {
    const s = await startBoth({}, { namespaces: ['shop'] });
    try {
      const outside = await call(s.srv, 'list_resources', {
        kind: 'pods',
        namespace: 'kube-system',
      });
      expect(outside.status).toBe(403);
      expect(outside.body.error).toBe(
        `namespace "kube-system" is outside this tool server's namespace allow-list (allowed: shop)`,
      );
      const all = await ok(s.srv, 'list_resources', { kind: 'pods' });
      expect(new Set(all.items.map((i: Obj) => i.namespace))).toEqual(new Set(['shop']));
      expect((await ok(s.srv, 'list_namespaces')).namespaces.map((n: Obj) => n.name)).toEqual([
        'shop',
      ]);
      expect(
        (
          await call(s.srv, 'get_pod_logs', {
            namespace: 'kube-system',
            pod: 'coredns-76f75df574-9xk2p',
          })
        ).status,
      ).toBe(403);
      expect(
        (await call(s.srv, 'describe_resource', { kind: 'deploy', name: 'coredns' })).status,
      ).toBe(404);
      expect(s.api.requests.some((r) => r.includes('kube-system'))).toBe(false);
    } finally {
      await s.stop();
    }
  });

  it('passes RBAC denials on as 403 with the API server message', async () => {
    const s = await startBoth({
      forbidden: [{ verb: 'list', resource: 'pods' }, { resource: 'namespaces' }],
    });
    try {
      const denied = await call(s.srv, 'list_resources', { kind: 'pods', namespace: 'shop' });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toBe(
        'pods is forbidden: User "system:serviceaccount:inquest:toolserver" cannot list resource "pods" in API group "" in the namespace "shop"',
      );
      expect((await call(s.srv, 'list_namespaces')).status).toBe(403);
      // describe still works when the related pods cannot be listed, as kubectl describe does
      const node = await ok(s.srv, 'describe_resource', { kind: 'node', name: 'node-a' });
      expect(node.text).toContain('Non-terminated Pods:          (0 in total)');
    } finally {
      await s.stop();
    }
  });

  it('lists Secret names and keys when opted in, never values; shows ConfigMap values when allowed', async () => {
    const s = await startBoth({}, { secrets: true, configMapValues: true });
    try {
      const list = await ok(s.srv, 'list_resources', { kind: 'secrets', namespace: 'shop' });
      expect(list.items).toEqual([{ name: 'checkout-db', type: 'Opaque', data: '2', age: '39d' }]);
      const one = await ok(s.srv, 'get_resource', {
        kind: 'secret',
        name: 'checkout-db',
        namespace: 'shop',
      });
      expect(one.object.data).toEqual({
        password: '<15 bytes, value never shown>',
        username: '<8 bytes, value never shown>',
      });
      const described = await ok(s.srv, 'describe_resource', {
        kind: 'secret',
        name: 'checkout-db',
        namespace: 'shop',
      });
      const everything = JSON.stringify([list, one, described]);
      expect(everything).not.toContain('czNjcjN0LXBhc3N3b3Jk');
      expect(everything).not.toContain('s3cr3t-password');
      expect(described.text).toContain('password:  15 bytes');
      const cm = await ok(s.srv, 'get_resource', {
        kind: 'cm',
        name: 'checkout-config',
        namespace: 'shop',
      });
      expect(cm.object.data.payment_url).toBe('http://payments.shop.svc:8080');
    } finally {
      await s.stop();
    }
  });

  it('says metrics-server is not installed when the cluster has no metrics API', async () => {
    const s = await startBoth({}, {}, { metrics: false });
    try {
      for (const tool of ['top_pods', 'top_nodes']) {
        const r = await call(s.srv, tool);
        expect(r.status).toBe(503);
        expect(r.body).toMatchObject({ code: 'metrics_unavailable' });
        expect(r.body.error).toMatch(/^metrics-server not installed/);
      }
    } finally {
      await s.stop();
    }
  });

  it('answers /health 503 when the API server is gone, and 401 without the token', async () => {
    const s = await startBoth({}, { token: 'tok-0123456789abcdef' });
    try {
      expect((await fetch(`${s.srv.url}/tools`)).status).toBe(401);
      const auth = { authorization: 'Bearer tok-0123456789abcdef' };
      expect((await fetch(`${s.srv.url}/health`, { headers: auth })).status).toBe(200);
      await s.api.close();
      const res = await fetch(`${s.srv.url}/health`, { headers: auth });
      expect(res.status).toBe(503);
      const tool = await fetch(`${s.srv.url}/tools/list_namespaces`, {
        method: 'POST',
        headers: auth,
        body: '{}',
      });
      expect(tool.status).toBe(503);
      expect(((await tool.json()) as Obj).error).toMatch(/^cannot reach the Kubernetes API/);
    } finally {
      await s.srv.stop();
    }
  });
});

describe('toolserver-kubernetes as its process starts it (start(env))', () => {
  it('serves with a kubeconfig and a namespace allow-list from the environment', async () => {
    const index = new WorldIndex(world());
    const api = await startFakeKubeApiServer(index);
    const srv = await start({
      INQUEST_KUBECONFIG: writeKubeconfig(api.url, { context: 'staging' }),
      INQUEST_KUBE_CONTEXT: 'staging',
      INQUEST_K8S_TOOLSERVER_PORT: '0',
      INQUEST_KUBE_NAMESPACES: 'shop',
      INQUEST_LOG_LEVEL: 'silent',
    });
    try {
      expect((await fetch(`${srv.url}/health`)).status).toBe(200);
      expect(
        (await call(srv, 'list_resources', { kind: 'pods', namespace: 'kube-system' })).status,
      ).toBe(403);
    } finally {
      await srv.stop();
      await api.close();
    }
  });

  it('says in one line what is wrong with the environment', async () => {
    const quiet = { INQUEST_LOG_LEVEL: 'silent', INQUEST_K8S_TOOLSERVER_PORT: '0' };
    await expect(
      start({ ...quiet, INQUEST_KUBECONFIG: '/nonexistent/config' }),
    ).rejects.toMatchObject({
      name: 'EnvError',
      message: 'INQUEST_KUBECONFIG: kubeconfig /nonexistent/config does not exist',
    });
    const kubeconfig = writeKubeconfig('http://127.0.0.1:1');
    await expect(
      start({ ...quiet, INQUEST_KUBECONFIG: kubeconfig, INQUEST_KUBE_CONTEXT: 'prod' }),
    ).rejects.toMatchObject({
      name: 'EnvError',
      message: 'INQUEST_KUBE_CONTEXT: context "prod" is not in the kubeconfig (contexts: fake)',
    });
    await expect(
      start({ ...quiet, INQUEST_KUBECONFIG: kubeconfig, INQUEST_KUBE_SECRETS: 'maybe' }),
    ).rejects.toMatchObject({ name: 'EnvError' });
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      await expect(
        start({
          ...quiet,
          INQUEST_KUBECONFIG: kubeconfig,
          INQUEST_K8S_TOOLSERVER_PORT: String(port),
        }),
      ).rejects.toMatchObject({
        name: 'StartupError',
        message: `port ${port} is in use (another Inquest or another program): set INQUEST_K8S_TOOLSERVER_PORT to a free port`,
      });
    } finally {
      busy.close();
    }
  });
});
