import { resolveKind } from '@inquest/kube';
import { classifyTool, nameWords } from '@inquest/write-guard';
import type { ToolDescriptor } from '../ports';

/**
 * What a tool does, recognised from its name words, description and parameter schema (never
 * from one vendor's list of names), so the engine can drive tool servers it has never seen.
 */
export type ToolVerb =
  | 'list'
  | 'get'
  | 'describe'
  | 'events'
  | 'logs'
  | 'find'
  | 'top'
  | 'history'
  | 'namespaces'
  /** the kubeconfig's contexts (which one is current) */
  | 'contexts'
  | 'query'
  | 'other';

export type ParamRole =
  | 'kind'
  | 'name'
  | 'namespace'
  | 'pod'
  | 'container'
  | 'previous'
  | 'keyword'
  | 'labelSelector'
  | 'apiVersion'
  | 'tail'
  | 'allNamespaces'
  | 'wide'
  | 'node'
  | 'workload'
  | 'involved'
  | 'query'
  | 'service'
  | 'context'
  /** an output format choice ("output": json | yaml | wide | name) */
  | 'output'
  /** the kubeconfig context to use ("context": "Name of the Kubernetes context to use") */
  | 'kubeContext';

export interface ToolProfile {
  tool: ToolDescriptor;
  readOnly: boolean;
  safetyReason: string;
  verb: ToolVerb;
  /** kinds fixed by the tool's name ("pods_list" -> pod); empty: any kind (via a kind param) or none */
  kinds: string[];
  /** parameter name per role */
  params: Partial<Record<ParamRole, string>>;
  /** required parameters, but a kubeconfig context (filled once the current one is known) */
  required: string[];
  /** the tool requires a kubeconfig context */
  contextRequired: boolean;
  /** the tool reads logs of the previous container by itself (kubectl_previous_logs) */
  previousLogs: boolean;
  /** Kubernetes-flavoured (kinds, pods, namespaces...) */
  kube: boolean;
  /**
   * name words beyond the verb, the kinds and "k8s"/"kubectl" filler: 0 for `get_pods`, 2 for
   * `detect_pending_pods` or `cilium_list_nodes` — of two tools for the same job, the plainer one
   * answers the plain question (all pods, not the pending ones)
   */
  extraWords: number;
  /**
   * the tool belongs to a product's own toolset ("cilium_list_nodes", "kind_node_inspect",
   * "argocd_app_get"): it reads that product's view, not the cluster's objects
   */
  ecosystem: boolean;
  /**
   * (calls) a tool with a kind parameter whose name names a subject of its own and whose
   * description says it analyses or shows a product's view ("get_resource_recommendations",
   * "get_resource_trends", "gitops_apps_list"): it lists no cluster object of that kind
   */
  ownSubject?: boolean;
}

/** products whose tools a Kubernetes tool server often bundles, as a tool name's first word */
const ECOSYSTEM =
  /^(cilium|hubble|kind|vcluster|vind|helm|argocd|argo|flux|istio|istioctl|linkerd|velero|keda|kubevirt|virt|capi|cluster_?api|kyverno|gatekeeper|opa|rollouts?|flagger|knative|tekton|crossplane|karpenter|certmanager|cert_?manager|prometheus|grafana|loki|tempo|jaeger|kiali|backstage|docker|podman|minikube|k3d|k3s|rancher|openshift|oc|eks|aks|gke|aws|azure|gcp)$/;

/** name words that add nothing to what a tool does: verbs, filler, scope words */
const PLAIN_WORDS =
  /^(get|list|ls|read|show|fetch|view|describe|all|by|in|of|for|the|k8s|kube|kubectl|kubernetes|resources?|objects?|namespaced|cluster|name|names|details?|info|logs?|events?|top|metrics|find|search|history)$/;

/**
 * Kinds beyond the core API that investigations meet, and plural short names people type
 * (`pvcs`); everything else is `@inquest/kube`'s `resolveKind`, kubectl's way of reading a kind.
 */
const EXTRA_KINDS: Record<
  string,
  { kind: string; proper: string; apiVersion: string; namespaced?: false }
