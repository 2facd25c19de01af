import { KINDS, type KindInfo, type KubeObject, type WorldIndex } from '@inquest/kube';
import { kubectl } from './kubectl';
import { required, str, ToolFailure, type VocabularyTool } from './mcp-vocabulary-server';

const text = (description: string) => ({ type: 'string', description });
const READ = { readOnlyHint: true, destructiveHint: false, openWorldHint: true };
const COMMON_KINDS =
  '(common apiVersion and kind include: v1 Pod, v1 Service, v1 Node, apps/v1 Deployment, networking.k8s.io/v1 Ingress)';
const LABEL_SELECTOR = text(
  "Optional Kubernetes label selector (e.g. 'app=myapp,env=prod' or 'app in (myapp,yourapp)'), to filter by label",
);

/**
 * The kind an apiVersion + kind pair names (kubernetes-mcp-server resolves it through discovery:
 * the world's custom resources too).
 */
function gvk(world: WorldIndex, args: Record<string, unknown>): KindInfo {
  const apiVersion = required(args, 'apiVersion');
  const kind = required(args, 'kind');
  const info = world
    .kinds()
    .find((k) => k.kind.toLowerCase() === kind.toLowerCase() && k.apiVersion === apiVersion);
  if (!info) throw new ToolFailure(`no matches for kind "${kind}" in version "${apiVersion}"`);
  return info;
}

function notFound(info: KindInfo, name: string): string {
  return `${info.group ? `${info.plural}.${info.group}` : info.plural} "${name}" not found`;
}

/** The selector can be malformed; the API server's error reads like this. */
function safeList(
  world: WorldIndex,
  info: KindInfo,
  opts: { namespace?: string; labelSelector?: string },
) {
  try {
    return world.list(info, opts);
  } catch (err) {
    throw new ToolFailure(`unable to parse requirement: ${(err as Error).message}`);
  }
}

/**
 * kubernetes-mcp-server's tools (core and helm toolsets, as its README lists them) with the
 * annotations that project sets and its output formats: tables for lists (NAMESPACE, APIVERSION,
 * KIND, the kind's wide columns, LABELS), YAML for get, events as a YAML list, plain logs. Its
 * write tools are served too: a call is recorded as destructive and answered with an error.
 */
