import type { KubeObject, WorldIndex } from '@inquest/kube';
import { CONTEXT, KubectlFailure, kubectlCli } from './kubectl-cli';
import { ToolFailure, type VocabularyTool } from './mcp-vocabulary-server';

/*
 * Azure/aks-mcp (Go, mark3labs/mcp-go): its Kubernetes tools at the default access level
 * `readonly` with its specialised kubectl tools, the ones its README lists for readonly
 * (README.md @01339bc: kubectl_resources, kubectl_diagnostics, kubectl_cluster, kubectl_config;
 * kubectl_workloads and kubectl_metadata need readwrite). They were the default until aks-mcp
 * made the unified `call_kubectl` the default; on today's main they are what USE_LEGACY_TOOLS=true
 * serves (internal/server/server.go registerKubectlComponent @00ae339, internal/config/config.go).
 * Followed, from the stored repositories:
 * - tool definitions: Azure/mcp-kubernetes pkg/kubectl/registry.go @01992c1 (readOnly variants;
 *   mcp.NewTool, so mcp-go's default annotations are served: readOnlyHint false,
 *   destructiveHint true, idempotentHint false, openWorldHint true);
 * - execution: pkg/kubectl/kubectl_executor.go @253d4f3 (parameter checks, validateCombination,
 *   MapOperationToCommand, buildCommand), pkg/kubectl/executor.go @a2bcee7 (`kubectl ` prefix),
 *   pkg/security/validator.go @0774198 (blocked global flags, access level, namespace flags),
 *   the ShellProcess of aks-mcp internal/command/command.go @35f3e44 (shlex split, no shell,
 *   stderr and `exit status N` on failure, `context deadline exceeded` at the timeout);
 * - the handler: aks-mcp internal/tools/handler.go CreateToolHandlerWithName @a6c40ba (an error
 *   is a tool result with isError, `<error>\n<command output>`).
 * kubectl itself is the benchmark's emulated kubectl (kubectl-cli.ts), with what that one lacks
 * and these tools reach added here: `cluster-info`, `diff`, `auth can-i`, `logs -l`,
 * `logs --all-containers`, `logs -f` on a running container (it never returns before the
 * 600 s timeout). A write operation is refused by the validator with its own message and
 * recorded as destructive.
 *
 * `aksMcpTools(world, { tools: 'unified' })` serves today's default instead: the one
 * `call_kubectl` tool (mcp-kubernetes registry.go @01992c1 createCallKubectlTool, readonly text;
 * its `command` is a full kubectl command line, checked by the same validator and run by the same
 * executor). The stored executor that reads `command` is not in the index (the stored one,
 * @253d4f3, still read `args`): its missing-parameter text is inferred from the others.
 */

/** mcp-go's NewTool defaults, serialized for every tool that sets none (aks-mcp sets none). */
const ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

const RESOURCES_DESCRIPTION = `View Kubernetes resources with read-only operations.

Available operations:
- get: Display one or many resources
- describe: Show detailed information about resources

Common resources: pods, deployments, services, configmaps, secrets, namespaces, etc.

Examples:
- Get pods: operation='get', resource='pods', args='-n default'
- Get specific pod: operation='get', resource='pods', args='nginx-pod -n default'
- Get with selector: operation='get', resource='pods', args='-l app=nginx'
- Get all namespaces: operation='get', resource='pods', args='--all-namespaces'
- Describe deployment: operation='describe', resource='deployment', args='myapp -n production'
- Describe all pods: operation='describe', resource='pods', args=''
- Describe with selector: operation='describe', resource='pods', args='-l name=myLabel'`;

const DIAGNOSTICS_DESCRIPTION = `Diagnose and debug Kubernetes resources.

Available operations:
- logs: Print logs for a container in a pod
- events: Display events
- top: Display resource usage (CPU/Memory)
- exec: Execute a command in a container
- cp: Copy files to/from containers

Examples:
- Logs for default container: operation='logs', resource='', args='nginx'
- Logs for specific container: operation='logs', resource='', args='nginx -c ruby-container'
- Logs with selector: operation='logs', resource='', args='-l app=nginx --all-containers=true'
- Get events: operation='events', resource='', args='--all-namespaces'
- Get events namespace: operation='events', resource='', args='-n default'
- Top pods: operation='top', resource='pod', args=''
- Top nodes: operation='top', resource='node', args=''
- Top with containers: operation='top', resource='pod', args='POD_NAME --containers'
- Exec command: operation='exec', resource='', args='mypod -n NAMESPACE -- date'
- Copy to pod: operation='cp', resource='', args='/tmp/foo_dir some-pod:/tmp/bar_dir'
- Copy from pod: operation='cp', resource='', args='some-namespace/some-pod:/tmp/foo /tmp/bar'
- Copy with container: operation='cp', resource='', args='/tmp/foo some-pod:/tmp/bar -c specific-container'`;

