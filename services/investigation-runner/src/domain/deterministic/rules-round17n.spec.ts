/**
 * The engine rules of round17n, one test per rule, each with a world where the rule must not
 * fire, on outputs shaped like real ones (Kubernetes API objects and events, containerd's pull
 * error, the scheduler's NodeVolumeLimits message, the kubelet's admission rejection, promtail's
 * and Loki's logfmt lines): a container that exits 0 and is restarted, a Linux image on a Windows
 * node, pods Pending at the node volume attach limit, pods rejected OutOfcpu after a kubelet
 * restart, and logs missing because Loki refuses the log agent's pushes (429).
 */
import { varsFor } from './finding-vars';
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  findingsOf,
  ids,
  investigateAt,
  jsonOutputs,
  kubeEvent,
  namespaceObj,
  podObj,
  warningEvent,
  type ApiWorld,
  type Box,
} from './spec-world';
type Obj = Record<string, unknown>;

const WORKER = 'ip-10-44-7-19.eu-west-1.compute.internal';

/** a Node object with its labels and allocatable */
const nodeObj = (name: string, labels: Record<string, string> = {}, cpu = '3920m'): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name,
    labels: {
      'kubernetes.io/os': 'linux',
      'kubernetes.io/hostname': name,
      'node.kubernetes.io/instance-type': 'r6i.large',
      ...labels,
    },
    creationTimestamp: ago(60 * 24 * 30),
  },
  spec: {},
  status: {
    allocatable: { cpu, memory: '15266404Ki', pods: '58' },
    conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
  },
});

/** a pod of a Deployment's ReplicaSet `<app>-<hash>` */
const rsPod = (
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
    node: WORKER,
    boxes,
    ...more,
  });

/** a ReplicaSet of a Deployment whose container runs `command` */
const replicaSet = (
  app: string,
  hash: string,
  ns: string,
  image: string,
  command: string[] | undefined,
  createdMin: number,
  revision: number,
  replicas: number,
): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name: `${app}-${hash}`,
    namespace: ns,
    labels: { app, 'pod-template-hash': hash },
    annotations: { 'deployment.kubernetes.io/revision': String(revision) },
    creationTimestamp: ago(createdMin),
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app, controller: true }],
  },
  spec: {
    replicas,
    template: {
      metadata: { labels: { app, 'pod-template-hash': hash } },
      spec: { containers: [{ name: app, image, ...(command ? { command } : {}) }] },
    },
  },
  status: { replicas },
});

/** a pod object with its spec changed by `edit` (a copy) */
const edited = (pod: Obj, edit: (spec: Obj) => void): Obj => {
  const copy = JSON.parse(JSON.stringify(pod)) as Obj;
  edit(copy['spec'] as Obj);
  return copy;
};

