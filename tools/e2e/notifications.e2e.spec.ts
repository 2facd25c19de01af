/**
 * REST conformance of the notification points of issue 18: a failed investigation notifies
 * (webhook and chat, with status and error) (9), and change-request decisions go to
 * webhooks.config_change only (10). The real gateway, config-hierarchy, investigation-runner and
 * notifier on one in-process event bus; tool and knowledge services are doubles; a loopback HTTP
 * receiver per webhook URL and a fake Slack API.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { InProcessEventBus } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import {
  k8sTools,
  startKnowledgeServiceDouble,
  startToolServiceDouble,
  tempDir,
  untilAborted,
  waitFor,
  gatewayRequest,
  type GatewayRequestOptions,
  type ToolServiceDouble,
} from '@inquest/testing';
import { start as startConfigService } from '@inquest/config-hierarchy-service';
import { start as startRunner } from '@inquest/investigation-runner-service';
import { start as startNotifier } from '@inquest/notifier-service';
import { hierarchyAdmin, startTestGateway, type RunningGateway } from './support/hierarchy';

interface Captured {
  url: string;
  bodies: Record<string, unknown>[];
  server: Server;
}

/** A loopback HTTP endpoint that answers 200 `{ok:true}` and keeps every JSON body. */
async function capture(path = '/'): Promise<Captured> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(raw || '{}') as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}${path}`, bodies, server };
}

const adminToken = `admin.${randomBytes(24).toString('base64url')}`;
const dir = tempDir();
const stops: (() => Promise<unknown>)[] = [];
let bus: InProcessEventBus;
let gw: RunningGateway;
let tools: ToolServiceDouble;
let completeHook: Captured;
let changeHook: Captured;
let slack: Captured;
let dev: string;
let boss: string;

const request = (method: string, path: string, o?: GatewayRequestOptions) =>
  gatewayRequest(gw.url, method, path, o);
const call = (token: string, method: string, path: string, body?: unknown) =>
  request(method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });

beforeAll(async () => {
  bus = new InProcessEventBus();
  completeHook = await capture('/complete');
  changeHook = await capture('/config-change');
  slack = await capture('/api');
  writeFileSync(
    join(dir, 'secrets.json'),
    JSON.stringify({ 'inquest/nteam/slack': 'xoxb-e2e-token' }),
  );
  const common = { INQUEST_LOG_LEVEL: 'silent', INQUEST_DATA_DIR: dir, INQUEST_GRPC_PORT: '0' };
  const deps = { bus, logger: silentLogger() };
  const config = await startConfigService(common, deps);
  stops.push(() => config.stop());
  tools = await startToolServiceDouble({ tools: k8sTools() });
  const knowledge = await startKnowledgeServiceDouble();
  stops.push(
    () => tools.stop(),
    () => knowledge.stop(),
  );
  const runner = await startRunner(
    {
      ...common,
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_TOOLS_ADDR: tools.address,
      INQUEST_KNOWLEDGE_ADDR: knowledge.address,
    },
    deps,
  );
  stops.push(() => runner.stop());
  const notifier = await startNotifier(
    {
      ...common,
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_SECRETS_FILE: join(dir, 'secrets.json'),
      INQUEST_EGRESS_ALLOW: '127.0.0.1',
      INQUEST_SLACK_API_URL: slack.url,
      INQUEST_WEBHOOK_RETRY_BASE_MS: '50',
      INQUEST_NOTIFIER_POLL_MS: '100',
    },
    deps,
  );
  stops.push(() => notifier.stop());
  gw = await startTestGateway(
    adminToken,
    {
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_INVESTIGATION_ADDR: runner.address,
      INQUEST_NOTIFIER_ADDR: notifier.address,
    },
    deps,
  );
  stops.unshift(() => gw.stop());
  const hierarchy = hierarchyAdmin(gw.url, adminToken);
  await hierarchy.createNodes([
    ['norg', null, 'org'],
    ['nteam', 'norg', 'team'],
  ]);
  const put = await call(adminToken, 'PUT', '/admin/nodes/nteam/config', {
    webhooks: { investigation_complete: completeHook.url, config_change: changeHook.url },
    chat_channel: '#incidents',
    tokens_vault_path: { slack_bot_token: 'vault://inquest/nteam/slack' },
    agents: { k8s_agent: { timeout: 1 } },
    approval: { approvers: ['boss@example.com'] },
  });
  expect(put.status).toBe(200);
  dev = await hierarchy.issueToken('nteam', 'dev@example.com');
  boss = await hierarchy.issueToken('nteam', 'boss@example.com');
});

afterAll(async () => {
  for (const stop of stops) await stop();
  for (const c of [completeHook, changeHook, slack]) c?.server.close();
  await bus?.close();
});

describe('a failed investigation notifies (point 9)', () => {
  it('sends investigation_complete with status failed and the error, and a chat message', async () => {
    tools.tools[0]!.handler = (_p, ctx) => untilAborted(ctx.signal);
    const run = await call(dev, 'POST', '/agents/run', {
      agent_name: 'k8s_agent',
      message: 'checkout pods keep restarting',
      context: { namespace: 'shop' },
    });
    expect(run.status).toBe(200);
    expect(run.body.status).toBe('failed');
    const id = run.body.investigation_id as string;
    await waitFor(() => completeHook.bodies.some((b) => b['investigation_id'] === id), 10_000);
    const hook = completeHook.bodies.find((b) => b['investigation_id'] === id)!;
    expect(hook).toMatchObject({
      event: 'investigation_complete',
      investigation_id: id,
      team_id: 'nteam',
      status: 'failed',
      agent: 'k8s_agent',
      error: { code: 'timeout', message: expect.any(String) },
    });
    expect(typeof hook['completed_at']).toBe('string');
    await waitFor(() => slack.bodies.some((b) => String(b['text']).includes(id)), 10_000);
    const chat = slack.bodies.find((b) => String(b['text']).includes(id))!;
    expect(chat['channel']).toBe('#incidents');
    expect(String(chat['text'])).toMatch(/failed/);
    expect(String(chat['text'])).toMatch(/timeout/);
    expect(changeHook.bodies.some((b) => b['investigation_id'] === id)).toBe(false);
    const deliveries = await call(dev, 'GET', '/webhooks/deliveries?limit=100');
    expect(
      deliveries.body.deliveries
        .filter((d: { event_id: string }) => d.event_id.startsWith(id))
        .map((d: { channel: string; target: string }) => [d.channel, d.target])
        .sort(),
    ).toEqual([
      ['chat', '#incidents'],
      ['webhook', completeHook.url],
    ]);
    // each recorded attempt is listed with its time, answer and outcome
    let webhook: { status: string; attempt_log?: unknown[] } | undefined;
    await waitFor(
      async () => {
        const list = await call(dev, 'GET', '/webhooks/deliveries?limit=100&channel=webhook');
        webhook = list.body.deliveries.find((d: { event_id: string }) => d.event_id.startsWith(id));
        return webhook?.status === 'delivered';
      },
      10_000,
      200,
    );
    expect(webhook!.attempt_log).toEqual([
      {
        attempt: 1,
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        outcome: 'delivered',
        status_code: expect.any(Number),
      },
    ]);
  });
});

describe('change-request decisions go to webhooks.config_change (point 10)', () => {
  beforeAll(async () => {
    const res = await call(adminToken, 'PUT', '/admin/nodes/nteam/config', {
      feature_flags: { require_approval: true },
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['approve', null],
    ['reject', '@approve'],
  ] as const)(
    '%s: the decision goes to the config_change URL only, and a chat message',
    async (verb, old) => {
      const put = await call(dev, 'PUT', '/config/me', { chat_group_to_ping: `@${verb}` });
      expect(put.status).toBe(202);
      const id = put.body.change_request_id as string;
      const decided = await call(boss, 'POST', `/config/me/pending/${id}/${verb}`, {
        comment: `${verb} it`,
      });
      expect(decided.status).toBe(200);
      const event = verb === 'approve' ? 'config_change_approved' : 'config_change_rejected';
      await waitFor(() => changeHook.bodies.some((b) => b['change_request_id'] === id), 10_000);
      const hook = changeHook.bodies.find((b) => b['change_request_id'] === id)!;
      expect(hook).toMatchObject({
        event,
        team_id: 'nteam',
        change_request_id: id,
        status: verb === 'approve' ? 'approved' : 'rejected',
        requested_by: 'dev@example.com',
        decided_by: 'boss@example.com',
        comment: `${verb} it`,
        changes: { chat_group_to_ping: { old, new: `@${verb}` } },
      });
      if (verb === 'approve') expect(typeof hook['applied_version']).toBe('number');
      else expect(hook['applied_version']).toBeUndefined();
      await waitFor(
        () =>
          slack.bodies.some(
            (b) =>
              String(b['text']).includes(id) && /was (approved|rejected)/.test(String(b['text'])),
          ),
        10_000,
      );
      expect(completeHook.bodies.some((b) => b['change_request_id'] === id)).toBe(false);
    },
  );
});
