/**
 * Test support for the deterministic engine's specs (not used by the service): an in-memory
 * tool server in two vocabularies and helpers that read outputs into findings.
 */
import type { InvestigationContextRecord, InvestigationResultRecord } from '@inquest/store';
import { DeterministicEngine } from '../deterministic-engine';
import type { EngineRun } from '../engine';
import type {
  KnowledgeChunk,
  KnowledgeSource,
  LearnedPatternView,
  ToolDescriptor,
  ToolGateway,
} from '../ports';
import { CAUSE_CATALOG } from './cause-catalog.data';
import { compile, findFindings, type Finding } from './diagnose';
import { ClusterModel } from './model';
import { observe, type CallContext } from './observe';
import { stringify as stringifyYaml } from 'yaml';

/** The time every scenario is replayed at. */
export const NOW = Date.parse('2026-03-10T12:00:00Z');
/** NOW minus `minutes`, as an ISO string. */
export const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

export interface FakeTool {
  name: string;
  description: string;
  properties: Record<string, { type: string; description?: string; enum?: string[] }>;
  required?: string[];
  annotations?: Record<string, unknown>;
  /** another tool server than the gateway's default */
  server?: string;
  handler: (p: Record<string, unknown>) => unknown;
}

export interface Call {
  tool: string;
  params: Record<string, unknown>;
}

/** A ToolGateway over fake tools of one server; records every call. */
export class FakeGateway implements ToolGateway {
  readonly calls: Call[] = [];
  constructor(
    readonly tools: FakeTool[],
    readonly server = 'k8s',
  ) {}

  listTools() {
    return Promise.resolve({
      tools: this.tools.map((t): ToolDescriptor => ({
        fullName: `${t.server ?? this.server}:${t.name}`,
        server: t.server ?? this.server,
        name: t.name,
        description: t.description,
        parameters: { type: 'object', properties: t.properties, required: t.required ?? [] },
        ...(t.annotations ? { annotations: t.annotations } : {}),
      })),
      servers: [...new Set([this.server, ...this.tools.map((t) => t.server ?? this.server)])].map(
        (name) => ({ name, enabled: true, healthy: true, breakerState: 'closed' }),
      ),
    });
  }

  callTool(_team: string, _inv: string, tool: string, parameters: Record<string, unknown>) {
    this.calls.push({ tool, params: parameters });
    const t = this.tools.find((x) => `${x.server ?? this.server}:${x.name}` === tool);
    if (!t) return Promise.reject(new Error(`no tool ${tool}`));
    return Promise.resolve({ output: t.handler(parameters), truncated: false });
  }
}

export class FakeKnowledge implements KnowledgeSource {
  constructor(
    public patterns: LearnedPatternView[] = [],
    public chunks: KnowledgeChunk[] = [],
  ) {}
  retrieve() {
    return Promise.resolve(this.chunks);
  }
  listPatterns() {
    return Promise.resolve(this.patterns);
  }
}

/**
 * A world served as `kubectl` text: `get` answers tables, `describe` describe text, events an
 * events table (or YAML), logs plain lines.
 */
export interface TextWorld {
  /** kind -> `kubectl get <kind>` table */
  tables: Record<string, string>;
  /** `<kind>/<name>` -> `kubectl describe` text */
  describe: Record<string, string>;
  /** `kubectl get events` output for the namespace */
  events?: string;
  /** pod -> current logs */
  logs?: Record<string, string>;
  /** pod -> previous container's logs */
  previous?: Record<string, string>;
}

export const str = { type: 'string' } as const;

/** Tools with a kubectl-like vocabulary: kind + name parameters, text outputs. */
export function textTools(w: TextWorld): FakeTool[] {
  return [
    {
      name: 'get_resources',
      description: 'List Kubernetes resources of a kind in a namespace (kubectl get).',
      properties: { kind: str, namespace: str },
      required: ['kind'],
      handler: (p) => w.tables[String(p['kind'])] ?? `No resources found.`,
    },
    {
      name: 'describe_resource',
      description: 'Describe one Kubernetes resource (kubectl describe).',
      properties: { kind: str, name: str, namespace: str },
      required: ['kind', 'name'],
      handler: (p) =>
        w.describe[`${String(p['kind'])}/${String(p['name'])}`] ??
        `Error from server (NotFound): ${String(p['kind'])}s "${String(p['name'])}" not found`,
    },
    {
      name: 'get_events',
      description: 'Kubernetes events of a namespace (kubectl get events).',
      properties: { namespace: str },
      required: ['namespace'],
      handler: () => w.events ?? 'No resources found.',
    },
    {
      name: 'pod_logs',
      description: 'Logs of a pod container.',
      properties: { pod_name: str, namespace: str, previous: { type: 'boolean' } },
      required: ['pod_name'],
      handler: (p) => (p['previous'] ? w.previous : w.logs)?.[String(p['pod_name'])] ?? 'no logs',
    },
  ];
}

/** A world served as Kubernetes API JSON objects. */
export interface JsonWorld {
  objects: Record<string, unknown>[];
  events?: Record<string, unknown>[];
  logs?: Record<string, string>;
  previous?: Record<string, string>;
}

const kindIs = (o: Record<string, unknown>, k: string) =>
  String(o['kind']).toLowerCase() === k.toLowerCase();
const nameOf = (o: Record<string, unknown>) =>
  String((o['metadata'] as Record<string, unknown>)['name']);

