/** A tool definition as the tool-server contract returns it, with MCP annotations. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
    additionalProperties: false;
  };
  annotations: { readOnlyHint: true; destructiveHint: false; idempotentHint: true; title: string };
  /** the contract's flag: this tool changes nothing */
  read_only: true;
}

/** Every list is bounded: this many items unless the caller asks for fewer or more. */
export const DEFAULT_LIMIT = 200;
export const MAX_LIMIT = 1000;
/** The most log lines one call returns. */
export const MAX_TAIL_LINES = 5000;
export const DEFAULT_TAIL_LINES = 200;
/** A week: the kubelet keeps less than that anyway. */
export const MAX_SINCE_SECONDS = 7 * 24 * 3600;

const KIND_HELP =
  'Kind as kubectl accepts it: pods/po, deployments/deploy, statefulsets/sts, daemonsets/ds, replicasets/rs, jobs, cronjobs/cj, services/svc, endpoints/ep, ingresses/ing, ingressclasses, nodes/no, namespaces/ns, persistentvolumeclaims/pvc, persistentvolumes/pv, storageclasses/sc, horizontalpodautoscalers/hpa, configmaps/cm, secrets (only when enabled), resourcequotas/quota, limitranges/limits, serviceaccounts/sa, roles, rolebindings, clusterroles, clusterrolebindings, events/ev, endpointslices, poddisruptionbudgets/pdb, networkpolicies/netpol; `deployment.apps` and `deployments.apps/v1` work too. Custom resources the cluster serves (found by API discovery) too, by Kind, plural or plural.group: Kustomization, applications.argoproj.io, helmreleases.helm.toolkit.fluxcd.io, certificates.cert-manager.io, externalsecrets.external-secrets.io, scaledobjects.keda.sh.';

const kind = { type: 'string', minLength: 1, maxLength: 100, description: KIND_HELP };
const namespace = (what: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: 63,
  pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
  description: what,
});
const name = (what: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9]([-A-Za-z0-9_.:]*[A-Za-z0-9])?$',
  description: what,
});
const labelSelector = {
  type: 'string',
  minLength: 1,
  maxLength: 1000,
  description:
    'Label selector as kubectl -l takes it: `app=web`, `tier!=db`, `env in (prod,staging)`, `release`, `!legacy`, comma-separated.',
};
const limit = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_LIMIT,
  description: `Most items to return (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}); the answer says truncated: true when there were more.`,
};

const READ = (title: string) =>
  ({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, title }) as const;

function tool(
  n: string,
  title: string,
  description: string,
  properties: Record<string, Record<string, unknown>>,
  required: string[] = [],
): ToolDefinition {
  return {
    name: n,
    description,
    parameters: {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    },
    annotations: READ(title),
    read_only: true,
  };
}

