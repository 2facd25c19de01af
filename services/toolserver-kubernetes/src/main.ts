import type { KubeConfig } from '@kubernetes/client-node';
import { createLogger, silentLogger, type Logger } from '@inquest/observability';
import { isDomainError } from '@inquest/errors';
import { EnvError, listenOrExplain, parseEnv, runMain } from '@inquest/runtime';
import { clientNodeKubeReader } from './adapters/client-node-kube-reader';
import { loadKubeConfig } from './adapters/load-kube-config';
import { EnvSchema } from './config';
import type { KubeReader } from './domain/kube-reader';
import { KubernetesTools } from './domain/kubernetes-tools';
import { startToolHttpServer } from './http/tool-server';

export { TOOL_DEFINITIONS } from './domain/tool-definitions';
export type { ToolDefinition } from './domain/tool-definitions';
export type { KubeReader } from './domain/kube-reader';

export interface KubernetesToolServerOptions {
  /** the cluster: a loaded KubeConfig, or a kubeconfig file (+ context), or a KubeReader */
  kubeConfig?: KubeConfig;
  kubeconfig?: string;
  context?: string;
  /** in a pod: the service account */
  inCluster?: boolean;
  reader?: KubeReader;
  port?: number;
  host?: string;
  /** require `Authorization: Bearer <token>` */
  token?: string;
  /** namespaces the tools may read (default: every namespace) */
  namespaces?: readonly string[];
  /** list Secrets' names and keys (never values); default off */
  secrets?: boolean;
  /** show ConfigMap values; default off (keys only) */
  configMapValues?: boolean;
  /** the current time for ages (a benchmark passes its scenario's `now`) */
  now?: () => Date;
  /** deadline of each Kubernetes API call (default 10 s) */
  timeoutMs?: number;
  /** how long the API server's discovery (custom resource kinds) is cached (default 5 min) */
  discoveryTtlMs?: number;
  logger?: Logger;
}

export interface RunningKubernetesToolServer {
  /** base URL: GET /tools, POST /tools/{name}, GET /health, POST /mcp */
  url: string;
  stop(): Promise<void>;
}

/** Starts the Kubernetes tool server in-process (tests, benchmarks, the launcher). */
export async function startKubernetesToolServer(
  options: KubernetesToolServerOptions = {},
): Promise<RunningKubernetesToolServer> {
  const logger = options.logger ?? silentLogger();
  const reader =
    options.reader ??
    clientNodeKubeReader(
      options.kubeConfig ??
        loadKubeConfig({
          ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}),
          ...(options.context ? { context: options.context } : {}),
          ...(options.inCluster ? { inCluster: true } : {}),
        }),
      { timeoutMs: options.timeoutMs ?? 10_000 },
    );
  const tools = new KubernetesTools({
    reader,
    ...(options.now ? { now: options.now } : {}),
    ...(options.namespaces ? { namespaces: options.namespaces } : {}),
    secrets: options.secrets ?? false,
    configMapValues: options.configMapValues ?? false,
    ...(options.discoveryTtlMs !== undefined ? { discoveryTtlMs: options.discoveryTtlMs } : {}),
  });
  const server = await startToolHttpServer({
    tools,
    logger,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host ? { host: options.host } : {}),
    ...(options.token ? { token: options.token } : {}),
    health: async () => {
      try {
        return { ok: true, detail: `reachable (${await reader.version()})` };
      } catch (e) {
        return { ok: false, detail: e instanceof Error ? e.message : String(e) };
      }
    },
  });
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      // a reader handed in belongs to the caller
      if (!options.reader) reader.close?.();
    },
  };
}

/** Composition root: the server as `node services/toolserver-kubernetes/dist/main.js` runs it. */
export async function start(
  env: Record<string, string | undefined>,
): Promise<RunningKubernetesToolServer> {
  const config = parseEnv(EnvSchema, env);
  const logger = createLogger({ name: 'toolserver-kubernetes', level: config.INQUEST_LOG_LEVEL });
  const kubeconfig = config.INQUEST_KUBECONFIG ?? config.KUBECONFIG?.split(':')[0];
  const namespaces = config.INQUEST_KUBE_NAMESPACES.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // a kubeconfig or context that cannot be used is a configuration error: one line, no stack
  const running = await listenOrExplain(
    'INQUEST_K8S_TOOLSERVER_PORT',
    config.INQUEST_K8S_TOOLSERVER_PORT,
    () =>
      startKubernetesToolServer({
        ...(kubeconfig ? { kubeconfig } : { inCluster: Boolean(config.KUBERNETES_SERVICE_HOST) }),
        ...(config.INQUEST_KUBE_CONTEXT ? { context: config.INQUEST_KUBE_CONTEXT } : {}),
        port: config.INQUEST_K8S_TOOLSERVER_PORT,
        host: config.INQUEST_K8S_TOOLSERVER_HOST,
        ...(config.INQUEST_K8S_TOOLSERVER_TOKEN
          ? { token: config.INQUEST_K8S_TOOLSERVER_TOKEN }
          : {}),
        namespaces,
        secrets: config.INQUEST_KUBE_SECRETS,
        configMapValues: config.INQUEST_KUBE_CONFIGMAP_VALUES,
        timeoutMs: config.INQUEST_KUBE_TIMEOUT_MS,
        discoveryTtlMs: config.INQUEST_KUBE_DISCOVERY_TTL_SECONDS * 1000,
        logger,
      }),
  ).catch((e: unknown) => {
    if (isDomainError(e) && e.kind === 'invalid_input') {
      const variable =
        e.options.field === 'context' ? 'INQUEST_KUBE_CONTEXT' : 'INQUEST_KUBECONFIG';
      throw new EnvError(`${variable}: ${e.message}`);
    }
    throw e;
  });
  logger.info(
    {
      url: running.url,
      namespaces: namespaces.length ? namespaces : 'all',
      secrets: config.INQUEST_KUBE_SECRETS,
      configmap_values: config.INQUEST_KUBE_CONFIGMAP_VALUES,
    },
    'toolserver-kubernetes listening',
  );
  return running;
}

if (require.main === module) runMain('toolserver-kubernetes', () => start(process.env));
