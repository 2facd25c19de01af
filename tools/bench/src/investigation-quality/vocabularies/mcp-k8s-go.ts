/*
 * strowk/mcp-k8s-go (Go, on strowk/foxy-contexts), read in the stored repository: main.go at
 * c63480fc6fb94c1855254bc14ee87ca6053d8aeb (the newest stored: --readonly, list mappings)
 * registers, in its default configuration (no --readonly), get-k8s-pod-logs, list-k8s-contexts,
 * list-k8s-namespaces, list-k8s-resources, get-k8s-resource, list-k8s-nodes, list-k8s-events,
 * then the two tools --readonly drops: apply-k8s-resource and k8s-pod-exec (served here as write
 * tools: refused and counted). Followed: internal/tools/{pod_logs,events,namespaces,nodes}.go
 * (e47c2a21), contexts.go and pod_exec_cmd.go (df047e52), get_resource_tool.go (42c121a8),
 * list_resources_tool.go (d5aa8bbf), apply_k8s_resource_tool.go (70bebfa4), internal/k8s/pool.go
 * (afb75362: kind resolution over discovery, informer cache), list_mappings.go and the two list
 * mappings main.go registers (apps/v1/deployment/list_deployments.go and
 * core/v1/service/list_services.go at 9dba1f39; pods have none), internal/utils/age.go,
 * error_response.go, internal/content/json.go, foxy-contexts pkg/toolinput/tool_input_schema.go
 * (96364c3c: argument validation and its errors), and the tests testdata/list_tools_test.yaml,
 * testdata/with_k3d/*.yaml, internal/k8s/core/v1/{pod,node}/*_test.yaml.
 *
 * What it returns, as it does: one text content item per listed object, each the compact JSON
 * of a small struct (no content at all for an empty list); get-k8s-resource the whole object as
 * compact JSON (Go's encoding: map keys sorted, `<`, `>`, `&` escaped, managedFields dropped) or
 * its `go_template` rendered with html/template (go-template.ts, a subset); logs as the API
 * returns them (no container argument: a pod of several containers is the API's error). Errors
 * are tool results with isError (the Go error's text). No tool declares MCP annotations; the
 * tools are listed by name (foxy-contexts' order); schema properties are a Go map (sorted keys).
 * The kubeconfig has one context, kubectl-cli's CONTEXT.
 */

import { KINDS, type WorldIndex, toDate, type KindInfo, type KubeObject } from '@inquest/kube';
import { executeGoTemplate, GoTemplateError } from './go-template';
import { CONTEXT } from './kubectl-cli';
import { ToolFailure, type VocabularyTool } from './mcp-vocabulary-server';

type Args = Record<string, unknown>;
type Prop = { description: string; type: 'string' | 'number' | 'boolean' };

const str = (description: string): Prop => ({ description, type: 'string' });
const CONTEXT_DEFAULT = str('Name of the Kubernetes context to use, defaults to current context');
const CONTEXT_REQUIRED = str('Name of the Kubernetes context to use');

interface Schema {
  type: 'object';
  properties?: Record<string, Prop>;
  required?: string[];
}

function schema(properties: Record<string, Prop>, required: string[] = []): Schema {
  const sorted: Record<string, Prop> = {};
  for (const k of Object.keys(properties).sort()) sorted[k] = properties[k]!;
  return {
    type: 'object',
    ...(Object.keys(sorted).length ? { properties: sorted } : {}),
    ...(required.length ? { required } : {}),
  };
}

