/**
 * The engine rules of round29 (r29c) (cause-catalog.data.ts, its "round29 (r29c)" block, variables
 * in finding-vars-r29c.ts), one test per rule, each with a near miss where it must not fire: the
 * Vault agent refused (403) a read of a KV v2 path (the policy lacks the data/ path); Karpenter
 * adds no node because the NodePool the refusal names is at its spec.limits (the NodePool read);
 * an NFS/EFS volume whose mount times out on the nodes of one group (the CSI node plugin's line
 * there, diagnose-r29c.ts);
 * "rotated ... and external-secrets refreshed X: which workloads need a restart?" asks about X.
 */
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  stamped,
  warningEvent,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

describe('round29 rules (r29c): a secret store and a node pool that refuse', () => {
  it('the Vault agent gets 403 on a KV v2 data/ path: the policy and the data/ path are named; a 403 on a plain file: not this rule', async () => {
    const ns = 'billing';
    const app = 'invoicer';
    const crashing = (log: string): ApiWorld => {
      const pod = `${app}-6d8f7b9c5d-k9m4p`;
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj(app, ns, ['hashicorp/vault:1.19.5'], 1, 0),
          podObj({
            name: pod,
            ns,
            labels: { app },
            owner: { kind: 'ReplicaSet', name: `${app}-6d8f7b9c5d` },
            boxes: [
              {
                name: 'vault-agent',
                image: 'hashicorp/vault:1.19.5',
                restarts: 7,
                state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
                lastState: { terminated: { exitCode: 1, reason: 'Error' } },
              },
            ],
          }),
        ],
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: pod },
            'BackOff',
            'Back-off restarting failed container vault-agent',
            30,
            1,
            20,
          ),
        ],
        logs: { [pod]: log },
        previous: { [pod]: log },
      };
    };
    const ask = `${app} in ${ns} never comes up, why?`;
    const denied = stamped([
      [10, '[INFO]  agent.auth.handler: authentication successful, sending token to sinks'],
      [
        5,
        '[ERROR] agent: error encountered during template rendering: (view) vault.read(kv/data/invoicer/db): permission denied (exceeded maximum retries)',
      ],
    ]);
    const answer = answerOf((await investigateAt(apiTools(crashing(denied)), ask, NOW, ns)).result);
    expect(answer).toContain('403 permission denied');
    expect(answer).toContain('kv/data/invoicer/db');
    expect(answer).toContain('KV v2');
    expect(answer).toContain('policy');
    expect(answer).not.toContain('securityContext');

    const file = stamped([[5, 'Error: open /data/invoicer/cache.db: permission denied']]);
    const near = answerOf((await investigateAt(apiTools(crashing(file)), ask, NOW, ns)).result);
    expect(near).not.toMatch(/Vault|KV v2/);
  });

  it('pods Pending because every instance type exceeds the NodePool limits: the NodePool is read and its reached limit quoted; no such refusal: not this rule', async () => {
    const ns = 'search';
    const app = 'ranker';
    const pod = `${app}-6d8f7b9c5d-k9m4p`;
    const nodePool: Obj = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'batch-pool', creationTimestamp: ago(60 * 24 * 40) },
      spec: { limits: { cpu: '48', memory: '384Gi' } },
      status: { resources: { cpu: '48', memory: '180Gi', nodes: '6' } },
    };
    const world = (events: Obj[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [`registry.example.com/${app}:3.1.0`], 2, 1),
        podObj({
          name: pod,
          ns,
          labels: { app },
          owner: { kind: 'ReplicaSet', name: `${app}-6d8f7b9c5d` },
          phase: 'Pending',
          scheduled: false,
          created: 20,
          boxes: [
            {
              name: app,
              image: `registry.example.com/${app}:3.1.0`,
              resources: { requests: { cpu: '2' } },
            },
          ],
        }),
        nodePool,
      ],
      events,
    });
    const insufficient = warningEvent(
      ns,
      { kind: 'Pod', name: pod },
      'FailedScheduling',
      '0/6 nodes are available: 6 Insufficient cpu. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod.',
      20,
      1,
      12,
      'default-scheduler',
    );
    const ask = `${app} pods are Pending in ${ns}, why?`;
    const answer = answerOf(
      (
        await investigateAt(
          apiTools(
            world([
              insufficient,
              warningEvent(
                ns,
                { kind: 'Pod', name: pod },
                'FailedScheduling',
                'Failed to schedule pod, all available instance types exceed limits for nodepool: "batch-pool"',
                20,
                1,
                12,
                'karpenter',
              ),
            ]),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(answer).toContain('exceed limits for nodepool');
    expect(answer).toContain('spec.limits cpu: 48');
    expect(answer).toContain('its nodes hold cpu 48 already');
    expect(answer).not.toContain('memory: 384Gi');

    const near = answerOf(
      (await investigateAt(apiTools(world([insufficient])), ask, NOW, ns)).result,
    );
    expect(near).toContain('Insufficient cpu');
    expect(near).not.toMatch(/NodePool|spec\.limits/);
  });
  it('an NFS volume whose mount times out on the nodes of one group: the CSI plugin line, port 2049 and the node groups; a plugin that says something else: not this rule', async () => {
    const ns = 'docs';
    const app = 'renderer';
    const node = (name: string, group: string, days: number): Obj => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        creationTimestamp: ago(60 * 24 * days),
        labels: { 'eks.amazonaws.com/nodegroup': group, 'kubernetes.io/hostname': name },
      },
      spec: {},
      status: {
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
        allocatable: { cpu: '4', memory: '16Gi', pods: '58' },
      },
    });
    const appPod = (suffix: string, nodeName: string, running: boolean) =>
      podObj({
        name: `${app}-7c9d8f6b5-${suffix}`,
        ns,
        labels: { app },
        owner: { kind: 'ReplicaSet', name: `${app}-7c9d8f6b5` },
        node: nodeName,
        phase: running ? 'Running' : 'Pending',
        scheduled: true,
        created: running ? 60 * 24 : 50,
        boxes: [
          {
            name: app,
            image: `registry.example.com/${app}:1.4.0`,
            ...(running
              ? {}
              : { ready: false, state: { waiting: { reason: 'ContainerCreating' } } }),
          },
        ],
      });
    const plugin = (suffix: string, nodeName: string) =>
      podObj({
        name: `nfs-csi-node-${suffix}`,
        ns: 'kube-system',
        labels: { app: 'nfs-csi-node' },
        owner: { kind: 'DaemonSet', name: 'nfs-csi-node' },
        node: nodeName,
        boxes: [{ name: 'nfs-plugin', image: 'registry.example.com/nfs-csi:2.1.0' }],
      });
    const failing = { kind: 'Pod', name: `${app}-7c9d8f6b5-b2c3d` };
    const world = (pluginLog: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('kube-system'),
        node('node-old-1', 'workers-v1', 90),
        node('node-new-1', 'workers-v2', 0.05),
        deploymentObj(app, ns, [`registry.example.com/${app}:1.4.0`], 2, 1),
        appPod('a1b2c', 'node-old-1', true),
        appPod('b2c3d', 'node-new-1', false),
        plugin('x1y2z', 'node-old-1'),
        plugin('q7w8e', 'node-new-1'),
      ],
      events: [
        warningEvent(
          ns,
          failing,
          'FailedMount',
          'MountVolume.SetUp failed for volume "pvc-0a1b2c3d" : rpc error: code = DeadlineExceeded desc = context deadline exceeded',
          45,
          1,
          20,
        ),
      ],
      logs: { 'nfs-csi-node-q7w8e': pluginLog },
    });
    const ask = `${app} in ${ns}: one pod has been ContainerCreating for 45 minutes, why?`;
    const timeout = stamped([
      [45, 'I1112 node.go:188] NodePublishVolume: mounting fs-1:/ with options [tls]'],
      [
        43,
        'ERROR - Failed to establish TLS tunnel to 10.20.30.40:2049: connection timed out after 120 seconds',
      ],
      [43, 'ERROR - Mount failed: mount.nfs4: Connection timed out'],
    ]);
    const run = await investigateAt(apiTools(world(timeout)), ask, NOW, ns);
    const answer = answerOf(run.result);
    expect(answer).toContain('10.20.30.40:2049: connection timed out');
    expect(answer).toContain('TCP 2049');
    expect(answer).toContain('node group workers-v2 (new nodes');
    expect(answer).toContain('on node group workers-v1 mounts the same volume');

    const denied = stamped([
      [
        43,
        'E1112 mount_linux.go:230] Mount failed: mount.nfs4: access denied by server while mounting fs-1:/',
      ],
    ]);
    const near = answerOf((await investigateAt(apiTools(world(denied)), ask, NOW, ns)).result);
    expect(near).not.toMatch(/TCP 2049|security group/);
  });
});

describe('round29 question (r29c): the Secret an operator refreshed after a rotation', () => {
  it('"rotated the password ... and external-secrets refreshed X" asks about X; the object right after the first verb still wins', () => {
    const ask =
      'we rotated the db password in the cloud vault and external-secrets already refreshed ledger-db. which workloads still run with the old password and need a restart?';
    const q = scopeIncident(ask, { namespace: 'ledger' }, NOW).question;
    expect(q).toMatchObject({ type: 'uses', kind: 'secret', name: 'ledger-db', stale: true });

    const first = scopeIncident(
      'we rotated ledger-key and external-secrets refreshed ledger-db. which pods still need a restart?',
      { namespace: 'ledger' },
      NOW,
    ).question;
    expect(first).toMatchObject({ type: 'uses', name: 'ledger-key', stale: true });
  });
});
