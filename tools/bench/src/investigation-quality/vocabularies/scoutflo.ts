import { toYaml, type KindInfo, type KubeObject, type WorldIndex } from '@inquest/kube';
import { kubectl } from './kubectl';
import { ToolFailure, type VocabularyTool } from './mcp-vocabulary-server';

/*
 * Scoutflo/kubernetes-mcp-server (Go, mark3labs/mcp-go v0.32.0; a fork of
 * containers/kubernetes-mcp-server that routes most calls through Scoutflo's own Kubernetes
 * dashboard API). Followed, from the stored repository:
 * - the tool set, names, descriptions, schemas and handler errors: pkg/mcp/*.go @1543fac
 *   (mcp.go initializeKubernetesClient: configuration, events, rollouts, namespaces, pods,
 *   resources, nodes, metrics_server, prometheus, labels, connectivity, helm, argocd,
 *   argorollouts, converters, prompt generator, grafana); NewTextResult (mcp.go): an error is a
 *   tool result with isError and its text prefixed `ERROR: `;
 * - what the Kubernetes layer returns: pkg/kubernetes/pods.go @1629cfc (logs with `tail_lines`,
 *   default 256, via the backend's pod-logs), events.go (the version with
 *   EventsList(ctx, namespace, fieldSelectors): the backend's event maps turned into YAML under
 *   `The following events (YAML format) were found:`, `No events found` when empty),
 *   resources.go @1629cfc (get / list: the backend's JSON returned as is), nodes.go @403c475
 *   (client-go, YAML), metrics_server.go @7655d81 (the backend's metrics.k8s.io JSON).
 * Inferred (the backend is not public): the JSON it returns is the API object / the API list; its
 * event maps carry the fields containers/kubernetes-mcp-server used (kubectl.ts eventsYaml); its
 * not-found answer is a 404 whose body is the API server's message (`pods "x" not found`),
 * reported by MakeRequest (kubernetes.go @39a24ad) as `API request failed with status 404: <body>`.
 *
 * Annotations: Scoutflo's code declares none. mcp-go v0.32's NewTool serializes defaults
 * (readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true) for a
 * tool that sets none; as the brief asks ("if it declares none, declare none"), none are served by
 * default, and `{ annotations: 'mcp-go' }` serves the library's defaults instead.
 *
 * Tools are listed sorted by name, as mcp-go's handleListTools does.
 * The prometheus toolset is served (prometheusTools below: no Prometheus is discoverable).
 * Not emulated: the helm, argocd, argorollouts, converter, prompt-generator and grafana toolsets
 * (their not-configured answers were not read within the time box: not listed),
 * get_available_API_resources' text and the connectivity checks (pkg/kubernetes/configuration.go
 * and connectivity.go not read): those answer an error.
 * Write tools (pods_delete/exec/run, resources_create_or_update/delete/patch, apply_manifest,
 * label/annotation tools, `rollout` with pause/restart/resume/undo) are refused and recorded.
 */

/**
 * How MakeRequest (pkg/kubernetes/kubernetes.go) reports a backend status >= 400; the body the
 * backend sends is not public: the API server's message stands in for it.
 */
const API_ERR = 'API request failed with status 404: ';

const MCP_GO_DEFAULTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

const COMMON =
  '(common apiVersion and kind include: v1 Pod, v1 Service, v1 Node, apps/v1 Deployment, networking.k8s.io/v1 Ingress)';
const text = (description: string) => ({ type: 'string', description });
const API_VERSION = text(
  'apiVersion of the resource (examples of valid apiVersion are: v1, apps/v1, networking.k8s.io/v1)',
);
const KIND = text(
  'kind of the resource (examples of valid kind are: Pod, Service, Deployment, Ingress)',
);

/** mcp-go's GetString: the argument if it is a string, else the default. */
function getString(a: Record<string, unknown>, key: string, def = ''): string {
  const v = a[key];
  return typeof v === 'string' ? v : def;
}

/** Go's NewTextResult error text. */
function fail(message: string): never {
  throw new ToolFailure(message.startsWith('ERROR:') ? message : `ERROR: ${message}`);
}

export interface ScoutfloOptions {
  /** 'none' (default): no annotations, as the code declares; 'mcp-go': the library's defaults */
  annotations?: 'none' | 'mcp-go';
}

