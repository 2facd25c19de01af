/** Investigation states; completed, failed and cancelled are terminal. */
export type InvestigationStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL_STATUSES: readonly InvestigationStatus[] = [
  'completed',
  'failed',
  'cancelled',
];

export interface InvestigationContextRecord {
  service?: string;
  environment?: string;
  namespace?: string;
  severity?: string;
  related_alert?: string;
  time_window?: string;
  hint?: string;
}

export interface ProgressRecord {
  current_step: string;
  steps_completed: number;
  steps_total: number;
}

export interface InvestigationResultRecord {
  summary: string;
  root_cause: { description: string; confidence: number; evidence: string[] };
  timeline: { timestamp: string; event: string }[];
  affected_systems: string[];
  recommendations: {
    priority: string;
    action: string;
    /** a write tool call proposed for a person to run (never run by the investigation) */
    proposed_action?: { tool: string; parameters: Record<string, unknown> };
  }[];
}

/** The alert (group) that started an investigation. */
export interface InvestigationAlertRecord {
  /** alertmanager | grafana | pagerduty | generic */
  source: string;
  alertname: string;
  group_key: string;
  labels: Record<string, string>;
  severity?: string;
  starts_at?: string;
  generator_url?: string;
  external_id?: string;
}

/** One stored investigation (field names as in the interface spec). */
export interface InvestigationRecord {
  investigation_id: string;
  team_id: string;
  status: InvestigationStatus;
  agent: string;
  message: string;
  context: InvestigationContextRecord;
  async: boolean;
  progress?: ProgressRecord;
  result?: InvestigationResultRecord;
  tools_used: string[];
  error?: { code: string; message: string };
  created_at: string;
  started_at?: string;
  completed_at?: string;
  failed_at?: string;
  cancelled_at?: string;
  duration_seconds?: number;
  /** number of times a runner claimed it */
  attempt: number;
  requested_by?: string;
  /** set when an alert started it */
  alert?: InvestigationAlertRecord;
  /** runner currently holding the lease */
  lease_owner?: string;
  /** epoch ms at which the lease lapses */
  lease_expires_at?: number;
}

export interface ListInvestigationsQuery {
  teamId: string;
  limit: number;
  offset: number;
  status?: string;
  agent?: string;
}

/** What a terminal transition writes besides the status. */
export interface FinishPatch {
  status: 'completed' | 'failed';
  at: string;
  result?: InvestigationResultRecord;
  error?: { code: string; message: string };
  tools_used?: string[];
  duration_seconds?: number;
}

export type ClaimOutcome =
  | { kind: 'claimed'; record: InvestigationRecord }
  /** another runner holds a live lease */
  | { kind: 'busy'; record: InvestigationRecord }
  /** already completed, failed or cancelled */
  | { kind: 'terminal'; record: InvestigationRecord }
  /** its attempts are used up (the caller fails it with runner_lost) */
  | { kind: 'exhausted'; record: InvestigationRecord }
  | { kind: 'missing' };

/**
 * Storage of investigations. Every state change is a conditional write, so that of two runners
 * (or a runner and a cancel) exactly one wins a transition: the winner alone emits its event.
 */
export interface InvestigationStore {
  create(record: InvestigationRecord): Promise<void>;
  /** scoped to the team: another team's id is undefined */
  get(teamId: string, investigationId: string): Promise<InvestigationRecord | undefined>;
  /** unscoped, for runners */
  getById(investigationId: string): Promise<InvestigationRecord | undefined>;
  /** newest first */
  list(query: ListInvestigationsQuery): Promise<{ items: InvestigationRecord[]; total: number }>;
  /**
   * Takes the lease: pending -> running, or running with a lapsed lease -> running under the new
   * owner; the attempt counter grows by one. At `maxAttempts` it answers `exhausted` instead.
   */
  claim(
    investigationId: string,
    owner: string,
    leaseMs: number,
    maxAttempts: number,
    now?: number,
  ): Promise<ClaimOutcome>;
  /** extends the lease when `owner` still holds a running investigation; false otherwise */
  renewLease(
    investigationId: string,
    owner: string,
    leaseMs: number,
    now?: number,
  ): Promise<boolean>;
  /** false when the owner no longer holds the running investigation */
  updateProgress(
    investigationId: string,
    owner: string,
    progress: ProgressRecord,
    toolsUsed?: string[],
  ): Promise<boolean>;
  /** running (held by owner, or any holder when owner is undefined) or pending -> completed | failed */
  finish(
    investigationId: string,
    owner: string | undefined,
    patch: FinishPatch,
  ): Promise<InvestigationRecord | undefined>;
  /** pending | running -> cancelled; undefined when it was not cancellable (missing, other team, terminal) */
  cancel(
    teamId: string,
    investigationId: string,
    at: string,
  ): Promise<InvestigationRecord | undefined>;
  /** pending and running investigations (recovery and the lease sweeper) */
  listUnfinished(limit?: number): Promise<InvestigationRecord[]>;
  close(): Promise<void>;
}