/** Tools in a kubernetes-mcp-server-like vocabulary: one tool per kind, JSON outputs. */
export function jsonTools(w: JsonWorld): FakeTool[] {
  const list = (kind: string) => ({
    apiVersion: 'v1',
    kind: `${kind}List`,
    items: w.objects.filter((o) => kindIs(o, kind)),
  });
  const get = (kind: string, name: unknown) =>
    w.objects.find((o) => kindIs(o, kind) && nameOf(o) === name) ?? {
      error: `${kind} ${String(name)} not found`,
    };
  return [
    {
      name: 'pods_list',
      description: 'List pods of a namespace',
      properties: { namespace: str },
      handler: () => list('Pod'),
    },
    {
      name: 'pods_get',
      description: 'Get a pod by name',
      properties: { name: str, namespace: str },
      required: ['name'],
      handler: (p) => get('Pod', p['name']),
    },
    {
      name: 'pods_log',
      description: 'Logs of a pod',
      properties: { name: str, namespace: str, previous: { type: 'boolean' } },
      required: ['name'],
      handler: (p) => (p['previous'] ? w.previous : w.logs)?.[String(p['name'])] ?? '',
    },
    {
      name: 'events_list',
      description: 'List Kubernetes events of a namespace',
      properties: { namespace: str },
      handler: () => ({ apiVersion: 'v1', kind: 'EventList', items: w.events ?? [] }),
    },
    {
      name: 'resources_list',
      description: 'List Kubernetes resources of a kind',
      properties: { apiVersion: str, kind: str, namespace: str },
      required: ['apiVersion', 'kind'],
      handler: (p) => list(String(p['kind'])),
    },
    {
      name: 'resources_get',
      description: 'Get a Kubernetes resource by kind and name',
      properties: { apiVersion: str, kind: str, name: str, namespace: str },
      required: ['apiVersion', 'kind', 'name'],
      handler: (p) => get(String(p['kind']), p['name']),
    },
  ];
}

export function engineRun(
  message: string,
  context: InvestigationContextRecord = {},
  effective: Record<string, unknown> = {},
): EngineRun {
  return {
    teamId: 'team-a',
    investigationId: 'inv-1',
    agent: 'investigation_agent',
    message,
    context,
    effective,
    signal: new AbortController().signal,
    deadline: Date.now() + 20_000,
    progress: () => undefined,
  };
}

export async function investigate(
  tools: FakeTool[],
  message: string,
  context: InvestigationContextRecord = {},
  opts: { effective?: Record<string, unknown>; knowledge?: FakeKnowledge } = {},
): Promise<{ result: InvestigationResultRecord; toolsUsed: string[]; gateway: FakeGateway }> {
  const gateway = new FakeGateway(tools);
  const engine = new DeterministicEngine(gateway, opts.knowledge ?? new FakeKnowledge(), {
    clock: () => NOW,
  });
  const out = await engine.run(engineRun(message, context, opts.effective));
  return { ...out, gateway };
}

/** The conclusion as one string: summary, root cause and recommendations. */
export const conclusion = (r: InvestigationResultRecord) =>
  [r.summary, r.root_cause.description, ...r.recommendations.map((x) => x.action)].join('\n');

/** Reads outputs (as the tools would return them) into a model, and matches the catalog. */
export function findingsOf(outputs: { output: unknown; ctx?: Partial<CallContext> }[]): {
  model: ClusterModel;
  findings: Finding[];
} {
  const model = new ClusterModel();
  for (const o of outputs)
    model.add(
      observe(o.output, { tool: 't', verb: 'get', now: NOW, ...o.ctx }),
      o.ctx?.tool ?? 't',
    );
  return { model, findings: findFindings(model, compile(CAUSE_CATALOG)) };
}

export const ids = (fs: Finding[]) => [...new Set(fs.map((f) => f.entry.id))];

// ---------------------------------------------------------------- kubectl-shaped text

/** "Tue, 10 Mar 2026 11:40:02 +0000", as kubectl describe prints times */
export const kubeTime = (minutesAgo: number) =>
  new Date(NOW - minutesAgo * 60_000).toUTCString().replace('GMT', '+0000');

const pad = (s: string, n: number) => (s.length >= n ? `${s}  ` : s.padEnd(n));

/** rows aligned under their header, two spaces at least between columns */
export function table(header: string[], rows: string[][], indent = ''): string {
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => (i < r.length - 1 ? (r[i] ?? '').length : 0))),
  );
  const line = (cells: string[]) =>
    indent +
    cells
      .map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i]! + 2)))
      .join('')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export interface DescribePodSpec {
  name: string;
  namespace: string;
  node?: string;
  labels?: string[];
  controlledBy?: string;
  status: string;
  reason?: string;
  message?: string;
  container: {
    name: string;
    image: string;
    port?: string;
    /** lines under State/Last State, e.g. ['Waiting', 'Reason: CrashLoopBackOff'] */
    state?: string[];
    last?: string[];
    ready?: boolean;
    restarts?: number;
    limits?: Record<string, string>;
    requests?: Record<string, string>;
    probes?: string[];
    env?: string[];
    args?: string[];
  };
  conditions?: [string, string][];
  claims?: string[];
  nodeSelectors?: string;
  /** [type, reason, age, from, message] */
  events?: string[][];
}

