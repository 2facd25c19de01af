import type { GraphEdgeRecord } from '@inquest/store';
import { GraphQueries } from './graph-queries';

const edge = (from: string, relation: string, to: string, weight = 1): GraphEdgeRecord => ({
  from,
  from_kind: relation === 'expert_in' ? 'person' : 'service',
  to,
  to_kind: 'service',
  relation,
  weight,
});

function graphOf(edges: GraphEdgeRecord[]) {
  return new GraphQueries({
    store: {
      edgesAround: async (_team, entity) =>
        edges.filter((e) => e.from === entity || e.to === entity),
    },
  });
}

describe('GraphQueries', () => {
  const edges = [
    edge('checkout', 'depends_on', 'payments'),
    edge('payments', 'depends_on', 'ledger'),
    edge('ledger', 'depends_on', 'postgres'),
    edge('search', 'related_to', 'checkout'),
    edge('alice', 'expert_in', 'checkout', 3),
    edge('Bob', 'expert_in', 'checkout', 1),
  ];
  const g = graphOf(edges);

  it('walks as many hops as asked (1 to 3), from a trimmed lower-case entity', async () => {
    const one = await g.graph('t', ' Checkout ', 1);
    expect(one.entity).toBe('checkout');
    expect(one.nodes.map((n) => n.id).sort()).toEqual(
      ['Bob', 'alice', 'checkout', 'payments', 'search'].sort(),
    );
    const two = await g.graph('t', 'checkout', 2);
    expect(two.nodes.map((n) => n.id)).toContain('ledger');
    expect(two.nodes.map((n) => n.id)).not.toContain('postgres');
    // depth is capped at 3
    expect((await g.graph('t', 'checkout', 9)).nodes.map((n) => n.id)).toContain('postgres');
    expect(one.nodes.find((n) => n.id === 'alice')?.kind).toBe('person');
  });

  it('refuses an empty entity and does not find an unknown one', async () => {
    await expect(g.graph('t', '  ')).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(g.graph('t', 'nowhere')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('names the neighbours of a service in both directions, not its experts', async () => {
    expect([...(await g.neighbours('t', 'checkout'))].sort()).toEqual(['payments', 'search']);
  });

  it('names the experts of a service by lower-case name with their weight', async () => {
    expect(await g.experts('t', 'checkout')).toEqual(
      new Map([
        ['alice', 3],
        ['bob', 1],
      ]),
    );
  });
});