/** The read-only Kubernetes tools, in the order they are listed. */
export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  tool(
    'list_namespaces',
    'List namespaces',
    'List the namespaces of the Kubernetes cluster this server reads (only the allowed ones when the server has a namespace allow-list), with their status and age.',
    {},
  ),
  tool(
    'list_resources',
    'List resources of a kind',
    'List Kubernetes objects of one kind, as `kubectl get <kind>` prints them (pods show READY, STATUS such as CrashLoopBackOff/OOMKilled/Pending, RESTARTS, AGE). Filter by namespace (omit for every namespace), label selector, field selector or a name fragment. Answers a `text` table and `items` with the same columns; bounded by `limit`.',
    {
      kind,
      namespace: namespace(
        'Namespace to list in; omit to list across every (allowed) namespace. Ignored for cluster-scoped kinds (nodes, namespaces, persistentvolumes, storageclasses, ingressclasses, clusterroles).',
      ),
      label_selector: labelSelector,
      field_selector: {
        type: 'string',
        minLength: 1,
        maxLength: 500,
        description:
          'Field selector as kubectl --field-selector takes it, e.g. `status.phase=Pending`, `spec.nodeName=node-a` (pods), `involvedObject.name=x` (events); metadata.name and metadata.namespace work for every kind.',
      },
      name_contains: {
        type: 'string',
        minLength: 1,
        maxLength: 253,
        description: 'Only objects whose name contains this text (case-insensitive).',
      },
      wide: {
        type: 'boolean',
        description:
          'Extra columns, as `kubectl get -o wide` (pod IP and node, images, selectors).',
      },
      limit,
    },
    ['kind'],
  ),
  tool(
    'get_resource',
    'Get one resource as YAML',
    'Get one Kubernetes object in full, as `kubectl get <kind> <name> -o yaml` prints it (managedFields dropped; ConfigMap values hidden unless this server allows them; Secret values are never returned, only key names and sizes). When `namespace` is omitted for a namespaced kind, the object is looked up by name across the allowed namespaces.',
    {
      kind,
      name: name('Object name.'),
      namespace: namespace(
        'Namespace of the object (omit for cluster-scoped kinds, or to search by name).',
      ),
    },
    ['kind', 'name'],
  ),
  tool(
    'describe_resource',
    'Describe a resource',
    'Describe one Kubernetes object as `kubectl describe` prints it: for a pod its containers with state, last state, exit code and reason, restart count, probes, environment sources, mounts, conditions, volumes, tolerations and the Events table with counts; for a deployment its replicas, strategy, pod template, conditions and ReplicaSets; for a node its conditions, taints, capacity, pods and allocated resources; likewise for jobs, PVCs, services, HPAs, quotas and every other kind. Read this first when something is failing.',
    {
      kind,
      name: name('Object name.'),
      namespace: namespace(
        'Namespace of the object (omit for cluster-scoped kinds, or to search by name).',
      ),
    },
    ['kind', 'name'],
  ),
  tool(
    'find_resources',
    'Find resources by name or label',
    'Find Kubernetes objects whose name contains a fragment and/or that match a label selector, across several kinds and every allowed namespace at once (default kinds: pods, deployments, statefulsets, daemonsets, jobs, cronjobs, services, ingresses, configmaps, persistentvolumeclaims, horizontalpodautoscalers, nodes). Use it to locate a service or workload when you only know part of its name.',
    {
      name_contains: {
        type: 'string',
        minLength: 1,
        maxLength: 253,
        description: 'Name fragment to look for (case-insensitive).',
      },
      label_selector: labelSelector,
      kinds: {
        type: 'array',
        items: kind,
        minItems: 1,
        maxItems: 30,
        description:
          'Kinds to search (default: the common workload, networking, config and storage kinds).',
      },
      namespace: namespace('Search only this namespace.'),
      limit,
    },
  ),
  tool(
    'get_events',
    'Get events',
    'Get Kubernetes events for one object (kind + name) or for a namespace (or every allowed namespace), oldest first, deduplicated: repeats of the same reason and message for the same object are folded into one line with a count and first/last seen, as in `kubectl describe` ("(x27 over 24m)"). Filter by type (Warning) or reason (e.g. BackOff, FailedScheduling, OOMKilling, FailedMount, Unhealthy).',
    {
      namespace: namespace('Namespace of the events (omit for every allowed namespace).'),
      kind: { ...kind, description: 'Kind of the object the events are about (with `name`).' },
      name: name('Name of the object the events are about.'),
      type: {
        type: 'string',
        enum: ['Normal', 'Warning'],
        description: 'Only events of this type.',
      },
      reason: {
        type: 'string',
        minLength: 1,
        maxLength: 128,
        description: 'Only events with this reason (e.g. BackOff).',
      },
      since_minutes: {
        type: 'integer',
        minimum: 1,
        maximum: 43200,
        description: 'Only events last seen within this many minutes.',
      },
      limit: {
        ...limit,
        description: 'Most event lines to return, the most recent ones (default 200).',
      },
    },
  ),
  tool(
    'get_pod_logs',
    'Get pod logs',
    `Get a pod container's log, as \`kubectl logs\`: the current container or the previous (crashed) one with previous: true, the last tail_lines lines (default ${DEFAULT_TAIL_LINES}, at most ${MAX_TAIL_LINES}), only lines since since_seconds ago, optionally only lines containing a grep text. The container defaults to the pod's default (first) container.`,
    {
      namespace: namespace('Namespace of the pod.'),
      pod: name('Pod name.'),
      container: name('Container name (default: the default/first container).'),
      previous: {
        type: 'boolean',
        description:
          'The log of the previous, terminated instance of the container (after a crash or restart).',
      },
      tail_lines: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_TAIL_LINES,
        description: `Last lines to return (default ${DEFAULT_TAIL_LINES}; ${MAX_TAIL_LINES} when grep is given; at most ${MAX_TAIL_LINES}).`,
      },
      since_seconds: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_SINCE_SECONDS,
        description: 'Only lines logged within this many seconds.',
      },
      grep: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description:
          'Only lines containing this text (case-insensitive); several alternatives separated by |, e.g. `error|exception|fatal`.',
      },
      timestamps: { type: 'boolean', description: 'Prefix each line with its timestamp.' },
    },
    ['namespace', 'pod'],
  ),
  tool(
    'rollout_history',
    'Rollout history of a deployment',
    'Show the rollout history of a deployment, as `kubectl rollout history`: each revision with its ReplicaSet, container images, change-cause annotation, creation time and replicas, the current revision marked. Use it to see what changed recently.',
    {
      name: name('Deployment name.'),
      namespace: namespace('Namespace of the deployment.'),
    },
    ['name', 'namespace'],
  ),
  tool(
    'top_pods',
    'Pod CPU and memory usage',
    'Current CPU and memory usage of pods from metrics.k8s.io, as `kubectl top pod` (answers that metrics-server is not installed when the cluster has no metrics API).',
    {
      namespace: namespace('Namespace (omit for every allowed namespace).'),
      label_selector: labelSelector,
      containers: {
        type: 'boolean',
        description: 'One line per container, as `kubectl top pod --containers`.',
      },
      sort_by: { type: 'string', enum: ['cpu', 'memory'], description: 'Highest usage first.' },
      limit,
    },
  ),
  tool(
    'top_nodes',
    'Node CPU and memory usage',
    'Current CPU and memory usage of nodes from metrics.k8s.io with the share of allocatable, as `kubectl top node` (answers that metrics-server is not installed when the cluster has no metrics API).',
    {
      sort_by: { type: 'string', enum: ['cpu', 'memory'], description: 'Highest usage first.' },
    },
  ),
];
