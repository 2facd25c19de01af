/**
 * Issue 13 "Tests": a destructive tool is never called in any mode; the same evidence gives the
 * same confidence, and a learned pattern raises it only when this run's evidence matches it.
 */
import {
  ago,
  FakeKnowledge,
  investigate,
  jsonTools,
  kubeEvent,
  type FakeTool,
  type JsonWorld,
} from './spec-world';

const POD = 'checkout-7d9f8b6c5-x2x4z';

/** checkout OOMKilled, as the API server returns it */
const world: JsonWorld = {
  objects: [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: POD,
        namespace: 'shop',
        labels: { app: 'checkout', 'pod-template-hash': '7d9f8b6c5' },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'checkout-7d9f8b6c5' },
        ],
      },
      spec: {
        nodeName: 'worker-1',
        containers: [
          {
            name: 'checkout',
            image: 'registry.example.com/shop/checkout:2.4.0',
            resources: { limits: { memory: '256Mi' }, requests: { memory: '256Mi' } },
          },
        ],
      },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'checkout',
            ready: false,
            restartCount: 7,
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
            lastState: {
              terminated: {
                exitCode: 137,
                reason: 'OOMKilled',
                startedAt: ago(3),
                finishedAt: ago(2),
              },
            },
          },
        ],
      },
    },
  ],
  events: [
    kubeEvent(
      'shop',
      { kind: 'Pod', name: POD },
      'Warning',
      'BackOff',
      `Back-off restarting failed container checkout in pod ${POD}_shop(1a2b3c4d)`,
      40,
      1,
      30,
    ),
  ],
  logs: { [POD]: '' },
};

const str = { type: 'string' } as const;
const never = (name: string) => () => {
  throw new Error(`${name} must never be called`);
};

/** tools that can change the cluster, told apart in every way the issue lists */
const writeTools: FakeTool[] = [
  {
    name: 'restart_deployment',
    description: 'Restart the pods of a deployment (rollout restart).',
    properties: { name: str, namespace: str },
    required: ['name'],
    handler: never('restart_deployment'),
  },
  {
    name: 'pods_delete',
    description: 'Pod by name',
    properties: { name: str, namespace: str },
    required: ['name'],
    annotations: { destructiveHint: true },
    handler: never('pods_delete'),
  },
  {
    name: 'resources_create_or_update',
    description: 'Kubernetes resource from YAML',
    properties: { resource: str },
    required: ['resource'],
    annotations: { readOnlyHint: false },
    handler: never('resources_create_or_update'),
  },
  {
    // reads like a getter, but the tool server's definition says destructive (the contract's
    // `destructive` flag travels as the destructiveHint annotation)
    name: 'pods_get_and_fix',
    description: 'Get a pod and fix what is wrong with it',
    properties: { name: str, namespace: str },
    required: ['name'],
    annotations: { destructiveHint: true, readOnlyHint: true },
    handler: never('pods_get_and_fix'),
  },
  {
    name: 'scale_workload',
    description: 'Set the replicas of a deployment',
    properties: { name: str, namespace: str, replicas: { type: 'integer' } },
    required: ['name', 'replicas'],
    handler: never('scale_workload'),
  },
  {
    name: 'pods_exec',
    description: 'Run a command in a pod container',
    properties: { name: str, namespace: str, command: str },
    required: ['name', 'command'],
    handler: never('pods_exec'),
  },
  {
    name: 'node_drain',
    description: 'Drain a node',
    properties: { node: str },
    required: ['node'],
    handler: never('node_drain'),
  },
];

const BUILTINS = ['knowledge_search', 'similar_incidents', 'learned_patterns'];

describe('a destructive tool is never called in any mode', () => {
  const modes: [string, Record<string, unknown>][] = [
    ['write actions off', {}],
    [
      'enable_write_actions and enable_auto_mitigation on',
      { feature_flags: { enable_write_actions: true, enable_auto_mitigation: true } },
    ],
  ];
  for (const [label, effective] of modes)
    it(`${label}: write tools are listed but never called; tools_used lists only calls made`, async () => {
      const { result, toolsUsed, gateway } = await investigate(
        [...writeTools, ...jsonTools(world)],
        'checkout pods keep restarting, fix it',
        { namespace: 'shop', service: 'checkout' },
        { effective },
      );
      const writes = writeTools.map((t) => `k8s:${t.name}`);
      const called = [...new Set(gateway.calls.map((c) => c.tool))];
      expect(called.filter((t) => writes.includes(t))).toEqual([]);
      expect(toolsUsed.filter((t) => writes.includes(t))).toEqual([]);
      // tools_used: exactly the tools called (tool-server calls and built-ins)
      expect([...toolsUsed].sort()).toEqual(
        [...called, ...toolsUsed.filter((t) => BUILTINS.includes(t))].sort(),
      );
      expect(called.length).toBeGreaterThan(0);
      // the investigation still concludes, and says it left the write tools alone
      expect(result.root_cause.description).toMatch(/OOMKilled/);
      expect(result.root_cause.evidence.join('\n')).toMatch(/read-only: \d+ tool\(s\)/);
    });
});