export function k8sMcpTools(world: WorldIndex): VocabularyTool[] {
  const k = kubectl(world);
  const list = (info: KindInfo, objs: KubeObject[], namespace?: string) => {
    if (!objs.length)
      return namespace && info.namespaced
        ? `No resources found in ${namespace} namespace.`
        : 'No resources found';
    return k.mcpTable(info, objs);
  };
  const pod = (a: Record<string, unknown>, verb: string) => {
    const name = required(a, 'name');
    const namespace = str(a, 'namespace') ?? 'default';
    const obj = world.get('Pod', name, namespace);
    if (!obj)
      throw new ToolFailure(
        `failed to ${verb} pod ${name} in namespace ${namespace}: pods "${name}" not found`,
      );
    return { name, namespace, obj };
  };
  const write = (
    name: string,
    description: string,
    properties: Record<string, unknown>,
    requiredArgs: string[],
    annotations: Record<string, unknown>,
  ): VocabularyTool => ({
    name,
    description,
    inputSchema: { type: 'object', properties, required: requiredArgs },
    annotations,
    write: true,
  });
  return [
    {
      name: 'namespaces_list',
      description: 'List all the Kubernetes namespaces in the current cluster',
      inputSchema: { type: 'object', properties: {} },
      annotations: { title: 'Namespaces: List', ...READ },
      run: () =>
        list(
          KINDS.find((x) => x.kind === 'Namespace')!,
          world.list('Namespace'),
        ),
    },
    {
      name: 'pods_list',
      description: 'List all the Kubernetes pods in the current cluster from all namespaces',
      inputSchema: { type: 'object', properties: { labelSelector: LABEL_SELECTOR } },
      annotations: { title: 'Pods: List', ...READ },
      run: (a) => {
        const info = KINDS.find((x) => x.kind === 'Pod')!;
        return list(info, safeList(world, info, { labelSelector: str(a, 'labelSelector') }));
      },
    },
    {
      name: 'pods_list_in_namespace',
      description: 'List all the Kubernetes pods in the specified namespace in the current cluster',
      inputSchema: {
        type: 'object',
        properties: {
          namespace: text('Namespace to list pods from'),
          labelSelector: LABEL_SELECTOR,
        },
        required: ['namespace'],
      },
      annotations: { title: 'Pods: List in Namespace', ...READ },
      run: (a) => {
        const info = KINDS.find((x) => x.kind === 'Pod')!;
        const namespace = required(a, 'namespace');
        return list(
          info,
          safeList(world, info, { namespace, labelSelector: str(a, 'labelSelector') }),
          namespace,
        );
      },
    },
    {
      name: 'pods_get',
      description:
        'Get a Kubernetes Pod in the current or provided namespace with the provided name',
      inputSchema: {
        type: 'object',
        properties: {
          namespace: text('Namespace to get the Pod from'),
          name: text('Name of the Pod'),
        },
        required: ['name'],
      },
      annotations: { title: 'Pods: Get', ...READ },
      run: (a) => k.yaml(pod(a, 'get').obj),
    },
    {
      name: 'pods_log',
      description:
        'Get the logs of a Kubernetes Pod in the current or provided namespace with the provided name',
      inputSchema: {
        type: 'object',
        properties: {
          namespace: text('Namespace to get the Pod logs from'),
          name: text('Name of the Pod to get the logs from'),
          container: text('Name of the Pod container to get the logs from (Optional)'),
          tail: {
            type: 'integer',
            description:
              'Number of lines to retrieve from the end of the logs (Optional, default: 100)',
            default: 100,
            minimum: 0,
          },
          previous: {
            type: 'boolean',
            description: 'Return previous terminated container logs (Optional)',
          },
        },
        required: ['name'],
      },
      annotations: { title: 'Pods: Log', ...READ },
      run: (a) => {
        const { name, namespace } = pod(a, 'get logs for');
        const tail = a['tail'] === undefined ? 100 : Number(a['tail']);
        let out: string;
        try {
          out = world.logs({
            namespace,
            pod: name,
            ...(str(a, 'container') ? { container: str(a, 'container') } : {}),
            previous: a['previous'] === true || a['previous'] === 'true',
            ...(Number.isFinite(tail) && tail > 0 ? { tailLines: tail } : {}),
          });
        } catch (err) {
          throw new ToolFailure(
            `failed to get pod ${name} log in namespace ${namespace}: ${(err as Error).message}`,
          );
        }
        return out || `The pod ${name} in namespace ${namespace} has not logged any message yet`;
      },
    },
    {
      name: 'pods_top',
      description:
        'List the resource consumption (CPU and memory) as recorded by the Kubernetes Metrics Server for the specified Kubernetes Pods in the all namespaces, the provided namespace, or the current namespace',
      inputSchema: {
        type: 'object',
        properties: {
          all_namespaces: {
            type: 'boolean',
            description: 'If true, list the resource consumption for all Pods in all namespaces',
            default: true,
          },
          namespace: text('Namespace to get the Pods resource consumption from'),
          name: text('Name of the Pod to get the resource consumption from (Optional)'),
          label_selector: LABEL_SELECTOR,
        },
      },
      annotations: { title: 'Pods: Top', ...READ, idempotentHint: true },
      run: (a) => {
        const namespace = str(a, 'namespace');
        const all = a['all_namespaces'] === undefined ? !namespace : a['all_namespaces'] === true;
        return k.topPods({
          allNamespaces: all,
          ...(all ? {} : { namespace: namespace ?? 'default' }),
          ...(str(a, 'name') ? { name: str(a, 'name') } : {}),
          containers: true,
        });
      },
    },
    {
      name: 'nodes_top',
      description:
        'List the resource consumption (CPU and memory) as recorded by the Kubernetes Metrics Server for the specified Kubernetes Nodes or all nodes in the cluster',
      inputSchema: {
        type: 'object',
        properties: {
          name: text(
            'Name of the Node to get the resource consumption from (Optional, all Nodes if not provided)',
          ),
          label_selector: text(
            "Kubernetes label selector (e.g. 'node-role.kubernetes.io/worker=') to filter nodes",
          ),
        },
      },
      annotations: { title: 'Nodes: Top', ...READ, idempotentHint: true },
      run: (a) => k.topNodes(str(a, 'name')),
    },
    {
      name: 'events_list',
      description: 'List all the Kubernetes events in the current cluster from all namespaces',
      inputSchema: {
        type: 'object',
        properties: {
          namespace: text(
            'Optional Namespace to retrieve the events from. If not provided, will list events from all namespaces',
          ),
        },
      },
      annotations: { title: 'Events: List', ...READ },
      run: (a) => {
        const events = world.events(str(a, 'namespace') ? { namespace: str(a, 'namespace') } : {});
        if (!events.length) return '# No events found';
        return `# The following events (YAML format) were found:\n${k.eventsYaml(events)}`;
      },
    },
    {
      name: 'resources_list',
      description: `List Kubernetes resources and objects in the current cluster by providing their apiVersion and kind and optionally the namespace and label selector\n${COMMON_KINDS}`,
      inputSchema: {
        type: 'object',
        properties: {
          apiVersion: text(
            'apiVersion of the resources (examples of valid apiVersion are: v1, apps/v1, networking.k8s.io/v1)',
          ),
          kind: text(
            'kind of the resources (examples of valid kind are: Pod, Service, Deployment, Ingress)',
          ),
          namespace: text(
            'Optional Namespace to retrieve the namespaced resources from (ignored in case of cluster scoped resources). If not provided, will list resources from all namespaces',
          ),
          labelSelector: LABEL_SELECTOR,
        },
        required: ['apiVersion', 'kind'],
      },
      annotations: { title: 'Resources: List', ...READ },
      run: (a) => {
        const info = gvk(world, a);
        const namespace = str(a, 'namespace');
        return list(
          info,
          safeList(world, info, {
            ...(namespace && info.namespaced ? { namespace } : {}),
            labelSelector: str(a, 'labelSelector'),
          }),
          namespace,
        );
      },
    },
    {
      name: 'resources_get',
      description: `Get a Kubernetes resource in the current cluster by providing its apiVersion, kind, optionally the namespace, and its name\n${COMMON_KINDS}`,
      inputSchema: {
        type: 'object',
        properties: {
          apiVersion: text(
            'apiVersion of the resource (examples of valid apiVersion are: v1, apps/v1, networking.k8s.io/v1)',
          ),
          kind: text(
            'kind of the resource (examples of valid kind are: Pod, Service, Deployment, Ingress)',
          ),
          namespace: text(
            'Optional Namespace to retrieve the namespaced resource from (ignored in case of cluster scoped resources). If not provided, will get resource from configured namespace',
          ),
          name: text('Name of the resource'),
        },
        required: ['apiVersion', 'kind', 'name'],
      },
      annotations: { title: 'Resources: Get', ...READ },
      run: (a) => {
        const info = gvk(world, a);
        const name = required(a, 'name');
        const obj = world.get(
          info,
          name,
          info.namespaced ? (str(a, 'namespace') ?? 'default') : undefined,
        );
        if (!obj) throw new ToolFailure(`failed to get resource: ${notFound(info, name)}`);
        return k.yaml(obj);
      },
    },
    {
      name: 'helm_list',
      description:
        'List all the Helm releases in the current or provided namespace (or in all namespaces if specified)',
      inputSchema: {
        type: 'object',
        properties: {
          namespace: text(
            'Namespace to list Helm releases from (Optional, all namespaces if not provided)',
          ),
          all_namespaces: {
            type: 'boolean',
            description: 'If true, lists all Helm releases in all namespaces',
          },
        },
      },
      annotations: { title: 'Helm: List', ...READ },
      run: () => 'No Helm releases found',
    },
    write(
      'pods_delete',
      'Delete a Kubernetes Pod in the current or provided namespace with the provided name',
      {
        namespace: text('Namespace to delete the Pod from'),
        name: text('Name of the Pod to delete'),
      },
      ['name'],
      { title: 'Pods: Delete', destructiveHint: true, idempotentHint: true, openWorldHint: true },
    ),
    write(
      'pods_exec',
      'Execute a command in a Kubernetes Pod in the current or provided namespace with the provided name and command',
      {
        namespace: text('Namespace of the Pod where the command will be executed'),
        name: text('Name of the Pod where the command will be executed'),
        command: {
          type: 'array',
          items: { type: 'string' },
          description: 'Command to execute in the Pod container',
        },
        container: text('Name of the Pod container where the command will be executed (Optional)'),
      },
      ['name', 'command'],
      { title: 'Pods: Exec', destructiveHint: true, openWorldHint: true },
    ),
    write(
      'pods_run',
      'Run a Kubernetes Pod in the current or provided namespace with the provided container image and optional name',
      {
        namespace: text('Namespace to run the Pod in'),
        name: text('Name of the Pod (Optional, random name if not provided)'),
        image: text('Container Image to run in the Pod'),
        port: {
          type: 'number',
          description: 'TCP/IP port to expose from the Pod container (Optional)',
        },
      },
      ['image'],
      { title: 'Pods: Run', destructiveHint: false, openWorldHint: true },
    ),
    write(
      'resources_create_or_update',
      `Create or update a Kubernetes resource in the current cluster by providing a YAML or JSON representation of the resource\n${COMMON_KINDS}`,
      { resource: text('A JSON or YAML containing a representation of the Kubernetes resource') },
      ['resource'],
      {
        title: 'Resources: Create or Update',
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
    ),
    write(
      'resources_delete',
      `Delete a Kubernetes resource in the current cluster by providing its apiVersion, kind, optionally the namespace, and its name\n${COMMON_KINDS}`,
      {
        apiVersion: text('apiVersion of the resource'),
        kind: text('kind of the resource'),
        namespace: text('Optional Namespace to delete the namespaced resource from'),
        name: text('Name of the resource'),
      },
      ['apiVersion', 'kind', 'name'],
      {
        title: 'Resources: Delete',
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
    ),
    write(
      'resources_scale',
      'Get or update the scale of a Kubernetes resource in the current cluster by providing its apiVersion, kind, name, and optionally the namespace. If the scale is set in the tool call, the scale will be updated to that value. Always returns the current scale of the resource',
      {
        apiVersion: text('apiVersion of the resource (examples of valid apiVersion are apps/v1)'),
        kind: text('kind of the resource (examples of valid kind are: StatefulSet, Deployment)'),
        namespace: text('Optional Namespace to get/update the namespaced resource scale from'),
        name: text('Name of the resource'),
        scale: { type: 'integer', description: 'Optional scale to update the resources scale to' },
      },
      ['apiVersion', 'kind', 'name'],
      {
        title: 'Resources: Scale',
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
    ),
    write(
      'helm_install',
      'Install a Helm chart in the current or provided namespace',
      {
        chart: text(
          'Chart reference to install (for example: stable/grafana, oci://ghcr.io/nginxinc/charts/nginx-ingress)',
        ),
        values: { type: 'object', description: 'Values to pass to the Helm chart (Optional)' },
        name: text('Name of the Helm release (Optional, random name if not provided)'),
        namespace: text(
          'Namespace to install the Helm chart in (Optional, current namespace if not provided)',
        ),
      },
      ['chart'],
      {
        title: 'Helm: Install',
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    ),
    write(
      'helm_uninstall',
      'Uninstall a Helm release in the current or provided namespace',
      {
        name: text('Name of the Helm release to uninstall'),
        namespace: text(
          'Namespace to uninstall the Helm release from (Optional, current namespace if not provided)',
        ),
      },
      ['name'],
      {
        title: 'Helm: Uninstall',
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
    ),
  ];
}
