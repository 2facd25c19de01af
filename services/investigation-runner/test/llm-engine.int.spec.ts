import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InProcessEventBus, Subjects, type EventBus } from '@inquest/events';
import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import { startScriptedChatServer, type ScriptedChatServer } from '@inquest/llm/testing';
import { silentLogger } from '@inquest/observability';
import { agentEnum, investigationV1 } from '@inquest/proto';
import {
  k8sTools,
  startConfigServiceDouble,
  startKnowledgeServiceDouble,
  startToolServiceDouble,
  tempDir,
  waitFor,
  type ConfigServiceDouble,
  type KnowledgeServiceDouble,
  type ToolServiceDouble,
} from '@inquest/testing';
import { start, type RunningService } from '../src/main';

let config: ConfigServiceDouble;
let toolServer: ToolServiceDouble;
let knowledge: KnowledgeServiceDouble;
let llm: ScriptedChatServer;
let bus: EventBus;
let runner: RunningService;
let client: PromiseClient<investigationV1.InvestigationServiceClient>;
const root = tempDir();
let n = 0;
const events: { subject: string; data: { investigation?: { investigation_id: string } } }[] = [];

const VALID = {
  summary: 'checkout is OOMKilled after the 2.4.0 rollout',
  root_cause: {
    description: 'checkout memory limit too low',
    confidence: 82,
    evidence: ['k8s:list_pods: checkout OOMKilled exit 137'],
  },
  timeline: [{ timestamp: '2026-03-01T10:10:00Z', event: 'checkout OOMKilled' }],
  affected_systems: ['checkout'],
  recommendations: [{ priority: 'high', action: 'Raise the memory limit of checkout' }],
};

beforeAll(async () => {
  config = await startConfigServiceDouble({ unknownTeam: 'empty' });
  toolServer = await startToolServiceDouble();
  knowledge = await startKnowledgeServiceDouble();
});
afterAll(async () => {
  await Promise.all([config.stop(), toolServer.stop(), knowledge.stop()]);
});

beforeEach(async () => {
  toolServer.tools = k8sTools();
  toolServer.calls.length = 0;
  config.effective.clear();
  llm = await startScriptedChatServer();
  bus = new InProcessEventBus();
  events.length = 0;
  await bus.subscribe('inquest.v1.investigation.>', async (m) => {
    events.push({ subject: m.subject, data: m.data as never });
  });
  const dataDir = join(root, `d${++n}`);
  const secrets = join(root, `secrets-${n}.json`);
  writeFileSync(secrets, JSON.stringify({ 'llm/openai': 'sk-from-vault' }));
  runner = await start(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_TOOLS_ADDR: toolServer.address,
      INQUEST_KNOWLEDGE_ADDR: knowledge.address,
      INQUEST_DATA_DIR: dataDir,
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_LLM_BASE_URL: llm.baseUrl,
      INQUEST_LLM_API_KEY: 'vault://llm/openai',
      INQUEST_SECRETS_FILE: secrets,
      INQUEST_LLM_MODEL: 'scripted-1',
      INQUEST_LLM_TIMEOUT_MS: '2000',
    },
    { bus, logger: silentLogger() },
  );
  client = createClient(investigationV1.InvestigationServiceClient, runner.address, {
    deadlineMs: 20_000,
  });
});

afterEach(async () => {
  client.close();
  await runner.stop();
  await llm.stop();
  await bus.close();
});

/** A run request as a current gateway sends it: the agent as the enum and as the string. */
const run = (over: Partial<investigationV1.RunInvestigationRequest> = {}) =>
  client.runInvestigation({
    team_id: 'team-a',
    agent_name: over.agent_name ?? 'k8s_agent',
    agent_name_enum: agentEnum.toProto(over.agent_name ?? 'k8s_agent'),
    message: 'checkout pods keep restarting',
    context: { namespace: 'shop' },
    async: false,
    ...over,
  });

