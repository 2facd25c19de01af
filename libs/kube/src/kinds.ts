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
  /** discovery's singular name (custom kinds; a built-in's is its lower-case kind) */
  singular?: string;
  /** true for a kind that is not one of KINDS: a custom resource, or one found by discovery */
  custom?: boolean;
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

// ------------------------------------------------------------------ custom resources

const VERSION = /^v\d+(?:(?:alpha|beta)\d+)?$/;

/** The group of an `apiVersion`: '' for `v1`, `apps` for `apps/v1`. */
export function groupOf(apiVersion: string | undefined): string {
  const av = apiVersion ?? '';
  const slash = av.indexOf('/');
  return slash >= 0 ? av.slice(0, slash) : '';
}

/** True for a kind of the fixed built-in list (same kind and group), false for a custom one. */
export function isBuiltinKind(info: KindInfo): boolean {
  return KINDS.some((k) => k.kind === info.kind && k.group === info.group);
}

/**
 * The built-in KindInfo of an object, looking at its apiVersion's group too: a Knative
 * `serving.knative.dev/v1` Service is not the core Service. An object without apiVersion is
 * taken by its kind alone.
 */
export function builtinKindOf(
  obj: { apiVersion?: string; kind?: string } | undefined,
): KindInfo | undefined {
  const info = kindOf(obj);
  if (!info || !obj?.apiVersion) return info;
  return groupOf(obj.apiVersion) === info.group ? info : undefined;
}

/**
 * The plural a kind's resource is guessed to have, as Kubernetes' UnsafeGuessKindToResource does:
 * the lower-case kind + `s` (`-s` → `-ses`, `-y` → `-ies`).
 */
export function guessPlural(kind: string): string {
  const singular = kind.toLowerCase();
  if (singular.endsWith('s')) return `${singular}es`;
  if (singular.endsWith('y')) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}

/**
 * A KindInfo for a kind discovery (or a scenario object) tells of. Without a plural the plural is
 * guessed (guessPlural), as the loopback API server serves a scenario's custom kinds.
 */
export function customKind(
  apiVersion: string,
  kind: string,
  namespaced: boolean,
  names: { plural?: string; singular?: string; shortNames?: string[] } = {},
): KindInfo {
  const group = groupOf(apiVersion);
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  return {
    kind,
    group,
    version,
    apiVersion: group ? `${group}/${version}` : version,
    plural: names.plural ?? guessPlural(kind),
    namespaced,
    shortNames: names.shortNames ?? [],
    singular: names.singular || kind.toLowerCase(),
    custom: true,
  };
}

/** What a typed kind asks for: a name (kind, plural, singular or short name), maybe group and version. */
export interface KindQuery {
  name: string;
  group?: string;
  version?: string;
}

/**
 * Parses the forms kubectl takes for a resource type: `kustomization`, `Kustomization`,
 * `kustomizations.kustomize.toolkit.fluxcd.io`, `applications.v1alpha1.argoproj.io`,
 * `applications.argoproj.io/v1alpha1`, `argoproj.io/v1alpha1/applications`, `v1/pods`.
 */
export function parseKindQuery(input: string): KindQuery | undefined {
  const raw = input.trim().toLowerCase();
  if (!raw || /\s/.test(raw)) return undefined;
  let name = raw;
  let group: string | undefined;
  let version: string | undefined;
  const parts = raw.split('/');
  if (parts.length === 2 && VERSION.test(parts[1]!)) {
    // resource.group/version
    name = parts[0]!;
    version = parts[1];
  } else if (parts.length === 2) {
    // version/resource (core) or group/resource
    name = parts[1]!;
    if (VERSION.test(parts[0]!)) version = parts[0];
    else group = parts[0];
  } else if (parts.length === 3) {
    [group, version, name] = parts as [string, string, string];
  } else if (parts.length > 3) return undefined;
  if (!name) return undefined;
  const dot = name.indexOf('.');
  if (dot >= 0) {
    let rest = name.slice(dot + 1);
    name = name.slice(0, dot);
    const m = /^(v\d+(?:(?:alpha|beta)\d+)?)(?:\.(.*))?$/.exec(rest);
    if (m) {
      version = m[1];
      rest = m[2] ?? '';
    }
    group = rest;
  }
  if (group === 'core') group = '';
  return { name, ...(group !== undefined ? { group } : {}), ...(version ? { version } : {}) };
}

function matches(info: KindInfo, q: KindQuery): boolean {
  if (q.group !== undefined && q.group !== info.group) return false;
  if (q.version !== undefined && q.version !== info.version) return false;
  return (
    info.kind.toLowerCase() === q.name ||
    info.plural === q.name ||
    (info.singular ?? '') === q.name ||
    info.shortNames.some((s) => s.toLowerCase() === q.name)
  );
}

/**
 * Resolves a typed kind the way kubectl does against what the API server serves: the built-in
 * kinds first (so `svc`, `Service`, `certificate`... mean what they mean to kubectl even when a
 * CRD reuses the name), then `catalogue` (discovery's kinds, preferred versions first) in its
 * order. A group-qualified name (`services.serving.knative.dev`) always reaches its own group.
 */
export function resolveKindIn(input: string, catalogue: readonly KindInfo[]): KindInfo | undefined {
  const builtin = resolveKind(input);
  if (builtin) return builtin;
  const q = parseKindQuery(input);
  if (!q) return undefined;
  // by plural/kind/singular before short names: kubectl expands short names only when nothing
  // else matches
  const exact = catalogue.find(
    (k) =>
      matches(k, q) &&
      (k.kind.toLowerCase() === q.name || k.plural === q.name || k.singular === q.name),
  );
  return exact ?? catalogue.find((k) => matches(k, q));
}
