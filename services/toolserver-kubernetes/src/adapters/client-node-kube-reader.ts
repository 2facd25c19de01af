import { createHash } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import {
  ApiException,
  ApisApi,
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  ServerConfiguration,
  VersionApi,
  createConfiguration,
  type KubeConfig,
} from '@kubernetes/client-node';
import {
  DomainError,
  forbidden,
  invalidRequest,
  notFound,
  timeoutError,
  unavailable,
} from '@inquest/errors';
import {
  customKind,
  type KindInfo,
  type KubeObject,
  type NodeMetrics,
  type PodMetrics,
} from '@inquest/kube';
import type { KubeReader, ListPage, ListQuery, LogQuery } from '../domain/kube-reader';

const METRICS_GROUP = 'metrics.k8s.io';
const METRICS_VERSION = 'v1beta1';

/** The message of a Kubernetes `Status` answer, whatever shape client-node left the body in. */
function statusMessage(e: ApiException<unknown>): string | undefined {
  let body: unknown = e.body;
  if (typeof body === 'string') {
    const text = body;
    try {
      body = JSON.parse(text);
    } catch {
      return text.trim().slice(0, 500) || undefined;
    }
  }
  const msg = (body as { message?: unknown } | undefined)?.message;
  return typeof msg === 'string' ? msg : undefined;
}

/** client-node's exceptions as domain errors, with the API server's own message. */
function translate(e: unknown, what: string): Error {
  if (e instanceof DomainError) return e;
  if (e instanceof ApiException) {
    const msg = statusMessage(e) ?? `${what}: HTTP ${e.code}`;
    if (e.code === 404) return notFound(msg);
    if (e.code === 403) return forbidden(msg);
    if (e.code === 401)
      return forbidden(`the Kubernetes API refused the credentials (401): ${msg}`);
    if (e.code >= 400 && e.code < 500) return invalidRequest(msg);
    return unavailable(`Kubernetes API error ${e.code} (${what}): ${msg}`);
  }
  const err = e as { name?: string; message?: string; type?: string };
  if (err?.name === 'AbortError' || err?.name === 'TimeoutError' || err?.type === 'aborted') {
    return timeoutError(`the Kubernetes API did not answer in time (${what})`);
  }
  const message = err?.message ?? String(e);
  if (/Unrecognized API version and kind/.test(message)) {
    return notFound(`the cluster does not serve this kind (${what})`);
  }
  return unavailable(`cannot reach the Kubernetes API (${what}): ${message}`);
}

const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/**
 * client-node builds a new Agent for every request, so every call pays a TCP (and TLS)
 * handshake. This swaps in one keep-alive agent per distinct TLS identity; proxy agents and
 * other custom agents are left alone.
 */
function agentPool(): {
  reuse(agent: http.Agent | undefined): http.Agent | undefined;
  close(): void;
} {
  const agents = new Map<string, http.Agent>();
  return {
    reuse(agent) {
      if (!agent || (agent.constructor !== http.Agent && agent.constructor !== https.Agent))
        return undefined;
      const tls = agent instanceof https.Agent;
      const o = ((agent as { options?: Record<string, unknown> }).options ?? {}) as Record<
        string,
        unknown
      >;
      const key = createHash('sha256')
        .update(
          JSON.stringify([
            tls,
            o.rejectUnauthorized,
            o.servername,
            String(o.ca ?? ''),
            String(o.cert ?? ''),
            String(o.key ?? ''),
            String(o.pfx ?? ''),
          ]),
        )
        .digest('hex');
      let shared = agents.get(key);
      if (!shared) {
        const options = { ...o, keepAlive: true, maxSockets: 32 };
        shared = tls ? new https.Agent(options) : new http.Agent(options);
        agents.set(key, shared);
      }
      return shared;
    },
    close() {
      for (const a of agents.values()) a.destroy();
      agents.clear();
    },
  };
}

export interface ClientNodeKubeReaderOptions {
  /** deadline of each API call */
  timeoutMs: number;
}

/**
 * KubeReader over @kubernetes/client-node: the generic object API (discovery-resolved) for
 * list/get of any kind, CoreV1 for logs, the custom-objects API for metrics.k8s.io. Every call
 * carries a deadline. Objects come back as plain API JSON (timestamps as strings).
 */
