import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Investigation } from '@inquest/client';
import { Link, useParams } from 'wouter';
import { useClient, useSession } from '../../api/client';
import { Badge, statusTone } from '../../components/Badge';
import { ErrorView } from '../../components/ErrorView';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { Time } from '../../components/Time';
import { byPriority, formatDuration, groupEvidence, isActive } from './investigation-view';
import { TimelineChart } from './TimelineChart';
import './investigations.css';

const POLL_MS = 2_000;

function Progress(props: { inv: Investigation }) {
  const p = props.inv.progress;
  const total = p?.steps_total ?? 0;
  const done = p?.steps_completed ?? 0;
  return (
    <section className="card" aria-labelledby="progress-h">
      <h2 id="progress-h">Progress</h2>
      <p aria-live="polite">
        {props.inv.status === 'pending' ? 'Waiting for a runner…' : (p?.current_step ?? 'starting')}
        {total > 0 ? ` (step ${Math.min(done + 1, total)} of ${total})` : ''}
      </p>
      {total > 0 ? (
        <progress max={total} value={done} aria-label="Steps completed">
          {done}/{total}
        </progress>
      ) : (
        <progress aria-label="Working" />
      )}
      <p className="muted">Elapsed: {formatDuration(props.inv.elapsed_seconds)}</p>
    </section>
  );
}

