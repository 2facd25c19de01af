/**
 * The engine behaviours of c0a726c and b5de87b, one test per behaviour, over tool servers that
 * answer as real ones do (kubectl tables and describe text, Kubernetes API objects as JSON or
 * YAML, ingress-nginx error-log and access-log lines): a tool's output-format choice, the
 * ingress controller's logs read on a bad gateway and each error line attributed to the
 * workload its host routes to, the controller of the subject's own name inspected first, a
 * namespace-only events tool read once per inspected namespace, and two questions (a bare node
 * name in a placement question, a described pod without any resources section).
 * Also: a refused upstream is not read as a refused dependency on host "15:41" (nginx's own
 * time), and a bare EKS node name stays in the scope.
 */
import { stringify as stringifyYaml } from 'yaml';
import { upstreamWorkload } from './dependencies';
import {
  type FakeGateway,
  NOW,
  ago,
  conclusion,
  describePod,
  findingsOf,
  kubeEvent,
  kubeTime,
  podsTable,
  table,
  textTools,
  type FakeTool,
  type TextWorld,
  investigateAt,
  metaOf,
  str,
} from './spec-world';

// ------------------------------------------------------------------------------------------------
// helpers

const bool = { type: 'boolean' } as const;
type Obj = Record<string, unknown>;
const lower = (s: unknown) => String(s).toLowerCase();

const callsOf = (g: FakeGateway, tool: string) =>
  g.calls.filter((c) => c.tool === `k8s:${tool}`).map((c) => c.params);

/** "12m", "3h", "40d": kubectl's AGE column */
const age = (minutes: number) =>
  minutes >= 1440
    ? `${Math.floor(minutes / 1440)}d`
    : minutes >= 60
      ? `${Math.floor(minutes / 60)}h`
      : `${minutes}m`;

// a Pod object as the API returns it
interface PodArgs {
  name: string;
  ns: string;
  app: string;
  node?: string;
  image: string;
  phase?: string;
  restarts?: number;
  /** minutes ago the last container exited */
  lastExit?: number;
  waiting?: { reason: string; message?: string };
  owner?: { kind: string; name: string };
  createdMin?: number;
}

function podObject(p: PodArgs, now = NOW): Obj {
  const hash = p.name.split('-').slice(-2, -1)[0] ?? '';
  const owner = p.owner ?? { kind: 'ReplicaSet', name: `${p.app}-${hash}` };
  const at = (m: number) => new Date(now - m * 60_000).toISOString();
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.ns,
      labels: { app: p.app, ...(p.owner ? {} : { 'pod-template-hash': hash }) },
      creationTimestamp: at(p.createdMin ?? 60 * 24 * 3),
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, controller: true },
      ],
    },
    spec: {
      ...(p.node ? { nodeName: p.node } : {}),
      containers: [
        {
          name: p.app,
          image: p.image,
          ports: [{ containerPort: 8080, protocol: 'TCP' }],
          resources: { limits: { memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } },
        },
      ],
      serviceAccountName: 'default',
    },
    status: {
      phase: p.phase ?? 'Running',
      ...(p.node ? { podIP: '10.244.1.17', hostIP: '10.0.25.91' } : {}),
      conditions: [],
      containerStatuses: [
        {
          name: p.app,
          image: p.image,
          ready: !p.waiting && (p.phase ?? 'Running') === 'Running',
          restartCount: p.restarts ?? 0,
          state: p.waiting
            ? { waiting: p.waiting }
            : { running: { startedAt: at(p.lastExit ?? 60 * 24 * 3) } },
          lastState:
            p.lastExit !== undefined
              ? {
                  terminated: {
                    exitCode: 137,
                    reason: 'OOMKilled',
                    startedAt: at(p.lastExit + 40),
                    finishedAt: at(p.lastExit),
                  },
                }
              : {},
        },
      ],
    },
  };
}

// ------------------------------------------------------------------------------------------------
// a kubectl-wrapping server (Flux159/mcp-server-kubernetes): kubectl_get with an output choice

/** a pod's STATUS column, as kubectl prints it */
function podStatus(o: Obj): string {
  const st = (o['status'] ?? {}) as Obj;
  const cs = ((st['containerStatuses'] ?? []) as Obj[])[0] ?? {};
  const state = (cs['state'] ?? {}) as Record<string, Obj>;
  return String(state['waiting']?.['reason'] ?? st['phase'] ?? 'Unknown');
}

function minutesSince(iso: unknown, now: number) {
  return Math.max(0, Math.round((now - Date.parse(String(iso))) / 60_000));
}

