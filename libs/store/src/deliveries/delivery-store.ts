/** How a notification leaves Inquest. */
export type DeliveryChannel = 'webhook' | 'chat';

/**
 * pending: waiting for its next attempt (at `next_attempt_at`); delivering: claimed by a
 * notifier replica under a lease; delivered: a 2xx (or Slack ok) answer; failed: attempts used
 * up; stopped: a permanent failure (410, refused address, Slack channel_not_found, ...).
 */
export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'failed' | 'stopped';

/** The scope a delivery's secret reference resolves in (see `SecretScope` in @inquest/secrets). */
export interface DeliverySecretScope {
  owner: string;
  prefixes: string[];
}

/** One recorded attempt of a delivery: when it ended and what the target answered. */
export interface DeliveryAttempt {
  /** 1 for the first attempt */
  attempt: number;
  /** when the attempt ended (ISO) */
  at: string;
  /** the delivery's status after it: delivered, pending (will retry), failed or stopped */
  outcome: Exclude<DeliveryStatus, 'delivering'>;
  status_code?: number;
  error?: string;
}

/** One notification to one target, with its attempt state. */
export interface Delivery {
  delivery_id: string;
  team_id: string;
  /** investigation_complete | config_change_requested | config_change_approved | config_change_rejected */
  event: string;
  /** the source event's id; used as `webhook-id` for every attempt */
  event_id: string;
  channel: DeliveryChannel;
  /** receiver URL, or the chat channel */
  target: string;
  /** the exact body sent on every attempt (JSON) */
  payload: unknown;
  /** vault reference of the signing secret (webhook) or bot token (chat); never the value */
  secret_ref?: string;
  /** where `secret_ref` may point: the node that set it and that node's path prefixes */
  secret_scope?: DeliverySecretScope;
  status: DeliveryStatus;
  attempts: number;
  last_status_code?: number;
  last_error?: string;
  next_attempt_at?: string;
  created_at: string;
  updated_at: string;
  delivered_at?: string;
  /** the delivery this one re-sends (POST .../redeliver) */
  redelivery_of?: string;
  /** every recorded attempt, oldest first (an attempt cut off by a crash records none) */
  attempt_log?: DeliveryAttempt[];
  lease_owner?: string;
  lease_until?: string;
  /** fencing token of the current claim: only its holder may record the outcome */
  claim_id?: string;
}

export interface NewDelivery {
  delivery_id: string;
  /** unique per logical delivery, so a redelivered event records it once */
  dedupe_key: string;
  team_id: string;
  event: string;
  event_id: string;
  channel: DeliveryChannel;
  target: string;
  payload: unknown;
  secret_ref?: string;
  secret_scope?: DeliverySecretScope;
  /** first attempt time (ISO) */
  next_attempt_at: string;
  created_at: string;
  redelivery_of?: string;
}

export interface ClaimOptions {
  /** the replica claiming (kept in `lease_owner`) */
  owner: string;
  /** ISO time used as "now" for due-ness and lease expiry */
  now: string;
  leaseMs: number;
  /** most deliveries claimed by this call */
  limit: number;
  /**
   * Remaining capacity per lane (`<team_id>/<channel>`): a lane that is absent gets
   * `defaultLaneCapacity`. Keeps one slow receiver from taking every worker (head-of-line isolation).
   */
  laneCapacity?: Record<string, number>;
  defaultLaneCapacity?: number;
}

/** The outcome of one attempt, recorded only by the holder of the claim. */
export interface AttemptOutcome {
  status: Exclude<DeliveryStatus, 'delivering'>;
  attempts: number;
  last_status_code?: number;
  last_error?: string;
  next_attempt_at?: string;
  delivered_at?: string;
  updated_at: string;
}

export interface ListDeliveriesOptions {
  limit: number;
  status?: DeliveryStatus;
  channel?: DeliveryChannel;
}

/** The `attempt_log` entry of an attempt outcome. */
export function attemptRecord(o: AttemptOutcome): DeliveryAttempt {
  const r: DeliveryAttempt = { attempt: o.attempts, at: o.updated_at, outcome: o.status };
  if (o.last_status_code !== undefined) r.status_code = o.last_status_code;
  if (o.last_error !== undefined) r.error = o.last_error;
  return r;
}

/** The lane of a delivery: per team and channel, so chat trouble never holds up webhooks. */
export const laneOf = (d: Pick<Delivery, 'team_id' | 'channel'>): string =>
  `${d.team_id}/${d.channel}`;

/**
 * Durable delivery log of the notifier. Every delivery is recorded before it is attempted;
 * replicas claim due deliveries under a lease so no attempt runs twice at once, and an expired
 * lease (a crashed replica) makes the delivery claimable again.
 */
export interface DeliveryStore {
  /** Inserts unless `dedupe_key` exists; answers the stored delivery and whether it is new. */
  create(input: NewDelivery): Promise<{ delivery: Delivery; created: boolean }>;
  get(deliveryId: string): Promise<Delivery | undefined>;
  /** Newest first. */
  list(teamId: string, options: ListDeliveriesOptions): Promise<Delivery[]>;
  /**
   * Atomically claims due deliveries (pending with `next_attempt_at <= now`, or delivering with
   * an expired lease), oldest due first, respecting lane capacity. The claim counts the attempt
   * (`attempts` + 1) before anything is sent, so an attempt cut off by a crash still counts.
   */
  claimDue(options: ClaimOptions): Promise<Delivery[]>;
  /**
   * Records an attempt outcome if `claimId` still holds the claim (false otherwise), and appends
   * it to `attempt_log`.
   */
  complete(deliveryId: string, claimId: string, outcome: AttemptOutcome): Promise<boolean>;
  /** Extends the lease of a claim still held; false if it was lost. */
  renew(deliveryId: string, claimId: string, leaseUntil: string): Promise<boolean>;
  /** Earliest time something may become claimable (next attempt or lease expiry). */
  nextDueAt(): Promise<string | undefined>;
  close(): Promise<void>;
}
