import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { RetrieveResult } from '@inquest/client';
import { Link, useLocation, useSearch } from 'wouter';
import { useClient } from '../../api/client';
import { Badge } from '../../components/Badge';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { KnowledgeNav } from './KnowledgeNav';
import { READ_ONLY_NOTE, useCanWrite, useTeamKey, useTeamReady } from './team-scope';
import { markTerms, snippet } from './knowledge-text';
import { searchFromUrl, searchUrl, type Strategy } from './search-params';
import './knowledge.css';

function Marked(props: { text: string; query: string }) {
  return (
    <>
      {markTerms(props.text, props.query).map((p, i) =>
        p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
      )}
    </>
  );
}

function Feedback(props: { queryId: string; result: RetrieveResult; name: string }) {
  const client = useClient();
  const readOnly = useCanWrite() === false;
  const send = useMutation({
    mutationFn: (helpful: boolean) =>
      client.kb.feedback({
        query_id: props.queryId,
        helpful,
        document_id: props.result.document_id,
      }),
  });
  if (send.isSuccess)
    return (
      <p className="muted" role="status">
        Thanks: feedback recorded.
      </p>
    );
  return (
    <div className="row kb-feedback">
      <button
        type="button"
        aria-label={`Mark ${props.name} helpful`}
        disabled={send.isPending || readOnly}
        title={readOnly ? READ_ONLY_NOTE : undefined}
        onClick={() => send.mutate(true)}
      >
        Helpful
      </button>
      <button
        type="button"
        aria-label={`Mark ${props.name} not helpful`}
        disabled={send.isPending || readOnly}
        title={readOnly ? READ_ONLY_NOTE : undefined}
        onClick={() => send.mutate(false)}
      >
        Not helpful
      </button>
      {send.isError ? <ErrorView error={send.error} /> : null}
    </div>
  );
}

function Result(props: { r: RetrieveResult; queryId: string; query: string; rank: number }) {
  const { r } = props;
  const name =
    r.title ?? (r.type === 'summary' ? `Summary (layer ${r.tree_layer})` : r.document_id);
  const short = snippet(r.content);
  return (
    <li className="card kb-result">
      <div className="kb-result-head">
        <h3>
          <span className="muted">{props.rank}.</span> {name}
        </h3>
        <span className="kb-score" title="Relevance after the ranking signals, 0 to 1">
          score {r.score.toFixed(2)}
        </span>
      </div>
      <div className="row kb-meta">
        <Badge tone="info">{r.type}</Badge>
        <Badge>{r.level}</Badge>
        {r.provenance ? (
          <Badge tone={r.provenance === 'authored' ? 'success' : 'neutral'}>{r.provenance}</Badge>
        ) : null}
        {r.service ? <span>service {r.service}</span> : null}
        {r.tags.length ? <span>tags {r.tags.join(', ')}</span> : null}
      </div>
      <p className="kb-snippet">
        <Marked text={short} query={props.query} />
      </p>
      {short.length < r.content.replace(/\s+/g, ' ').trim().length ? (
        <details>
          <summary>Full passage</summary>
          <pre className="kb-passage">{r.content}</pre>
        </details>
      ) : null}
      <p className="muted kb-source">
        Source:{' '}
        <Link href={`/knowledge/documents?id=${encodeURIComponent(r.document_id)}`}>
          {r.document_id}
        </Link>
        {r.tree_layer > 0 ? ` · tree layer ${r.tree_layer}` : ' · taught text'}
        {r.occurrences ? ` · found by ${r.occurrences} investigations` : ''}
      </p>
      <Feedback queryId={props.queryId} result={r} name={name} />
    </li>
  );
}

