import type { ProgressRecord } from '@inquest/store';
import type { EngineRun } from './engine';
import type { KnowledgeSource, ToolDescriptor, ToolGateway } from './ports';
import { RunProgress } from './run-progress';

const tool = (name: string): ToolDescriptor => ({
  fullName: `k8s:${name}`,
  server: 'k8s',
  name,
  description: '',
  parameters: { type: 'object', properties: {} },
});

describe('RunProgress', () => {
  it('names the call in flight, not the one that finished, and never runs backwards', async () => {
    const reports: ProgressRecord[] = [];
    const release: Record<string, () => void> = {};
    const gateway: ToolGateway = {
      listTools: async () => ({ tools: [], servers: [] }),
      callTool: (_t, _i, name) =>
        new Promise((resolve) => {
          release[name] = () => resolve({ output: {}, truncated: false });
        }),
    };
    const run = {
      teamId: 't',
      investigationId: 'i',
      signal: new AbortController().signal,
      progress: (p: ProgressRecord) => reports.push({ ...p }),
    } as unknown as EngineRun;
    const progress = new RunProgress(run, gateway, {} as KnowledgeSource, 3);
    progress.step('gathering evidence');
    const slow = progress.runner.call(tool('list_pods'), {});
    const logs = progress.runner.call(tool('get_pod_logs'), {});
    expect(reports.at(-1)?.current_step).toBe('k8s:get_pod_logs');
    release['k8s:get_pod_logs']!();
    await logs;
    progress.complete('k8s:get_pod_logs');
    // list_pods is still in flight: it is what the investigation waits for
    expect(reports.at(-1)?.current_step).toBe('k8s:list_pods');
    release['k8s:list_pods']!();
    await slow;
    progress.complete('k8s:list_pods');
    expect(reports.at(-1)?.current_step).toBe('gathering evidence');
    progress.finish();
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i]!.steps_completed).toBeGreaterThanOrEqual(reports[i - 1]!.steps_completed);
      expect(reports[i]!.steps_total).toBeGreaterThanOrEqual(reports[i]!.steps_completed);
    }
    expect(reports.at(-1)).toMatchObject({ current_step: 'done' });
  });
});
