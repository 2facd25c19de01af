import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@inquest/client';
import { useClient } from '../../api/client';
import { Badge } from '../../components/Badge';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { Time } from '../../components/Time';
import { RequireTeam } from '../../components/RequireTeam';
import { ConfigNav } from './ConfigNav';
import { DiffTable } from './DiffTable';
import { configKeys, useTeam } from './config-data';
import { diffRows } from './config-draft';
import './config.css';

const PAGE_SIZE = 20;

/** The audit log: every change of the team's config and of the levels above it, with diffs. */
export default function ConfigHistoryPage() {
  return (
    <Page title="Configuration history">
      <ConfigNav />
      <RequireTeam>
        <History />
      </RequireTeam>
    </Page>
  );
}

function History() {
  const client = useClient();
  const team = useTeam();
  const [offset, setOffset] = useState(0);
  const audit = useQuery({
    queryKey: configKeys.audit(team, offset),
    queryFn: ({ signal }) =>
      client.config.audit({ limit: PAGE_SIZE, offset, include_full: false }, { signal }),
    placeholderData: keepPreviousData,
  });
  if (audit.isPending) return <Loading label="Loading the history…" />;
  if (audit.isError) return <ErrorView error={audit.error} onRetry={() => void audit.refetch()} />;
  const { history, pagination } = audit.data;
  if (history.length === 0 && offset === 0)
    return <Empty title="No changes yet">The configuration has not been changed.</Empty>;
  const last = Math.min(offset + history.length, pagination.total);
  return (
    <>
      <p className="muted" aria-live="polite">
        Changes {pagination.total === 0 ? 0 : offset + 1}–{last} of {pagination.total}, newest
        first. Changes made at the org or a group above the team are included.
      </p>
      <ol className="cfg-list" aria-label="Configuration changes">
        {history.map((h) => (
          <li key={`${h.node_id}-${h.version}-${h.changed_at}`}>
            <AuditItem entry={h} />
          </li>
        ))}
      </ol>
      <nav className="cfg-actions" aria-label="History pages">
        <button
          type="button"
          disabled={offset === 0 || audit.isFetching}
          onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
        >
          Newer changes
        </button>
        <button
          type="button"
          disabled={last >= pagination.total || audit.isFetching}
          onClick={() => setOffset(offset + PAGE_SIZE)}
        >
          Older changes
        </button>
      </nav>
    </>
  );
}

function AuditItem(props: { entry: AuditEntry }) {
  const h = props.entry;
  const rows = diffRows(h.diff);
  const tone = h.level === 'team' ? 'success' : h.level === 'group' ? 'info' : 'neutral';
  return (
    <article className="cfg-entry" aria-label={`Version ${h.version} of ${h.level} ${h.node_id}`}>
      <header>
        <h2>
          Version {h.version} <Badge tone={tone}>{`${h.level} ${h.node_id}`}</Badge>
        </h2>
        <span>
          <Time value={h.changed_at} /> by <strong>{h.changed_by}</strong>
          {h.approved_by ? (
            <>
              , approved by <strong>{h.approved_by}</strong>
            </>
          ) : null}
        </span>
      </header>
      {rows.length === 0 ? (
        <p className="muted">No field changed.</p>
      ) : (
        <DiffTable
          caption={`Changes of version ${h.version} of ${h.level} ${h.node_id}`}
          rows={rows}
        />
      )}
    </article>
  );
}