function Result(props: { inv: Investigation }) {
  const r = props.inv.result;
  if (!r) return null;
  const confidence = Math.round(r.root_cause.confidence);
  return (
    <>
      <section className="card" aria-labelledby="rc-h">
        <h2 id="rc-h">Root cause</h2>
        <p className="root-cause">{r.root_cause.description}</p>
        <div className="confidence">
          <label htmlFor="confidence-meter">Confidence {confidence}%</label>
          <meter
            id="confidence-meter"
            min={0}
            max={100}
            low={40}
            high={70}
            optimum={100}
            value={confidence}
          >
            {confidence}%
          </meter>
        </div>
        {r.summary ? (
          <>
            <h3>Summary</h3>
            <p className="summary">{r.summary}</p>
          </>
        ) : null}
      </section>
      <section className="card" aria-labelledby="ev-h">
        <h2 id="ev-h">Evidence</h2>
        {r.root_cause.evidence.length === 0 ? <p className="muted">No evidence listed.</p> : null}
        {groupEvidence(r.root_cause.evidence).map((g) => (
          <div key={g.tool} className="evidence-group">
            <h3>
              <code>{g.tool}</code>
            </h3>
            <ul>
              {g.items.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          </div>
        ))}
      </section>
      <section className="card" aria-labelledby="tl-h">
        <h2 id="tl-h">Timeline</h2>
        <TimelineChart entries={r.timeline} />
      </section>
      <div className="two-col">
        <section className="card" aria-labelledby="as-h">
          <h2 id="as-h">Affected systems</h2>
          {r.affected_systems.length ? (
            <ul>
              {r.affected_systems.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          ) : (
            <p className="muted">None named.</p>
          )}
        </section>
        <section className="card" aria-labelledby="tools-h">
          <h2 id="tools-h">Tools used</h2>
          <ToolsUsed tools={props.inv.tools_used} />
        </section>
      </div>
      <section className="card" aria-labelledby="rec-h">
        <h2 id="rec-h">Recommendations</h2>
        {r.recommendations.length === 0 ? <p className="muted">None.</p> : null}
        {byPriority(r.recommendations).map(([priority, recs]) => (
          <div key={priority} className="rec-group">
            <h3>
              <Badge
                tone={
                  priority === 'high' ? 'danger' : priority === 'medium' ? 'warning' : 'neutral'
                }
              >
                {priority}
              </Badge>{' '}
              priority
            </h3>
            <ol>
              {recs.map((rec, i) => (
                <li key={i}>
                  {rec.action}
                  {rec.proposed_action ? (
                    <details>
                      <summary>
                        Proposed action (for a person to run):{' '}
                        <code>{rec.proposed_action.tool}</code>
                      </summary>
                      <pre>{JSON.stringify(rec.proposed_action.parameters, null, 2)}</pre>
                    </details>
                  ) : null}
                </li>
              ))}
            </ol>
          </div>
        ))}
      </section>
    </>
  );
}

function ToolsUsed(props: { tools: string[] | undefined }) {
  const tools = props.tools ?? [];
  if (!tools.length) return <p className="muted">None.</p>;
  return (
    <ul className="tools-used">
      {tools.map((t) => (
        <li key={t}>
          <code>{t}</code>
        </li>
      ))}
    </ul>
  );
}

function Facts(props: { inv: Investigation }) {
  const inv = props.inv;
  const ctx = Object.entries(inv.context ?? {}).filter(([, v]) => v !== undefined && v !== '');
  return (
    <section className="card" aria-labelledby="facts-h">
      <h2 id="facts-h" className="sr-only">
        Request
      </h2>
      <p className="request-message">{inv.message}</p>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <Badge tone={statusTone(inv.status)}>{inv.status}</Badge>
        </dd>
        <dt>Agent</dt>
        <dd>{inv.agent}</dd>
        <dt>Created</dt>
        <dd>
          <Time value={inv.created_at} />
        </dd>
        {inv.started_at ? (
          <>
            <dt>Started</dt>
            <dd>
              <Time value={inv.started_at} />
            </dd>
          </>
        ) : null}
        {inv.duration_seconds !== undefined ? (
          <>
            <dt>Duration</dt>
            <dd>{formatDuration(inv.duration_seconds)}</dd>
          </>
        ) : null}
        {ctx.map(([k, v]) => (
          <div key={k} className="fact-pair">
            <dt>{k}</dt>
            <dd>{String(v)}</dd>
          </div>
        ))}
        {inv.alert ? (
          <>
            <dt>Alert</dt>
            <dd>
              {inv.alert.alertname} ({inv.alert.source})
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

function InvestigationView(props: { id: string }) {
  const client = useClient();
  const { session } = useSession();
  const queryClient = useQueryClient();
  const key = ['investigations', 'one', session.team ?? '', props.id];
  const q = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => client.agents.status(props.id, { signal }),
    // live progress: the API has no stream, so poll while it runs
    refetchInterval: (query) =>
      query.state.data && isActive(query.state.data.status) ? POLL_MS : false,
    refetchIntervalInBackground: false,
  });
  const cancel = useMutation({
    mutationFn: () => client.agents.cancel(props.id),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: ['investigations', 'list'] });
    },
  });
  if (q.isPending) return <Loading label="Loading the investigation…" />;
  if (q.isError) return <ErrorView error={q.error} onRetry={() => void q.refetch()} />;
  const inv = q.data;
  return (
    <>
      <div className="row detail-actions">
        {isActive(inv.status) ? (
          <button
            type="button"
            className="danger"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate()}
          >
            {cancel.isPending ? 'Cancelling…' : 'Cancel investigation'}
          </button>
        ) : null}
        <span className="muted">
          <code>{inv.investigation_id}</code>
        </span>
      </div>
      {cancel.isError ? <ErrorView error={cancel.error} /> : null}
      <Facts inv={inv} />
      {isActive(inv.status) ? <Progress inv={inv} /> : null}
      {inv.status === 'failed' ? (
        <section className="card failed" aria-labelledby="err-h" role="alert">
          <h2 id="err-h">Failed: {inv.error?.code ?? 'error'}</h2>
          <p>{inv.error?.message}</p>
          <h3>Tools used</h3>
          <ToolsUsed tools={inv.tools_used} />
        </section>
      ) : null}
      {inv.status === 'cancelled' ? (
        <p className="muted">
          Cancelled <Time value={inv.cancelled_at} />.
        </p>
      ) : null}
      {inv.status === 'completed' ? <Result inv={inv} /> : null}
    </>
  );
}

export default function InvestigationPage() {
  const params = useParams<{ id: string }>();
  return (
    <Page
      title="Investigation"
      actions={
        <Link href="/investigations" className="button">
          All investigations
        </Link>
      }
    >
      <RequireTeam>
        <InvestigationView id={params.id} />
      </RequireTeam>
    </Page>
  );
}
