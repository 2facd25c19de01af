import {
  formatTabs,
  getTable,
  KINDS,
  resolveKind,
  toDate,
  toYaml,
  type KindInfo,
  type KubeObject,
  type WorldIndex,
} from '@inquest/kube';
import { kubectl } from './kubectl';
import { ToolFailure } from './mcp-vocabulary-server';

/**
 * A kubectl run that exited non-zero, as Node's `execFileSync` reports it:
 * `Command failed: kubectl <args>` then kubectl's stderr.
 */
export class KubectlFailure extends Error {
  constructor(
    readonly args: string[],
    readonly stderr: string,
  ) {
    super(
      `Command failed: kubectl ${args.join(' ')}\n${stderr.endsWith('\n') ? stderr : `${stderr}\n`}`,
    );
  }
}

/** The one kubeconfig context the benchmark's cluster is reached through. */
export const CONTEXT = { name: 'bench', cluster: 'bench', user: 'bench-admin', namespace: '' };

/** Flags that take a value (`-n ns`, `--namespace=ns`); every other flag is a switch. */
const VALUE_FLAGS: Record<string, string> = {
  '-n': 'namespace',
  '--namespace': 'namespace',
  '-l': 'selector',
  '--selector': 'selector',
  '-o': 'output',
  '--output': 'output',
  '-c': 'container',
  '--container': 'container',
  '--field-selector': 'field-selector',
  '--sort-by': 'sort-by',
  '--tail': 'tail',
  '--since': 'since',
  '--since-time': 'since-time',
  '--context': 'context',
  '--api-group': 'api-group',
  '--namespaced': 'namespaced',
  '--verbs': 'verbs',
  '--api-version': 'api-version',
  '--for': 'for',
  '--types': 'types',
  '--timeout': 'timeout',
  '--request-timeout': 'request-timeout',
  '--chunk-size': 'chunk-size',
  '--limit-bytes': 'limit-bytes',
  '--max-log-requests': 'max-log-requests',
  '--pod-running-timeout': 'pod-running-timeout',
};
const SWITCHES: Record<string, string> = {
  '-A': 'all-namespaces',
  '--all-namespaces': 'all-namespaces',
  '-p': 'previous',
  '--previous': 'previous',
  '--timestamps': 'timestamps',
  '--containers': 'containers',
  '--recursive': 'recursive',
  '--show-labels': 'show-labels',
  '--no-headers': 'no-headers',
  '-f': 'follow',
  '--follow': 'follow',
  '-w': 'watch',
  '--watch': 'watch',
  '--all-containers': 'all-containers',
  '--prefix': 'prefix',
  '--ignore-errors': 'ignore-errors',
  '--show-events': 'show-events',
  '--show-kind': 'show-kind',
  '--sort-by-cpu': 'sort-by-cpu',
  '--use-protocol-buffers': 'use-protocol-buffers',
};

interface Command {
  verb: string;
  positionals: string[];
  flags: Map<string, string>;
}

function parse(args: string[]): Command {
  const positionals: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (token === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!token.startsWith('-') || token === '-') {
      positionals.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const key = eq > 0 ? token.slice(0, eq) : token;
    const inline = eq > 0 ? token.slice(eq + 1) : undefined;
    if (VALUE_FLAGS[key]) {
      const value = inline ?? args[++i];
      if (value === undefined)
        throw new KubectlFailure(
          args,
          `error: flag needs an argument: '${key.replace(/^-+/, '')}' in ${key}`,
        );
      flags.set(VALUE_FLAGS[key]!, value);
    } else if (SWITCHES[key]) {
      flags.set(SWITCHES[key]!, inline ?? 'true');
    } else {
      throw new KubectlFailure(
        args,
        `error: unknown flag: ${key}\nSee 'kubectl --help' for usage.`,
      );
    }
  }
  const [verb = '', ...rest] = positionals;
  return { verb, positionals: rest, flags };
}

const truthy = (v: string | undefined) => v !== undefined && v !== 'false';

