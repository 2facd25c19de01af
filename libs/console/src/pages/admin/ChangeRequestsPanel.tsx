import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeRequest } from '@inquest/client';
import { useClient } from '../../api/client';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Loading } from '../../components/Loading';
import { Time } from '../../components/Time';
import { DiffTable } from '../config/DiffTable';
import { diffRows } from '../config/config-draft';

const KEY = ['admin', 'change-requests', 'pending'] as const;

/** Pending change requests of every team; the admin token may decide any of them. */
export function ChangeRequestsPanel() {
  const client = useClient();
  const [decided, setDecided] = useState<ChangeRequest[]>([]);
  const list = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) =>
      client.admin.listChangeRequests({ status: 'pending_approval' }, { signal }),
  });
  return (
    <section className="cfg-section" aria-labelledby="admin-crs-h">
      <h2 id="admin-crs-h">Change requests waiting for approval</h2>
      <div aria-live="polite">
        {decided.map((d) => (
          <p key={d.change_request_id} role="status" className="cfg-notice success">
            Change request <code>{d.change_request_id}</code> of {d.team_id} {d.status}
            {d.applied_version !== undefined ? `: applied as version ${d.applied_version}` : ''}.
          </p>
        ))}
      </div>
      {list.isPending ? <Loading /> : null}
      {list.isError ? <ErrorView error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.data && list.data.change_requests.length === 0 ? (
        <Empty title="No change requests are waiting" />
      ) : null}
      {list.data && list.data.change_requests.length > 0 ? (
        <ul className="cfg-list" aria-label="Change requests of every team">
          {list.data.change_requests.map((cr) => (
            <li key={cr.change_request_id}>
              <AdminDecision cr={cr} onDecided={(d) => setDecided((p) => [d, ...p].slice(0, 5))} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function AdminDecision(props: { cr: ChangeRequest; onDecided(d: ChangeRequest): void }) {
  const { cr } = props;
  const client = useClient();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const decide = useMutation({
    mutationFn: (verb: 'approve' | 'reject') => {
      const body = comment.trim() ? { comment: comment.trim() } : {};
      return verb === 'approve'
        ? client.admin.approveChangeRequest(cr.change_request_id, body)
        : client.admin.rejectChangeRequest(cr.change_request_id, body);
    },
    onSuccess: async (d) => {
      props.onDecided(d);
      await queryClient.invalidateQueries({ queryKey: KEY });
      await queryClient.invalidateQueries({ queryKey: ['config'] });
    },
  });
  const id = cr.change_request_id;
  return (
    <article className="cfg-entry" aria-label={`Change request ${id} of ${cr.team_id}`}>
      <header>
        <h3>
          <code>{id}</code> · team {cr.team_id}
        </h3>
        <span>
          requested by <strong>{cr.requested_by}</strong> <Time value={cr.requested_at} />
        </span>
        <span className="muted">
          approvers: {cr.approvers.length > 0 ? cr.approvers.join(', ') : 'none (admins only)'}
        </span>
      </header>
      <DiffTable caption={`Changes requested in ${id}`} rows={diffRows(cr.changes)} />
      <div className="cfg-actions">
        <Field label={`Comment on ${id} (optional)`}>
          <input value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />
        </Field>
        <button
          type="button"
          className="primary"
          disabled={decide.isPending}
          aria-label={`Approve ${id}`}
          onClick={() => decide.mutate('approve')}
        >
          Approve
        </button>
        <button
          type="button"
          className="danger"
          disabled={decide.isPending}
          aria-label={`Reject ${id}`}
          onClick={() => decide.mutate('reject')}
        >
          Reject
        </button>
      </div>
      {decide.isError ? <ErrorView error={decide.error} /> : null}
    </article>
  );
}
