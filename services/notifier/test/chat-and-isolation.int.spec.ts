import { InProcessEventBus, Subjects } from '@inquest/events';
import { createClient } from '@inquest/grpc-kit';
import { changeRequestStatusEnum, notifierV1 } from '@inquest/proto';
import {
  startConfigServiceDouble,
  tempDir,
  waitFor,
  type ConfigServiceDouble,
} from '@inquest/testing';
import { start, type RunningService } from '../src/main';
import {
  completedEvent,
  notifierEnv,
  ORG_SECRET_SCOPES,
  ORG_SLACK_REF,
  SLACK_TOKEN,
} from './support/notifier-env';
import { ok, startReceiver, type Receiver } from './support/receiver';
import { startSlackDouble, type SlackDouble } from './support/slack-double';

const ctx = { requestId: 'test' };
const dirs = { main: tempDir(), strict: tempDir(), replicas: tempDir() };
let config: ConfigServiceDouble;
let slack: SlackDouble;
const stops: Array<() => Promise<void> | void> = [];

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  stops.push(() => r.stop());
  return r;
}

async function notifier(
  dir: string,
  overrides: Record<string, string> = {},
  bus = new InProcessEventBus(),
) {
  const svc: RunningService = await start(
    notifierEnv(dir, config.address, { INQUEST_SLACK_API_URL: slack.apiUrl, ...overrides }),
    { bus },
  );
  const client = createClient(notifierV1.NotifierServiceClient, svc.address);
  stops.push(async () => {
    client.close();
    await svc.stop();
  });
  const list = async (team: string, channel?: string) =>
    (
      await client.listDeliveries(
        { team_id: team, limit: 100, status_enum: 0, ...(channel ? { channel } : {}) },
        { ctx },
      )
    ).deliveries;
  return { svc, bus, client, list };
}

beforeAll(async () => {
  config = await startConfigServiceDouble();
  slack = await startSlackDouble([SLACK_TOKEN], ['#incidents', '#payments']);
});

afterAll(async () => {
  for (const s of stops.reverse()) await s();
  await slack.stop();
  await config.stop();
});

