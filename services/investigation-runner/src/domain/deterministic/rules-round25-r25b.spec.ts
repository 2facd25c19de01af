/**
 * Round25 (r25b): "which nodes are the X pods on? are any two on the same node?" (placement): each
 * pod's node and which replicas share a node (draining it takes them out together); "before I
 * cordon nodes" names no node called "cordon". Near miss: replicas on distinct nodes share none.
 */
import { scopeIncident } from './scope';
import { NOW, apiTools, deploymentObj, investigateAt, namespaceObj, podObj } from './spec-world';

const ns = 'shop';
const pod = (suffix: string, node: string) =>
  podObj({
    name: `search-api-5d8f7c6b9-${suffix}`,
    ns,
    labels: { app: 'search-api' },
    owner: { kind: 'ReplicaSet', name: 'search-api-5d8f7c6b9' },
    boxes: [{ name: 'search-api', image: 'registry.example.com/search-api:2.0.1' }],
    node,
  });
const ASK =
  'before I cordon nodes for the kernel patch: which nodes are the search-api pods on? are any two on the same node?';

describe('round25 question (r25b): which nodes the pods of a workload run on', () => {
  it('is a placement question; "cordon nodes" names no node', () => {
    const scope = scopeIncident(ASK, { namespace: ns }, NOW);
    expect(scope.question?.type).toBe('placement');
    expect(scope.subjects.some((s) => s.name === 'cordon')).toBe(false);
  });

  it('says which replicas share a node; replicas on distinct nodes share none', async () => {
    const world = (nodes: string[]) =>
      apiTools({
        objects: [
          namespaceObj(ns),
          deploymentObj('search-api', ns, ['registry.example.com/search-api:2.0.1'], 3, 3),
          ...nodes.map((n, i) => pod(['a1b2c', 'd3e4f', 'g5h6j'][i]!, n)),
        ],
      });
    const shared = await investigateAt(world(['node-a', 'node-b', 'node-a']), ASK, NOW, ns);
    expect(shared.text).toContain(
      'search-api-5d8f7c6b9-a1b2c and search-api-5d8f7c6b9-g5h6j share node node-a',
    );
    const apart = await investigateAt(world(['node-a', 'node-b', 'node-c']), ASK, NOW, ns);
    expect(apart.text).toContain('no two of them share a node');
    expect(apart.text).not.toMatch(/share node/);
  });
});
