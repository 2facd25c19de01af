import { WorldIndex } from '@inquest/kube';
import { startFakeKubeApiServer, writeKubeconfig } from '@inquest/kube/testing';
import type { RunningVocabulary, Vocabulary } from '../run';
import type { Scenario } from '../scenario';

/** What the bench uses of services/toolserver-kubernetes (structurally: it may not be built). */
interface KubernetesToolServerModule {
  startKubernetesToolServer(options: {
    kubeconfig: string;
    port: number;
    host: string;
    now: () => Date;
  }): Promise<{ url: string; stop(): Promise<void> }>;
  TOOL_DEFINITIONS?: readonly {
    name: string;
    read_only?: boolean;
    destructive?: boolean;
    annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
  }[];
}

function load(): KubernetesToolServerModule | string {
  try {
    const mod =
      require('@inquest/toolserver-kubernetes-service') as Partial<KubernetesToolServerModule>;
    if (!mod.startKubernetesToolServer) return 'the service exports no startKubernetesToolServer';
    return mod as KubernetesToolServerModule;
  } catch {
    return 'tool server not built yet';
  }
}

/**
 * Inquest's own Kubernetes tool server (services/toolserver-kubernetes) in front of a loopback
 * Kubernetes API server over the scenario's world, registered over its tool-server contract.
 * The server does not record calls: the calls the proxy passed on stand for them, and a tool its
 * definitions do not mark read-only counts as a write tool.
 */
export function inquestVocabulary(serverName: string): Vocabulary {
  let loaded: KubernetesToolServerModule | string | undefined;
  const get = () => (loaded ??= load());
  return {
    name: 'inquest',
    unavailable: () => {
      const l = get();
      return typeof l === 'string' ? l : undefined;
    },
    writeTools: () => {
      const l = get();
      return new Set(
        typeof l === 'string'
          ? []
          : (l.TOOL_DEFINITIONS ?? [])
              .filter(
                (t) =>
                  t.destructive === true ||
                  t.annotations?.destructiveHint === true ||
                  (t.read_only !== true && t.annotations?.readOnlyHint !== true),
              )
              .map((t) => t.name),
      );
    },
    async start(scenario: Scenario): Promise<RunningVocabulary> {
      const mod = get();
      if (typeof mod === 'string') throw new Error(`inquest vocabulary: ${mod}`);
      const world = new WorldIndex(scenario);
      const api = await startFakeKubeApiServer(world);
      try {
        const server = await mod.startKubernetesToolServer({
          kubeconfig: writeKubeconfig(api.url),
          port: 0,
          host: '127.0.0.1',
          now: () => world.now,
        });
        return {
          servers: [{ name: serverName, url: server.url, transport: 'http' }],
          calls: () => undefined,
          stop: async () => {
            await server.stop();
            await api.close();
          },
        };
      } catch (err) {
        await api.close();
        throw err;
      }
    },
  };
}
