import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Scenario } from '../scenario';
import { executeGoTemplate } from './go-template';
import { vocabularies } from './index';

/** A small world: a crashing single-container pod, a two-container pod, their Deployment. */
const WORLD: Scenario = {
  id: 'mcp-k8s-go-spec',
  class: 'crashloop_config',
  title: 'api crashes on a missing env var',
  now: '2026-03-12T10:30:00Z',
  request: { message: 'api keeps restarting', context: { namespace: 'shop' } },
  objects: [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-a', creationTimestamp: '2026-02-01T00:00:00Z' },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api', namespace: 'shop', creationTimestamp: '2026-03-12T10:05:00Z' },
      spec: { replicas: 2 },
      status: { readyReplicas: 1, updatedReplicas: 2, availableReplicas: 1 },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api', namespace: 'shop' },
      spec: { clusterIP: '10.96.0.10', ports: [{ port: 80 }] },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'api-7d9f8b6c5-x2x4z',
        namespace: 'shop',
        labels: { app: 'api', note: 'a<b&c' },
        creationTimestamp: '2026-03-12T10:00:00Z',
        managedFields: [{ manager: 'kubelet' }],
      },
      spec: { containers: [{ name: 'app', image: 'api:1.2.0' }] },
      status: { phase: 'Running' },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-1', namespace: 'shop' },
      spec: {
        initContainers: [{ name: 'init' }],
        containers: [{ name: 'nginx' }, { name: 'sidecar' }],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'api-7d9f8b6c5-x2x4z.2', namespace: 'shop' },
      involvedObject: { kind: 'Pod', name: 'api-7d9f8b6c5-x2x4z', namespace: 'shop' },
      reason: 'BackOff',
      message: 'Back-off restarting failed container app',
      type: 'Warning',
      lastTimestamp: '2026-03-12T10:29:00Z',
    },
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'api-7d9f8b6c5-x2x4z.1', namespace: 'shop' },
      involvedObject: { kind: 'Pod', name: 'api-7d9f8b6c5-x2x4z', namespace: 'shop' },
      reason: 'Scheduled',
      action: 'Binding',
      message: 'Successfully assigned shop/api-7d9f8b6c5-x2x4z to node-a',
      type: 'Normal',
      lastTimestamp: '2026-03-12T10:00:00Z',
    },
  ],
  logs: [
    {
      namespace: 'shop',
      pod: 'api-7d9f8b6c5-x2x4z',
      previous: true,
      text: '2026-03-12T10:24:01Z FATAL missing DATABASE_URL\n',
    },
    {
      namespace: 'shop',
      pod: 'api-7d9f8b6c5-x2x4z',
      text: '2026-03-12T10:00:01Z starting\n2026-03-12T10:29:30Z still starting\n',
    },
  ],
  expected: { healthy: false, subject: ['api'], facts: [['DATABASE_URL']] },
};