describe('round17n rules', () => {
  it('a Deployment container in CrashLoopBackOff whose last state is Completed, exit code 0: its command and the rollout that changed it; last state Error exit 1, or Completed while running: not said', () => {
    const ns = 'notifications';
    const image = 'ghcr.io/acme/digest-worker:4.1.0';
    const script = '/app/bin/backfill-digests.sh';
    const last = (reason: string, exitCode: number, waiting: boolean): Box => ({
      name: 'digest-worker',
      image,
      ready: !waiting,
      restarts: 11,
      ...(waiting
        ? { state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } } }
        : {}),
      lastState: { terminated: { reason, exitCode, startedAt: ago(6), finishedAt: ago(5) } },
    });
    const world = (box: Box, events: Obj[] = []) => ({
      events,
      objects: [
        deploymentObj('digest-worker', ns, [image], 1, 0),
        replicaSet('digest-worker', '7c9d5f8b6d', ns, image, [script], 38, 9, 1),
        replicaSet(
          'digest-worker',
          '5b8f6c7d9a',
          ns,
          'ghcr.io/acme/digest-worker:4.0.3',
          ['node', 'dist/worker.js'],
          60 * 24 * 16,
          8,
          0,
        ),
        edited(
          rsPod('digest-worker', '7c9d5f8b6d', 'x2k9p', ns, [box], { created: 38 }),
          (spec) => {
            (spec['containers'] as Obj[])[0]!['command'] = [script];
          },
        ),
      ],
    });

    const { model, findings } = findingsOf(jsonOutputs(world(last('Completed', 0, true)), ns));
    const f = findings.find((x) => x.entry.id === 'container_exits_completed');
    expect(f).toBeDefined();
    const vars = varsFor(f!, model, 'digest-worker', NOW);
    expect(vars['command']).toContain(script);
    expect(vars['command_change']).toContain('node dist/worker.js');
    expect(vars['command_change']).toContain('revision 9');

    const crashed = findingsOf(jsonOutputs(world(last('Error', 1, true)), ns));
    expect(ids(crashed.findings)).not.toContain('container_exits_completed');
    // a node reboot leaves last state Completed on a container that runs again: no loop
    const rebooted = findingsOf(jsonOutputs(world(last('Completed', 0, false)), ns));
    expect(ids(rebooted.findings)).not.toContain('container_exits_completed');
    // stopped by its failing liveness probe, the process exits 0 as well: not a one-shot command
    const probed = findingsOf(
      jsonOutputs(
        world(last('Completed', 0, true), [
          warningEvent(
            ns,
            { kind: 'Pod', name: 'digest-worker-7c9d5f8b6d-x2k9p' },
            'Unhealthy',
            'Liveness probe failed: Get "http://10.52.3.18:8080/healthz": dial tcp 10.52.3.18:8080: connect: connection refused',
            30,
            2,
            33,
          ),
        ]),
        ns,
      ),
    );
    expect(ids(probed.findings)).not.toContain('container_exits_completed');
  });

  it('"image operating system "linux" cannot be used on this platform": the Windows nodes the pods landed on and no kubernetes.io/os nodeSelector; "manifest unknown": not said', () => {
    const ns = 'fulfilment';
    const image = 'registry.acme.io/fulfilment/label-renderer:3.6.1';
    const win = [
      'ip-10-0-14-201.eu-west-1.compute.internal',
      'ip-10-0-27-66.eu-west-1.compute.internal',
    ];
    const world = (message: string) => ({
      objects: [
        ...win.map((n) =>
          nodeObj(n, { 'kubernetes.io/os': 'windows', 'beta.kubernetes.io/os': 'windows' }),
        ),
        nodeObj(WORKER),
        deploymentObj('label-renderer', ns, [image], 3, 1),
        ...win.map((node, i) =>
          podObj({
            name: `label-renderer-6d8f7b9c5d-${['q4w7e', 'r8t2y'][i]}`,
            ns,
            labels: { app: 'label-renderer', 'pod-template-hash': '6d8f7b9c5d' },
            owner: { kind: 'ReplicaSet', name: 'label-renderer-6d8f7b9c5d' },
            node,
            phase: 'Pending',
            scheduled: true,
            created: 50,
            boxes: [
              {
                name: 'renderer',
                image,
                state: {
                  waiting: {
                    reason: 'ImagePullBackOff',
                    message: `Back-off pulling image "${image}"`,
                  },
                },
              },
            ],
          }),
        ),
      ],
      events: win.map((_, i) =>
        warningEvent(
          ns,
          { kind: 'Pod', name: `label-renderer-6d8f7b9c5d-${['q4w7e', 'r8t2y'][i]}` },
          'Failed',
          `Failed to pull image "${image}": rpc error: code = Unknown desc = failed to pull and unpack image "${image}": ${message}`,
          49,
          2,
          12,
        ),
      ),
    });

    const { model, findings } = findingsOf(
      jsonOutputs(world('image operating system "linux" cannot be used on this platform'), ns),
    );
    const f = findings.find((x) => x.entry.id === 'image_os_mismatch');
    expect(f).toBeDefined();
    const vars = varsFor(f!, model, 'label-renderer', NOW);
    expect(vars['image_os']).toBe('linux');
    expect(vars['os_nodes']).toContain('windows');
    for (const n of win) expect(vars['os_nodes']).toContain(n);

    const missing = findingsOf(
      jsonOutputs(world(`failed to resolve reference "${image}": not found: manifest unknown`), ns),
    );
    expect(ids(missing.findings)).not.toContain('image_os_mismatch');
  });

  it('"node(s) exceed max volume count" for two of seven StatefulSet pods: the attach limit and those pods named; "Insufficient cpu": not said', () => {
    const ns = 'streaming';
    const image = 'confluentinc/cp-kafka:7.7.1';
    const world = (message: string) => ({
      objects: [
        nodeObj(WORKER),
        ...Array.from({ length: 7 }, (_, i) =>
          podObj({
            name: `kafka-${i}`,
            ns,
            labels: { app: 'kafka', 'statefulset.kubernetes.io/pod-name': `kafka-${i}` },
            owner: { kind: 'StatefulSet', name: 'kafka' },
            node: WORKER,
            created: i >= 5 ? 34 : 60 * 24 * 12,
            ...(i >= 5
              ? {
                  phase: 'Pending' as const,
                  conditions: [
                    { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message },
                  ],
                }
              : {}),
            boxes: [{ name: 'kafka', image }],
          }),
        ),
      ],
      events: [5, 6].map((i) =>
        warningEvent(
          ns,
          { kind: 'Pod', name: `kafka-${i}` },
          'FailedScheduling',
          message,
          34,
          1,
          9,
          'default-scheduler',
        ),
      ),
    });

    const limit =
      '0/5 nodes are available: 5 node(s) exceed max volume count. preemption: 0/5 nodes are available: 5 No preemption victims found for incoming pod.';
    const { model, findings } = findingsOf(jsonOutputs(world(limit), ns));
    const f = findings.find((x) => x.entry.id === 'sched_volume_limit');
    expect(f).toBeDefined();
    const vars = varsFor(f!, model, 'kafka', NOW);
    expect(vars['pending_pods']).toContain('kafka-5, kafka-6');
    expect(vars['pending_pods']).toContain('other 5 of its 7');

    const cpu = findingsOf(
      jsonOutputs(
        world('0/5 nodes are available: 5 Insufficient cpu. preemption: 0/5 nodes are available.'),
        ns,
      ),
    );
    expect(ids(cpu.findings)).not.toContain('sched_volume_limit');
  });

  it('a pod Failed with OutOfcpu ("Pod was rejected: Node didn\'t have enough resource: cpu") after "Starting kubelet.": the kubelet admission, the node and its restart; only a Pending pod (Insufficient cpu): not said', () => {
    const ns = 'pricing';
    const image = 'registry.acme.io/pricing/api:3.2.0';
    const rejected =
      "Pod was rejected: Node didn't have enough resource: cpu, requested: 1000, used: 2850, capacity: 2920";
    const failed = rsPod(
      'pricing-api',
      '6f7d8c9b5d',
      'g8bqr',
      ns,
      [{ name: 'pricing-api', image, state: { terminated: { reason: 'Error', exitCode: 1 } } }],
      { phase: 'Failed', reason: 'OutOfcpu', message: rejected, created: 60 * 24 * 3 },
    );
    const world = (rejection: boolean) => ({
      objects: [
        nodeObj(WORKER, {}, '2920m'),
        deploymentObj('pricing-api', ns, [image], 3, 2),
        ...(rejection ? [failed] : []),
        rsPod('pricing-api', '6f7d8c9b5d', 'tgzpn', ns, [{ name: 'pricing-api', image }], {
          phase: 'Pending',
          created: 36,
        }),
      ],
      events: [
        ...(rejection
          ? [
              kubeEvent(
                'default',
                { kind: 'Node', name: WORKER },
                'Normal',
                'Starting',
                'Starting kubelet.',
                36,
              ),
              kubeEvent(
                ns,
                { kind: 'Pod', name: 'pricing-api-6f7d8c9b5d-g8bqr' },
                'Warning',
                'OutOfcpu',
                rejected.replace('Pod was rejected: ', ''),
                36,
              ),
            ]
          : []),
        warningEvent(
          ns,
          { kind: 'Pod', name: 'pricing-api-6f7d8c9b5d-tgzpn' },
          'FailedScheduling',
          '0/3 nodes are available: 3 Insufficient cpu.',
          36,
          1,
          20,
          'default-scheduler',
        ),
      ],
    });

    const { model, findings } = findingsOf(jsonOutputs(world(true), ns));
    const f = findings.find((x) => x.entry.id === 'kubelet_admission_rejected');
    expect(f).toBeDefined();
    const vars = varsFor(f!, model, 'pricing-api', NOW);
    expect(vars['res']).toBe('cpu');
    expect(vars['node']).toBe(WORKER);
    expect(vars['kubelet_restart']).toContain('Starting kubelet.');
    expect(vars['node_allocatable']).toContain('2920m');

    const pending = findingsOf(jsonOutputs(world(false), ns));
    expect(ids(pending.findings)).not.toContain('kubelet_admission_rejected');
  });

  it('logs missing in Grafana while promtail logs 429 "Ingestion rate limit exceeded" from Loki: promtail, the 429 and the limit; promtail shipping fine: no rate limit said', async () => {
    const ns = 'shop';
    const image = 'registry.acme.io/shop/checkout:2.4.0';
    const agentImage = 'grafana/promtail:3.2.1';
    const refused = (i: number) =>
      `level=warn ts=2026-03-10T11:${String(30 + i).padStart(2, '0')}:00.100Z caller=client.go:419 component=client host=loki.logging.svc.cluster.local:3100 msg="error sending batch, will retry" status=429 tenant= error="server returned HTTP status 429 Too Many Requests (429): Ingestion rate limit exceeded for user fake (limit: 4194304 bytes/sec) while attempting to ingest '1800' lines totaling '1048000' bytes, reduce log volume or contact your Loki administrator to see if the limit can be increased"`;
    const started =
      'level=info ts=2026-03-01T12:41:00.530Z caller=main.go:173 msg="Starting Promtail" version="(version=3.2.1, branch=HEAD)"';
    const world = (limited: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('logging'),
        nodeObj(WORKER),
        deploymentObj('checkout', ns, [image], 1, 1),
        rsPod('checkout', '7d9c8b6f5d', 'k2m4p', ns, [{ name: 'checkout', image }], {
          created: 60 * 24 * 4,
        }),
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          metadata: {
            name: 'promtail',
            namespace: 'logging',
            labels: { app: 'promtail' },
            creationTimestamp: ago(60 * 24 * 300),
          },
          spec: {
            selector: { matchLabels: { app: 'promtail' } },
            template: {
              metadata: { labels: { app: 'promtail' } },
              spec: { containers: [{ name: 'promtail', image: agentImage }] },
            },
          },
          status: {
            desiredNumberScheduled: 1,
            currentNumberScheduled: 1,
            numberReady: 1,
            numberAvailable: 1,
            updatedNumberScheduled: 1,
          },
        },
        podObj({
          name: 'promtail-vb44r',
          ns: 'logging',
          labels: { app: 'promtail', 'controller-revision-hash': '6b9d4c7f8' },
          owner: { kind: 'DaemonSet', name: 'promtail' },
          node: WORKER,
          created: 60 * 24 * 9,
          boxes: [{ name: 'promtail', image: agentImage }],
        }),
      ],
      logs: {
        'checkout-7d9c8b6f5d-k2m4p': '2026-03-10T11:58:01.002Z INFO  order 88231 placed',
        'promtail-vb44r': [started, ...(limited ? [0, 7, 14].map(refused) : [])].join('\n'),
      },
    });
    const ask =
      'logs for checkout are missing in grafana since ~11:30, explore shows almost nothing';

    const limited = await investigateAt(apiTools(world(true)), ask, NOW, ns);
    const a = answerOf(limited.result);
    expect(a).toContain('promtail');
    expect(a).toMatch(/429/);
    expect(a).toContain('4194304');

    const fine = await investigateAt(apiTools(world(false)), ask, NOW, ns);
    expect(answerOf(fine.result)).not.toMatch(/429|rate limit/i);
  });
});
