/**
 * The engine rules of round28's cluster autoscaler that cannot add or finish removing nodes
 * (cause-catalog.data.ts, its "r28a" block, variables in finding-vars-r28a.ts), one test per
 * rule, each with a near miss where it must not fire: pods Pending while the autoscaler's last
 * scale-up failed (the cloud's answer, a vCPU quota, read from the autoscaler's log), and pods
 * Pending while nodes keep the ToBeDeletedByClusterAutoscaler taint of a scale-down that never
 * finished; an apply (an Argo CD sync) refused because it changes a StatefulSet spec field (its
 * volumeClaimTemplates) outside those the API server lets change; a Velero backup PartiallyFailed
 * because a volume's CSI snapshot outlasted its csiSnapshotTimeout.
 */
import {
  NOW,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  warningEvent,
  kubeEvent,
  ago,
  stamped,
  statefulSetObj,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

const nodeObj = (name: string, taints: Obj[] = []): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, creationTimestamp: ago(60 * 24 * 30), labels: {} },
  spec: taints.length ? { taints } : {},
  status: {
    conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
    allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
    capacity: { cpu: '4', memory: '16Gi', pods: '110' },
  },
});

const autoscalerPod = (): Obj =>
  podObj({
    name: 'cluster-autoscaler-7b9d4f6c8d-q2x7z',
    ns: 'kube-system',
    labels: { app: 'cluster-autoscaler' },
    owner: { kind: 'ReplicaSet', name: 'cluster-autoscaler-7b9d4f6c8d' },
    boxes: [
      {
        name: 'cluster-autoscaler',
        image: 'registry.k8s.io/autoscaling/cluster-autoscaler:v1.31.2',
      },
    ],
  });

const world = (ns: string, app: string, events: Obj[], nodes: Obj[], caLog: string): ApiWorld => ({
  objects: [
    namespaceObj(ns),
    namespaceObj('kube-system'),
    ...nodes,
    deploymentObj(app, ns, [`registry.example.com/${app}:2.0.0`], 3, 2),
    podObj({
      name: `${app}-6d8f7b9c5d-a1b2c`,
      ns,
      labels: { app },
      owner: { kind: 'ReplicaSet', name: `${app}-6d8f7b9c5d` },
      boxes: [
        {
          name: app,
          image: `registry.example.com/${app}:2.0.0`,
          resources: { requests: { cpu: '1500m' } },
        },
      ],
    }),
    podObj({
      name: `${app}-6d8f7b9c5d-k9m4p`,
      ns,
      labels: { app },
      owner: { kind: 'ReplicaSet', name: `${app}-6d8f7b9c5d` },
      phase: 'Pending',
      created: 40,
      boxes: [
        {
          name: app,
          image: `registry.example.com/${app}:2.0.0`,
          resources: { requests: { cpu: '1500m' } },
        },
      ],
    }),
    autoscalerPod(),
  ],
  events,
  logs: { 'cluster-autoscaler-7b9d4f6c8d-q2x7z': caLog },
});

