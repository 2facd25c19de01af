import { useQuery } from '@tanstack/react-query';
import type { InvestigationListItem } from '@inquest/client';
import { useClient } from '../../api/client';
import { Badge, statusTone } from '../../components/Badge';
import { DataTable, type Column } from '../../components/DataTable';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { Time } from '../../components/Time';

const COLUMNS: Column<InvestigationListItem>[] = [
  {
    key: 'status',
    header: 'Status',
    render: (r) => <Badge tone={statusTone(r.status)}>{r.status}</Badge>,
  },
  { key: 'agent', header: 'Agent', render: (r) => r.agent },
  { key: 'message', header: 'Message', render: (r) => r.message },
  { key: 'started', header: 'Started', render: (r) => <Time value={r.created_at} /> },
];

export default function InvestigationsPage() {
  const client = useClient();
  const list = useQuery({
    queryKey: ['investigations', 'list'],
    queryFn: ({ signal }) => client.agents.list({ limit: 100 }, { signal }),
  });
  return (
    <Page title="Investigations">
      {list.isPending ? <Loading /> : null}
      {list.isError ? <ErrorView error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.data && list.data.investigations.length === 0 ? (
        <Empty title="No investigations yet" />
      ) : null}
      {list.data && list.data.investigations.length > 0 ? (
        <DataTable
          caption="Investigations, newest first"
          columns={COLUMNS}
          rows={list.data.investigations}
          rowKey={(r) => r.investigation_id}
        />
      ) : null}
    </Page>
  );
}
