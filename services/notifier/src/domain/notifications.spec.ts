import {
  investigationChatText,
  consoleLink,
  investigationCompletePayload,
  planDeliveries,
  slackMention,
  changeRequestPayload,
} from './notifications';
import { teamSettingsFrom } from './team-settings';

const event = {
  event_id: 'evt_1',
  occurred_at: '2026-01-01T00:00:05.000Z',
  team_id: 'payments',
  investigation: {
    investigation_id: 'inv_1',
    team_id: 'payments',
    status: 'completed',
    agent: 'investigation_agent',
    completed_at: '2026-01-01T00:00:04.000Z',
    result: {
      summary: 'DB pool exhausted',
      root_cause: { description: 'connection leak', confidence: 82, evidence: ['e1'] },
      timeline: [],
      recommendations: [
        { priority: 'high', action: 'restart pods' },
        { priority: 'medium', action: 'raise pool' },
        { priority: 'low', action: 'a' },
        { priority: 'low', action: 'b' },
      ],
    },
  },
};

describe('notifications', () => {
  it('builds the investigation_complete payload: spec fields plus team_id, status, agent, completed_at', () => {
    expect(investigationCompletePayload(event)).toEqual({
      event: 'investigation_complete',
      investigation_id: 'inv_1',
      summary: 'DB pool exhausted',
      root_cause: { description: 'connection leak', confidence: 82, evidence: ['e1'] },
      recommendations: event.investigation.result.recommendations,
      team_id: 'payments',
      status: 'completed',
      agent: 'investigation_agent',
      completed_at: '2026-01-01T00:00:04.000Z',
    });
  });

  it('builds a failed investigation payload with status, error and the time it failed', () => {
    const p = investigationCompletePayload({
      event_id: 'evt_f',
      team_id: 'payments',
      investigation: {
        investigation_id: 'inv_f',
        status: 'failed',
        agent: 'k8s_agent',
        failed_at: '2026-01-01T00:01:00.000Z',
        error: { code: 'data_source_unavailable', message: 'no tool server answered' },
      },
    });
    expect(p).toEqual({
      event: 'investigation_complete',
      investigation_id: 'inv_f',
      summary: '',
      root_cause: {},
      recommendations: [],
      team_id: 'payments',
      status: 'failed',
      agent: 'k8s_agent',
      completed_at: '2026-01-01T00:01:00.000Z',
      error: { code: 'data_source_unavailable', message: 'no tool server answered' },
    });
    expect(investigationChatText(p, undefined)).toContain(
      'Investigation inv_f failed (k8s_agent)\n*Error* data_source_unavailable: no tool server answered',
    );
  });

  it('sends each event to its own receiver: change decisions never to investigation_complete', () => {
    const settings = teamSettingsFrom(
      { webhooks: { investigation_complete: 'https://a.example.com/ic' } },
      'payments',
    );
    const envelope = { event_id: 'e', team_id: 'payments', occurred_at: 'now' };
    const ctx = { settings, now: '2026-01-01T00:00:00.000Z' };
    const both = { webhook: true, chat: true };
    expect(planDeliveries(envelope, 'config_change_approved', {}, ctx, both)).toEqual([]);
    const withChange = teamSettingsFrom(
      { webhooks: { config_change: 'https://a.example.com/cc' } },
      'payments',
    );
    const planned = planDeliveries(
      envelope,
      'config_change_rejected',
      {},
      { ...ctx, settings: withChange },
      both,
    );
    expect(planned.map((d) => d.target)).toEqual(['https://a.example.com/cc']);
    expect(
      planDeliveries(
        envelope,
        'investigation_complete',
        {},
        { ...ctx, settings: withChange },
        both,
      ),
    ).toEqual([]);
  });

  it('puts Approve / Reject buttons on the pending-approval chat message only', () => {
    const settings = teamSettingsFrom(
      {
        chat_channel: '#inc',
        tokens_vault_path: { slack_bot_token: 'vault://inquest/payments/slack' },
      },
      'payments',
    );
    const envelope = { event_id: 'e', team_id: 'payments', occurred_at: 'now' };
    const ctx = { settings, now: '2026-01-01T00:00:00.000Z' };
    const only = { webhook: false, chat: true };
    const cr = { event: 'config_change_requested', change_request_id: 'cr_1', team_id: 'payments' };
    const [requested] = planDeliveries(envelope, 'config_change_requested', cr, ctx, only);
    const actions = (
      (requested?.payload as Record<string, unknown>)['blocks'] as {
        type: string;
        elements?: unknown[];
      }[]
    ).find((b) => b.type === 'actions');
    expect(actions?.elements).toEqual([
      expect.objectContaining({ action_id: 'inquest_approve', value: 'payments:cr_1' }),
      expect.objectContaining({ action_id: 'inquest_reject', value: 'payments:cr_1' }),
    ]);
    const [approved] = planDeliveries(
      envelope,
      'config_change_approved',
      { ...cr, event: 'config_change_approved' },
      ctx,
      only,
    );
    expect((approved?.payload as Record<string, unknown>)['blocks']).toBeUndefined();
  });

  it('plans a webhook and a chat message from the team settings', () => {
    const settings = teamSettingsFrom(
      {
        webhooks: {
          investigation_complete: 'https://h.example/x',
          signing_secret: 'vault://inquest/acme/wh#s',
        },
        chat_channel: '#inc',
        chat_group_to_ping: 'S0ABCDEF1',
        tokens_vault_path: { slack_bot_token: 'vault://inquest/payments/slack#bot' },
      },
      'payments',
      // the signing secret is inherited from the org, which set it
      { 'webhooks.signing_secret': { owner_node_id: 'acme', prefixes: ['inquest/acme/'] } },
    );
    const [hook, chat] = planDeliveries(
      { event_id: 'evt_1', team_id: 'payments', occurred_at: '' },
      'investigation_complete',
      investigationCompletePayload(event),
      { settings, now: '2026-01-01T00:00:06.000Z' },
      { webhook: true, chat: true },
    );
    expect(hook).toMatchObject({
      channel: 'webhook',
      target: 'https://h.example/x',
      secret_ref: 'vault://inquest/acme/wh#s',
      secret_scope: { owner: 'acme', prefixes: ['inquest/acme/'] },
      event_id: 'evt_1',
    });
    expect(chat).toMatchObject({
      channel: 'chat',
      target: '#inc',
      secret_ref: 'vault://inquest/payments/slack#bot',
      // no scope from config-hierarchy: the team's own
      secret_scope: { owner: 'payments', prefixes: ['inquest/payments/'] },
    });
    const text = (chat!.payload as { text: string }).text;
    expect(text).toContain('<!subteam^S0ABCDEF1>');
    expect(text).toContain('confidence 82%');
    expect(text).toContain('restart pods');
    expect(text).not.toContain('• [low] b'); // top 3 only
    // no link a browser gets 401 from: the CLI command instead, until a console is configured
    expect(text).not.toContain('/api/v1/');
    expect(text).not.toMatch(/<https?:/);
    expect(text.split('\n').at(-1)).toBe('Details: `inquest status inv_1`');
  });

  it('plans nothing without a receiver, and no chat without a bot token', () => {
    const plan = planDeliveries(
      { event_id: 'e', team_id: 't', occurred_at: '' },
      'investigation_complete',
      {},
      {
        settings: teamSettingsFrom({ chat_channel: '#x' }, 'payments'),
        now: '',
      },
      { webhook: true, chat: true },
    );
    expect(plan).toEqual([]);
  });

  it('links the investigation in the console only when a console URL is configured', () => {
    const payload = { investigation_id: 'inv_9', status: 'completed', agent: 'planner' };
    expect(investigationChatText(payload, undefined)).toContain('Details: `inquest status inv_9`');
    expect(investigationChatText(payload, undefined, 'https://inquest.example/console/')).toContain(
      '<https://inquest.example/console/investigations/inv_9|Open in the Inquest console>',
    );
    expect(consoleLink('https://c.example/#/inv/{investigation_id}', 'inv/1')).toBe(
      'https://c.example/#/inv/inv%2F1',
    );
  });

  it('formats mentions and change request payloads', () => {
    expect(slackMention('@here')).toBe('<!here>');
    expect(slackMention('oncall-payments')).toBe('@oncall-payments');
    const p = changeRequestPayload('config_change_approved', {
      event_id: 'e',
      team_id: 't',
      change_request: {
        change_request_id: 'cr_1',
        status: 'approved',
        requested_by: 'a@x',
        approvers: ['b@x'],
        changes: { 'x.y': { old: 1, new: 2 } },
        decided_by: 'b@x',
        applied_version: 4,
        patch: { x: { y: 2 } },
      },
    });
    expect(p).toMatchObject({
      event: 'config_change_approved',
      change_request_id: 'cr_1',
      decided_by: 'b@x',
      applied_version: 4,
    });
    expect(p).not.toHaveProperty('patch');
  });
});
