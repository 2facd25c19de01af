import type { ProgressRecord } from '@inquest/store';
import { DeterministicEngine } from './deterministic-engine';
import type { EngineRun } from './engine';
import type { KnowledgeSource, ToolDescriptor, ToolGateway } from './ports';

const tool = (
  name: string,
  description: string,
  properties: Record<string, object>,
): ToolDescriptor => ({
  fullName: `srv:${name}`,
  server: 'srv',
  name,
  description,
  parameters: {
    type: 'object',
    properties: properties as never,
    required: Object.keys(properties),
  },
  annotations: { readOnlyHint: true },
});

describe('DeterministicEngine cancellation', () => {
  it('a cancel while generic and Kubernetes calls are in flight ends the run without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const controller = new AbortController();
    // every call waits for the cancel, then fails
    const hang = (signal?: AbortSignal) =>
      new Promise<never>((_, reject) =>
        signal?.addEventListener('abort', () => setTimeout(() => reject(new Error('aborted')), 5)),
      );
    const gateway: ToolGateway = {
      listTools: async () => ({
        tools: [
          tool('list_pods', 'List pods of a namespace', { namespace: { type: 'string' } }),
          tool('recent_commits', 'Recent commits of a service', { service: { type: 'string' } }),
        ],
        servers: [{ name: 'srv', enabled: true, healthy: true, breakerState: 'closed' }],
      }),
      callTool: (_t, _i, _n, _p, signal) => hang(signal),
    };
    const knowledge: KnowledgeSource = {
      retrieve: async () => [],
      listPatterns: async () => [],
    };
    const engine = new DeterministicEngine(gateway, knowledge);
    const run: EngineRun = {
      teamId: 't',
      investigationId: 'i',
      agent: 'investigation_agent',
      message: 'checkout is slow',
      context: { service: 'checkout', namespace: 'shop' },
      effective: {},
      signal: controller.signal,
      deadline: Date.now() + 10_000,
      progress: (_p: ProgressRecord) => undefined,
    };
    const done = engine.run(run);
    setTimeout(() => controller.abort(new Error('cancelled')), 50);
    await expect(done).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 100));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
});