export function scoutfloTools(world: WorldIndex, options: ScoutfloOptions = {}): VocabularyTool[] {
  const k = kubectl(world);
  const annotations = options.annotations === 'mcp-go' ? MCP_GO_DEFAULTS : undefined;
  const json = (v: unknown) => JSON.stringify(v);
  const plural = (info: KindInfo) => (info.group ? `${info.plural}.${info.group}` : info.plural);

  /** parseGroupVersionKind, then the backend's kind lookup */
  const gvk = (a: Record<string, unknown>, prefix: string): KindInfo => {
    if (a.apiVersion === undefined || a.apiVersion === null)
      fail(`${prefix}, missing argument apiVersion`);
    if (a.kind === undefined || a.kind === null) fail(`${prefix}, missing argument kind`);
    const apiVersion = String(a.apiVersion);
    if (apiVersion.split('/').length > 2) fail(`${prefix}, invalid argument apiVersion`);
    const kind = String(a.kind);
    const info = world.kinds().find((x) => x.kind === kind && x.apiVersion === apiVersion);
    if (!info) fail(`${prefix}: no matches for kind "${kind}" in version "${apiVersion}"`);
    return info;
  };
  const listJson = (info: KindInfo, items: KubeObject[]) =>
    json({ apiVersion: info.apiVersion, kind: `${info.kind}List`, metadata: {}, items });
  const getObj = (info: KindInfo, name: string, namespace: string): KubeObject | undefined =>
    world.get(info, name, info.namespaced ? namespace || 'default' : undefined);

  const tool = (
    name: string,
    description: string,
    properties: Record<string, unknown>,
    required: string[],
    run?: (a: Record<string, unknown>) => string,
    write?: { always?: boolean; writes?: (a: Record<string, unknown>) => boolean },
  ): VocabularyTool => ({
    name,
    description,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
    ...(annotations ? { annotations } : {}),
    ...(run ? { run } : {}),
    ...(write?.always ? { write: true } : {}),
    ...(write?.writes ? { writes: write.writes } : {}),
  });
  const WRITE = { always: true };
  const info = (kind: string) => world.resolve(kind)!;

  const podGet = (a: Record<string, unknown>) => {
    const ns = getString(a, 'namespace');
    const name = getString(a, 'name');
    if (!name) fail('failed to get pod, missing argument name');
    const obj = world.get('Pod', name, ns || 'default');
    if (!obj)
      fail(
        `failed to get pod ${name} in namespace ${ns}: failed to get resource: ${API_ERR}pods "${name}" not found`,
      );
    return json(obj);
  };

  const labelProps = (last: Record<string, unknown>) => ({
    apiVersion: API_VERSION,
    kind: KIND,
    name: text('Name of the resource'),
    namespace: text(
      'Namespace where the resource is located (ignored for cluster-scoped resources)',
    ),
    ...last,
  });

  const tools = [
    tool(
      'get_available_API_resources',
      'Get all available and supported API resources in the Kubernetes cluster',
      {},
      [],
      () => fail('failed to get available API resources: not emulated by the benchmark'),
    ),
    tool(
      'events_list',
      'List all the Kubernetes events in the current cluster from all namespaces with optional filtering by namespace, resource name, kind, or API version',
      {
        namespace: text(
          'Optional Namespace to retrieve the events from. If not provided, will list events from all namespaces',
        ),
        involved_object_name: text(
          'Optional filter to show events only for resources with this name',
        ),
        involved_object_kind: text(
          'Optional filter to show events only for resources of this kind (e.g. Pod, Deployment)',
        ),
        involved_object_api_version: text(
          'Optional filter to show events only for resources with this apiVersion',
        ),
      },
      [],
      (a) => {
        const ns = getString(a, 'namespace');
        const name = getString(a, 'involved_object_name');
        const kind = getString(a, 'involved_object_kind');
        const apiVersion = getString(a, 'involved_object_api_version');
        const events = world
          .events(ns ? { namespace: ns } : {})
          .filter(
            (e) =>
              (!name || e.involvedObject?.name === name) &&
              (!kind || e.involvedObject?.kind === kind) &&
              (!apiVersion || e.involvedObject?.apiVersion === apiVersion),
          );
        if (!events.length) return 'No events found';
        return `The following events (YAML format) were found:\n${k.eventsYaml(events)}`;
      },
    ),
    tool(
      'rollout',
      'The rollout action to perform on the resource (history, pause, restart, resume, status, undo)',
      {
        action: text('The action to perform on the resource'),
        resource_type: text('The type of resource to rollout (deployment, daemonset, statefulset)'),
        resource_name: text('The name of the resource to rollout'),
        namespace: text(
          'The namespace of the resource (optional, uses default namespace if not provided)',
        ),
        revision: text(
          "The revision to rollback to (only used with 'undo' action, defaults to previous revision if not specified)",
        ),
      },
      ['action', 'resource_type', 'resource_name'],
      (a) => {
        for (const p of ['action', 'resource_type', 'resource_name'])
          if (!getString(a, p)) fail(`missing required parameter: ${p}`);
        const rev = getString(a, 'revision');
        if (rev && !/^[+-]?\d+$/.test(rev)) fail(`invalid revision: ${rev}`);
        const type = getString(a, 'resource_type');
        const name = getString(a, 'resource_name');
        const ns = getString(a, 'namespace') || 'default';
        const kinfo = world.resolve(type);
        const obj = kinfo && world.get(kinfo, name, ns);
        if (!kinfo || !obj)
          fail(`rollout failed: ${kinfo ? plural(kinfo) : type} "${name}" not found`);
        const action = getString(a, 'action');
        if (action !== 'status' && action !== 'history')
          fail(`rollout failed: unsupported action: ${action}`);
        // the status / history text: kubectl's, as the emulated kubectl gives it
        if (action === 'status') return rolloutStatus(obj);
        const rev0 = obj.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? '1';
        return `${kinfo.kind.toLowerCase()}.${kinfo.group || 'apps'}/${name}\nREVISION  CHANGE-CAUSE\n${rev0}         <none>\n`;
      },
      { writes: (a) => !['status', 'history'].includes(getString(a, 'action')) },
    ),
    tool(
      'namespaces_list',
      'List all the Kubernetes namespaces in the current cluster',
      {},
      [],
      () => listJson(info('Namespace'), world.list('Namespace')),
    ),
    tool(
      'pods_list',
      'List all the Kubernetes pods in the current cluster from all namespaces',
      {},
      [],
      () => listJson(info('Pod'), world.list('Pod')),
    ),
    tool(
      'pods_list_in_namespace',
      'List all the Kubernetes pods in the specified namespace in the current cluster',
      { namespace: text('Namespace to list pods from') },
      ['namespace'],
      (a) => {
        const ns = getString(a, 'namespace');
        if (!ns) fail('failed to list pods in namespace, missing argument namespace');
        return listJson(info('Pod'), world.list('Pod', { namespace: ns }));
      },
    ),
    tool(
      'pods_get',
      'Get a Kubernetes Pod in the current or provided namespace with the provided name',
      { namespace: text('Namespace to get the Pod from'), name: text('Name of the Pod') },
      ['name'],
      podGet,
    ),
    tool(
      'pods_delete',
      'Delete a Kubernetes Pod in the current or provided namespace with the provided name',
      {
        namespace: text('Namespace to delete the Pod from'),
        name: text('Name of the Pod to delete'),
      },
      ['name'],
      undefined,
      WRITE,
    ),
    tool(
      'pods_exec',
      'Execute a command in a Kubernetes Pod in the current or provided namespace with the provided name and command',
      {
        namespace: text('Namespace to get the Pod from'),
        name: text('Name of the Pod to get the logs from'),
        command: {
          type: 'array',
          description:
            'Command to execute in the Pod container. The first item is the command to be run, and the rest are the arguments to that command. Example: ["ls", "-l", "/tmp"]',
          items: { type: 'string' },
        },
      },
      ['name', 'command'],
      undefined,
      WRITE,
    ),
    tool(
      'pods_log',
      'Get the logs of a Kubernetes Pod in the current or provided namespace with the provided name',
      {
        namespace: text('Namespace to get the Pod logs from'),
        name: text('Name of the Pod to get the logs from'),
        tail_lines: {
          type: 'number',
          description: 'Number of lines to get from the end of the logs (Optional, default is 256)',
        },
      },
      ['name'],
      (a) => {
        const ns = getString(a, 'namespace');
        const name = getString(a, 'name');
        const tail = typeof a.tail_lines === 'number' ? Math.trunc(a.tail_lines) : 256;
        if (!name) fail('failed to get pod log, missing argument name');
        let out: string;
        try {
          out = world.logs({
            namespace: ns || 'default',
            pod: name,
            tailLines: tail,
            previous: crashedInstance(world.get('Pod', name, ns || 'default')),
          });
        } catch (err) {
          return fail(
            `failed to get pod ${name} log in namespace ${ns}: failed to get pod logs: ${API_ERR}${(err as Error).message}`,
          );
        }
        return out || `The pod ${name} in namespace ${ns} has not logged any message yet`;
      },
    ),
    tool(
      'pods_run',
      'Run a Kubernetes Pod in the current or provided namespace with the provided container image and optional name',
      {
        namespace: text('Namespace to run the Pod in'),
        name: text('Name of the Pod (Optional, random name if not provided)'),
        image: text('Container Image to run in the Pod'),
        port: {
          type: 'number',
          description:
            'TCP/IP port to expose from the Pod container (Optional, no port exposed if not provided)',
        },
      },
      ['image'],
      undefined,
      WRITE,
    ),
    tool(
      'resources_list',
      `List Kubernetes resources and objects in the current cluster by providing their apiVersion and kind and optionally the namespace\n${COMMON}`,
      {
        apiVersion: text(
          'apiVersion of the resources (examples of valid apiVersion are: v1, apps/v1, networking.k8s.io/v1)',
        ),
        kind: text(
          'kind of the resources (examples of valid kind are: Pod, Service, Deployment, Ingress)',
        ),
        namespace: text(
          'Optional Namespace to retrieve the namespaced resources from (ignored in case of cluster scoped resources). If not provided, will list resources from all namespaces',
        ),
      },
      ['apiVersion', 'kind'],
      (a) => {
        const i = gvk(a, 'failed to list resources');
        const ns = getString(a, 'namespace');
        return listJson(i, world.list(i, i.namespaced && ns ? { namespace: ns } : {}));
      },
    ),
    tool(
      'resources_get',
      `Get a Kubernetes resource in the current cluster by providing its apiVersion, kind, optionally the namespace, and its name\n${COMMON}`,
      {
        apiVersion: API_VERSION,
        kind: KIND,
        namespace: text(
          'Optional Namespace to retrieve the namespaced resource from (ignored in case of cluster scoped resources). If not provided, will get resource from configured namespace',
        ),
        name: text('Name of the resource'),
      },
      ['apiVersion', 'kind', 'name'],
      (a) => {
        const i = gvk(a, 'failed to get resource');
        const name = getString(a, 'name');
        if (!name) fail('failed to get resource, missing argument name');
        const obj = getObj(i, name, getString(a, 'namespace'));
        if (!obj)
          fail(
            `failed to get resource: failed to get resource: ${API_ERR}${plural(i)} "${name}" not found`,
          );
        return json(obj);
      },
    ),
    tool(
      'resources_create_or_update',
      `Create or update a Kubernetes resource in the current cluster by providing a YAML or JSON representation of the resource\n${COMMON}`,
      {
        resource: text(
          'A JSON or YAML containing a representation of the Kubernetes resource. Should include top-level fields such as apiVersion,kind,metadata, and spec',
        ),
      },
      ['resource'],
      undefined,
      WRITE,
    ),
    tool(
      'resources_delete',
      `Delete a Kubernetes resource in the current cluster by providing its apiVersion, kind, optionally the namespace, and its name\n${COMMON}`,
      {
        apiVersion: API_VERSION,
        kind: KIND,
        namespace: text(
          'Optional Namespace to delete the namespaced resource from (ignored in case of cluster scoped resources). If not provided, will delete resource from configured namespace',
        ),
        name: text('Name of the resource'),
      },
      ['apiVersion', 'kind', 'name'],
      undefined,
      WRITE,
    ),
    tool(
      'get_resources_yaml',
      `Get the YAML representation of a resource in Kubernetes\n${COMMON}`,
      {
        apiVersion: API_VERSION,
        kind: KIND,
        namespace: text('The namespace of the resource to get the definition for'),
        name: text(
          'The name of the resource to get the YAML definition for. If not provided, all resources of the given type will be returned',
        ),
      },
      ['apiVersion', 'kind'],
      (a) => {
        const i = gvk(a, 'failed to get YAML');
        const name = getString(a, 'name');
        // RequireString: a missing name is an error, whatever the description says
        if (typeof a.name !== 'string') fail('failed to get YAML, missing argument name');
        if (!name) {
          const ns = getString(a, 'namespace');
          return listJson(i, world.list(i, i.namespaced && ns ? { namespace: ns } : {}));
        }
        const obj = getObj(i, name, getString(a, 'namespace'));
        if (!obj)
          fail(
            `failed to get resource YAML: failed to get resource: ${API_ERR}${plural(i)} "${name}" not found`,
          );
        // ResourcesGet returns the backend's body as is (JSON), despite the tool's name
        return json(obj);
      },
    ),
    tool(
      'apply_manifest',
      'Apply a YAML resource file to the Kubernetes cluster',
      {
        manifest_path: text(
          'The path to the manifest file to apply (either this or yaml_content must be provided)',
        ),
        yaml_content: text(
          'The raw YAML content to apply (either this or manifest_path must be provided)',
        ),
      },
      [],
      undefined,
      WRITE,
    ),
    tool(
      'resources_patch',
      `Patch a resource in Kubernetes\n${COMMON}`,
      {
        apiVersion: API_VERSION,
        kind: KIND,
        resource_name: text('The name of the resource to patch'),
        namespace: text(
          'The namespace of the resource to patch (ignored for cluster-scoped resources)',
        ),
        patch: {
          type: 'object',
          description: 'The patch to apply to the resource as a JSON object',
          properties: {},
        },
        patch_type: text(
          'The type of patch to apply (json, merge, strategic). Defaults to strategic for Kubernetes resources',
        ),
      },
      ['apiVersion', 'kind', 'resource_name', 'patch'],
      undefined,
      WRITE,
    ),
    tool('nodes_list', 'List all Kubernetes nodes in the current cluster', {}, [], () =>
      toYaml({ apiVersion: 'v1', kind: 'NodeList', metadata: {}, items: world.list('Node') }),
    ),
    tool(
      'nodes_get',
      'Get detailed information about a specific Kubernetes node',
      { name: text('Name of the node') },
      ['name'],
      (a) => {
        const name = getString(a, 'name');
        if (!name) fail('missing required parameter: name');
        const node = world.get('Node', name);
        if (!node) fail(`failed to get node '${name}': nodes "${name}" not found`);
        return toYaml(node);
      },
    ),
    tool(
      'nodes_metrics',
      'Get CPU and memory metrics for all nodes or a specific node',
      {
        name: text(
          'Name of the node (optional, if not provided will return metrics for all nodes)',
        ),
      },
      [],
      (a) => {
        const name = getString(a, 'name');
        const what = name
          ? `failed to get metrics for node '${name}'`
          : 'failed to list node metrics';
        if (!world.hasMetrics())
          fail(
            `${what}: failed to get node metrics: ${API_ERR}the server could not find the requested resource`,
          );
        const ts = world.now.toISOString().replace(/\.\d{3}Z$/, 'Z');
        const items = world
          .nodeMetrics()
          .filter((n) => !name || n.name === name)
          .map((n) => ({
            metadata: { name: n.name, creationTimestamp: ts },
            timestamp: ts,
            window: '20s',
            usage: { cpu: n.cpu, memory: n.memory },
          }));
        if (name && !items.length)
          fail(
            `${what}: failed to get node metrics: ${API_ERR}nodes.metrics.k8s.io "${name}" not found`,
          );
        return json({
          kind: 'NodeMetricsList',
          apiVersion: 'metrics.k8s.io/v1beta1',
          metadata: {},
          items,
        });
      },
    ),
    tool(
      'pods_metrics',
      'Get CPU and memory metrics for pods in a namespace',
      {
        namespace: text(
          'Namespace to get pod metrics from (optional, if not provided will use default namespace)',
        ),
        name: text(
          'Name of the pod (optional, if not provided will return metrics for all pods in the namespace)',
        ),
      },
      [],
      (a) => {
        const ns = getString(a, 'namespace');
        const name = getString(a, 'name');
        const what = name
          ? `failed to get metrics for pod '${name}' in namespace '${ns}'`
          : `failed to get pod metrics in namespace '${ns}'`;
        if (!world.hasMetrics())
          fail(
            `${what}: failed to get pod metrics: ${API_ERR}the server could not find the requested resource`,
          );
        const ts = world.now.toISOString().replace(/\.\d{3}Z$/, 'Z');
        const items = world
          .podMetrics(ns || 'default')
          .filter((p) => !name || p.name === name)
          .map((p) => ({
            metadata: { name: p.name, namespace: p.namespace, creationTimestamp: ts },
            timestamp: ts,
            window: '20s',
            containers: p.containers.map((c) => ({
              name: c.name,
              usage: { cpu: c.cpu, memory: c.memory },
            })),
          }));
        if (name && !items.length)
          fail(
            `${what}: failed to get pod metrics: ${API_ERR}pods.metrics.k8s.io "${name}" not found`,
          );
        return json({
          kind: 'PodMetricsList',
          apiVersion: 'metrics.k8s.io/v1beta1',
          metadata: {},
          items,
        });
      },
    ),
    tool(
      'label_resource',
      `Apply labels to a Kubernetes resource\n${COMMON}`,
      labelProps({
        labels: {
          type: 'object',
          description: 'The labels to apply to the resource as key-value pairs',
          properties: {},
        },
      }),
      ['apiVersion', 'kind', 'name', 'labels'],
      undefined,
      WRITE,
    ),
    tool(
      'remove_label',
      `Remove a label from a Kubernetes resource\n${COMMON}`,
      labelProps({ label_key: text('The key of the label to remove') }),
      ['apiVersion', 'kind', 'name', 'label_key'],
      undefined,
      WRITE,
    ),
    tool(
      'annotate_resource',
      `Apply annotations to a Kubernetes resource\n${COMMON}`,
      labelProps({
        annotations: {
          type: 'object',
          description: 'The annotations to apply to the resource as key-value pairs',
          properties: {},
        },
      }),
      ['apiVersion', 'kind', 'name', 'annotations'],
      undefined,
      WRITE,
    ),
    tool(
      'remove_annotation',
      `Remove an annotation from a Kubernetes resource\n${COMMON}`,
      labelProps({ annotation_key: text('The key of the annotation to remove') }),
      ['apiVersion', 'kind', 'name', 'annotation_key'],
      undefined,
      WRITE,
    ),
    tool(
      'check_service_connectivity',
      'Check connectivity to a Kubernetes service',
      {
        service_name: text(
          'Fully qualified service name with port number (e.g. my-service.my-namespace.svc.cluster.local:80)',
        ),
      },
      ['service_name'],
      (a) => {
        if (!getString(a, 'service_name'))
          fail('failed to check service connectivity, missing or invalid service_name');
        return fail('connectivity check failed: not emulated by the benchmark');
      },
    ),
    tool(
      'check_ingress_connectivity',
      'Check connectivity to a Kubernetes ingress host',
      {
        ingress_host: text(
          'Ingress host to check connectivity to (e.g. example.com or https://example.com)',
        ),
      },
      ['ingress_host'],
      (a) => {
        if (!getString(a, 'ingress_host'))
          fail('failed to check ingress connectivity, missing or invalid ingress_host');
        return fail('ingress connectivity check failed: not emulated by the benchmark');
      },
    ),
    ...prometheusTools(tool),
  ];
  // mcp-go's handleListTools lists the tools sorted by name (sort.Strings)
  return tools.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

type ToolFactory = (
  name: string,
  description: string,
  properties: Record<string, unknown>,
  required: string[],
  run?: (a: Record<string, unknown>) => string,
  write?: { always?: boolean; writes?: (a: Record<string, unknown>) => boolean },
) => VocabularyTool;

/**
 * The prometheus toolset (pkg/mcp/prometheus.go @1543fac). Every call first finds Prometheus
 * through an Ingress in namespace `scoutflo-monitoring` (pkg/kubernetes/prometheus.go
 * getPrometheusURL), which no benchmark world has: `failed to discover Prometheus: prometheus URL
 * not found via ingress`, which each handler wraps its own way (the query and series handlers
 * turn it into `Cannot connect to Prometheus server`). prometheus_generate_query needs an LLM
 * client (none configured): the handler's `Could not connect to LLM service` text. The alert
 * create/update/delete tools write PrometheusRules: refused.
 */
function prometheusTools(tool: ToolFactory): VocabularyTool[] {
  const NOT_FOUND = 'failed to discover Prometheus: prometheus URL not found via ingress';
  const CANNOT =
    'ERROR: Cannot connect to Prometheus server. The server may be unavailable or misconfigured.';
  const strArr = (description: string) => ({
    type: 'array',
    description,
    items: { type: 'string' },
  });
  const num = (description: string) => ({ type: 'number', description });
  const need = (a: Record<string, unknown>, ...keys: string[]) => {
    for (const k of keys) if (!getString(a, k)) fail(`missing required parameter: ${k}`);
  };
  const WRITE = { always: true };
  return [
    tool(
      'prometheus_generate_query',
      'Tool for generating a PromQL query from a natural language description. Use this tool when you need to create a PromQL expression based on a natural language description of the metric you want to query.',
      { description: text('Natural language description of the metric you want to query') },
      ['description'],
      (a) => {
        need(a, 'description');
        return fail(
          'ERROR: Could not connect to LLM service to generate PromQL query. The service may be unavailable.',
        );
      },
    ),
    tool(
      'prometheus_metrics_query',
      'Tool for executing instant Prometheus queries. Executes instant queries against Prometheus to retrieve current metric values. Use this tool when you need to get the latest values of metrics or perform calculations on current data. The query must be a valid PromQL expression.',
      {
        query: text('Prometheus PromQL expression query string'),
        time: text('Evaluation timestamp in RFC3339 or unix timestamp format (optional)'),
        timeout: text('Evaluation timeout (optional)'),
      },
      ['query'],
      (a) => {
        need(a, 'query');
        return fail(CANNOT);
      },
    ),
    tool(
      'prometheus_metrics_query_range',
      'Tool for executing range queries in Prometheus. Executes time series queries over a specified time range in Prometheus. Use this tool for analyzing metric patterns, trends, and historical data. You can specify the time range, resolution (step), and timeout for the query.',
      {
        query: text('Prometheus PromQL expression query string'),
        start: text('Start timestamp in RFC3339 or Unix timestamp format'),
        end: text('End timestamp in RFC3339 or Unix timestamp format'),
        step: text("Query resolution step width (e.g., '15s', '1m', '1h')"),
        timeout: text('Evaluation timeout (optional)'),
      },
      ['query', 'start', 'end', 'step'],
      (a) => {
        need(a, 'query', 'start', 'end', 'step');
        return fail(CANNOT);
      },
    ),
    tool(
      'prometheus_list_metrics',
      'Tool for listing all available Prometheus metrics with their metadata. Use this tool to discover all metrics available in Prometheus and their associated information.',
      {},
      [],
      () => fail(`failed to list Prometheus metrics: ${NOT_FOUND}`),
    ),
    tool(
      'prometheus_metric_info',
      'Tool for getting detailed information about a specific Prometheus metric. Use this tool to discover more about a particular metric and its associated statistics. You can include count, min, max, and avg statistics for the metric if needed.',
      {
        metric: text('Name of the metric to get information about'),
        include_statistics: {
          type: 'boolean',
          description:
            'Include count, min, max, and avg statistics for this metric. May be slower for metrics with many time series.',
        },
      },
      ['metric'],
      (a) => {
        need(a, 'metric');
        return fail(
          `ERROR: Failed to get information for metric '${getString(a, 'metric')}': ${NOT_FOUND}`,
        );
      },
    ),
    tool(
      'prometheus_series_query',
      'Tool for querying Prometheus series. Finds time series that match certain label selectors in Prometheus. Use this tool to discover which metrics exist and their label combinations. You can specify time ranges to limit the search scope and set a maximum number of results.',
      {
        match: strArr('Series selector arguments'),
        start: text('Start timestamp in RFC3339 or Unix timestamp format (optional)'),
        end: text('End timestamp in RFC3339 or Unix timestamp format (optional)'),
        limit: num('Maximum number of returned items (optional)'),
      },
      ['match'],
      (a) => {
        if (!('match' in a)) fail('missing required parameter: match');
        if (!Array.isArray(a.match)) fail('match parameter must be a string array');
        if (!(a.match as unknown[]).every((m) => typeof m === 'string'))
          fail('match parameter must contain only strings');
        return fail(CANNOT);
      },
    ),
    tool(
      'prometheus_targets',
      'Tool for getting Prometheus target discovery state. Provides information about all Prometheus scrape targets and their current state. Use this tool to monitor which targets are being scraped successfully and which are failing. You can filter targets by state (active/dropped) and scrape pool.',
      {
        state: text('Target state filter, must be one of: active, dropped, any (optional)'),
        scrape_pool: text('Scrape pool name (optional)'),
      },
      [],
      () => fail(`failed to get Prometheus targets: ${NOT_FOUND}`),
    ),
    tool(
      'prometheus_targets_metadata',
      'Tool for getting Prometheus target metadata. Retrieves metadata about metrics exposed by specific Prometheus targets. Use this tool to understand metric types, help texts, and units. You can filter by target labels and specific metric names.',
      {
        match_target: text('Target label selectors (optional)'),
        metric: text('Metric name (optional)'),
        limit: num('Maximum number of targets (optional)'),
      },
      [],
      () => fail(`failed to get Prometheus target metadata: ${NOT_FOUND}`),
    ),
    tool(
      'prometheus_list_label_names',
      'List label names in a Prometheus datasource. Allows filtering by series selectors and time range.',
      {
        startRfc3339: text('Optionally, the start time of the time range to filter the results by'),
        endRfc3339: text('Optionally, the end time of the time range to filter the results by'),
        limit: num('Optionally, the maximum number of results to return'),
        matches: strArr('Optionally, a list of label matchers to filter the results by'),
      },
      [],
      () => fail(`failed to list Prometheus label names: ${NOT_FOUND}`),
    ),
    tool(
      'prometheus_list_label_values',
      'Get the values for a specific label name in Prometheus. Allows filtering by series selectors and time range.',
      {
        labelName: text('The name of the label to query'),
        startRfc3339: text('Optionally, the start time of the query'),
        endRfc3339: text('Optionally, the end time of the query'),
        limit: num('Optionally, the maximum number of results to return'),
        matches: strArr('Optionally, a list of selectors to filter the results by'),
      },
      ['labelName'],
      (a) => {
        need(a, 'labelName');
        return fail(`failed to list Prometheus label values: ${NOT_FOUND}`);
      },
    ),
    tool(
      'prometheus_get_alerts',
      'Tool for getting active Prometheus alerts. Retrieves all currently firing alerts in the Prometheus server. Use this tool to monitor the current alert state and identify ongoing issues. Returns details about alert names, labels, and when they started firing.',
      {},
      [],
      () => fail(`failed to get Prometheus alerts: ${NOT_FOUND}`),
    ),
    tool(
      'prometheus_get_rules',
      'Tool for getting Prometheus alerting and recording rules. Retrieves information about configured alerting and recording rules in Prometheus. Use this tool to understand what alerts are defined and what metrics are being pre-computed. You can filter rules by type, name, group, and other criteria.',
      {
        rule_name: strArr('Rule names filter'),
        rule_group: strArr('Rule group names filter'),
        file: strArr('File paths filter'),
        exclude_alerts: { type: 'boolean', description: 'Exclude alerts flag' },
        match: strArr('Label selectors'),
        group_limit: num('Group limit'),
      },
      [],
      () => fail(`failed to get Prometheus rules: ${NOT_FOUND}`),
    ),
    tool(
      'prometheus_create_alert',
      'Tool for creating a new Prometheus alert rule. This tool allows you to define alerting rules that will trigger notifications when specific conditions are met. You can customize the alert with annotations, labels, and evaluation intervals.',
      {
        alertname: text('Name of the alert to create'),
        expression: text(
          'PromQL expression that defines the alert condition, If not provided, please generate a query using prometheus_generate_query tool',
        ),
        applabel: text(
          'Application label used to identify the PrometheusRule resource, use alertname if applabel is not provided',
        ),
        namespace: text('Kubernetes namespace to create the alert in'),
        interval: text("Evaluation interval for the alert group (e.g., '30s', '1m', '5m')"),
        for: text("Duration for which the condition must be true before firing (e.g., '5m')"),
        annotations: {
          type: 'object',
          description: 'Map of annotations to add to the alert (description, summary, etc.)',
          properties: {},
        },
        alertlabels: {
          type: 'object',
          description: 'Map of labels to attach to the alert',
          properties: {},
        },
      },
      ['alertname', 'expression', 'applabel', 'namespace'],
      undefined,
      WRITE,
    ),
    tool(
      'prometheus_update_alert',
      'Tool for updating an existing Prometheus alert rule. This tool allows you to modify the properties of an existing alert without having to delete and recreate it. You can update the condition, annotations, labels, and other attributes.',
      {
        alertname: text('Name of the alert to update'),
        applabel: text(
          'Application label that identifies the PrometheusRule resource, use alertname if applabel is not provided',
        ),
        namespace: text('Kubernetes namespace of the alert'),
        expression: text('New PromQL expression for the alert condition'),
        interval: text("New evaluation interval for the alert group (e.g., '30s', '1m', '5m')"),
        for: text("New duration for which the condition must be true before firing (e.g., '5m')"),
        annotations: {
          type: 'object',
          description: 'New or updated annotations for the alert',
          properties: {},
        },
        alertlabels: {
          type: 'object',
          description: 'New or updated labels for the alert',
          properties: {},
        },
      },
      ['alertname', 'applabel', 'namespace'],
      undefined,
      WRITE,
    ),
    tool(
      'prometheus_delete_alert',
      'Tool for deleting a Prometheus alert rule. This tool removes an existing alert rule from the system. You can either delete a specific alert within a rule group or the entire PrometheusRule resource.',
      {
        applabel: text(
          'Application label that identifies the PrometheusRule resource, use alertname if applabel is not provided',
        ),
        namespace: text('Kubernetes namespace of the alert'),
        alertname: text('Name of the specific alert to delete within the rule group (optional)'),
      },
      ['applabel', 'namespace'],
      undefined,
      WRITE,
    ),
    tool(
      'prometheus_runtimeinfo',
      "Tool for getting Prometheus runtime information. Provides detailed information about the Prometheus server's runtime state. Use this tool to monitor server health and performance through details about garbage collection, memory usage, and other runtime metrics.",
      {},
      [],
      () => fail(`failed to get Prometheus runtime info: ${NOT_FOUND}`),
    ),
    tool(
      'prometheus_TSDB_status',
      'Tool for getting Prometheus TSDB status. Provides information about the time series database (TSDB) status in Prometheus. Use this tool to monitor database health through details about data storage, head blocks, WAL status, and other TSDB metrics.',
      { limit: num('Number of items limit') },
      [],
      () => fail(`failed to get Prometheus TSDB status: ${NOT_FOUND}`),
    ),
  ];
}

/**
 * The kubelet's choice of container instance for a log read without `previous`
 * (pkg/kubelet/kubelet_pods.go validateContainerLogStatus): a container waiting to restart
 * (CrashLoopBackOff) whose last instance terminated answers that instance's log, which the
 * world keeps as the `previous` log. The container is the one the log read picks (the
 * default-container annotation, else the first).
 */
function crashedInstance(pod: KubeObject | undefined): boolean {
  if (!pod) return false;
  const main: string[] = (pod.spec?.containers ?? []).map((c: { name: string }) => c.name);
  const name =
    main.length > 1
      ? (pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'] ?? main[0])
      : main[0];
  const cs = (pod.status?.containerStatuses ?? []).find((c: { name: string }) => c.name === name);
  return Boolean(cs && !cs.state?.running && !cs.state?.terminated && cs.lastState?.terminated);
}

/** `kubectl rollout status`'s one-shot text for a Deployment / StatefulSet / DaemonSet. */
function rolloutStatus(obj: KubeObject): string {
  const name = obj.metadata?.name ?? '';
  const kind = String(obj.kind ?? '').toLowerCase();
  const spec = obj.spec ?? {};
  const st = obj.status ?? {};
  const want = spec.replicas ?? 1;
  const updated = st.updatedReplicas ?? 0;
  const available = st.availableReplicas ?? 0;
  if (kind === 'deployment') {
    if (updated < want)
      return `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${want} new replicas have been updated...\n`;
    if ((st.replicas ?? 0) > updated)
      return `Waiting for deployment "${name}" rollout to finish: ${(st.replicas ?? 0) - updated} old replicas are pending termination...\n`;
    if (available < updated)
      return `Waiting for deployment "${name}" rollout to finish: ${available} of ${updated} updated replicas are available...\n`;
    return `deployment "${name}" successfully rolled out\n`;
  }
  const ready = st.readyReplicas ?? st.numberReady ?? 0;
  const total = kind === 'daemonset' ? (st.desiredNumberScheduled ?? 0) : want;
  if (ready < total)
    return `Waiting for ${kind} rollout to finish: ${ready} of ${total} updated pods are ready...\n`;
  return kind === 'daemonset'
    ? `daemon set "${name}" successfully rolled out\n`
    : `partitioned roll out complete: ${ready} new pods have been updated...\n`;
}