/** `kubectl describe pod` text */
export function describePod(p: DescribePodSpec): string {
  const c = p.container;
  const out = [
    `Name:             ${p.name}`,
    `Namespace:        ${p.namespace}`,
    'Priority:         0',
    'Service Account:  default',
    `Node:             ${p.node ? `${p.node}/10.0.0.11` : '<none>'}`,
    ...(p.node ? [`Start Time:       ${kubeTime(60)}`] : []),
    `Labels:           ${(p.labels ?? []).join('\n                  ') || '<none>'}`,
    'Annotations:      <none>',
    `Status:           ${p.status}`,
    ...(p.reason ? [`Reason:           ${p.reason}`] : []),
    ...(p.message ? [`Message:          ${p.message}`] : []),
    `IP:               ${p.node ? '10.244.1.5' : ''}`.trimEnd(),
    ...(p.controlledBy ? [`Controlled By:    ${p.controlledBy}`] : []),
    'Containers:',
    `  ${c.name}:`,
    ...(p.node ? ['    Container ID:  containerd://3f2a9c1b7d'] : []),
    `    Image:         ${c.image}`,
    `    Port:          ${c.port ?? '<none>'}`,
    `    Host Port:     ${c.port ? '0/TCP' : '<none>'}`,
    ...(c.args ? ['    Args:', ...c.args.map((a) => `      ${a}`)] : []),
    ...(c.state
      ? [`    State:          ${c.state[0]}`, ...c.state.slice(1).map((l) => `      ${l}`)]
      : []),
    ...(c.last
      ? [`    Last State:     ${c.last[0]}`, ...c.last.slice(1).map((l) => `      ${l}`)]
      : []),
    ...(c.state ? [`    Ready:          ${c.ready ? 'True' : 'False'}`] : []),
    ...(c.state ? [`    Restart Count:  ${c.restarts ?? 0}`] : []),
    ...(c.limits
      ? ['    Limits:', ...Object.entries(c.limits).map(([k, v]) => `      ${k}:     ${v}`)]
      : []),
    ...(c.requests
      ? ['    Requests:', ...Object.entries(c.requests).map(([k, v]) => `      ${k}:        ${v}`)]
      : []),
    ...(c.probes ?? []).map((l) => `    ${l}`),
    ...(c.env?.length
      ? ['    Environment:', ...c.env.map((l) => `      ${l}`)]
      : ['    Environment:  <none>']),
    '    Mounts:',
    '      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-xk2lp (ro)',
    'Conditions:',
    table(['Type', 'Status'], p.conditions ?? [], '  '),
    'Volumes:',
    ...(p.claims ?? []).flatMap((cl) => [
      '  data:',
      '    Type:       PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)',
      `    ClaimName:  ${cl}`,
      '    ReadOnly:   false',
    ]),
    '  kube-api-access-xk2lp:',
    '    Type:                    Projected (a volume that contains injected data from multiple sources)',
    'QoS Class:                   Burstable',
    `Node-Selectors:              ${p.nodeSelectors ?? '<none>'}`,
    'Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s',
    '                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s',
  ];
  if (p.events?.length)
    out.push(
      'Events:',
      table(
        ['Type', 'Reason', 'Age', 'From', 'Message'],
        [['----', '------', '----', '----', '-------'], ...p.events],
        '  ',
      ),
    );
  else out.push('Events:                      <none>');
  return `${out.join('\n')}\n`;
}

export interface DescribeNodeSpec {
  name: string;
  /** its labels (key=value), kubernetes.io/hostname among them */
  labels: string[];
  annotations?: string[];
  /** minutes ago */
  created: number;
  taints?: string[];
  unschedulable?: boolean;
  /** a Lease held by the node, renewed now */
  lease?: boolean;
  /** [type, status, reason, message], its last heartbeat a minute ago, its transition at creation */
  conditions: [string, string, string, string][];
  /** the InternalIP under Addresses, with the node's Hostname */
  internalIP?: string;
  capacity?: Record<string, string>;
  allocatable?: Record<string, string>;
  systemInfo?: Record<string, string>;
  providerID?: string;
  /** Non-terminated Pods: [namespace, name, cpu requests, cpu limits, memory requests, memory limits, age] */
  pods?: string[][];
  /** the "Allocated resources" heading after the pods */
  allocated?: boolean;
  /** [type, reason, age, from, message]; <none> when absent */
  events?: string[][];
}

/** `kubectl describe node` text, the sections given */
export function describeNode(n: DescribeNodeSpec): string {
  const field = (key: string, lines: string[], width = 20) =>
    `${`${key}:`.padEnd(width)}${lines.join(`\n${' '.repeat(width)}`)}`;
  const block = (title: string, entries: Record<string, string> | undefined, width: number) =>
    entries
      ? [`${title}:`, ...Object.entries(entries).map(([k, v]) => field(`  ${k}`, [v], width))]
      : [];
  return [
    field('Name', [n.name]),
    field('Roles', ['<none>']),
    field('Labels', n.labels),
    ...(n.annotations ? [field('Annotations', n.annotations)] : []),
    field('CreationTimestamp', [kubeTime(n.created)]),
    field('Taints', n.taints?.length ? n.taints : ['<none>']),
    field('Unschedulable', [n.unschedulable ? 'true' : 'false']),
    ...(n.lease
      ? [
          'Lease:',
          field('  HolderIdentity', [n.name], 19),
          field('  AcquireTime', ['<unset>'], 19),
          field('  RenewTime', [kubeTime(0)], 19),
        ]
      : []),
    'Conditions:',
    table(
      ['Type', 'Status', 'LastHeartbeatTime', 'LastTransitionTime', 'Reason', 'Message'],
      [
        ['----', '------', '-----------------', '------------------', '------', '-------'],
        ...n.conditions.map(([type, status, reason, message]) => [
          type,
          status,
          kubeTime(1),
          kubeTime(n.created),
          reason,
          message,
        ]),
      ],
      '  ',
    ),
    ...(n.internalIP
      ? ['Addresses:', field('  InternalIP', [n.internalIP], 15), field('  Hostname', [n.name], 15)]
      : []),
    ...block('Capacity', n.capacity, 22),
    ...block('Allocatable', n.allocatable, 22),
    ...block('System Info', n.systemInfo, 30),
    ...(n.providerID ? [field('ProviderID', [n.providerID], 30)] : []),
    ...(n.pods
      ? [
          field('Non-terminated Pods', [`(${n.pods.length} in total)`], 30),
          table(
            [
              'Namespace',
              'Name',
              'CPU Requests',
              'CPU Limits',
              'Memory Requests',
              'Memory Limits',
              'Age',
            ],
            [
              [
                '---------',
                '----',
                '------------',
                '----------',
                '---------------',
                '-------------',
                '---',
              ],
              ...n.pods,
            ],
            '  ',
          ),
        ]
      : []),
    ...(n.allocated
      ? ['Allocated resources:', '  (Total limits may be over 100 percent, i.e., overcommitted.)']
      : []),
    ...(n.events
      ? [
          'Events:',
          table(
            ['Type', 'Reason', 'Age', 'From', 'Message'],
            [['----', '------', '----', '----', '-------'], ...n.events],
            '  ',
          ),
        ]
      : ['Events:              <none>']),
  ].join('\n');
}

