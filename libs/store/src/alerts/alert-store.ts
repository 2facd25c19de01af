/** firing while the sender reports it, resolved once it says so */
export type AlertStatus = 'firing' | 'resolved';

/** One received alert (an episode of it: a re-fire after resolution is a new record). */
export interface AlertRecord {
  alert_id: string;
  team_id: string;
  /** alertmanager | grafana | pagerduty | generic */
  source: string;
  group_key: string;
  fingerprint: string;
  alertname: string;
  status: AlertStatus;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  starts_at?: string;
  ends_at?: string;
  generator_url?: string;
  external_id?: string;
  received_at: string;
  last_received_at: string;
  /** how many notifications carried it */
  receive_count: number;
  /** the investigation of its group, once one started */
  investigation_id?: string;
  /** why it started nothing (disabled, rate_capped, agent_disabled, ...) */
  skipped_reason?: string;
  resolved_at?: string;
}

/** What a receiver hands over for one alert. */
export interface NewAlert {
  team_id: string;
  source: string;
  group_key: string;
  fingerprint: string;
  alertname: string;
  status: AlertStatus;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  starts_at?: string;
  ends_at?: string;
  generator_url?: string;
  external_id?: string;
}

/** One firing period of an alert group, and the investigation it started. */
export interface AlertGroupRecord {
  team_id: string;
  group_key: string;
  /** grows by one with each firing period of the group */
  episode: number;
  status: AlertStatus;
  source: string;
  alertname: string;
  /** chosen before the investigation is created, so a restart creates the same one */
  investigation_id: string;
  /** starting: the investigation may not exist yet (recovery creates it); started: it exists */
  start_state: 'starting' | 'started';
  /** what recovery needs to create the investigation (the run request, as JSON) */
  run: Record<string, unknown>;
  /** epoch ms */
  opened_at: number;
  resolved_at?: string;
}

export interface OpenGroupRequest {
  team_id: string;
  group_key: string;
  source: string;
  alertname: string;
  investigation_id: string;
  run: Record<string, unknown>;
  /** epoch ms */
  now: number;
  /** groups the team may open in the 60 s before `now` (the per-team cap) */
  maxPerMinute: number;
}

export type OpenGroupOutcome =
  /** a new firing period: the caller creates investigation_id */
  | { kind: 'opened'; group: AlertGroupRecord }
  /** the group already fires: its investigation is the one */
  | { kind: 'existing'; group: AlertGroupRecord }
  /** the team's cap is reached: nothing opened */
  | { kind: 'capped' };

export interface ListAlertsQuery {
  teamId: string;
  limit: number;
  offset: number;
  status?: string;
  alertname?: string;
  group_key?: string;
}

/**
 * Storage of received alerts and of alert groups. `openGroup` is the dedupe point: of any number
 * of concurrent notifications of one group, exactly one opens a firing period.
 */
export interface AlertStore {
  /**
   * Records one alert: a firing alert with an open (firing) record of the same fingerprint
   * updates it (a repeat); a resolved one resolves that record; otherwise a new record.
   * `link` is applied in the same write (as `link()` would).
   */
  record(
    alert: NewAlert,
    now: string,
    link?: { investigation_id?: string; skipped_reason?: string },
  ): Promise<AlertRecord>;
  /** sets investigation_id and/or skipped_reason on the given alerts of the team */
  link(
    teamId: string,
    alertIds: string[],
    patch: { investigation_id?: string; skipped_reason?: string },
  ): Promise<void>;
  openGroup(req: OpenGroupRequest): Promise<OpenGroupOutcome>;
  /** the firing period of the group, if it fires */
  firingGroup(teamId: string, groupKey: string): Promise<AlertGroupRecord | undefined>;
  markGroupStarted(teamId: string, groupKey: string, episode: number): Promise<void>;
  /** firing -> resolved when none of the group's alerts fires any more; the resolved period or undefined */
  resolveGroupIfQuiet(
    teamId: string,
    groupKey: string,
    at: string,
  ): Promise<AlertGroupRecord | undefined>;
  /** groups whose investigation may not exist yet (recovery) */
  listStartingGroups(limit?: number): Promise<AlertGroupRecord[]>;
  /** newest first, scoped to the team */
  list(query: ListAlertsQuery): Promise<{ items: AlertRecord[]; total: number }>;
  close(): Promise<void>;
}
