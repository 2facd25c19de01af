import { type KindInfo, type KubeObject, type WorldIndex } from '@inquest/kube';
import { kubectl } from './kubectl';
import { required, str, ToolFailure, type VocabularyTool } from './mcp-vocabulary-server';

const text = (description: string) => ({ type: 'string', description });

/** kubectl resolves a kind through discovery: the world's custom resources too. */
function kindOrFail(world: WorldIndex, kind: string): KindInfo {
  const info = world.resolve(kind);
  if (!info) throw new ToolFailure(`error: the server doesn't have a resource type "${kind}"`);
  return info;
}

/** `kubectl get <kind> <name>`'s answer when the object does not exist. */
function notFound(info: KindInfo, name: string): ToolFailure {
  const resource = info.group ? `${info.plural}.${info.group}` : info.plural;
  return new ToolFailure(`Error from server (NotFound): ${resource} "${name}" not found`);
}

function getOne(
  world: WorldIndex,
  kind: string,
  name: string,
  namespace?: string,
): [KindInfo, KubeObject] {
  const info = kindOrFail(world, kind);
  const ns = info.namespaced ? (namespace ?? 'default') : undefined;
  const obj = world.get(info, name, ns);
  if (!obj) throw notFound(info, name);
  return [info, obj];
}

/** RFC 3339 or a negative number of seconds before `end` (HolmesGPT's start_time forms). */
function parseTime(v: string | undefined, end: number): number | undefined {
  if (v === undefined) return undefined;
  if (/^-?\d+$/.test(v)) return end + Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

const LINE_TIME = /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d))/;

function matcher(pattern: string | undefined): ((line: string) => boolean) | undefined {
  if (!pattern) return undefined;
  try {
    const re = new RegExp(pattern, 'i');
    return (line) => re.test(line);
  } catch {
    const p = pattern.toLowerCase();
    return (line) => line.toLowerCase().includes(p);
  }
}

/**
 * HolmesGPT's `fetch_pod_logs`: the previous and the current container's logs of every
 * container, oldest first, filtered (regex, case-insensitive, substring when not a regex),
 * bounded in time and to the last `limit` lines, with a short trailer on what was returned.
 */
function fetchPodLogs(world: WorldIndex, args: Record<string, unknown>): string {
  const pod = required(args, 'pod_name');
  const namespace = required(args, 'namespace');
  const obj = world.get('Pod', pod, namespace);
  if (!obj) throw new ToolFailure(`Error from server (NotFound): pods "${pod}" not found`);
  const containers = [
    ...((obj.spec?.initContainers ?? []) as { name: string }[]),
    ...((obj.spec?.containers ?? []) as { name: string }[]),
  ].map((c) => c.name);
  const multi = containers.length > 1;
  const lines: string[] = [];
  for (const previous of [true, false]) {
    for (const container of containers) {
      let out = '';
      try {
        out = world.logs({ namespace, pod, container, previous });
      } catch {
        continue; // no previous container: kubectl's error is not a log line
      }
      for (const line of out.split('\n'))
        if (line) lines.push(multi ? `[${container}] ${line}` : line);
    }
  }
  const end = parseTime(str(args, 'end_time'), world.now.getTime()) ?? world.now.getTime();
  const start = parseTime(str(args, 'start_time'), end);
  const include = matcher(str(args, 'filter'));
  const exclude = matcher(str(args, 'exclude_filter'));
  let lastTime: number | undefined;
  let kept = lines.filter((line) => {
    const m = LINE_TIME.exec(line);
    if (m) lastTime = Date.parse(m[1]!);
    if (lastTime !== undefined && ((start !== undefined && lastTime < start) || lastTime > end))
      return false;
    if (include && !include(line)) return false;
    if (exclude && exclude(line)) return false;
    return true;
  });
  const matched = kept.length;
  const limit = Number(args['limit'] ?? 2000);
  if (Number.isFinite(limit) && limit > 0 && kept.length > limit) kept = kept.slice(-limit);
  const trailer = [
    `Fetched logs for pod ${namespace}/${pod}: ${lines.length} lines in total (previous and current containers)`,
    ...(include || exclude || start !== undefined ? [`${matched} lines matched the filters`] : []),
    ...(kept.length < matched ? [`showing the last ${kept.length} (limit ${limit})`] : []),
  ];
  if (!kept.length) return `No logs found.\n${trailer.join('\n')}`;
  return `${kept.join('\n')}\n\n${trailer.join('\n')}`;
}