export function clientNodeKubeReader(
  kc: KubeConfig,
  opts: ClientNodeKubeReaderOptions,
): KubeReader {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw invalidRequest('the kubeconfig has no current cluster');
  const pool = agentPool();
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    promiseMiddleware: [
      {
        pre: async (ctx) => {
          ctx.setSignal(AbortSignal.timeout(opts.timeoutMs));
          const shared = pool.reuse(ctx.getAgent());
          if (shared) ctx.setAgent(shared);
          return ctx;
        },
        post: async (rsp) => rsp,
      },
    ],
  });
  const objects = new KubernetesObjectApi(configuration);
  const core = new CoreV1Api(configuration);
  const custom = new CustomObjectsApi(configuration);
  const apis = new ApisApi(configuration);
  const versionApi = new VersionApi(configuration);

  const withKind = (info: KindInfo, o: KubeObject): KubeObject =>
    ({ apiVersion: info.apiVersion, kind: info.kind, ...plain(o) }) as KubeObject;

  const metricsServed = async (): Promise<boolean> => {
    try {
      const groups = await apis.getAPIVersions();
      return groups.groups.some((g) => g.name === METRICS_GROUP);
    } catch (e) {
      throw translate(e, 'API discovery');
    }
  };

  const metricsCall = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (e) {
      if (
        e instanceof ApiException &&
        (e.code === 404 || e.code === 503) &&
        !(await metricsServed())
      ) {
        throw unavailable(
          'metrics-server not installed: the cluster does not serve metrics.k8s.io, so there is no CPU/memory usage to show',
          'metrics_unavailable',
        );
      }
      throw translate(e, what);
    }
  };

  return {
    close: () => pool.close(),

    async version(): Promise<string> {
      try {
        return (await versionApi.getCode()).gitVersion;
      } catch (e) {
        throw translate(e, 'version');
      }
    },

    async list(info: KindInfo, q: ListQuery): Promise<ListPage> {
      try {
        const res = await objects.list(
          info.apiVersion,
          info.kind,
          info.namespaced ? q.namespace : undefined,
          undefined,
          undefined,
          undefined,
          q.fieldSelector,
          q.labelSelector,
          q.limit,
          q.continueToken,
        );
        const meta = (res.metadata ?? {}) as { _continue?: string; remainingItemCount?: number };
        return {
          items: res.items.map((o) => withKind(info, o as KubeObject)),
          ...(meta._continue ? { continueToken: meta._continue } : {}),
          ...(meta.remainingItemCount !== undefined ? { remaining: meta.remainingItemCount } : {}),
        };
      } catch (e) {
        throw translate(e, `list ${info.plural}`);
      }
    },

    async get(info: KindInfo, name: string, namespace?: string): Promise<KubeObject> {
      try {
        const o = await objects.read({
          apiVersion: info.apiVersion,
          kind: info.kind,
          metadata: { name, ...(info.namespaced && namespace ? { namespace } : {}) },
        });
        return withKind(info, o as KubeObject);
      } catch (e) {
        throw translate(e, `get ${info.plural} ${name}`);
      }
    },

    async discover(): Promise<KindInfo[]> {
      type Resource = {
        name: string;
        kind: string;
        namespaced: boolean;
        verbs: string[];
        singularName?: string;
        shortNames?: string[];
      };
      const kindsOf = (groupVersion: string, resources: Resource[]): KindInfo[] =>
        resources
          .filter(
            (r) => !r.name.includes('/') && (r.verbs.includes('list') || r.verbs.includes('get')),
          )
          .map((r) =>
            customKind(groupVersion, r.kind, r.namespaced, {
              plural: r.name,
              ...(r.singularName ? { singular: r.singularName } : {}),
              ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
            }),
          );
      let groups: Awaited<ReturnType<typeof apis.getAPIVersions>>;
      let coreList: Awaited<ReturnType<typeof core.getAPIResources>>;
      try {
        [coreList, groups] = await Promise.all([core.getAPIResources(), apis.getAPIVersions()]);
      } catch (e) {
        throw translate(e, 'API discovery');
      }
      const perGroup = await Promise.all(
        groups.groups.map(async (g) => {
          const gv = g.preferredVersion?.groupVersion ?? g.versions[0]?.groupVersion;
          if (!gv) return [];
          try {
            const list = await custom.getAPIResources({
              group: g.name,
              version: gv.slice(gv.indexOf('/') + 1),
            });
            return kindsOf(gv, list.resources as Resource[]);
          } catch {
            // an aggregated API that is down (503) leaves its group out, as kubectl does
            return [];
          }
        }),
      );
      return [...kindsOf('v1', coreList.resources as Resource[]), ...perGroup.flat()];
    },

    async logs(q: LogQuery): Promise<string> {
      try {
        return await core.readNamespacedPodLog({
          name: q.pod,
          namespace: q.namespace,
          container: q.container,
          ...(q.previous ? { previous: true } : {}),
          ...(q.tailLines !== undefined ? { tailLines: q.tailLines } : {}),
          ...(q.sinceSeconds !== undefined ? { sinceSeconds: q.sinceSeconds } : {}),
          ...(q.timestamps ? { timestamps: true } : {}),
          ...(q.limitBytes !== undefined ? { limitBytes: q.limitBytes } : {}),
        });
      } catch (e) {
        throw translate(e, `logs of ${q.namespace}/${q.pod}`);
      }
    },

    async podMetrics(namespace?: string, labelSelector?: string): Promise<PodMetrics[]> {
      const res = await metricsCall('pod metrics', () =>
        namespace
          ? custom.listNamespacedCustomObject({
              group: METRICS_GROUP,
              version: METRICS_VERSION,
              namespace,
              plural: 'pods',
              ...(labelSelector ? { labelSelector } : {}),
            })
          : custom.listClusterCustomObject({
              group: METRICS_GROUP,
              version: METRICS_VERSION,
              plural: 'pods',
              ...(labelSelector ? { labelSelector } : {}),
            }),
      );
      const items = ((res as { items?: unknown[] }).items ?? []) as Array<{
        metadata: { name: string; namespace: string };
        containers: Array<{ name: string; usage: { cpu: string; memory: string } }>;
      }>;
      return items.map((p) => ({
        namespace: p.metadata.namespace,
        name: p.metadata.name,
        containers: (p.containers ?? []).map((c) => ({
          name: c.name,
          cpu: c.usage.cpu,
          memory: c.usage.memory,
        })),
      }));
    },

    async nodeMetrics(): Promise<NodeMetrics[]> {
      const res = await metricsCall('node metrics', () =>
        custom.listClusterCustomObject({
          group: METRICS_GROUP,
          version: METRICS_VERSION,
          plural: 'nodes',
        }),
      );
      const items = ((res as { items?: unknown[] }).items ?? []) as Array<{
        metadata: { name: string };
        usage: { cpu: string; memory: string };
      }>;
      return items.map((n) => ({
        name: n.metadata.name,
        cpu: n.usage.cpu,
        memory: n.usage.memory,
      }));
    },
  };
}
