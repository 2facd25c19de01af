import { DomainError, type DomainError as DomainErrorType } from '@inquest/errors';
import { checkDataSources, planRun, type AgentPlan } from './agent-tools';
import type { AgentName } from './agents';
import type { EngineRun } from './engine';
import type { ToolDescriptor, ToolGateway, ToolListing } from './ports';

const tool = (server: string, name: string, description: string): ToolDescriptor => ({
  fullName: `${server}:${name}`,
  server,
  name,
  description,
  parameters: { type: 'object', properties: {} },
});

const LISTING: ToolListing = {
  tools: [tool('k8s', 'list_pods', 'Lists Kubernetes pods')],
  servers: [{ name: 'k8s', enabled: true, healthy: true, breakerState: 'closed' }],
};

function aRun(over: Partial<EngineRun> = {}): EngineRun {
  return {
    teamId: 'payments',
    investigationId: 'inv-1',
    agent: 'planner',
    message: 'pods crash after the deploy',
    context: {},
    effective: {},
    requestId: 'req-1',
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    progress: () => undefined,
    ...over,
  };
}

function gateway(answer: () => Promise<ToolListing>) {
  const seen: Array<[string, string | undefined]> = [];
  const g: ToolGateway = {
    listTools: (teamId, _signal, requestId) => {
      seen.push([teamId, requestId]);
      return answer();
    },
    callTool: () => Promise.reject(new Error('not called here')),
  };
  return { g, seen };
}

const failure = (fn: () => void): DomainErrorType | undefined => {
  try {
    fn();
  } catch (err) {
    return err as DomainErrorType;
  }
  return undefined;
};

describe('planRun', () => {
  it("plans the planner's sub-agents (enabled ones) with their tools, listing once", async () => {
    const { g, seen } = gateway(async () => LISTING);
    const plan = await planRun(
      aRun({ effective: { agents: { coding_agent: { enabled: false, prompt: 'x' } } } }),
      g,
    );
    expect(seen).toEqual([['payments', 'req-1']]);
    expect(plan.subAgents.map((s) => s.agent)).toEqual<AgentName[]>([
      'k8s_agent',
      'investigation_agent',
    ]);
    expect(plan.subAgents[0]!.tools.map((t) => t.fullName)).toContain('k8s:list_pods');
    expect(plan.listing).toBe(LISTING);
    expect(plan.listingError).toBeUndefined();
  });

  it('runs a named agent alone, with its prompt', async () => {
    const { g } = gateway(async () => LISTING);
    const plan = await planRun(
      aRun({ agent: 'cloud_agent', effective: { agents: { cloud_agent: { prompt: 'Cloud!' } } } }),
      g,
    );
    expect(plan.subAgents.map((s) => [s.agent, s.prompt])).toEqual([['cloud_agent', 'Cloud!']]);
  });

  it('keeps planning with the built-ins when the tools cannot be listed', async () => {
    const { g } = gateway(() => Promise.reject(new Error('socket hang up')));
    const plan = await planRun(aRun({ agent: 'k8s_agent' }), g);
    expect(plan.listingError?.code).toBe('data_source_unavailable');
    expect(plan.subAgents[0]!.tools.every((t) => t.server === '')).toBe(true);
    const own = new DomainError('timeout', 'timeout', 'proxy too slow');
    const { g: slow } = gateway(() => Promise.reject(own));
    expect((await planRun(aRun(), slow)).listingError).toBe(own);
  });

  it('gives up when the run was aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const { g } = gateway(() => Promise.reject(new Error('aborted')));
    await expect(planRun(aRun({ signal: ac.signal }), g)).rejects.toThrow('aborted');
  });
});

describe('checkDataSources', () => {
  const plan = (over: Partial<AgentPlan> = {}): AgentPlan => ({
    subAgents: [{ agent: 'k8s_agent', tools: [] }],
    listing: LISTING,
    ...over,
  });
  const stats = (attempts: number, successes: number, unreachable: number) => ({
    externalAttempts: attempts,
    externalSuccesses: successes,
    externalUnreachable: unreachable,
  });

  it('passes when a tool server answered, or nothing was needed from healthy servers', () => {
    expect(failure(() => checkDataSources(plan(), stats(3, 1, 2)))).toBeUndefined();
    expect(failure(() => checkDataSources(plan(), stats(0, 0, 0)))).toBeUndefined();
  });

  it('fails when the tools could not be listed', () => {
    const err = failure(() =>
      checkDataSources(
        plan({ listingError: new DomainError('unavailable', 'unavailable', 'proxy down') }),
        stats(0, 0, 0),
      ),
    );
    expect([err?.code, err?.message]).toEqual([
      'data_source_unavailable',
      'tool servers could not be reached: proxy down',
    ]);
  });

  it('fails when every external call found its server unreachable', () => {
    expect(failure(() => checkDataSources(plan(), stats(2, 0, 2)))?.message).toBe(
      'every tool server the agent needed was unreachable',
    );
    // a call the server answered with an error is not unreachability
    expect(failure(() => checkDataSources(plan(), stats(2, 0, 1)))).toBeUndefined();
  });

  it('fails when every enabled server is down and no external tool was planned', () => {
    const down: ToolListing = {
      tools: [],
      servers: [
        { name: 'k8s', enabled: true, healthy: false, breakerState: 'open' },
        { name: 'off', enabled: false, healthy: true, breakerState: 'closed' },
      ],
    };
    // it names the servers that are down (not the disabled one) and where to see why
    expect(failure(() => checkDataSources(plan({ listing: down }), stats(0, 0, 0)))?.message).toBe(
      "every enabled tool server is down: k8s (breaker open); the team's tool list (GET /api/v1/tools) has each one's last error",
    );
    const withTool = plan({
      listing: down,
      subAgents: [{ agent: 'k8s_agent', tools: [tool('k8s', 'list_pods', '')] }],
    });
    expect(failure(() => checkDataSources(withTool, stats(0, 0, 0)))).toBeUndefined();
  });
});