export default function KnowledgeSearchPage() {
  const client = useClient();
  const team = useTeamKey();
  const ready = useTeamReady();
  const search = useSearch();
  const [, navigate] = useLocation();
  const current = searchFromUrl(search);
  const [query, setQuery] = useState(current?.query ?? '');
  const [strategy, setStrategy] = useState<string>(current?.strategy ?? '');
  const [topK, setTopK] = useState(current?.top_k ? String(current.top_k) : '');
  const [service, setService] = useState(current?.service ?? '');
  const [topKError, setTopKError] = useState<string>();

  // Back/forward to another search: show its terms in the form.
  useEffect(() => {
    const c = searchFromUrl(search);
    setQuery(c?.query ?? '');
    setStrategy(c?.strategy ?? '');
    setTopK(c?.top_k ? String(c.top_k) : '');
    setService(c?.service ?? '');
  }, [search]);

  const results = useQuery({
    queryKey: ['kb', team, 'retrieve', current],
    queryFn: ({ signal }) => client.kb.retrieve(current!, { signal }),
    enabled: current !== undefined && ready,
    staleTime: 30_000,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const k = topK.trim() ? Number(topK) : undefined;
    if (k !== undefined && !(Number.isInteger(k) && k >= 1 && k <= 100)) {
      setTopKError('Top k must be a whole number from 1 to 100');
      return;
    }
    setTopKError(undefined);
    if (!query.trim()) return;
    navigate(
      searchUrl({
        query: query.trim(),
        ...(strategy ? { strategy: strategy as Strategy } : {}),
        ...(k ? { top_k: k } : {}),
        ...(service.trim() ? { service: service.trim() } : {}),
      }),
    );
  };

  return (
    <Page title="Knowledge search">
      <KnowledgeNav />
      <RequireTeam>
        <form
          className="card kb-form"
          role="search"
          aria-label="Search knowledge"
          onSubmit={submit}
        >
          <Field label="Query">
            <input
              type="search"
              value={query}
              required
              maxLength={8192}
              onChange={(e) => setQuery(e.target.value)}
              placeholder="e.g. postgres connection pool exhausted"
            />
          </Field>
          <div className="kb-form-row">
            <Field label="Strategy" hint="Default: the team's knowledge_base.retrieval.strategy">
              <select value={strategy} onChange={(e) => setStrategy(e.target.value)}>
                <option value="">Team default</option>
                <option value="hybrid">Hybrid (dense + BM25)</option>
                <option value="dense">Dense (embeddings)</option>
                <option value="sparse">Sparse (BM25 keywords)</option>
              </select>
            </Field>
            <Field label="Top k" hint="1 to 100; empty for the team default" error={topKError}>
              <input
                type="number"
                inputMode="numeric"
                min={1}
                max={100}
                value={topK}
                onChange={(e) => setTopK(e.target.value)}
              />
            </Field>
            <Field label="Service" hint="Optional: favour knowledge about this service">
              <input value={service} onChange={(e) => setService(e.target.value)} />
            </Field>
          </div>
          <div className="row">
            <button type="submit" className="primary">
              Search
            </button>
          </div>
        </form>

        {current === undefined ? (
          <Empty title="Search the team's knowledge">
            <p>Runbooks, facts, past incidents and policies, ranked by relevance.</p>
          </Empty>
        ) : results.isPending ? (
          <Loading label="Searching…" />
        ) : results.isError ? (
          <ErrorView error={results.error} onRetry={() => void results.refetch()} />
        ) : (
          <section aria-labelledby="kb-results-title">
            <h2 id="kb-results-title">
              {results.data.results.length === 0
                ? 'No results'
                : `${results.data.results.length} result${results.data.results.length === 1 ? '' : 's'}`}
            </h2>
            <p className="muted" role="status">
              Strategy {results.data.strategy} · {Math.round(results.data.took_ms)} ms · query id{' '}
              {results.data.query_id}
            </p>
            {results.data.results.length === 0 ? (
              <Empty title={`Nothing above the relevance threshold for “${current.query}”`}>
                <p>
                  Try other words, another strategy, or <Link href="/knowledge/teach">teach</Link>{' '}
                  the knowledge base.
                </p>
              </Empty>
            ) : (
              <ol className="kb-results">
                {results.data.results.map((r, i) => (
                  <Result
                    key={r.id}
                    r={r}
                    rank={i + 1}
                    queryId={results.data.query_id}
                    query={current.query}
                  />
                ))}
              </ol>
            )}
          </section>
        )}
      </RequireTeam>
    </Page>
  );
}
