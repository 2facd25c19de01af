import { secretScopeOf, type SecretScope } from '@inquest/secrets';

/** Wire form of a secret scope (config-hierarchy's GetEffectiveConfig `secret_scopes`). */
export interface WireSecretScope {
  owner_node_id: string;
  prefixes: string[];
}

/** The parts of a team's effective configuration the notifier acts on. */
export interface TeamSettings {
  /** webhooks.investigation_complete: the receiver of investigation_complete only */
  webhookUrl?: string;
  /** webhooks.config_change (extension): the receiver of config_change_approved/rejected */
  configChangeUrl?: string;
  /** webhooks.signing_secret (extension): vault reference of the Standard Webhooks secret */
  signingSecretRef?: string;
  /** where signingSecretRef may point (the node that set it) */
  signingSecretScope?: SecretScope;
  chatChannel?: string;
  chatGroupToPing?: string;
  /** tokens_vault_path.slack_bot_token: vault reference of the Slack bot token */
  slackTokenRef?: string;
  /** where slackTokenRef may point (the node that set it) */
  slackTokenScope?: SecretScope;
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

/**
 * Picks the notifier's settings out of an effective config document; unknown shapes are ignored.
 * A secret reference resolves in the scope config-hierarchy names for its field, else only under
 * the team's own prefix.
 */
export function teamSettingsFrom(
  config: unknown,
  teamId: string,
  secretScopes: Record<string, WireSecretScope> = {},
): TeamSettings {
  const scopeOf = (field: string): SecretScope => {
    const wire = secretScopes[field];
    return wire ? { owner: wire.owner_node_id, prefixes: wire.prefixes } : secretScopeOf(teamId);
  };
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
  const changeUrl = str(webhooks['config_change']);
  if (changeUrl) s.configChangeUrl = changeUrl;
  const secret = str(webhooks['signing_secret']);
  if (secret) {
    s.signingSecretRef = secret;
    s.signingSecretScope = scopeOf('webhooks.signing_secret');
  }
  const channel = str(c['chat_channel']);
  if (channel) s.chatChannel = channel;
  const group = str(c['chat_group_to_ping']);
  if (group) s.chatGroupToPing = group;
  const token = str(tokens['slack_bot_token']);
  if (token) {
    s.slackTokenRef = token;
    s.slackTokenScope = scopeOf('tokens_vault_path.slack_bot_token');
  }
  return s;
}
