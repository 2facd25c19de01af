/**
 * The engine behaviour of dbdd917 and e71df40 (a tool server of many tools), each with a near miss,
 * on a server of plain tool descriptors whose handlers answer result dicts
 * ({"success": true, "pods": [...]}, {"success": true, "description": "<kubectl describe text>"}):
 * of two tools for one job the plainer (`get_pods` before `detect_pending_pods`) and the cluster's
 * (`get_nodes`, a generic `kubectl_describe`, before `cilium_list_nodes`, `kind_node_inspect`);
 * a search of charts is no finder of objects; a `tail` typed `int | None` (anyOf) gets a number;
 * a description wrapped in a result dict is read as the description it is; and pods a listing
 * gives only a phase for are described, the subject's first.
 */
import { observe } from './observe';
import {
  NOW,
  answerOf,
  describeNode,
  describePod,
  investigateAt,
  podsTable,
  stamped,
  str,
  type FakeTool,
} from './spec-world';

type Obj = Record<string, unknown>;
type Calls = { tool: string; params: Obj }[];
/** a property schema beyond FakeTool's plain `{type}` (anyOf alternatives) */
type Schema = FakeTool['properties'][string];

/** minutes in a day */
const DAY = 60 * 24;

// ------------------------------------------------------------------------------------------------
// A tool server of many tools (names and values of these specs' own)

interface ManyPod {
  name: string;
  ns: string;
  phase: 'Running' | 'Pending';
  /** kubectl's STATUS column (CrashLoopBackOff for a Running pod whose container crash-loops) */
  status: string;
  /** kubectl's READY column */
  ready: string;
  restarts: number;
  node?: string;
  /** `kubectl describe pod` text */
  describe: string;
}

interface ManyNode {
  name: string;
  ready: boolean;
  /** `kubectl describe node` text */
  describe: string;
}

interface ManyWorld {
  pods: ManyPod[];
  nodes?: ManyNode[];
  /**
   * what get_pods says of each pod: its phase only (`{name, namespace, status: "Running"}`), its
   * phase and restarts, kubectl's STATUS with READY and restarts as fields, or kubectl's table
   */
  listing: 'phase' | 'restarts' | 'fields' | 'table';
  logs?: Record<string, string>;
  previous?: Record<string, string>;
}

/** `int | None` as a pydantic server's schema gives it */
const INT_OR_NONE = {
  anyOf: [{ type: 'integer' }, { type: 'null' }],
  default: null,
  description: 'Number of lines from the end of the log',
} as unknown as Schema;
const STRING_OR_NONE = {
  anyOf: [{ type: 'string' }, { type: 'null' }],
  default: null,
  description: 'Lines from the end of the log, as a string',
} as unknown as Schema;

const inNs = (p: ManyPod, ns: unknown) => !ns || p.ns === ns;

/**
 * The server's tools by name; a test serves those it names, in its order. Every handler answers
 * a result dict; a pod or node it does not know fails the call.
 */