/** A Go duration (`5s`, `2m`, `1h30m`, `1.5h`) in seconds, or undefined when malformed. */
function goDuration(v: string): number | undefined {
  const unit: Record<string, number> = {
    ns: 1e-9,
    us: 1e-6,
    µs: 1e-6,
    ms: 1e-3,
    s: 1,
    m: 60,
    h: 3600,
  };
  if (v === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let at = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(v))) {
    total += Number(m[1]) * unit[m[2]!]!;
    at = re.lastIndex;
  }
  return at === v.length && at > 0 ? total : undefined;
}

/** `kubectl get -o name`'s form: `pod/x`, `deployment.apps/x`. */
const nameOf = (info: KindInfo, obj: KubeObject) =>
  `${info.kind.toLowerCase()}${info.group ? `.${info.group}` : ''}/${obj.metadata?.name ?? ''}`;

/** What `kubectl get ... -o json|yaml` prints for a list. */
const listOf = (items: KubeObject[]) => ({
  apiVersion: 'v1',
  items,
  kind: 'List',
  metadata: { resourceVersion: '' },
});

/** `kubectl`'s plain or wide table; empty when nothing matched (the notice goes to stderr). */
function table(info: KindInfo, objs: KubeObject[], wide: boolean, all: boolean, now: Date) {
  if (!objs.length) return '';
  return getTable(info, objs, { wide, allNamespaces: all, now });
}

/** The resource types of a `kubectl get` argument: `pods`, `pods,svc`, `all`. */
const ALL = [
  'Pod',
  'Service',
  'DaemonSet',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'HorizontalPodAutoscaler',
  'CronJob',
  'Job',
];

function valueAt(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path
    .replace(/^\{?\.?/, '')
    .replace(/\}$/, '')
    .split('.')
    .filter(Boolean)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function sortBy(objs: KubeObject[], path: string): KubeObject[] {
  const key = (o: KubeObject) => valueAt(o, path);
  return [...objs].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === undefined) return y === undefined ? 0 : -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x).localeCompare(String(y));
  });
}

/**
 * A small kubectl over a scenario world: the read commands an MCP server that shells out to
 * kubectl runs (`get`, `describe`, `logs`, `top`, `events`, `api-resources`, `api-versions`,
 * `explain`, `config get-contexts|current-context`), printing what kubectl prints on stdout and
 * throwing a KubectlFailure with kubectl's stderr when it would exit non-zero.
 */