/** `kubectl get pods -o wide`: RESTARTS says when the last restart was */
function podsWide(pods: Obj[], now: number, allNs: boolean): string {
  const rows = pods.map((o) => {
    const meta = metaOf(o);
    const st = (o['status'] ?? {}) as Obj;
    const cs = ((st['containerStatuses'] ?? []) as Obj[])[0] ?? {};
    const last = ((cs['lastState'] ?? {}) as Record<string, Obj>)['terminated'];
    const n = Number(cs['restartCount'] ?? 0);
    const node = String(((o['spec'] ?? {}) as Obj)['nodeName'] ?? '<none>');
    return [
      ...(allNs ? [String(meta['namespace'])] : []),
      String(meta['name']),
      `${cs['ready'] ? 1 : 0}/1`,
      podStatus(o),
      last ? `${n} (${age(minutesSince(last['finishedAt'], now))} ago)` : String(n),
      age(minutesSince(meta['creationTimestamp'], now)),
      String(st['podIP'] ?? '<none>'),
      node,
      '<none>',
      '<none>',
    ];
  });
  return table(
    [
      ...(allNs ? ['NAMESPACE'] : []),
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
    rows,
  );
}

/**
 * kubectl_get and kubectl_logs as the server declares them. Its default output (json) of a
 * listing is its own summary (name, namespace, kind, status, createdAt): no restarts, no node.
 */
function kubectlGetTools(objects: Obj[], now: number): FakeTool[] {
  const kindIs = (o: Obj, rt: string) => lower(o['kind']) === lower(rt).replace(/s$/, '');
  return [
    {
      name: 'kubectl_get',
      description:
        'Get or list Kubernetes resources by resource type, name, and optionally namespace. Use when the user needs to retrieve a specific resource by identifier.',
      annotations: { readOnlyHint: true },
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
        namespace: { type: 'string', description: 'Kubernetes namespace' },
        output: {
          type: 'string',
          enum: ['json', 'yaml', 'wide', 'name'],
          description: 'Output format',
        },
        allNamespaces: { ...bool, description: 'If true, list resources across all namespaces' },
        labelSelector: {
          ...str,
          description: "Filter resources by label selector (e.g. 'app=nginx')",
        },
      },
      required: ['resourceType'],
      handler: (p) => {
        const rt = String(p['resourceType']);
        const output = String(p['output'] ?? 'json');
        const ns = p['allNamespaces'] ? undefined : String(p['namespace'] ?? 'default');
        const items = objects.filter(
          (o) => kindIs(o, rt) && (!ns || metaOf(o)['namespace'] === ns),
        );
        if (p['name']) {
          const o = items.find((x) => metaOf(x)['name'] === p['name']);
          if (!o)
            return JSON.stringify({
              error: `Resource ${rt}/${String(p['name'])} not found`,
              status: 'not_found',
            });
          return output === 'yaml' ? stringifyYaml(o) : JSON.stringify(o, null, 2);
        }
        if (output === 'wide' && /^pods?$/.test(rt)) return podsWide(items, now, !ns);
        if (output === 'name')
          return items.map((o) => `${lower(o['kind'])}/${String(metaOf(o)['name'])}`).join('\n');
        if (output === 'yaml') return stringifyYaml({ apiVersion: 'v1', kind: 'List', items });
        return JSON.stringify(
          {
            items: items.map((o) => ({
              name: metaOf(o)['name'],
              namespace: metaOf(o)['namespace'],
              kind: o['kind'],
              status: lower(o['kind']) === 'pod' ? podStatus(o) : 'Active',
              createdAt: metaOf(o)['creationTimestamp'],
            })),
          },
          null,
          2,
        );
      },
    },
    {
      name: 'kubectl_logs',
      description:
        'Get logs from Kubernetes resources like pods, deployments, or jobs. Use when the user wants to review history or past activity.',
      annotations: { readOnlyHint: true },
      properties: {
        resourceType: {
          type: 'string',
          enum: ['pod', 'deployment', 'job', 'cronjob'],
          description: 'Type of resource to get logs from',
        },
        name: { ...str, description: 'Name of the resource' },
        namespace: { ...str, description: 'Kubernetes namespace' },
        tail: { type: 'number', description: 'Number of lines to show from end of logs' },
        previous: { ...bool, description: 'Include logs from previously terminated containers' },
      },
      required: ['resourceType', 'name', 'namespace'],
      handler: () => '',
    },
  ];
}

describe('1. a tool whose output parameter offers json | yaml | wide | name', () => {
  it('lists in the wide table and gets one object as YAML: "restarted in the last hour?" is answered', async () => {
    const now = Date.parse('2026-03-10T16:05:00Z');
    const objects = [
      podObject(
        {
          name: 'orders-6b7f9c8d4-k2j9x',
          ns: 'shop',
          app: 'orders',
          node: 'ip-10-0-25-91.eu-west-1.compute.internal',
          image: 'registry.example.com/shop/orders:3.1.0',
          restarts: 4,
          lastExit: 12,
        },
        now,
      ),
      podObject(
        {
          name: 'cart-5d4c3b2a1-p9q8r',
          ns: 'shop',
          app: 'cart',
          node: 'ip-10-0-31-7.eu-west-1.compute.internal',
          image: 'registry.example.com/shop/cart:1.8.2',
          restarts: 1,
          lastExit: 200,
        },
        now,
      ),
      podObject(
        {
          name: 'web-7f8e9d6c5-z1y2x',
          ns: 'shop',
          app: 'web',
          node: 'ip-10-0-31-7.eu-west-1.compute.internal',
          image: 'registry.example.com/shop/web:5.0.1',
        },
        now,
      ),
    ];
    const { text, gateway } = await investigateAt(
      kubectlGetTools(objects, now),
      'which pods in namespace shop restarted in the last hour?',
      now,
    );
    const gets = callsOf(gateway, 'kubectl_get');
    // a listing in the wide table, an object by name in its whole YAML
    expect(gets).toContainEqual(
      expect.objectContaining({ resourceType: 'pod', namespace: 'shop', output: 'wide' }),
    );
    expect(gets.filter((p) => !p['name']).every((p) => p['output'] === 'wide')).toBe(true);
    expect(gets).toContainEqual(
      expect.objectContaining({ name: 'orders-6b7f9c8d4-k2j9x', output: 'yaml' }),
    );
    // the restarts and the time of the last one, which the JSON summary does not show
    expect(text).toMatch(
      /1 pod restarted in namespace shop: orders-6b7f9c8d4-k2j9x \(4 restarts\)/,
    );
    expect(text).not.toContain('cart-5d4c3b2a1-p9q8r');
  });
});

