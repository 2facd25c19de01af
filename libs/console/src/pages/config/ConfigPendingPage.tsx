import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeRequest, PendingChanges } from '@inquest/client';
import { useClient } from '../../api/client';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { Time } from '../../components/Time';
import { RequireTeam } from '../../components/RequireTeam';
import { ConfigNav } from './ConfigNav';
import { DiffTable } from './DiffTable';
import { decisionFor } from './change-request-decision';
import { configKeys, useCaller, useTeam } from './config-data';
import { diffRows } from './config-draft';
import './config.css';

type Pending = PendingChanges['change_requests'][number];

/** Pending change requests of the team, with approve/reject for those who may decide. */
export default function ConfigPendingPage() {
  return (
    <Page title="Pending changes">
      <ConfigNav />
      <RequireTeam>
        <PendingList />
      </RequireTeam>
    </Page>
  );
}

function PendingList() {
  const client = useClient();
  const team = useTeam();
  const caller = useCaller();
  const [decided, setDecided] = useState<ChangeRequest[]>([]);
  const pending = useQuery({
    queryKey: configKeys.pending(team),
    queryFn: ({ signal }) => client.config.pending({ signal }),
  });
  if (pending.isPending) return <Loading label="Loading pending changes…" />;
  if (pending.isError)
    return <ErrorView error={pending.error} onRetry={() => void pending.refetch()} />;
  const list = pending.data.change_requests;
  return (
    <>
      <div aria-live="polite">
        {decided.map((d) => (
          <div
            key={d.change_request_id}
            className={d.status === 'approved' ? 'cfg-notice success' : 'cfg-notice'}
            role="status"
          >
            <p>
              Change request <code>{d.change_request_id}</code> {d.status}
              {d.status === 'approved' && d.applied_version !== undefined
                ? `: applied as version ${d.applied_version}`
                : ''}
              .
            </p>
          </div>
        ))}
      </div>
      {caller.isError ? (
        <ErrorView error={caller.error} onRetry={() => void caller.refetch()} />
      ) : null}
      {caller.data ? (
        <p className="muted">
          Signed in as <strong>{caller.data.identity}</strong> ({caller.data.kind},{' '}
          {caller.data.permissions.join(' + ') || 'no permissions'}).
        </p>
      ) : null}
      {list.length === 0 ? (
        <Empty title="No pending changes">
          Changes wait here when the team requires approval (feature_flags.require_approval).
        </Empty>
      ) : (
        <ul className="cfg-list" aria-label="Pending change requests">
          {list.map((cr) => (
            <li key={cr.change_request_id}>
              <PendingItem
                cr={cr}
                onDecided={(d) => setDecided((prev) => [d, ...prev].slice(0, 5))}
              />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function PendingItem(props: { cr: Pending; onDecided(d: ChangeRequest): void }) {
  const { cr } = props;
  const client = useClient();
  const team = useTeam();
  const caller = useCaller();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const decision = decisionFor(cr, caller.data);
  const decide = useMutation({
    mutationFn: (verb: 'approve' | 'reject') => {
      const body = comment.trim() ? { comment: comment.trim() } : {};
      return verb === 'approve'
        ? client.config.approve(cr.change_request_id, body)
        : client.config.reject(cr.change_request_id, body);
    },
    onSuccess: async (d) => {
      props.onDecided(d);
      await queryClient.invalidateQueries({ queryKey: configKeys.all(team) });
    },
  });
  const id = cr.change_request_id;
  return (
    <article className="cfg-entry" aria-label={`Change request ${id}`}>
      <header>
        <h2>
          <code>{id}</code>
        </h2>
        <span>
          requested by <strong>{cr.requested_by}</strong> <Time value={cr.requested_at} />
        </span>
        <span className="muted">
          approvers: {cr.approvers.length > 0 ? cr.approvers.join(', ') : 'none (admins only)'}
        </span>
      </header>
      <DiffTable caption={`Changes requested in ${id}`} rows={diffRows(cr.changes)} />
      {decision.allowed ? (
        <div className="cfg-actions">
          <Field label={`Comment on ${id} (optional)`}>
            <input value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />
          </Field>
          <button
            type="button"
            className="primary"
            disabled={decide.isPending}
            onClick={() => decide.mutate('approve')}
            aria-label={`Approve ${id}`}
          >
            Approve
          </button>
          <button
            type="button"
            className="danger"
            disabled={decide.isPending}
            onClick={() => decide.mutate('reject')}
            aria-label={`Reject ${id}`}
          >
            Reject
          </button>
        </div>
      ) : (
        <p className="muted">{decision.reason}</p>
      )}
      {decide.isError ? <ErrorView error={decide.error} /> : null}
    </article>
  );
}
