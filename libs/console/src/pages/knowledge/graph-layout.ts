// Radial layout of a knowledge-graph neighbourhood: the entity in the middle, nodes on rings by
// their (undirected) distance from it. No physics: deterministic, so the picture is the same on
// every load and a test can pin it.

export type GraphNodeKind = 'service' | 'team' | 'person';
export type GraphRelation = 'depends_on' | 'owned_by' | 'expert_in' | 'related_to';

export interface GraphInput {
  entity: string;
  nodes: { id: string; kind: GraphNodeKind }[];
  edges: { from: string; to: string; relation: GraphRelation; weight: number }[];
}

export interface PlacedNode {
  id: string;
  kind: GraphNodeKind;
  /** 0 for the entity, 1 for its neighbours, ... */
  ring: number;
  x: number;
  y: number;
  /** The label as drawn (long ids are shortened; the full id goes in a tooltip). */
  label: string;
}

export interface PlacedEdge {
  key: string;
  from: string;
  to: string;
  relation: GraphRelation;
  weight: number;
  /** SVG path from the rim of `from` to the rim of `to` (straight, or bent when a pair has several edges). */
  path: string;
  labelX: number;
  labelY: number;
}

export interface GraphLayout {
  /** The drawing spans [0, size] in both axes (use it as the SVG viewBox). */
  size: number;
  center: { x: number; y: number };
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  /** Ring radii, index = ring number (0 for the centre). */
  radii: number[];
}

export interface LayoutOptions {
  /** Radius of a node's circle. */
  nodeRadius?: number;
  /** Minimum distance between consecutive rings. */
  ringGap?: number;
  /** Minimum arc length between neighbours on one ring (room for their labels). */
  minArc?: number;
  /** Space around the outermost ring for labels. */
  margin?: number;
  /** Labels longer than this are shortened with an ellipsis. */
  maxLabel?: number;
}

const DEFAULTS: Required<LayoutOptions> = {
  nodeRadius: 18,
  ringGap: 130,
  minArc: 120,
  margin: 80,
  maxLabel: 22,
};

const round = (n: number): number => Math.round(n * 10) / 10;

/** Shortens `s` to `max` characters, the last one an ellipsis. */
export function shortLabel(s: string, max: number): string {
  if (s.length <= max) return s;
  return `${s.slice(0, max - 1)}…`;
}

/**
 * Places the entity at the centre and every other node on the ring of its distance from it
 * (edges count in both directions). Ring 1 is ordered by relation then id, so neighbours of one
 * kind of relation sit together; outer rings follow the angle of the inner neighbour they hang
 * from. Nodes the entity cannot reach go on one extra outer ring. A ring grows beyond the
 * minimum gap when its nodes need more room.
 */
