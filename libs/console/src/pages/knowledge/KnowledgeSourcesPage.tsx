import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isInquestError, type KnowledgeSourceStatus, type TreeStats } from '@inquest/client';
import { Link } from 'wouter';
import { useClient } from '../../api/client';
import { Badge, type BadgeTone } from '../../components/Badge';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { Time } from '../../components/Time';
import { KnowledgeNav } from './KnowledgeNav';
import { READ_ONLY_NOTE, useCanWrite, useTeamKey, useTeamReady } from './team-scope';
import './knowledge.css';

const STATE_TONE: Record<KnowledgeSourceStatus['state'], BadgeTone> = {
  never: 'neutral',
  ok: 'success',
  error: 'danger',
};

/** A sync reads whole repositories and spaces: the gateway allows it 10 minutes. */
const SYNC_TIMEOUT_MS = 600_000;

function TreeStatsCard(props: { stats: TreeStats }) {
  const s = props.stats;
  const layers = Object.entries(s.nodes_by_level).sort(([a], [b]) => Number(a) - Number(b));
  const max = Math.max(1, ...layers.map(([, n]) => n));
  return (
    <section className="card kb-card" aria-labelledby="kb-tree-title">
      <h2 id="kb-tree-title">Knowledge tree</h2>
      <dl className="kb-stats">
        <div>
          <dt>Documents</dt>
          <dd>{s.total_documents}</dd>
        </div>
        <div>
          <dt>Chunks</dt>
          <dd>{s.total_chunks}</dd>
        </div>
        <div>
          <dt>Tree depth</dt>
          <dd>{s.tree_depth}</dd>
        </div>
        <div>
          <dt>Last source sync</dt>
          <dd>{s.last_sync_at ? <Time value={s.last_sync_at} /> : 'never'}</dd>
        </div>
      </dl>
      {layers.length ? (
        <table className="data-table kb-layers">
          <caption>Nodes by layer (0 = taught chunks, above = RAPTOR summaries)</caption>
          <thead>
            <tr>
              <th scope="col">Layer</th>
              <th scope="col">Nodes</th>
              <th scope="col">
                <span className="sr-only">Share</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {layers.map(([layer, n]) => (
              <tr key={layer}>
                <td>{layer === '0' ? '0 (leaves)' : layer}</td>
                <td>{n}</td>
                <td className="kb-bar-cell">
                  <meter min={0} max={max} value={n} aria-label={`Nodes in layer ${layer}`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function outcome(s: KnowledgeSourceStatus): string {
  if (s.state === 'never') return 'not synced yet';
  return `${s.added} added, ${s.updated} updated, ${s.removed} removed, ${s.unchanged} unchanged`;
}

function SourcesCard() {
  const client = useClient();
  const team = useTeamKey();
  const qc = useQueryClient();
  const sources = useQuery({
    queryKey: ['kb', team, 'sources'],
    queryFn: ({ signal }) => client.kb.sources({ signal }),
  });
  const sync = useMutation({
    mutationFn: () => client.kb.syncSources({ timeoutMs: SYNC_TIMEOUT_MS }),
    onSuccess: (res) => {
      qc.setQueryData(['kb', team, 'sources'], res);
      void qc.invalidateQueries({ queryKey: ['kb', team, 'tree'] });
    },
  });
  const canWrite = useCanWrite();
  const forbidden =
    canWrite === false || (sync.isError && isInquestError(sync.error) && sync.error.status === 403);
  const list = sources.data?.sources ?? [];
  const failed = sync.data?.sources.filter((s) => s.state === 'error').length ?? 0;
  return (
    <section className="card kb-card" aria-labelledby="kb-sources-title">
      <div className="kb-card-head">
        <h2 id="kb-sources-title">Knowledge sources</h2>
        {list.length ? (
          <button
            type="button"
            className="primary"
            disabled={sync.isPending || forbidden}
            onClick={() => sync.mutate()}
          >
            {sync.isPending ? 'Syncing…' : 'Sync now'}
          </button>
        ) : null}
      </div>
      <div aria-live="polite">
        {sync.isPending ? <Loading label="Syncing every source; this can take minutes…" /> : null}
        {sync.data ? (
          <p role="status">
            Sync finished: {sync.data.sources.length - failed} of {sync.data.sources.length} source
            {sync.data.sources.length === 1 ? '' : 's'} succeeded
            {failed ? `, ${failed} failed (see below)` : ''}.
          </p>
        ) : null}
        {forbidden && list.length ? (
          <p className="muted">{READ_ONLY_NOTE}</p>
        ) : sync.isError ? (
          <ErrorView error={sync.error} onRetry={() => sync.mutate()} />
        ) : null}
      </div>
      {sources.isPending ? (
        <Loading />
      ) : sources.isError ? (
        <ErrorView error={sources.error} onRetry={() => void sources.refetch()} />
      ) : list.length === 0 ? (
        <Empty title="No knowledge sources configured">
          <p>
            Git repositories, web pages and Confluence spaces are set in{' '}
            <code>knowledge_base.sources</code> of the{' '}
            <Link href="/configuration">configuration</Link>.
          </p>
        </Empty>
      ) : (
        <div className="table-wrap">
          <table className="data-table kb-stack">
            <caption className="sr-only">Knowledge sources and their last sync</caption>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">State</th>
                <th scope="col">Last sync</th>
                <th scope="col">Last success</th>
                <th scope="col">Documents</th>
                <th scope="col">Last sync did</th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.name}>
                  <td data-label="Source">
                    <div>
                      <strong>{s.name}</strong> <Badge>{s.kind}</Badge>
                      <div className="muted kb-mono kb-break">{s.url}</div>
                    </div>
                  </td>
                  <td data-label="State">
                    <div>
                      <Badge tone={STATE_TONE[s.state]}>{s.state}</Badge>
                      {s.error ? (
                        <div className={s.state === 'error' ? 'kb-inline-error' : 'muted'}>
                          {s.error}
                        </div>
                      ) : null}
                    </div>
                  </td>
                  <td data-label="Last sync">
                    <div>
                      <Time value={s.last_sync_at} />
                    </div>
                  </td>
                  <td data-label="Last success">
                    <div>
                      <Time value={s.last_success_at} />
                    </div>
                  </td>
                  <td data-label="Documents">
                    <div>{s.documents}</div>
                  </td>
                  <td data-label="Last sync did">
                    <div>{outcome(s)}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export default function KnowledgeSourcesPage() {
  const client = useClient();
  const team = useTeamKey();
  const ready = useTeamReady();
  const stats = useQuery({
    queryKey: ['kb', team, 'tree'],
    queryFn: ({ signal }) => client.kb.treeStats({ signal }),
    enabled: ready,
  });
  return (
    <Page title="Knowledge sources and tree">
      <KnowledgeNav />
      <RequireTeam>
        {stats.isPending ? (
          <Loading />
        ) : stats.isError ? (
          <ErrorView error={stats.error} onRetry={() => void stats.refetch()} />
        ) : (
          <TreeStatsCard stats={stats.data} />
        )}
        <SourcesCard />
      </RequireTeam>
    </Page>
  );
}
