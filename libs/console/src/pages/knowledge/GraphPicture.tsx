import { useMemo } from 'react';
import type { GraphResponse } from '@inquest/client';
import { radialLayout, relationLabel } from './graph-layout';

/**
 * The neighbourhood of an entity as an SVG: the entity in the middle, neighbours on rings, each
 * edge an arrow with its relation written on it. The picture is a role="img" with a summary; the
 * relations table beside it carries the same facts for keyboards and screen readers. Clicking a
 * node re-centres the picture on it.
 */
export function GraphPicture(props: { graph: GraphResponse; onSelect(id: string): void }) {
  const layout = useMemo(() => radialLayout(props.graph), [props.graph]);
  const { graph } = props;
  const summary = `Knowledge graph around ${graph.entity}: ${layout.nodes.length - 1} neighbour${
    layout.nodes.length === 2 ? '' : 's'
  }, ${layout.edges.length} relation${layout.edges.length === 1 ? '' : 's'}`;
  return (
    <svg
      className="kb-graph"
      viewBox={`0 0 ${layout.size} ${layout.size}`}
      role="img"
      aria-label={summary}
      preserveAspectRatio="xMidYMid meet"
    >
      <defs>
        <marker
          id="kb-arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M0,0 L10,5 L0,10 z" className="kb-arrow-head" />
        </marker>
      </defs>
      {layout.radii.slice(1).map((r, i) => (
        <circle key={i} cx={layout.center.x} cy={layout.center.y} r={r} className="kb-ring" />
      ))}
      {layout.edges.map((e) => (
        <g key={e.key} className={`kb-edge kb-edge-${e.relation}`}>
          <path d={e.path} markerEnd="url(#kb-arrow)" />
          <text x={e.labelX} y={e.labelY} textAnchor="middle" dominantBaseline="middle">
            {relationLabel(e.relation)}
          </text>
        </g>
      ))}
      {layout.nodes.map((n) => (
        <g
          key={n.id}
          className={`kb-node kb-node-${n.kind}${n.ring === 0 ? ' kb-node-centre' : ''}`}
          transform={`translate(${n.x} ${n.y})`}
          onClick={() => props.onSelect(n.id)}
        >
          <title>{`${n.id} (${n.kind})`}</title>
          <circle r={n.ring === 0 ? 24 : 18} />
          <text className="kb-node-icon" textAnchor="middle" dominantBaseline="central">
            {n.kind === 'service' ? 'S' : n.kind === 'team' ? 'T' : 'P'}
          </text>
          <text className="kb-node-label" y={n.ring === 0 ? 40 : 34} textAnchor="middle">
            {n.label}
          </text>
        </g>
      ))}
    </svg>
  );
}
