import { radialLayout, relationLabel, shortLabel, type GraphInput } from './graph-layout';

const dist = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.hypot(a.x - b.x, a.y - b.y);

const star: GraphInput = {
  entity: 'checkout',
  nodes: [
    { id: 'checkout', kind: 'service' },
    { id: 'payments', kind: 'service' },
    { id: 'postgres', kind: 'service' },
    { id: 'team-pay', kind: 'team' },
    { id: 'ana@example.com', kind: 'person' },
  ],
  edges: [
    { from: 'checkout', to: 'payments', relation: 'depends_on', weight: 1 },
    { from: 'checkout', to: 'postgres', relation: 'depends_on', weight: 1 },
    { from: 'checkout', to: 'team-pay', relation: 'owned_by', weight: 1 },
    { from: 'ana@example.com', to: 'checkout', relation: 'expert_in', weight: 2 },
  ],
};

describe('radialLayout', () => {
  it('puts the entity in the middle and its neighbours on one ring around it', () => {
    const l = radialLayout(star);
    const centre = l.nodes.find((n) => n.id === 'checkout')!;
    expect(centre).toMatchObject({ ring: 0, x: l.center.x, y: l.center.y });
    expect(l.center).toEqual({ x: l.size / 2, y: l.size / 2 });
    const others = l.nodes.filter((n) => n.id !== 'checkout');
    expect(others.map((n) => n.ring)).toEqual([1, 1, 1, 1]);
    for (const n of others) expect(dist(n, centre)).toBeCloseTo(l.radii[1]!, 0);
    // every node inside the drawing, with room for its label
    for (const n of l.nodes) {
      expect(n.x).toBeGreaterThanOrEqual(50);
      expect(n.y).toBeGreaterThanOrEqual(50);
      expect(n.x).toBeLessThanOrEqual(l.size - 50);
      expect(n.y).toBeLessThanOrEqual(l.size - 50);
    }
  });

  it('spreads a ring evenly, grouped by relation to the entity, starting at the top', () => {
    const l = radialLayout(star);
    const ring = l.nodes.filter((n) => n.ring === 1);
    // depends_on (payments, postgres), expert_in (ana), owned_by (team-pay)
    expect(ring.map((n) => n.id)).toEqual(['payments', 'postgres', 'ana@example.com', 'team-pay']);
    expect(ring[0]!.x).toBeCloseTo(l.center.x, 0);
    expect(ring[0]!.y).toBeLessThan(l.center.y);
    const gaps = ring.map((n, i) => dist(n, ring[(i + 1) % ring.length]!));
    for (const g of gaps) expect(g).toBeCloseTo(gaps[0]!, 0);
  });

  it('places second-degree nodes on an outer ring, next to the node they hang from', () => {
    const l = radialLayout({
      entity: 'a',
      nodes: [],
      edges: [
        { from: 'a', to: 'b', relation: 'depends_on', weight: 1 },
        { from: 'a', to: 'c', relation: 'depends_on', weight: 1 },
        { from: 'c', to: 'd', relation: 'depends_on', weight: 1 },
        { from: 'e', to: 'b', relation: 'related_to', weight: 1 },
      ],
    });
    const at = (id: string) => l.nodes.find((n) => n.id === id)!;
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => at(id).ring)).toEqual([0, 1, 1, 2, 2]);
    expect(l.radii[2]!).toBeGreaterThan(l.radii[1]!);
    // nodes missing from `nodes` but named by edges default to services
    expect(at('d').kind).toBe('service');
    // d hangs from c, e from b: each is nearer its parent than the other ring-1 node
    expect(dist(at('d'), at('c'))).toBeLessThan(dist(at('d'), at('b')));
    expect(dist(at('e'), at('b'))).toBeLessThan(dist(at('e'), at('c')));
  });

  it('puts nodes the entity cannot reach on an extra outer ring and draws an entity without edges', () => {
    const l = radialLayout({
      entity: 'lonely',
      nodes: [{ id: 'other', kind: 'team' }],
      edges: [],
    });
    expect(l.nodes.map((n) => [n.id, n.ring])).toEqual([
      ['lonely', 0],
      ['other', 1],
    ]);
    const alone = radialLayout({ entity: 'x', nodes: [], edges: [] });
    expect(alone.nodes).toEqual([
      expect.objectContaining({ id: 'x', ring: 0, x: alone.center.x, y: alone.center.y }),
    ]);
    expect(alone.edges).toEqual([]);
  });

  it('widens a crowded ring so neighbours keep their distance', () => {
    const many: GraphInput = {
      entity: 'hub',
      nodes: [],
      edges: Array.from({ length: 40 }, (_, i) => ({
        from: 'hub',
        to: `svc-${String(i).padStart(2, '0')}`,
        relation: 'related_to' as const,
        weight: 1,
      })),
    };
    const l = radialLayout(many, { minArc: 100, ringGap: 150 });
    expect(l.radii[1]!).toBeGreaterThan(150);
    const ring = l.nodes.filter((n) => n.ring === 1);
    expect(dist(ring[0]!, ring[1]!)).toBeGreaterThanOrEqual(99);
  });

  it('draws edges from rim to rim with the label on the edge, spoke labels away from the centre', () => {
    const l = radialLayout(star, { nodeRadius: 18 });
    const e = l.edges.find((x) => x.to === 'payments')!;
    const m = /^M([\d.]+),([\d.]+) L([\d.]+),([\d.]+)$/.exec(e.path);
    expect(m).not.toBeNull();
    const [x1, y1, x2, y2] = m!.slice(1).map(Number) as [number, number, number, number];
    const from = l.nodes.find((n) => n.id === 'checkout')!;
    const to = l.nodes.find((n) => n.id === 'payments')!;
    expect(dist({ x: x1, y: y1 }, from)).toBeCloseTo(18, 0);
    expect(dist({ x: x2, y: y2 }, to)).toBeCloseTo(22, 0);
    // on the segment, 60% of the way out from the centre
    expect(e.labelX).toBeCloseTo(x1 + 0.6 * (x2 - x1), 0);
    expect(e.labelY).toBeCloseTo(y1 + 0.6 * (y2 - y1), 0);
    // an edge pointing at the centre: still 60% out
    const inward = l.edges.find((x) => x.from === 'ana@example.com')!;
    const [a1, b1, a2, b2] = /^M([\d.]+),([\d.]+) L([\d.]+),([\d.]+)$/
      .exec(inward.path)!
      .slice(1)
      .map(Number) as [number, number, number, number];
    expect(inward.labelX).toBeCloseTo(a1 + 0.4 * (a2 - a1), 0);
    expect(inward.labelY).toBeCloseTo(b1 + 0.4 * (b2 - b1), 0);
    expect(new Set(l.edges.map((x) => x.key)).size).toBe(l.edges.length);
  });

  it('bends several edges between one pair apart so their labels do not overlap', () => {
    const l = radialLayout({
      entity: 'a',
      nodes: [],
      edges: [
        { from: 'a', to: 'b', relation: 'depends_on', weight: 1 },
        { from: 'b', to: 'a', relation: 'related_to', weight: 1 },
      ],
    });
    expect(l.edges.map((e) => e.path.includes(' Q'))).toEqual([true, true]);
    const [p, q] = l.edges as [(typeof l.edges)[0], (typeof l.edges)[0]];
    expect(dist({ x: p.labelX, y: p.labelY }, { x: q.labelX, y: q.labelY })).toBeGreaterThan(20);
  });

  it('is deterministic', () => {
    expect(radialLayout(star)).toEqual(radialLayout(structuredClone(star)));
  });
});

describe('labels', () => {
  it('shortens long ids and spells relations', () => {
    expect(shortLabel('short', 10)).toBe('short');
    expect(shortLabel('a-very-long-service-name', 10)).toBe('a-very-lo…');
    expect(shortLabel('a-very-long-service-name', 10)).toHaveLength(10);
    expect(relationLabel('depends_on')).toBe('depends on');
  });
});
