/** The parts of a team's effective configuration the notifier acts on. */
export interface TeamSettings {
  /** webhooks.investigation_complete: the team's receiver URL */
  webhookUrl?: string;
  /** webhooks.signing_secret (extension): vault reference of the Standard Webhooks secret */
  signingSecretRef?: string;
  chatChannel?: string;
  chatGroupToPing?: string;
  /** tokens_vault_path.slack_bot_token: vault reference of the Slack bot token */
  slackTokenRef?: string;
  /** approval.approvers (extension) */
  approvers: string[];
}

/** Reads the team's effective configuration (config-hierarchy). Throws when it cannot. */
export interface TeamSettingsSource {
  get(teamId: string): Promise<TeamSettings>;
}

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** Picks the notifier's settings out of an effective config document; unknown shapes are ignored. */
export function teamSettingsFrom(config: unknown): TeamSettings {
  const c = obj(config);
  const webhooks = obj(c['webhooks']);
  const tokens = obj(c['tokens_vault_path']);
  const approvers = obj(c['approval'])['approvers'];
  const s: TeamSettings = {
    approvers: Array.isArray(approvers)
      ? approvers.filter((a): a is string => typeof a === 'string')
      : [],
  };
  const url = str(webhooks['investigation_complete']);
  if (url) s.webhookUrl = url;
  const secret = str(webhooks['signing_secret']);
  if (secret) s.signingSecretRef = secret;
  const channel = str(c['chat_channel']);
  if (channel) s.chatChannel = channel;
  const group = str(c['chat_group_to_ping']);
  if (group) s.chatGroupToPing = group;
  const token = str(tokens['slack_bot_token']);
  if (token) s.slackTokenRef = token;
  return s;
}
