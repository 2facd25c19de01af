import { notFound, validationError } from '@inquest/errors';
import type { KnowledgeStore } from '@inquest/store';

export interface GraphQueriesDeps {
  store: Pick<KnowledgeStore, 'edgesAround'>;
}

/** Reads of a team's knowledge graph (services, people, and how they relate). */
export class GraphQueries {
  constructor(private readonly deps: GraphQueriesDeps) {}

  /** The entity and what is reachable from it in up to `depth` (1..3) hops. */
  async graph(teamId: string, entity: string, depth = 1) {
    const start = entity?.trim().toLowerCase();
    if (!start) throw validationError([{ field: 'entity', error: 'is required' }]);
    const d = Math.min(Math.max(depth || 1, 1), 3);
    const nodes = new Map<string, string>();
    const edges = new Map<string, { from: string; to: string; relation: string; weight: number }>();
    let frontier = [start];
    for (let level = 0; level < d && frontier.length; level++) {
      const next: string[] = [];
      for (const n of frontier) {
        for (const e of await this.deps.store.edgesAround(teamId, n)) {
          edges.set(`${e.from}|${e.to}|${e.relation}`, {
            from: e.from,
            to: e.to,
            relation: e.relation,
            weight: e.weight,
          });
          for (const [nid, kind] of [
            [e.from, e.from_kind],
            [e.to, e.to_kind],
          ] as const) {
            if (!nodes.has(nid)) {
              nodes.set(nid, kind);
              if (nid !== n) next.push(nid);
            }
          }
        }
      }
      frontier = next;
    }
    if (!nodes.size) throw notFound(`entity ${entity} is not in the knowledge graph`);
    return {
      entity: start,
      nodes: [...nodes].map(([id, kind]) => ({ id, kind })),
      edges: [...edges.values()],
    };
  }

  /** Services that depend on or relate to `service` (either direction). */
  async neighbours(teamId: string, service: string): Promise<Set<string>> {
    const edges = await this.deps.store.edgesAround(teamId, service);
    const out = new Set<string>();
    for (const e of edges) {
      if (e.relation !== 'depends_on' && e.relation !== 'related_to') continue;
      out.add(e.from === service ? e.to : e.from);
    }
    return out;
  }

  /** People expert in `service`, by lower-case name, with their edge weight. */
  async experts(teamId: string, service: string): Promise<Map<string, number>> {
    const edges = await this.deps.store.edgesAround(teamId, service);
    return new Map(
      edges
        .filter((e) => e.relation === 'expert_in' && e.to === service)
        .map((e) => [e.from.toLowerCase(), e.weight]),
    );
  }
}
