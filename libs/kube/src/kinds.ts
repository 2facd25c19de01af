/** What the API server needs to know about a kind: where it lives and how it is addressed. */
export interface KindInfo {
  kind: string;
  /** API group, '' for the core group */
  group: string;
  version: string;
  /** `v1` for the core group, `group/version` otherwise */
  apiVersion: string;
  plural: string;
  namespaced: boolean;
  shortNames: string[];
}

function k(
  kind: string,
  group: string,
  version: string,
  plural: string,
  namespaced: boolean,
  shortNames: string[] = [],
): KindInfo {
  return {
    kind,
    group,
    version,
    apiVersion: group ? `${group}/${version}` : version,
    plural,
    namespaced,
    shortNames,
  };
}

/** Every kind a scenario world may hold (the short names are kubectl's). */
export const KINDS: readonly KindInfo[] = [
  k('Namespace', '', 'v1', 'namespaces', false, ['ns']),
  k('Node', '', 'v1', 'nodes', false, ['no']),
  k('Pod', '', 'v1', 'pods', true, ['po']),
  k('Service', '', 'v1', 'services', true, ['svc']),
  k('Endpoints', '', 'v1', 'endpoints', true, ['ep']),
  k('ConfigMap', '', 'v1', 'configmaps', true, ['cm']),
  k('Secret', '', 'v1', 'secrets', true),
  k('PersistentVolumeClaim', '', 'v1', 'persistentvolumeclaims', true, ['pvc']),
  k('PersistentVolume', '', 'v1', 'persistentvolumes', false, ['pv']),
  k('ResourceQuota', '', 'v1', 'resourcequotas', true, ['quota']),
  k('LimitRange', '', 'v1', 'limitranges', true, ['limits']),
  k('ServiceAccount', '', 'v1', 'serviceaccounts', true, ['sa']),
  k('Event', '', 'v1', 'events', true, ['ev']),
  k('Deployment', 'apps', 'v1', 'deployments', true, ['deploy']),
  k('ReplicaSet', 'apps', 'v1', 'replicasets', true, ['rs']),
  k('StatefulSet', 'apps', 'v1', 'statefulsets', true, ['sts']),
  k('DaemonSet', 'apps', 'v1', 'daemonsets', true, ['ds']),
  k('Job', 'batch', 'v1', 'jobs', true),
  k('CronJob', 'batch', 'v1', 'cronjobs', true, ['cj']),
  k('Ingress', 'networking.k8s.io', 'v1', 'ingresses', true, ['ing']),
  k('IngressClass', 'networking.k8s.io', 'v1', 'ingressclasses', false),
  k('NetworkPolicy', 'networking.k8s.io', 'v1', 'networkpolicies', true, ['netpol']),
  k('EndpointSlice', 'discovery.k8s.io', 'v1', 'endpointslices', true),
  k('StorageClass', 'storage.k8s.io', 'v1', 'storageclasses', false, ['sc']),
  k('HorizontalPodAutoscaler', 'autoscaling', 'v2', 'horizontalpodautoscalers', true, ['hpa']),
  k('PodDisruptionBudget', 'policy', 'v1', 'poddisruptionbudgets', true, ['pdb']),
  k('Role', 'rbac.authorization.k8s.io', 'v1', 'roles', true),
  k('RoleBinding', 'rbac.authorization.k8s.io', 'v1', 'rolebindings', true),
  k('ClusterRole', 'rbac.authorization.k8s.io', 'v1', 'clusterroles', false),
  k('ClusterRoleBinding', 'rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', false),
];

const byName = new Map<string, KindInfo>();
for (const info of KINDS) {
  for (const name of [info.kind, info.plural, ...info.shortNames])
    byName.set(name.toLowerCase(), info);
}

/**
 * Resolves what a person (or a model) types for a kind, the way kubectl does: `pod`, `pods`,
 * `po`, `Pod`, `deploy`, `deployment.apps`, `deployments.apps/v1`, `hpa`... Returns undefined for
 * an unknown kind or a group/version that does not serve it.
 */
export function resolveKind(input: string): KindInfo | undefined {
  const raw = input.trim().toLowerCase();
  if (!raw) return undefined;
  // `resource.group/version` or `resource.group`; `v1/pods`-style apiVersion prefixes too.
  let name = raw;
  let group: string | undefined;
  let version: string | undefined;
  const slash = name.indexOf('/');
  if (slash >= 0) {
    const head = name.slice(0, slash);
    const tail = name.slice(slash + 1);
    if (tail.includes('.') || byName.has(tail)) {
      // `apps/v1/deployments` is not a kubectl form; `v1/pods` is treated as apiVersion/resource
      const parts = raw.split('/');
      name = parts[parts.length - 1]!;
      const api = parts.slice(0, -1);
      if (api.length === 1) version = api[0];
      else if (api.length === 2) [group, version] = api as [string, string];
    } else {
      name = head;
      version = tail;
    }
  }
  const dot = name.indexOf('.');
  if (dot >= 0) {
    group = name.slice(dot + 1);
    name = name.slice(0, dot);
    // kubectl's `resource.version.group` form: deployments.v1.apps, pods.v1
    const m = /^(v\d+(?:(?:alpha|beta)\d+)?)(?:\.(.*))?$/.exec(group);
    if (m) {
      version = m[1];
      group = m[2] ?? '';
    }
  }
  const info = byName.get(name);
  if (!info) return undefined;
  if (group !== undefined && group !== info.group && !(group === 'core' && info.group === '')) {
    return undefined;
  }
  if (version !== undefined && version !== info.version) return undefined;
  return info;
}

/** The KindInfo for an object's `apiVersion`/`kind`, or undefined when the kind is not known. */
export function kindOf(obj: { kind?: string } | undefined): KindInfo | undefined {
  if (!obj?.kind) return undefined;
  return KINDS.find((i) => i.kind === obj.kind);
}