export function radialLayout(graph: GraphInput, options: LayoutOptions = {}): GraphLayout {
  const o = { ...DEFAULTS, ...options };
  const kinds = new Map<string, GraphNodeKind>();
  for (const n of graph.nodes) kinds.set(n.id, n.kind);
  if (!kinds.has(graph.entity)) kinds.set(graph.entity, 'service');
  for (const e of graph.edges) {
    if (!kinds.has(e.from)) kinds.set(e.from, 'service');
    if (!kinds.has(e.to)) kinds.set(e.to, 'service');
  }

  const adjacent = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    if (a === b) return;
    if (!adjacent.has(a)) adjacent.set(a, new Set());
    adjacent.get(a)!.add(b);
  };
  for (const e of graph.edges) {
    link(e.from, e.to);
    link(e.to, e.from);
  }

  // Breadth-first distances from the entity.
  const ring = new Map<string, number>([[graph.entity, 0]]);
  const queue = [graph.entity];
  while (queue.length) {
    const cur = queue.shift()!;
    for (const next of [...(adjacent.get(cur) ?? [])].sort()) {
      if (!ring.has(next)) {
        ring.set(next, ring.get(cur)! + 1);
        queue.push(next);
      }
    }
  }
  const reachedMax = Math.max(0, ...ring.values());
  for (const id of kinds.keys()) if (!ring.has(id)) ring.set(id, reachedMax + 1);
  const ringCount = Math.max(...ring.values());

  const byRing: string[][] = Array.from({ length: ringCount + 1 }, () => []);
  for (const [id, r] of ring) byRing[r]!.push(id);

  // The relation that ties a ring-1 node to the entity, for grouping.
  const relationToCentre = (id: string): string =>
    graph.edges
      .filter(
        (e) => (e.from === graph.entity && e.to === id) || (e.to === graph.entity && e.from === id),
      )
      .map((e) => e.relation)
      .sort()[0] ?? '~';

  const angle = new Map<string, number>([[graph.entity, 0]]);
  const radii: number[] = [0];
  for (let r = 1; r <= ringCount; r++) {
    const ids = byRing[r]!;
    if (r === 1) {
      ids.sort((a, b) => relationToCentre(a).localeCompare(relationToCentre(b)) || cmp(a, b));
    } else {
      const parentAngle = (id: string): number => {
        const inner = [...(adjacent.get(id) ?? [])].filter((n) => ring.get(n) === r - 1);
        if (!inner.length) return Number.POSITIVE_INFINITY;
        return Math.min(...inner.map((n) => angle.get(n) ?? 0));
      };
      ids.sort((a, b) => parentAngle(a) - parentAngle(b) || cmp(a, b));
    }
    const needed = (ids.length * o.minArc) / (2 * Math.PI);
    radii[r] = Math.max(radii[r - 1]! + o.ringGap, needed);
    ids.forEach((id, i) => {
      // Start at the top and go clockwise; a ring of one node sits above the centre.
      angle.set(id, (2 * Math.PI * i) / ids.length);
    });
  }

  const outer = radii[ringCount] ?? 0;
  const half = outer + o.margin;
  const size = round(2 * half);
  const center = { x: round(half), y: round(half) };

  const pos = new Map<string, { x: number; y: number }>();
  const nodes: PlacedNode[] = [];
  for (let r = 0; r <= ringCount; r++) {
    for (const id of byRing[r]!) {
      const a = angle.get(id)! - Math.PI / 2;
      const rad = radii[r]!;
      const p = { x: round(center.x + rad * Math.cos(a)), y: round(center.y + rad * Math.sin(a)) };
      pos.set(id, p);
      nodes.push({ id, kind: kinds.get(id)!, ring: r, ...p, label: shortLabel(id, o.maxLabel) });
    }
  }

  // Several edges between one pair (both directions, or several relations) bend apart so their
  // labels do not sit on top of each other.
  const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);
  const pairs = new Map<string, number>();
  for (const e of graph.edges)
    pairs.set(pairKey(e.from, e.to), (pairs.get(pairKey(e.from, e.to)) ?? 0) + 1);
  const seen = new Map<string, number>();
  const edges: PlacedEdge[] = [];
  for (const e of graph.edges) {
    if (e.from === e.to) continue;
    const pk = pairKey(e.from, e.to);
    const count = pairs.get(pk)!;
    const index = seen.get(pk) ?? 0;
    seen.set(pk, index + 1);
    const a = pos.get(e.from)!;
    const b = pos.get(e.to)!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    // Perpendicular offset, measured in a direction fixed for the pair (not for the edge), so
    // a→b and b→a bend to opposite sides.
    const [p, q] = e.from < e.to ? [a, b] : [b, a];
    const nx = -(q.y - p.y) / len;
    const ny = (q.x - p.x) / len;
    const bend = (index - (count - 1) / 2) * 36;
    const mx = (a.x + b.x) / 2 + nx * bend;
    const my = (a.y + b.y) / 2 + ny * bend;
    // Start and end on the rims of the circles, aimed at the control point.
    const rim = (from: { x: number; y: number }, toward: { x: number; y: number }, d: number) => {
      const l = Math.hypot(toward.x - from.x, toward.y - from.y) || 1;
      return {
        x: round(from.x + ((toward.x - from.x) / l) * d),
        y: round(from.y + ((toward.y - from.y) / l) * d),
      };
    };
    const start = rim(a, { x: mx, y: my }, o.nodeRadius);
    const end = rim(b, { x: mx, y: my }, o.nodeRadius + 4);
    const path =
      bend === 0
        ? `M${start.x},${start.y} L${end.x},${end.y}`
        : `M${start.x},${start.y} Q${round(mx)},${round(my)} ${end.x},${end.y}`;
    // The label sits on the curve (for a quadratic curve at t: (1-t)² start + 2t(1-t) control +
    // t² end): at the middle, except on spokes from the centre, where the labels of all spokes
    // would crowd around the entity: there it sits further out.
    const ringOf = (id: string) => ring.get(id) ?? 0;
    const t =
      ringOf(e.from) === 0 && ringOf(e.to) > 0
        ? 0.6
        : ringOf(e.to) === 0 && ringOf(e.from) > 0
          ? 0.4
          : 0.5;
    const c =
      bend === 0 ? { x: (start.x + end.x) / 2, y: (start.y + end.y) / 2 } : { x: mx, y: my };
    const labelX = (1 - t) ** 2 * start.x + 2 * t * (1 - t) * c.x + t ** 2 * end.x;
    const labelY = (1 - t) ** 2 * start.y + 2 * t * (1 - t) * c.y + t ** 2 * end.y;
    edges.push({
      key: `${e.from}|${e.relation}|${e.to}|${index}`,
      from: e.from,
      to: e.to,
      relation: e.relation,
      weight: e.weight,
      path,
      labelX: round(labelX),
      labelY: round(labelY),
    });
  }
  return { size, center, nodes, edges, radii };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** "depends_on" → "depends on". */
export function relationLabel(r: GraphRelation): string {
  return r.replace(/_/g, ' ');
}
