// The hierarchy as a tree (org → groups → teams) from the flat node list of GET /admin/nodes.

export interface NodeLike {
  node_id: string;
  parent_id: string | null;
  kind: 'org' | 'group' | 'team';
  name: string;
}

export interface TreeNode<N extends NodeLike = NodeLike> {
  node: N;
  children: TreeNode<N>[];
}

const KIND_ORDER = { org: 0, group: 1, team: 2 } as const;

/**
 * Roots (nodes without a parent, or whose parent is not in the list) with their descendants;
 * siblings sorted groups before teams, then by name. A cycle in bad data cannot loop: each node
 * is placed once.
 */
export function buildTree<N extends NodeLike>(nodes: N[]): TreeNode<N>[] {
  const byId = new Map(nodes.map((n) => [n.node_id, n]));
  const children = new Map<string, N[]>();
  const roots: N[] = [];
  for (const n of nodes) {
    if (n.parent_id && byId.has(n.parent_id) && n.parent_id !== n.node_id) {
      children.set(n.parent_id, [...(children.get(n.parent_id) ?? []), n]);
    } else roots.push(n);
  }
  const sort = (list: N[]) =>
    [...list].sort(
      (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.name.localeCompare(b.name),
    );
  const placed = new Set<string>();
  const build = (n: N): TreeNode<N> => {
    placed.add(n.node_id);
    return {
      node: n,
      children: sort(children.get(n.node_id) ?? [])
        .filter((c) => !placed.has(c.node_id))
        .map(build),
    };
  };
  return sort(roots).map(build);
}

/** Which kinds a new node under `parent` may have: an org has no parent, teams have no children. */
export function childKinds(parent: NodeLike | undefined): ('org' | 'group' | 'team')[] {
  if (!parent) return ['org'];
  if (parent.kind === 'team') return [];
  return ['group', 'team'];
}

/** The node id rule of the API (`^[a-z0-9][a-z0-9-]{1,62}$`), checked before sending. */
export const NODE_ID_RE = /^[a-z0-9][a-z0-9-]{1,62}$/;

/** A node id suggestion from a display name: "Payments Team" → "payments-team". */
export function suggestNodeId(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
}
