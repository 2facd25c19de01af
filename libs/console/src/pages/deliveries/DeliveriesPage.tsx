import { useRef, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '@inquest/client';
import { useLocation, useSearch } from 'wouter';
import { useClient } from '../../api/client';
import { Badge } from '../../components/Badge';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { Time } from '../../components/Time';
import { READ_ONLY_NOTE, useCanWrite, useTeamKey, useTeamReady } from '../knowledge/team-scope';
import {
  DELIVERY_STATUSES,
  ATTEMPT_OUTCOME,
  STATUS_MEANING,
  attemptAnswer,
  canRedeliver,
  deliveryTone,
  eventLabel,
  hasActiveDeliveries,
  lastOutcome,
  sendsOfEvent,
  deliveryFilterFromUrl,
  deliveryFilterUrl,
  unrecordedAttempts,
  type Channel,
  type DeliveryStatus,
  type Filter,
} from './delivery-view';
import './deliveries.css';

/** The confirmation dialog of a redelivery, and its result. */
function RedeliverButton(props: { d: WebhookDelivery; onDone(newId: string): void }) {
  const client = useClient();
  const qc = useQueryClient();
  const team = useTeamKey();
  const dialog = useRef<HTMLDialogElement>(null);
  const { d } = props;
  const redeliver = useMutation({
    mutationFn: () => client.webhooks.redeliver(d.delivery_id),
    onSuccess: (res) => {
      void qc.invalidateQueries({ queryKey: ['deliveries', team] });
      props.onDone(res.delivery.delivery_id);
    },
  });
  const titleId = `redeliver-${d.delivery_id}`;
  const canWrite = useCanWrite();
  const why = !canRedeliver(d)
    ? 'Only a finished delivery can be sent again'
    : canWrite === false
      ? READ_ONLY_NOTE
      : undefined;
  return (
    <>
      <button
        type="button"
        aria-label={`Redeliver ${d.delivery_id}`}
        disabled={why !== undefined}
        title={why}
        onClick={() => {
          redeliver.reset();
          dialog.current?.showModal();
        }}
      >
        Redeliver
      </button>
      <dialog ref={dialog} className="dlv-dialog" aria-labelledby={titleId}>
        <h2 id={titleId}>Redeliver {eventLabel(d.event)}?</h2>
        {redeliver.isSuccess ? (
          <div role="status">
            <p>
              Queued as <strong className="dlv-mono">{redeliver.data.delivery.delivery_id}</strong>{' '}
              <Badge tone={deliveryTone(redeliver.data.delivery.status)}>
                {redeliver.data.delivery.status}
              </Badge>
              .
            </p>
            <p className="muted">The list refreshes while it is being sent.</p>
            <div className="row">
              <button type="button" className="primary" onClick={() => dialog.current?.close()}>
                Close
              </button>
            </div>
          </div>
        ) : (
          <>
            <p>
              Sends the same body to <span className="dlv-mono dlv-break">{d.target}</span> again as
              a new delivery with a fresh attempt budget. Receivers see the same webhook-id (
              <span className="dlv-mono">{d.event_id}</span>) and can drop a duplicate.
            </p>
            {redeliver.isError ? <ErrorView error={redeliver.error} /> : null}
            <div className="row">
              <button
                type="button"
                className="primary"
                disabled={redeliver.isPending}
                onClick={() => redeliver.mutate()}
              >
                {redeliver.isPending ? 'Sending…' : 'Redeliver now'}
              </button>
              <button type="button" onClick={() => dialog.current?.close()}>
                Cancel
              </button>
            </div>
          </>
        )}
      </dialog>
    </>
  );
}

function Attempts(props: { d: WebhookDelivery; all: WebhookDelivery[] }) {
  const { d } = props;
  const others = sendsOfEvent(props.all, d);
  return (
    <details className="dlv-details">
      <summary>
        {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
        <span className="sr-only"> of {d.delivery_id}</span>
      </summary>
      <dl className="dlv-facts">
        <dt>Delivery</dt>
        <dd className="dlv-mono">{d.delivery_id}</dd>
        <dt>Recorded</dt>
        <dd>
          <Time value={d.created_at} />
        </dd>
        <dt>Last attempt</dt>
        <dd>{d.attempts > 0 ? <Time value={d.updated_at} /> : 'none yet'}</dd>
        <dt>Last answer</dt>
        <dd>{lastOutcome(d)}</dd>
        {d.next_attempt_at && d.status === 'pending' ? (
          <>
            <dt>Next attempt</dt>
            <dd>
              <Time value={d.next_attempt_at} />
            </dd>
          </>
        ) : null}
        {d.delivered_at ? (
          <>
            <dt>Delivered</dt>
            <dd>
              <Time value={d.delivered_at} />
            </dd>
          </>
        ) : null}
        <dt>Webhook id</dt>
        <dd className="dlv-mono">{d.event_id}</dd>
        {d.redelivery_of ? (
          <>
            <dt>Redelivery of</dt>
            <dd className="dlv-mono">{d.redelivery_of}</dd>
          </>
        ) : null}
      </dl>
      {d.attempt_log?.length ? (
        <>
          <p className="dlv-sub">Attempts</p>
          <ol className="dlv-attempts">
            {d.attempt_log.map((a) => (
              <li key={a.attempt}>
                <span className="dlv-attempt-no">#{a.attempt}</span> <Time value={a.at} />{' '}
                <span>{attemptAnswer(a)}</span>{' '}
                <Badge tone={deliveryTone(a.outcome)}>{ATTEMPT_OUTCOME[a.outcome]}</Badge>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {unrecordedAttempts(d) > 0 && d.status !== 'delivering' ? (
        <p className="muted dlv-note">
          {unrecordedAttempts(d)} attempt{unrecordedAttempts(d) === 1 ? '' : 's'} without a recorded
          answer (cut off, or made before attempts were logged).
        </p>
      ) : null}
      {others.length ? (
        <>
          <p className="dlv-sub">Other sends of this event</p>
          <ul className="dlv-others">
            {others.map((o) => (
              <li key={o.delivery_id}>
                <span className="dlv-mono">{o.delivery_id}</span>{' '}
                <Badge tone={deliveryTone(o.status)}>{o.status}</Badge> {o.attempts} attempt
                {o.attempts === 1 ? '' : 's'}, <Time value={o.created_at} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </details>
  );
}

export default function DeliveriesPage() {
  const client = useClient();
  const team = useTeamKey();
  const search = useSearch();
  const [, navigate] = useLocation();
  const filter = deliveryFilterFromUrl(search);
  const [highlight, setHighlight] = useState<string>();
  const ready = useTeamReady();
  const list = useQuery({
    queryKey: ['deliveries', team, filter],
    queryFn: ({ signal }) => client.webhooks.deliveries(filter, { signal }),
    enabled: ready,
    placeholderData: keepPreviousData,
    // While something is pending or being sent, watch it move.
    refetchInterval: (q) => (hasActiveDeliveries(q.state.data?.deliveries ?? []) ? 5_000 : false),
  });
  const set = (patch: Partial<Filter>) => {
    const next: Filter = { ...filter, ...patch };
    if (!next.status) delete next.status;
    if (!next.channel) delete next.channel;
    navigate(deliveryFilterUrl(next));
  };
  const rows = list.data?.deliveries ?? [];

  return (
    <Page
      title="Deliveries"
      actions={
        <button type="button" onClick={() => void list.refetch()} disabled={list.isFetching}>
          {list.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      }
    >
      <RequireTeam>
        <p className="muted">
          Webhooks and chat notifications sent for the team, newest first. Failed sends are retried
          with backoff; a finished one can be sent again.
        </p>
        <form
          className="card dlv-filters"
          aria-label="Filter deliveries"
          onSubmit={(e) => e.preventDefault()}
        >
          <Field label="Status">
            <select
              value={filter.status ?? ''}
              onChange={(e) =>
                set({ status: (e.target.value || undefined) as DeliveryStatus | undefined })
              }
            >
              <option value="">All statuses</option>
              {DELIVERY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}: {STATUS_MEANING[s]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Channel">
            <select
              value={filter.channel ?? ''}
              onChange={(e) =>
                set({ channel: (e.target.value || undefined) as Channel | undefined })
              }
            >
              <option value="">Webhooks and chat</option>
              <option value="webhook">Webhooks</option>
              <option value="chat">Chat</option>
            </select>
          </Field>
          <Field label="Show">
            <select
              value={String(filter.limit)}
              onChange={(e) => set({ limit: Number(e.target.value) })}
            >
              <option value="20">20 newest</option>
              <option value="50">50 newest</option>
              <option value="100">100 newest</option>
            </select>
          </Field>
        </form>
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorView error={list.error} onRetry={() => void list.refetch()} />
        ) : rows.length === 0 ? (
          <Empty title={filter.status ? `No ${filter.status} deliveries` : 'No deliveries yet'}>
            <p>
              Deliveries appear when an investigation ends and{' '}
              <code>webhooks.investigation_complete</code> or a chat channel is configured.
            </p>
          </Empty>
        ) : (
          <div className="table-wrap">
            <table className="data-table dlv-table">
              <caption className="sr-only">Deliveries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Target</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last answer</th>
                  <th scope="col">Recorded</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((d) => (
                  <tr
                    key={d.delivery_id}
                    className={d.delivery_id === highlight ? 'dlv-new' : undefined}
                  >
                    <td data-label="Event">
                      <div>
                        {eventLabel(d.event)}
                        {d.redelivery_of ? <div className="muted">redelivery</div> : null}
                      </div>
                    </td>
                    <td data-label="Target">
                      <div>
                        <Badge>{d.channel}</Badge>{' '}
                        <span className="dlv-mono dlv-break">{d.target}</span>
                      </div>
                    </td>
                    <td data-label="Status">
                      <div>
                        <Badge tone={deliveryTone(d.status)} title={STATUS_MEANING[d.status]}>
                          {d.status}
                        </Badge>
                        {d.status === 'pending' && d.next_attempt_at ? (
                          <div className="muted">
                            next <Time value={d.next_attempt_at} />
                          </div>
                        ) : null}
                      </div>
                    </td>
                    <td data-label="Attempts">
                      <div>
                        <Attempts d={d} all={rows} />
                      </div>
                    </td>
                    <td data-label="Last answer">
                      <div>{lastOutcome(d)}</div>
                    </td>
                    <td data-label="Recorded">
                      <div>
                        <Time value={d.created_at} />
                      </div>
                    </td>
                    <td data-label="Actions">
                      <div>
                        <RedeliverButton d={d} onDone={setHighlight} />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </RequireTeam>
    </Page>
  );
}
