/**
 * (calls) The call budget goes to calls that can answer, on servers of many tools
 * (rohitg00/kubectl-mcp-server's shape), each with a near miss:
 * - a named object goes to no tool whose name fixes other kinds: a pod's name not to
 *   `node_logs`, a Deployment's not to `get_pod_events`, and no Deployment's name into the pod
 *   parameter of an events tool of no fixed kind (the pods' own names still go there);
 * - a tool with a kind parameter that analyses (`get_resource_recommendations`) or shows a
 *   product's view (`gitops_apps_list`) lists no objects of that kind (`kubectl_describe`'s kind
 *   parameter still serves any kind, and so does a plain getter of its own subject);
 * - `get_rollout` of a server bundling Argo Rollouts is no Deployment's rollout history
 *   (`rollout_history` still is);
 * - a product's own log tool (`vind_logs`) reads no pod's logs where the server has a pod log tool.
 */
import type { ToolDescriptor } from '../ports';
import {
  describePod,
  eventsTable,
  investigate,
  podsTable,
  str,
  table,
  type FakeTool,
} from './spec-world';
import { profileTool, servesKind } from './tool-profile';

const tool = (
  name: string,
  description: string,
  properties: Record<string, { type: string; description?: string }>,
  required: string[] = [],
): ToolDescriptor => ({
  fullName: `k8s:${name}`,
  server: 'k8s',
  name,
  description,
  parameters: { type: 'object', properties, required },
});

describe('(calls) tools picked for a kind', () => {
  it('an analysis or GitOps tool with a kind parameter lists no objects of that kind', () => {
    const recommendations = profileTool(
      tool(
        'get_resource_recommendations',
        'Analyze resource usage and provide optimization recommendations for pods/deployments.',
        {
          namespace: str,
          resource_type: { type: 'string', description: 'Type of resource to analyze' },
        },
      ),
    );
    const gitops = profileTool(
      tool('gitops_apps_list', 'List GitOps applications from Flux or Argo CD.', {
        namespace: str,
        kind: str,
      }),
    );
    expect(servesKind(recommendations, 'cronjob')).toBe(false);
    expect(servesKind(gitops, 'storageclass')).toBe(false);
  });

  it('near miss: a generic reader of any kind still serves every kind', () => {
    const describe = profileTool(
      tool(
        'kubectl_describe',
        'Describe a Kubernetes resource in detail.',
        { resource_type: str, name: str, namespace: str },
        ['resource_type', 'name'],
      ),
    );
    const byKind = profileTool(
      tool('kubectl_get_by_kind_in_cluster', 'Get resources of a kind in every namespace.', {
        kind: str,
      }),
    );
    const yaml = profileTool(
      tool('get_resources_yaml', 'Get the YAML of resources of a kind.', { kind: str, name: str }),
    );
    const policy = profileTool(
      tool('get_policy', 'Get detailed information about a policy.', {
        name: str,
        namespace: str,
        kind: str,
      }),
    );
    expect(servesKind(describe, 'cronjob')).toBe(true);
    expect(servesKind(byKind, 'cronjob')).toBe(true);
    expect(servesKind(yaml, 'cronjob')).toBe(true);
    expect(servesKind(policy, 'service')).toBe(true);
  });

  it("Argo's get_rollout is no rollout history; rollout_history still is", () => {
    const argo = profileTool(
      tool('get_rollout', 'Get detailed information about an Argo Rollout.', {
        name: str,
        namespace: str,
      }),
    );
    const history = profileTool(
      tool('rollout_history', 'Rollout history of a Deployment.', { name: str, namespace: str }),
    );
    const kubectlHistory = profileTool(
      tool('kubectl_rollout_history', 'Revisions of an Argo-free Deployment rollout.', {
        name: str,
        namespace: str,
      }),
    );
    expect(argo.verb).not.toBe('history');
    expect(history.verb).toBe('history');
    expect(kubectlHistory.verb).toBe('history');
  });
});

