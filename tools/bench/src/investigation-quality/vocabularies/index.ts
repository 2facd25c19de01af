import { WorldIndex } from '@inquest/kube';
import type { RunningVocabulary, Vocabulary } from '../run';
import type { Scenario } from '../scenario';
import { holmesTools } from './holmes';
import { inquestVocabulary } from './inquest';
import { k8sMcpTools } from './k8s-mcp';
import { kubectlMcpTools } from './kubectl-mcp';
import { mcpk8sTools } from './mcpk8s';
import { startVocabularyServer, type VocabularyTool } from './mcp-vocabulary-server';

/** The name the team's effective config registers every vocabulary's server under. */
export const SERVER_NAME = 'k8s';

function foreign(name: string, tools: (world: WorldIndex) => VocabularyTool[]): Vocabulary {
  return {
    name,
    unavailable: () => undefined,
    async start(scenario: Scenario): Promise<RunningVocabulary> {
      const server = await startVocabularyServer(`${name}-bench`, tools(new WorldIndex(scenario)));
      return {
        servers: [{ name: SERVER_NAME, url: server.url, transport: 'mcp' }],
        calls: () => server.calls,
        stop: () => server.stop(),
      };
    },
  };
}

export interface VocabularyOptions {
  /** which logs toolset the holmes vocabulary offers (HolmesGPT has had both) */
  holmesLogs?: 'fetch' | 'kubectl';
}

/** The tool vocabularies a scenario is served in, in report order. */
export function vocabularies(options: VocabularyOptions = {}): Vocabulary[] {
  return [
    inquestVocabulary(SERVER_NAME),
    foreign('holmes', (world) => holmesTools(world, { logs: options.holmesLogs ?? 'fetch' })),
    foreign('k8s-mcp', k8sMcpTools),
    foreign('mcpk8s', mcpk8sTools),
    foreign('kubectl-mcp', kubectlMcpTools),
  ];
}
