/**
 * containerd refusing a pod's sandbox because it still holds the sandbox's name (the catalog's
 * `sandbox_name_reserved`): after an unclean restart of containerd or of the node, the kubelet's
 * every retry is answered "failed to reserve sandbox name ...: name ... is reserved for ..."
 * (containerd/cri#1014), and the pod stays ContainerCreating while new pods start on that node.
 * Near miss: a sandbox that only timed out (context deadline exceeded) is not that.
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
  type ApiWorld,
} from './spec-world';

const ns = 'wiki';
const pod = 'wiki-5f7c9d8b6-dvb9n';
const sandbox = `${pod}_${ns}_5cea637d-23de-0868-7237-dccb3432c77a_1`;
const reserved = `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to reserve sandbox name "${sandbox}": name "${sandbox}" is reserved for "54a5029452ebb254f70f87e631e17af1"`;
const timedOut =
  'Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded';

function world(message: string): ApiWorld {
  return {
    objects: [
      namespaceObj(ns),
      deploymentObj('wiki', ns, ['ghcr.io/requarks/wiki:2.5'], 1, 0),
      podObj({
        name: pod,
        ns,
        labels: { app: 'wiki', 'pod-template-hash': '5f7c9d8b6' },
        owner: { kind: 'ReplicaSet', name: 'wiki-5f7c9d8b6' },
        created: 55,
        node: 'k8s02',
        boxes: [
          {
            name: 'wiki',
            image: 'ghcr.io/requarks/wiki:2.5',
            ready: false,
            state: { waiting: { reason: 'ContainerCreating' } },
          },
        ],
      }),
    ],
    events: [
      warningEvent(ns, { kind: 'Pod', name: pod }, 'FailedCreatePodSandBox', message, 50, 1, 220),
    ],
  };
}

const ask = 'Deployment wiki/wiki has not matched the expected number of replicas for 15 minutes.';

describe('a sandbox name containerd still holds', () => {
  it('names the container runtime on the node and the reserved name; a sandbox that only timed out is not that', async () => {
    const a = answerOf((await investigateAt(apiTools(world(reserved)), ask, NOW, ns)).result);
    expect(a).toContain('the container runtime (containerd) on k8s02');
    expect(a).toContain('failed to reserve sandbox name');
    const b = answerOf((await investigateAt(apiTools(world(timedOut)), ask, NOW, ns)).result);
    expect(b).not.toContain('still holds that sandbox name');
  });
});
