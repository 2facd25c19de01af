/**
 * The engine behaviour of 3b9c2e7 and 5b82c4c, each with a near miss, on real-shaped API objects
 * and outputs: a refused dependency whose ConfigMap, mounted by subPath, now names another host of
 * the same role (the running pods keep the old file); a feature word ("emails") that names the
 * workloads usually serving it when nothing is named or failing; and a tool server in the shape of
 * strowk/mcp-k8s-go (its tools require a kubeconfig context a contexts tool names, its listings
 * name objects only, one content item per object, its events come one per item without times):
 * the context passed, pods read whole by name, standalone events read as events, a node asked for
 * without a namespace, and an undated event on a pod running and ready now taken as history.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  metaOf,
  namespaceObj,
  podObj,
  stamped,
  str,
  type ApiWorld,
  type Box,
  type FakeTool,
} from './spec-world';

type Obj = Record<string, unknown>;
type Calls = { tool: string; params: Obj }[];

/** minutes in a day */
const DAY = 60 * 24;

/** a pod of a Deployment's ReplicaSet `<app>-<hash>` */
const replicaPod = (
  app: string,
  hash: string,
  suffix: string,
  ns: string,
  boxes: Box[],
  more: Partial<Parameters<typeof podObj>[0]> = {},
): Obj =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    boxes,
    ...more,
  });

const nameOf = (o: Obj) => String(metaOf(o)['name']);

