import { WorldIndex } from '@inquest/kube';
import type { RunningVocabulary, Vocabulary } from '../run';
import type { Scenario } from '../scenario';
import { aksMcpTools } from './aks-mcp';
import { holmesTools } from './holmes';
import { inquestVocabulary } from './inquest';
import { k8sMcpTools } from './k8s-mcp';
import { kubectlMcpTools } from './kubectl-mcp';
import { mcpK8sGoTools } from './mcp-k8s-go';
import { mcpk8sTools } from './mcpk8s';
import { scoutfloTools } from './scoutflo';
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
  /**
   * which kubectl tools the aks-mcp vocabulary offers: its specialised tools (default) or
   * today's default single call_kubectl
   */
  aksMcpTools?: 'legacy' | 'unified';
}

/** The tool vocabularies a scenario is served in, in report order. */
export function vocabularies(options: VocabularyOptions = {}): Vocabulary[] {
  return [
    inquestVocabulary(SERVER_NAME),
    foreign('holmes', (world) => holmesTools(world, { logs: options.holmesLogs ?? 'fetch' })),
    foreign('k8s-mcp', k8sMcpTools),
    foreign('mcpk8s', mcpk8sTools),
    foreign('mcp-k8s-go', mcpK8sGoTools),
  ];
}

/**
 * Vocabularies run only when asked for (`--vocab=kubectl-mcp,aks-mcp,scoutflo`): kubectl-mcp and
 * scoutflo, and aks-mcp, whose every tool carries mcp-go's default annotations (readOnlyHint
 * false, destructiveHint true), which an investigation never calls (API-DECISIONS.md:
 * investigations are read-only): Inquest answers from no cluster data there, by design.
 */
export function optionalVocabularies(options: VocabularyOptions = {}): Vocabulary[] {
  return [
    // rohitg00/kubectl-mcp-server: 281 tools (core and a dozen ecosystems); on request until the
    // engine reads it as well as the default ones
    foreign('kubectl-mcp', kubectlMcpTools),
    foreign('aks-mcp', (world) => aksMcpTools(world, { tools: options.aksMcpTools ?? 'legacy' })),
    // Scoutflo/kubernetes-mcp-server's core Kubernetes tools without annotations, as its code
    // declares none (the mcp-go it builds on sends its defaults, destructiveHint true, as
    // aks-mcp's do: scoutfloTools(world, { annotations: 'mcp-go' }))
    foreign('scoutflo', scoutfloTools),
  ];
}
