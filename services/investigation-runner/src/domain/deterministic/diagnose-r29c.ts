/**
 * Round29 (r29c) rule that compares objects (cause-catalog.data.ts, its "round29 (r29c)" block).
 *
 * A CSI volume over NFS (Amazon EFS, Filestore, an NFS server) whose mount times out on some
 * nodes: the kubelet's FailedMount says only DeadlineExceeded, the CSI node plugin on that node
 * says why ("Failed to establish TLS tunnel to 10.0.1.5:2049: connection timed out",
 * "mount.nfs4: Connection timed out"). A timeout (no refusal) is traffic dropped on the way: a
 * security group or firewall that does not let those nodes reach NFS port 2049. When pods of the
 * same workload mount it on other nodes, the nodes that fail are told apart by their node group
 * (a newly added group is the usual case: its security group was never allowed in).
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { CSI_NODE_PLUGIN } from './dependencies';
import type { ClusterModel } from './model';
import type { ObjectView } from './observe/views';

/** the kubelet's FailedMount of a CSI volume whose NodePublish/Stage call timed out */
export const CSI_MOUNT_DEADLINE =
  /MountVolume\.(?:SetUp|MountDevice) failed for volume "[^"]+" : rpc error: code = DeadlineExceeded|Unable to attach or mount volumes: unmounted volumes=\[[^\]]+\][^\n]*timed out waiting for the condition/;
/** the CSI node plugin's NFS mount that timed out (EFS's TLS tunnel, mount.nfs) */
const NFS_TIMEOUT =
  /Failed to establish TLS tunnel to (\d{1,3}(?:\.\d{1,3}){3}:\d+): connection timed out[^\n]*|mount\.nfs4?: Connection timed out|mount\.nfs4?: [^\n]*timed out/i;

const NODE_GROUP_LABELS = [
  'eks.amazonaws.com/nodegroup',
  'alpha.eksctl.io/nodegroup-name',
  'karpenter.sh/nodepool',
  'cloud.google.com/gke-nodepool',
  'kubernetes.azure.com/agentpool',
  'agentpool',
];

const groupOf = (n: ObjectView | undefined) => {
  const key = NODE_GROUP_LABELS.find((k) => n?.labels[k]);
  return key && n ? n.labels[key] : undefined;
};
const day = (ms?: number) => (ms ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') : '');

export function r29cFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const entry = entries.find((e) => e.id === 'nfs_mount_timeout_on_nodes');
  return entry ? nfsMountTimeouts(model, entry) : [];
}

function nfsMountTimeouts(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const pods = model.list('pod');
  const blocked = pods.filter(
    (p) =>
      p.node &&
      !/Succeeded|Completed|Failed/.test(p.status ?? '') &&
      model.events.some(
        (e) =>
          e.object?.name === p.name &&
          e.namespace === p.namespace &&
          CSI_MOUNT_DEADLINE.test(e.message),
      ),
  );
  const byWorkload = new Map<string, ObjectView[]>();
  for (const p of blocked) {
    const w = `${p.namespace ?? ''}/${model.workloadOf(p).name}`;
    byWorkload.set(w, [...(byWorkload.get(w) ?? []), p]);
  }
  for (const [, failing] of byWorkload) {
    // the plugin's own line, on a node where a pod of the workload cannot mount
    let line: string | undefined;
    let target: string | undefined;
    for (const p of failing) {
      for (const plugin of pods.filter((x) => x.node === p.node && CSI_NODE_PLUGIN.test(x.name))) {
        for (const l of model.logs.filter((x) => x.pod === plugin.name)) {
          const hits = l.lines.map((x) => NFS_TIMEOUT.exec(x.text)).filter((x) => !!x);
          const hit = hits.find((x) => x[1]) ?? hits[0];
          // the line that names the address (ip:port) says the most
          if (hit && (!line || (hit[1] && !target))) {
            line = hit[0];
            target = hit[1];
          }
        }
      }
    }
    if (!line) continue;
    const first = failing[0]!;
    const workload = model.workloadOf(first).name;
    const failNodes = [...new Set(failing.map((p) => p.node!))];
    // pods of the same workload that run (their volume mounted) on other nodes
    const mounted = pods.filter(
      (p) =>
        p.namespace === first.namespace &&
        model.workloadOf(p).name === workload &&
        p.status === 'Running' &&
        p.node &&
        !failNodes.includes(p.node) &&
        !failing.includes(p),
    );
    const nodeView = (n: string) => model.get('node', n);
    const failGroups = [...new Set(failNodes.map((n) => groupOf(nodeView(n))).filter(Boolean))];
    const okGroups = [
      ...new Set(mounted.map((p) => groupOf(nodeView(p.node!))).filter(Boolean)),
    ].filter((g) => !failGroups.includes(g));
    const joined = failNodes
      .map((n) => nodeView(n)?.created)
      .filter((x): x is number => !!x)
      .sort((a, b) => b - a)[0];
    const okJoined = mounted
      .map((p) => nodeView(p.node!)?.created)
      .filter((x): x is number => !!x)
      .sort((a, b) => a - b)[0];
    const newer = joined && okJoined && joined > okJoined;
    const where =
      failGroups.length && okGroups.length
        ? `: the pods that fail (${failing.map((p) => p.name).join(', ')}) are on nodes of node group ${failGroups.join(', ')}${newer ? ` (new nodes, joined ${day(joined)} UTC)` : ''}, while ${mounted.map((p) => p.name).join(', ')} on node group ${okGroups.join(', ')} ${mounted.length === 1 ? 'mounts' : 'mount'} the same volume`
        : mounted.length
          ? `: the pods that fail are on ${failNodes.join(', ')}${newer ? ` (new nodes, joined ${day(joined)} UTC)` : ''}, while ${mounted.map((p) => `${p.name} on ${p.node}`).join(', ')} ${mounted.length === 1 ? 'mounts' : 'mount'} the same volume`
          : ` (nodes ${failNodes.join(', ')})`;
    out.push({
      entry,
      object: { kind: 'pod', name: first.name, namespace: first.namespace },
      workload,
      fact: line.trim(),
      groups: {
        nfs_target: target ?? 'the file system (NFS, TCP 2049)',
        nfs_where: where,
        nfs_from: failGroups.length
          ? `the nodes of node group ${failGroups.join(', ')} (their security group)`
          : `the nodes ${failNodes.join(', ')}`,
      },
      where: 'log',
      source: 'CSI node plugin log',
    });
  }
  return out;
}