/** a container in CrashLoopBackOff after its last run exited 1 */
const crashing = (name: string, image: string, restarts = 8): Box => ({
  name,
  image,
  ready: false,
  restarts,
  state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting ${name}` } },
  lastState: {
    terminated: { reason: 'Error', exitCode: 1, startedAt: ago(4), finishedAt: ago(3) },
  },
});

// ------------------------------------------------------------------------------------------------
// A tool server in the shape of strowk/mcp-k8s-go (names and values of these specs' own)

/** "context" said to be a Kubernetes one, required by the logs and events tools */
const CONTEXT_REQUIRED = { type: 'string', description: 'The Kubernetes context to run against' };
const CONTEXT_OPTIONAL = {
  type: 'string',
  description: 'The Kubernetes context to run against; the current one when left empty',
};
const CLUSTER_SCOPED = new Set(['node', 'namespace', 'persistentvolume', 'storageclass']);

/**
 * What the tool proxy hands the engine for a tool that answers one text content item per object:
 * one item is parsed as JSON, several stay content items.
 */
const perItem = (xs: unknown[]): unknown =>
  xs.length === 1
    ? JSON.parse(JSON.stringify(xs[0]))
    : { content: xs.map((x) => ({ type: 'text', text: JSON.stringify(x) })) };

interface ContextWorld extends ApiWorld {
  /** the kubeconfig's contexts; no contexts tool when absent */
  contexts?: { name: string; current: boolean }[];
  /** events as the server gives them: {message, reason, type, involvedObject: {kind, name}} */
  itemEvents?: Obj[];
}

/**
 * The server's tools: a listing of `{name, namespace}` per object (by namespace, then name), a get of the whole object (a
 * cluster-scoped object is found only without a namespace, a namespaced one only in its own),
 * logs and events that require a context, and a contexts tool answering one item per context.
 * A context that is not the kubeconfig's fails the call, as a required one left out does.
 */
function contextTools(w: ContextWorld): FakeTool[] {
  const known = new Set((w.contexts ?? []).map((c) => c.name));
  const checkContext = (p: Obj, required: boolean) => {
    const c = p['context'];
    if (c === undefined) {
      if (required) throw new Error('invalid input: missing required property');
      return;
    }
    if (!known.has(String(c))) throw new Error(`context ${JSON.stringify(c)} does not exist`);
  };
  const kindIs = (o: Obj, k: unknown) =>
    String(o['kind']).toLowerCase() === String(k).toLowerCase();
  const tools: FakeTool[] = [
    {
      name: 'list-kube-resources',
      description: 'List Kubernetes resources of one kind, one item per object',
      properties: { context: CONTEXT_OPTIONAL, namespace: str, kind: str },
      required: ['kind'],
      handler: (p) => {
        checkContext(p, false);
        return perItem(
          w.objects
            .filter(
              (o) =>
                kindIs(o, p['kind']) &&
                (!p['namespace'] || metaOf(o)['namespace'] === p['namespace']),
            )
            .map((o) => ({
              name: nameOf(o),
              ...(metaOf(o)['namespace'] ? { namespace: metaOf(o)['namespace'] } : {}),
            }))
            // in key order, as the API server lists: namespace, then name
            .sort((a, b) =>
              `${a.namespace ?? ''}/${a.name}`.localeCompare(`${b.namespace ?? ''}/${b.name}`),
            ),
        );
      },
    },
    {
      name: 'get-kube-resource',
      description: 'Get one Kubernetes resource by kind and name, as its JSON object',
      properties: { context: CONTEXT_OPTIONAL, namespace: str, kind: str, name: str },
      required: ['kind', 'name'],
      handler: (p) => {
        checkContext(p, false);
        const clusterScoped = CLUSTER_SCOPED.has(String(p['kind']).toLowerCase());
        const o = w.objects.find(
          (x) =>
            kindIs(x, p['kind']) &&
            nameOf(x) === p['name'] &&
            (clusterScoped ? !p['namespace'] : metaOf(x)['namespace'] === p['namespace']),
        );
        if (!o)
          throw new Error(
            `resource ${String(p['kind'])}/${String(p['namespace'] ?? '')}/${String(p['name'])} not found`,
          );
        return o;
      },
    },
    {
      name: 'get-kube-pod-logs',
      description: 'Logs of a Kubernetes pod in a namespace',
      properties: {
        context: CONTEXT_REQUIRED,
        namespace: str,
        pod: str,
        previousContainer: { type: 'boolean' },
      },
      required: ['context', 'namespace', 'pod'],
      handler: (p) => {
        checkContext(p, true);
        return { text: (p['previousContainer'] ? w.previous : w.logs)?.[String(p['pod'])] ?? '' };
      },
    },
    {
      name: 'list-kube-events',
      description: 'List Kubernetes events of a namespace',
      properties: { context: CONTEXT_REQUIRED, namespace: str },
      required: ['context', 'namespace'],
      handler: (p) => {
        checkContext(p, true);
        return perItem(w.itemEvents ?? []);
      },
    },
  ];
  if (w.contexts)
    tools.unshift({
      name: 'list-kube-contexts',
      description: 'List the contexts of the kubeconfig',
      properties: {},
      handler: () => perItem(w.contexts!),
    });
  return tools;
}

const CONTEXTS = [
  { name: 'staging', current: false },
  { name: 'prod', current: true },
];
const callsOf = (calls: Calls, tool: string) => calls.filter((c) => c.tool === `k8s:${tool}`);
/** the gets of one kind */
const getsOf = (calls: Calls, kind: string) =>
  callsOf(calls, 'get-kube-resource').filter((c) => c.params['kind'] === kind);

describe('round20: stale subPath files, feature words, a server of contexts and names (3b9c2e7, 5b82c4c)', () => {
  // ---------------------------------------------------------------- 1. a stale subPath file
  describe('1. a refused dependency whose ConfigMap, mounted by subPath, now names another host of the same role', () => {
    const ns = 'billing';
    const app = 'invoice-mailer';
    const image = 'registry.example.net/billing/invoice-mailer:2.4.0';
    const cmName = 'invoice-mailer-config';
    const oldHost = 'relay-blue.postal.example.net';
    const newHost = 'relay-green.postal.example.net';
    const mailer = replicaPod(app, '6d8f7b9c4d', 'r2kzp', ns, [{ name: app, image }], {
      created: DAY * 6,
    });
    /** the pod with its ConfigMap volume mounted by subPath, or as a directory */
    const mounted = (subPath: boolean): Obj => {
      const p = JSON.parse(JSON.stringify(mailer)) as Obj;
      const spec = p['spec'] as { containers: Obj[]; volumes?: Obj[] };
      spec.containers[0]!['volumeMounts'] = [
        subPath
          ? { name: 'mailer-config', mountPath: '/etc/mailer/mailer.yaml', subPath: 'mailer.yaml' }
          : { name: 'mailer-config', mountPath: '/etc/mailer' },
      ];
      spec.volumes = [{ name: 'mailer-config', configMap: { name: cmName } }];
      return p;
    };
    const configMap = (yaml: string): Obj => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: cmName, namespace: ns, creationTimestamp: ago(DAY * 90) },
      data: { 'mailer.yaml': yaml },
    });
    const smtpAt = (host: string) =>
      `smtp:\n  host: ${host}\n  port: 2525\n  from: invoices@orchard-billing.example\n`;
    const refused = `{"level":"error","msg":"sending invoice mail failed","invoice":"INV-20419","smtp_host":"${oldHost}:2525","error":"dial tcp 10.60.8.14:2525: connect: connection refused"}`;
    const world = (subPath: boolean, yaml: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 1, 1),
        mounted(subPath),
        configMap(yaml),
      ],
      logs: {
        [nameOf(mailer)]: stamped([
          [41, refused],
          [22, refused],
          [4, refused],
        ]),
      },
    });
    const ask = `${app} in ${ns} cannot send invoices since this morning`;
    const STALE = /never receives its ConfigMap's updates|by subPath/;

    it(`"dial tcp ...: connection refused" logged with "smtp_host":"${oldHost}:2525", the subPath-mounted ConfigMap now names ${newHost}: the ConfigMap is read, the answer says the subPath file never receives updates and names the ConfigMap and both hosts, the fix restarts`, async () => {
      const r = await investigateAt(apiTools(world(true, smtpAt(newHost))), ask, NOW, ns);
      expect(
        r.gateway.calls.some(
          (c) =>
            c.tool === 'k8s:resources_get' &&
            String(c.params['kind']).toLowerCase() === 'configmap' &&
            c.params['name'] === cmName,
        ),
      ).toBe(true);
      const a = answerOf(r.result);
      expect(a).toContain(`${app} cannot connect to`);
      expect(a).toContain(
        `It still uses ${oldHost}, but its ConfigMap ${cmName} now names ${newHost}`,
      );
      expect(a).toContain(
        `the pods mount ${cmName} by subPath (/etc/mailer/mailer.yaml from mailer-config)`,
      );
      expect(a).toContain("a file mounted by subPath never receives its ConfigMap's updates");
      expect(r.text).toContain(`Restart ${app} (\`kubectl rollout restart\`)`);
      expect(r.text).toContain(`mount ${cmName} as a directory instead of by subPath`);
    });

    it('near miss: the same ConfigMap mounted as a directory (its updates reach the pod): the refusal, no subPath sentence', async () => {
      const r = await investigateAt(apiTools(world(false, smtpAt(newHost))), ask, NOW, ns);
      expect(answerOf(r.result)).toContain(`${app} cannot connect to`);
      expect(r.text).not.toMatch(STALE);
      expect(r.text).not.toContain(newHost);
    });

    it(`near miss: the subPath-mounted ConfigMap still names ${oldHost}, the host the pod uses: the refusal, no stale file`, async () => {
      const r = await investigateAt(apiTools(world(true, smtpAt(oldHost))), ask, NOW, ns);
      expect(answerOf(r.result)).toContain(`${app} cannot connect to`);
      expect(r.text).not.toMatch(STALE);
      expect(r.text).not.toMatch(/now names/);
    });

    it('near miss: the subPath-mounted ConfigMap names no relay at all (only its sender and a metrics endpoint): no other host of the role, no stale file', async () => {
      const yaml =
        'smtp:\n  port: 2525\n  from: invoices@orchard-billing.example\nmetrics:\n  push: statsd.monitoring.example.net\n';
      const r = await investigateAt(apiTools(world(true, yaml)), ask, NOW, ns);
      expect(answerOf(r.result)).toContain(`${app} cannot connect to`);
      expect(r.text).not.toMatch(STALE);
      expect(r.text).not.toMatch(/now names/);
    });
  });

  // ---------------------------------------------------------------- 2. a feature word
  describe('2. no workload named, nothing failing: a feature word names the workloads usually serving it', () => {
    const ns = 'storefront';
    const smtpRefused =
      '{"level":"error","msg":"smtp send failed","template":"order-confirmation","error":"dial tcp 10.60.9.21:587: connect: connection refused"}';
    /** five healthy workloads started two days ago, the mail sender `sender` older (nine days) */
    const world = (sender: string, crash = false): ApiWorld => {
      const mail = replicaPod(sender, '7c9d5f6b8', 'wq4tn', ns, [{ name: sender, image: 'i' }], {
        created: DAY * 9,
      });
      const cart = replicaPod(
        'cart-service',
        '59d8c7b6f4',
        'x7v2n',
        ns,
        [crash ? crashing('cart-service', 'i', 9) : { name: 'cart-service', image: 'i' }],
        { created: DAY * 2 },
      );
      const healthy = (app: string, hash: string, suffix: string) =>
        replicaPod(app, hash, suffix, ns, [{ name: app, image: 'i' }], { created: DAY * 2 });
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('web-frontend', ns, ['i'], 2, 2),
          deploymentObj('catalog-api', ns, ['i'], 1, 1),
          deploymentObj('search-api', ns, ['i'], 1, 1),
          deploymentObj('cart-service', ns, ['i'], 1, crash ? 0 : 1),
          deploymentObj(sender, ns, ['i'], 1, 1),
          healthy('web-frontend', '5f7c8d9b6', 'a1b2c'),
          healthy('web-frontend', '5f7c8d9b6', 'd3e4f'),
          healthy('catalog-api', '6b8d9c7f5', 'k8m2p'),
          healthy('search-api', '84f6d7c9b', 'n5q8r'),
          cart,
          mail,
        ],
        logs: {
          [nameOf(mail)]: stamped([
            [30, smtpRefused],
            [12, smtpRefused],
            [2, smtpRefused],
          ]),
        },
        previous: crash
          ? {
              [nameOf(cart)]: stamped([[4, 'panic: redis: dial tcp 10.60.4.4:6379: i/o timeout']]),
            }
          : {},
      };
    };
    const logsRead = (calls: Calls) =>
      calls.filter((c) => c.tool === 'k8s:pods_log').map((c) => String(c.params['name']));

    it('"emails are not arriving" with notification-dispatch among six workloads, all running: its log is read (before any other) and its refused SMTP connection is the answer', async () => {
      const r = await investigateAt(
        apiTools(world('notification-dispatch')),
        'emails are not arriving',
        NOW,
        ns,
      );
      expect(logsRead(r.gateway.calls)[0]).toBe('notification-dispatch-7c9d5f6b8-wq4tn');
      const a = answerOf(r.result);
      expect(a).toContain('notification-dispatch cannot connect to 10.60.9.21:587');
      expect(a).toContain('connection refused');
    });

    it('"customers get no emails after checkout" with receipts-mailer: the mailer is inspected and its error found', async () => {
      const r = await investigateAt(
        apiTools(world('receipts-mailer')),
        'customers get no emails after checkout',
        NOW,
        ns,
      );
      expect(logsRead(r.gateway.calls)).toContain('receipts-mailer-7c9d5f6b8-wq4tn');
      expect(answerOf(r.result)).toContain('receipts-mailer cannot connect to 10.60.9.21:587');
    });

    it('near miss: the same request while cart-service is in CrashLoopBackOff: the crashing pod is answered, not the mailer', async () => {
      const r = await investigateAt(
        apiTools(world('notification-dispatch', true)),
        'emails are not arriving',
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain('cart-service');
      expect(a).toContain('10.60.4.4:6379');
      expect(a).not.toContain('notification-dispatch');
      expect(logsRead(r.gateway.calls)).not.toContain('notification-dispatch-7c9d5f6b8-wq4tn');
    });
  });

  // ---------------------------------------------------------------- 3. a required kube context
  describe('3. tools that require a "context" said to be the Kubernetes one, and a contexts tool of one item per context', () => {
    const ns = 'ledger';
    const app = 'ledger-api';
    const crash = replicaPod(app, '7b9f6c5d8', 'h4x9q', ns, [crashing(app, 'img', 7)], {
      created: DAY,
      node: 'kube-worker-7',
    });
    const fine = replicaPod(app, '7b9f6c5d8', 'p2m7z', ns, [{ name: app, image: 'img' }], {
      created: DAY,
      node: 'kube-worker-7',
    });
    const world = (contexts: boolean): ContextWorld => ({
      objects: [namespaceObj(ns), deploymentObj(app, ns, ['img'], 2, 1), crash, fine],
      logs: {},
      previous: {
        [nameOf(crash)]: stamped([
          [4, 'FATAL: password authentication failed for user "ledger_rw"'],
        ]),
      },
      itemEvents: [
        {
          message: `Back-off restarting failed container ${app} in pod ${nameOf(crash)}`,
          reason: 'BackOff',
          type: 'Warning',
          involvedObject: { kind: 'Pod', name: nameOf(crash) },
        },
      ],
      ...(contexts ? { contexts: CONTEXTS } : {}),
    });
    const ask = `${app} in ${ns} keeps restarting`;
    const REQUIRING = ['get-kube-pod-logs', 'list-kube-events'];

    it('contexts staging and prod (current): the contexts are read first, the logs and events tools get context "prod", the crash is read from the previous log', async () => {
      const r = await investigateAt(contextTools(world(true)), ask, NOW, ns);
      const calls = r.gateway.calls;
      expect(calls[0]?.tool).toBe('k8s:list-kube-contexts');
      expect(callsOf(calls, 'list-kube-contexts')).toHaveLength(1);
      for (const t of REQUIRING) {
        expect(callsOf(calls, t).length).toBeGreaterThan(0);
        for (const c of callsOf(calls, t)) expect(c.params['context']).toBe('prod');
      }
      expect(
        callsOf(calls, 'get-kube-pod-logs').some(
          (c) => c.params['pod'] === nameOf(crash) && c.params['previousContainer'] === true,
        ),
      ).toBe(true);
      expect(calls.some((c) => c.params['context'] === 'staging')).toBe(false);
      expect(answerOf(r.result)).toContain('password authentication failed for user "ledger_rw"');
    });

    it('near miss: no contexts tool: the tools that require a context are never called, nothing throws, the answer is what the pods say', async () => {
      const r = await investigateAt(contextTools(world(false)), ask, NOW, ns);
      for (const t of REQUIRING) expect(callsOf(r.gateway.calls, t)).toHaveLength(0);
      expect(r.gateway.calls.some((c) => c.params['context'] !== undefined)).toBe(false);
      const a = answerOf(r.result);
      expect(a).toContain(`${app} is in CrashLoopBackOff`);
      expect(a).not.toContain('password authentication failed');
    });
  });

  // ---------------------------------------------------------------- 4. names-only listings
  describe('4. a pod listing of one {name, namespace} item per pod, and events one per item', () => {
    const ns = 'payments';
    const app = 'payout-worker';
    const oom = replicaPod(
      app,
      '5c6d7e8f9',
      't6r2w',
      ns,
      [
        {
          name: app,
          image: 'img',
          restarts: 6,
          resources: { limits: { memory: '256Mi' } },
          lastState: {
            terminated: {
              reason: 'OOMKilled',
              exitCode: 137,
              startedAt: ago(20),
              finishedAt: ago(9),
            },
          },
        },
      ],
      { created: DAY * 2 },
    );
    const fine = replicaPod(app, '5c6d7e8f9', 'b8n4k', ns, [{ name: app, image: 'img' }]);
    // listed before payout-worker (by name): the subject's pods are read first all the same
    const other = replicaPod('fx-rates', '6f7a8b9c0', 'q1w2e', ns, [
      { name: 'fx-rates', image: 'img' },
    ]);
    const w: ContextWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('fx-rates', ns, ['img'], 1, 1),
        deploymentObj(app, ns, ['img'], 2, 2),
        other,
        oom,
        fine,
      ],
    };
    it("payout-worker named, its listing only names: every pod of the namespace is read whole by name, payout-worker's first, and its OOMKilled container is the answer", async () => {
      const r = await investigateAt(contextTools(w), `${app} in ${ns} keeps restarting`, NOW, ns);
      const podGets = getsOf(r.gateway.calls, 'pod').map((c) => c.params['name']);
      expect(podGets).toEqual(expect.arrayContaining([nameOf(oom), nameOf(fine), nameOf(other)]));
      expect(podGets.indexOf(nameOf(other))).toBeGreaterThan(podGets.indexOf(nameOf(oom)));
      expect(podGets.indexOf(nameOf(other))).toBeGreaterThan(podGets.indexOf(nameOf(fine)));
      const a = answerOf(r.result);
      expect(a).toContain(`${app} is being OOMKilled`);
      expect(a).toContain('its limit of 256Mi');
    });

    it('no workload named ("pods keep dying in payments"), nothing failing in a names-only listing of seven pods (payout-worker\'s listed last): every pod is read whole and the OOMKilled container is found', async () => {
      const more = ['audit-trail', 'card-tokenizer', 'chargeback-intake', 'ledger-export'];
      const crowded: ContextWorld = {
        objects: [
          ...w.objects,
          ...more.flatMap((m) => [
            deploymentObj(m, ns, ['img'], 1, 1),
            replicaPod(m, '7d8e9f0a1', 'c4d5e', ns, [{ name: m, image: 'img' }]),
          ]),
        ],
      };
      const r = await investigateAt(contextTools(crowded), `pods keep dying in ${ns}`, NOW, ns);
      const podGets = getsOf(r.gateway.calls, 'pod').map((c) => c.params['name']);
      expect(podGets).toEqual(
        expect.arrayContaining([
          nameOf(oom),
          nameOf(fine),
          nameOf(other),
          ...more.map((m) => `${m}-7d8e9f0a1-c4d5e`),
        ]),
      );
      expect(answerOf(r.result)).toContain(`${app} is being OOMKilled`);
    });

    it('events given one per item ({message, reason, type, involvedObject: {kind, name}}): a FailedMount of a missing Secret on a pod stuck creating is read as its event', async () => {
      const ns = 'reports';
      const app = 'report-builder';
      const pod = replicaPod(
        app,
        '84c7d9f6b5',
        'zx3cv',
        ns,
        [
          {
            name: app,
            image: 'img',
            started: false,
            state: { waiting: { reason: 'ContainerCreating' } },
          },
        ],
        { phase: 'Pending', created: 25 },
      );
      const w: ContextWorld = {
        objects: [namespaceObj(ns), deploymentObj(app, ns, ['img'], 1, 0), pod],
        contexts: [{ name: 'prod', current: true }],
        itemEvents: [
          {
            message:
              'MountVolume.SetUp failed for volume "signing-keys" : secret "report-signing-keys" not found',
            reason: 'FailedMount',
            type: 'Warning',
            involvedObject: { kind: 'Pod', name: nameOf(pod) },
          },
          {
            message: `Scaled up replica set ${app}-84c7d9f6b5 to 1`,
            reason: 'ScalingReplicaSet',
            type: 'Normal',
            involvedObject: { kind: 'Deployment', name: app },
          },
        ],
      };
      const r = await investigateAt(contextTools(w), `${app} in ${ns} never starts`, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain(`the Secret "report-signing-keys" it references does not exist`);
      expect(a).toContain(
        'MountVolume.SetUp failed for volume "signing-keys" : secret "report-signing-keys" not found',
      );
    });
  });

  // ---------------------------------------------------------------- 5. cluster-scoped kinds
  describe('5. a node (cluster-scoped) is asked for without a namespace', () => {
    const ns = 'ingest';
    const node = 'kube-worker-12';
    const nodeObj = (name: string, ready: 'True' | 'Unknown'): Obj => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: { 'kubernetes.io/hostname': name },
        creationTimestamp: ago(DAY * 80),
      },
      spec: {},
      status: {
        conditions: [
          ready === 'True'
            ? {
                type: 'Ready',
                status: 'True',
                reason: 'KubeletReady',
                message: 'kubelet is posting ready status',
                lastHeartbeatTime: ago(1),
                lastTransitionTime: ago(DAY * 80),
              }
            : {
                type: 'Ready',
                status: 'Unknown',
                reason: 'NodeStatusUnknown',
                message: 'Kubelet stopped posting node status.',
                lastHeartbeatTime: ago(25),
                lastTransitionTime: ago(21),
              },
        ],
      },
    });
    const pod = replicaPod(
      'event-collector',
      '5b6c7d8e9',
      'k2l3m',
      ns,
      [{ name: 'event-collector', image: 'img', ready: false }],
      { node },
    );
    const w: ContextWorld = {
      objects: [
        namespaceObj(ns),
        nodeObj(node, 'Unknown'),
        nodeObj('kube-worker-11', 'True'),
        deploymentObj('event-collector', ns, ['img'], 1, 0),
        pod,
      ],
      contexts: [{ name: 'prod', current: true }],
    };

    it(`event-collector's pod on ${node}, whose Ready is Unknown: the node is got by name with no namespace argument (the pod with its own), and its NotReady is the answer`, async () => {
      const r = await investigateAt(contextTools(w), `event-collector in ${ns} is down`, NOW, ns);
      const nodeGets = getsOf(r.gateway.calls, 'node');
      expect(nodeGets.map((c) => c.params['name'])).toContain(node);
      for (const c of nodeGets) expect(c.params).not.toHaveProperty('namespace');
      const podGets = getsOf(r.gateway.calls, 'pod');
      expect(podGets.length).toBeGreaterThan(0);
      for (const c of podGets) expect(c.params['namespace']).toBe(ns);
      const a = answerOf(r.result);
      expect(a).toContain(`Node ${node} is NotReady`);
      expect(a).toContain('Kubelet stopped posting node status.');
    });

    it('the node named in the request: the same get without a namespace', async () => {
      const r = await investigateAt(contextTools(w), `node ${node} went NotReady`, NOW, ns);
      const nodeGets = getsOf(r.gateway.calls, 'node');
      expect(nodeGets.map((c) => c.params['name'])).toContain(node);
      for (const c of nodeGets) expect(c.params).not.toHaveProperty('namespace');
      expect(answerOf(r.result)).toContain(`Node ${node} is NotReady`);
    });
  });

  // ---------------------------------------------------------------- 6. an undated event
  describe('6. a BackOff event with no time at all on a pod running and ready now is history', () => {
    const ns = 'warehouse';
    const app = 'inventory-sync';
    const podName = `${app}-6a7b8c9d0-m3n4b`;
    const recovered: Box = {
      name: app,
      image: 'img',
      restarts: 3,
      lastState: { terminated: { reason: 'Error', exitCode: 1, finishedAt: ago(DAY * 2) } },
    };
    const world = (box: Box, at?: number): ContextWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, ['img'], 1, box.state ? 0 : 1),
        replicaPod(app, '6a7b8c9d0', 'm3n4b', ns, [box], { created: DAY * 4 }),
      ],
      contexts: [{ name: 'prod', current: true }],
      itemEvents: [
        {
          message: `Back-off restarting failed container ${app} in pod ${podName}_${ns}(1f0e2d3c-7a8b)`,
          reason: 'BackOff',
          type: 'Warning',
          involvedObject: { kind: 'Pod', name: podName },
          ...(at === undefined
            ? {}
            : { firstTimestamp: ago(at + 6), lastTimestamp: ago(at), count: 4 }),
        },
        {
          message: 'Container image "img" already present on machine',
          reason: 'Pulled',
          type: 'Normal',
          involvedObject: { kind: 'Pod', name: podName },
        },
      ],
    });
    const ask = `is ${app} in ${ns} healthy?`;

    it('the undated BackOff, the pod Running and 1/1 ready (its restarts two days old): "No problem found"', async () => {
      const r = await investigateAt(contextTools(world(recovered)), ask, NOW, ns);
      expect(r.result.summary).toMatch(/^No problem found/);
      expect(r.text).not.toMatch(/CrashLoopBackOff|Back-off restarting/);
    });

    it('near miss: the same BackOff dated 4 minutes ago on the same ready pod: still reported as a crash loop, the event its evidence (as before)', async () => {
      const r = await investigateAt(contextTools(world(recovered, 4)), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(r.result.summary).not.toMatch(/No problem found/);
      expect(a).toContain(`${app} is in CrashLoopBackOff`);
      expect(a).toContain(`Back-off restarting failed container ${app} in pod ${podName}`);
    });

    it('near miss: the undated BackOff on a pod that is not ready (CrashLoopBackOff now): a problem', async () => {
      const r = await investigateAt(contextTools(world(crashing(app, 'img', 4))), ask, NOW, ns);
      expect(r.result.summary).not.toMatch(/No problem found/);
      expect(answerOf(r.result)).toContain(`${app} is in CrashLoopBackOff`);
    });
  });
});
