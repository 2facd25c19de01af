/**
 * The engine rules of round30 (r30b) (cause-catalog.data.ts, its "round30 (r30b)" block; the
 * variables in finding-vars-r30b.ts, the reads in gatherer.ts r30bSandboxRefusals), one test per
 * rule, each with a near miss: runc cannot load the seccomp filter into the node's kernel (a
 * Localhost profile missing from the node is not that); Calico's CNI plugin refused with
 * Unauthorized while calico-node may not renew its token (an API server the plugin cannot reach
 * is not that); the node's sandbox (pause) image that cannot be pulled (the application's own
 * image refused is not that).
 */
import {
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  NOW,
  podObj,
  stamped,
  warningEvent,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

const nodeObj = (name: string, labels: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name,
    labels: { 'kubernetes.io/hostname': name, ...labels },
    creationTimestamp: ago(60 * 24 * 20),
  },
  spec: {},
  status: {
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        lastTransitionTime: ago(60 * 24 * 20),
      },
    ],
    nodeInfo: { kubeletVersion: 'v1.29.3' },
  },
});

/** a Deployment with one pod running on `good` and one stuck ContainerCreating on `bad` */
function stuckWorld(
  ns: string,
  app: string,
  bad: string,
  good: string,
  sandboxError: string,
  extra: Partial<ApiWorld> = {},
  nodeLabels: Record<string, Obj> = {},
): ApiWorld {
  const image = `registry.example.com/${app}:2.1.0`;
  const rs = `${app}-6b7c8d9f5`;
  const pod = (name: string, node: string, waiting: boolean) =>
    podObj({
      name,
      ns,
      labels: { app, 'pod-template-hash': '6b7c8d9f5' },
      owner: { kind: 'ReplicaSet', name: rs },
      boxes: [
        {
          name: app,
          image,
          ...(waiting ? { state: { waiting: { reason: 'ContainerCreating' } } } : {}),
        },
      ],
      phase: waiting ? 'Pending' : 'Running',
      scheduled: true,
      node,
      created: waiting ? 40 : 60 * 24,
    });
  return {
    objects: [
      namespaceObj(ns),
      nodeObj(bad, nodeLabels[bad]),
      nodeObj(good, nodeLabels[good]),
      deploymentObj(app, ns, [image], 2, 1),
      pod(`${rs}-k2x9p`, good, false),
      pod(`${rs}-w7q4m`, bad, true),
      ...(extra.objects ?? []),
    ],
    events: [
      warningEvent(
        ns,
        { kind: 'Pod', name: `${rs}-w7q4m` },
        'FailedCreatePodSandBox',
        sandboxError,
        39,
        1,
        120,
      ),
      ...(extra.events ?? []),
    ],
    logs: { [`${rs}-k2x9p`]: 'level=info msg="serving" port=8080', ...(extra.logs ?? {}) },
  };
}

