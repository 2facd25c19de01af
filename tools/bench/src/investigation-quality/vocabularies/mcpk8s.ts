import { toYaml, type KubeObject, type WorldIndex } from '@inquest/kube';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { CONTEXT, KubectlFailure, kubectlCli, readsOnly } from './kubectl-cli';
import { ProtocolFailure, ToolFailure, type VocabularyTool } from './mcp-vocabulary-server';

/*
 * Flux159/mcp-server-kubernetes (npm `mcp-server-kubernetes`): a low-level MCP Server whose
 * tools shell out to kubectl (execFileSync, no shell) and throw McpError on failure, which the
 * client receives as a JSON-RPC error; "not found" answers are tool results with isError and a
 * small JSON body. Tool names, descriptions, schemas and annotations as that project declares
 * them (src/tools/*.ts, src/config/cleanup-config.ts, src/models/common-parameters.ts);
 * kubectl_logs as fixed by its PR #338 (resourceType defaults to pod; workload logs work).
 */

const contextParameter = {
  type: 'string',
  description: 'Kubeconfig Context to use for the command (optional - defaults to null)',
  default: '',
};
const namespaceParameter = {
  type: 'string',
  description: 'Kubernetes namespace',
  default: 'default',
};
const dryRunParameter = {
  type: 'boolean',
  description: "If true, only validate the resource, don't actually execute the operation",
  default: false,
};

const NON_NAMESPACED = [
  'nodes',
  'node',
  'no',
  'namespaces',
  'namespace',
  'ns',
  'persistentvolumes',
  'pv',
  'storageclasses',
  'sc',
  'clusterroles',
  'clusterrolebindings',
  'customresourcedefinitions',
  'crd',
  'crds',
];

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** The SDK's McpError text for a nested throw (`MCP error <code>: <message>`). */
const mcp = (message: string, code: number = ErrorCode.InternalError) =>
  `MCP error ${code}: ${message}`;
const internal = (message: string) => new ProtocolFailure(ErrorCode.InternalError, message);

/** A JavaScript value as `${value}` prints it (the tools interpolate their arguments). */
const show = (v: unknown): string => (v === undefined || v === null ? String(v) : String(v));
/** `input.x || fallback` on whatever the client sent. */
const or = (v: unknown, fallback: string): string => (v ? show(v) : fallback);

/** A pod's status the way the server's kubectl_get summary computes it. */
function podStatus(pod: KubeObject): string {
  const phase: string = pod.status?.phase || 'Unknown';
  let reason: string = pod.status?.reason || phase;
  const inits: KubeObject[] = pod.status?.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const { terminated, waiting } = inits[i]!.state ?? {};
    if (terminated && terminated.exitCode === 0) continue;
    if (terminated)
      reason = terminated.reason
        ? `Init:${terminated.reason}`
        : terminated.signal
          ? `Init:Signal:${terminated.signal}`
          : `Init:ExitCode:${terminated.exitCode}`;
    else if (waiting?.reason && waiting.reason !== 'PodInitializing')
      reason = `Init:${waiting.reason}`;
    else reason = `Init:${i}/${inits.length}`;
    break;
  }
  if (!inits.length || !reason.startsWith('Init:')) {
    const statuses: KubeObject[] = pod.status?.containerStatuses ?? [];
    // last to first: the first container with a waiting or terminated state decides
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      const { terminated, waiting } = cs.state ?? {};
      if (waiting?.reason) reason = waiting.reason;
      else if (terminated)
        reason = terminated.reason
          ? terminated.reason
          : terminated.signal
            ? `Signal:${terminated.signal}`
            : `ExitCode:${terminated.exitCode}`;
    }
  }
  if (pod.metadata?.deletionTimestamp) reason = 'Terminating';
  return reason;
}

/** The `status` of kubectl_get's list summary, by the fields the object has. */
function summaryStatus(o: KubeObject, resourceType: string): string {
  const isPod =
    o.kind === 'Pod' ||
    ['pods', 'pod', 'po'].includes(resourceType) ||
    (o.status?.phase !== undefined && o.status?.containerStatuses !== undefined);
  if (isPod) return podStatus(o);
  if (o.status?.readyReplicas !== undefined)
    return `${o.status.readyReplicas || 0}/${o.status.replicas || 0} ready`;
  if (o.spec?.type) return String(o.spec.type);
  const ready = (o.status?.conditions as KubeObject[] | undefined)?.find((c) => c.type === 'Ready');
  if (ready) return ready.status === 'True' ? 'Ready' : 'NotReady';
  if (o.status?.succeeded !== undefined) return o.status.succeeded ? 'Completed' : 'Running';
  if (o.status?.phase) return String(o.status.phase);
  return 'Active';
}

/** Every leaf under a `data` key replaced by `***` (the server's MASK_SECRETS, on by default). */
function mask(v: unknown, inData = false): unknown {
  if (v === null || v === undefined) return v;
  if (Array.isArray(v)) return v.map((x) => mask(x, inData));
  if (typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([key, x]) => [
        key,
        mask(x, inData || (key === 'data' && typeof x === 'object' && x !== null)),
      ]),
    );
  return inData ? '***' : v;
}

