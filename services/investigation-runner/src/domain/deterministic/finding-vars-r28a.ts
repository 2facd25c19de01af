/**
 * The template variables of the rules on a cluster autoscaler that cannot add nodes or never
 * finished removing them (cause-catalog.data.ts, its "r28a" block): the cloud's answer to the
 * failed scale-up and the nodes that keep the ToBeDeletedByClusterAutoscaler taint, from the
 * autoscaler's own log and the nodes' taints.
 */
import type { FindingContext } from './finding-vars';
import type { ClusterModel } from './model';
import { clip } from './text';

type Vars = Record<string, string>;

/** the cluster autoscaler's log lines, newest last, previous container's first */
function autoscalerLines(model: ClusterModel): { text: string; previous: boolean }[] {
  return model.logs
    .filter((l) => /cluster-autoscaler/.test(`${l.pod ?? ''} ${l.container ?? ''}`))
    .sort((a, b) => Number(b.previous) - Number(a.previous))
    .flatMap((l) => l.lines.map((x) => ({ text: x.text, previous: l.previous })));
}

/** the cloud provider's message for a failed scale-up (an AWS scaling activity's StatusMessage) */
const SCALE_UP_FAILED =
  /failed scaling activity|cannot provision any more nodes: ([^\n]+)|Failed adding \d+ nodes[^\n]*/i;

function scaleUpFailed({ model }: FindingContext): Vars {
  const line = autoscalerLines(model)
    .map((l) => l.text)
    .filter((t) => SCALE_UP_FAILED.test(t))
    .sort((a, b) => Number(/StatusMessage/.test(a)) - Number(/StatusMessage/.test(b)))
    .pop();
  if (!line)
    return {
      scale_up_error: '',
      scale_up_fix: 'Read the cluster autoscaler log for why the scale-up failed. ',
    };
  const m = SCALE_UP_FAILED.exec(line)!;
  const status = /StatusMessage: "([^"]+)"/.exec(line)?.[1];
  const said = clip((status ?? m[1] ?? m[0]).trim(), 300);
  const quota = /(\w*LimitExceeded|quota|limit of \d+)/i.exec(said);
  const vcpu = /vCPU limit of (\d+)/i.exec(said);
  return {
    scale_up_error: `. The cluster autoscaler's log gives the cloud's answer: "${said}"${
      vcpu
        ? `: the account's vCPU limit (${vcpu[1]} vCPU for this instance family) is used up, so no instance starts however far the group is below its max size`
        : quota
          ? ': a cloud quota, not the node group size, stops the scale-up'
          : ''
    }`,
    scale_up_fix: vcpu
      ? `Ask the cloud provider to raise the vCPU limit (now ${vcpu[1]}; AWS Service Quotas, Running On-Demand instances), or let the group use an instance family with free quota or smaller instances. `
      : quota
        ? 'Raise the cloud quota the scale-up hit, or use instance types it does not cover. '
        : 'Fix what the cloud answered to the scale-up (capacity, quota, permissions). ',
  };
}

function taintLeft({ f, model, now }: FindingContext): Vars {
  const tainted = model
    .list('node')
    .filter((n) => /ToBeDeletedByClusterAutoscaler/.test(n.fields['taints'] ?? ''))
    .map((n) => n.name);
  const lines = autoscalerLines(model);
  const fromLog = [
    ...new Set(
      lines
        .map(
          (l) =>
            /ToBeDeletedTaint on node ([\w.-]+)/.exec(l.text)?.[1] ??
            /Skipping ([\w.-]+) from delete consideration - the node is currently being deleted/.exec(
              l.text,
            )?.[1],
        )
        .filter((n): n is string => !!n),
    ),
  ];
  const nodes = tainted.length ? tainted : fromLog;
  const since = Number(f.groups['since']);
  const at = Number.isFinite(since) && since > 1e9 ? since * 1000 : undefined;
  const age = at && now > at ? Math.round((now - at) / 60_000) : undefined;
  const added = lines.find((l) => /Successfully added ToBeDeletedTaint/.test(l.text));
  const skipping = lines.find((l) => /currently being deleted/.test(l.text) && !l.previous);
  const story = [
    at
      ? `The taint was set at ${new Date(at).toISOString()}${age !== undefined && age >= 60 ? `, ${Math.round(age / 60)} h ago` : age !== undefined ? `, ${age} min ago` : ''}: a scale-down that never finished`
      : '',
    added?.previous
      ? `The autoscaler's previous container logged "${clip(added.text.replace(/^\S+Z\s+/, ''), 160)}" and then ended before deleting the nodes`
      : '',
    skipping
      ? `The running autoscaler skips them ("${clip(skipping.text.replace(/^.*?\] /, ''), 160)}") and counts them in the group's size`
      : '',
  ].filter(Boolean);
  return {
    tainted_nodes: nodes.length ? ` (${nodes.join(', ')})` : '',
    tainted_fix: nodes.length ? nodes.join(', ') : 'the tainted nodes',
    taint_story: story.length ? `. ${story.join('. ')}` : '',
  };
}