const CLUSTER_DESCRIPTION = `Get information about the Kubernetes cluster and API.

Available operations:
- cluster-info: Display cluster information
- api-resources: Print supported API resources
- api-versions: Print supported API versions
- explain: Get documentation for a resource

Examples:
- Cluster info: operation='cluster-info', resource='', args=''
- Cluster info dump: operation='cluster-info', resource='dump', args=''
- List resources: operation='api-resources', resource='', args=''
- Namespaced resources: operation='api-resources', resource='', args='--namespaced=true'
- Non-namespaced resources: operation='api-resources', resource='', args='--namespaced=false'
- Resources by group: operation='api-resources', resource='', args='--api-group=rbac.authorization.k8s.io'
- API versions: operation='api-versions', resource='', args=''
- Explain pod: operation='explain', resource='pods', args=''
- Explain field: operation='explain', resource='pods.spec.containers', args=''
- Explain with version: operation='explain', resource='deployments', args='--api-version=apps/v1'`;

const CONFIG_DESCRIPTION = `Work with Kubernetes configurations (read-only).

Available operations:
- diff: Diff the live version against what would be applied
- auth: Inspect authorization (can-i)
- config: View kubectl configuration contexts (read-only)

Config operations (read-only):
- current-context: Display the current context
- get-contexts: Describe one or many contexts

Examples:
- Diff config: operation='diff', resource='', args='-f pod.json'
- Check auth: operation='auth', resource='can-i', args='create pods --all-namespaces'
- Get current context: operation='config', resource='current-context', args=''
- List contexts: operation='config', resource='get-contexts', args=''`;

const CALL_KUBECTL_DESCRIPTION = `Execute kubectl commands with read-only access.

Pass full kubectl command including 'kubectl' prefix. All standard kubectl flags are supported.

Allowed commands:
get, describe, explain, logs, top, auth, config, cluster-info, api-resources, api-versions, version, diff, completion, help, kustomize, options, plugin, wait, events

Examples:
- command='kubectl get pods -n default'
- command='kubectl describe deployment myapp -n production'
- command='kubectl logs nginx-pod -f'
- command='kubectl top pods'
- command='kubectl events --all-namespaces'
- command='kubectl explain pods.spec.containers'
- command='kubectl auth can-i create pods'`;

type ToolName = 'kubectl_resources' | 'kubectl_diagnostics' | 'kubectl_cluster' | 'kubectl_config';

/** security.KubectlReadOperations: what readonly lets through */
const READ_OPERATIONS = [
  'get',
  'describe',
  'explain',
  'logs',
  'top',
  'auth',
  'config',
  'cluster-info',
  'api-resources',
  'api-versions',
  'version',
  'diff',
  'completion',
  'help',
  'kustomize',
  'options',
  'plugin',
  'wait',
  'events',
];

/** security.KubectlBlockedGlobalFlags, refused at every access level */
const BLOCKED_GLOBAL_FLAGS = [
  '--server=',
  '--server ',
  '--token=',
  '--token ',
  '--kubeconfig=',
  '--kubeconfig ',
  '--context=',
  '--context ',
  '--certificate-authority=',
  '--certificate-authority ',
  '--client-certificate=',
  '--client-certificate ',
  '--client-key=',
  '--client-key ',
  '--insecure-skip-tls-verify',
  '--as=',
  '--as ',
  '--as-group=',
  '--as-group ',
  '--as-uid=',
  '--as-uid ',
];

const CONFIG_WRITE_SUBCOMMANDS = [
  'use-context',
  'set',
  'set-cluster',
  'set-context',
  'set-credentials',
  'unset',
  'delete-cluster',
  'delete-context',
  'delete-user',
  'rename-context',
];