function manyTools(w: ManyWorld, opts: { tail?: Schema } = {}): Record<string, FakeTool> {
  const pod = (name: unknown, ns: unknown) => {
    const p = w.pods.find((x) => x.name === name && inNs(x, ns));
    if (!p) throw new Error(`pods "${String(name)}" not found`);
    return p;
  };
  const node = (name: unknown) => {
    const n = (w.nodes ?? []).find((x) => x.name === name);
    if (!n) throw new Error(`nodes "${String(name)}" not found`);
    return n;
  };
  const listing = (p: ManyPod): Obj => {
    switch (w.listing) {
      case 'phase':
        return { name: p.name, namespace: p.ns, status: p.phase };
      case 'restarts':
        return { name: p.name, namespace: p.ns, status: p.phase, restarts: p.restarts };
      default:
        return {
          name: p.name,
          namespace: p.ns,
          status: p.status,
          ready: p.ready,
          restarts: p.restarts,
        };
    }
  };
  const tail = opts.tail ?? INT_OR_NONE;
  const tools: FakeTool[] = [
    {
      name: 'detect_pending_pods',
      description: 'Find pods stuck in Pending and say why they cannot be scheduled',
      properties: { namespace: str },
      handler: (p) => {
        const pending = w.pods.filter((x) => x.phase === 'Pending' && inNs(x, p['namespace']));
        return {
          success: true,
          pending_pods: pending.map((x) => ({
            name: x.name,
            namespace: x.ns,
            phase: x.phase,
            reason: 'Unschedulable',
          })),
          count: pending.length,
        };
      },
    },
    {
      name: 'get_pods',
      description: 'List pods in a namespace (all namespaces when none is given)',
      properties: { namespace: str, label_selector: str },
      handler: (p) => {
        const pods = w.pods.filter((x) => inNs(x, p['namespace']));
        if (w.listing === 'table')
          return podsTable(pods.map((x) => [x.name, x.ready, x.status, String(x.restarts), '2d']));
        return { success: true, count: pods.length, pods: pods.map(listing) };
      },
    },
    {
      name: 'get_pod_conditions',
      description: "A pod's conditions (PodScheduled, Initialized, ContainersReady, Ready)",
      properties: { pod_name: str, namespace: str },
      required: ['pod_name', 'namespace'],
      handler: (p) => {
        const x = pod(p['pod_name'], p['namespace']);
        const ready = /^(\d+)\/\1$/.test(x.ready) ? 'True' : 'False';
        return {
          success: true,
          pod: x.name,
          conditions: [
            { type: 'PodScheduled', status: x.node ? 'True' : 'False' },
            { type: 'ContainersReady', status: ready },
            { type: 'Ready', status: ready },
          ],
        };
      },
    },
    {
      name: 'describe_pod',
      description: 'Describe a pod (kubectl describe pod)',
      properties: { pod_name: str, namespace: str },
      required: ['pod_name', 'namespace'],
      handler: (p) => ({
        success: true,
        description: pod(p['pod_name'], p['namespace']).describe,
      }),
    },
    {
      name: 'get_pod_logs',
      description: 'Logs of a pod container',
      properties: {
        pod_name: str,
        namespace: str,
        container: str,
        previous: { type: 'boolean' },
        tail,
      },
      required: ['pod_name', 'namespace'],
      handler: (p) => {
        // strict validation of the schema's type, as a schema-validating server answers
        const t = p['tail'];
        const wanted = opts.tail === STRING_OR_NONE ? 'string' : 'number';
        if (t !== undefined && t !== null && typeof t !== wanted)
          throw new Error(
            `1 validation error for get_pod_logsArguments\ntail\n  Input should be a valid ${wanted === 'number' ? 'integer' : 'string'} [input_value=${JSON.stringify(t)}]`,
          );
        const x = pod(p['pod_name'], p['namespace']);
        return {
          success: true,
          pod: x.name,
          logs: (p['previous'] ? w.previous : w.logs)?.[x.name] ?? '',
        };
      },
    },
    {
      name: 'get_nodes',
      description: "List the cluster's nodes with their status",
      properties: {},
      handler: () => ({
        success: true,
        nodes: (w.nodes ?? []).map((n) => ({
          name: n.name,
          status: n.ready ? 'Ready' : 'NotReady',
          roles: 'worker',
          version: 'v1.29.6',
        })),
      }),
    },
    {
      name: 'cilium_list_nodes',
      description: "Cilium's view of the nodes (its agents' health per node)",
      properties: {},
      handler: () => ({
        success: true,
        nodes: (w.nodes ?? []).map((n) => ({ name: n.name, cilium_health: 'reachable' })),
      }),
    },
    {
      name: 'kind_node_inspect',
      description: 'Inspect a node container of a local kind cluster',
      properties: { node_name: str },
      required: ['node_name'],
      handler: (p) => ({
        success: true,
        container: node(p['node_name']).name,
        state: 'running',
        image: 'kindest/node:v1.29.6',
      }),
    },
    {
      name: 'kubectl_describe',
      description: 'Describe any Kubernetes resource (kubectl describe <resource_type> <name>)',
      properties: { resource_type: str, name: str, namespace: str },
      required: ['resource_type', 'name'],
      handler: (p) => {
        const t = String(p['resource_type']).toLowerCase();
        if (t === 'node' || t === 'nodes')
          return { success: true, description: node(p['name']).describe };
        if (t === 'pod' || t === 'pods')
          return { success: true, description: pod(p['name'], p['namespace']).describe };
        throw new Error(`the server doesn't have a resource type "${t}" in this world`);
      },
    },
    {
      name: 'helm_search_hub',
      description: 'Search Artifact Hub for Helm charts',
      properties: { keyword: str, max_results: INT_OR_NONE },
      required: ['keyword'],
      handler: (p) => ({
        success: true,
        charts: [
          { name: `${String(p['keyword'])}-chart`, repository: 'community', version: '3.1.0' },
        ],
      }),
    },
    {
      name: 'helm_search_repo',
      description: 'Search the added Helm repositories for charts',
      properties: { query: str },
      required: ['query'],
      handler: (p) => ({
        success: true,
        charts: [{ name: `stable/${String(p['query'])}`, version: '0.4.2' }],
      }),
    },
    {
      name: 'search_resources',
      description: "Search the cluster's resources whose name contains a keyword",
      properties: { keyword: str, namespace: str },
      required: ['keyword'],
      handler: (p) => ({
        success: true,
        results: w.pods
          .filter((x) => x.name.includes(String(p['keyword'])) && inNs(x, p['namespace']))
          .map((x) => ({ kind: 'Pod', name: x.name, namespace: x.ns, status: x.status })),
      }),
    },
  ];
  return Object.fromEntries(tools.map((t) => [t.name, t]));
}