export function kubectlCli(world: WorldIndex) {
  const now = world.now;
  const k = kubectl(world);

  const kindOrFail = (args: string[], type: string): KindInfo => {
    // kubectl resolves through discovery: the world's custom resources are served too
    const info = world.resolve(type);
    if (!info)
      throw new KubectlFailure(args, `error: the server doesn't have a resource type "${type}"`);
    return info;
  };
  const notFound = (args: string[], info: KindInfo, name: string) =>
    new KubectlFailure(
      args,
      `Error from server (NotFound): ${info.group ? `${info.plural}.${info.group}` : info.plural} "${name}" not found`,
    );
  const safeList = (
    args: string[],
    info: KindInfo,
    opts: { namespace?: string; labelSelector?: string; fieldSelector?: string },
  ) => {
    try {
      return world.list(info, opts);
    } catch (err) {
      throw new KubectlFailure(args, `error: ${(err as Error).message}`);
    }
  };

  /** `[type, name]` pairs or `[type]` lists from `get`/`describe` positionals. */
  const targets = (args: string[], positionals: string[]) => {
    if (!positionals.length)
      throw new KubectlFailure(
        args,
        'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.',
      );
    if (positionals[0]!.includes('/')) {
      return positionals.map((p) => {
        const slash = p.indexOf('/');
        if (slash < 0)
          throw new KubectlFailure(
            args,
            `error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'`,
          );
        return { info: kindOrFail(args, p.slice(0, slash)), names: [p.slice(slash + 1)] };
      });
    }
    const types = positionals[0]!.split(',').filter(Boolean);
    const infos = types.flatMap((t) =>
      t.toLowerCase() === 'all'
        ? ALL.map((k) => KINDS.find((x) => x.kind === k)!)
        : [kindOrFail(args, t)],
    );
    return infos.map((info) => ({ info, names: positionals.slice(1) }));
  };

  const get = (args: string[], c: Command): string => {
    const all = truthy(c.flags.get('all-namespaces'));
    const namespace = c.flags.get('namespace') ?? 'default';
    const output = c.flags.get('output');
    const groups = targets(args, c.positionals);
    const named = groups.some((g) => g.names.length);
    if (named && all)
      throw new KubectlFailure(
        args,
        'error: a resource cannot be retrieved by name across all namespaces',
      );
    const found: { info: KindInfo; objs: KubeObject[] }[] = [];
    for (const { info, names } of groups) {
      let objs: KubeObject[];
      if (names.length) {
        objs = names.map((name) => {
          const obj = world.get(info, name, info.namespaced ? namespace : undefined);
          if (!obj) throw notFound(args, info, name);
          return obj;
        });
      } else {
        objs = safeList(args, info, {
          ...(info.namespaced && !all ? { namespace } : {}),
          ...(c.flags.get('selector') ? { labelSelector: c.flags.get('selector') } : {}),
          ...(c.flags.get('field-selector')
            ? { fieldSelector: c.flags.get('field-selector') }
            : {}),
        });
      }
      const by = c.flags.get('sort-by');
      found.push({ info, objs: by ? sortBy(objs, by) : objs });
    }
    const single = groups.length === 1 && groups[0]!.names.length === 1;
    const items = found.flatMap((f) => f.objs);
    switch (output) {
      case 'json':
        return `${JSON.stringify(single ? items[0] : listOf(items), null, 4)}\n`;
      case 'yaml':
        return toYaml(single ? items[0] : listOf(items));
      case 'name':
        return found.flatMap((f) => f.objs.map((o) => `${nameOf(f.info, o)}\n`)).join('');
      case undefined:
      case 'wide':
        return found
          .map((f) => table(f.info, f.objs, output === 'wide', all, now))
          .filter(Boolean)
          .join('\n');
      default:
        throw new KubectlFailure(
          args,
          `error: unable to match a printer suitable for the output format "${output}", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml`,
        );
    }
  };

  const describeCmd = (args: string[], c: Command): string => {
    const all = truthy(c.flags.get('all-namespaces'));
    const namespace = c.flags.get('namespace') ?? 'default';
    const out: string[] = [];
    for (const { info, names } of targets(args, c.positionals)) {
      const scope = info.namespaced && !all ? { namespace } : {};
      if (!names.length) {
        out.push(
          ...safeList(args, info, {
            ...scope,
            ...(c.flags.get('selector') ? { labelSelector: c.flags.get('selector') } : {}),
          }).map((o) => k.describe(info, o)),
        );
        continue;
      }
      for (const name of names) {
        // an exact name first, then every object whose name starts with it
        const exact = world.list(info, scope).filter((o) => o.metadata?.name === name);
        const matches = exact.length
          ? exact
          : world.list(info, scope).filter((o) => (o.metadata?.name ?? '').startsWith(name));
        if (!matches.length) throw notFound(args, info, name);
        out.push(...matches.map((o) => k.describe(info, o)));
      }
    }
    return out.join('\n\n');
  };

  const logs = (args: string[], c: Command): string => {
    const namespace = c.flags.get('namespace') ?? 'default';
    const target = c.positionals[0];
    if (!target)
      throw new KubectlFailure(
        args,
        'error: expected POD or TYPE/NAME is a required argument for the logs command',
      );
    let pod = target;
    if (target.includes('/')) {
      const info = kindOrFail(args, target.slice(0, target.indexOf('/')));
      const name = target.slice(target.indexOf('/') + 1);
      const obj = world.get(info, name, info.namespaced ? namespace : undefined);
      if (!obj) throw notFound(args, info, name);
      const pods = info.kind === 'Pod' ? [obj] : world.podsOf(obj);
      if (!pods.length)
        throw new KubectlFailure(args, `error: timed out waiting for the condition`);
      pod = pods[0]!.metadata?.name ?? '';
    }
    const since = c.flags.get('since');
    const sinceTime = c.flags.get('since-time');
    if (since && sinceTime)
      throw new KubectlFailure(
        args,
        'error: at most one of `sinceTime` or `sinceSeconds` may be specified',
      );
    let sinceSeconds: number | undefined;
    if (since) {
      sinceSeconds = goDuration(since);
      if (sinceSeconds === undefined)
        throw new KubectlFailure(
          args,
          `error: invalid argument "${since}" for "--since" flag: time: invalid duration "${since}"`,
        );
      sinceSeconds = Math.ceil(sinceSeconds);
    }
    if (sinceTime) {
      const t = toDate(sinceTime);
      if (!t)
        throw new KubectlFailure(
          args,
          `error: invalid argument "${sinceTime}" for "--since-time" flag: parsing time "${sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse "${sinceTime}" as "2006"`,
        );
      sinceSeconds = Math.max(0, Math.ceil((now.getTime() - t.getTime()) / 1000));
    }
    const tailFlag = c.flags.get('tail');
    const tail = tailFlag === undefined ? -1 : Number(tailFlag);
    if (!Number.isInteger(tail))
      throw new KubectlFailure(
        args,
        `error: invalid argument "${tailFlag}" for "--tail" flag: strconv.ParseInt: parsing "${tailFlag}": invalid syntax`,
      );
    const obj = world.get('Pod', pod, namespace);
    if (!obj)
      throw new KubectlFailure(args, `Error from server (NotFound): pods "${pod}" not found`);
    try {
      return world.logs({
        namespace,
        pod,
        ...(c.flags.get('container') ? { container: c.flags.get('container') } : {}),
        previous: truthy(c.flags.get('previous')),
        ...(tail >= 0 ? { tailLines: tail } : {}),
        ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
        timestamps: truthy(c.flags.get('timestamps')),
      });
    } catch (err) {
      throw new KubectlFailure(args, `Error from server (BadRequest): ${(err as Error).message}`);
    }
  };

  const top = (args: string[], c: Command): string => {
    const [what = '', name] = c.positionals;
    const run = (f: () => string) => {
      try {
        return f();
      } catch (err) {
        if (err instanceof ToolFailure) throw new KubectlFailure(args, err.message);
        throw err;
      }
    };
    if (['pod', 'pods', 'po'].includes(what)) {
      const all = truthy(c.flags.get('all-namespaces'));
      return run(() =>
        k.topPods({
          allNamespaces: all,
          namespace: c.flags.get('namespace') ?? 'default',
          ...(name ? { name } : {}),
          containers: truthy(c.flags.get('containers')),
        }),
      );
    }
    if (['node', 'nodes', 'no'].includes(what)) return run(() => k.topNodes(name));
    throw new KubectlFailure(args, `error: unknown command "${what}" for "kubectl top"`);
  };

  const eventsCmd = (args: string[], c: Command): string => {
    const all = truthy(c.flags.get('all-namespaces'));
    const namespace = c.flags.get('namespace') ?? 'default';
    let evs = world.events(all ? {} : { namespace });
    const target = c.flags.get('for');
    if (target) {
      const slash = target.indexOf('/');
      const info = slash > 0 ? kindOrFail(args, target.slice(0, slash)) : resolveKind('pod')!;
      const name = slash > 0 ? target.slice(slash + 1) : target;
      evs = evs.filter(
        (e) => e.involvedObject?.kind === info.kind && e.involvedObject?.name === name,
      );
    }
    const types = c.flags.get('types');
    if (types) {
      const wanted = types.split(',').map((t) => t.trim().toLowerCase());
      evs = evs.filter((e) => wanted.includes(String(e.type ?? '').toLowerCase()));
    }
    if (!evs.length) return '';
    return k.events(evs, { allNamespaces: all });
  };

  const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  const apiResources = (args: string[], c: Command): string => {
    const group = c.flags.get('api-group');
    const namespaced = c.flags.get('namespaced');
    const verbs = c.flags.get('verbs')?.split(',').filter(Boolean) ?? [];
    const output = c.flags.get('output');
    const kinds = world
      .kinds()
      .filter((r) => group === undefined || r.group === group)
      .filter((r) => namespaced === undefined || String(r.namespaced) === namespaced)
      .filter(() => verbs.every((v) => VERBS.includes(v)))
      .sort((a, b) => a.group.localeCompare(b.group) || a.plural.localeCompare(b.plural));
    if (output === 'name')
      return kinds.map((r) => `${r.plural}${r.group ? `.${r.group}` : ''}\n`).join('');
    if (output !== undefined && output !== 'wide' && output !== 'no-headers')
      throw new KubectlFailure(args, `error: --output ${output} is not available`);
    const wide = output === 'wide';
    const header = [
      'NAME',
      'SHORTNAMES',
      'APIVERSION',
      'NAMESPACED',
      'KIND',
      ...(wide ? ['VERBS', 'CATEGORIES'] : []),
    ];
    const rows = kinds.map((r) => [
      r.plural,
      r.shortNames.join(','),
      r.apiVersion,
      String(r.namespaced),
      r.kind,
      ...(wide ? [`[${VERBS.join(' ')}]`, ALL.includes(r.kind) ? 'all' : ''] : []),
    ]);
    const lines = output === 'no-headers' ? rows : [header, ...rows];
    return `${formatTabs(lines.map((r) => r.join('\t')).join('\n'), { minWidth: 6, padding: 3 })}\n`;
  };

  const apiVersions = () =>
    [...new Set(world.kinds().map((r) => r.apiVersion))]
      .sort()
      .map((v) => `${v}\n`)
      .join('');

  const explain = (args: string[], c: Command): string => {
    const path = c.positionals[0];
    if (!path)
      throw new KubectlFailure(
        args,
        'You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.',
      );
    const [type, ...fields] = path.split('.');
    const info = kindOrFail(args, type!);
    if (fields.length)
      throw new KubectlFailure(
        args,
        `error: field "${fields[0]}" is not emulated by the benchmark`,
      );
    return [
      ...(info.group ? [`GROUP:      ${info.group}`] : []),
      `KIND:       ${info.kind}`,
      `VERSION:    ${info.version}`,
      '',
      'FIELDS:',
      '  apiVersion\t<string>',
      '  kind\t<string>',
      '  metadata\t<ObjectMeta>',
      ...(['ConfigMap', 'Secret', 'Event', 'Endpoints'].includes(info.kind)
        ? []
        : [`  spec\t<${info.kind}Spec>`, `  status\t<${info.kind}Status>`]),
      '',
    ].join('\n');
  };

  const config = (args: string[], c: Command): string => {
    const [sub] = c.positionals;
    if (sub === 'current-context') return `${CONTEXT.name}\n`;
    if (sub === 'get-contexts') {
      if (c.flags.get('output') === 'name') return `${CONTEXT.name}\n`;
      return `${formatTabs(
        `CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE\n*\t${CONTEXT.name}\t${CONTEXT.cluster}\t${CONTEXT.user}\t${CONTEXT.namespace}`,
        { minWidth: 0, padding: 3 },
      )}\n`;
    }
    throw new KubectlFailure(
      args,
      `error: kubectl config ${sub ?? ''} is not emulated by the benchmark`,
    );
  };

  return {
    /** Runs `kubectl <args>` over the world: stdout, or a KubectlFailure. */
    run(args: string[]): string {
      const c = parse(args);
      const context = c.flags.get('context');
      if (context && context !== CONTEXT.name)
        throw new KubectlFailure(args, `error: context "${context}" does not exist`);
      switch (c.verb) {
        case 'get':
          return get(args, c);
        case 'describe':
          return describeCmd(args, c);
        case 'logs':
          return logs(args, c);
        case 'top':
          return top(args, c);
        case 'events':
          return eventsCmd(args, c);
        case 'api-resources':
          return apiResources(args, c);
        case 'api-versions':
          return apiVersions();
        case 'explain':
          return explain(args, c);
        case 'config':
          return config(args, c);
        default:
          if (readsOnly(c.verb, c.positionals[0]))
            throw new KubectlFailure(
              args,
              `error: kubectl ${c.verb} is not emulated by the benchmark`,
            );
          throw new KubectlFailure(args, `error: unknown command "${c.verb}" for "kubectl"`);
      }
    },
  };
}

/**
 * True when `kubectl <verb> <sub>` only reads (a generic kubectl tool's call is a write
 * otherwise).
 */
export function readsOnly(verb: string, sub = ''): boolean {
  if (
    [
      'get',
      'describe',
      'logs',
      'top',
      'events',
      'api-resources',
      'api-versions',
      'explain',
      'version',
      'cluster-info',
    ].includes(verb)
  )
    return true;
  if (verb === 'config')
    return ['get-contexts', 'current-context', 'view', 'get-clusters'].includes(sub);
  if (verb === 'auth') return sub === 'can-i' || sub === 'whoami';
  if (verb === 'rollout') return sub === 'status' || sub === 'history';
  return false;
}