/** Memory requests of each pod in MiB, largest first, as the toolset's awk script prints them. */
function memoryRequests(world: WorldIndex, namespace?: string): string {
  const toMiB = (q: string): number => {
    const m = /^([0-9.]+(?:e[0-9]+)?)([a-zA-Z]*)$/.exec(q.trim());
    if (!m) return 0;
    const n = Number(m[1]);
    const unit: Record<string, number> = {
      '': 1 / 1048576,
      m: 1 / 1048576 / 1000,
      k: 1000 / 1048576,
      M: 1e6 / 1048576,
      G: 1e9 / 1048576,
      T: 1e12 / 1048576,
      Ki: 1 / 1024,
      Mi: 1,
      Gi: 1024,
      Ti: 1024 * 1024,
    };
    return n * (unit[m[2] ?? ''] ?? 0);
  };
  const rows = world.list('Pod', namespace ? { namespace } : {}).map((p) => {
    const total = (
      (p.spec?.containers ?? []) as { resources?: { requests?: { memory?: string } } }[]
    )
      .map((c) => c.resources?.requests?.memory)
      .filter((x): x is string => typeof x === 'string')
      .reduce((a, q) => a + toMiB(q), 0);
    return {
      line: `${p.metadata?.namespace ?? ''} ${p.metadata?.name ?? ''} ${Number(total.toFixed(6))} Mi`,
      total,
    };
  });
  return rows
    .sort((a, b) => b.total - a.total)
    .map((r) => r.line)
    .join('\n');
}

