import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { AnswerRequest, AnswerResponse } from '@inquest/client';
import { Link } from 'wouter';
import { useClient } from '../../api/client';
import { Badge } from '../../components/Badge';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { KnowledgeNav } from './KnowledgeNav';
import { READ_ONLY_NOTE, useCanWrite } from './team-scope';
import { citeAnswer, fieldProblems, percent, shownOnFields } from './knowledge-text';
import './knowledge.css';

function AnswerText(props: { answer: string; sources: number }) {
  return (
    <p className="kb-answer-text">
      {citeAnswer(props.answer, props.sources).map((p, i) =>
        'cite' in p ? (
          <a
            key={i}
            href={`#kb-source-${p.cite}`}
            className="kb-cite"
            aria-label={`source ${p.cite}`}
          >
            [{p.cite}]
          </a>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </p>
  );
}

function AnswerFeedback(props: { queryId: string }) {
  const client = useClient();
  const readOnly = useCanWrite() === false;
  const send = useMutation({
    mutationFn: (helpful: boolean) => client.kb.feedback({ query_id: props.queryId, helpful }),
  });
  if (send.isSuccess)
    return (
      <p className="muted" role="status">
        Thanks: feedback recorded.
      </p>
    );
  return (
    <div className="row">
      <span className="muted">Was this answer helpful?</span>
      <button
        type="button"
        disabled={send.isPending || readOnly}
        title={readOnly ? READ_ONLY_NOTE : undefined}
        onClick={() => send.mutate(true)}
      >
        Yes
      </button>
      <button
        type="button"
        disabled={send.isPending || readOnly}
        title={readOnly ? READ_ONLY_NOTE : undefined}
        onClick={() => send.mutate(false)}
      >
        No
      </button>
      {send.isError ? <ErrorView error={send.error} /> : null}
    </div>
  );
}

function AnswerView(props: { a: AnswerResponse; asked: string }) {
  const { a } = props;
  const sources = a.sources ?? [];
  return (
    <section className="card kb-card kb-answer" aria-labelledby="kb-answer-title">
      <h2 id="kb-answer-title">Answer</h2>
      <p className="muted">
        To “{props.asked}” · confidence {percent(a.confidence)}
      </p>
      <AnswerText answer={a.answer} sources={sources.length} />
      {a.sources ? (
        <>
          <h3>Sources</h3>
          {sources.length === 0 ? (
            <p className="muted">The answer cites no source.</p>
          ) : (
            <ol className="kb-sources">
              {sources.map((s, i) => (
                <li key={`${s.document_id}-${i}`} id={`kb-source-${i + 1}`}>
                  <div className="kb-result-head">
                    <strong>{s.title || s.document_id}</strong>
                    <span className="kb-score">score {s.score.toFixed(2)}</span>
                  </div>
                  <div className="row kb-meta">
                    {s.type ? <Badge tone="info">{s.type}</Badge> : null}
                    {s.provenance ? <Badge>{s.provenance}</Badge> : null}
                    <Link href={`/knowledge/documents?id=${encodeURIComponent(s.document_id)}`}>
                      {s.document_id}
                    </Link>
                  </div>
                  <p className="kb-snippet">{s.snippet}</p>
                </li>
              ))}
            </ol>
          )}
        </>
      ) : null}
      <AnswerFeedback queryId={a.query_id} />
    </section>
  );
}

export default function KnowledgeAskPage() {
  const client = useClient();
  const [question, setQuestion] = useState('');
  const [service, setService] = useState('');
  const [includeSources, setIncludeSources] = useState(true);
  const ask = useMutation({
    mutationFn: (body: AnswerRequest) => client.kb.answer(body),
  });
  const problems = fieldProblems(ask.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!question.trim()) return;
    ask.mutate({
      question: question.trim(),
      include_sources: includeSources,
      ...(service.trim() ? { service: service.trim() } : {}),
    });
  };
  return (
    <Page title="Ask the knowledge base">
      <KnowledgeNav />
      <RequireTeam>
        <form className="card kb-form" onSubmit={submit}>
          <Field label="Question" error={problems.question}>
            <textarea
              rows={3}
              required
              maxLength={8192}
              value={question}
              onChange={(e) => setQuestion(e.target.value)}
              placeholder="e.g. How do we fail over the payments database?"
            />
          </Field>
          <div className="kb-form-row">
            <Field label="Service" hint="Optional" error={problems.service}>
              <input value={service} onChange={(e) => setService(e.target.value)} />
            </Field>
            <label className="kb-check">
              <input
                type="checkbox"
                checked={includeSources}
                onChange={(e) => setIncludeSources(e.target.checked)}
              />
              Include sources
            </label>
          </div>
          <div className="row">
            <button type="submit" className="primary" disabled={ask.isPending}>
              Ask
            </button>
          </div>
        </form>
        {ask.isPending ? <Loading label="Thinking…" /> : null}
        {ask.isError && !shownOnFields(ask.error, ['question', 'service']) ? (
          <ErrorView error={ask.error} />
        ) : null}
        {ask.data && ask.variables ? (
          <AnswerView a={ask.data} asked={ask.variables.question} />
        ) : null}
      </RequireTeam>
    </Page>
  );
}