describe('calibrated confidence', () => {
  it('same evidence twice gives the same result and the same confidence', async () => {
    const a = await investigate(jsonTools(world), 'checkout pods keep restarting', {
      namespace: 'shop',
    });
    const b = await investigate(jsonTools(world), 'checkout pods keep restarting', {
      namespace: 'shop',
    });
    expect(a.result.root_cause.confidence).toBe(b.result.root_cause.confidence);
    expect(b.result).toEqual(a.result);
    expect(b.gateway.calls).toEqual(a.gateway.calls);
  });

  it('a learned pattern that does not match the evidence does not raise it; one that matches may', async () => {
    const base = await investigate(jsonTools(world), 'checkout pods keep restarting', {
      namespace: 'shop',
    });
    const unrelated = new FakeKnowledge([
      {
        patternId: 'p-1',
        symptoms: ['kafka broker disk usage above 95%', 'consumer lag growing'],
        rootCause: 'log retention too long on the kafka brokers filled the disk',
        solution: 'lower retention.ms and expand the volume',
        confidence: 0.93,
        occurrences: 12,
      },
    ]);
    const withUnrelated = await investigate(
      jsonTools(world),
      'checkout pods keep restarting',
      { namespace: 'shop' },
      { knowledge: unrelated },
    );
    expect(withUnrelated.result.root_cause.confidence).toBe(base.result.root_cause.confidence);
    expect(withUnrelated.result.recommendations.map((r) => r.action).join('\n')).not.toMatch(
      /retention/,
    );
    const matching = new FakeKnowledge([
      {
        patternId: 'p-2',
        symptoms: ['checkout pods OOMKilled after a traffic spike'],
        rootCause: 'checkout memory limit too low: OOMKilled',
        solution: 'raise the checkout memory limit to 512Mi',
        confidence: 0.9,
        occurrences: 4,
      },
    ]);
    const withMatching = await investigate(
      jsonTools(world),
      'checkout pods keep restarting',
      { namespace: 'shop' },
      { knowledge: matching },
    );
    expect(withMatching.result.root_cause.confidence).toBeGreaterThanOrEqual(
      base.result.root_cause.confidence,
    );
    // re-running with the pattern learned does not climb further
    const again = await investigate(
      jsonTools(world),
      'checkout pods keep restarting',
      { namespace: 'shop' },
      { knowledge: matching },
    );
    expect(again.result.root_cause.confidence).toBe(withMatching.result.root_cause.confidence);
  });

  it('generated summaries and past incidents are never cited as runbooks, nor raise confidence', async () => {
    const run = (chunks: ConstructorParameters<typeof FakeKnowledge>[1]) =>
      investigate(
        jsonTools(world),
        'checkout pods keep restarting',
        { namespace: 'shop' },
        { knowledge: new FakeKnowledge([], chunks) },
      );
    const base = await run([]);
    const generated = await run([
      {
        id: 'c1',
        documentId: 'd1',
        content: 'checkout OOMKilled after the 2.4.0 rollout; memory limit raised',
        score: 0.92,
        level: 'L2',
        type: 'summary',
        title: 'Summary of 3 chunks',
      },
      {
        id: 'c2',
        documentId: 'inv-0',
        content: 'Root cause: a recent deploy of cart (48%)',
        score: 0.9,
        level: 'L3',
        type: 'incident',
        title: 'Investigation inv-0',
      },
    ]);
    const recs = (r: typeof base) => r.result.recommendations.map((x) => x.action).join('\n');
    expect(recs(generated)).not.toMatch(/runbook/i);
    expect(generated.result.root_cause.confidence).toBe(base.result.root_cause.confidence);
    const authored = await run([
      {
        id: 'c3',
        documentId: 'rb-1',
        content:
          'When checkout is OOMKilled: check the heap settings, then raise the memory limit.',
        score: 0.8,
        level: 'L0',
        type: 'runbook',
        title: 'Checkout memory runbook',
      },
    ]);
    expect(recs(authored)).toMatch(/Follow the runbook "Checkout memory runbook"/);
    expect(authored.result.root_cause.confidence).toBe(base.result.root_cause.confidence);
  });
});

describe('a tool server whose every Kubernetes tool declares it can change the cluster', () => {
  // read tools by their names, but marked as mcp-go marks every tool that sets no hints itself
  const hinted = { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
  const only: FakeTool[] = [
    {
      name: 'kubectl_resources',
      description: 'Run kubectl get or describe on Kubernetes resources',
      properties: { operation: str, resource: str, args: str },
      required: ['operation', 'resource', 'args'],
      annotations: hinted,
      handler: never('kubectl_resources'),
    },
    {
      name: 'kubectl_diagnostics',
      description: 'Kubernetes pod logs, events and top',
      properties: { operation: str, resource: str, args: str },
      required: ['operation', 'resource', 'args'],
      annotations: hinted,
      handler: never('kubectl_diagnostics'),
    },
  ];

  it('calls none of them and says it could not investigate, not "No problem found"', async () => {
    const { result, gateway } = await investigate(only, 'checkout keeps restarting', {
      namespace: 'shop',
    });
    expect(gateway.calls.filter((c) => !BUILTINS.includes(c.tool))).toEqual([]);
    expect(result.root_cause.description).toMatch(/^Could not investigate: no cluster data/);
    expect(result.root_cause.description).toMatch(/kubectl_resources/);
    expect(result.root_cause.description).toMatch(/destructiveHint/);
    expect(result.root_cause.confidence).toBe(0);
    expect(result.recommendations[0]!.action).toMatch(/readOnlyHint: true/);
  });

  it('near miss: with one read-only tool beside them that finds nothing, it is "No problem found"', async () => {
    const { result } = await investigate(
      [
        ...only,
        {
          name: 'pods_list',
          description: 'List pods',
          properties: { namespace: str },
          annotations: { readOnlyHint: true },
          handler: () => ({ kind: 'PodList', apiVersion: 'v1', items: [] }),
        },
      ],
      'checkout keeps restarting',
      { namespace: 'shop' },
    );
    expect(result.root_cause.description).toMatch(/^No problem found/);
  });
});