/** Go's %T of a JSON-decoded argument. */
function goTypeOf(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

const GO_BOOLS: Record<string, boolean> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/**
 * foxy-contexts' ToolInputSchema.Validate: every required key present (any value), every key
 * a declared property whose value parses as its type. Returns the argument reader.
 */
function validate(s: Schema, args: Args) {
  for (const r of s.required ?? []) {
    if (!(r in args)) throw new ToolFailure('missing required property');
  }
  const props = s.properties ?? {};
  for (const [key, v] of Object.entries(args)) {
    const prop = props[key];
    if (!prop) throw new ToolFailure(`unknown property ${key}`);
    const bad = (why: string) => new ToolFailure(`could not parse property ${key}: ${why}`);
    if (prop.type === 'string' && typeof v !== 'string') throw bad(`unknown type ${goTypeOf(v)}`);
    if (prop.type === 'boolean' && typeof v !== 'boolean') {
      if (typeof v !== 'string') throw bad(`unknown type ${goTypeOf(v)}`);
      if (v !== '' && !(v in GO_BOOLS))
        throw bad(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
    }
    if (prop.type === 'number' && typeof v !== 'number') {
      if (typeof v !== 'string') throw bad(`unknown type ${goTypeOf(v)}`);
      if (v.trim() !== v || v === '' || !Number.isFinite(Number(v)))
        throw bad(`strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`);
    }
  }
  return {
    /** input.StringOr(key, "") */
    string: (key: string): string => (typeof args[key] === 'string' ? (args[key] as string) : ''),
    /** input.BooleanOr(key, false) */
    boolean: (key: string): boolean => {
      const v = args[key];
      if (typeof v === 'boolean') return v;
      return typeof v === 'string' && v !== '' ? (GO_BOOLS[v] ?? false) : false;
    },
    /** input.Number(key): undefined when absent */
    number: (key: string): number | undefined => {
      const v = args[key];
      if (typeof v === 'number') return v;
      if (typeof v === 'string') return Number(v);
      return undefined;
    },
  };
}

/** Go's encoding/json string: JSON with `<`, `>`, `&`, U+2028 and U+2029 escaped. */
function goString(s: string): string {
  return JSON.stringify(s).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Go's json.Marshal: maps (a JSON object of an unstructured object) have their keys sorted; a
 * struct is written in field order, so the outputs built here list their keys in that order and
 * pass `sortKeys: false`.
 */
export function goJson(v: unknown, sortKeys = true): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => goJson(x, sortKeys)).join(',')}]`;
  if (v instanceof Date) return goString(goTime(v));
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined);
  if (sortKeys) keys.sort();
  return `{${keys.map((k) => `${goString(k)}:${goJson(o[k], sortKeys)}`).join(',')}}`;
}

/** A metav1.Time as Go formats it (RFC 3339, UTC, whole seconds). */
function goTime(d: Date | undefined): string {
  if (!d) return '0001-01-01T00:00:00Z';
  return d.toISOString().replace(/\.\d+Z$/, 'Z');
}

/** time.Duration.String() of a whole number of seconds. */
function goDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const sign = seconds < 0 ? '-' : '';
  const s = Math.abs(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${sign}${h}h${m}m${sec}s`;
  if (m > 0) return `${sign}${m}m${sec}s`;
  return `${sign}${sec}s`;
}

/** utils.FormatAge: minutes under an hour, hours under a day, then d / w / mo. */
function formatAge(ms: number): string {
  const hours = ms / 3_600_000;
  // Duration.Round rounds halves away from zero
  const round = (unit: number) => Math.sign(ms) * Math.round(Math.abs(ms) / unit) * (unit / 1000);
  if (hours < 1) return goDuration(round(60_000));
  if (hours < 24) return goDuration(round(3_600_000));
  const days = Math.trunc(hours / 24);
  if (days < 7) return `${days}d`;
  if (days < 30) return `${Math.trunc(days / 7)}w`;
  return `${Math.trunc(days / 30)}mo`;
}