describe('(calls) names go to tools of their kind', () => {
  const ns = 'shop';
  const pod = 'orders-api-7c9d8f6b5-x2k9p';
  const node = 'worker-1';
  /** a crash-looping pod of Deployment orders-api, on a server of pod-level tools */
  const tools = (): FakeTool[] => [
    {
      name: 'get_pods',
      description: 'Get all pods in the specified namespace.',
      properties: { namespace: str },
      handler: () => podsTable([[pod, '0/1', 'CrashLoopBackOff', '6', '20m', node]]),
    },
    {
      name: 'get_deployments',
      description: 'Get all deployments in the specified namespace.',
      properties: { namespace: str },
      handler: () =>
        table(
          ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
          [['orders-api', '0/1', '1', '0', '30d']],
        ),
    },
    {
      name: 'get_events',
      description: 'Get events from the specified namespace.',
      properties: { namespace: str },
      handler: () =>
        eventsTable([
          [
            '1m',
            'Warning',
            'BackOff',
            `pod/${pod}`,
            'Back-off restarting failed container orders-api',
          ],
        ]),
    },
    {
      name: 'kubectl_describe',
      description: 'Describe a Kubernetes resource in detail.',
      properties: { resource_type: str, name: str, namespace: str },
      required: ['resource_type', 'name'],
      handler: (p) =>
        p['resource_type'] === 'pod' && p['name'] === pod
          ? describePod({
              name: pod,
              namespace: ns,
              node,
              controlledBy: 'ReplicaSet/orders-api-7c9d8f6b5',
              status: 'Running',
              container: {
                name: 'orders-api',
                image: 'shop/orders-api:2.1.0',
                state: ['Waiting', 'Reason: CrashLoopBackOff'],
                last: ['Terminated', 'Reason: Error', 'Exit Code: 1'],
                ready: false,
                restarts: 6,
              },
            })
          : `Error from server (NotFound): ${String(p['resource_type'])}s "${String(p['name'])}" not found`,
    },
    {
      name: 'get_pod_events',
      description: 'Get events for a specific pod.',
      properties: { pod_name: { type: 'string', description: 'Name of the pod' }, namespace: str },
      required: ['pod_name'],
      handler: (p) =>
        p['pod_name'] === pod
          ? { success: true, events: [] }
          : { success: false, error: `pods "${String(p['pod_name'])}" not found` },
    },
    {
      name: 'list_events',
      description: 'List events of a namespace, or of one pod.',
      properties: { namespace: str, pod_name: { type: 'string', description: 'Name of the pod' } },
      handler: (p) =>
        p['pod_name'] && p['pod_name'] !== pod
          ? { success: false, error: `pods "${String(p['pod_name'])}" not found` }
          : { success: true, events: [] },
    },
    {
      name: 'get_logs',
      description: 'Get logs from a pod.',
      properties: {
        pod_name: { type: 'string', description: 'Name of the pod' },
        namespace: str,
        tail: { type: 'integer' },
      },
      required: ['pod_name'],
      handler: () => ({ success: true, logs: '' }),
    },
    {
      name: 'node_logs',
      description: 'Get logs from a Kubernetes node via kubelet API proxy.',
      properties: {
        name: { type: 'string', description: 'Node name' },
        tail_lines: { type: 'integer' },
      },
      required: ['name'],
      handler: (p) => ({ success: false, error: `nodes "${String(p['name'])}" not found` }),
    },
    {
      name: 'vind_logs',
      description: 'Get logs of a vind (vCluster in Docker) cluster.',
      properties: { name: str, namespace: str, tail: { type: 'integer' } },
      required: ['name'],
      handler: () => ({ success: false, error: 'vcluster not found' }),
    },
  ];

  it('no pod-level call takes a Deployment, a node or a pod name where it does not belong', async () => {
    const { gateway } = await investigate(
      tools(),
      `orders-api in namespace ${ns} keeps restarting`,
      {
        namespace: ns,
      },
    );
    const calls = gateway.calls;
    const podEvents = calls.filter((c) => c.tool === 'k8s:get_pod_events');
    const podOf = (c: { params: Record<string, unknown> }) => c.params['pod_name'];
    expect(
      calls.filter(
        (c) => c.tool === 'k8s:list_events' && podOf(c) !== undefined && podOf(c) !== pod,
      ),
    ).toEqual([]);
    expect(podEvents.map((c) => c.params['pod_name']).filter((n) => n !== pod)).toEqual([]);
    expect(calls.filter((c) => c.tool === 'k8s:node_logs' && c.params['name'] === pod)).toEqual([]);
    expect(calls.filter((c) => c.tool === 'k8s:vind_logs')).toEqual([]);
    // near miss: the pod's own name still goes to the pod-level tools
    expect(podEvents.some((c) => c.params['pod_name'] === pod)).toBe(true);
    expect(calls.some((c) => c.tool === 'k8s:get_logs' && c.params['pod_name'] === pod)).toBe(true);
  });
});