/** the tools named, in that order */
const serve = (w: ManyWorld, names: string[], opts: { tail?: Schema } = {}): FakeTool[] => {
  const all = manyTools(w, opts);
  return names.map((n) => {
    const t = all[n];
    if (!t) throw new Error(`no tool ${n} in this server`);
    return t;
  });
};

const callsOf = (calls: Calls, tool: string) => calls.filter((c) => c.tool === `k8s:${tool}`);
/** the pods describe_pod was asked for, in order */
const described = (calls: Calls) =>
  callsOf(calls, 'describe_pod').map((c) => String(c.params['pod_name']));

/** a pod of a Deployment's ReplicaSet, described as kubectl describes it */
function replica(
  app: string,
  hash: string,
  suffix: string,
  ns: string,
  how: {
    phase?: 'Running' | 'Pending';
    status?: string;
    ready?: boolean;
    restarts?: number;
    node?: string;
    state?: string[];
    last?: string[];
    limits?: Record<string, string>;
  } = {},
): ManyPod {
  const name = `${app}-${hash}-${suffix}`;
  const ready = how.ready ?? true;
  const node = how.node ?? 'pool-a-worker-2';
  return {
    name,
    ns,
    phase: how.phase ?? 'Running',
    status: how.status ?? how.phase ?? 'Running',
    ready: ready ? '1/1' : '0/1',
    restarts: how.restarts ?? 0,
    node,
    describe: describePod({
      name,
      namespace: ns,
      node,
      labels: [`app=${app}`, `pod-template-hash=${hash}`],
      controlledBy: `ReplicaSet/${app}-${hash}`,
      status: how.phase ?? 'Running',
      container: {
        name: app,
        image: `registry.example.org/${ns}/${app}:1.8.3`,
        port: '8080/TCP',
        state: how.state ?? [
          'Running',
          `Started:      ${new Date(NOW - DAY * 60_000).toUTCString()}`,
        ],
        ...(how.last ? { last: how.last } : {}),
        ready,
        restarts: how.restarts ?? 0,
        ...(how.limits ? { limits: how.limits } : {}),
      },
      conditions: [
        ['Initialized', 'True'],
        ['Ready', ready ? 'True' : 'False'],
        ['ContainersReady', ready ? 'True' : 'False'],
        ['PodScheduled', 'True'],
      ],
    }),
  };
}

/** a container in CrashLoopBackOff after its last run exited 1 */
const CRASHING = {
  status: 'CrashLoopBackOff',
  ready: false,
  restarts: 9,
  state: ['Waiting', 'Reason:       CrashLoopBackOff'],
  last: [
    'Terminated',
    'Reason:       Error',
    'Exit Code:    1',
    `Started:      ${new Date(NOW - 5 * 60_000).toUTCString()}`,
    `Finished:     ${new Date(NOW - 4 * 60_000).toUTCString()}`,
  ],
};

