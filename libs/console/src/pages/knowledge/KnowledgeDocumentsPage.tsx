import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentStatus } from '@inquest/client';
import { useSearch } from 'wouter';
import { useClient } from '../../api/client';
import { Badge, type BadgeTone } from '../../components/Badge';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { Time } from '../../components/Time';
import { KnowledgeNav } from './KnowledgeNav';
import { READ_ONLY_NOTE, useCanWrite, useTeamKey } from './team-scope';
import { forgetDocument, listRecentDocuments, type RecentDocument } from './recent-documents';
import './knowledge.css';

const TONE: Record<DocumentStatus['status'], BadgeTone> = {
  pending: 'info',
  indexed: 'success',
  failed: 'danger',
};

/** Polls a document's status every 2 s while it is pending. */
function useDocumentStatus(id: string | undefined) {
  const client = useClient();
  const team = useTeamKey();
  return useQuery({
    queryKey: ['kb', team, 'status', id],
    queryFn: ({ signal }) => client.kb.status(id!, { signal }),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 2_000 : false),
  });
}

function StatusCell(props: { id: string }) {
  const s = useDocumentStatus(props.id);
  if (s.isPending) return <span className="muted">checking…</span>;
  if (s.isError)
    return (
      <span className="kb-inline-error">
        {s.error && (s.error as { status?: number }).status === 404
          ? 'not found (deleted?)'
          : 'could not check'}
      </span>
    );
  return (
    <span>
      <Badge tone={TONE[s.data.status]}>{s.data.status}</Badge> {s.data.chunks} chunk
      {s.data.chunks === 1 ? '' : 's'}
      {s.data.indexed_at ? (
        <>
          {' '}
          · indexed <Time value={s.data.indexed_at} />
        </>
      ) : null}
    </span>
  );
}

function DeleteButton(props: { doc: RecentDocument; onDeleted(): void }) {
  const client = useClient();
  const qc = useQueryClient();
  const team = useTeamKey();
  const dialog = useRef<HTMLDialogElement>(null);
  const del = useMutation({
    mutationFn: () => client.kb.deleteDocument(props.doc.document_id),
    onSuccess: () => {
      dialog.current?.close();
      void qc.invalidateQueries({ queryKey: ['kb', team] });
      props.onDeleted();
    },
  });
  const name = props.doc.title ?? props.doc.document_id;
  const canWrite = useCanWrite();
  return (
    <>
      <button
        type="button"
        className="danger"
        aria-label={`Delete ${name}`}
        disabled={canWrite === false}
        title={canWrite === false ? READ_ONLY_NOTE : undefined}
        onClick={() => {
          del.reset();
          dialog.current?.showModal();
        }}
      >
        Delete
      </button>
      <dialog ref={dialog} className="kb-dialog" aria-labelledby={`del-${props.doc.document_id}`}>
        <h2 id={`del-${props.doc.document_id}`}>Delete “{name}”?</h2>
        <p>Its chunks are removed: search and answers no longer use it. This cannot be undone.</p>
        {del.isError ? <ErrorView error={del.error} /> : null}
        <div className="row">
          <button
            type="button"
            className="danger"
            disabled={del.isPending}
            onClick={() => del.mutate()}
          >
            {del.isPending ? 'Deleting…' : 'Delete document'}
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}

function Lookup(props: { initial: string }) {
  const [input, setInput] = useState(props.initial);
  const [id, setId] = useState(props.initial || undefined);
  useEffect(() => {
    setInput(props.initial);
    setId(props.initial || undefined);
  }, [props.initial]);
  const s = useDocumentStatus(id);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = input.trim();
    if (v) {
      setId(v);
      if (v === id) void s.refetch();
    }
  };
  return (
    <section className="card kb-card" aria-labelledby="kb-lookup-title">
      <h2 id="kb-lookup-title">Check a document</h2>
      <form className="kb-inline-form" onSubmit={submit}>
        <Field
          label="Document id"
          hint="As returned by teach or upload, e.g. doc_0123456789abcdef0123"
        >
          <input
            value={input}
            required
            maxLength={100}
            onChange={(e) => setInput(e.target.value)}
          />
        </Field>
        <button type="submit">Check status</button>
      </form>
      {id ? (
        s.isPending ? (
          <Loading label="Checking…" />
        ) : s.isError ? (
          <ErrorView error={s.error} onRetry={() => void s.refetch()} />
        ) : (
          <dl className="kb-facts" aria-live="polite">
            <dt>Document</dt>
            <dd>{s.data.document_id}</dd>
            <dt>Status</dt>
            <dd>
              <Badge tone={TONE[s.data.status]}>{s.data.status}</Badge>
              {s.data.status === 'pending' ? (
                <span className="muted"> (checking every 2 s)</span>
              ) : null}
            </dd>
            <dt>Chunks</dt>
            <dd>{s.data.chunks}</dd>
            <dt>Indexed</dt>
            <dd>
              <Time value={s.data.indexed_at} />
            </dd>
          </dl>
        )
      ) : null}
    </section>
  );
}

export default function KnowledgeDocumentsPage() {
  const team = useTeamKey();
  const search = useSearch();
  const initial = new URLSearchParams(search).get('id') ?? '';
  const [recent, setRecent] = useState(() => listRecentDocuments(team));
  useEffect(() => setRecent(listRecentDocuments(team)), [team]);
  return (
    <Page title="Knowledge documents">
      <KnowledgeNav />
      <RequireTeam>
        <Lookup initial={initial} />
        <section aria-labelledby="kb-recent-title">
          <h2 id="kb-recent-title">Taught in this tab</h2>
          {recent.length === 0 ? (
            <Empty title="Nothing taught in this tab yet">
              <p>Documents you teach or upload here are listed with their indexing status.</p>
            </Empty>
          ) : (
            <div className="table-wrap">
              <table className="data-table kb-stack">
                <caption className="sr-only">Documents taught in this tab, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Document</th>
                    <th scope="col">Type</th>
                    <th scope="col">From</th>
                    <th scope="col">Taught</th>
                    <th scope="col">Status</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {recent.map((d) => (
                    <tr key={d.document_id}>
                      <td data-label="Document">
                        <div>
                          {d.title ? <strong>{d.title}</strong> : null}
                          <div className="muted kb-mono">{d.document_id}</div>
                        </div>
                      </td>
                      <td data-label="Type">
                        <div>{d.type}</div>
                      </td>
                      <td data-label="From">
                        <div>{d.origin}</div>
                      </td>
                      <td data-label="Taught">
                        <div>
                          <Time value={d.taught_at} />
                        </div>
                      </td>
                      <td data-label="Status">
                        <div>
                          <StatusCell id={d.document_id} />
                        </div>
                      </td>
                      <td data-label="Actions">
                        <div>
                          <DeleteButton
                            doc={d}
                            onDeleted={() => setRecent(forgetDocument(team, d.document_id))}
                          />
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </RequireTeam>
    </Page>
  );
}