/**
 * A StatefulSet apply refused as "spec: Forbidden": the live size of its claims (its PVCs,
 * `<template>-<statefulset>-<ordinal>`) and a different size a values ConfigMap asks for
 * (`persistence: size:` / `storage:`), the volumeClaimTemplates change that cannot be applied.
 */
function stsClaimChange({ f, model }: FindingContext): Vars {
  const name = /"([\w.-]+)\\?"/.exec(f.groups['what'] ?? '')?.[1];
  const none = {
    sts_claim_change:
      ' (anything outside template, replicas, updateStrategy, ordinals, minReadySeconds and persistentVolumeClaimRetentionPolicy: most often its volumeClaimTemplates, a storage size changed in the chart values)',
    sts_claim_fix: '',
  };
  if (!name) return none;
  const claims = model
    .list('persistentvolumeclaim')
    .filter((c) => new RegExp(`-${name.replace(/[.]/g, '\\.')}-\\d+$`).test(c.name));
  const live = [...new Set(claims.map((c) => c.fields['capacity']).filter(Boolean))];
  const asked = [
    ...new Set(
      model
        .list('configmap')
        .flatMap((c) => [
          ...(c.fields['data'] ?? '').matchAll(
            /persistence:(?:\\n|\n)(?:[^"]*?)size: ?(\d+(?:[KMGT]i)?)|storage: ?(\d+(?:[KMGT]i))/g,
          ),
        ])
        .map((m) => m[1] ?? m[2]!),
    ),
  ].filter((x) => live.length && !live.includes(x));
  if (!live.length) return none;
  return {
    sts_claim_change: asked.length
      ? `: its volumeClaimTemplates. The claims of ${name} are ${live.join('/')} (${claims
          .map((c) => c.name)
          .slice(0, 3)
          .join(
            ', ',
          )}) while the values the change renders ask for ${asked.join('/')}; a volumeClaimTemplates size cannot be updated in place`
      : `${none.sts_claim_change}; its claims are ${live.join('/')} (${claims
          .map((c) => c.name)
          .slice(0, 3)
          .join(', ')})`,
    sts_claim_fix: asked.length
      ? `Revert the storage size in the values to ${live[0]} so the rest (the image) applies, and grow the PVCs themselves (edit each PVC's spec.resources.requests.storage to ${asked[0]}, if its StorageClass allows expansion). `
      : '',
  };
}

/**
 * After Velero gave up on a CSI snapshot: the CSI driver's log (a snapshot still pending at that
 * moment that completed later) says the snapshot works, only slower than the timeout.
 */
function veleroSnapshotDone({ f, model }: FindingContext): Vars {
  const at = f.at;
  if (at === undefined) return { velero_snapshot_done: '' };
  const seen = new Map<string, { pending?: number; progress?: string; done?: number }>();
  for (const l of model.logs)
    for (const x of l.lines) {
      const m =
        /snapshotID="?(snap-[\w-]+)"? state="?(pending|completed)"?(?: progress="?(\d+%)"?)?/.exec(
          x.text,
        );
      if (!m || x.at === undefined) continue;
      const s = seen.get(m[1]!) ?? {};
      if (m[2] === 'pending' && x.at <= at + 60_000) {
        s.pending = x.at;
        s.progress = m[3];
      }
      if (m[2] === 'completed' && x.at > at) s.done = x.at;
      seen.set(m[1]!, s);
    }
  const slow = [...seen.entries()].find(([, s]) => s.pending !== undefined && s.done !== undefined);
  if (!slow) return { velero_snapshot_done: '' };
  const [id, s] = slow;
  const mins = Math.round((s.done! - at) / 60_000);
  return {
    velero_snapshot_done: `. The CSI driver's log shows the snapshot itself works, only slower: ${id} was still pending${s.progress ? ` (${s.progress})` : ''} when Velero gave up and completed at ${new Date(s.done!).toISOString()}, ${mins} min after the timeout`,
  };
}

export const R28A_VARS: Record<string, (x: FindingContext) => Vars> = {
  autoscaler_scale_up_failed_backoff: scaleUpFailed,
  autoscaler_to_be_deleted_taint_left: taintLeft,
  apply_statefulset_spec_forbidden: stsClaimChange,
  velero_csi_snapshot_timeout: veleroSnapshotDone,
};