const fail = (message: string) => new ToolFailure(message);

function oneOf(
  operation: string,
  valid: string[],
  what: string,
  label = 'operation',
  plural = 'operations',
) {
  if (!valid.includes(operation))
    throw fail(`invalid ${label} '${operation}' for ${what}. Valid ${plural}: ${valid.join(', ')}`);
}

/** KubectlToolExecutor.validateCombination */
function validateCombination(tool: ToolName, operation: string, resource: string): void {
  switch (tool) {
    case 'kubectl_resources':
      return oneOf(
        operation,
        [
          'get',
          'describe',
          'create',
          'delete',
          'apply',
          'patch',
          'replace',
          'cordon',
          'uncordon',
          'drain',
          'taint',
        ],
        'resources tool',
      );
    case 'kubectl_diagnostics':
      return oneOf(operation, ['logs', 'events', 'top', 'exec', 'cp'], 'diagnostics tool');
    case 'kubectl_cluster':
      return oneOf(
        operation,
        ['cluster-info', 'api-resources', 'api-versions', 'explain'],
        'cluster tool',
      );
    case 'kubectl_config':
      switch (operation) {
        case 'diff':
          return;
        case 'auth':
          if (resource !== 'can-i') throw fail("auth operation requires 'can-i' as resource");
          return;
        case 'certificate':
          if (!['approve', 'deny'].includes(resource))
            throw fail(
              `invalid certificate subcommand '${resource}'. Valid subcommands: approve, deny`,
            );
          return;
        case 'config':
          if (!['current-context', 'get-contexts', 'use-context'].includes(resource))
            throw fail(
              `invalid config subcommand '${resource}'. Valid subcommands: current-context, get-contexts, use-context`,
            );
          return;
        default:
          throw fail(
            `invalid operation '${operation}' for config tool. Valid operations: diff, auth, certificate, config`,
          );
      }
  }
}

/** MapOperationToCommand then buildCommand: the command line without `kubectl`. */
function buildCommand(tool: ToolName, operation: string, resource: string, args: string): string {
  const command =
    tool === 'kubectl_config' && ['auth', 'certificate', 'config'].includes(operation)
      ? `${operation} ${resource}`
      : operation;
  if (command.includes(' ')) return args !== '' ? `${command} ${args}` : command;
  const skipResource = [
    'exec',
    'cp',
    'events',
    'cluster-info',
    'api-resources',
    'api-versions',
    'diff',
    'run',
    'logs',
  ].includes(command);
  const parts = [command];
  if (resource !== '' && !skipResource) parts.push(resource);
  if (args !== '') parts.push(args);
  return parts.join(' ');
}

/** validator.extractOperationFromCommand: the first word that is not a flag nor `kubectl` */
const operationOf = (command: string) =>
  command
    .split(/\s+/)
    .filter(Boolean)
    .find((w) => !w.startsWith('-') && w !== 'kubectl') ?? '';

/** validator.validateAccessLevel at readonly: the refusal, or undefined when allowed */
function readonlyRefusal(command: string): string | undefined {
  const operation = operationOf(command);
  if (operation === 'config') {
    const words = command.split(/\s+/).filter(Boolean);
    if (words.length >= 2 && words[0] === 'config' && CONFIG_WRITE_SUBCOMMANDS.includes(words[1]!))
      return 'Error: Cannot execute config write operations in read-only mode';
  }
  if (!READ_OPERATIONS.includes(operation))
    return 'Error: Cannot execute write or admin operations in read-only mode';
  return undefined;
}

/** validator.ValidateCommand (no namespace allow-list: aks-mcp's default) */
function validateCommand(command: string): void {
  const lower = command.toLowerCase().replace(/[ \t\r\n]+/g, ' ');
  for (const flag of BLOCKED_GLOBAL_FLAGS)
    if (lower.includes(flag))
      throw fail(
        `Error: Global flag '${flag}' is not allowed; it can redirect API traffic or inject credentials`,
      );
  const refusal = readonlyRefusal(command);
  if (refusal) throw fail(refusal);
  const namespaces = command.match(/(?:^|\s)(?:--namespace[\s=]|-n[\s=]?)(\S+)/g) ?? [];
  if (namespaces.length > 1)
    throw fail('Error: Command contains multiple namespace flags which is not allowed');
}

