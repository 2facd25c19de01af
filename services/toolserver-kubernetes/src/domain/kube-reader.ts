import type { KindInfo, KubeObject, NodeMetrics, PodMetrics } from '@inquest/kube';

export interface ListQuery {
  /** omitted: every namespace (or a cluster-scoped kind) */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** page size asked of the API server */
  limit?: number;
  continueToken?: string;
}

export interface ListPage {
  /** each with kind and apiVersion set */
  items: KubeObject[];
  /** set when the API server has more */
  continueToken?: string;
  remaining?: number;
}

export interface LogQuery {
  namespace: string;
  pod: string;
  container: string;
  previous?: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  timestamps?: boolean;
  limitBytes?: number;
}

/**
 * The read side of a Kubernetes API server. Implementations throw @inquest/errors domain errors:
 * `not_found`, `forbidden` (RBAC, with the API server's message), `invalid_input` (the API server
 * refused the request), `unavailable` (unreachable, 5xx; code `metrics_unavailable` when
 * metrics.k8s.io is not served), `timeout`.
 */
export interface KubeReader {
  /** the API server's version (`v1.30.4`): a cheap reachability check */
  version(): Promise<string>;
  list(kind: KindInfo, query: ListQuery): Promise<ListPage>;
  get(kind: KindInfo, name: string, namespace?: string): Promise<KubeObject>;
  /**
   * Every readable kind the API server's discovery lists (core v1, then each group's preferred
   * version in the server's order), subresources left out: how custom resources are found.
   */
  discover(): Promise<KindInfo[]>;
  logs(query: LogQuery): Promise<string>;
  podMetrics(namespace?: string, labelSelector?: string): Promise<PodMetrics[]>;
  nodeMetrics(): Promise<NodeMetrics[]>;
  /** releases connections */
  close?(): void;
}