describe('LLM engine', () => {
  it('runs the tool-calling loop with the agent prompt, repairs an invalid answer once', async () => {
    config.effective.set('team-a', {
      agents: { k8s_agent: { prompt: 'You are the checkout team SRE.' } },
    });
    llm.script.push(
      {
        toolCalls: [
          { name: 'k8s__list_pods', arguments: { namespace: 'shop' } },
          { name: 'knowledge_search', arguments: { query: 'checkout OOM' } },
        ],
      },
      { content: 'I believe it is memory. {"summary": 1}' },
      { content: JSON.stringify(VALID) },
    );
    const { investigation: inv } = await run();
    expect(inv?.status).toBe('completed');
    expect(inv?.result?.root_cause).toEqual(VALID.root_cause);
    expect(inv?.result?.timeline).toEqual([
      { timestamp: '2026-03-01T10:10:00.000Z', event: 'checkout OOMKilled' },
    ]);
    expect(inv?.tools_used).toEqual(expect.arrayContaining(['k8s:list_pods', 'knowledge_search']));
    expect(toolServer.calls[0]).toMatchObject({
      tool: 'k8s:list_pods',
      params: { namespace: 'shop' },
    });
    const first = llm.requests[0]!;
    expect(first.authorization).toBe('Bearer sk-from-vault');
    expect(first.model).toBe('scripted-1');
    expect(first.messages[0]?.content).toMatch(/^You are the checkout team SRE\./);
    expect(first.tools?.map((t) => t.function.name)).toEqual(
      expect.arrayContaining([
        'k8s__list_pods',
        'k8s__describe_pod',
        'knowledge_search',
        'similar_incidents',
        'learned_patterns',
      ]),
    );
    // the tool output went back to the model, the repair round named the problem
    expect(
      llm.requests[1]?.messages.some((m) => m.role === 'tool' && /OOMKilled/.test(m.content ?? '')),
    ).toBe(true);
    expect(llm.requests[2]?.messages.at(-1)?.content).toMatch(/not valid/);
  });

  it('truncates huge tool outputs before they reach the model', async () => {
    toolServer.tools[0]!.handler = async () => ({ blob: 'z'.repeat(200_000) });
    llm.script.push(
      { toolCalls: [{ name: 'k8s__list_pods', arguments: { namespace: 'shop' } }] },
      { content: JSON.stringify(VALID) },
    );
    const { investigation: inv } = await run();
    expect(inv?.status).toBe('completed');
    const toolMsg = llm.requests[1]?.messages.find((m) => m.role === 'tool');
    expect(toolMsg!.content!.length).toBeLessThan(7000);
    expect(toolMsg!.content).toMatch(/truncated/);
  });

  it('fails with llm_unavailable after a second invalid answer', async () => {
    llm.script.push({ content: 'no json here' }, { content: '{"summary": "x"}' });
    const { investigation: inv } = await run();
    expect(inv?.status).toBe('failed');
    expect(inv?.error?.code).toBe('llm_unavailable');
  });

  it('fails with llm_unavailable when the API answers 500', async () => {
    llm.fallback = () => ({ status: 500 });
    const { investigation: inv } = await run();
    expect(inv?.error?.code).toBe('llm_unavailable');
    expect(events.filter((e) => e.subject === Subjects.investigationFailed)).toHaveLength(1);
  });

  it('cancel aborts the pending LLM request', async () => {
    llm.script.push({ hang: true });
    const { investigation: inv } = await run({ async: true });
    const id = inv!.investigation_id;
    await waitFor(() => llm.requests.length > 0);
    await client.cancelInvestigation({ team_id: 'team-a', investigation_id: id });
    await new Promise((r) => setTimeout(r, 300));
    const after = (await client.getInvestigation({ team_id: 'team-a', investigation_id: id }))
      .investigation;
    expect(after?.status).toBe('cancelled');
    await waitFor(() => llm.abandoned === 1);
    expect(
      events.filter((e) => e.data.investigation?.investigation_id === id).map((e) => e.subject),
    ).toEqual([Subjects.investigationCancelled]);
  });
});