describe('round20: a tool server of many tools (dbdd917, e71df40)', () => {
  // ---------------------------------------------------------------- 1. the plainer tool
  describe("1. of two tools for one job the plainer, the cluster's before a product's own", () => {
    const ns = 'tiles';
    const app = 'tile-renderer';
    const crash = replica(app, '7f6d9c8b5', 'k4p2x', ns, CRASHING);
    const fine = replica(app, '7f6d9c8b5', 'w9z3m', ns);
    const waiting = replica('tile-seeder', '5b8c7d6e4', 'h2j6n', ns, {
      phase: 'Pending',
      ready: false,
      state: ['Waiting', 'Reason:       ContainerCreating'],
    });
    const reason = 'panic: open /etc/tiles/styles/basemap.json: no such file or directory';
    const world: ManyWorld = {
      pods: [crash, fine, waiting],
      listing: 'fields',
      previous: { [crash.name]: stamped([[4, reason]]) },
    };

    it('detect_pending_pods listed before get_pods: the pods are listed with get_pods, detect_pending_pods is never called, and the failure of the pod crash-looping in phase Running is the answer', async () => {
      const tools = serve(world, [
        'detect_pending_pods',
        'get_pods',
        'describe_pod',
        'get_pod_logs',
      ]);
      const r = await investigateAt(tools, `${app} in ${ns} keeps restarting`, NOW, ns);
      const calls = r.gateway.calls;
      expect(callsOf(calls, 'get_pods').map((c) => c.params['namespace'])).toContain(ns);
      expect(callsOf(calls, 'detect_pending_pods')).toHaveLength(0);
      // the crash-looping pod's own failure (its phase is Running, not Pending)
      const a = answerOf(r.result);
      expect(a).toContain(crash.name);
      expect(a).toContain(reason);
    });

    const down = 'edge-worker-3';
    const nodeText = (name: string, ready: boolean) =>
      describeNode({
        name,
        labels: [`kubernetes.io/hostname=${name}`, 'node-role.kubernetes.io/worker='],
        created: DAY * 40,
        conditions: ready
          ? [['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status']]
          : [['Ready', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.']],
      });
    const stranded = replica(app, '7f6d9c8b5', 'q7r1t', ns, { node: down, ready: false });
    const nodeWorld: ManyWorld = {
      pods: [stranded],
      nodes: [
        { name: down, ready: false, describe: nodeText(down, false) },
        { name: 'edge-worker-4', ready: true, describe: nodeText('edge-worker-4', true) },
      ],
      listing: 'fields',
    };

    it(`cilium_list_nodes and kind_node_inspect listed before get_nodes and kubectl_describe: the nodes are listed with get_nodes, ${down} described with kubectl_describe (resource_type node), the product's tools never called`, async () => {
      const tools = serve(nodeWorld, [
        'cilium_list_nodes',
        'kind_node_inspect',
        'get_nodes',
        'kubectl_describe',
        'get_pods',
        'get_pod_logs',
      ]);
      const r = await investigateAt(tools, `${app} in ${ns} is down`, NOW, ns);
      const calls = r.gateway.calls;
      expect(callsOf(calls, 'get_nodes').length).toBeGreaterThan(0);
      expect(callsOf(calls, 'cilium_list_nodes')).toHaveLength(0);
      expect(callsOf(calls, 'kind_node_inspect')).toHaveLength(0);
      expect(
        callsOf(calls, 'kubectl_describe').some(
          (c) => c.params['resource_type'] === 'node' && c.params['name'] === down,
        ),
      ).toBe(true);
      expect(answerOf(r.result)).toContain(`Node ${down} is NotReady`);
    });

    it("near miss: no cluster tool describes nodes (kind_node_inspect is the only one): the product's tool is used all the same", async () => {
      const tools = serve(nodeWorld, [
        'kind_node_inspect',
        'get_nodes',
        'describe_pod',
        'get_pods',
        'get_pod_logs',
      ]);
      const r = await investigateAt(tools, `${app} in ${ns} is down`, NOW, ns);
      expect(
        callsOf(r.gateway.calls, 'kind_node_inspect').map((c) => c.params['node_name']),
      ).toContain(down);
    });
  });

  // ---------------------------------------------------------------- 2. a search of charts
  describe('2. a search of charts is no finder of cluster objects', () => {
    const ns = 'pricing';
    const app = 'quote-engine';
    const crash = replica(app, '6c5b4a3d2', 'f8g7h', ns, CRASHING);
    const world: ManyWorld = {
      pods: [crash, replica('fx-feed', '4d3c2b1a9', 'p5o4i', ns)],
      listing: 'fields',
      previous: { [crash.name]: stamped([[4, 'FATAL: rates table "quotes_v2" does not exist']]) },
    };
    const ask = `${app} in ${ns} keeps crashing`;
    const mentions = (c: { params: Obj }) =>
      Object.values(c.params).some((v) => typeof v === 'string' && v.includes(app));

    it('helm_search_hub (keyword) and helm_search_repo (query): neither is called with the subject or its pod, the crash is answered', async () => {
      const tools = serve(world, [
        'helm_search_hub',
        'helm_search_repo',
        'get_pods',
        'describe_pod',
        'get_pod_logs',
      ]);
      const r = await investigateAt(tools, ask, NOW, ns);
      for (const t of ['helm_search_hub', 'helm_search_repo'])
        expect(callsOf(r.gateway.calls, t).filter(mentions)).toEqual([]);
      expect(answerOf(r.result)).toContain(`${app} is in CrashLoopBackOff`);
    });

    it("near miss: a search of the cluster's resources (search_resources, keyword) is called with the subject's name", async () => {
      const tools = serve(world, ['search_resources', 'get_pods', 'describe_pod', 'get_pod_logs']);
      const r = await investigateAt(tools, ask, NOW, ns);
      expect(
        callsOf(r.gateway.calls, 'search_resources').map((c) => c.params['keyword']),
      ).toContain(app);
    });
  });

  // ---------------------------------------------------------------- 3. int | None
  describe('3. a logs tool whose tail is {"anyOf": [{"type": "integer"}, {"type": "null"}]}', () => {
    const ns = 'geo';
    const app = 'route-planner';
    const crash = replica(app, '9a8b7c6d5', 'm1n2b', ns, CRASHING);
    const reason = 'FATAL: password authentication failed for user "planner_ro"';
    const world: ManyWorld = {
      pods: [crash, replica(app, '9a8b7c6d5', 'v3c4x', ns)],
      listing: 'fields',
      previous: { [crash.name]: stamped([[4, reason]]) },
    };
    const ask = `${app} in ${ns} keeps restarting`;

    it("every logs call gets tail as a number (a strict server rejects a string), and the previous log's reason is the answer", async () => {
      const tools = serve(world, ['get_pods', 'describe_pod', 'get_pod_logs']);
      const r = await investigateAt(tools, ask, NOW, ns);
      const logs = callsOf(r.gateway.calls, 'get_pod_logs');
      expect(logs.length).toBeGreaterThan(0);
      for (const c of logs) expect(typeof c.params['tail']).toBe('number');
      expect(
        logs.some((c) => c.params['pod_name'] === crash.name && c.params['previous'] === true),
      ).toBe(true);
      expect(answerOf(r.result)).toContain(reason);
    });

    it('near miss: a tail typed {"anyOf": [{"type": "string"}, {"type": "null"}]} gets a string', async () => {
      const tools = serve(world, ['get_pods', 'describe_pod', 'get_pod_logs'], {
        tail: STRING_OR_NONE,
      });
      const r = await investigateAt(tools, ask, NOW, ns);
      const logs = callsOf(r.gateway.calls, 'get_pod_logs');
      expect(logs.length).toBeGreaterThan(0);
      for (const c of logs) expect(typeof c.params['tail']).toBe('string');
      expect(answerOf(r.result)).toContain(reason);
    });
  });

  // ---------------------------------------------------------------- 4. a wrapped description
  describe('4. a description wrapped in a result dict ({"success": true, "description": "Name: ..."})', () => {
    const ns = 'checkout';
    const app = 'basket-api';
    const oom = replica(app, '5d9c7b8f6', 'q2w8e', ns, {
      restarts: 6,
      last: [
        'Terminated',
        'Reason:       OOMKilled',
        'Exit Code:    137',
        `Started:      ${new Date(NOW - 30 * 60_000).toUTCString()}`,
        `Finished:     ${new Date(NOW - 12 * 60_000).toUTCString()}`,
      ],
      limits: { memory: '512Mi' },
    });
    const world: ManyWorld = {
      pods: [oom, replica(app, '5d9c7b8f6', 'e4r5t', ns, { limits: { memory: '512Mi' } })],
      listing: 'fields',
    };

    it('describe_pod answers the kubectl description of a container last OOMKilled (exit 137) under a 512Mi limit: the answer says OOMKilled and 512Mi', async () => {
      const tools = serve(world, ['get_pods', 'describe_pod', 'get_pod_logs']);
      const r = await investigateAt(tools, `${app} in ${ns} keeps restarting`, NOW, ns);
      expect(described(r.gateway.calls)).toContain(oom.name);
      const a = answerOf(r.result);
      expect(a).toContain(`${app} is being OOMKilled`);
      expect(a).toContain('512Mi');
    });

    it('the same wrapper read alone: a pod whose container was last OOMKilled with exit code 137 and a memory limit of 512Mi', () => {
      const out = observe(
        { success: true, description: oom.describe },
        { tool: 'k8s:describe_pod', verb: 'describe', kind: 'pod', namespace: ns, now: NOW },
      );
      const pod = out.objects.find((o) => o.kind === 'pod' && o.name === oom.name);
      expect(pod?.containers[0]?.last).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
      expect(pod?.containers[0]?.limits['memory']).toBe('512Mi');
    });

    it('near miss: a plain string field that is no document (a one-line "message", a few lines of prose) is kept as text, not read as a description, a table or log lines', () => {
      const oneLine = `pod ${oom.name} in ${ns} described: 1 container, 6 restarts`;
      const prose =
        'The pod was described.\nIt has 1 container and restarted 6 times; see its events for more.';
      for (const message of [oneLine, prose]) {
        const out = observe(
          { success: true, message },
          {
            tool: 'k8s:describe_pod',
            verb: 'describe',
            kind: 'pod',
            namespace: ns,
            pod: oom.name,
            now: NOW,
          },
        );
        expect(out.objects).toEqual([]);
        expect(out.logs).toEqual([]);
        expect(out.texts).toEqual([message]);
      }
    });
  });

  // ---------------------------------------------------------------- 5. a listing of phases
  describe('5. a pods listing of {name, namespace, status: "Running"} only (a phase)', () => {
    const ns = 'fulfilment';
    const app = 'label-printer';
    const crash = replica(app, '8e7d6c5b4', 'a1s2d', ns, CRASHING);
    const twin = replica(app, '8e7d6c5b4', 'f3g4h', ns);
    // listed before label-printer's pods (by name): described after them all the same
    const others = [
      replica('carrier-gateway', '6f5e4d3c2', 'z9x8c', ns),
      replica('dispatch-planner', '7a6b5c4d3', 'v7b6n', ns),
      replica('inventory-sync', '3c2b1a0f9', 'm5k4j', ns),
    ];
    const reason =
      "Error: ENOENT: no such file or directory, open '/etc/label-printer/templates/dhl.zpl'";
    const world = (listing: ManyWorld['listing'], pods = [...others, crash, twin]): ManyWorld => ({
      pods,
      listing,
      previous: { [crash.name]: stamped([[4, reason]]) },
    });
    // a conditions tool first: what a pod's conditions say is no description of it
    const TOOLS = ['get_pods', 'get_pod_conditions', 'describe_pod', 'get_pod_logs'];

    it(`${app} named: every pod of ${ns} is described, ${app}'s first, and its container's CrashLoopBackOff with the logged reason is the answer`, async () => {
      const r = await investigateAt(
        serve(world('phase'), TOOLS),
        `${app} in ${ns} keeps crashing`,
        NOW,
        ns,
      );
      const d = described(r.gateway.calls);
      expect(d).toEqual(
        expect.arrayContaining([crash.name, twin.name, ...others.map((o) => o.name)]),
      );
      for (const o of others) {
        expect(d.indexOf(o.name)).toBeGreaterThan(d.indexOf(crash.name));
        expect(d.indexOf(o.name)).toBeGreaterThan(d.indexOf(twin.name));
      }
      const a = answerOf(r.result);
      expect(a).toContain(`${app} is in CrashLoopBackOff`);
      expect(a).toContain(reason);
    });

    it(`nothing named ("pods keep crashing in ${ns}"), the crash-looping pod listed among Running others: every pod is described and the crash found`, async () => {
      const r = await investigateAt(
        serve(world('phase'), TOOLS),
        `pods keep crashing in ${ns}`,
        NOW,
        ns,
      );
      expect(described(r.gateway.calls)).toEqual(
        expect.arrayContaining([crash.name, twin.name, ...others.map((o) => o.name)]),
      );
      const a = answerOf(r.result);
      expect(a).toContain(`${app} is in CrashLoopBackOff`);
      expect(a).toContain(reason);
    });

    for (const listing of ['table', 'fields', 'restarts'] as const)
      it(`near miss: a listing with ${listing === 'table' ? "kubectl's READY and RESTARTS columns" : listing === 'fields' ? 'fields ready and restarts' : 'the phase and restarts'}: not every pod is described`, async () => {
        const r = await investigateAt(
          serve(world(listing), TOOLS),
          `${app} in ${ns} keeps crashing`,
          NOW,
          ns,
        );
        const d = described(r.gateway.calls);
        for (const o of others) expect(d).not.toContain(o.name);
        expect(d.length).toBeLessThan(world(listing).pods.length);
      });
  });
});