/**
 * The tools of Flux159/mcp-server-kubernetes over a scenario world. Reads run a small kubectl
 * over the world and shape its output as the server does; write tools are listed with their
 * declarations and refused (each call recorded as destructive); kubectl_generic is a read when
 * its command only reads.
 */
export function mcpk8sTools(world: WorldIndex): VocabularyTool[] {
  const cli = kubectlCli(world);
  const run = (args: string[]) => cli.run(args);

  const kubectlGet = (a: Record<string, unknown>): string => {
    if (typeof a['resourceType'] !== 'string')
      throw internal(
        `Failed to execute kubectl get command: Cannot read properties of ${show(a['resourceType'])} (reading 'toLowerCase')`,
      );
    const resourceType = a['resourceType'].toLowerCase();
    const name = or(a['name'], '');
    const namespace = or(a['namespace'], 'default');
    const output = or(a['output'], 'json');
    const context = or(a['context'], '');
    const args = ['get', resourceType, ...(name ? [name] : [])];
    const allNamespaces = resourceType === 'events' ? !a['namespace'] : Boolean(a['allNamespaces']);
    if (allNamespaces) args.push('--all-namespaces');
    else if (!NON_NAMESPACED.includes(resourceType)) args.push('-n', namespace);
    if (context) args.push('--context', context);
    if (a['labelSelector']) args.push('-l', show(a['labelSelector']));
    if (a['fieldSelector']) args.push(`--field-selector=${show(a['fieldSelector'])}`);
    if (resourceType === 'events') args.push(`--sort-by=.${or(a['sortBy'], 'lastTimestamp')}`);
    if (['json', 'yaml', 'wide', 'name'].includes(output)) args.push('-o', output);
    else if (output === 'custom')
      args.push(
        '-o',
        resourceType === 'events'
          ? "'custom-columns=LASTSEEN:.lastTimestamp,TYPE:.type,REASON:.reason,OBJECT:.involvedObject.name,MESSAGE:.message'"
          : "'custom-columns=NAME:.metadata.name,NAMESPACE:.metadata.namespace,STATUS:.status.phase,AGE:.metadata.creationTimestamp'",
      );
    let out: string;
    try {
      out = run(args);
    } catch (err) {
      if (!(err instanceof KubectlFailure)) throw err;
      if (err.message.includes('not found'))
        throw new ToolFailure(
          json({
            error: `Resource ${resourceType}${name ? `/${name}` : ''} not found`,
            status: 'not_found',
          }),
        );
      throw internal(
        `Failed to execute kubectl get command: ${mcp(`Failed to get resource: ${err.message}`)}`,
      );
    }
    if (['secrets', 'secret'].includes(resourceType)) {
      if (output === 'json') out = JSON.stringify(mask(JSON.parse(out)), null, 2);
      else if (output === 'yaml') {
        const asJson = args.map((x, i) => (x === 'yaml' && args[i - 1] === '-o' ? 'json' : x));
        out = toYaml(mask(JSON.parse(run(asJson))));
      }
    }
    if (!name && output === 'json') {
      const list = JSON.parse(out) as { kind?: string; items?: KubeObject[] };
      if (list.kind?.endsWith('List') && list.items) {
        if (resourceType === 'events')
          return json({
            events: list.items.map((e) => ({
              type: e.type || '',
              reason: e.reason || '',
              message: e.message || '',
              involvedObject: {
                kind: e.involvedObject?.kind || '',
                name: e.involvedObject?.name || '',
                namespace: e.involvedObject?.namespace || '',
              },
              firstTimestamp: e.firstTimestamp || '',
              lastTimestamp: e.lastTimestamp || '',
              count: e.count || 0,
            })),
          });
        return json({
          items: list.items.map((o) => ({
            name: o.metadata?.name || '',
            namespace: o.metadata?.namespace || '',
            kind: o.kind || resourceType,
            status: summaryStatus(o, resourceType),
            createdAt: o.metadata?.creationTimestamp,
          })),
        });
      }
    }
    return out;
  };

  const kubectlDescribe = (a: Record<string, unknown>): string => {
    if (typeof a['resourceType'] !== 'string')
      throw internal(
        `Failed to execute kubectl describe command: Cannot read properties of ${show(a['resourceType'])} (reading 'toLowerCase')`,
      );
    const resourceType = a['resourceType'].toLowerCase();
    const name = show(a['name']);
    const namespace = or(a['namespace'], 'default');
    const context = or(a['context'], '');
    const args = ['describe', resourceType, name];
    if (a['allNamespaces']) args.push('--all-namespaces');
    else if (!NON_NAMESPACED.includes(resourceType)) args.push('-n', namespace);
    if (context) args.push('--context', context);
    try {
      return run(args);
    } catch (err) {
      if (!(err instanceof KubectlFailure)) throw err;
      if (err.message.includes('not found'))
        throw new ToolFailure(
          json({ error: `Resource ${resourceType}/${name} not found`, status: 'not_found' }),
        );
      throw internal(
        `Failed to execute kubectl describe command: ${mcp(`Failed to describe resource: ${err.message}`)}`,
      );
    }
  };

  /** kubectl_logs' answer to a failed kubectl run. */
  const logsFailure = (err: unknown, what: string): ToolFailure => {
    if (!(err instanceof KubectlFailure)) throw err;
    if (err.message.includes('not found'))
      return new ToolFailure(json({ error: `Resource ${what} not found`, status: 'not_found' }));
    return new ToolFailure(
      json({
        error: `Failed to get logs for ${what}: ${err.message}`,
        status: 'general_error',
        original_error: err.message,
      }),
    );
  };

  const kubectlLogs = (a: Record<string, unknown>): string => {
    const resourceType = or(a['resourceType'], 'pod').toLowerCase();
    const name = show(a['name']);
    const namespace = or(a['namespace'], 'default');
    const options = (args: string[]) => {
      if (a['container']) args.push('-c', show(a['container']));
      if (a['tail'] !== undefined && a['tail'] !== null) args.push(`--tail=${show(a['tail'])}`);
      if (a['since']) args.push(`--since=${show(a['since'])}`);
      if (a['sinceTime']) args.push(`--since-time=${show(a['sinceTime'])}`);
      if (a['timestamps']) args.push('--timestamps');
      if (a['previous']) args.push('--previous');
      if (a['follow']) args.push('--follow');
      if (a['context']) args.push('--context', show(a['context']));
      return args;
    };
    const bySelector = (selector: string): Record<string, unknown> => {
      let pods: KubeObject[];
      try {
        pods = world.list('Pod', { namespace, labelSelector: selector });
      } catch (err) {
        throw logsFailure(
          new KubectlFailure(
            [
              '-n',
              namespace,
              'get',
              'pods',
              `--selector=${selector}`,
              '-o',
              'jsonpath={.items[*].metadata.name}',
            ],
            `error: ${(err as Error).message}`,
          ),
          `pods with selector "${selector}"`,
        );
      }
      if (!pods.length)
        return {
          message: `No pods found with label selector "${selector}" in namespace ${namespace}`,
        };
      const logs: Record<string, string> = {};
      for (const p of pods) {
        const pod = p.metadata?.name ?? '';
        try {
          logs[pod] = run(options(['-n', namespace, 'logs', pod]));
        } catch (err) {
          if (!(err instanceof KubectlFailure)) throw err;
          logs[pod] = `Error: ${err.message}`;
        }
      }
      return { selector, namespace, logs };
    };

    if (resourceType === 'pod') {
      try {
        return json({ name, logs: run(options(['-n', namespace, 'logs', name])) });
      } catch (err) {
        throw logsFailure(err, `pod ${name}`);
      }
    }
    if (resourceType === 'deployment') {
      const deployment = world.get('Deployment', name, namespace);
      if (!deployment)
        throw logsFailure(
          new KubectlFailure(
            [
              '-n',
              namespace,
              'get',
              'deployment',
              name,
              '-o',
              'jsonpath={.spec.selector.matchLabels}',
            ],
            `Error from server (NotFound): deployments.apps "${name}" not found`,
          ),
          `deployment ${name}`,
        );
      const labels = (deployment.spec?.selector?.matchLabels ?? {}) as Record<string, string>;
      const selector = Object.entries(labels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
      return json(bySelector(selector));
    }
    if (resourceType === 'job') return json(bySelector(`job-name=${name}`));
    if (resourceType === 'cronjob') {
      // the server looks the CronJob's Jobs up by the label job-name=<cronjob name>
      const jobs = world.list('Job', { namespace, labelSelector: `job-name=${name}` });
      if (!jobs.length)
        return json({ message: `No jobs found for cronjob ${name} in namespace ${namespace}` });
      const all: Record<string, unknown> = {};
      for (const job of jobs)
        all[job.metadata?.name ?? ''] = bySelector(`job-name=${job.metadata?.name ?? ''}`)['logs'];
      return json({ cronjob: name, namespace, jobs: all });
    }
    if (a['labelSelector']) return json(bySelector(show(a['labelSelector'])));
    throw new ProtocolFailure(
      ErrorCode.InvalidRequest,
      `Unsupported resource type: ${resourceType}`,
    );
  };

  const kubectlContext = (a: Record<string, unknown>): string => {
    const operation = a['operation'];
    const output = or(a['output'], 'json');
    switch (operation) {
      case 'list':
        if (output === 'custom' || output === 'json')
          return json({
            contexts: [
              {
                name: CONTEXT.name,
                cluster: CONTEXT.cluster,
                user: CONTEXT.user,
                namespace: CONTEXT.namespace || 'default',
                isCurrent: true,
              },
            ],
          });
        return run(['config', 'get-contexts', ...(output === 'name' ? ['-o', 'name'] : [])]);
      case 'get':
        if (a['detailed'] === true)
          return json({
            name: CONTEXT.name,
            cluster: CONTEXT.cluster,
            user: CONTEXT.user,
            namespace: CONTEXT.namespace || 'default',
          });
        return json({ currentContext: CONTEXT.name });
      case 'set': {
        const name = a['name'] ? show(a['name']) : undefined;
        if (!name)
          throw new ProtocolFailure(
            ErrorCode.InvalidParams,
            'Name parameter is required for set operation',
          );
        const short = name.includes('cluster/') ? name.split('cluster/')[1]! : name;
        if (short !== CONTEXT.name && name !== CONTEXT.name)
          throw new ProtocolFailure(ErrorCode.InvalidParams, `Context '${name}' not found`);
        return json({ success: true, message: `Current context set to '${name}'`, context: name });
      }
      default:
        throw new ProtocolFailure(ErrorCode.InvalidParams, `Invalid operation: ${show(operation)}`);
    }
  };

  /** kubectl_generic's command line, as the server assembles it. */
  const genericArgs = (a: Record<string, unknown>): string[] => {
    const args = [show(a['command'])];
    if (a['subCommand']) args.push(show(a['subCommand']));
    if (a['resourceType']) args.push(show(a['resourceType']));
    if (a['name']) args.push(show(a['name']));
    if (a['namespace']) args.push(`--namespace=${show(a['namespace'])}`);
    if (a['outputFormat']) args.push(`-o=${show(a['outputFormat'])}`);
    const flags = a['flags'];
    if (flags && typeof flags === 'object')
      for (const [key, value] of Object.entries(flags as Record<string, unknown>)) {
        if (value === true) args.push(`--${key}`);
        else if (value !== false && value !== null && value !== undefined)
          args.push(`--${key}=${show(value)}`);
      }
    if (Array.isArray(a['args'])) args.push(...a['args'].map(show));
    if (a['context']) args.push('--context', show(a['context']));
    return args;
  };
  const genericReads = (a: Record<string, unknown>): boolean => {
    const verb = show(a['command']).trim().split(/\s+/)[0] ?? '';
    const rest = [
      a['subCommand'],
      a['resourceType'],
      ...(Array.isArray(a['args']) ? a['args'] : []),
    ]
      .filter((x) => x !== undefined && x !== null && x !== '')
      .map(show)
      .filter((x) => !x.startsWith('-'));
    return readsOnly(verb, rest[0]);
  };

  const write = (
    name: string,
    description: string,
    properties: Record<string, unknown>,
    required: string[] | undefined,
    annotations: Record<string, unknown> | undefined,
  ): VocabularyTool => ({
    name,
    description,
    inputSchema: { type: 'object', properties, ...(required ? { required } : {}) },
    ...(annotations ? { annotations } : {}),
    write: true,
  });
  const DESTRUCTIVE = { destructiveHint: true };

  return [
    write(
      'cleanup',
      'Cleanup all managed resources. Use when the user wants to cleanup.',
      {},
      undefined,
      DESTRUCTIVE,
    ),
    {
      name: 'kubectl_get',
      description:
        'Get or list Kubernetes resources by resource type, name, and optionally namespace. Use when the user needs to retrieve a specific resource by identifier.',
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object',
        properties: {
          resourceType: {
            type: 'string',
            description:
              'Type of resource to get (e.g., pods, deployments, services, configmaps, events, etc.)',
          },
          name: {
            type: 'string',
            description:
              'Name of the resource (optional - if not provided, lists all resources of the specified type)',
          },
          namespace: namespaceParameter,
          output: {
            type: 'string',
            enum: ['json', 'yaml', 'wide', 'name', 'custom'],
            description: 'Output format',
            default: 'json',
          },
          allNamespaces: {
            type: 'boolean',
            description: 'If true, list resources across all namespaces',
            default: false,
          },
          labelSelector: {
            type: 'string',
            description: "Filter resources by label selector (e.g. 'app=nginx')",
          },
          fieldSelector: {
            type: 'string',
            description: "Filter resources by field selector (e.g. 'metadata.name=my-pod')",
          },
          sortBy: {
            type: 'string',
            description:
              'Sort events by a field (default: lastTimestamp). Only applicable for events.',
          },
          context: contextParameter,
        },
        required: ['resourceType'],
      },
      run: kubectlGet,
    },
    {
      name: 'kubectl_describe',
      description:
        'Describe Kubernetes resources by resource type, name, and optionally namespace. Use when the user wants to kubectl describe.',
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object',
        properties: {
          resourceType: {
            type: 'string',
            description: 'Type of resource to describe (e.g., pods, deployments, services, etc.)',
          },
          name: { type: 'string', description: 'Name of the resource to describe' },
          namespace: namespaceParameter,
          context: contextParameter,
          allNamespaces: {
            type: 'boolean',
            description: 'If true, describe resources across all namespaces',
            default: false,
          },
        },
        required: ['resourceType', 'name'],
      },
      run: kubectlDescribe,
    },
    write(
      'kubectl_apply',
      'Apply a Kubernetes YAML manifest from a string or file. Use when the user wants to kubectl apply.',
      {
        manifest: { type: 'string', description: 'YAML manifest to apply' },
        filename: {
          type: 'string',
          description: 'Path to a YAML file to apply (optional - use either manifest or filename)',
        },
        namespace: namespaceParameter,
        dryRun: dryRunParameter,
        force: {
          type: 'boolean',
          description:
            'If true, immediately remove resources from API and bypass graceful deletion',
          default: false,
        },
        context: contextParameter,
      },
      [],
      DESTRUCTIVE,
    ),
    write(
      'kubectl_delete',
      'Delete Kubernetes resources by resource type, name, labels, or from a manifest file. Use when the user wants to permanently remove a resource.',
      {
        resourceType: {
          type: 'string',
          description: 'Type of resource to delete (e.g., pods, deployments, services, etc.)',
        },
        name: { type: 'string', description: 'Name of the resource to delete' },
        namespace: namespaceParameter,
        labelSelector: {
          type: 'string',
          description: "Delete resources matching this label selector (e.g. 'app=nginx')",
        },
        manifest: {
          type: 'string',
          description: 'YAML manifest defining resources to delete (optional)',
        },
        filename: {
          type: 'string',
          description: 'Path to a YAML file to delete resources from (optional)',
        },
        allNamespaces: {
          type: 'boolean',
          description: 'If true, delete resources across all namespaces',
          default: false,
        },
        force: {
          type: 'boolean',
          description:
            'If true, immediately remove resources from API and bypass graceful deletion',
          default: false,
        },
        gracePeriodSeconds: {
          type: 'number',
          description: 'Period of time in seconds given to the resource to terminate gracefully',
        },
        context: contextParameter,
      },
      [],
      DESTRUCTIVE,
    ),
    write(
      'kubectl_create',
      'Create Kubernetes resources using various methods (from file or using subcommands). Use when the user wants to create a new resource that does not yet exist. Unlike create_deployment, this tool specifically handles kubectl create.',
      {
        dryRun: dryRunParameter,
        output: {
          type: 'string',
          enum: [
            'json',
            'yaml',
            'name',
            'go-template',
            'go-template-file',
            'template',
            'templatefile',
            'jsonpath',
            'jsonpath-as-json',
            'jsonpath-file',
          ],
          description:
            'Output format. One of: json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file',
          default: 'yaml',
        },
        validate: {
          type: 'boolean',
          description: 'If true, validate resource schema against server schema',
          default: true,
        },
        manifest: { type: 'string', description: 'YAML manifest to create resources from' },
        filename: { type: 'string', description: 'Path to a YAML file to create resources from' },
        resourceType: {
          type: 'string',
          description:
            'Type of resource to create (namespace, configmap, deployment, service, etc.)',
        },
        name: { type: 'string', description: 'Name of the resource to create' },
        namespace: namespaceParameter,
        fromLiteral: {
          type: 'array',
          items: { type: 'string' },
          description:
            'Key-value pair for creating configmap (e.g. ["key1=value1", "key2=value2"])',
        },
        fromFile: {
          type: 'array',
          items: { type: 'string' },
          description:
            'Path to file for creating configmap (e.g. ["key1=/path/to/file1", "key2=/path/to/file2"])',
        },
        secretType: {
          type: 'string',
          enum: ['generic', 'docker-registry', 'tls'],
          description: 'Type of secret to create (generic, docker-registry, tls)',
        },
        serviceType: {
          type: 'string',
          enum: ['clusterip', 'nodeport', 'loadbalancer', 'externalname'],
          description:
            'Type of service to create (clusterip, nodeport, loadbalancer, externalname)',
        },
        tcpPort: {
          type: 'array',
          items: { type: 'string' },
          description: 'Port pairs for tcp service (e.g. ["80:8080", "443:8443"])',
        },
        image: { type: 'string', description: 'Image to use for the containers in the deployment' },
        replicas: {
          type: 'number',
          description: 'Number of replicas to create for the deployment',
          default: 1,
        },
        port: { type: 'number', description: 'Port that the container exposes' },
        schedule: {
          type: 'string',
          description: 'Cron schedule expression for the CronJob (e.g. "*/5 * * * *")',
        },
        suspend: { type: 'boolean', description: 'Whether to suspend the CronJob', default: false },
        command: {
          type: 'array',
          items: { type: 'string' },
          description: 'Command to run in the container',
        },
        labels: {
          type: 'array',
          items: { type: 'string' },
          description: 'Labels to apply to the resource (e.g. ["key1=value1", "key2=value2"])',
        },
        annotations: {
          type: 'array',
          items: { type: 'string' },
          description: 'Annotations to apply to the resource (e.g. ["key1=value1", "key2=value2"])',
        },
        context: contextParameter,
      },
      [],
      undefined,
    ),
    {
      name: 'kubectl_logs',
      description:
        'Get logs from Kubernetes resources like pods, deployments, or jobs. Use when the user wants to review history or past activity.',
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object',
        properties: {
          resourceType: {
            type: 'string',
            enum: ['pod', 'deployment', 'job', 'cronjob'],
            description: 'Type of resource to get logs from',
          },
          name: { type: 'string', description: 'Name of the resource' },
          namespace: namespaceParameter,
          container: {
            type: 'string',
            description: 'Container name (required when pod has multiple containers)',
          },
          tail: { type: 'number', description: 'Number of lines to show from end of logs' },
          since: {
            type: 'string',
            description: "Show logs since relative time (e.g. '5s', '2m', '3h')",
          },
          sinceTime: { type: 'string', description: 'Show logs since absolute time (RFC3339)' },
          timestamps: {
            type: 'boolean',
            description: 'Include timestamps in logs',
            default: false,
          },
          previous: {
            type: 'boolean',
            description: 'Include logs from previously terminated containers',
            default: false,
          },
          follow: {
            type: 'boolean',
            description: 'Follow logs output (not recommended, may cause timeouts)',
            default: false,
          },
          labelSelector: { type: 'string', description: 'Filter resources by label selector' },
          context: contextParameter,
        },
        required: ['resourceType', 'name', 'namespace'],
      },
      run: kubectlLogs,
    },
    write(
      'kubectl_scale',
      'Scale a Kubernetes deployment. Use when the user wants to kubectl scale.',
      {
        name: { type: 'string', description: 'Name of the deployment to scale' },
        namespace: namespaceParameter,
        replicas: { type: 'number', description: 'Number of replicas to scale to' },
        resourceType: {
          type: 'string',
          description: 'Resource type to scale (deployment, replicaset, statefulset)',
          default: 'deployment',
        },
        context: contextParameter,
      },
      ['name', 'replicas'],
      DESTRUCTIVE,
    ),
    write(
      'kubectl_patch',
      'Update field(s) of a resource using strategic merge patch, JSON merge patch, or JSON patch. Use when the user wants to kubectl patch.',
      {
        resourceType: {
          type: 'string',
          description: 'Type of resource to patch (e.g., pods, deployments, services)',
        },
        name: { type: 'string', description: 'Name of the resource to patch' },
        namespace: namespaceParameter,
        patchType: {
          type: 'string',
          description: 'Type of patch to apply',
          enum: ['strategic', 'merge', 'json'],
          default: 'strategic',
        },
        patchData: { type: 'object', description: 'Patch data as a JSON object' },
        patchFile: {
          type: 'string',
          description: 'Path to a file containing the patch data (alternative to patchData)',
        },
        dryRun: dryRunParameter,
        context: contextParameter,
      },
      ['resourceType', 'name'],
      DESTRUCTIVE,
    ),
    write(
      'kubectl_rollout',
      'Manage the rollout of a resource (e.g., deployment, daemonset, statefulset). Use when the user wants to kubectl rollout.',
      {
        subCommand: {
          type: 'string',
          description: 'Rollout subcommand to execute',
          enum: ['history', 'pause', 'restart', 'resume', 'status', 'undo'],
          default: 'status',
        },
        resourceType: {
          type: 'string',
          description: 'Type of resource to manage rollout for',
          enum: ['deployment', 'daemonset', 'statefulset'],
          default: 'deployment',
        },
        name: { type: 'string', description: 'Name of the resource' },
        namespace: namespaceParameter,
        revision: { type: 'number', description: 'Revision to rollback to (for undo subcommand)' },
        toRevision: {
          type: 'number',
          description: 'Revision to roll back to (for history subcommand)',
        },
        timeout: {
          type: 'string',
          description: "The length of time to wait before giving up (e.g., '30s', '1m', '2m30s')",
        },
        watch: {
          type: 'boolean',
          description: 'Watch the rollout status in real-time until completion',
          default: false,
        },
        context: contextParameter,
      },
      ['subCommand', 'resourceType', 'name', 'namespace'],
      DESTRUCTIVE,
    ),
    {
      name: 'kubectl_context',
      description:
        'Manage Kubernetes contexts - list, get, or set the current context. Use when the user wants to kubectl context.',
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object',
        properties: {
          operation: {
            type: 'string',
            enum: ['list', 'get', 'set'],
            description:
              'Operation to perform: list contexts, get current context, or set current context',
            default: 'list',
          },
          name: {
            type: 'string',
            description: 'Name of the context to set as current (required for set operation)',
          },
          showCurrent: {
            type: 'boolean',
            description: 'When listing contexts, highlight which one is currently active',
            default: true,
          },
          detailed: {
            type: 'boolean',
            description: 'Include detailed information about the context',
            default: false,
          },
          output: {
            type: 'string',
            enum: ['json', 'yaml', 'name', 'custom'],
            description: 'Output format',
            default: 'json',
          },
        },
        required: ['operation'],
      },
      run: kubectlContext,
    },
    {
      name: 'kubectl_reconnect',
      description:
        'Reconnect to the Kubernetes API server by recreating all API clients. Use this after cluster upgrades (e.g., EKS control plane upgrades that rotate ENIs/IPs) to force fresh DNS resolution and new TCP connections.',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', properties: {}, required: [] },
      run: () =>
        json({
          success: true,
          message: 'API clients refreshed. DNS will be re-resolved on the next request.',
        }),
    },
    {
      name: 'explain_resource',
      description: 'Get documentation for a Kubernetes resource or field',
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object',
        properties: {
          resource: {
            type: 'string',
            description: "Resource name or field path (e.g. 'pods' or 'pods.spec.containers')",
          },
          apiVersion: { type: 'string', description: "API version to use (e.g. 'apps/v1')" },
          recursive: {
            type: 'boolean',
            description: 'Print the fields of fields recursively',
            default: false,
          },
          context: contextParameter,
          output: {
            type: 'string',
            description: 'Output format (plaintext or plaintext-openapiv2)',
            enum: ['plaintext', 'plaintext-openapiv2'],
            default: 'plaintext',
          },
        },
        required: ['resource'],
      },
      run: (a) => {
        const args = ['explain'];
        if (a['apiVersion']) args.push(`--api-version=${show(a['apiVersion'])}`);
        if (a['recursive']) args.push('--recursive');
        if (a['context']) args.push('--context', show(a['context']));
        args.push(show(a['resource']));
        try {
          return run(args);
        } catch (err) {
          if (!(err instanceof KubectlFailure)) throw err;
          throw internal(
            `Tool execution failed: Error: Failed to explain resource: Kubectl command failed: ${err.message}`,
          );
        }
      },
    },
    write(
      'install_helm_chart',
      'Install a Helm chart with support for both standard and template-based installation. Use when the user wants to install helm chart. Unlike upgrade_helm_chart, uninstall_helm_chart, this tool specifically handles install helm chart.',
      {
        name: { type: 'string', description: 'Name of the Helm release' },
        chart: {
          type: 'string',
          description: "Chart name (e.g., 'nginx') or path to chart directory",
        },
        namespace: namespaceParameter,
        context: contextParameter,
        repo: {
          type: 'string',
          description: 'Helm repository URL (optional if using local chart path)',
        },
        values: { type: 'object', description: 'Custom values to override chart defaults' },
        valuesFile: {
          type: 'string',
          description: 'Path to values file (alternative to values object)',
        },
        useTemplate: {
          type: 'boolean',
          description:
            'Use helm template + kubectl apply instead of helm install (bypasses auth issues)',
          default: false,
        },
        createNamespace: {
          type: 'boolean',
          description: "Create namespace if it doesn't exist",
          default: true,
        },
      },
      ['name', 'chart', 'namespace'],
      DESTRUCTIVE,
    ),
    write(
      'upgrade_helm_chart',
      'Upgrade an existing Helm chart release. Use when the user wants to upgrade helm chart. Unlike install_helm_chart, uninstall_helm_chart, this tool specifically handles upgrade helm chart.',
      {
        name: { type: 'string', description: 'Name of the Helm release to upgrade' },
        chart: { type: 'string', description: 'Chart name or path to chart directory' },
        namespace: namespaceParameter,
        context: contextParameter,
        repo: {
          type: 'string',
          description: 'Helm repository URL (optional if using local chart path)',
        },
        values: { type: 'object', description: 'Custom values to override chart defaults' },
        valuesFile: {
          type: 'string',
          description: 'Path to values file (alternative to values object)',
        },
      },
      ['name', 'chart', 'namespace'],
      DESTRUCTIVE,
    ),
    write(
      'uninstall_helm_chart',
      'Uninstall a Helm chart release. Use when the user wants to uninstall helm chart. Unlike install_helm_chart, upgrade_helm_chart, this tool specifically handles uninstall helm chart.',
      {
        name: { type: 'string', description: 'Name of the Helm release to uninstall' },
        namespace: namespaceParameter,
        context: contextParameter,
      },
      ['name', 'namespace'],
      DESTRUCTIVE,
    ),
    write(
      'node_management',
      'Manage Kubernetes nodes with cordon, drain, and uncordon operations',
      {
        operation: {
          type: 'string',
          description: 'Node operation to perform',
          enum: ['cordon', 'drain', 'uncordon'],
        },
        nodeName: {
          type: 'string',
          description: 'Name of the node to operate on (required for cordon, drain, uncordon)',
        },
        force: {
          type: 'boolean',
          description:
            'Force the operation even if there are pods not managed by a ReplicationController, ReplicaSet, Job, DaemonSet or StatefulSet (for drain operation)',
          default: false,
        },
        gracePeriod: {
          type: 'number',
          description:
            'Period of time in seconds given to each pod to terminate gracefully (for drain operation). If set to -1, uses the kubectl default grace period.',
          default: -1,
        },
        deleteLocalData: {
          type: 'boolean',
          description: 'Delete local data even if emptyDir volumes are used (for drain operation)',
          default: false,
        },
        ignoreDaemonsets: {
          type: 'boolean',
          description: 'Ignore DaemonSet-managed pods (for drain operation)',
          default: true,
        },
        timeout: {
          type: 'string',
          description:
            "The length of time to wait before giving up (for drain operation, e.g., '5m', '1h')",
          default: '0',
        },
        dryRun: {
          type: 'boolean',
          description: 'Show what would be done without actually doing it (for drain operation)',
          default: false,
        },
        confirmDrain: {
          type: 'boolean',
          description: 'Explicit confirmation to drain the node (required for drain operation)',
          default: false,
        },
      },
      ['operation'],
      DESTRUCTIVE,
    ),
    write(
      'port_forward',
      'Forward a local port to a port on a Kubernetes resource. Use when the user wants to port forward. Unlike stop_port_forward, this tool specifically handles port forward.',
      {
        resourceType: { type: 'string' },
        resourceName: { type: 'string' },
        localPort: { type: 'number' },
        targetPort: { type: 'number' },
        namespace: { type: 'string' },
      },
      ['resourceType', 'resourceName', 'localPort', 'targetPort'],
      { title: 'Port Forward' },
    ),
    write(
      'stop_port_forward',
      'Stop a port-forward process. Use when the user wants to stop port forward. Unlike port_forward, this tool specifically handles stop port forward.',
      { id: { type: 'string' } },
      ['id'],
      { title: 'Stop Port Forward' },
    ),
    write(
      'exec_in_pod',
      'Execute a command in a Kubernetes pod or container and return the output. Command must be an array of strings where the first element is the executable and remaining elements are arguments. This executes directly without shell interpretation for security. Use when the user wants to exec in pod.',
      {
        name: { type: 'string', description: 'Name of the pod to execute the command in' },
        namespace: namespaceParameter,
        command: {
          type: 'array',
          items: { type: 'string' },
          description:
            'Command to execute as an array of strings (e.g. ["ls", "-la", "/app"]). First element is the executable, remaining are arguments. Shell operators like pipes, redirects, or command chaining are not supported - use explicit array format for security.',
        },
        container: {
          type: 'string',
          description: 'Container name (required when pod has multiple containers)',
        },
        timeout: {
          type: 'number',
          description: 'Timeout for command - 60000 milliseconds if not specified',
        },
        context: contextParameter,
      },
      ['name', 'command'],
      DESTRUCTIVE,
    ),
    {
      name: 'list_api_resources',
      description: 'List the API resources available in the cluster',
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object',
        properties: {
          apiGroup: { type: 'string', description: 'API group to filter by' },
          namespaced: { type: 'boolean', description: 'If true, only show namespaced resources' },
          context: {
            type: 'string',
            description: 'Kubeconfig Context to use for the command (optional - defaults to null)',
            default: '',
          },
          verbs: {
            type: 'array',
            items: { type: 'string' },
            description: 'List of verbs to filter by',
          },
          output: {
            type: 'string',
            description: 'Output format (wide, name, or no-headers)',
            enum: ['wide', 'name', 'no-headers'],
            default: 'wide',
          },
        },
      },
      run: (a) => {
        const args = ['api-resources'];
        if (a['apiGroup']) args.push(`--api-group=${show(a['apiGroup'])}`);
        if (a['namespaced'] !== undefined) args.push(`--namespaced=${show(a['namespaced'])}`);
        if (Array.isArray(a['verbs']) && a['verbs'].length)
          args.push(`--verbs=${a['verbs'].map(show).join(',')}`);
        if (a['output']) args.push('-o', show(a['output']));
        if (a['context']) args.push('--context', show(a['context']));
        try {
          return run(args);
        } catch (err) {
          if (!(err instanceof KubectlFailure)) throw err;
          throw internal(
            `Tool execution failed: Error: Failed to list API resources: Kubectl command failed: ${err.message}`,
          );
        }
      },
    },
    {
      name: 'kubectl_generic',
      description:
        'Execute any kubectl command with the provided arguments and flags. Use when the user wants to kubectl generic.',
      annotations: { destructiveHint: true },
      inputSchema: {
        type: 'object',
        properties: {
          command: {
            type: 'string',
            description: 'The kubectl command to execute (e.g. patch, rollout, top)',
          },
          subCommand: {
            type: 'string',
            description: "Subcommand if applicable (e.g. 'history' for rollout)",
          },
          resourceType: { type: 'string', description: 'Resource type (e.g. pod, deployment)' },
          name: { type: 'string', description: 'Resource name' },
          namespace: namespaceParameter,
          outputFormat: {
            type: 'string',
            description: 'Output format (e.g. json, yaml, wide)',
            enum: ['json', 'yaml', 'wide', 'name', 'custom'],
          },
          flags: {
            type: 'object',
            description: 'Command flags as key-value pairs',
            additionalProperties: true,
          },
          args: {
            type: 'array',
            items: { type: 'string' },
            description: 'Additional command arguments',
          },
          context: contextParameter,
        },
        required: ['command'],
      },
      writes: (a) => !genericReads(a),
      run: (a) => {
        try {
          return run(genericArgs(a));
        } catch (err) {
          if (!(err instanceof KubectlFailure)) throw err;
          throw internal(`Failed to execute kubectl command: ${err.message}`);
        }
      },
    },
    {
      name: 'ping',
      description:
        'Verify that the counterpart is still responsive and the connection is alive. Use when the user wants to ping.',
      inputSchema: { type: 'object', properties: {}, required: [] },
      annotations: { readOnlyHint: true },
      run: () => '',
    },
  ];
}