/** `1h`, `30m`, `10s`, `1h30m` as seconds (kubectl's --since). */
function durationSeconds(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(v.trim());
  if (!m || !(m[1] || m[2] || m[3]))
    throw new ToolFailure(
      `error: invalid argument "${v}" for "--since" flag: time: invalid duration "${v}"`,
    );
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/**
 * The older kubernetes/logs toolset (one tool per `kubectl logs` variant): what `kubectl logs`
 * prints, its errors as kubectl words them, `| grep` for the _grep tools.
 */
function kubectlLogTools(world: WorldIndex): VocabularyTool[] {
  const logs = (
    a: Record<string, unknown>,
    opts: { previous: boolean; all?: boolean; container?: boolean; grep?: boolean },
  ): string => {
    const pod = required(a, 'pod_name');
    const namespace = required(a, 'namespace');
    const obj = world.get('Pod', pod, namespace);
    if (!obj) throw new ToolFailure(`Error from server (NotFound): pods "${pod}" not found`);
    const sinceSeconds = opts.previous ? undefined : durationSeconds(str(a, 'since'));
    const names = opts.all
      ? [
          ...((obj.spec?.initContainers ?? []) as { name: string }[]),
          ...((obj.spec?.containers ?? []) as { name: string }[]),
        ].map((c) => c.name)
      : [opts.container ? required(a, 'container_name') : undefined];
    let out = '';
    for (const container of names) {
      try {
        out += world.logs({
          namespace,
          pod,
          ...(container ? { container } : {}),
          previous: opts.previous,
          ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
        });
      } catch (err) {
        if (!opts.all)
          throw new ToolFailure(`Error from server (BadRequest): ${(err as Error).message}`);
      }
    }
    if (opts.grep) {
      const term = required(a, 'search_term');
      out = out
        .split('\n')
        .filter((l) => l && l.includes(term))
        .join('\n');
    }
    return out;
  };
  const params = (extra: Record<string, unknown>, req: string[]) => ({
    type: 'object' as const,
    properties: { pod_name: text('pod name'), namespace: text('namespace'), ...extra },
    required: ['pod_name', 'namespace', ...req],
  });
  const since = {
    since: text(
      'optional relative duration (1h, 30m, 10s): only logs newer than this (kubectl logs --since)',
    ),
  };
  const container = { container_name: text('container name') };
  const search = { search_term: text('text to look for') };
  return [
    {
      name: 'kubectl_previous_logs',
      description:
        "Runs `kubectl logs --previous` on one pod: the logs of the container before its last crash. Give a pod's name, never a deployment's.",
      inputSchema: params({}, []),
      run: (a) => logs(a, { previous: true }),
    },
    {
      name: 'kubectl_previous_logs_all_containers',
      description:
        'Runs `kubectl logs --previous --all-containers` on one pod: every container before its last crash',
      inputSchema: params({}, []),
      run: (a) => logs(a, { previous: true, all: true }),
    },
    {
      name: 'kubectl_container_previous_logs',
      description: 'Runs `kubectl logs --previous -c <container>` on one container of a pod',
      inputSchema: params(container, ['container_name']),
      run: (a) => logs(a, { previous: true, container: true }),
    },
    {
      name: 'kubectl_logs',
      description:
        "Runs `kubectl logs` on one pod (a pod's name, never a deployment's); `since` (1h, 30m) bounds it to recent logs",
      inputSchema: params(since, []),
      run: (a) => logs(a, { previous: false }),
    },
    {
      name: 'kubectl_logs_all_containers',
      description:
        'Runs `kubectl logs --all-containers` on one pod; `since` bounds it to recent logs',
      inputSchema: params(since, []),
      run: (a) => logs(a, { previous: false, all: true }),
    },
    {
      name: 'kubectl_container_logs',
      description:
        'Runs `kubectl logs -c <container>` on one container of a pod; `since` bounds it to recent logs',
      inputSchema: params({ ...container, ...since }, ['container_name']),
      run: (a) => logs(a, { previous: false, container: true }),
    },
    {
      name: 'kubectl_logs_grep',
      description: 'Searches the logs of one pod for a term (`kubectl logs <pod> | grep <term>`)',
      inputSchema: params({ ...search, ...since }, ['search_term']),
      run: (a) => logs(a, { previous: false, grep: true }),
    },
    {
      name: 'kubectl_logs_all_containers_grep',
      description: 'Searches the logs of every container of one pod for a term',
      inputSchema: params({ ...search, ...since }, ['search_term']),
      run: (a) => logs(a, { previous: false, all: true, grep: true }),
    },
  ];
}

function fetchPodLogsTool(world: WorldIndex): VocabularyTool {
  return {
    name: 'fetch_pod_logs',
    description:
      'Logs of a Kubernetes pod (previous and current containers), optionally filtered and limited in time or lines',
    inputSchema: {
      type: 'object',
      properties: {
        pod_name: text('the exact pod name'),
        namespace: text('Kubernetes namespace'),
        start_time: text(
          'start of the logs: an RFC 3339 timestamp, or a negative number of seconds before end_time (e.g. -3600)',
        ),
        end_time: text('end of the logs, RFC 3339; the current time when absent'),
        filter: text('keep only lines matching this (regex, case-insensitive)'),
        exclude_filter: text('drop lines matching this (regex, case-insensitive)'),
        limit: {
          type: 'integer',
          description: 'at most this many lines, the most recent (default 2000)',
        },
      },
      required: ['pod_name', 'namespace'],
    },
    run: (a) => fetchPodLogs(world, a),
  };
}

export interface HolmesOptions {
  /** `fetch` (default): the current logs toolset's fetch_pod_logs; `kubectl`: the older kubectl_logs family */
  logs?: 'fetch' | 'kubectl';
}

/**
 * HolmesGPT's Kubernetes toolsets (kubernetes/core, kubernetes/logs, kubernetes/live-metrics):
 * the tool names and parameters it documents, answering what the kubectl command behind each
 * tool would print for this world.
 */
export function holmesTools(world: WorldIndex, options: HolmesOptions = {}): VocabularyTool[] {
  const k = kubectl(world);
  return [
    {
      name: 'kubectl_describe',
      description:
        "Runs `kubectl describe <kind> <name> -n <namespace>`. Use it when a resource's description is wanted, e.g. 'describe pod xyz-123' or 'show service xyz-123 in namespace my-ns'.",
      inputSchema: {
        type: 'object',
        properties: {
          kind: text('resource kind'),
          name: text('resource name'),
          namespace: text('namespace'),
        },
        required: ['kind', 'name'],
      },
      run: (a) => {
        const [info, obj] = getOne(
          world,
          required(a, 'kind'),
          required(a, 'name'),
          str(a, 'namespace'),
        );
        return k.describe(info, obj);
      },
    },
    {
      name: 'kubectl_get_by_name',
      description: 'Runs `kubectl get <kind> <name> --show-labels` (wide output)',
      inputSchema: {
        type: 'object',
        properties: {
          kind: text('resource kind'),
          name: text('resource name'),
          namespace: text('namespace'),
        },
        required: ['kind', 'name'],
      },
      run: (a) => {
        const [info, obj] = getOne(
          world,
          required(a, 'kind'),
          required(a, 'name'),
          str(a, 'namespace'),
        );
        return k.table(info, [obj], { allNamespaces: false });
      },
    },
    {
      name: 'kubectl_get_by_kind_in_namespace',
      description:
        'Runs `kubectl get <kind> -n <namespace> --show-labels` (wide output): every resource of a kind in a namespace',
      inputSchema: {
        type: 'object',
        properties: { kind: text('resource kind'), namespace: text('namespace') },
        required: ['kind', 'namespace'],
      },
      run: (a) => {
        const info = kindOrFail(world, required(a, 'kind'));
        const namespace = required(a, 'namespace');
        const objs = world.list(info, info.namespaced ? { namespace } : {});
        if (!objs.length)
          return info.namespaced
            ? `No resources found in ${namespace} namespace.`
            : 'No resources found';
        return k.table(info, objs, { allNamespaces: false });
      },
    },
    {
      name: 'kubectl_get_by_kind_in_cluster',
      description:
        'Runs `kubectl get -A <kind> --show-labels` (wide output): every resource of a kind in the cluster',
      inputSchema: {
        type: 'object',
        properties: { kind: text('resource kind') },
        required: ['kind'],
      },
      run: (a) => {
        const info = kindOrFail(world, required(a, 'kind'));
        const objs = world.list(info);
        if (!objs.length) return 'No resources found';
        return k.table(info, objs, { allNamespaces: info.namespaced });
      },
    },
    {
      name: 'kubectl_find_resource',
      description:
        'Runs `kubectl get {{ kind }} -A --show-labels | grep {{ keyword }}` to find a resource when a substring of its name, IP, namespace or labels is known',
      inputSchema: {
        type: 'object',
        properties: { kind: text('resource kind'), keyword: text('substring to look for') },
        required: ['kind', 'keyword'],
      },
      run: (a) => {
        const info = kindOrFail(world, required(a, 'kind'));
        const keyword = required(a, 'keyword');
        const objs = world.list(info);
        if (!objs.length) return '';
        // grep prints the matching lines only (the header too when it matches)
        return k
          .table(info, objs, { allNamespaces: info.namespaced })
          .split('\n')
          .filter((line) => line && line.includes(keyword))
          .join('\n');
      },
    },
    {
      name: 'kubectl_get_yaml',
      description: 'Runs `kubectl get -o yaml` on one Kubernetes resource',
      inputSchema: {
        type: 'object',
        properties: {
          kind: text('resource kind'),
          name: text('resource name'),
          namespace: text('namespace'),
        },
        required: ['kind', 'name'],
      },
      run: (a) =>
        k.yaml(getOne(world, required(a, 'kind'), required(a, 'name'), str(a, 'namespace'))[1]),
    },
    {
      name: 'kubectl_events',
      description:
        "Events of one Kubernetes resource (`kubectl events --for <resource_type>/<resource_name> -n <namespace>`); resource_type is any kind: 'pod', 'service', 'deployment', 'job', 'node'...",
      inputSchema: {
        type: 'object',
        properties: {
          resource_type: text('resource kind'),
          resource_name: text('resource name'),
          namespace: text('namespace'),
        },
        required: ['resource_type', 'resource_name', 'namespace'],
      },
      run: (a) => {
        const info = kindOrFail(world, required(a, 'resource_type'));
        const name = required(a, 'resource_name');
        const namespace = required(a, 'namespace');
        const events = world.events({ namespace, involved: { kind: info.kind, name } });
        if (!events.length) return `No events found in ${namespace} namespace.`;
        return k.events(events, { allNamespaces: false });
      },
    },
    {
      name: 'kubectl_memory_requests_all_namespaces',
      description:
        'Memory requests of every pod in every namespace in MiB (containers summed, binary and decimal units converted), largest first',
      inputSchema: { type: 'object', properties: {} },
      run: () => memoryRequests(world),
    },
    {
      name: 'kubectl_memory_requests_namespace',
      description:
        'Memory requests of every pod of a namespace in MiB (containers summed, binary and decimal units converted), largest first',
      inputSchema: {
        type: 'object',
        properties: { namespace: text('namespace') },
        required: ['namespace'],
      },
      run: (a) => memoryRequests(world, required(a, 'namespace')),
    },
    ...(options.logs === 'kubectl' ? kubectlLogTools(world) : [fetchPodLogsTool(world)]),
    {
      name: 'kubectl_top_pods',
      description:
        'Current CPU and memory usage of each pod in the cluster (`kubectl top pods -A`)',
      inputSchema: { type: 'object', properties: {} },
      run: () => k.topPods({ allNamespaces: true }),
    },
    {
      name: 'kubectl_top_nodes',
      description: 'Current CPU and memory usage of each node in the cluster (`kubectl top nodes`)',
      inputSchema: { type: 'object', properties: {} },
      run: () => k.topNodes(),
    },
  ];
}
