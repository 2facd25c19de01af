import { useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client';
import { Badge } from '../../components/Badge';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { Time } from '../../components/Time';
import { KnowledgeNav } from './KnowledgeNav';
import { useTeamKey, useTeamReady } from './team-scope';
import { percent, snippet } from './knowledge-text';
import './knowledge.css';

interface Filter {
  query?: string;
  service?: string;
  limit: number;
}

export default function KnowledgePatternsPage() {
  const client = useClient();
  const team = useTeamKey();
  const ready = useTeamReady();
  const [filter, setFilter] = useState<Filter>({ limit: 20 });
  const [query, setQuery] = useState('');
  const [service, setService] = useState('');
  const [limit, setLimit] = useState('20');
  const patterns = useQuery({
    queryKey: ['kb', team, 'patterns', filter],
    queryFn: ({ signal }) => client.kb.patterns(filter, { signal }),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFilter({
      limit: Number(limit) || 20,
      ...(query.trim() ? { query: query.trim() } : {}),
      ...(service.trim() ? { service: service.trim() } : {}),
    });
  };
  return (
    <Page title="Learned patterns">
      <KnowledgeNav />
      <RequireTeam>
        <p className="muted">
          Failures that completed investigations found, with what fixed them. Confidence grows each
          time one recurs.
        </p>
        <form className="card kb-form" aria-label="Filter patterns" onSubmit={submit}>
          <div className="kb-form-row">
            <Field label="Match symptoms" hint="Optional: rank by match with this text">
              <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
            </Field>
            <Field label="Service" hint="Optional">
              <input value={service} onChange={(e) => setService(e.target.value)} />
            </Field>
            <Field label="Show">
              <select value={limit} onChange={(e) => setLimit(e.target.value)}>
                <option value="20">20</option>
                <option value="50">50</option>
                <option value="100">100</option>
              </select>
            </Field>
          </div>
          <div className="row">
            <button type="submit" className="primary">
              Apply
            </button>
          </div>
        </form>
        {patterns.isPending ? (
          <Loading />
        ) : patterns.isError ? (
          <ErrorView error={patterns.error} onRetry={() => void patterns.refetch()} />
        ) : patterns.data.patterns.length === 0 ? (
          <Empty title="No learned patterns yet">
            <p>They appear after investigations complete with a root cause.</p>
          </Empty>
        ) : (
          <ul className="kb-patterns" aria-label="Patterns">
            {patterns.data.patterns.map((p) => (
              <li key={p.pattern_id} className="card">
                <h2 className="kb-pattern-title">{snippet(p.root_cause, 160)}</h2>
                {snippet(p.root_cause, 160).length < p.root_cause.trim().length ? (
                  <details>
                    <summary>Full root cause</summary>
                    <p className="kb-pre">{p.root_cause}</p>
                  </details>
                ) : null}
                <div className="row kb-meta">
                  <Badge
                    tone={
                      p.confidence >= 0.7 ? 'success' : p.confidence >= 0.4 ? 'info' : 'neutral'
                    }
                  >
                    confidence {percent(p.confidence)}
                  </Badge>
                  <span>
                    seen {p.occurrences} time{p.occurrences === 1 ? '' : 's'}
                  </span>
                  {p.service ? <span>service {p.service}</span> : null}
                </div>
                <meter
                  className="kb-meter"
                  min={0}
                  max={1}
                  value={p.confidence}
                  aria-label={`Confidence of ${snippet(p.root_cause, 80)}`}
                >
                  {percent(p.confidence)}
                </meter>
                <h3>Symptoms</h3>
                <ul className="kb-chips">
                  {p.symptoms.map((s) => (
                    <li key={s}>{s}</li>
                  ))}
                </ul>
                <h3>Solution</h3>
                <p className="kb-pre">{p.solution || '—'}</p>
                <p className="muted">
                  First seen <Time value={p.first_seen_at} /> · last seen{' '}
                  <Time value={p.last_seen_at} />
                </p>
              </li>
            ))}
          </ul>
        )}
      </RequireTeam>
    </Page>
  );
}