> = {
  certificate: { kind: 'certificate', proper: 'Certificate', apiVersion: 'cert-manager.io/v1' },
  // r27b: the issuer a Certificate names
  issuer: { kind: 'issuer', proper: 'Issuer', apiVersion: 'cert-manager.io/v1' },
  clusterissuer: {
    kind: 'clusterissuer',
    proper: 'ClusterIssuer',
    apiVersion: 'cert-manager.io/v1',
    namespaced: false,
  },
  scaledobject: { kind: 'scaledobject', proper: 'ScaledObject', apiVersion: 'keda.sh/v1alpha1' },
  triggerauthentication: {
    kind: 'triggerauthentication',
    proper: 'TriggerAuthentication',
    apiVersion: 'keda.sh/v1alpha1',
  },
  // r24b: a Secrets Store CSI class (what it syncs as Secrets), Prometheus Operator's objects
  secretproviderclass: {
    kind: 'secretproviderclass',
    proper: 'SecretProviderClass',
    apiVersion: 'secrets-store.csi.x-k8s.io/v1',
  },
  servicemonitor: {
    kind: 'servicemonitor',
    proper: 'ServiceMonitor',
    apiVersion: 'monitoring.coreos.com/v1',
  },
  prometheus: { kind: 'prometheus', proper: 'Prometheus', apiVersion: 'monitoring.coreos.com/v1' },
  nodeclaim: {
    kind: 'nodeclaim',
    proper: 'NodeClaim',
    apiVersion: 'karpenter.sh/v1',
    namespaced: false,
  },
  ec2nodeclass: {
    kind: 'ec2nodeclass',
    proper: 'EC2NodeClass',
    apiVersion: 'karpenter.k8s.aws/v1',
    namespaced: false,
  },
  // r29a: Istio's routing of a host to subsets of its pods
  destinationrule: {
    kind: 'destinationrule',
    proper: 'DestinationRule',
    apiVersion: 'networking.istio.io/v1',
  },
  serviceentry: {
    kind: 'serviceentry',
    proper: 'ServiceEntry',
    apiVersion: 'networking.istio.io/v1',
  },
  virtualservice: {
    kind: 'virtualservice',
    proper: 'VirtualService',
    apiVersion: 'networking.istio.io/v1',
  },
  // r29a: Gateway API routes and the grants that let them reach another namespace
  httproute: { kind: 'httproute', proper: 'HTTPRoute', apiVersion: 'gateway.networking.k8s.io/v1' },
  referencegrant: {
    kind: 'referencegrant',
    proper: 'ReferenceGrant',
    apiVersion: 'gateway.networking.k8s.io/v1beta1',
  },
  // r29c: the NodePool whose spec.limits Karpenter refuses to exceed
  nodepool: {
    kind: 'nodepool',
    proper: 'NodePool',
    apiVersion: 'karpenter.sh/v1',
    namespaced: false,
  },
  // r30a: a Strimzi KafkaTopic and a NATS JetStream Stream (NACK), whose Ready condition says why
  // the broker did not create them
  kafkatopic: { kind: 'kafkatopic', proper: 'KafkaTopic', apiVersion: 'kafka.strimzi.io/v1beta2' },
  stream: { kind: 'stream', proper: 'Stream', apiVersion: 'jetstream.nats.io/v1beta2' },
  // r30a: a CloudNativePG Cluster (its replication slots keep WAL for the standbys)
  cluster: { kind: 'cluster', proper: 'Cluster', apiVersion: 'postgresql.cnpg.io/v1' },
};
const EXTRA_WORDS: Record<string, string> = {
  httproute: 'httproute',
  httproutes: 'httproute',
  referencegrant: 'referencegrant',
  referencegrants: 'referencegrant',
  destinationrule: 'destinationrule',
  destinationrules: 'destinationrule',
  virtualservice: 'virtualservice',
  virtualservices: 'virtualservice',
  serviceentry: 'serviceentry',
  serviceentries: 'serviceentry',
  certificates: 'certificate',
  certificate: 'certificate',
  cert: 'certificate',
  certs: 'certificate',
  pvcs: 'persistentvolumeclaim',
  pvs: 'persistentvolume',
  endpoint: 'endpoints',
  scaledobject: 'scaledobject',
  scaledobjects: 'scaledobject',
  triggerauthentication: 'triggerauthentication',
  triggerauthentications: 'triggerauthentication',
  secretproviderclass: 'secretproviderclass',
  secretproviderclasses: 'secretproviderclass',
  servicemonitor: 'servicemonitor',
  servicemonitors: 'servicemonitor',
  prometheus: 'prometheus',
  prometheuses: 'prometheus',
  nodeclaim: 'nodeclaim',
  nodeclaims: 'nodeclaim',
  ec2nodeclass: 'ec2nodeclass',
  ec2nodeclasses: 'ec2nodeclass',
  nodepool: 'nodepool',
  nodepools: 'nodepool',
};

