import { WorldIndex } from '@inquest/kube';
import { startFakeKubeApiServer, writeKubeconfig } from '@inquest/kube/testing';
import type { RunningVocabulary, Vocabulary } from '../run';
import type { Scenario } from '../scenario';

/** What the bench uses of services/toolserver-kubernetes (structurally: it may not be built). */
type StartKubernetesToolServer = (options: {
  kubeconfig: string;
  port: number;
  host: string;
  now: () => Date;
}) => Promise<{ url: string; stop(): Promise<void> }>;

function load(): StartKubernetesToolServer | string {
  try {
    const mod = require('@inquest/toolserver-kubernetes-service') as {
      startKubernetesToolServer?: StartKubernetesToolServer;
    };
    return mod.startKubernetesToolServer ?? 'the service exports no startKubernetesToolServer';
  } catch {
    return 'tool server not built yet';
  }
}

/**
 * Inquest's own Kubernetes tool server (services/toolserver-kubernetes) in front of a loopback
 * Kubernetes API server over the scenario's world, registered over its tool-server contract.
 * Its tools are all read-only; calls are recorded by the proxy-side gateway only.
 */
export function inquestVocabulary(serverName: string): Vocabulary {
  let loaded: StartKubernetesToolServer | string | undefined;
  const get = () => (loaded ??= load());
  return {
    name: 'inquest',
    unavailable: () => {
      const l = get();
      return typeof l === 'string' ? l : undefined;
    },
    async start(scenario: Scenario): Promise<RunningVocabulary> {
      const startServer = get();
      if (typeof startServer === 'string') throw new Error(`inquest vocabulary: ${startServer}`);
      const world = new WorldIndex(scenario);
      const api = await startFakeKubeApiServer(world);
      try {
        const server = await startServer({
          kubeconfig: writeKubeconfig(api.url),
          port: 0,
          host: '127.0.0.1',
          now: () => world.now,
        });
        return {
          servers: [{ name: serverName, url: server.url, transport: 'http' }],
          calls: () => [],
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