/** `kubectl get pods -o wide` */
export function podsTable(
  rows: [
    name: string,
    ready: string,
    status: string,
    restarts: string,
    age: string,
    node?: string,
  ][],
): string {
  return table(
    [
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ],
    rows.map(([n, r, s, rs, a, node]) => [
      n,
      r,
      s,
      rs,
      a,
      node ? '10.244.1.5' : '<none>',
      node ?? '<none>',
      '<none>',
      '<none>',
    ]),
  );
}

/** `kubectl get events`: [last seen, type, reason, object, message] */
export function eventsTable(rows: string[][]): string {
  return table(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], rows);
}

/** The outputs of a text world as observe() inputs (what each tool would answer). */
export function textOutputs(
  w: TextWorld,
  namespace: string,
): { output: unknown; ctx: Partial<CallContext> }[] {
  return [
    ...Object.entries(w.tables).map(([kind, output]) => ({
      output,
      ctx: { kind, namespace, verb: 'list' },
    })),
    ...Object.entries(w.describe).map(([k, output]) => ({
      output,
      ctx: { kind: k.split('/')[0], namespace, verb: 'describe' },
    })),
    ...(w.events ? [{ output: w.events, ctx: { namespace, verb: 'events' } }] : []),
    ...Object.entries(w.logs ?? {}).map(([pod, output]) => ({
      output,
      ctx: { pod, namespace, verb: 'logs' },
    })),
    ...Object.entries(w.previous ?? {}).map(([pod, output]) => ({
      output,
      ctx: { pod, namespace, verb: 'logs', previous: true },
    })),
  ];
}

/** The outputs of a JSON world as observe() inputs. */
export function jsonOutputs(
  w: JsonWorld,
  namespace: string,
): { output: unknown; ctx: Partial<CallContext> }[] {
  return [
    ...w.objects.map((output) => ({ output, ctx: { namespace } })),
    {
      output: { apiVersion: 'v1', kind: 'EventList', items: w.events ?? [] },
      ctx: { namespace, verb: 'events' },
    },
    ...Object.entries(w.logs ?? {}).map(([pod, output]) => ({
      output,
      ctx: { pod, namespace, verb: 'logs' },
    })),
    ...Object.entries(w.previous ?? {}).map(([pod, output]) => ({
      output,
      ctx: { pod, namespace, verb: 'logs', previous: true },
    })),
  ];
}