describe('vocabulary mcp-k8s-go (strowk/mcp-k8s-go)', () => {
  const vocab = vocabularies().find((v) => v.name === 'mcp-k8s-go')!;
  let running: Awaited<ReturnType<typeof vocab.start>>;
  const client = new Client({ name: 'mcp-k8s-go-spec', version: '0.0.0' });
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
      texts: (res.content as { text: string }[]).map((c) => c.text),
    };
  };
  const ok = (texts: string[]) => ({ isError: false, texts });
  const failed = (text: string) => ({ isError: true, texts: [text] });

  it('lists the default configuration tools by name, as foxy-contexts does, with no annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'apply-k8s-resource',
      'get-k8s-pod-logs',
      'get-k8s-resource',
      'k8s-pod-exec',
      'list-k8s-contexts',
      'list-k8s-events',
      'list-k8s-namespaces',
      'list-k8s-nodes',
      'list-k8s-resources',
    ]);
    expect(tools.every((t) => t.annotations === undefined)).toBe(true);
    const events = tools.find((t) => t.name === 'list-k8s-events')!;
    expect(events.inputSchema).toEqual({
      type: 'object',
      properties: {
        context: { description: 'Name of the Kubernetes context to use', type: 'string' },
        limit: { description: 'Maximum number of events to list', type: 'number' },
        namespace: { description: 'Name of the namespace to list events from', type: 'string' },
      },
      required: ['context', 'namespace'],
    });
    expect(tools.find((t) => t.name === 'list-k8s-contexts')!.inputSchema).toEqual({
      type: 'object',
    });
  });

  it('lists contexts, namespaces and nodes as one JSON text item each', async () => {
    expect(await call('list-k8s-contexts')).toEqual(
      ok(['{"context":{"cluster":"bench","user":"bench-admin"},"name":"bench","current":true}']),
    );
    expect(await call('list-k8s-namespaces')).toEqual(
      ok(['{"name":"default"}', '{"name":"shop"}']),
    );
    expect(await call('list-k8s-nodes', { context: 'bench' })).toEqual(
      ok(['{"name":"node-a","status":"Ready","age":"1mo","created_at":"2026-02-01T00:00:00Z"}']),
    );
    expect(await call('list-k8s-nodes', { context: 'prod' })).toEqual(
      failed('context "prod" does not exist'),
    );
  });

  it('list-k8s-resources: names only, except the Deployment and Service mappings', async () => {
    expect(await call('list-k8s-resources', { kind: 'pod', namespace: 'shop' })).toEqual(
      ok([
        '{"name":"api-7d9f8b6c5-x2x4z","namespace":"shop"}',
        '{"name":"web-1","namespace":"shop"}',
      ]),
    );
    expect(await call('list-k8s-resources', { kind: 'Deployment' })).toEqual(
      ok([
        '{"name":"api","namespace":"shop","age":"25m0s","desired_replicas":2,"ready_replicas":1,"updated_replicas":2,"available_replicas":1,"created_at":"2026-03-12T10:05:00Z"}',
      ]),
    );
    expect(await call('list-k8s-resources', { kind: 'service', version: 'v1' })).toEqual(
      ok([
        '{"name":"api","namespace":"shop","type":"ClusterIP","clusterIP":"10.96.0.10","externalIPs":null,"ports":["80/TCP"]}',
      ]),
    );
    expect(await call('list-k8s-resources', { kind: 'node' })).toEqual(ok(['{"name":"node-a"}']));
    // a namespace lists no cluster-scoped object; an empty list is no content at all
    expect(await call('list-k8s-resources', { kind: 'node', namespace: 'shop' })).toEqual(ok([]));
    expect(await call('list-k8s-resources', { kind: 'pods' })).toEqual(
      failed('resource //pods not found'),
    );
    expect(await call('list-k8s-resources', { kind: 'pod', group: 'core' })).toEqual(
      failed('resource core//pod not found'),
    );
    expect(await call('list-k8s-resources', { namespace: 'shop' })).toEqual(
      failed('missing required property'),
    );
    expect(await call('list-k8s-resources', { kind: 'pod', labelSelector: 'app=api' })).toEqual(
      failed('unknown property labelSelector'),
    );
  });

  it('get-k8s-resource: Go-encoded JSON without managedFields, a go_template, its not-found error', async () => {
    const got = await call('get-k8s-resource', {
      kind: 'Pod',
      name: 'api-7d9f8b6c5-x2x4z',
      namespace: 'shop',
    });
    expect(got.isError).toBe(false);
    expect(got.texts).toHaveLength(1);
    expect(got.texts[0]).toMatch(
      /^\{"apiVersion":"v1","kind":"Pod","metadata":\{"creationTimestamp":"2026-03-12T10:00:00Z","labels":\{"app":"api","note":"a\\u003cb\\u0026c"\},"name":"api-7d9f8b6c5-x2x4z","namespace":"shop"\},"spec":/,
    );
    expect(got.texts[0]).not.toContain('managedFields');
    expect(
      await call('get-k8s-resource', {
        kind: 'pod',
        name: 'api-7d9f8b6c5-x2x4z',
        namespace: 'shop',
        go_template: '{{ .status.phase }} {{ .metadata.labels.note }}{{ .metadata.missing }}',
      }),
    ).toEqual(ok(['Running a&lt;b&amp;c']));
    // a namespaced object is keyed namespace/name: without the namespace it is not found
    expect(await call('get-k8s-resource', { kind: 'pod', name: 'api-7d9f8b6c5-x2x4z' })).toEqual(
      failed('resource //pod//api-7d9f8b6c5-x2x4z not found'),
    );
    expect(await call('get-k8s-resource', { kind: 'node', name: 'node-a' })).toEqual({
      isError: false,
      texts: [expect.stringMatching(/^\{"apiVersion":"v1","kind":"Node",/)],
    });
    expect(
      await call('get-k8s-resource', { kind: 'Deployment', name: 'gone', namespace: 'shop' }),
    ).toEqual(failed('resource //Deployment/shop/gone not found'));
  });

  it('list-k8s-events: in key order, a few fields each; context and namespace required', async () => {
    expect(await call('list-k8s-events', { context: '', namespace: 'shop', limit: 1 })).toEqual(
      ok([
        '{"action":"Binding","message":"Successfully assigned shop/api-7d9f8b6c5-x2x4z to node-a","type":"Normal","reason":"Scheduled","involvedObject":{"kind":"Pod","name":"api-7d9f8b6c5-x2x4z"}}',
      ]),
    );
    expect((await call('list-k8s-events', { context: 'bench', namespace: '' })).texts).toHaveLength(
      2,
    );
    expect(await call('list-k8s-events', { namespace: 'shop' })).toEqual(
      failed('missing required property'),
    );
  });

  it('get-k8s-pod-logs: the log, the previous one, and the API errors', async () => {
    const args = { context: 'bench', namespace: 'shop', pod: 'api-7d9f8b6c5-x2x4z' };
    expect(await call('get-k8s-pod-logs', args)).toEqual(
      ok(['2026-03-12T10:00:01Z starting\n2026-03-12T10:29:30Z still starting\n']),
    );
    expect(await call('get-k8s-pod-logs', { ...args, sinceDuration: '5m' })).toEqual(
      ok(['2026-03-12T10:29:30Z still starting\n']),
    );
    expect(await call('get-k8s-pod-logs', { ...args, previousContainer: true })).toEqual(
      ok(['2026-03-12T10:24:01Z FATAL missing DATABASE_URL\n']),
    );
    expect(await call('get-k8s-pod-logs', { ...args, sinceDuration: '1d' })).toEqual(
      failed(
        'invalid duration: 1d, expected to be in Golang duration format as defined in standard time package',
      ),
    );
    expect(await call('get-k8s-pod-logs', { namespace: 'shop', pod: 'web-1' })).toEqual(
      failed('invalid input: missing required property'),
    );
    expect(await call('get-k8s-pod-logs', { ...args, container: 'app' })).toEqual(
      failed('invalid input: unknown property container'),
    );
    expect(await call('get-k8s-pod-logs', { ...args, pod: 'web-1' })).toEqual(
      failed(
        'a container name must be specified for pod web-1, choose one of: [init nginx sidecar]',
      ),
    );
    expect(await call('get-k8s-pod-logs', { ...args, pod: 'gone' })).toEqual(
      failed('pods "gone" not found'),
    );
  });

  it('refuses its write tools and records them as destructive', async () => {
    const res = await call('k8s-pod-exec', { namespace: 'shop', pod: 'web-1', command: 'ls' });
    expect(res.isError).toBe(true);
    const applied = await call('apply-k8s-resource', { manifest: 'kind: ConfigMap' });
    expect(applied.isError).toBe(true);
    expect(
      running
        .calls()!
        .filter((c) => c.destructive)
        .map((c) => c.tool),
    ).toEqual(['k8s-pod-exec', 'apply-k8s-resource']);
  });
});

