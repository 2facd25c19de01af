import { OpenAiChatModel } from '@inquest/llm';
import { startScriptedChatServer, type ScriptedChatServer } from '@inquest/llm/testing';
import {
  ago,
  engineRun,
  FakeGateway,
  FakeKnowledge,
  jsonTools,
  kubeEvent,
  type FakeTool,
  type JsonWorld,
} from './deterministic/spec-world';
import { LlmEngine, type LlmEngineOptions } from './llm-engine';

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
            resources: { limits: { memory: '256Mi' } },
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
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: {
              terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: ago(2) },
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
};

const str = { type: 'string' } as const;
const writeTools = (): FakeTool[] => [
  {
    name: 'restart_deployment',
    description: 'Restart the pods of a deployment.',
    properties: { name: str, namespace: str },
    required: ['name'],
    handler: () => ({ restarted: true }),
  },
  {
    name: 'pods_delete',
    description: 'Pod by name',
    properties: { name: str, namespace: str },
    annotations: { destructiveHint: true },
    handler: () => ({ deleted: true }),
  },
  {
    name: 'resources_apply',
    description: 'A resource from YAML',
    properties: { resource: str },
    annotations: { readOnlyHint: false },
    handler: () => ({ applied: true }),
  },
];

const VALID = {
  summary: 'checkout is OOMKilled',
  root_cause: {
    description: 'checkout exceeds its 256Mi memory limit',
    confidence: 85,
    evidence: ['k8s:pods_get: checkout OOMKilled exit 137'],
  },
  timeline: [],
  affected_systems: ['checkout'],
  recommendations: [{ priority: 'high', action: 'Raise the memory limit of checkout' }],
};

let llm: ScriptedChatServer;
beforeEach(async () => {
  llm = await startScriptedChatServer();
});
afterEach(async () => {
  await llm.stop();
});

function engine(gateway: FakeGateway, options: LlmEngineOptions = {}) {
  const model = new OpenAiChatModel({
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'scripted-1',
    maxRetries: 0,
    timeoutMs: 5000,
  });
  return new LlmEngine(model, gateway, new FakeKnowledge(), options);
}

const BUILTINS = ['knowledge_search', 'similar_incidents', 'learned_patterns'];

describe('LLM engine: head start and read-only', () => {
  it('the first message carries the deterministic scope and findings', async () => {
    const gateway = new FakeGateway(jsonTools(world));
    llm.script.push({ content: JSON.stringify(VALID) });
    const out = await engine(gateway).run(
      engineRun('checkout pods keep restarting', { namespace: 'shop', service: 'checkout' }),
    );
    expect(out.result.root_cause.description).toBe(VALID.root_cause.description);
    const first = llm.requests[0]!.messages.find((m) => m.role === 'user')!.content!;
    expect(first).toMatch(/^Incident: checkout pods keep restarting/);
    expect(first).toMatch(/Head start: a deterministic, read-only pre-investigation/);
    expect(first).toMatch(/Scope: checkout \(namespace shop\)/);
    expect(first).toMatch(/Tool calls already made: .*k8s:pods_list/);
    expect(first).toMatch(/OOMKilled/);
    expect(first).toMatch(/256Mi/);
    // the head start's calls count as made
    expect(out.toolsUsed).toEqual(expect.arrayContaining(['k8s:pods_list']));
    expect(gateway.calls.length).toBeGreaterThan(0);
  });

  it('headStart: false gives the model the request only', async () => {
    const gateway = new FakeGateway(jsonTools(world));
    llm.script.push({ content: JSON.stringify(VALID) });
    const out = await engine(gateway, { headStart: false }).run(
      engineRun('checkout pods keep restarting', { namespace: 'shop' }),
    );
    expect(llm.requests[0]!.messages[1]!.content).not.toMatch(/Head start/);
    expect(gateway.calls).toEqual([]);
    expect(out.toolsUsed).toEqual([]);
  });

  for (const [label, effective] of [
    ['write actions off', {}],
    [
      'enable_write_actions and enable_auto_mitigation on',
      { feature_flags: { enable_write_actions: true, enable_auto_mitigation: true } },
    ],
  ] as const)
    it(`${label}: write tools are not offered; a call to one is refused, reported and not made`, async () => {
      const gateway = new FakeGateway([...writeTools(), ...jsonTools(world)]);
      llm.script.push(
        {
          toolCalls: [
            { name: 'k8s__restart_deployment', arguments: { name: 'checkout', namespace: 'shop' } },
            { name: 'k8s__pods_delete', arguments: { name: POD, namespace: 'shop' } },
            { name: 'k8s__pods_get', arguments: { name: POD, namespace: 'shop' } },
          ],
        },
        { content: JSON.stringify(VALID) },
      );
      const out = await engine(gateway).run(
        engineRun('checkout pods keep restarting, restart them', { namespace: 'shop' }, effective),
      );
      const writes = ['k8s:restart_deployment', 'k8s:pods_delete', 'k8s:resources_apply'];
      // not offered
      const offered = llm.requests[0]!.tools!.map((t) => t.function.name);
      expect(offered).toEqual(expect.arrayContaining(['k8s__pods_get', 'k8s__pods_list']));
      for (const w of writes) expect(offered).not.toContain(w.replace(':', '__'));
      // refused, not called (neither by the head start nor the loop)
      const called = [...new Set(gateway.calls.map((c) => c.tool))];
      expect(called.filter((t) => writes.includes(t))).toEqual([]);
      const toolMsgs = llm.requests[1]!.messages.filter((m) => m.role === 'tool');
      expect(toolMsgs).toHaveLength(3);
      expect(toolMsgs[0]!.content).toMatch(/"error":"refused".*restart_deployment/);
      expect(toolMsgs[1]!.content).toMatch(/"error":"refused".*pods_delete/);
      expect(toolMsgs[2]!.content).toMatch(/OOMKilled/);
      // reported
      expect(out.result.root_cause.evidence.join('\n')).toMatch(
        /read-only: refused 2 call\(s\) .*k8s:restart_deployment, k8s:pods_delete/,
      );
      // tools_used: exactly the calls made
      expect(out.toolsUsed.filter((t) => writes.includes(t))).toEqual([]);
      expect([...out.toolsUsed].sort()).toEqual(
        [...called, ...out.toolsUsed.filter((t) => BUILTINS.includes(t))].sort(),
      );
    });
});