/** time.ParseDuration, in seconds; undefined for what Go rejects. */
function parseGoDuration(s: string): number | undefined {
  const units: Record<string, number> = {
    ns: 1e-9,
    us: 1e-6,
    µs: 1e-6,
    μs: 1e-6,
    ms: 1e-3,
    s: 1,
    m: 60,
    h: 3600,
  };
  let rest = s;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (!rest) return undefined;
  let total = 0;
  while (rest) {
    const m = /^(\d*\.?\d*)(ns|us|µs|μs|ms|s|m|h)/.exec(rest);
    if (!m || m[1] === '' || m[1] === '.') return undefined;
    total += Number(m[1]) * units[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;

/** Go's string order (byte-wise for the ASCII names Kubernetes allows). */
const goCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const byNamespaceThenName = (a: KubeObject, b: KubeObject): number =>
  goCompare(a.metadata?.namespace ?? '', b.metadata?.namespace ?? '') ||
  goCompare(a.metadata?.name ?? '', b.metadata?.name ?? '');

/**
 * ClientPool.GetClientset: the empty context is the kubeconfig's current one; any other name
 * must be a kubeconfig context (client-go's error otherwise).
 */
function checkContext(k8sCtx: string): void {
  if (k8sCtx !== '' && k8sCtx !== CONTEXT.name)
    throw new ToolFailure(`context ${JSON.stringify(k8sCtx)} does not exist`);
}

/**
 * pool.resolve: the first kind discovery serves (core first, then the groups, then custom
 * resources) whose Kind equals `kind` ignoring case, in `group` and `version` when given
 * (also ignoring case; the core group is "", never "core").
 */
function resolveKind(world: WorldIndex, kind: string, group: string, version: string): KindInfo {
  const info = world
    .kinds()
    .find(
      (k) =>
        k.kind.toLowerCase() === kind.toLowerCase() &&
        (group === '' || k.group.toLowerCase() === group.toLowerCase()) &&
        (version === '' || k.version.toLowerCase() === version.toLowerCase()),
    );
  if (!info) throw new ToolFailure(`resource ${group}/${version}/${kind} not found`);
  return info;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0) || 0);

/** list-k8s-resources' mapping for apps/v1 Deployment (DeploymentInList). */
function deploymentInList(d: KubeObject, now: Date): string {
  const created = toDate(d.metadata?.creationTimestamp);
  const replicas = d.spec?.replicas;
  return goJson(
    {
      name: d.metadata?.name ?? '',
      namespace: d.metadata?.namespace ?? '',
      age: formatAge(now.getTime() - (created?.getTime() ?? 0)),
      // the API server defaults spec.replicas to 1
      desired_replicas: replicas === undefined || replicas === null ? 1 : num(replicas),
      ready_replicas: num(d.status?.readyReplicas),
      updated_replicas: num(d.status?.updatedReplicas),
      available_replicas: num(d.status?.availableReplicas),
      created_at: goTime(created),
    },
    false,
  );
}

/** list-k8s-resources' mapping for v1 Service (ServiceContent). */
function serviceContent(s: KubeObject): string {
  const ports = ((s.spec?.ports ?? []) as Array<{ port?: number; protocol?: string }>).map(
    (p) => `${p.port ?? 0}/${p.protocol ?? 'TCP'}`,
  );
  return goJson(
    {
      name: s.metadata?.name ?? '',
      namespace: s.metadata?.namespace ?? '',
      // the API server defaults spec.type to ClusterIP
      type: s.spec?.type ?? 'ClusterIP',
      clusterIP: s.spec?.clusterIP ?? '',
      externalIPs: s.spec?.externalIPs ?? null,
      ports,
    },
    false,
  );
}

/** The object as the informer's cache holds it, managedFields dropped (get-k8s-resource). */
function withoutManagedFields(obj: KubeObject): KubeObject {
  const copy = JSON.parse(JSON.stringify(obj)) as KubeObject;
  if (copy.metadata && typeof copy.metadata === 'object') delete copy.metadata.managedFields;
  return copy;
}

/** The containers the API server names when a log request gives none (init, main, ephemeral). */
function containerNames(pod: KubeObject): { main: string[]; all: string[] } {
  const names = (list: unknown) => ((list ?? []) as Array<{ name: string }>).map((c) => c.name);
  const main = names(pod.spec?.containers);
  return {
    main,
    all: [...names(pod.spec?.initContainers), ...main, ...names(pod.spec?.ephemeralContainers)],
  };
}

export function mcpK8sGoTools(world: WorldIndex): VocabularyTool[] {
  const now = world.now;

  const tool = (
    name: string,
    description: string,
    s: Schema,
    run: (input: ReturnType<typeof validate>) => string | string[],
    wrap: (message: string) => string = (m) => m,
  ): VocabularyTool => ({
    name,
    description,
    inputSchema: s,
    run: (args) => {
      let input: ReturnType<typeof validate>;
      try {
        input = validate(s, args);
      } catch (err) {
        throw new ToolFailure(wrap((err as Error).message));
      }
      return run(input);
    },
  });

  const podLogs = schema(
    {
      context: CONTEXT_REQUIRED,
      namespace: str('Name of the namespace where the pod is located'),
      pod: str('Name of the pod to get logs from'),
      sinceDuration: str(
        'Only return logs newer than a relative duration like 5s, 2m, or 3h. Only one of sinceTime or sinceDuration may be set.',
      ),
      sinceTime: str(
        'Only return logs after a specific date (RFC3339). Only one of sinceTime or sinceDuration may be set.',
      ),
      previousContainer: {
        description: 'Return previous terminated container logs, defaults to false.',
        type: 'boolean',
      },
    },
    ['context', 'namespace', 'pod'],
  );

  const getResource = schema(
    {
      context: CONTEXT_DEFAULT,
      namespace: str('Namespace to get resource from, skip for cluster resources'),
      group: str('API Group of the resource to get'),
      version: str('API Version of the resource to get'),
      kind: str('Kind of resource to get'),
      name: str('Name of the resource to get'),
      go_template: str(
        'Go template to render the output, if not specified, the complete JSON object will be returned',
      ),
    },
    ['kind', 'name'],
  );

  const listResources = schema(
    {
      context: CONTEXT_DEFAULT,
      namespace: str('Namespace to list resources from, defaults to all namespaces'),
      group: str('API Group of resources to list'),
      version: str('API Version of resources to list'),
      kind: str('Kind of resources to list'),
    },
    ['kind'],
  );

  const events = schema(
    {
      context: CONTEXT_REQUIRED,
      namespace: str('Name of the namespace to list events from'),
      limit: { description: 'Maximum number of events to list', type: 'number' },
    },
    ['context', 'namespace'],
  );

  const tools: VocabularyTool[] = [
    {
      name: 'apply-k8s-resource',
      description: 'Create or modify a Kubernetes resource from a YAML manifest',
      inputSchema: schema(
        { context: CONTEXT_DEFAULT, manifest: str('YAML manifest of the resource to apply') },
        ['manifest'],
      ),
      write: true,
    },

    tool(
      'get-k8s-pod-logs',
      'Get logs for a Kubernetes pod using specific context in a specified namespace',
      podLogs,
      (input) => {
        const k8sCtx = input.string('context');
        const namespace = input.string('namespace');
        const podName = input.string('pod');
        const sinceDuration = input.string('sinceDuration');
        const sinceTime = input.string('sinceTime');
        if (sinceDuration !== '' && sinceTime !== '')
          throw new ToolFailure('only one of sinceDuration or sinceTime may be set');
        const previous = input.boolean('previousContainer');
        let sinceSeconds: number | undefined;
        if (sinceDuration !== '') {
          const seconds = parseGoDuration(sinceDuration);
          if (seconds === undefined)
            throw new ToolFailure(
              `invalid duration: ${sinceDuration}, expected to be in Golang duration format as defined in standard time package`,
            );
          sinceSeconds = Math.trunc(seconds);
        } else if (sinceTime !== '') {
          const t = RFC3339.test(sinceTime) ? toDate(sinceTime) : undefined;
          if (!t)
            throw new ToolFailure(
              `invalid time: '${sinceTime}', expected to be in RFC3339 format, for example 2024-12-01T19:00:08Z`,
            );
          sinceSeconds = (now.getTime() - t.getTime()) / 1000;
        }
        checkContext(k8sCtx);
        // GET /api/v1/namespaces/{namespace}/pods/{pod}/log
        if (namespace === '')
          throw new ToolFailure(
            `the server could not find the requested resource ( pods/log ${podName})`,
          );
        if (sinceDuration !== '' && (sinceSeconds ?? 0) < 1)
          throw new ToolFailure(
            `PodLogOptions "${podName}" is invalid: sinceSeconds: Invalid value: ${sinceSeconds}: must be greater than 0`,
          );
        const pod = world.get('Pod', podName, namespace);
        if (!pod) throw new ToolFailure(`pods "${podName}" not found`);
        const names = containerNames(pod);
        if (names.main.length === 0)
          throw new ToolFailure(`a container name must be specified for pod ${podName}`);
        if (names.main.length > 1)
          throw new ToolFailure(
            `a container name must be specified for pod ${podName}, choose one of: [${names.all.join(' ')}]`,
          );
        try {
          return world.logs({
            namespace,
            pod: podName,
            container: names.main[0],
            previous,
            ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
          });
        } catch (err) {
          throw new ToolFailure((err as Error).message);
        }
      },
      (m) => `invalid input: ${m}`,
    ),

    tool(
      'get-k8s-resource',
      'Get details of any Kubernetes resource like pod, node or service - completely as JSON or rendered using template',
      getResource,
      (input) => {
        const k8sCtx = input.string('context');
        const namespace = input.string('namespace');
        const kind = input.string('kind');
        const name = input.string('name');
        const group = input.string('group');
        const version = input.string('version');
        const template = input.string('go_template');
        checkContext(k8sCtx);
        const info = resolveKind(world, kind, group, version);
        // the informer's indexer keys objects by namespace/name (by name when cluster-scoped)
        const obj = world
          .list(info)
          .find(
            (o) =>
              o.metadata?.name === name &&
              (info.namespaced ? o.metadata?.namespace === namespace : namespace === ''),
          );
        if (!obj)
          throw new ToolFailure(
            `resource ${group}/${version}/${kind}/${namespace}/${name} not found`,
          );
        const object = withoutManagedFields(obj);
        if (template === '') return goJson(object);
        try {
          return executeGoTemplate(template, object);
        } catch (err) {
          if (err instanceof GoTemplateError) throw new ToolFailure(err.message);
          throw err;
        }
      },
    ),

    {
      name: 'k8s-pod-exec',
      description: 'Execute command in Kubernetes pod',
      inputSchema: schema(
        {
          context: str('Kubernetes context name, defaults to current context'),
          namespace: str('Namespace where pod is located'),
          pod: str('Name of the pod to execute command in'),
          command: str('Command to be executed'),
          stdin: str('Standard input to the command, defaults to empty string'),
        },
        ['namespace', 'pod', 'command'],
      ),
      write: true,
    },

    {
      name: 'list-k8s-contexts',
      description: 'List Kubernetes contexts from configuration files such as kubeconfig',
      inputSchema: { type: 'object' },
      // the handler reads no arguments (no validation); `name` is the context's cluster
      run: () => [
        goJson(
          {
            context: {
              cluster: CONTEXT.cluster,
              user: CONTEXT.user,
              ...(CONTEXT.namespace ? { namespace: CONTEXT.namespace } : {}),
            },
            name: CONTEXT.cluster,
            current: true,
          },
          false,
        ),
      ],
    },

    tool(
      'list-k8s-events',
      'List Kubernetes events using specific context in a specified namespace',
      events,
      (input) => {
        const k8sCtx = input.string('context');
        const namespace = input.string('namespace');
        checkContext(k8sCtx);
        const limit = input.number('limit');
        // the API server lists in key order (namespace, then name); "" is every namespace
        let list = world
          .list('Event', namespace === '' ? {} : { namespace })
          .sort(byNamespaceThenName);
        const n = limit === undefined ? 0 : Math.trunc(limit);
        if (n > 0) list = list.slice(0, n);
        return list.map((e) =>
          goJson(
            {
              action: e.action ?? '',
              message: e.message ?? '',
              type: e.type ?? '',
              reason: e.reason ?? '',
              involvedObject: {
                kind: e.involvedObject?.kind ?? '',
                name: e.involvedObject?.name ?? '',
              },
            },
            false,
          ),
        );
      },
    ),

    tool(
      'list-k8s-namespaces',
      'List Kubernetes namespaces using specific context',
      schema({ context: CONTEXT_DEFAULT }),
      (input) => {
        checkContext(input.string('context'));
        return world
          .list('Namespace')
          .map((ns) => ns.metadata?.name ?? '')
          .sort(goCompare)
          .map((name) => goJson({ name }, false));
      },
    ),

    tool(
      'list-k8s-nodes',
      'List Kubernetes nodes using specific context',
      schema({ context: CONTEXT_DEFAULT }),
      (input) => {
        checkContext(input.string('context'));
        return world
          .list('Node')
          .sort((a, b) => goCompare(a.metadata?.name ?? '', b.metadata?.name ?? ''))
          .map((node) => {
            const created = toDate(node.metadata?.creationTimestamp);
            const ready = (
              (node.status?.conditions ?? []) as Array<{
                type: string;
                status: string;
              }>
            ).find((c) => c.type === 'Ready');
            return goJson(
              {
                name: node.metadata?.name ?? '',
                status: ready?.status === 'True' ? 'Ready' : 'NotReady',
                age: formatAge(now.getTime() - (created?.getTime() ?? 0)),
                created_at: goTime(created),
              },
              false,
            );
          });
      },
    ),

    tool('list-k8s-resources', 'List arbitrary Kubernetes resources', listResources, (input) => {
      const k8sCtx = input.string('context');
      const namespace = input.string('namespace');
      const kind = input.string('kind');
      const group = input.string('group');
      const version = input.string('version');
      checkContext(k8sCtx);
      const info = resolveKind(world, kind, group, version);
      // the informer lister: by namespace (cluster-scoped objects are in none) or all
      const items = world
        .list(info)
        .filter((o) => namespace === '' || (info.namespaced && o.metadata?.namespace === namespace))
        .sort(byNamespaceThenName);
      const deployment = KINDS.find((k) => k.kind === 'Deployment')!;
      const service = KINDS.find((k) => k.kind === 'Service')!;
      return items.map((o) => {
        if (info === deployment) return deploymentInList(o, now);
        if (info === service) return serviceContent(o);
        const meta = o.metadata;
        if (!meta || typeof meta !== 'object') return goJson(o);
        return goJson(
          {
            name: typeof meta.name === 'string' ? meta.name : '',
            ...(typeof meta.namespace === 'string' && meta.namespace
              ? { namespace: meta.namespace }
              : {}),
          },
          false,
        );
      });
    }),
  ];
  return tools;
}
