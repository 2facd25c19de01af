import { isAgentName, type AgentName } from '../agents';

/** Alert-started investigations a team may start per minute unless `alerts.max_investigations_per_minute` says otherwise. */
export const DEFAULT_ALERT_INVESTIGATIONS_PER_MINUTE = 10;
/** Agent of alert-started investigations unless `alerts.agent` names another. */
export const DEFAULT_ALERT_AGENT: AgentName = 'planner';

/** The team's `alerts` settings, read from its effective config (validated when it was saved). */
export interface AlertSettings {
  disabled: ReadonlySet<string>;
  agent: AgentName;
  maxPerMinute: number;
  intakeSecretRef?: string;
  pagerdutySecretRef?: string;
  /** label names that replace the senders' grouping (empty: the sender's group key) */
  groupBy: string[];
}

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export function alertSettingsOf(effective: Record<string, unknown>): AlertSettings {
  const a = obj(effective['alerts']);
  const disabled = Array.isArray(a['disabled'])
    ? a['disabled'].filter((x): x is string => typeof x === 'string')
    : [];
  const agent = typeof a['agent'] === 'string' && isAgentName(a['agent']) ? a['agent'] : undefined;
  const cap = a['max_investigations_per_minute'];
  const pd = obj(a['pagerduty']);
  return {
    disabled: new Set(disabled),
    agent: agent ?? DEFAULT_ALERT_AGENT,
    maxPerMinute:
      typeof cap === 'number' && Number.isInteger(cap) && cap > 0
        ? cap
        : DEFAULT_ALERT_INVESTIGATIONS_PER_MINUTE,
    intakeSecretRef: typeof a['intake_secret'] === 'string' ? a['intake_secret'] : undefined,
    pagerdutySecretRef: typeof pd['signing_secret'] === 'string' ? pd['signing_secret'] : undefined,
    groupBy: Array.isArray(a['group_by'])
      ? a['group_by'].filter((x): x is string => typeof x === 'string' && x !== '')
      : [],
  };
}