/** singular lower-case kind of a word ("pods", "po", "Pod", "deployment.apps" -> pod, deployment) */
export function kindOf(word: string | undefined): string | undefined {
  if (!word) return undefined;
  const w = word.toLowerCase();
  // "no" is kubectl's short name of Node, and a common word in tool names ("no_color")
  if (w === 'no') return undefined;
  return EXTRA_WORDS[w] ?? resolveKind(w)?.kind.toLowerCase();
}

export const apiVersionOf = (kind: string) =>
  EXTRA_KINDS[kind]?.apiVersion ?? resolveKind(kind)?.apiVersion ?? 'v1';
/** a kind whose objects live outside namespaces (a node, a NodeClaim) */
export const clusterScoped = (kind: string) =>
  EXTRA_KINDS[kind]?.namespaced === false || resolveKind(kind)?.namespaced === false;
export const properKind = (kind: string) =>
  EXTRA_KINDS[kind]?.proper ?? resolveKind(kind)?.kind ?? kind;

const ROLE_BY_NAME: [RegExp, ParamRole][] = [
  [/^(kind|resource_?type|resource_?kind|object_?kind|type_?of_?resource|resource)$/, 'kind'],
  [/^(api_?version|apiversion|group_?version)$/, 'apiVersion'],
  [/^(namespace|ns|namespace_?name|k8s_?namespace)$/, 'namespace'],
  [/^(pod|pod_?name|podname|pod_?id)$/, 'pod'],
  [/^(container|container_?name|containername)$/, 'container'],
  [/^(previous|prev|previous_?container|use_?previous)$/, 'previous'],
  [/^(node|node_?name|nodename|hostname)$/, 'node'],
  [
    /^(deployment|deployment_?name|workload|workload_?name|statefulset|daemonset|job|job_?name|app)$/,
    'workload',
  ],
  [/^(involved_?object|object|resource_?ref|target|for)$/, 'involved'],
  [/^(name|resource_?name|object_?name|resourcename|objectname)$/, 'name'],
  [/^(keyword|search|term|name_?fragment|fragment|pattern|substring|name_?contains|q)$/, 'keyword'],
  [/^(label_?selector|labelselector|selector|labels?)$/, 'labelSelector'],
  [/^(tail|tail_?lines|lines|line_?count|limit|max_?lines|num_?lines|count)$/, 'tail'],
  [/^(all_?namespaces|allnamespaces|all_?ns|cluster_?wide)$/, 'allNamespaces'],
  [/^(wide|output_?wide)$/, 'wide'],
  [/^(query|promql|expr|expression)$/, 'query'],
  [/^(output|output_?format|format)$/, 'output'],
  [/^(service|service_?name|app_?name)$/, 'service'],
  [
    /^(environment|env|severity|related_?alert|alert|time_?window|hint|message|question|cluster)$/,
    'context',
  ],
];

function roleOf(
  param: string,
  schema: { type?: string; description?: string },
): ParamRole | undefined {
  const p = param.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  // a kubeconfig context: by its name, or "context" said to be a Kubernetes/kubeconfig one
  if (
    /^(kube_?context|k8s_?context|kubeconfig_?context|cluster_?context)$/.test(p) ||
    (p === 'context' && /kube|k8s|cluster/i.test(schema.description ?? ''))
  )
    return 'kubeContext';
  for (const [re, role] of ROLE_BY_NAME) if (re.test(p)) return role;
  const d = (schema.description ?? '').toLowerCase();
  if (/\bnamespace\b/.test(d) && !/\bname\b(?! *space)/.test(d.replace(/namespace/g, '')))
    return 'namespace';
  if (/\bkind\b|resource type/.test(d)) return 'kind';
  if (/\bpod\b.*\bname\b|\bname of the pod\b/.test(d)) return 'pod';
  return undefined;
}