// ------------------------------------------------------------------------------------------------
// a kubectl-text server: tables (with -A and -o wide), describe text, events, logs with a tail

type Row = Record<string, string> & { ns: string };

interface KubectlWorld {
  /** kind (singular) -> rows, each with every column (the wide ones too) */
  rows: Record<string, Row[]>;
  /** `<kind>/<namespace>/<name>` -> `kubectl describe` text */
  describe: Record<string, string>;
  /** namespace -> `kubectl get events` table; undefined: no namespace events tool */
  events?: Record<string, string>;
  /** pod -> `kubectl logs` output */
  logs: Record<string, string>;
}

const COLUMNS: Record<string, { base: string[]; wide: string[]; namespaced?: false }> = {
  pod: {
    base: ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
    wide: ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
  },
  deployment: {
    base: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
    wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
  },
  replicaset: {
    base: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
    wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
  },
  statefulset: { base: ['NAME', 'READY', 'AGE'], wide: ['CONTAINERS', 'IMAGES'] },
  service: {
    base: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
    wide: ['SELECTOR'],
  },
  ingress: { base: ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE'], wide: [] },
  namespace: { base: ['NAME', 'STATUS', 'AGE'], wide: [], namespaced: false },
};

const singular = (k: string) =>
  ({
    pods: 'pod',
    po: 'pod',
    rs: 'replicaset',
    sts: 'statefulset',
    svc: 'service',
    ing: 'ingress',
    ingresses: 'ingress',
    namespaces: 'namespace',
    ns: 'namespace',
  })[k] ?? k.replace(/([^s])s$/, '$1');

/** get_resources / describe_resource / get_events / pod_logs over a kubectl world */
function kubectlTools(w: KubectlWorld): FakeTool[] {
  const tools: FakeTool[] = [
    {
      name: 'get_resources',
      description: 'List Kubernetes resources of a kind (kubectl get).',
      properties: {
        kind: str,
        namespace: str,
        all_namespaces: { ...bool, description: 'List across all namespaces (-A)' },
        wide: { ...bool, description: 'Wide output (-o wide)' },
      },
      required: ['kind'],
      handler: (p) => {
        const kind = singular(lower(p['kind']));
        const cols = COLUMNS[kind];
        const all = !!p['all_namespaces'] || cols?.namespaced === false;
        const ns = String(p['namespace'] ?? 'default');
        const rows = (w.rows[kind] ?? []).filter((r) => all || r.ns === ns);
        if (!cols || !rows.length)
          return all ? 'No resources found' : `No resources found in ${ns} namespace.`;
        const header = [
          ...(all && cols.namespaced !== false ? ['NAMESPACE'] : []),
          ...cols.base,
          ...(p['wide'] ? cols.wide : []),
        ];
        return table(
          header,
          rows.map((r) => header.map((h) => (h === 'NAMESPACE' ? r.ns : (r[h] ?? '<none>')))),
        );
      },
    },
    {
      name: 'describe_resource',
      description: 'Describe one Kubernetes resource (kubectl describe).',
      properties: { kind: str, name: str, namespace: str },
      required: ['kind', 'name'],
      handler: (p) => {
        const kind = singular(lower(p['kind']));
        return (
          w.describe[`${kind}/${String(p['namespace'] ?? 'default')}/${String(p['name'])}`] ??
          `Error from server (NotFound): ${kind}s "${String(p['name'])}" not found`
        );
      },
    },
    {
      name: 'pod_logs',
      description: 'Logs of a pod container (kubectl logs).',
      properties: {
        pod_name: str,
        namespace: str,
        tail_lines: { type: 'integer', description: 'Lines from the end of the logs' },
        previous: bool,
      },
      required: ['pod_name'],
      handler: (p) => {
        if (p['previous']) return '';
        const lines = (w.logs[String(p['pod_name'])] ?? '').split('\n');
        const tail = Number(p['tail_lines'] ?? -1);
        return (tail >= 0 ? lines.slice(-tail) : lines).join('\n');
      },
    },
  ];
  if (w.events)
    tools.push({
      name: 'get_events',
      description: 'Kubernetes events of a namespace (kubectl get events).',
      properties: { namespace: str },
      required: ['namespace'],
      handler: (p) =>
        w.events![String(p['namespace'])] ??
        `No resources found in ${String(p['namespace'])} namespace.`,
    });
  return tools;
}

// ------------------------------------------------------------------------------------------------
// an online shop behind ingress-nginx: login (POST /api/session) routed to account-api

const T = Date.parse('2026-03-10T16:05:00Z');
const CONTROLLER = 'ingress-nginx-controller-5c9d7b8f6-h2k7q';
const NEW_IMAGE = 'registry.acme.io/shop/account-api:2.14.0';
const OLD_IMAGE = 'registry.acme.io/shop/account-api:2.13.2';

/** `kubectl logs --timestamps` prefix */
const stampAt = (hhmmss: string) => `2026-03-10T${hhmmss}.482913Z`;
/** nginx's error-log time */
const nginxAt = (hhmmss: string) => `2026/03/10 ${hhmmss}`;

/** an ingress-nginx access-log line (the default log-format-upstream) */
const access = (hhmmss: string, status: number, upstreamStatus: string, reqId: string) =>
  `${stampAt(hhmmss)} 10.0.3.27 - - [10/Mar/2026:${hhmmss} +0000] "POST /api/session HTTP/2.0" ${status} 150 "https://shop.acme.io/login" "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36" 61 0.004 [shop-account-api-80] [] 10.0.18.131:8080 0 0.004 ${upstreamStatus} ${reqId}`;

const served = (hhmmss: string, path: string, reqId: string) =>
  `${stampAt(hhmmss)} 10.0.3.41 - - [10/Mar/2026:${hhmmss} +0000] "GET ${path} HTTP/2.0" 200 5120 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0" 48 0.012 [shop-storefront-80] [] 10.0.19.44:3000 5120 0.012 200 ${reqId}`;

/** an nginx error-log line for a request to shop.acme.io */
const nginxError = (hhmmss: string, what: string, conn: number) =>
  `${stampAt(hhmmss)} ${nginxAt(hhmmss)} [error] 31#31: *${conn} ${what}, client: 10.0.3.27, server: shop.acme.io, request: "POST /api/session HTTP/2.0", upstream: "http://10.0.18.131:8080/api/session", host: "shop.acme.io", referrer: "https://shop.acme.io/login"`;

const controllerStartup = [
  `${stampAt('09:12:04')} -------------------------------------------------------------------------------`,
  `${stampAt('09:12:04')} NGINX Ingress controller`,
  `${stampAt('09:12:04')}   Release:       v1.10.1`,
  `${stampAt('09:12:04')}   Build:         4fb5aac1dd3669daa3a14d9de3e3cdb371b4c518`,
  `${stampAt('09:12:04')}   Repository:    https://github.com/kubernetes/ingress-nginx`,
  `${stampAt('09:12:04')}   nginx version: nginx/1.25.3`,
  `${stampAt('09:12:04')} -------------------------------------------------------------------------------`,
  `${stampAt('09:12:05')} I0310 09:12:05.170634       7 main.go:205] "Creating API client" host="https://172.20.0.1:443"`,
  `${stampAt('09:12:07')} I0310 09:12:07.388142       7 controller.go:210] "Backend successfully reloaded"`,
];

function shopWorld(errorLine: (hhmmss: string, conn: number) => string): KubectlWorld {
  const errors = ['15:41:07', '15:47:33', '15:52:41', '15:58:02', '16:03:19'];
  return {
    rows: {
      namespace: [
        { ns: '', NAME: 'default', STATUS: 'Active', AGE: '412d' },
        { ns: '', NAME: 'ingress-nginx', STATUS: 'Active', AGE: '412d' },
        { ns: '', NAME: 'kube-system', STATUS: 'Active', AGE: '412d' },
        { ns: '', NAME: 'shop', STATUS: 'Active', AGE: '380d' },
      ],
      pod: [
        {
          ns: 'ingress-nginx',
          NAME: CONTROLLER,
          READY: '1/1',
          STATUS: 'Running',
          RESTARTS: '0',
          AGE: '6h',
          IP: '10.0.12.9',
          NODE: 'ip-10-0-12-40.eu-west-1.compute.internal',
        },
        ...['x7k2p', 'm4n8r'].map((s, i): Row => ({
          ns: 'shop',
          NAME: `account-api-7b9f6c5d48-${s}`,
          READY: '1/1',
          STATUS: 'Running',
          RESTARTS: '0',
          AGE: '27m',
          IP: i ? '10.0.21.7' : '10.0.18.131',
          NODE: 'ip-10-0-25-91.eu-west-1.compute.internal',
        })),
        {
          ns: 'shop',
          NAME: 'storefront-6c8d7e9f5-q2w3e',
          READY: '1/1',
          STATUS: 'Running',
          RESTARTS: '0',
          AGE: '5d',
          IP: '10.0.19.44',
          NODE: 'ip-10-0-31-7.eu-west-1.compute.internal',
        },
        {
          ns: 'kube-system',
          NAME: 'coredns-5d78c9869d-8kq2w',
          READY: '1/1',
          STATUS: 'Running',
          RESTARTS: '0',
          AGE: '40d',
          IP: '10.0.12.3',
          NODE: 'ip-10-0-12-40.eu-west-1.compute.internal',
        },
      ],
      deployment: [
        {
          ns: 'ingress-nginx',
          NAME: 'ingress-nginx-controller',
          READY: '1/1',
          'UP-TO-DATE': '1',
          AVAILABLE: '1',
          AGE: '412d',
          CONTAINERS: 'controller',
          IMAGES: 'registry.k8s.io/ingress-nginx/controller:v1.10.1',
          SELECTOR: 'app.kubernetes.io/component=controller,app.kubernetes.io/name=ingress-nginx',
        },
        {
          ns: 'shop',
          NAME: 'account-api',
          READY: '2/2',
          'UP-TO-DATE': '2',
          AVAILABLE: '2',
          AGE: '380d',
          CONTAINERS: 'account-api',
          IMAGES: NEW_IMAGE,
          SELECTOR: 'app=account-api',
        },
        {
          ns: 'shop',
          NAME: 'storefront',
          READY: '1/1',
          'UP-TO-DATE': '1',
          AVAILABLE: '1',
          AGE: '380d',
          CONTAINERS: 'storefront',
          IMAGES: 'registry.acme.io/shop/storefront:8.3.0',
          SELECTOR: 'app=storefront',
        },
      ],
      replicaset: [
        {
          ns: 'shop',
          NAME: 'account-api-7b9f6c5d48',
          DESIRED: '2',
          CURRENT: '2',
          READY: '2',
          AGE: '27m',
          CONTAINERS: 'account-api',
          IMAGES: NEW_IMAGE,
          SELECTOR: 'app=account-api,pod-template-hash=7b9f6c5d48',
        },
        {
          ns: 'shop',
          NAME: 'account-api-5d8c7b9f64',
          DESIRED: '0',
          CURRENT: '0',
          READY: '0',
          AGE: '12d',
          CONTAINERS: 'account-api',
          IMAGES: OLD_IMAGE,
          SELECTOR: 'app=account-api,pod-template-hash=5d8c7b9f64',
        },
        {
          ns: 'shop',
          NAME: 'storefront-6c8d7e9f5',
          DESIRED: '1',
          CURRENT: '1',
          READY: '1',
          AGE: '5d',
          CONTAINERS: 'storefront',
          IMAGES: 'registry.acme.io/shop/storefront:8.3.0',
          SELECTOR: 'app=storefront,pod-template-hash=6c8d7e9f5',
        },
      ],
      service: [
        {
          ns: 'ingress-nginx',
          NAME: 'ingress-nginx-controller',
          TYPE: 'LoadBalancer',
          'CLUSTER-IP': '172.20.91.14',
          'EXTERNAL-IP': 'a1b2c3d4e5f6.elb.eu-west-1.amazonaws.com',
          'PORT(S)': '80:31080/TCP,443:31443/TCP',
          AGE: '412d',
          SELECTOR: 'app.kubernetes.io/component=controller,app.kubernetes.io/name=ingress-nginx',
        },
        {
          ns: 'shop',
          NAME: 'account-api',
          TYPE: 'ClusterIP',
          'CLUSTER-IP': '172.20.44.12',
          'EXTERNAL-IP': '<none>',
          'PORT(S)': '80/TCP',
          AGE: '380d',
          SELECTOR: 'app=account-api',
        },
        {
          ns: 'shop',
          NAME: 'storefront',
          TYPE: 'ClusterIP',
          'CLUSTER-IP': '172.20.44.80',
          'EXTERNAL-IP': '<none>',
          'PORT(S)': '80/TCP',
          AGE: '380d',
          SELECTOR: 'app=storefront',
        },
      ],
      ingress: [
        {
          ns: 'shop',
          NAME: 'shop',
          CLASS: 'nginx',
          HOSTS: 'shop.acme.io',
          ADDRESS: 'a1b2c3d4e5f6.elb.eu-west-1.amazonaws.com',
          PORTS: '80, 443',
          AGE: '380d',
        },
      ],
    },
    describe: {
      'ingress/shop/shop': [
        'Name:             shop',
        'Labels:           app.kubernetes.io/part-of=shop',
        'Namespace:        shop',
        'Address:          a1b2c3d4e5f6.elb.eu-west-1.amazonaws.com',
        'Ingress Class:    nginx',
        'Default backend:  <default>',
        'TLS:',
        '  shop-acme-io-tls terminates shop.acme.io',
        'Rules:',
        '  Host          Path  Backends',
        '  ----          ----  --------',
        '  shop.acme.io',
        '                /api   account-api:80 (10.0.18.131:8080,10.0.21.7:8080)',
        '                /      storefront:80 (10.0.19.44:3000)',
        'Annotations:      cert-manager.io/cluster-issuer: letsencrypt',
        '                  nginx.ingress.kubernetes.io/proxy-body-size: 8m',
        'Events:           <none>',
        '',
      ].join('\n'),
    },
    events: {},
    logs: {
      [CONTROLLER]: [
        ...controllerStartup,
        served('15:39:58', '/', 'b2f4a6c8d0e1f3a5b7c9d1e3f5a7b9c1'),
        ...errors.flatMap((t, i) => [
          errorLine(t, 84217 + 97 * i),
          access(t, 502, '502', `5f1c${String(i)}e7a9b3d2c4e6f8a0b1c3d5e7f9a2`),
          served(t, '/static/app.js', `c3e5a7b9d1f2a4c6e8b0d2f4a6c8e0b${String(i)}`),
        ]),
        // a busy storefront after the last error: 250 requests in 40 seconds
        ...Array.from({ length: 250 }, (_, i) =>
          served(
            `16:03:${String(20 + Math.floor((i * 39) / 250)).padStart(2, '0')}`,
            i % 3 ? '/static/app.js' : '/',
            `${String(i).padStart(4, '0')}e5a7b9d1f2a4c6e8b0d2f4a6c8e0`,
          ),
        ),
      ].join('\n'),
    },
  };
}

describe('2. customers see a bad gateway: the ingress controller says why', () => {
  it('"upstream sent too big header" is attributed through the Ingress of shop.acme.io to account-api', async () => {
    const w = shopWorld((t, conn) =>
      nginxError(
        t,
        'upstream sent too big header while reading response header from upstream',
        conn,
      ),
    );
    const { text, result, gateway } = await investigateAt(
      kubectlTools(w),
      "customers can't log in — bad gateway since 15:40",
      T,
    );
    // the controller's own logs, a long tail (it logs every request)
    expect(callsOf(gateway, 'pod_logs')).toContainEqual(
      expect.objectContaining({
        pod_name: CONTROLLER,
        namespace: 'ingress-nginx',
        tail_lines: 500,
      }),
    );
    // the ReplicaSets in the wide table (their images)
    expect(callsOf(gateway, 'get_resources')).toContainEqual(
      expect.objectContaining({ kind: 'replicaset', namespace: 'shop', wide: true }),
    );
    expect(result.summary).toMatch(/proxy buffer/);
    expect(result.summary).toContain('account-api');
    expect(text).toContain(
      'upstream sent too big header while reading response header from upstream',
    );
    expect(text).toMatch(/proxy-buffer-size/);
    expect(text).toContain(`It started after the rollout of ${NEW_IMAGE}`);
    expect(text).not.toMatch(/storefront/);
  });
});

describe('3. the ingress cannot connect to the pods behind it', () => {
  const refused = (t: string, conn: number) =>
    nginxError(t, 'connect() failed (111: Connection refused) while connecting to upstream', conn);

  it('"connect() failed (111: Connection refused)" is ingress_upstream_unavailable on account-api, as the access log\'s [shop-account-api-80] says', async () => {
    const w = shopWorld(refused);
    const { model, findings } = findingsOf([
      {
        output: w.logs[CONTROLLER],
        ctx: { pod: CONTROLLER, namespace: 'ingress-nginx', verb: 'logs' },
      },
      {
        output: table(
          [...COLUMNS['service']!.base, 'SELECTOR'],
          [
            [
              'account-api',
              'ClusterIP',
              '172.20.44.12',
              '<none>',
              '80/TCP',
              '380d',
              'app=account-api',
            ],
          ],
        ),
        ctx: { kind: 'service', namespace: 'shop', verb: 'list' },
      },
      {
        output: table(COLUMNS['deployment']!.base, [['account-api', '2/2', '2', '2', '380d']]),
        ctx: { kind: 'deployment', namespace: 'shop', verb: 'list' },
      },
      {
        output: w.describe['ingress/shop/shop'],
        ctx: { kind: 'ingress', namespace: 'shop', verb: 'describe' },
      },
    ]);
    const unavailable = findings.filter((f) => f.entry.id === 'ingress_upstream_unavailable');
    expect(unavailable).toHaveLength(5);
    expect(new Set(unavailable.map((f) => f.workload))).toEqual(new Set(['account-api']));
    // the access log's upstream name (namespace-service-port) is the same Service
    const accessLine = w.logs[CONTROLLER]!.split('\n').find((l) =>
      l.includes('[shop-account-api-80]'),
    )!;
    expect(upstreamWorkload(model, accessLine)?.name).toBe('account-api');
    // the whole engine: the conclusion is on account-api, not on the controller that logged it
    const { result } = await investigateAt(
      kubectlTools(w),
      'login on shop.acme.io answers 502 since 15:40',
      T,
    );
    expect(result.summary).toMatch(/on account-api \(namespace shop\)/);
    expect(result.affected_systems).toEqual(['account-api']);
    expect(result.summary).not.toMatch(/ingress-nginx-controller/);
  });

  // Known miss (reported): the same nginx line also matches dependency_refused, which outranks
  // ingress_upstream_unavailable and reads nginx's own time ("2026/03/10 15:41:07") as the
  // host:port it could not reach ("cannot connect to 15:41").
  it('concludes ingress_upstream_unavailable, without a "15:41" host', async () => {
    const { result } = await investigateAt(
      kubectlTools(shopWorld(refused)),
      "customers can't log in — bad gateway since 15:40",
      T,
    );
    expect(result.summary).toMatch(/ingress cannot reach the service behind it on account-api/i);
    expect(conclusion(result)).not.toMatch(/cannot connect to 15:41/);
  });
});

// ------------------------------------------------------------------------------------------------

describe('4. a StatefulSet short of replicas beside a Deployment named like it', () => {
  it('with subject kafka the StatefulSet kafka is described and its FailedCreate "exceeded quota" found', async () => {
    const quota =
      'create Pod kafka-3 in StatefulSet kafka failed error: pods "kafka-3" is forbidden: exceeded quota: data-quota, requested: limits.memory=8Gi, used: limits.memory=28Gi, limited: limits.memory=32Gi';
    const pod = (name: string, ageStr: string, ip: string): Row => ({
      ns: 'data',
      NAME: name,
      READY: '1/1',
      STATUS: 'Running',
      RESTARTS: '0',
      AGE: ageStr,
      IP: ip,
      NODE: 'ip-10-0-25-91.eu-west-1.compute.internal',
    });
    const svc = (name: string, ip: string, ports: string, ageStr: string): Row => ({
      ns: 'data',
      NAME: name,
      TYPE: 'ClusterIP',
      'CLUSTER-IP': ip,
      'EXTERNAL-IP': '<none>',
      'PORT(S)': ports,
      AGE: ageStr,
      SELECTOR: `app=${name.replace(/-headless$/, '')}`,
    });
    const w: KubectlWorld = {
      rows: {
        pod: [
          pod('kafka-0', '120d', '10.0.22.10'),
          pod('kafka-1', '120d', '10.0.22.11'),
          pod('kafka-2', '120d', '10.0.22.12'),
          pod('kafka-ui-6d8f7c9b5-w2x4z', '2d', '10.0.22.40'),
          pod('kafka-ui-6d8f7c9b5-r5t6y', '2d', '10.0.22.41'),
          pod('kafka-ui-6d8f7c9b5-h8j9k', '2d', '10.0.22.42'),
        ],
        deployment: [
          {
            ns: 'data',
            NAME: 'kafka-ui',
            READY: '3/3',
            'UP-TO-DATE': '3',
            AVAILABLE: '3',
            AGE: '2d',
          },
        ],
        statefulset: [{ ns: 'data', NAME: 'kafka', READY: '3/4', AGE: '120d' }],
        service: [
          svc('kafka', '172.20.60.5', '9092/TCP', '40d'),
          svc('kafka-headless', 'None', '9092/TCP,9093/TCP', '40d'),
          svc('kafka-ui', '172.20.60.9', '8080/TCP', '2d'),
        ],
      },
      describe: {
        'statefulset/data/kafka': [
          'Name:               kafka',
          'Namespace:          data',
          `CreationTimestamp:  ${kubeTime(120 * 1440)}`,
          'Selector:           app=kafka',
          'Labels:             app=kafka',
          'Annotations:        <none>',
          'Replicas:           4 desired | 3 total',
          'Update Strategy:    RollingUpdate',
          '  Partition:        0',
          'Pods Status:        3 Running / 0 Waiting / 0 Succeeded / 0 Failed',
          'Pod Template:',
          '  Labels:  app=kafka',
          '  Containers:',
          '   kafka:',
          '    Image:      docker.io/bitnami/kafka:3.7.0',
          '    Port:       9092/TCP',
          '    Host Port:  0/TCP',
          '    Limits:',
          '      memory:  8Gi',
          '    Requests:',
          '      cpu:        1',
          '      memory:     8Gi',
          '    Environment:  <none>',
          '    Mounts:',
          '      /bitnami/kafka from data (rw)',
          '  Volumes:  <none>',
          'Volume Claims:',
          '  Name:          data',
          '  StorageClass:  gp3',
          '  Labels:        <none>',
          '  Annotations:   <none>',
          '  Capacity:      100Gi',
          '  Access Modes:  [ReadWriteOnce]',
          'Events:',
          table(
            ['Type', 'Reason', 'Age', 'From', 'Message'],
            [
              ['----', '------', '----', '----', '-------'],
              ['Warning', 'FailedCreate', '2m (x19 over 37m)', 'statefulset-controller', quota],
            ],
            '  ',
          ),
          '',
        ].join('\n'),
      },
      // no namespace events tool: what a controller logged is in its description
      logs: {},
    };
    const { text, gateway } = await investigateAt(
      kubectlTools(w),
      'kafka has only 3 brokers up instead of 4',
      NOW,
      'data',
    );
    expect(callsOf(gateway, 'describe_resource')).toContainEqual(
      expect.objectContaining({ kind: 'statefulset', name: 'kafka', namespace: 'data' }),
    );
    expect(text).toMatch(/ResourceQuota "data-quota" is exhausted/);
    expect(text).toContain('exceeded quota: data-quota');
  });
});

// ------------------------------------------------------------------------------------------------
// kubernetes-mcp-server-like tools: JSON objects; events_list takes only a namespace

function mcpServerTools(objects: Obj[], events: Obj[]): FakeTool[] {
  // cluster-scoped objects (nodes) whatever the namespace
  const inNs = (o: Obj, ns: unknown) =>
    !ns || metaOf(o)['namespace'] === undefined || metaOf(o)['namespace'] === ns;
  const list = (kind: string, ns: unknown) => ({
    apiVersion: 'v1',
    kind: `${kind}List`,
    items: objects.filter((o) => lower(o['kind']) === lower(kind) && inNs(o, ns)),
  });
  return [
    {
      name: 'pods_list',
      description: 'List all the Kubernetes pods in the current cluster from all namespaces',
      properties: { labelSelector: str, namespace: str },
      handler: (p) => list('Pod', p['namespace']),
    },
    {
      name: 'pods_get',
      description:
        'Get a Kubernetes Pod in the current or provided namespace with the provided name',
      properties: { name: str, namespace: str },
      required: ['name'],
      handler: (p) =>
        objects.find(
          (o) => o['kind'] === 'Pod' && metaOf(o)['name'] === p['name'] && inNs(o, p['namespace']),
        ) ?? `failed to get pod ${String(p['name'])}: not found`,
    },
    {
      name: 'pods_log',
      description: 'Get the logs of a Kubernetes Pod in the current or provided namespace',
      properties: { name: str, namespace: str, container: str, previous: bool },
      required: ['name'],
      handler: () => '',
    },
    {
      name: 'events_list',
      description: 'List all the Kubernetes events in the current cluster from all namespaces',
      properties: { namespace: str },
      handler: (p) => ({
        apiVersion: 'v1',
        kind: 'EventList',
        items: events.filter((e) => inNs(e, p['namespace'])),
      }),
    },
    {
      name: 'resources_list',
      description:
        'List Kubernetes resources and objects in the current cluster by providing their apiVersion and kind',
      properties: { apiVersion: str, kind: str, namespace: str },
      required: ['apiVersion', 'kind'],
      handler: (p) => list(String(p['kind']), p['namespace']),
    },
    {
      name: 'resources_get',
      description:
        'Get a Kubernetes resource in the current cluster by providing its apiVersion, kind, optionally the namespace, and its name',
      properties: { apiVersion: str, kind: str, namespace: str, name: str },
      required: ['apiVersion', 'kind', 'name'],
      handler: (p) =>
        objects.find(
          (o) =>
            lower(o['kind']) === lower(p['kind']) &&
            metaOf(o)['name'] === p['name'] &&
            inNs(o, p['namespace']),
        ) ?? `failed to get resource: not found`,
    },
  ];
}

describe('5. an events tool that takes only a namespace', () => {
  it("the inspected objects' namespace events are read, once per namespace", async () => {
    const creating = { reason: 'ContainerCreating' };
    const objects = [
      ...['q7w8e', 'r4t5y'].map((s) =>
        podObject({
          name: `payments-api-7c9d8b6f5-${s}`,
          ns: 'payments',
          app: 'payments-api',
          node: 'ip-10-0-25-91.eu-west-1.compute.internal',
          image: 'registry.example.com/payments-api:4.2.0',
          phase: 'Pending',
          waiting: creating,
          createdMin: 25,
        }),
      ),
      podObject({
        name: 'ledger-sync-5b6c7d8e9-k1l2m',
        ns: 'ledger',
        app: 'ledger-sync',
        node: 'ip-10-0-31-7.eu-west-1.compute.internal',
        image: 'registry.example.com/ledger-sync:1.3.0',
        phase: 'Pending',
        waiting: creating,
        createdMin: 25,
      }),
      podObject({
        name: 'web-7f8e9d6c5-z1y2x',
        ns: 'shop',
        app: 'web',
        node: 'ip-10-0-31-7.eu-west-1.compute.internal',
        image: 'registry.example.com/shop/web:5.0.1',
      }),
    ];
    const mount = (ns: string, pod: string, cm: string) =>
      kubeEvent(
        ns,
        { kind: 'Pod', name: pod },
        'Warning',
        'FailedMount',
        `MountVolume.SetUp failed for volume "config" : configmap "${cm}" not found`,
        24,
        1,
        14,
      );
    const events = [
      mount('payments', 'payments-api-7c9d8b6f5-q7w8e', 'payments-api-config'),
      mount('payments', 'payments-api-7c9d8b6f5-r4t5y', 'payments-api-config'),
      mount('ledger', 'ledger-sync-5b6c7d8e9-k1l2m', 'ledger-sync-config'),
    ];
    const { text, gateway } = await investigateAt(
      mcpServerTools(objects, events),
      'pods are stuck since the deploy this morning',
      NOW,
    );
    const byNs = callsOf(gateway, 'events_list').map((p) => String(p['namespace']));
    expect(byNs.filter((n) => n === 'payments')).toHaveLength(1);
    expect(byNs.filter((n) => n === 'ledger')).toHaveLength(1);
    expect(byNs).not.toContain('shop');
    expect(text).toContain('configmap "payments-api-config" not found');
  });
});

// ------------------------------------------------------------------------------------------------

describe('6. questions', () => {
  const node = (name: string): Obj => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name }, creationTimestamp: ago(9000) },
    spec: {},
    status: {
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      allocatable: { cpu: '3920m', memory: '15Gi', pods: '58' },
    },
  });

  const brokers = (n1: string, n2: string): Obj[] => {
    const broker = (name: string, n: string) =>
      podObject({
        name,
        ns: 'data',
        app: 'kafka',
        node: n,
        image: 'docker.io/bitnami/kafka:3.7.0',
        owner: { kind: 'StatefulSet', name: 'kafka' },
      });
    return [
      node(n1),
      node(n2),
      broker('kafka-0', n2),
      broker('kafka-1', n2),
      broker('kafka-2', n1),
    ];
  };
  const drain = 'which node is kafka-2 running on? want to drain ip-10-0-25-91';

  it('"which node is kafka-2 running on? want to drain ip-10-0-25-91": also what runs on that bare-named node', async () => {
    const { text } = await investigateAt(
      mcpServerTools(brokers('ip-10-0-25-91', 'ip-10-0-31-7'), []),
      drain,
      NOW,
      'data',
    );
    expect(text).toContain('kafka-2 runs on node ip-10-0-25-91');
    expect(text).toContain('node ip-10-0-25-91 runs kafka-2');
    expect(text).not.toContain('kafka-0');
  });

  // Known miss (reported): with EKS node names (ip-10-0-25-91.eu-west-1.compute.internal) the
  // bare name matches no object, so the scope drops it before the question is answered.
  it('the same with EKS node names: the bare name is the node it starts', async () => {
    const n1 = 'ip-10-0-25-91.eu-west-1.compute.internal';
    const { text } = await investigateAt(
      mcpServerTools(brokers(n1, 'ip-10-0-31-7.eu-west-1.compute.internal'), []),
      drain,
      NOW,
      'data',
    );
    expect(text).toContain(`node ${n1} runs kafka-2`);
  });

  it('"which pods in namespace batch have no memory limit set?" counts a Running pod described without any resources section', async () => {
    const pods: [string, Record<string, string> | undefined][] = [
      ['report-gen-5f6d7c8b9-a1a1a', { cpu: '500m', memory: '512Mi' }],
      ['thumbnailer-7c8d9e6f5-c3c3c', { cpu: '1' }],
      // no Limits, no Requests: describe prints no resources at all
      ['mailer-6b5a4c3d2-e5e5e', undefined],
    ];
    const app = (n: string) => n.split('-').slice(0, -2).join('-');
    const world: TextWorld = {
      tables: {
        pod: podsTable(pods.map(([n]) => [n, '1/1', 'Running', '0', '2h', 'worker-1'])),
      },
      describe: Object.fromEntries(
        pods.map(([n, limits]) => [
          `pod/${n}`,
          describePod({
            name: n,
            namespace: 'batch',
            node: 'worker-1',
            labels: [`app=${app(n)}`],
            status: 'Running',
            container: {
              name: app(n),
              image: `registry.example.com/${app(n)}:1.0.0`,
              state: ['Running', `Started:      ${kubeTime(120)}`],
              ready: true,
              ...(limits ? { limits: { ...limits }, requests: { ...limits } } : {}),
            },
            conditions: [
              ['Initialized', 'True'],
              ['Ready', 'True'],
              ['ContainersReady', 'True'],
              ['PodScheduled', 'True'],
            ],
          }),
        ]),
      ),
    };
    expect(world.describe['pod/mailer-6b5a4c3d2-e5e5e']).not.toMatch(/Limits:|Requests:/);
    const { text } = await investigateAt(
      textTools(world),
      'which pods in namespace batch have no memory limit set?',
      NOW,
    );
    expect(text).toMatch(
      /2 pods in namespace batch have a container without a memory limit \(of 3 read\)/,
    );
    expect(text).toContain('mailer-6b5a4c3d2-e5e5e (mailer)');
    expect(text).toContain('thumbnailer-7c8d9e6f5-c3c3c');
    expect(text).not.toContain('report-gen-5f6d7c8b9-a1a1a');
  });
});
