import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { AgentName, InvestigationListItem } from '@inquest/client';
import { Link } from 'wouter';
import { useClient, useSession } from '../../api/client';
import { Badge, statusTone } from '../../components/Badge';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { Time } from '../../components/Time';
import { AGENTS, STATUSES, type StatusFilter } from './agents';
import { listRefreshMs } from './investigation-view';
import './investigations.css';

const PAGE_SIZE = 100; // the API's largest page
const ROW_HEIGHT = 56;

/** Every row is the same height (CSS `.inv-row`), so the virtualizer never measures the DOM. */
const estimateRowSize = () => ROW_HEIGHT;

/**
 * One row. Memoised on the row object (react-query keeps unchanged rows the same object across
 * refetches) and its index, so a scroll renders only the rows that come into view.
 */
const Row = memo(function Row(props: { row: InvestigationListItem; index: number }) {
  const r = props.row;
  return (
    <tr aria-rowindex={props.index + 2} className="inv-row">
      <td className="col-status">
        <Badge tone={statusTone(r.status)}>{r.status}</Badge>
      </td>
      <td className="col-agent">{r.agent}</td>
      <td className="col-service">{r.service ?? <span className="muted">—</span>}</td>
      <td className="col-what">
        <Link href={`/investigations/${encodeURIComponent(r.investigation_id)}`} title={r.message}>
          {r.message}
        </Link>
        <div className="clip muted" title={r.root_cause}>
          {r.root_cause ?? (r.status === 'completed' ? '' : `(${r.status})`)}
        </div>
      </td>
      <td className="col-confidence">
        {r.confidence !== undefined ? (
          `${Math.round(r.confidence)}%`
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td className="col-started">
        <Time value={r.created_at} />
      </td>
    </tr>
  );
});

// static: created once, so React skips it on every scroll render
const HEAD = (
  <thead>
    <tr aria-rowindex={1}>
      <th scope="col" className="col-status">
        Status
      </th>
      <th scope="col" className="col-agent">
        Agent
      </th>
      <th scope="col" className="col-service">
        Service
      </th>
      <th scope="col" className="col-what">
        Request and root cause
      </th>
      <th scope="col" className="col-confidence">
        Confidence
      </th>
      <th scope="col" className="col-started">
        Started
      </th>
    </tr>
  </thead>
);

/**
 * The scroller and its virtual rows: the only component a scroll re-renders (the query, the
 * "Showing" line and the filters above stay put).
 */
const VirtualRows = memo(function VirtualRows(props: {
  rows: InvestigationListItem[];
  total: number;
  onNearEnd: (lastIndex: number) => void;
}) {
  const { rows, onNearEnd } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: estimateRowSize,
    overscan: 12,
    // render after the scroll event (batched by React), not synchronously inside its handler
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1]!.index : -1;
  useEffect(() => onNearEnd(lastIndex), [onNearEnd, lastIndex]);
  const padTop = items.length ? items[0]!.start : 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  return (
    <div className="inv-scroll" ref={scrollRef} tabIndex={0} aria-label="Investigations list">
      <table className="data-table inv-table" aria-rowcount={props.total + 1}>
        <caption className="sr-only">Investigations, newest first</caption>
        {HEAD}
        <tbody>
          {padTop > 0 ? (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={6} height={padTop} />
            </tr>
          ) : null}
          {items.map((v) => (
            <Row key={rows[v.index]!.investigation_id} row={rows[v.index]!} index={v.index} />
          ))}
          {padBottom > 0 ? (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={6} height={padBottom} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
});

function InvestigationsTable(props: { status: StatusFilter | ''; agent: AgentName | '' }) {
  const client = useClient();
  const { session } = useSession();
  const query = useInfiniteQuery({
    queryKey: ['investigations', 'list', session.team ?? '', props.status, props.agent],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      client.agents.list(
        {
          limit: PAGE_SIZE,
          offset: pageParam,
          ...(props.status ? { status: props.status } : {}),
          ...(props.agent ? { agent: props.agent } : {}),
        },
        { signal },
      ),
    getNextPageParam: (last) => {
      const next = last.pagination.offset + last.investigations.length;
      return last.investigations.length > 0 && next < last.pagination.total ? next : undefined;
    },
    refetchInterval: (q) => {
      const pages = q.state.data?.pages ?? [];
      return listRefreshMs(
        pages.flatMap((p) => p.investigations.map((i) => i.status)),
        pages.length,
      );
    },
  });
  const pages = query.data?.pages;
  // one array per fetched data, not per render: VirtualRows' memo holds while nothing changed
  const rows = useMemo(() => pages?.flatMap((p) => p.investigations) ?? [], [pages]);
  const total = query.data?.pages[0]?.pagination.total ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  // the next page loads by itself when the last rows come into view
  const onNearEnd = useCallback(
    (lastIndex: number) => {
      if (hasNextPage && !isFetchingNextPage && lastIndex >= rows.length - 20) void fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage, rows.length],
  );

  if (query.isPending) return <Loading label="Loading investigations…" />;
  if (query.isError) return <ErrorView error={query.error} onRetry={() => void query.refetch()} />;
  if (rows.length === 0)
    return (
      <Empty title="No investigations match">
        <p>
          <Link href="/investigations/new">Start one</Link>, or change the filters.
        </p>
      </Empty>
    );
  return (
    <>
      <p className="muted" aria-live="polite">
        Showing {rows.length} of {total}
        {query.isFetching && !query.isFetchingNextPage ? ' · refreshing…' : ''}
      </p>
      <VirtualRows rows={rows} total={total} onNearEnd={onNearEnd} />
      {hasNextPage ? (
        <button type="button" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
          {isFetchingNextPage ? 'Loading more…' : 'Load more'}
        </button>
      ) : null}
    </>
  );
}

export default function InvestigationsPage() {
  const [status, setStatus] = useState<StatusFilter | ''>('');
  const [agent, setAgent] = useState<AgentName | ''>('');
  return (
    <Page
      title="Investigations"
      actions={
        <Link href="/investigations/new" className="button primary">
          New investigation
        </Link>
      }
    >
      <RequireTeam>
        <form className="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
          <label>
            Status
            <select value={status} onChange={(e) => setStatus(e.target.value as StatusFilter | '')}>
              <option value="">any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            Agent
            <select value={agent} onChange={(e) => setAgent(e.target.value as AgentName | '')}>
              <option value="">any</option>
              {AGENTS.map((a) => (
                <option key={a.name} value={a.name}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
        </form>
        <InvestigationsTable status={status} agent={agent} />
      </RequireTeam>
    </Page>
  );
}