const VERB_WORDS: [ToolVerb, RegExp][] = [
  ['describe', /^(describe|description|details?|explain|inspect)$/],
  ['logs', /^(logs?|log_?lines)$/],
  ['events', /^(events?)$/],
  ['top', /^(top|metrics|usage|utilization|utilisation)$/],
  ['history', /^(history|revisions?|rollouts?)$/],
  ['find', /^(find|search|lookup|locate|discover)$/],
];

/** Profile a tool: safety, verb, fixed kinds and parameter roles. */
export function profileTool(tool: ToolDescriptor): ToolProfile {
  const safety = classifyTool({
    name: tool.name,
    description: tool.description,
    annotations: tool.annotations,
  });
  const words = nameWords(tool.name);
  const props = tool.parameters.properties ?? {};
  const params: Partial<Record<ParamRole, string>> = {};
  for (const [p, schema] of Object.entries(props)) {
    const role = roleOf(p, schema);
    if (role && params[role] === undefined) params[role] = p;
  }
  const kinds = [...new Set(words.map((w) => kindOf(w)).filter((k): k is string => !!k))];
  let verb: ToolVerb = 'other';
  for (const [v, re] of VERB_WORDS)
    if (words.some((w) => re.test(w))) {
      verb = v;
      break;
    }
  // "search_logs" is a log search, "find_resource" a discovery
  if (verb === 'find' && words.some((w) => /^logs?$/.test(w))) verb = 'logs';
  // a search of charts, images or docs ("helm_search_hub") finds no cluster object
  if (
    verb === 'find' &&
    words.some((w) => /^(helm|charts?|hub|repos?|registry|images?|docs?|packages?)$/.test(w))
  )
    verb = 'other';
  if (verb === 'other' || verb === 'history') {
    if (kinds.includes('namespace') && kinds.length === 1 && !params.name) verb = 'namespaces';
    else if (verb === 'other' && words.some((w) => /^(list|ls|all|by|in)$/.test(w))) verb = 'list';
    else if (verb === 'other' && words.some((w) => /^(get|read|show|fetch|view)$/.test(w)))
      verb = params.name || params.pod || params.node || params.workload ? 'get' : 'list';
    else if (verb === 'other' && params.query && /prom|metric|query/.test(tool.name))
      verb = 'query';
    else if (verb === 'other' && kinds.length > 0 && words.some((w) => /s$/.test(w) && kindOf(w)))
      verb = 'list';
  }
  if (kinds.includes('event') && verb !== 'logs') verb = 'events';
  // (calls) "get_rollout" of a server bundling Argo Rollouts reads a Rollout object, not a
  // Deployment's rollout history
  if (
    verb === 'history' &&
    !words.some((w) => /^(history|revisions?)$/.test(w)) &&
    /\bargo\b/i.test(tool.description ?? '')
  )
    verb = 'other';
  // "list-k8s-contexts", "get_current_context": which kubeconfig context is current
  if (
    (verb === 'list' || verb === 'get' || verb === 'other') &&
    words.some((w) => /^contexts?$/.test(w)) &&
    !kinds.some((k) => k !== 'namespace') &&
    !params.name
  )
    verb = 'contexts';
  if (verb === 'top' && kinds.length === 0 && /node/.test(tool.name)) kinds.push('node');
  const fixedKinds = kinds.filter(
    (k) => k !== 'event' && !(verb === 'namespaces' && k === 'namespace'),
  );
  const kube =
    fixedKinds.some((k) => KUBE_SPECIFIC.has(k)) ||
    !!params.kind ||
    !!params.pod ||
    /kube|k8s|kubectl|pod|namespace/i.test(`${tool.server} ${tool.name} ${tool.description}`);
  return {
    tool,
    readOnly: safety.readOnly,
    safetyReason: safety.reason,
    verb,
    kinds: fixedKinds,
    params,
    required: (tool.parameters.required ?? []).filter((r) => r !== params.kubeContext),
    contextRequired:
      !!params.kubeContext && (tool.parameters.required ?? []).includes(params.kubeContext),
    previousLogs: words.includes('previous') || words.includes('prev'),
    kube,
    extraWords: words.filter((w) => !PLAIN_WORDS.test(w) && !kindOf(w)).length,
    ecosystem: ECOSYSTEM.test(words[0] ?? ''),
    ownSubject:
      !!params.kind &&
      words.some((w) => !PLAIN_WORDS.test(w) && !kindOf(w) && !GENERIC_WORDS.test(w)) &&
      OWN_SUBJECT.test(tool.description ?? ''),
  };
}