describe('round28 rules (r28a): the cluster autoscaler cannot add or finish removing nodes; a StatefulSet spec change an apply cannot make; a Velero CSI snapshot timeout', () => {
  it("pods Pending after a failed scale-up: the answer quotes the cloud's answer from the autoscaler's log (a vCPU limit); a scale-up still under way: not this rule", async () => {
    const ns = 'batch';
    const pod = { kind: 'Pod', name: 'builder-6d8f7b9c5d-k9m4p' };
    const sched = warningEvent(
      ns,
      pod,
      'FailedScheduling',
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      40,
      1,
      30,
      'default-scheduler',
    );
    const caLog = stamped([
      [
        35,
        'I0310 11:25:00.000000       1 orchestrator.go:301] Final scale-up plan: [{asg-batch 3->5 (max: 20)}]',
      ],
      [
        30,
        'W0310 11:30:00.000000       1 auto_scaling_groups.go:574] Instance group asg-batch cannot provision any more nodes: failed scaling activity {StatusCode: Failed, StatusMessage: "Could not launch On-Demand Instances. VcpuLimitExceeded - You have requested more vCPU capacity than your current vCPU limit of 64 allows for the instance bucket that the specified instance type belongs to. Launching EC2 instance failed."}',
      ],
    ]);
    const failed = world(
      ns,
      'builder',
      [
        sched,
        kubeEvent(
          ns,
          pod,
          'Normal',
          'NotTriggerScaleUp',
          "pod didn't trigger scale-up: 1 in backoff after failed scale-up",
          30,
          1,
          20,
          'cluster-autoscaler',
        ),
      ],
      [nodeObj('node-a'), nodeObj('node-b'), nodeObj('node-c')],
      caLog,
    );
    const ask = 'builder pods are Pending, why does the autoscaler not add nodes?';
    const answer = answerOf((await investigateAt(apiTools(failed), ask, NOW, ns)).result);
    expect(answer).toContain('in backoff after failed scale-up');
    expect(answer).toContain('VcpuLimitExceeded');
    expect(answer).toContain('vCPU limit (64');
    expect(answer).not.toContain('max size reached');

    const underWay = world(
      ns,
      'builder',
      [
        sched,
        kubeEvent(
          ns,
          pod,
          'Normal',
          'TriggeredScaleUp',
          'pod triggered scale-up: [{asg-batch 3->5 (max: 20)}]',
          2,
          2,
          1,
          'cluster-autoscaler',
        ),
      ],
      [nodeObj('node-a'), nodeObj('node-b'), nodeObj('node-c')],
      stamped([
        [
          2,
          'I0310 11:58:00.000000       1 orchestrator.go:301] Final scale-up plan: [{asg-batch 3->5 (max: 20)}]',
        ],
      ]),
    );
    const near = answerOf((await investigateAt(apiTools(underWay), ask, NOW, ns)).result);
    expect(near).toContain('Insufficient cpu');
    expect(near).not.toContain('scale-up failed');
  });

  it('pods Pending behind nodes that keep the ToBeDeletedByClusterAutoscaler taint: the answer names the nodes and when the taint was set; another untolerated taint: not this rule', async () => {
    const ns = 'risk';
    const pod = { kind: 'Pod', name: 'scorer-6d8f7b9c5d-k9m4p' };
    const since = Math.round((NOW - 8 * 3600_000) / 1000);
    const taint = {
      key: 'ToBeDeletedByClusterAutoscaler',
      value: String(since),
      effect: 'NoSchedule',
    };
    const nodes = [nodeObj('node-a'), nodeObj('node-b', [taint]), nodeObj('node-c', [taint])];
    const caLog = stamped([
      [
        20,
        'I0310 11:40:00.000000       1 orchestrator.go:557] Skipping node group asg-general - max size reached',
      ],
      [
        20,
        'I0310 11:40:00.000000       1 pre_filtering_processor.go:57] Skipping node-b from delete consideration - the node is currently being deleted',
      ],
    ]);
    const stuck = world(
      ns,
      'scorer',
      [
        warningEvent(
          ns,
          pod,
          'FailedScheduling',
          `0/3 nodes are available: 2 node(s) had untolerated taint {ToBeDeletedByClusterAutoscaler: ${since}}, 1 Insufficient cpu. preemption: 0/3 nodes are available: 2 Preemption is not helpful for scheduling, 1 No preemption victims found for incoming pod.`,
          40,
          1,
          30,
          'default-scheduler',
        ),
      ],
      nodes,
      caLog,
    );
    const ask = 'scorer is slow since the traffic bump, one pod is Pending. can someone look?';
    const answer = answerOf((await investigateAt(apiTools(stuck), ask, NOW, ns)).result);
    expect(answer).toContain('ToBeDeletedByClusterAutoscaler taint (node-b, node-c)');
    expect(answer).toContain('a scale-down that never finished');

    const other = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    const dedicated = world(
      ns,
      'scorer',
      [
        warningEvent(
          ns,
          pod,
          'FailedScheduling',
          '0/3 nodes are available: 2 node(s) had untolerated taint {dedicated: gpu}, 1 Insufficient cpu. preemption: 0/3 nodes are available: 2 Preemption is not helpful for scheduling, 1 No preemption victims found for incoming pod.',
          40,
          1,
          30,
          'default-scheduler',
        ),
      ],
      [nodeObj('node-a'), nodeObj('node-b', [other]), nodeObj('node-c', [other])],
      '',
    );
    const near = answerOf((await investigateAt(apiTools(dedicated), ask, NOW, ns)).result);
    expect(near).toContain('dedicated');
    expect(near).not.toContain('never finished');
  });

  it('an Argo CD sync refused because it changes a StatefulSet spec field (volumeClaimTemplates): the answer says the change never applied and why; a later successful sync: over', async () => {
    const ns = 'sessions';
    const refused =
      "StatefulSet.apps \"cache-master\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
    const argo = (later: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('argocd'),
        ...statefulSetObj('cache-master', ns, 'redis:7.2.5', 1),
        podObj({
          name: 'argocd-application-controller-0',
          ns: 'argocd',
          labels: { app: 'argocd-application-controller' },
          owner: { kind: 'StatefulSet', name: 'argocd-application-controller' },
          boxes: [
            { name: 'argocd-application-controller', image: 'quay.io/argoproj/argocd:v2.12.3' },
          ],
        }),
      ],
      events: [],
      logs: {
        'argocd-application-controller-0': [
          `time="${ago(90)}" level=info msg="Adding resource result, status: 'SyncFailed', phase: 'Sync', message: '${refused}'" application=argocd/cache kind=StatefulSet name=cache-master namespace=${ns}`,
          `time="${ago(75)}" level=info msg="Sync operation to [1.4.0] failed: one or more objects failed to apply, reason: ${refused} (retried 5 times)." application=argocd/cache type=Warning`,
          later,
        ].join('\n'),
      },
    });
    const ask =
      'cache: the redis 7.4 upgrade got merged 2h ago but the pods still run 7.2.5. why did it not roll out?';
    const bad = answerOf(
      (
        await investigateAt(
          apiTools(
            argo(
              `time="${ago(5)}" level=info msg="Skipping auto-sync: failed previous sync attempt to [1.4.0]" application=argocd/cache`,
            ),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(bad).toContain('Forbidden: updates to statefulset spec');
    expect(bad).toContain('volumeClaimTemplates');
    expect(bad).toContain('never reached the cluster');

    const fine = answerOf(
      (
        await investigateAt(
          apiTools(
            argo(
              `time="${ago(5)}" level=info msg="Sync operation to [1.4.1] succeeded" application=argocd/cache`,
            ),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(fine).not.toContain('never reached the cluster');
  });

  it("a Velero backup PartiallyFailed because a CSI snapshot outlasted csiSnapshotTimeout: the answer names the PVC and the CSI driver's later completion; a backup that completed: not this rule", async () => {
    const ns = 'shop';
    const t = (min: number) => ago(min).replace(/\.\d+Z$/, 'Z');
    const velero = (failed: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('velero'),
        namespaceObj('kube-system'),
        ...statefulSetObj('billing-db', ns, 'postgres:16.4', 1),
        podObj({
          name: 'velero-58c9f7d6b4-x2k9p',
          ns: 'velero',
          labels: { name: 'velero' },
          owner: { kind: 'ReplicaSet', name: 'velero-58c9f7d6b4' },
          boxes: [{ name: 'velero', image: 'velero/velero:v1.14.1' }],
        }),
        podObj({
          name: 'ebs-csi-controller-6d9b7c5f48-q7r2s',
          ns: 'kube-system',
          labels: { app: 'ebs-csi-controller' },
          owner: { kind: 'ReplicaSet', name: 'ebs-csi-controller-6d9b7c5f48' },
          boxes: [
            {
              name: 'ebs-plugin',
              image: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.35.0',
            },
          ],
        }),
      ],
      events: [],
      logs: {
        'velero-58c9f7d6b4-x2k9p': [
          `time="${t(120)}" level=info msg="Executing PVCAction" backup=velero/daily-1 logSource="pkg/backup/actions/csi/pvc_action.go:272"`,
          failed
            ? `time="${t(110)}" level=error msg="Error backing up item" backup=velero/daily-1 error="error executing custom action (groupResource=persistentvolumeclaims, namespace=${ns}, name=data-billing-db-0): rpc error: code = Unknown desc = timed out waiting for the condition" logSource="pkg/backup/backup.go:724" name=billing-db-0`
            : `time="${t(110)}" level=info msg="Created VolumeSnapshot ${ns}/velero-data-billing-db-0-k7x2q" backup=velero/daily-1`,
          `time="${t(109)}" level=info msg="Backup completed" backup=velero/daily-1`,
        ].join('\n'),
        'ebs-csi-controller-6d9b7c5f48-q7r2s': [
          `${t(119)} I0310 10:01:00.000000       1 cloud.go:1121] "Waiting for snapshot to be completed" snapshotID="snap-0abc" state="pending" progress="0%"`,
          `${t(111)} I0310 10:09:00.000000       1 cloud.go:1121] "Waiting for snapshot to be completed" snapshotID="snap-0abc" state="pending" progress="41%"`,
          `${t(95)} I0310 10:25:00.000000       1 cloud.go:1121] "Waiting for snapshot to be completed" snapshotID="snap-0abc" state="completed" progress="100%"`,
        ].join('\n'),
      },
    });
    const ask =
      'the velero daily backup says PartiallyFailed. is billing-db actually being backed up?';
    const bad = answerOf((await investigateAt(apiTools(velero(true)), ask, NOW, ns)).result);
    expect(bad).toContain('csiSnapshotTimeout');
    expect(bad).toContain('data-billing-db-0');
    expect(bad).toContain('snap-0abc was still pending (41%)');

    const fine = answerOf((await investigateAt(apiTools(velero(false)), ask, NOW, ns)).result);
    expect(fine).not.toContain('csiSnapshotTimeout');
  });
});