describe('round30 rules (r30b)', () => {
  it("runc cannot load the seccomp filter into the node's kernel: the node, its group and image are named; a Localhost seccomp profile missing on the node is not that", async () => {
    const labels = {
      'new-pool-1': {
        'eks.amazonaws.com/nodegroup': 'pool-b',
        'eks.amazonaws.com/nodegroup-image': 'ami-0bbbbbbbbbbbbbbbb',
      },
      'old-pool-1': {
        'eks.amazonaws.com/nodegroup': 'pool-a',
        'eks.amazonaws.com/nodegroup-image': 'ami-0aaaaaaaaaaaaaaaa',
      },
    };
    const refused =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: unable to init seccomp: error loading seccomp filter into kernel: error loading seccomp filter: errno 524: unknown';
    const ask = 'the ledger rollout hangs, one pod never starts. why?';
    const bad = await answer(
      stuckWorld('books', 'ledger', 'new-pool-1', 'old-pool-1', refused, {}, labels),
      ask,
      'books',
    );
    expect(bad).toMatch(/refuses to load the seccomp filter/);
    expect(bad).toMatch(/errno 524/);
    expect(bad).toMatch(/new-pool-1/);
    expect(bad).toMatch(/node group pool-b/);
    expect(bad).toMatch(/ami-0bbbbbbbbbbbbbbbb/);

    // the pod's own Localhost profile is not on the node: the pod's configuration, not the kernel
    const missing =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to generate sandbox container spec options: failed to generate seccomp spec opts: cannot load seccomp profile "/var/lib/kubelet/seccomp/profiles/audit.json": open /var/lib/kubelet/seccomp/profiles/audit.json: no such file or directory';
    const near = await answer(
      stuckWorld('books', 'ledger', 'new-pool-1', 'old-pool-1', missing, {}, labels),
      ask,
      'books',
    );
    expect(near).not.toMatch(/refuses to load the seccomp filter|bpf_jit_limit/);
  });

  it("Calico's CNI plugin refused with Unauthorized: calico-node's own line about the CNI kubeconfig token is quoted; a plugin that cannot reach the API server is not that", async () => {
    const unauthorized =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "4f1c2d": plugin type="calico" failed (add): error getting ClusterInformation: connection is unauthorized: Unauthorized';
    const agent = podObj({
      name: 'calico-node-q8r2t',
      ns: 'kube-system',
      labels: { 'k8s-app': 'calico-node' },
      owner: { kind: 'DaemonSet', name: 'calico-node' },
      boxes: [{ name: 'calico-node', image: 'docker.io/calico/node:v3.27.3' }],
      node: 'worker-2',
    });
    const refusedToken =
      'cni-config-monitor/token_watch.go 281: Unable to create token for CNI kubeconfig error=serviceaccounts "calico-cni-plugin" is forbidden: User "system:serviceaccount:kube-system:calico-node" cannot create resource "serviceaccounts/token" in API group "" in the namespace "kube-system"';
    const extra = {
      objects: [namespaceObj('kube-system'), agent],
      logs: {
        'calico-node-q8r2t': stamped([
          [60 * 20, 'confd/main.go 61: Starting calico-node version v3.27.3'],
          [60 * 20, refusedToken],
          [30, refusedToken],
        ]),
      },
    };
    const ask = 'deploys in quotes hang, the new pods never start';
    const bad = await answer(
      stuckWorld('quotes', 'quoter', 'worker-2', 'worker-1', unauthorized, extra),
      ask,
      'quotes',
    );
    expect(bad).toMatch(/Calico's CNI plugin is refused by the API server/);
    expect(bad).toMatch(/Unauthorized/);
    expect(bad).toMatch(/calico-cni-plugin/);
    expect(bad).toMatch(/serviceaccounts\/token/);

    // the plugin cannot reach the API server at all: not a token calico-node failed to renew
    const timeout =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "4f1c2d": plugin type="calico" failed (add): error getting ClusterInformation: Get "https://10.96.0.1:443/apis/crd.projectcalico.org/v1/clusterinformations/default": dial tcp 10.96.0.1:443: i/o timeout';
    const near = await answer(
      stuckWorld('quotes', 'quoter', 'worker-2', 'worker-1', timeout, extra),
      ask,
      'quotes',
    );
    expect(near).not.toMatch(/Calico's CNI plugin is refused by the API server/);
  });

  it("the node cannot pull its sandbox (pause) image: the node and the registry's 401 are named, not the app's imagePullSecret; the app's own image refused is not that", async () => {
    const sandbox =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image "registry.example.com/infra/pause:3.9": failed to pull image "registry.example.com/infra/pause:3.9": failed to pull and unpack image "registry.example.com/infra/pause:3.9": failed to resolve reference "registry.example.com/infra/pause:3.9": pulling from host registry.example.com failed with status code [manifests 3.9]: 401 Unauthorized';
    const pressure = {
      events: [
        warningEvent(
          'default',
          { kind: 'Node', name: 'worker-3' },
          'EvictionThresholdMet',
          'Attempting to reclaim ephemeral-storage',
          45,
          45,
          1,
        ),
      ],
    };
    const ask =
      'KubeDeploymentReplicasMismatch: Deployment search/indexer has not matched the expected number of replicas';
    const bad = await answer(
      stuckWorld('search', 'indexer', 'worker-3', 'worker-1', sandbox, pressure),
      ask,
      'search',
    );
    expect(bad).toMatch(/cannot get its sandbox \("pause"\) image/);
    expect(bad).toMatch(/401 Unauthorized/);
    expect(bad).toMatch(/worker-3/);
    expect(bad).not.toMatch(/valid imagePullSecret/);

    // the application's own image is refused: its pull secret, not the node's sandbox image
    const appImage = podObj({
      name: 'indexer-6b7c8d9f5-w7q4m',
      ns: 'search',
      labels: { app: 'indexer', 'pod-template-hash': '6b7c8d9f5' },
      owner: { kind: 'ReplicaSet', name: 'indexer-6b7c8d9f5' },
      boxes: [
        {
          name: 'indexer',
          image: 'registry.example.com/indexer:2.1.0',
          state: { waiting: { reason: 'ImagePullBackOff' } },
        },
      ],
      phase: 'Pending',
      scheduled: true,
      node: 'worker-3',
      created: 40,
    });
    const world = stuckWorld(
      'search',
      'indexer',
      'worker-3',
      'worker-1',
      'Failed to pull image "registry.example.com/indexer:2.1.0": failed to resolve reference "registry.example.com/indexer:2.1.0": pulling from host registry.example.com failed with status code [manifests 2.1.0]: 401 Unauthorized',
    );
    world.objects = world.objects.map((o) =>
      (o['metadata'] as Obj)['name'] === 'indexer-6b7c8d9f5-w7q4m' ? appImage : o,
    );
    world.events = (world.events ?? []).map((e) => ({ ...e, reason: 'Failed' }));
    const near = await answer(world, ask, 'search');
    expect(near).not.toMatch(/sandbox \("pause"\) image/);
    expect(near).toMatch(/imagePullSecret/);
  });

  it('equal findings with no event times: the workload a subject names exactly comes first, not one whose name only starts with another word of the request', async () => {
    const sandbox =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image "registry.example.com/infra/pause:3.9": failed to pull image "registry.example.com/infra/pause:3.9": pulling from host registry.example.com failed with status code [manifests 3.9]: 401 Unauthorized';
    const world = stuckWorld('search', 'indexer', 'worker-3', 'worker-1', sandbox);
    const other = podObj({
      name: 'search-sync-6f5d4c3b2-p9k8j',
      ns: 'search',
      labels: { app: 'search-sync', 'pod-template-hash': '6f5d4c3b2' },
      owner: { kind: 'ReplicaSet', name: 'search-sync-6f5d4c3b2' },
      boxes: [
        {
          name: 'sync',
          image: 'registry.example.com/sync:1.0.0',
          state: { waiting: { reason: 'ContainerCreating' } },
        },
      ],
      phase: 'Pending',
      scheduled: true,
      node: 'worker-3',
      created: 20,
    });
    const untimed = (e: Obj): Obj => {
      const { firstTimestamp: _f, lastTimestamp: _l, ...rest } = e;
      return rest;
    };
    world.objects.push(
      deploymentObj('search-sync', 'search', ['registry.example.com/sync:1.0.0'], 1, 0),
      other,
    );
    world.events = [
      untimed(
        warningEvent(
          'search',
          { kind: 'Pod', name: 'search-sync-6f5d4c3b2-p9k8j' },
          'FailedCreatePodSandBox',
          sandbox,
          19,
          1,
          40,
        ),
      ),
      ...(world.events ?? []).map(untimed),
    ];
    const got = await answer(
      world,
      '[FIRING:1] KubeDeploymentReplicasMismatch (search indexer)\nLabels:\n - namespace = search\n - deployment = indexer\nAnnotations:\n - description = Deployment search/indexer has not matched the expected number of replicas for longer than 15 minutes.',
      'search',
    );
    expect(got).toMatch(/sandbox \(pause\) image on indexer \(namespace/);
  });
});