/** A Kubernetes Event object */
export function kubeEvent(
  ns: string,
  involved: { kind: string; name: string },
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  firstMin: number,
  lastMin = firstMin,
  count = 1,
  /** who reported it: the kubelet (on worker-1) unless a controller or the scheduler did */
  component = 'kubelet',
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${involved.name}.${reason.toLowerCase()}`, namespace: ns },
    involvedObject: { apiVersion: 'v1', ...involved, namespace: ns },
    type,
    reason,
    message,
    count,
    firstTimestamp: ago(firstMin),
    lastTimestamp: ago(lastMin),
    source: component === 'kubelet' ? { component, host: 'worker-1' } : { component },
  };
}

/** a Warning event (kubeEvent's), each field given */
export const warningEvent = (
  ns: string,
  involved: { kind: string; name: string },
  reason: string,
  message: string,
  firstMin: number,
  lastMin: number,
  count: number,
  component = 'kubelet',
): Record<string, unknown> =>
  kubeEvent(ns, involved, 'Warning', reason, message, firstMin, lastMin, count, component);

// ---------------------------------------------------------------- YAML / table vocabulary

const ageOf = (iso: unknown) => {
  const t = typeof iso === 'string' ? Date.parse(iso) : NaN;
  if (!Number.isFinite(t)) return '<unknown>';
  const m = Math.max(0, Math.round((NOW - t) / 60_000));
  return m >= 1440 ? `${Math.floor(m / 1440)}d` : m >= 60 ? `${Math.floor(m / 60)}h` : `${m}m`;
};

/** the row `kubectl get pods -A -o wide --show-labels`-like listers print for a Pod object */
function podRow(o: Record<string, unknown>): string[] {
  const meta = o['metadata'] as Record<string, unknown>;
  const spec = (o['spec'] ?? {}) as Record<string, unknown>;
  const status = (o['status'] ?? {}) as Record<string, unknown>;
  const cs = ((status['containerStatuses'] ?? []) as Record<string, unknown>[])[0] ?? {};
  const state = (cs['state'] ?? {}) as Record<string, Record<string, unknown>>;
  const shown =
    (status['reason'] as string | undefined) ??
    (state['waiting']?.['reason'] as string | undefined) ??
    (state['terminated']?.['reason'] as string | undefined) ??
    String(status['phase'] ?? 'Unknown');
  const labels = Object.entries((meta['labels'] ?? {}) as Record<string, string>)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return [
    String(meta['namespace'] ?? ''),
    'v1',
    'Pod',
    String(meta['name']),
    `${cs['ready'] ? 1 : 0}/1`,
    shown,
    String(cs['restartCount'] ?? 0),
    ageOf(meta['creationTimestamp']),
    spec['nodeName'] ? '10.244.1.5' : '<none>',
    String(spec['nodeName'] ?? '<none>'),
    '<none>',
    '<none>',
    labels || '<none>',
  ];
}

/**
 * Tools answering as kubernetes-mcp-server does by default: lists as tables with
 * NAMESPACE/APIVERSION/KIND columns, single objects as YAML, events as a YAML list after a
 * sentence, logs as text.
 */
export function yamlTools(w: JsonWorld): FakeTool[] {
  const get = (kind: string, name: unknown) =>
    w.objects.find((o) => kindIs(o, kind) && nameOf(o) === name);
  const events = () =>
    (w.events ?? []).map((e) => {
      const inv = e['involvedObject'] as Record<string, unknown>;
      return {
        InvolvedObject: {
          Kind: inv['kind'],
          Name: inv['name'],
          apiVersion: inv['apiVersion'] ?? 'v1',
        },
        Message: e['message'],
        Namespace: inv['namespace'],
        Reason: e['reason'],
        Timestamp: e['lastTimestamp'],
        Type: e['type'],
      };
    });
  return [
    {
      name: 'pods_list_in_namespace',
      description: 'List all the Kubernetes pods in the specified namespace in the current cluster',
      properties: { namespace: str, labelSelector: str },
      required: ['namespace'],
      handler: () =>
        table(
          [
            'NAMESPACE',
            'APIVERSION',
            'KIND',
            'NAME',
            'READY',
            'STATUS',
            'RESTARTS',
            'AGE',
            'IP',
            'NODE',
            'NOMINATED NODE',
            'READINESS GATES',
            'LABELS',
          ],
          w.objects.filter((o) => kindIs(o, 'Pod')).map(podRow),
        ),
    },
    {
      name: 'pods_get',
      description:
        'Get a Kubernetes Pod in the current or provided namespace with the provided name',
      properties: { name: str, namespace: str },
      required: ['name'],
      handler: (p) => {
        const o = get('Pod', p['name']);
        return o ? stringifyYaml(o) : `failed to get pod ${String(p['name'])}: not found`;
      },
    },
    {
      name: 'pods_log',
      description: 'Get the logs of a Kubernetes Pod in the current or provided namespace',
      properties: { name: str, namespace: str, container: str, previous: { type: 'boolean' } },
      required: ['name'],
      handler: (p) => (p['previous'] ? w.previous : w.logs)?.[String(p['name'])] ?? '',
    },
    {
      name: 'events_list',
      description: 'List all the Kubernetes events in the current cluster from all namespaces',
      properties: { namespace: str },
      handler: () => `The following events (YAML format) were found:\n${stringifyYaml(events())}`,
    },
    {
      name: 'resources_get',
      description:
        'Get a Kubernetes resource in the current cluster by providing its apiVersion, kind, optionally the namespace, and its name',
      properties: { apiVersion: str, kind: str, namespace: str, name: str },
      required: ['apiVersion', 'kind', 'name'],
      handler: (p) => {
        const o = get(String(p['kind']), p['name']);
        return o ? stringifyYaml(o) : `failed to get resource: not found`;
      },
    },
  ];
}

// ------------------------------------------------------------------------------------------------
// kubernetes-mcp-server-like API tools, kubectl --timestamps lines, the engine at a given time

/** `kubectl logs --timestamps` prefix: RFC 3339 with nanoseconds */
export const stamp = (minutesAgo: number) => ago(minutesAgo).replace(/Z$/, '482913Z');
export const stamped = (lines: [number, string][]) =>
  lines.map(([m, l]) => `${stamp(m)} ${l}`).join('\n');

export interface ApiWorld {
  objects: Record<string, unknown>[];
  events?: Record<string, unknown>[];
  /** `pod` (its default container) or `pod/container` -> current logs */
  logs?: Record<string, string>;
  previous?: Record<string, string>;
  /** kind -> the table a lister answers instead of objects (`kubectl get rs`) */
  tables?: Record<string, string>;
}

/** an object's metadata */
export const metaOf = (o: Record<string, unknown>) =>
  (o['metadata'] ?? {}) as Record<string, unknown>;

/** kubernetes-mcp-server-like tools: JSON objects, filtered by namespace; logs per container. */
export function apiTools(w: ApiWorld): FakeTool[] {
  const inNs = (o: Record<string, unknown>, ns: unknown) =>
    !ns || metaOf(o)['namespace'] === undefined || metaOf(o)['namespace'] === ns;
  const list = (kind: string, ns: unknown) => ({
    apiVersion: 'v1',
    kind: `${kind}List`,
    items: w.objects.filter(
      (o) => String(o['kind']).toLowerCase() === kind.toLowerCase() && inNs(o, ns),
    ),
  });
  const get = (kind: string, name: unknown, ns: unknown) =>
    w.objects.find(
      (o) =>
        String(o['kind']).toLowerCase() === kind.toLowerCase() &&
        metaOf(o)['name'] === name &&
        inNs(o, ns),
    ) ?? { error: `${kind} ${String(name)} not found` };
  const logs = (src: Record<string, string> | undefined, p: Record<string, unknown>) =>
    (p['container'] ? src?.[`${String(p['name'])}/${String(p['container'])}`] : undefined) ??
    src?.[String(p['name'])] ??
    '';
  return [
    {
      name: 'pods_list',
      description: 'List pods of a namespace',
      properties: { namespace: str },
      handler: (p) => list('Pod', p['namespace']),
    },
    {
      name: 'pods_get',
      description: 'Get a pod by name',
      properties: { name: str, namespace: str },
      required: ['name'],
      handler: (p) => get('Pod', p['name'], p['namespace']),
    },
    {
      name: 'pods_log',
      description: 'Logs of a pod container',
      properties: { name: str, namespace: str, container: str, previous: { type: 'boolean' } },
      required: ['name'],
      handler: (p) => logs(p['previous'] ? w.previous : w.logs, p),
    },
    {
      name: 'events_list',
      description: 'List Kubernetes events of a namespace',
      properties: { namespace: str },
      handler: (p) => ({
        apiVersion: 'v1',
        kind: 'EventList',
        items: (w.events ?? []).filter((e) => inNs(e, p['namespace'])),
      }),
    },
    {
      name: 'resources_list',
      description: 'List Kubernetes resources of a kind',
      properties: { apiVersion: str, kind: str, namespace: str },
      required: ['apiVersion', 'kind'],
      handler: (p) => w.tables?.[String(p['kind'])] ?? list(String(p['kind']), p['namespace']),
    },
    {
      name: 'resources_get',
      description: 'Get a Kubernetes resource by kind and name',
      properties: { apiVersion: str, kind: str, name: str, namespace: str },
      required: ['apiVersion', 'kind', 'name'],
      handler: (p) => get(String(p['kind']), p['name'], p['namespace']),
    },
  ];
}

/** The whole engine over a tool server, at a given time. */
export async function investigateAt(tools: FakeTool[], message: string, now: number, ns?: string) {
  const gateway = new FakeGateway(tools);
  const engine = new DeterministicEngine(gateway, new FakeKnowledge(), { clock: () => now });
  const out = await engine.run(engineRun(message, ns ? { namespace: ns } : {}));
  return { text: conclusion(out.result), result: out.result, gateway };
}

/** An answer as the rule specs read it: summary and root cause, not the recommendations. */
export const answerOf = (r: { summary: string; root_cause: { description: string } }) =>
  [r.summary, r.root_cause.description].join('\n');

// ------------------------------------------------------------------------------------------------
// API objects: a Pod, a Deployment, a Namespace

export interface Box {
  name: string;
  image: string;
  /** container state; running when absent */
  state?: Record<string, unknown>;
  lastState?: Record<string, unknown>;
  restarts?: number;
  ready?: boolean;
  /** status.containerStatuses[].started: no state (running) unless given; left out when null */
  started?: boolean | null;
  resources?: Record<string, unknown>;
  /** spec.containers[].ports */
  ports?: Record<string, unknown>[];
  /** status.containerStatuses[].imageID (the digest it resolved to) */
  imageID?: string;
}

/** a Pod as the API returns it, with what these worlds need (annotations, several containers) */
export function podObj(p: {
  name: string;
  ns: string;
  labels: Record<string, string>;
  owner: { kind: string; name: string; blockOwnerDeletion?: boolean };
  boxes: Box[];
  annotations?: Record<string, string>;
  phase?: 'Running' | 'Pending' | 'Succeeded' | 'Failed';
  /** minutes ago */
  created?: number;
  scheduled?: boolean;
  /** the node it runs on */
  node?: string;
  serviceAccount?: string;
  uid?: string;
  restartPolicy?: string;
  /** PersistentVolumeClaims it mounts (the first as `data`, at /data in every container) */
  claims?: string[];
  /** status.reason and status.message (Evicted, ...) */
  reason?: string;
  message?: string;
  /** status.conditions: PodScheduled and Ready when absent, left out when null */
  conditions?: Record<string, unknown>[] | null;
  /** status.podIP once scheduled: 10.52.3.18 when absent, left out when null */
  podIP?: string | null;
}): Record<string, unknown> {
  const created = p.created ?? 60 * 24 * 2;
  const phase = p.phase ?? 'Running';
  const scheduled = p.scheduled ?? phase !== 'Pending';
  const readyOf = (b: Box) => b.ready ?? (phase === 'Running' && !b.state);
  const podIP = p.podIP === undefined ? '10.52.3.18' : p.podIP;
  const conditions =
    p.conditions === undefined
      ? [
          { type: 'PodScheduled', status: scheduled ? 'True' : 'False' },
          { type: 'Ready', status: p.boxes.every(readyOf) ? 'True' : 'False' },
        ]
      : p.conditions;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.ns,
      ...(p.uid ? { uid: p.uid } : {}),
      labels: p.labels,
      ...(p.annotations ? { annotations: p.annotations } : {}),
      creationTimestamp: ago(created),
      ownerReferences: [
        {
          apiVersion: /Job$/.test(p.owner.kind) ? 'batch/v1' : 'apps/v1',
          kind: p.owner.kind,
          name: p.owner.name,
          controller: true,
          ...(p.owner.blockOwnerDeletion ? { blockOwnerDeletion: true } : {}),
        },
      ],
    },
    spec: {
      ...(scheduled ? { nodeName: p.node ?? 'gke-prod-pool-b-4c1f9e2a-m7qd' } : {}),
      ...(p.serviceAccount ? { serviceAccountName: p.serviceAccount } : {}),
      ...(p.restartPolicy ? { restartPolicy: p.restartPolicy } : {}),
      containers: p.boxes.map((b) => ({
        name: b.name,
        image: b.image,
        ...(b.ports ? { ports: b.ports } : {}),
        ...(b.resources ? { resources: b.resources } : {}),
        ...(p.claims ? { volumeMounts: [{ name: 'data', mountPath: '/data' }] } : {}),
      })),
      ...(p.claims
        ? {
            volumes: p.claims.map((claimName, i) => ({
              name: i ? `data-${i}` : 'data',
              persistentVolumeClaim: { claimName },
            })),
          }
        : {}),
    },
    status: {
      phase,
      ...(p.reason ? { reason: p.reason } : {}),
      ...(p.message ? { message: p.message } : {}),
      ...(conditions ? { conditions } : {}),
      ...(scheduled
        ? {
            startTime: ago(created),
            ...(podIP ? { podIP } : {}),
            containerStatuses: p.boxes.map((b) => ({
              name: b.name,
              image: b.image,
              ...(b.imageID ? { imageID: b.imageID } : {}),
              ready: readyOf(b),
              ...(b.started === null ? {} : { started: b.started ?? !b.state }),
              restartCount: b.restarts ?? 0,
              state: b.state ?? { running: { startedAt: ago(created) } },
              ...(b.lastState ? { lastState: b.lastState } : {}),
            })),
          }
        : {}),
    },
  };
}

export function deploymentObj(
  name: string,
  ns: string,
  images: string[],
  replicas: number,
  ready: number,
  /** the containers' names, when not the Deployment's */
  names: string[] = [],
  more: {
    /** minutes ago; 90 days when absent */
    created?: number;
    /** spec.paused: no replica updated */
    paused?: boolean;
    /** status.conditions */
    conditions?: Record<string, unknown>[];
    /** status.unavailableReplicas when fewer are ready (left out when false, as older servers do) */
    unavailable?: boolean;
  } = {},
): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: ns,
      labels: { app: name },
      creationTimestamp: ago(more.created ?? 60 * 24 * 90),
    },
    spec: {
      replicas,
      ...(more.paused ? { paused: true } : {}),
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: images.map((image, i) => ({ name: names[i] ?? name, image })) },
      },
    },
    status: {
      replicas,
      readyReplicas: ready,
      availableReplicas: ready,
      updatedReplicas: more.paused ? 0 : replicas,
      ...(ready < replicas && more.unavailable !== false
        ? { unavailableReplicas: replicas - ready }
        : {}),
      ...(more.conditions ? { conditions: more.conditions } : {}),
    },
  };
}

export const namespaceObj = (name: string): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
});

/** a HorizontalPodAutoscaler of a Deployment on its pods' average CPU utilization */
export function hpaObj(
  name: string,
  ns: string,
  /** the Deployment it scales */
  target: string,
  h: {
    min: number;
    max: number;
    /** the target average utilization, percent */
    cpu: number;
    /** status.currentReplicas, and desiredReplicas */
    current: number;
    /** minutes ago; no creationTimestamp when absent */
    created?: number;
    behavior?: Record<string, unknown>;
    conditions?: Record<string, unknown>[];
  },
): Record<string, unknown> {
  const created = h.created === undefined ? {} : { creationTimestamp: ago(h.created) };
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, namespace: ns, ...created },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
      minReplicas: h.min,
      maxReplicas: h.max,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: h.cpu } },
        },
      ],
      ...(h.behavior ? { behavior: h.behavior } : {}),
    },
    status: {
      currentReplicas: h.current,
      desiredReplicas: h.current,
      ...(h.conditions ? { conditions: h.conditions } : {}),
    },
  };
}

/** The pod with `env` set on its first container (a copy). */
export function withEnv(pod: Record<string, unknown>, env: Record<string, string>) {
  const spec = pod['spec'] as { containers: Record<string, unknown>[] };
  const [first, ...rest] = spec.containers;
  return {
    ...pod,
    spec: {
      ...spec,
      containers: [
        { ...first, env: Object.entries(env).map(([name, value]) => ({ name, value })) },
        ...rest,
      ],
    },
  };
}

/** A ClusterIP Service selecting `selector`, with one TCP port to `targetPort`. */
export function serviceObj(
  name: string,
  ns: string,
  selector: Record<string, string>,
  targetPort: number,
  o: {
    /** the Service's own port (default: targetPort) */
    port?: number;
    portName?: string;
    clusterIP?: string;
    /** days since it was created */
    age?: number;
    /** more spec fields (sessionAffinity, ...) */
    spec?: Record<string, unknown>;
  } = {},
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * (o.age ?? 200)) },
    spec: {
      type: 'ClusterIP',
      clusterIP: o.clusterIP ?? '10.96.14.203',
      selector,
      ports: [
        { name: o.portName ?? 'http', port: o.port ?? targetPort, targetPort, protocol: 'TCP' },
      ],
      ...o.spec,
    },
  };
}

/**
 * A StatefulSet of `n` members (pods `<name>-0`..), `ready` of them ready, each with one container
 * (named `container`, else like the set); `member` changes the pod of member i.
 */
export function statefulSetObj(
  name: string,
  ns: string,
  image: string,
  n: number,
  o: {
    ready?: number;
    container?: string;
    limits?: Record<string, string>;
    node?: string;
    /** days since the set, and since its pods, were created */
    age?: number;
    podAge?: number;
    /** the members' pod IPs: `<ipPrefix>.<ipBase + i>` */
    ipPrefix?: string;
    ipBase?: number;
    member?: (i: number) => Partial<Parameters<typeof podObj>[0]>;
  } = {},
): Record<string, unknown>[] {
  const ready = o.ready ?? n;
  const container = o.container ?? name;
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {
        name,
        namespace: ns,
        labels: { app: name },
        creationTimestamp: ago(60 * 24 * (o.age ?? 300)),
      },
      spec: {
        replicas: n,
        serviceName: name,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: container, image }] },
        },
      },
      status: {
        replicas: n,
        readyReplicas: ready,
        currentReplicas: n,
        updatedReplicas: n,
        availableReplicas: ready,
      },
    },
    ...Array.from({ length: n }, (_, i) =>
      podObj({
        name: `${name}-${i}`,
        ns,
        labels: { app: name, 'statefulset.kubernetes.io/pod-name': `${name}-${i}` },
        owner: { kind: 'StatefulSet', name },
        ...(o.node ? { node: o.node } : {}),
        created: 60 * 24 * (o.podAge ?? 12),
        podIP: `${o.ipPrefix ?? '10.40.9'}.${(o.ipBase ?? 20) + i}`,
        boxes: [
          { name: container, image, ...(o.limits ? { resources: { limits: o.limits } } : {}) },
        ],
        ...o.member?.(i),
      }),
    ),
  ];
}

/** the required kubeconfig context, described as the real server does */
const goContext = { type: 'string', description: 'Name of the Kubernetes context to use' };

/** one text content item per object, as the proxy hands a list of several to the engine */
const goItems = (texts: string[]): unknown =>
  texts.length === 1
    ? (JSON.parse(texts[0]!) as unknown)
    : { content: texts.map((text) => ({ type: 'text', text })) };

/**
 * Tools in strowk/mcp-k8s-go's shape, a server whose listings say little: a required kubeconfig
 * `context` a contexts tool names; `list-k8s-resources` answers one content item per object, each
 * `{name, namespace}` only (a Service's a small struct: type, clusterIP, ports; no selector, no
 * status); `get-k8s-resource` the whole object; events per namespace without times; logs by pod,
 * without a container.
 */
export function goTools(
  objects: Record<string, unknown>[],
  logs: Record<string, string> = {},
): FakeTool[] {
  const kindIs = (o: Record<string, unknown>, kind: unknown) =>
    String(o['kind']).toLowerCase() === String(kind).toLowerCase();
  const small = (o: Record<string, unknown>): string => {
    const m = metaOf(o);
    if (kindIs(o, 'service')) {
      const spec = (o['spec'] ?? {}) as Record<string, unknown>;
      return JSON.stringify({
        name: m['name'],
        namespace: m['namespace'],
        type: spec['type'] ?? 'ClusterIP',
        clusterIP: spec['clusterIP'] ?? '',
        externalIPs: null,
        ports: ((spec['ports'] ?? []) as Record<string, unknown>[]).map(
          (p) => `${String(p['port'])}/TCP`,
        ),
      });
    }
    return JSON.stringify({
      name: m['name'],
      ...(m['namespace'] ? { namespace: m['namespace'] } : {}),
    });
  };
  return [
    {
      name: 'list-k8s-contexts',
      description: 'List Kubernetes contexts from configuration files such as kubeconfig',
      properties: {},
      handler: () => ({
        context: { cluster: 'bench', user: 'bench' },
        name: 'bench',
        current: true,
      }),
    },
    {
      name: 'list-k8s-nodes',
      description: 'List Kubernetes nodes using specific context',
      properties: { context: goContext },
      required: ['context'],
      handler: () =>
        goItems(
          objects
            .filter((o) => kindIs(o, 'node'))
            .map((o) => JSON.stringify({ name: metaOf(o)['name'], status: 'Ready', age: '30d' })),
        ),
    },
    {
      name: 'list-k8s-namespaces',
      description: 'List Kubernetes namespaces',
      properties: { context: goContext },
      required: ['context'],
      handler: () =>
        goItems(
          [...new Set(objects.map((o) => metaOf(o)['namespace']).filter(Boolean))].map((n) =>
            JSON.stringify({ name: n }),
          ),
        ),
    },
    {
      name: 'list-k8s-resources',
      description: 'List arbitrary Kubernetes resources',
      properties: { context: goContext, kind: str, namespace: str, group: str, version: str },
      required: ['context', 'kind'],
      handler: (p) =>
        goItems(
          objects
            .filter((o) => kindIs(o, p['kind']))
            .filter((o) => !p['namespace'] || metaOf(o)['namespace'] === p['namespace'])
            .map(small),
        ),
    },
    {
      name: 'get-k8s-resource',
      description: 'Get details of any Kubernetes resource',
      properties: {
        context: goContext,
        kind: str,
        name: str,
        namespace: str,
        group: str,
        version: str,
      },
      required: ['context', 'kind', 'name'],
      handler: (p) =>
        objects.find(
          (o) =>
            kindIs(o, p['kind']) &&
            metaOf(o)['name'] === p['name'] &&
            (!p['namespace'] || metaOf(o)['namespace'] === p['namespace']),
        ) ?? { error: 'not found' },
    },
    {
      name: 'list-k8s-events',
      description: 'List Kubernetes events',
      properties: { context: goContext, namespace: str },
      required: ['context', 'namespace'],
      handler: (p) =>
        goItems(
          objects
            .filter((o) => kindIs(o, 'event') && metaOf(o)['namespace'] === p['namespace'])
            .map((e) =>
              JSON.stringify({
                action: '',
                message: e['message'],
                type: e['type'],
                reason: e['reason'],
                involvedObject: {
                  kind: (e['involvedObject'] as Record<string, unknown>)['kind'],
                  name: (e['involvedObject'] as Record<string, unknown>)['name'],
                },
              }),
            ),
        ),
    },
    {
      name: 'get-k8s-pod-logs',
      description: 'Get logs for a Kubernetes pod',
      properties: { context: goContext, namespace: str, pod: str },
      required: ['context', 'namespace', 'pod'],
      handler: (p) => logs[String(p['pod'])] ?? '',
    },
  ];
}