/** (calls) what an analysis or a product's view says of itself (recommendations, trends, GitOps apps) */
const OWN_SUBJECT =
  /\banaly[sz]|\brecommend|\boptimi[sz]|\btrends?\b|\bcosts?\b|\bgitops\b|\bflux\b|\bargo\b|\bhelm\b/i;

/** (calls) name words a generic reader of any kind carries ("kubectl_get_by_kind_in_cluster", "get_yaml") */
const GENERIC_WORDS =
  /^(yaml|json|manifests?|kinds?|types?|raw|generic|any|api|apis|namespaces?|with|to|from|and|as)$/;

/** kinds whose name alone says "Kubernetes" ("service", "quota", "secret" do not) */
const KUBE_SPECIFIC = new Set([
  'pod',
  'deployment',
  'replicaset',
  'statefulset',
  'daemonset',
  'cronjob',
  'node',
  'persistentvolumeclaim',
  'persistentvolume',
  'storageclass',
  'horizontalpodautoscaler',
  'configmap',
  'endpoints',
  'limitrange',
  'namespace',
]);

/** The value a kind parameter wants: an enum member if the schema has one, else the singular name. */
export function kindValue(profile: ToolProfile, kind: string): string | undefined {
  const p = profile.params.kind;
  if (!p) return undefined;
  const schema = profile.tool.parameters.properties?.[p];
  const en = schema?.enum;
  if (Array.isArray(en)) {
    const hit = en.find((v) => typeof v === 'string' && kindOf(v) === kind);
    return typeof hit === 'string' ? hit : undefined;
  }
  const d = `${schema?.description ?? ''}`;
  // "examples of valid kind are: Pod, Service", "e.g. Deployment": the API's own kind names
  if (/\b(Pod|Deployment|Service|StatefulSet|Node)\b/.test(d)) return properKind(kind);
  return kind;
}

/** Whether the tool is about `kind` (by its name, or generically through a kind parameter). */
export function servesKind(profile: ToolProfile, kind: string): boolean {
  if (profile.kinds.length) return profile.kinds.includes(kind);
  if (profile.params.kind) return !profile.ownSubject && kindValue(profile, kind) !== undefined;
  if (kind === 'pod') return !!profile.params.pod;
  return false;
}

/**
 * The current kubeconfig context in a contexts tool's answer: the entry marked current
 * ({"name": "prod", "current": true}, kubectl's "*" row, "current-context: prod"), else the only
 * one there is.
 */
export function currentContextOf(output: unknown): string | undefined {
  const rows: Record<string, unknown>[] = [];
  const texts: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 6) return;
    if (typeof v === 'string') {
      const t = v.trim();
      if (/^[[{]/.test(t))
        try {
          return walk(JSON.parse(t), depth + 1);
        } catch {
          /* text */
        }
      texts.push(t);
      return;
    }
    if (Array.isArray(v)) return v.slice(0, 200).forEach((x) => walk(x, depth + 1));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    for (const k of ['current-context', 'current_context', 'currentContext', 'current'])
      if (typeof o[k] === 'string' && o[k]) rows.push({ name: o[k], current: true });
    if (typeof o['name'] === 'string') rows.push(o);
    for (const [k, x] of Object.entries(o))
      if (k !== 'name' && x && typeof x === 'object') walk(x, depth + 1);
      else if (k === 'text' && typeof x === 'string') walk(x, depth + 1);
  };
  walk(output, 0);
  const marked = rows.find((r) => r['current'] === true || r['current'] === 'true');
  if (marked) return String(marked['name']);
  for (const t of texts) {
    const said = /^current-context:\s*(\S+)/m.exec(t)?.[1];
    if (said) return said;
    const starred = /^\*\s+(\S+)/m.exec(t)?.[1];
    if (starred) return starred;
  }
  const names = [...new Set(rows.map((r) => String(r['name'])))];
  if (names.length === 1) return names[0];
  const lines = texts.flatMap((t) => t.split('\n')).filter((l) => /^[\w@.:/-]+$/.test(l.trim()));
  return lines.length === 1 ? lines[0]!.trim() : undefined;
}
