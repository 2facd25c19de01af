/**
 * The template variables of the round30 (r30b) rules (cause-catalog.data.ts, its "round30 (r30b)"
 * block): what sets the node a sandbox fails on apart from the others (its node group and image),
 * and what the CNI's own agent logs about the credentials it hands its plugin.
 */
import type { FindingContext } from './finding-vars';
import type { ObjectView } from './observe';
import { clip } from './text';

type Vars = Record<string, string>;

/** the labels cloud providers and autoscalers put on a node for its group and its image */
const GROUP_LABELS = [
  'eks.amazonaws.com/nodegroup',
  'alpha.eksctl.io/nodegroup-name',
  'karpenter.sh/nodepool',
  'karpenter.sh/provisioner-name',
  'cloud.google.com/gke-nodepool',
  'kubernetes.azure.com/agentpool',
  'agentpool',
];
const IMAGE_LABELS = [
  'eks.amazonaws.com/nodegroup-image',
  'node.kubernetes.io/image',
  'kubernetes.azure.com/node-image-version',
];

function labelOf(node: ObjectView | undefined, keys: string[]): string | undefined {
  for (const k of keys) if (node?.labels[k]) return node.labels[k];
  return undefined;
}

/**
 * The node's group and image, and whether it is the only node of them: a sandbox that fails on
 * the nodes of one group only points at what that group's image (kernel) brings.
 */
function seccompNode(x: FindingContext): Vars {
  const name = x.vars['node'] ?? x.pod?.node ?? '';
  const node = name ? x.model.get('node', name) : undefined;
  const group = labelOf(node, GROUP_LABELS);
  const image = labelOf(node, IMAGE_LABELS);
  const kernel = node?.fields['kernelVersion'];
  if (!group && !image && !kernel)
    return {
      seccomp_node: '',
      seccomp_node_fix: `Move the pods off ${name || 'that node'} (cordon and drain it, then replace it)`,
    };
  const nodes = x.model.list('node');
  const same = nodes.filter(
    (n) =>
      (group && labelOf(n, GROUP_LABELS) === group) ||
      (!group && image && labelOf(n, IMAGE_LABELS) === image),
  );
  const others = nodes.filter((n) => !same.includes(n));
  const what = [
    group ? `node group ${group}` : '',
    image ? `node image ${image}` : '',
    kernel ? `kernel ${kernel}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const otherImages = [
    ...new Set(others.map((n) => labelOf(n, IMAGE_LABELS)).filter((v): v is string => !!v)),
  ].filter((v) => v !== image);
  return {
    seccomp_node: ` (${what}${
      others.length
        ? `; ${same.length <= 1 ? 'it is the only node of it' : `${same.length} nodes share it`}, the other ${others.length} node(s)${
            otherImages.length
              ? ` run image ${clip(otherImages.join(', '), 120)}`
              : ' are of another group'
          }`
        : ''
    })`,
    seccomp_node_fix: `Cordon ${name} and move its pods to the other nodes, then roll ${
      group ? `node group ${group}` : 'the node'
    } back to the previous node image${image ? ` (it runs ${image})` : ''}`,
  };
}

/** calico-node's own line about the token it mints for the CNI plugin's kubeconfig */
const CALICO_TOKEN_LINE =
  /(?:Unable to create token for CNI kubeconfig|Failed to update CNI token)[^\n]*/;

/**
 * What calico-node (the agent that writes the CNI plugin's kubeconfig and its token) logs about
 * that token: a refused TokenRequest there is why the plugin's credentials expire.
 */
function calicoToken(x: FindingContext): Vars {
  const line = x.model.logs
    .filter((l) => /calico-node/.test(l.pod ?? '') || /calico-node/.test(l.container ?? ''))
    .flatMap((l) => l.lines.map((t) => ({ pod: l.pod, text: t.text })))
    .map((t) => ({ pod: t.pod, m: CALICO_TOKEN_LINE.exec(t.text) }))
    .filter((t) => t.m && /forbidden|cannot create/i.test(t.m[0]))
    .pop();
  if (!line?.m)
    return {
      calico_token: '',
      calico_token_fix:
        "Check calico-node's logs for the token it writes for the CNI kubeconfig (`kubectl logs -n <calico namespace> ds/calico-node | grep -i token`)",
    };
  const sa = /serviceaccounts "([^"]+)" is forbidden/.exec(line.m[0])?.[1];
  const user = /User "([^"]+)"/.exec(line.m[0])?.[1];
  return {
    calico_token: `. calico-node cannot renew that token: ${line.pod ? `its pod ${line.pod} logs` : 'it logs'} "${clip(line.m[0], 300)}". ${
      user ? `Its identity (${user})` : 'calico-node'
    } is not allowed to create serviceaccounts/token${sa ? ` for ServiceAccount ${sa}` : ''}, so once the last token it wrote expired the plugin is refused`,
    calico_token_fix: `Give calico-node the RBAC its version needs: apply the full Calico manifest of the version it runs (not only the new image), which creates ${
      sa ? `the ServiceAccount ${sa}` : "the CNI plugin's ServiceAccount"
    } and lets calico-node create serviceaccounts/token for it`,
  };
}

/**
 * Why the node's sandbox image is gone and cannot come back: the status the registry answered,
 * and the node's disk pressure (its kubelet reclaims space by removing unused images) before it.
 */
function sandboxImage(x: FindingContext): Vars {
  const status = x.f.groups['sandbox_status'];
  const node = x.vars['node'] ?? x.pod?.node ?? '';
  const pressure = x.model.events
    .filter(
      (e) =>
        e.object?.kind === 'node' &&
        e.object.name === node &&
        /DiskPressure|EvictionThresholdMet|FreeDiskSpaceFailed|ImageGCFailed/.test(
          `${e.reason ?? ''} ${e.message}`,
        ),
    )
    .sort((a, b) => (a.last ?? 0) - (b.last ?? 0))[0];
  const at = pressure?.last ?? pressure?.first;
  return {
    sandbox_pull_status: status ? `: the registry answers ${status}` : '',
    sandbox_gc: pressure
      ? `: the kubelet removed unused images to reclaim disk when ${node} had disk pressure${
          at ? ` at ${new Date(at).toISOString()}` : ''
        } ("${clip(pressure.message, 120)}"), and the sandbox image went with them`
      : ' (the kubelet removes unused images when the disk fills)',
  };
}

export const R30B_VARS: Record<string, (x: FindingContext) => Vars> = {
  runc_seccomp_filter_load_failed: seccompNode,
  calico_cni_unauthorized: calicoToken,
  sandbox_image_pull_failed: sandboxImage,
};
