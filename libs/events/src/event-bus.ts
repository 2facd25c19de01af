import type { EventOf } from './event-map';

/**
 * The event bus and work queue port. Subjects are versioned past-tense facts under `inquest.v1.`
 * (see subjects.ts). Two delivery modes:
 *
 * - durable subscription (`durable` set): at-least-once. Every durable name receives each event
 *   once; handlers sharing a durable name (replicas of one service) split the events between
 *   them (work queue). Handler resolves -> ack; handler throws -> redelivered after a backoff;
 *   after `maxDeliver` deliveries the event is dropped (and logged). `msg.term()` stops
 *   redelivery at once; `msg.working()` extends the ack deadline of a long job.
 *   With NATS, a durable name seen for the first time also receives the events already in the
 *   stream (up to its max age, 7 days by default); in-process, durable state lives in memory only.
 * - plain subscription (no `durable`): at-most-once fan-out to every live subscriber
 *   (progress updates, cache invalidation).
 *
 * Publishing with the same `msgId` twice within the dedupe window stores the event once.
 */
export interface EventBus {
  /** `data` must be the message EventMap declares for `subject` (anything for other subjects). */
  publish<S extends string>(subject: S, data: EventOf<S>, options?: PublishOptions): Promise<void>;
  /** the handler sees the message EventMap declares for `subject` (`unknown` for patterns) */
  subscribe<S extends string>(
    subject: S,
    handler: EventHandler<EventOf<S>>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  close(): Promise<void>;
}

export interface PublishOptions {
  /** dedupe key (Nats-Msg-Id); defaults to data.event_id when present */
  msgId?: string;
}

export interface SubscribeOptions {
  /** durable consumer name: at-least-once, shared among handlers with the same name */
  durable?: string;
  /** deliveries before giving up (default 5) */
  maxDeliver?: number;
  /** how long a delivery may run before it is redelivered, ms (default 30 s) */
  ackWaitMs?: number;
  /** delay before redelivery after a failure, per attempt, ms (last value repeats) */
  backoffMs?: number[];
  /** handlers running at once for this subscription (default 1) */
  concurrency?: number;
}

export interface EventMessage<T = unknown> {
  subject: string;
  data: T;
  /** 1 on the first delivery */
  deliveryCount: number;
  msgId?: string;
  /** stop redelivering this message (it is dropped) */
  term(): void;
  /** extend the ack deadline */
  working(): void;
}

export type EventHandler<T = unknown> = (msg: EventMessage<T>) => Promise<void>;

export interface Subscription {
  /** stops receiving; durable state is kept */
  unsubscribe(): Promise<void>;
}

/** Matches NATS subject wildcards: `*` one token, `>` the rest. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}