describe('chat notifications', () => {
  let n: Awaited<ReturnType<typeof notifier>>;
  beforeAll(async () => {
    n = await notifier(dirs.main);
  });

  it('posts a concise summary with chat.postMessage, mentioning the group', async () => {
    config.effective.set('t-chat', {
      chat_channel: '#incidents',
      chat_group_to_ping: 'S0PAYMENTS',
      tokens_vault_path: { slack_bot_token: ORG_SLACK_REF },
    });
    config.secretScopes.set('t-chat', ORG_SECRET_SCOPES);
    const ev = completedEvent('t-chat');
    await n.bus.publish(Subjects.investigationCompleted, ev);
    await waitFor(() => slack.messages.length === 1);
    const m = slack.messages[0]!;
    expect(m).toMatchObject({ channel: '#incidents', token: SLACK_TOKEN });
    expect(m.text).toContain('<!subteam^S0PAYMENTS>');
    expect(m.text).toContain('connection leak in payments-db client');
    expect(m.text).toContain('confidence 87%');
    expect(m.text).toContain('[high] restart checkout pods');
    // no INQUEST_CONSOLE_URL: no link (the API's status URL answers a browser 401), the command
    expect(m.text).not.toContain('/api/v1/');
    expect(m.text).toContain(`Details: \`inquest status ${ev.investigation.investigation_id}\``);
    await waitFor(async () => (await n.list('t-chat', 'chat'))[0]?.status === 'delivered');
  });

  it('retries Slack failures without holding up the team webhook; stops on channel_not_found', async () => {
    const r = await receiver();
    config.effective.set('t-chat-bad', {
      webhooks: { investigation_complete: r.url },
      chat_channel: '#payments',
      tokens_vault_path: { slack_bot_token: ORG_SLACK_REF },
    });
    config.secretScopes.set('t-chat-bad', ORG_SECRET_SCOPES);
    slack.script.push({ status: 500 }, { status: 429, retryAfter: 1 }, { error: 'internal_error' });
    const before = slack.messages.length;
    await n.bus.publish(Subjects.investigationCompleted, completedEvent('t-chat-bad'));
    await waitFor(() => r.acceptedIds().length === 1);
    expect(slack.messages.length).toBe(before); // chat still failing, webhook already through
    await waitFor(() => slack.messages.length === before + 1, 6000);
    const [chat] = await n.list('t-chat-bad', 'chat');
    expect(chat).toMatchObject({ status: 'delivered', attempts: 4 });

    config.effective.set('t-chat-gone', {
      chat_channel: '#nowhere',
      tokens_vault_path: { slack_bot_token: ORG_SLACK_REF },
    });
    config.secretScopes.set('t-chat-gone', ORG_SECRET_SCOPES);
    await n.bus.publish(Subjects.investigationCompleted, completedEvent('t-chat-gone'));
    const [gone] = await waitFor(async () => {
      const ds = await n.list('t-chat-gone');
      return ds[0]?.status === 'stopped' ? ds : undefined;
    });
    expect(gone).toMatchObject({ attempts: 1, last_error: 'slack: channel_not_found' });
  });

  it('notifies approvers of a change request, and the team of the decision (chat + the config_change webhook)', async () => {
    const r = await receiver();
    const investigations = await receiver();
    config.effective.set('t-cr', {
      webhooks: { investigation_complete: investigations.url, config_change: r.url },
      chat_channel: '#payments',
      tokens_vault_path: { slack_bot_token: ORG_SLACK_REF },
      approval: { approvers: ['lead@example.com', 'sre@example.com'] },
    });
    config.secretScopes.set('t-cr', ORG_SECRET_SCOPES);
    const cr = {
      change_request_id: 'cr_1',
      team_id: 't-cr',
      status: 'pending_approval',
      status_enum: changeRequestStatusEnum.toProto('pending_approval'),
      requested_by: 'dev@example.com',
      requested_at: '2026-01-01T00:00:00.000Z',
      approvers: ['lead@example.com', 'sre@example.com'],
      changes: { 'feature_flags.enable_write_actions': { old: false, new: true } },
      patch: { feature_flags: { enable_write_actions: true } },
    };
    const before = slack.messages.length;
    await n.bus.publish(Subjects.configChangeRequested, {
      event_id: 'evt_cr_req',
      occurred_at: '2026-01-01T00:00:00.000Z',
      team_id: 't-cr',
      change_request: cr,
    });
    await waitFor(() => slack.messages.length === before + 1);
    const asked = slack.messages[before]!.text;
    expect(asked).toContain('lead@example.com, sre@example.com');
    expect(asked).toContain('cr_1');
    expect(asked).toContain('feature_flags.enable_write_actions');
    expect(r.received).toHaveLength(0); // no webhook for a request

    await n.bus.publish(Subjects.configChangeApproved, {
      event_id: 'evt_cr_ok',
      occurred_at: '2026-01-01T00:05:00.000Z',
      team_id: 't-cr',
      change_request: {
        ...cr,
        status: 'approved',
        status_enum: changeRequestStatusEnum.toProto('approved'),
        decided_by: 'lead@example.com',
        decided_at: '2026-01-01T00:05:00.000Z',
        applied_version: 7,
      },
    });
    await waitFor(() => r.received.length === 1 && slack.messages.length === before + 2);
    const body = JSON.parse(r.received[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      event: 'config_change_approved',
      change_request_id: 'cr_1',
      team_id: 't-cr',
      decided_by: 'lead@example.com',
      applied_version: 7,
      requested_by: 'dev@example.com',
    });
    expect(body).not.toHaveProperty('patch');
    expect(r.received[0]!.headers['webhook-id']).toBe('evt_cr_ok');
    expect(slack.messages[before + 1]!.text).toContain('approved by lead@example.com');

    await n.bus.publish(Subjects.configChangeRejected, {
      event_id: 'evt_cr_no',
      occurred_at: '2026-01-01T00:06:00.000Z',
      team_id: 't-cr',
      change_request: {
        ...cr,
        change_request_id: 'cr_2',
        status: 'rejected',
        status_enum: changeRequestStatusEnum.toProto('rejected'),
        decided_by: 'sre@example.com',
        comment: 'not now',
      },
    });
    await waitFor(() => r.received.length === 2);
    // investigation_complete's receiver is for that one event only
    expect(investigations.received).toHaveLength(0);
    expect(JSON.parse(r.received[1]!.body)).toMatchObject({
      event: 'config_change_rejected',
      change_request_id: 'cr_2',
      comment: 'not now',
    });
  });

  it('isolates teams: a receiver that always hangs does not delay deliveries to other teams', async () => {
    const hang = await receiver(() => undefined);
    const fast = await receiver(ok);
    config.effective.set('t-hang', { webhooks: { investigation_complete: hang.url } });
    config.effective.set('t-fast', { webhooks: { investigation_complete: fast.url } });
    for (let i = 0; i < 40; i++)
      await n.bus.publish(Subjects.investigationCompleted, completedEvent('t-hang'));
    await waitFor(() => hang.received.length >= 4);
    const t0 = Date.now();
    for (let i = 0; i < 20; i++)
      await n.bus.publish(Subjects.investigationCompleted, completedEvent('t-fast'));
    await waitFor(() => fast.acceptedIds().length === 20, 5000);
    expect(Date.now() - t0).toBeLessThan(800); // well under the 1 s timeout the hanging lane waits for
    expect(hang.received.length).toBeLessThanOrEqual(8); // lane capacity 4: at most 4 in flight at a time
  });
});

describe('egress guard', () => {
  it('refuses a receiver on a private address without an allow-list: nothing sent, delivery stopped', async () => {
    const r = await receiver(ok);
    const n = await notifier(dirs.strict, { INQUEST_EGRESS_ALLOW: '' });
    config.effective.set('t-private', { webhooks: { investigation_complete: r.url } });
    config.effective.set('t-localhost', {
      webhooks: { investigation_complete: `http://localhost:${r.port}/hook` },
    });
    await n.bus.publish(Subjects.investigationCompleted, completedEvent('t-private'));
    await n.bus.publish(Subjects.investigationCompleted, completedEvent('t-localhost'));
    for (const t of ['t-private', 't-localhost']) {
      const [d] = await waitFor(async () => {
        const ds = await n.list(t);
        return ds[0]?.status === 'stopped' ? ds : undefined;
      });
      expect(d!.last_error).toContain('egress_refused');
    }
    expect(r.received).toHaveLength(0);
  });
});

describe('replicas', () => {
  it('two replicas on one store deliver each event exactly once to a healthy receiver', async () => {
    const r = await receiver(ok);
    config.effective.set('t-replicas', { webhooks: { investigation_complete: r.url } });
    const bus = new InProcessEventBus();
    const a = await notifier(dirs.replicas, { INQUEST_NOTIFIER_REPLICA_ID: 'a' }, bus);
    await notifier(dirs.replicas, { INQUEST_NOTIFIER_REPLICA_ID: 'b' }, bus);
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const ev = completedEvent('t-replicas');
      ids.push(ev.event_id);
      await bus.publish(Subjects.investigationCompleted, ev);
    }
    await waitFor(() => r.received.length >= 200, 15_000);
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(200);
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set(ids));
    const log = await a.list('t-replicas');
    expect(log.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  });
});