describe('Go html/template subset', () => {
  const data = {
    metadata: { name: 'api', labels: { b: '2', a: '1' } },
    spec: {
      containers: [
        { name: 'app', image: 'x:1' },
        { name: 'side', image: 'y:2' },
      ],
    },
    status: { replicas: 3, ratio: 0.5, none: null },
  };

  it('ranges, branches, calls builtins and escapes what it prints', () => {
    expect(
      executeGoTemplate(
        '{{range $i, $c := .spec.containers}}{{if $i}},{{end}}{{$c.name}}={{.image}}{{end}}',
        data,
      ),
    ).toBe('app=x:1,side=y:2');
    expect(
      executeGoTemplate('{{range $k, $v := .metadata.labels}}{{$k}}{{$v}} {{end}}', data),
    ).toBe('a1 b2 ');
    expect(
      executeGoTemplate('{{ len .spec.containers }} {{ index .metadata.labels "a" }}', data),
    ).toBe('2 1');
    expect(
      executeGoTemplate('{{ if eq .status.replicas 3 }}three{{ else }}other{{ end }}', data),
    ).toBe('three');
    expect(executeGoTemplate('{{ printf "%s/%d" .metadata.name .status.replicas }}', data)).toBe(
      'api/3',
    );
    expect(executeGoTemplate('{{ .metadata.labels }}', data)).toBe('map[a:1 b:2]');
    expect(executeGoTemplate('{{- "<x>" -}}  \n', data)).toBe('&lt;x&gt;');
    expect(executeGoTemplate('{{ .nothing.deeper }}', data)).toBe('');
  });

  it("fails as Go's parser and executor do", () => {
    expect(() => executeGoTemplate('{{ toJson . }}', data)).toThrow(
      'template: template:1: function "toJson" not defined',
    );
    expect(() => executeGoTemplate('{{ if .a }}', data)).toThrow(
      'template: template:1: unexpected EOF',
    );
    expect(() => executeGoTemplate('{{ .status.none.x }}', data)).toThrow(
      'template: template:1:3: executing "template" at <.status.none.x>: nil pointer evaluating interface {}.x',
    );
  });
});