/** github.com/google/shlex Split: words, quotes, backslash escapes, `#` comments */
export function shlexSplit(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
  while (i < line.length) {
    const c = line[i]!;
    if (word === undefined) {
      if (isSpace(c)) {
        i++;
        continue;
      }
      if (c === '#') {
        while (i < line.length && line[i] !== '\n') i++;
        continue;
      }
      word = '';
    }
    if (isSpace(c)) {
      words.push(word);
      word = undefined;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= line.length) throw new Error('EOF found after escape character');
      word += line[i + 1];
      i += 2;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('EOF found when expecting closing quote');
      word += line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= line.length) throw new Error('EOF found when expecting closing quote');
        const d = line[i]!;
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\') {
          if (i + 1 >= line.length) throw new Error('EOF found when expecting closing quote');
          word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
    } else {
      word += c;
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Flags of `kubectl logs` that take a value. */
const LOGS_VALUE_FLAGS = new Set([
  '-n',
  '--namespace',
  '-l',
  '--selector',
  '-c',
  '--container',
  '--tail',
  '--since',
  '--since-time',
  '--max-log-requests',
  '--limit-bytes',
  '--pod-running-timeout',
  '--request-timeout',
]);

const switchOn = (v: string | undefined) => v === undefined || v === 'true';

/** What kubectl prints when its API server URL is asked (an AKS control plane). */
const SERVER = 'https://bench-dns-4f2a9c1e.hcp.westeurope.azmk8s.io:443';

/** kubectl over the world, with the commands these tools reach that kubectl-cli.ts lacks. */
function kubectlOver(world: WorldIndex) {
  const cli = kubectlCli(world);

  const running = (pod: KubeObject, container: string) =>
    (
      (pod.status?.containerStatuses ?? []) as Array<{
        name: string;
        state?: { running?: unknown };
      }>
    )
      .filter((s) => s.name === container)
      .some((s) => s.state?.running !== undefined);

  /** `kubectl logs` with a selector, --all-containers, --prefix or --follow */
  const logs = (args: string[]): string => {
    const rest = args.slice(1);
    let selector: string | undefined;
    let namespace = 'default';
    let allContainers = false;
    let prefix = false;
    let follow = false;
    let tail = false;
    let container: string | undefined;
    const positionals: string[] = [];
    const passed: string[] = [];
    for (let i = 0; i < rest.length; i++) {
      const token = rest[i]!;
      if (token === '--') break;
      if (!token.startsWith('-')) {
        positionals.push(token);
        continue;
      }
      const eq = token.indexOf('=');
      const key = eq > 0 ? token.slice(0, eq) : token;
      let value = eq > 0 ? token.slice(eq + 1) : undefined;
      if (LOGS_VALUE_FLAGS.has(key) && value === undefined) value = rest[++i];
      switch (key) {
        case '-l':
        case '--selector':
          selector = value;
          continue;
        case '--all-containers':
          allContainers = switchOn(value);
          continue;
        case '--prefix':
          prefix = switchOn(value);
          continue;
        case '-f':
        case '--follow':
          follow = switchOn(value);
          continue;
        case '-n':
        case '--namespace':
          namespace = value ?? namespace;
          break;
        case '--tail':
          tail = true;
          break;
        case '-c':
        case '--container':
          container = value;
          break;
      }
      passed.push(value !== undefined && LOGS_VALUE_FLAGS.has(key) ? `${key}=${value}` : token);
    }
    if (!selector && !allContainers && !prefix && !follow) return cli.run(args);
    if (selector && positionals.length)
      throw new KubectlFailure(args, 'error: only one of a selector or a pod name may be given');
    let pods: KubeObject[];
    if (selector) {
      try {
        pods = world.list('Pod', { namespace, labelSelector: selector });
      } catch (err) {
        throw new KubectlFailure(args, `error: ${(err as Error).message}`);
      }
    } else {
      const target = positionals[0];
      // a plain pod (TYPE/NAME and errors: kubectl-cli.ts says it)
      const pod = target && !target.includes('/') ? world.get('Pod', target, namespace) : undefined;
      if (!pod) return cli.run(args.filter((a) => !/^(-f|--follow(=.*)?|--prefix(=.*)?)$/.test(a)));
      pods = [pod];
    }
    const out: string[] = [];
    for (const pod of pods) {
      const name = pod.metadata?.name ?? '';
      const names = [
        ...((pod.spec?.initContainers ?? []) as Array<{ name: string }>).map((c) => c.name),
        ...((pod.spec?.containers ?? []) as Array<{ name: string }>).map((c) => c.name),
      ];
      const main = ((pod.spec?.containers ?? []) as Array<{ name: string }>).map((c) => c.name);
      const chosen = allContainers
        ? names
        : [
            container ??
              pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'] ??
              main[0] ??
              '',
          ];
      for (const c of chosen) {
        // kubectl follows the stream: a running container's never ends before the timeout
        if (follow && running(pod, c)) throw new Error('context deadline exceeded');
        const text = cli.run([
          'logs',
          name,
          ...passed.filter((p) => !/^(-c|--container)(=|$)/.test(p)),
          ...(allContainers || container ? [`--container=${c}`] : []),
          // with a selector kubectl keeps the last 10 lines of each pod unless told
          ...(selector && !tail ? ['--tail=10'] : []),
        ]);
        out.push(
          prefix
            ? text
                .split('\n')
                .filter((l, i, all) => i < all.length - 1 || l !== '')
                .map((l) => `[pod/${name}/${c}] ${l}\n`)
                .join('')
            : text,
        );
      }
    }
    return out.join('');
  };

  const clusterInfo = (args: string[]): string => {
    if (args[1] === 'dump')
      throw new KubectlFailure(
        args,
        'error: kubectl cluster-info dump is not emulated by the benchmark',
      );
    const dns = world.get('Service', 'kube-dns', 'kube-system');
    return [
      `Kubernetes control plane is running at ${SERVER}`,
      ...(dns
        ? [
            `CoreDNS is running at ${SERVER}/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy`,
          ]
        : []),
      ...(world.hasMetrics()
        ? [
            `Metrics-server is running at ${SERVER}/api/v1/namespaces/kube-system/services/https:metrics-server:/proxy`,
          ]
        : []),
      '',
      "To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.",
      '',
    ].join('\n');
  };

  const diff = (args: string[]): string => {
    const i = args.findIndex(
      (a) => a === '-f' || a === '--filename' || /^(-f|--filename)=/.test(a),
    );
    if (i < 0 && !args.some((a) => a === '-k' || a.startsWith('--kustomize')))
      throw new KubectlFailure(args, 'error: must specify one of -f and -k');
    const path = i >= 0 ? (args[i]!.includes('=') ? args[i]!.split('=')[1] : args[i + 1]) : '';
    throw new KubectlFailure(args, `error: the path "${path ?? ''}" does not exist`);
  };

  const auth = (args: string[]): string => {
    const words = args.slice(2).filter((a) => !a.startsWith('-'));
    if (words.length < 2 && !args.includes('--list'))
      throw new KubectlFailure(
        args,
        "error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples",
      );
    // the kubeconfig's user is the cluster admin
    return 'yes\n';
  };

  return {
    run(args: string[]): string {
      switch (args[0]) {
        case 'cluster-info':
          return clusterInfo(args);
        case 'diff':
          return diff(args);
        case 'auth':
          if (args[1] === 'can-i') return auth(args);
          return cli.run(args);
        case 'logs':
          return logs(args);
        case 'version':
          return 'Client Version: v1.34.2\nKustomize Version: v5.7.1\nServer Version: v1.32.7\n';
        case 'config':
          // reachable through call_kubectl only: the validator lets `kubectl config use-context`
          // through (it looks for `config` as the first word), and kubectl switches the context
          if (args[1] === 'use-context') {
            if (args[2] === CONTEXT.name) return `Switched to context "${CONTEXT.name}".\n`;
            throw new KubectlFailure(
              args,
              `error: no context exists with the name: "${args[2] ?? ''}"`,
            );
          }
          return cli.run(args);
        default:
          return cli.run(args);
      }
    },
  };
}

const stringParam = (a: Record<string, unknown>, key: string): string => {
  const v = a[key];
  if (typeof v !== 'string') throw fail(`${key} parameter is required and must be a string`);
  return v;
};

/** The command a call builds, through the checks before the access level. */
function commandOf(tool: ToolName, a: Record<string, unknown>): string {
  const operation = stringParam(a, 'operation');
  const resource = stringParam(a, 'resource');
  const args = stringParam(a, 'args');
  validateCombination(tool, operation, resource);
  return buildCommand(tool, operation, resource, args);
}

/**
 * aks-mcp's kubectl tools at `readonly` (USE_LEGACY_TOOLS, the specialised tools): each builds a
 * kubectl command from operation, resource and args, validates it and runs it; the text is
 * kubectl's stdout, an error is `exit status 1` and kubectl's stderr.
 */
export function aksMcpTools(
  world: WorldIndex,
  options: { tools?: 'legacy' | 'unified' } = {},
): VocabularyTool[] {
  const kubectl = kubectlOver(world);
  const execute = (command: string): string => {
    validateCommand(command);
    const line = command.startsWith('kubectl ') ? command : `kubectl ${command}`;
    let words: string[];
    try {
      words = shlexSplit(line);
    } catch (err) {
      throw fail((err as Error).message);
    }
    try {
      return kubectl.run(words.slice(1));
    } catch (err) {
      if (err instanceof KubectlFailure)
        throw fail(`exit status 1\n${err.stderr.endsWith('\n') ? err.stderr : `${err.stderr}\n`}`);
      if (err instanceof Error && err.message === 'context deadline exceeded')
        throw fail(err.message);
      throw err;
    }
  };
  const tool = (
    name: ToolName,
    description: string,
    operation: string,
    resource: string,
    args: string,
  ): VocabularyTool => ({
    name,
    description,
    inputSchema: {
      type: 'object',
      properties: {
        operation: { type: 'string', description: operation },
        resource: { type: 'string', description: resource },
        args: { type: 'string', description: args },
      },
      required: ['operation', 'resource', 'args'],
    },
    annotations: ANNOTATIONS,
    // a call the access level refuses: a write (or admin) operation
    writes: (a) => {
      try {
        return readonlyRefusal(commandOf(name, a)) !== undefined;
      } catch {
        return false;
      }
    },
    refusal: (a) => {
      try {
        validateCommand(commandOf(name, a));
        return 'Error: Cannot execute write or admin operations in read-only mode';
      } catch (err) {
        return (err as Error).message;
      }
    },
    run: (a) => execute(commandOf(name, a)),
  });
  if (options.tools === 'unified')
    return [
      {
        name: 'call_kubectl',
        description: CALL_KUBECTL_DESCRIPTION,
        inputSchema: {
          type: 'object',
          properties: {
            command: {
              type: 'string',
              description:
                "Full kubectl command to execute (e.g., 'kubectl get pods -n default', 'kubectl describe deployment myapp', 'kubectl logs nginx-pod -f')",
            },
          },
          required: ['command'],
        },
        annotations: ANNOTATIONS,
        writes: (a) =>
          typeof a['command'] === 'string' && readonlyRefusal(a['command']) !== undefined,
        refusal: (a) => {
          try {
            validateCommand(stringParam(a, 'command'));
            return 'Error: Cannot execute write or admin operations in read-only mode';
          } catch (err) {
            return (err as Error).message;
          }
        },
        run: (a) => execute(stringParam(a, 'command')),
      },
    ];
  return [
    tool(
      'kubectl_resources',
      RESOURCES_DESCRIPTION,
      'The operation to perform: get, describe',
      "The resource type (e.g., pods, deployments, services) or empty string '' for file-based operations (create -f, apply -f, patch -f, replace -f, delete -f)",
      'Additional arguments like resource names, namespaces, and flags',
    ),
    tool(
      'kubectl_diagnostics',
      DIAGNOSTICS_DESCRIPTION,
      'The operation to perform: logs, events, top, exec, cp',
      "The resource type: 'node'/'pod' for top, empty string '' for logs/events/exec/cp",
      'Resource names and operation-specific flags',
    ),
    tool(
      'kubectl_cluster',
      CLUSTER_DESCRIPTION,
      'The operation to perform: cluster-info, api-resources, api-versions, explain',
      "The resource type for explain operation, or empty string '' for cluster-info/api-resources/api-versions",
      'Additional flags and options',
    ),
    tool(
      'kubectl_config',
      CONFIG_DESCRIPTION,
      'The operation to perform: diff, auth, config',
      "Subcommand for auth/certificate/config operations, or empty string '' for diff operation",
      'Operation-specific arguments',
    ),
  ];
}
