import { buildTree, childKinds, NODE_ID_RE, suggestNodeId, type NodeLike } from './hierarchy-tree';

const n = (
  node_id: string,
  parent_id: string | null,
  kind: NodeLike['kind'],
  name = node_id,
): NodeLike => ({
  node_id,
  parent_id,
  kind,
  name,
});

describe('buildTree', () => {
  it('nests org → groups → teams, groups before teams, then by name', () => {
    const tree = buildTree([
      n('team-b', 'acme', 'team', 'Billing'),
      n('platform', 'acme', 'group', 'Platform'),
      n('team-a', 'platform', 'team', 'Alpha'),
      n('acme', null, 'org', 'Acme'),
      n('apps', 'acme', 'group', 'Apps'),
      n('other', null, 'org', 'Other'),
    ]);
    const show = (t: ReturnType<typeof buildTree>): unknown =>
      t.map((x) => (x.children.length ? [x.node.node_id, show(x.children)] : x.node.node_id));
    expect(show(tree)).toEqual([['acme', ['apps', ['platform', ['team-a']], 'team-b']], 'other']);
  });

  it('shows a node whose parent is missing as a root, and survives a cycle', () => {
    expect(buildTree([n('team-x', 'gone', 'team')]).map((t) => t.node.node_id)).toEqual(['team-x']);
    const cyc = buildTree([n('a', 'b', 'group'), n('b', 'a', 'group'), n('c', null, 'org')]);
    expect(cyc.map((t) => t.node.node_id)).toEqual(['c']);
  });
});

describe('childKinds / node ids', () => {
  it('an org has no parent, teams take no children', () => {
    expect(childKinds(undefined)).toEqual(['org']);
    expect(childKinds(n('acme', null, 'org'))).toEqual(['group', 'team']);
    expect(childKinds(n('t', 'acme', 'team'))).toEqual([]);
  });

  it('suggests ids the API accepts', () => {
    expect(suggestNodeId('Payments Team')).toBe('payments-team');
    expect(suggestNodeId('  Équipe -- SRE!  ')).toBe('equipe-sre');
    expect(NODE_ID_RE.test(suggestNodeId('Payments Team'))).toBe(true);
    expect(NODE_ID_RE.test('a')).toBe(false);
    expect(NODE_ID_RE.test('-ab')).toBe(false);
  });
});
