import { agentEnum, investigationStatusEnum, priorityEnum } from '@inquest/proto';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';

export const SIGNING_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
export const SLACK_TOKEN = 'xoxb-test-1234';
/** team-b's signing secret: no other team's webhook may ever be signed with it */
export const TEAM_B_SIGNING_SECRET = 'whsec_dGVhbS1iLXNpZ25pbmctc2VjcmV0LTAwMDAwMDA=';

/**
 * What config-hierarchy answers for a team inheriting the org's (acme) signing secret and Slack
 * token: both resolve under the org, which set them.
 */
export const ORG_SECRET_SCOPES = {
  'webhooks.signing_secret': { owner_node_id: 'acme', prefixes: ['inquest/acme/'] },
  'tokens_vault_path.slack_bot_token': { owner_node_id: 'acme', prefixes: ['inquest/acme/'] },
};
export const ORG_SIGNING_REF = 'vault://inquest/acme/hooks/signing';
export const ORG_SLACK_REF = 'vault://inquest/acme/slack/bot';

/** Env of a notifier under test: fast retries, loopback allowed, secrets in a file. */
export function notifierEnv(
  dir: string,
  configAddr: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  const secretsFile = join(dir, 'secrets.json');
  writeFileSync(
    secretsFile,
    JSON.stringify({
      'inquest/acme/hooks/signing': SIGNING_SECRET,
      'inquest/acme/slack/bot': SLACK_TOKEN,
      'inquest/team-b/signing': TEAM_B_SIGNING_SECRET,
    }),
  );
  return {
    INQUEST_GRPC_PORT: '0',
    INQUEST_LOG_LEVEL: 'silent',
    INQUEST_CONFIG_ADDR: configAddr,
    INQUEST_DATA_DIR: dir,
    INQUEST_SECRETS_FILE: secretsFile,
    INQUEST_EGRESS_ALLOW: '127.0.0.1',
    INQUEST_WEBHOOK_RETRY_BASE_MS: '50',
    INQUEST_WEBHOOK_RETRY_CAP_MS: '2000',
    INQUEST_WEBHOOK_MAX_ATTEMPTS: '10',
    INQUEST_WEBHOOK_TIMEOUT_MS: '1000',
    INQUEST_NOTIFIER_LEASE_MS: '6000',
    INQUEST_NOTIFIER_POLL_MS: '100',
    ...overrides,
  };
}

let n = 0;
/** An InvestigationFinished event (JSON form) for a team. */
export function completedEvent(
  teamId: string,
  overrides: { event_id?: string; investigation_id?: string } = {},
) {
  const i = ++n;
  const id = overrides.investigation_id ?? `inv_${i}_${Math.random().toString(36).slice(2, 8)}`;
  return {
    event_id: overrides.event_id ?? `evt_${i}_${Math.random().toString(36).slice(2, 10)}`,
    occurred_at: new Date().toISOString(),
    team_id: teamId,
    investigation: {
      investigation_id: id,
      team_id: teamId,
      status: 'completed',
      agent: 'investigation_agent',
      status_enum: investigationStatusEnum.toProto('completed'),
      agent_enum: agentEnum.toProto('investigation_agent'),
      message: 'checkout latency',
      created_at: new Date().toISOString(),
      completed_at: new Date().toISOString(),
      result: {
        summary: 'Checkout latency caused by an exhausted DB pool',
        root_cause: {
          description: 'connection leak in payments-db client',
          confidence: 87,
          evidence: ['pool at 100%'],
        },
        timeline: [],
        affected_systems: ['checkout'],
        recommendations: [
          {
            priority: 'high',
            priority_enum: priorityEnum.toProto('high'),
            action: 'restart checkout pods',
          },
        ],
      },
      tools_used: [],
      attempt: 1,
    },
  };
}
