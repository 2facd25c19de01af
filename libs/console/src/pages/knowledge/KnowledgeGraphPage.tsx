import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isInquestError } from '@inquest/client';
import { useLocation, useSearch } from 'wouter';
import { useClient } from '../../api/client';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { GraphPicture } from './GraphPicture';
import { KnowledgeNav } from './KnowledgeNav';
import { useTeamKey, useTeamReady } from './team-scope';
import { relationLabel } from './graph-layout';
import './knowledge.css';

function params(search: string): { entity?: string; depth: number } {
  const p = new URLSearchParams(search);
  const entity = p.get('entity')?.trim() || undefined;
  const depth = Number(p.get('depth'));
  return { ...(entity ? { entity } : {}), depth: depth >= 1 && depth <= 3 ? Math.floor(depth) : 1 };
}

export default function KnowledgeGraphPage() {
  const client = useClient();
  const team = useTeamKey();
  const ready = useTeamReady();
  const search = useSearch();
  const [, navigate] = useLocation();
  const current = params(search);
  const [entity, setEntity] = useState(current.entity ?? '');
  const [depth, setDepth] = useState(String(current.depth));
  useEffect(() => {
    const c = params(search);
    setEntity(c.entity ?? '');
    setDepth(String(c.depth));
  }, [search]);

  const graph = useQuery({
    queryKey: ['kb', team, 'graph', current.entity, current.depth],
    queryFn: ({ signal }) => client.kb.graph(current.entity!, { depth: current.depth }, { signal }),
    enabled: !!current.entity && ready,
    retry: false,
  });

  const show = (e: string, d: number | string) =>
    navigate(`/knowledge/graph?${new URLSearchParams({ entity: e, depth: String(d) }).toString()}`);
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    if (entity.trim()) show(entity.trim().toLowerCase(), depth);
  };
  const notInGraph = graph.isError && isInquestError(graph.error) && graph.error.status === 404;

  return (
    <Page title="Knowledge graph">
      <KnowledgeNav />
      <RequireTeam>
        <form className="card kb-form" onSubmit={submit}>
          <div className="kb-form-row">
            <Field label="Entity" hint="A service, team or person, e.g. checkout">
              <input
                value={entity}
                required
                maxLength={200}
                onChange={(e) => setEntity(e.target.value)}
              />
            </Field>
            <Field label="Depth" hint="How many hops from the entity">
              <select value={depth} onChange={(e) => setDepth(e.target.value)}>
                <option value="1">1</option>
                <option value="2">2</option>
                <option value="3">3</option>
              </select>
            </Field>
          </div>
          <div className="row">
            <button type="submit" className="primary">
              Show graph
            </button>
          </div>
        </form>
        {!current.entity ? (
          <Empty title="Name an entity to see its neighbourhood">
            <p>
              Entities come from taught knowledge (its service, “Dependencies:”, “Owner:” and
              “Experts:” lines) and from completed investigations (affected systems).
            </p>
          </Empty>
        ) : graph.isPending ? (
          <Loading label="Loading the graph…" />
        ) : notInGraph ? (
          <Empty title={`“${current.entity}” is not in the knowledge graph`}>
            <p>Check the spelling (entities are lower case) or teach something about it.</p>
          </Empty>
        ) : graph.isError ? (
          <ErrorView error={graph.error} onRetry={() => void graph.refetch()} />
        ) : (
          <div className="kb-graph-wrap">
            <figure className="card kb-graph-figure">
              <GraphPicture graph={graph.data} onSelect={(id) => show(id, current.depth)} />
              <figcaption className="kb-legend">
                <span className="kb-legend-item kb-node-service">
                  <svg viewBox="0 0 10 10" aria-hidden="true">
                    <circle cx="5" cy="5" r="4" />
                  </svg>
                  service
                </span>
                <span className="kb-legend-item kb-node-team">
                  <svg viewBox="0 0 10 10" aria-hidden="true">
                    <circle cx="5" cy="5" r="4" />
                  </svg>
                  team
                </span>
                <span className="kb-legend-item kb-node-person">
                  <svg viewBox="0 0 10 10" aria-hidden="true">
                    <circle cx="5" cy="5" r="4" />
                  </svg>
                  person
                </span>
                <span className="muted">Click a node to centre on it.</span>
              </figcaption>
            </figure>
            <section className="card kb-card" aria-labelledby="kb-relations-title">
              <h2 id="kb-relations-title">Relations</h2>
              {graph.data.edges.length === 0 ? (
                <p className="muted">{graph.data.entity} has no relations yet.</p>
              ) : (
                <div className="table-wrap">
                  <table className="data-table">
                    <caption className="sr-only">Relations around {graph.data.entity}</caption>
                    <thead>
                      <tr>
                        <th scope="col">From</th>
                        <th scope="col">Relation</th>
                        <th scope="col">To</th>
                      </tr>
                    </thead>
                    <tbody>
                      {graph.data.edges.map((e, i) => (
                        <tr key={`${e.from}-${e.relation}-${e.to}-${i}`}>
                          {[e.from, relationLabel(e.relation), e.to].map((v, j) =>
                            j === 1 ? (
                              <td key={j}>{v}</td>
                            ) : (
                              <td key={j}>
                                {v === graph.data.entity ? (
                                  <strong>{v}</strong>
                                ) : (
                                  <button
                                    type="button"
                                    className="ghost kb-link-button"
                                    aria-label={`Centre the graph on ${v}`}
                                    onClick={() => show(v, current.depth)}
                                  >
                                    {v}
                                  </button>
                                )}
                              </td>
                            ),
                          )}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          </div>
        )}
      </RequireTeam>
    </Page>
  );
}
