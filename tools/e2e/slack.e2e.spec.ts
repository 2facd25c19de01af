/**
 * The Slack chat front end of issue 21, end to end: the real gateway, config-hierarchy,
 * investigation-runner (deterministic engine) and knowledge-raptor on one in-process bus, a tool
 * service double, and a scripted Slack Web API on loopback (INQUEST_SLACK_API_URL) that records
 * every call. Requests are signed as Slack signs them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { InProcessEventBus } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import {
  k8sTools,
  startToolServiceDouble,
  tempDir,
  waitFor,
  gatewayRequest,
  type ToolServiceDouble,
} from '@inquest/testing';
import { start as startConfigService } from '@inquest/config-hierarchy-service';
import { start as startRunner } from '@inquest/investigation-runner-service';
import { start as startKnowledge } from '@inquest/knowledge-raptor-service';
import { hierarchyAdmin, startTestGateway, type RunningGateway } from './support/hierarchy';

interface SlackCall {
  method: string;
  token: string;
  args: Record<string, unknown>;
  answer: Record<string, unknown>;
}

/** A scripted Slack Web API: answers like Slack and records every call. */
async function scriptedSlack() {
  const calls: SlackCall[] = [];
  let ts = 1700000000;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '');
      const args: Record<string, unknown> = {};
      for (const [k, v] of new URLSearchParams(raw)) {
        args[k] = k === 'blocks' ? JSON.parse(v) : v;
      }
      let answer: Record<string, unknown> = { ok: true };
      if (method === 'chat.postMessage')
        answer = { ok: true, channel: args['channel'], ts: `${ts++}.000100` };
      if (method === 'users.info')
        answer =
          args['user'] === 'UALICE'
            ? { ok: true, user: { id: 'UALICE', profile: { email: 'Alice@example.com' } } }
            : { ok: false, error: 'user_not_found' };
      if (method === 'users.lookupByEmail')
        answer =
          args['email'] === 'dev@example.com'
            ? { ok: true, user: { id: 'UDEV' } }
            : { ok: false, error: 'users_not_found' };
      if (method === 'conversations.info')
        answer =
          args['channel'] === 'C0CHK'
            ? { ok: true, channel: { id: 'C0CHK', name: 'checkout-oncall' } }
            : { ok: true, channel: { id: args['channel'], name: 'random' } };
      calls.push({
        method,
        token: (req.headers.authorization ?? '').replace(/^Bearer /, ''),
        args,
        answer,
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/api`, calls, server };
}

/** Slack's v0 request signature, computed here as Slack documents it. */
const slackSignature = (secret: string, ts: string, body: string) =>
  `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;

const SIGNING_SECRET = 'e2e-signing-secret-0123456789abcdef';
const adminToken = `admin.${randomBytes(24).toString('base64url')}`;
const dir = tempDir();
const stops: (() => Promise<unknown>)[] = [];
let bus: InProcessEventBus;
let gw: RunningGateway;
let tools: ToolServiceDouble;
let slack: Awaited<ReturnType<typeof scriptedSlack>>;
let payToken: string;
let peers: Record<string, string>;
let eventSeq = 0;

type Headers = Record<string, string>;
const signedHeaders = (body: string, o: { secret?: string; at?: number } = {}): Headers => {
  const ts = String(Math.floor((o.at ?? Date.now()) / 1000));
  return {
    'x-slack-request-timestamp': ts,
    'x-slack-signature': slackSignature(o.secret ?? SIGNING_SECRET, ts, body),
  };
};

async function post(
  path: string,
  body: string,
  contentType: string,
  headers: Headers,
  node = 'acme',
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${gw.url}/api/v1/chat/slack/${path}?node=${node}`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const sendEvent = (
  payload: object,
  extra: Headers = {},
  sign: { secret?: string; at?: number } = {},
) => {
  const body = JSON.stringify(payload);
  return post('events', body, 'application/json', { ...signedHeaders(body, sign), ...extra });
};

/** An event_callback of an app_mention (or a DM with `im`) in `channel`. */
function mention(text: string, channel = 'C0PAY', o: { im?: boolean; user?: string } = {}) {
  eventSeq += 1;
  const ts = `1700001${String(eventSeq).padStart(3, '0')}.000200`;
  return {
    token: 'legacy',
    team_id: 'T0ACME',
    api_app_id: 'A0INQ',
    type: 'event_callback',
    event_id: `Ev${String(eventSeq).padStart(8, '0')}`,
    event_time: Math.floor(Date.now() / 1000),
    event: o.im
      ? { type: 'message', channel_type: 'im', channel, user: o.user ?? 'UALICE', text, ts }
      : {
          type: 'app_mention',
          channel,
          user: o.user ?? 'UALICE',
          text: `<@U0BOT> ${text}`,
          ts,
        },
  };
}

const sendCommand = (text: string, channel = 'C0PAY', channelName = 'payments') => {
  const body = new URLSearchParams({
    token: 'legacy',
    team_id: 'T0ACME',
    channel_id: channel,
    channel_name: channelName,
    user_id: 'UALICE',
    command: '/inquest',
    text,
    response_url: 'https://hooks.slack.invalid/commands/1',
    trigger_id: '1.2.3',
  }).toString();
  return post('commands', body, 'application/x-www-form-urlencoded', signedHeaders(body));
};

const posts = (thread?: string) =>
  slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' && (thread === undefined || c.args['thread_ts'] === thread),
  );
const textOf = (c: SlackCall) =>
  `${String(c.args['text'])}\n${JSON.stringify(c.args['blocks'] ?? [])}`;
const api = (method: string, path: string, body?: unknown) =>
  gatewayRequest(gw.url, method, `/api/v1${path}`, {
    token: payToken,
    ...(body === undefined ? {} : { body }),
  });
const investigationCount = async () =>
  ((await api('GET', '/agents/investigations')).body as { pagination: { total: number } })
    .pagination.total;
const documentCount = async () =>
  ((await api('GET', '/kb/tree/stats')).body as { total_documents: number }).total_documents;

beforeAll(async () => {
  bus = new InProcessEventBus();
  slack = await scriptedSlack();
  stops.push(() => new Promise((r) => slack.server.close(r)));
  writeFileSync(
    join(dir, 'secrets.json'),
    JSON.stringify({
      'inquest/acme/slack-signing': SIGNING_SECRET,
      'inquest/acme/slack-bot': 'xoxb-acme',
    }),
  );
  const common = { INQUEST_LOG_LEVEL: 'silent', INQUEST_DATA_DIR: dir, INQUEST_GRPC_PORT: '0' };
  const deps = { bus, logger: silentLogger() };
  const config = await startConfigService(common, deps);
  stops.push(() => config.stop());
  tools = await startToolServiceDouble({ tools: k8sTools() });
  stops.push(() => tools.stop());
  const knowledge = await startKnowledge({ ...common, INQUEST_CONFIG_ADDR: config.address }, deps);
  stops.push(() => knowledge.stop());
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
  peers = {
    INQUEST_CONFIG_ADDR: config.address,
    INQUEST_INVESTIGATION_ADDR: runner.address,
    INQUEST_KNOWLEDGE_ADDR: knowledge.address,
    INQUEST_TOOLS_ADDR: tools.address,
    INQUEST_SLACK_API_URL: slack.url,
    INQUEST_SECRETS_FILE: join(dir, 'secrets.json'),
    INQUEST_DATA_DIR: dir,
    INQUEST_SLACK_PROGRESS_POLL_MS: '50',
  };
  gw = await startTestGateway(
    adminToken,
    {
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_INVESTIGATION_ADDR: runner.address,
      INQUEST_KNOWLEDGE_ADDR: knowledge.address,
      INQUEST_TOOLS_ADDR: tools.address,
      INQUEST_SLACK_API_URL: slack.url,
      INQUEST_SECRETS_FILE: join(dir, 'secrets.json'),
      INQUEST_DATA_DIR: dir,
      INQUEST_SLACK_PROGRESS_POLL_MS: '50',
    },
    deps,
  );
  stops.unshift(() => gw.stop());
  const hierarchy = hierarchyAdmin(gw.url, adminToken);
  await hierarchy.createNodes([
    ['acme', null, 'org'],
    ['payments', 'acme', 'team'],
    ['checkout', 'acme', 'team'],
    ['quiet', 'acme', 'team'],
  ]);
  const put = (node: string, body: object) =>
    gatewayRequest(gw.url, 'PUT', `/api/v1/admin/nodes/${node}/config`, {
      token: adminToken,
      body,
    });
  expect(
    (
      await put('acme', {
        slack: { signing_secret: 'vault://inquest/acme/slack-signing' },
        tokens_vault_path: { slack_bot_token: 'vault://inquest/acme/slack-bot' },
      })
    ).status,
  ).toBe(200);
  expect(
    (await put('payments', { chat_channel: 'C0PAY', slack: { workspace_id: 'T0ACME' } })).status,
  ).toBe(200);
  expect((await put('checkout', { chat_channel: '#checkout-oncall' })).status).toBe(200);
  payToken = await hierarchy.issueToken('payments', 'dev@example.com');
}, 60_000);

afterAll(async () => {
  for (const stop of stops) await stop();
  await bus.close();
});

describe('request authentication', () => {
  it('answers the url_verification challenge', async () => {
    const res = await sendEvent({ type: 'url_verification', token: 'x', challenge: 'chal-42' });
    expect(res).toEqual({ status: 200, body: { challenge: 'chal-42' } });
  });

  it('refuses a missing, wrong or stale signature and an unknown node with 401', async () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'c' });
    const json = 'application/json';
    expect((await post('events', body, json, {})).status).toBe(401);
    expect(
      (await post('events', body, json, signedHeaders(body, { secret: 'wrong' }))).status,
    ).toBe(401);
    const stale = signedHeaders(body, { at: Date.now() - 6 * 60_000 });
    expect((await post('events', body, json, stale)).status).toBe(401);
    expect((await post('events', body, json, signedHeaders(body), 'nowhere')).status).toBe(401);
    // a team without slack.signing_secret of its own is no request URL either
    expect((await post('events', body, json, signedHeaders(body), 'payments')).status).toBe(401);
    const form = 'channel_id=C0PAY&user_id=UALICE&text=list';
    const res = await post('commands', form, 'application/x-www-form-urlencoded', {
      ...signedHeaders(form),
      'x-slack-signature': 'v0=00',
    });
    expect(res.status).toBe(401);
    expect(slack.calls).toEqual([]);
  });
});

describe('investigate from a mention', () => {
  let investigationId: string;

  it('acknowledges at once, replies in the thread, edits the progress message and posts the report', async () => {
    const before = await investigationCount();
    const ev = mention('investigate checkout pods are crashlooping service=checkout ns=shop');
    const started = Date.now();
    const res = await sendEvent(ev);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);
    const thread = ev.event.ts;
    await waitFor(() => posts(thread).some((c) => /Investigation report/.test(textOf(c))), 30_000);
    const [progress, report] = posts(thread);
    expect(progress?.token).toBe('xoxb-acme');
    expect(progress?.args['channel']).toBe('C0PAY');
    const progressBlocks = progress?.args['blocks'] as {
      type: string;
      elements?: { action_id: string; value: string }[];
    }[];
    const cancel = progressBlocks.find((b) => b.type === 'actions')?.elements?.[0];
    expect(cancel?.action_id).toBe('inquest_cancel');
    investigationId = cancel?.value ?? '';
    expect(investigationId).toMatch(/\S/);
    // the progress message was edited to its final state
    const updates = slack.calls.filter((c) => c.method === 'chat.update');
    expect(updates.at(-1)?.args).toMatchObject({ channel: 'C0PAY' });
    expect(String(updates.at(-1)?.args['text'])).toMatch(/completed|failed/);
    // the report: header, root cause with confidence, console link
    const blocks = report?.args['blocks'] as { type: string }[];
    expect(blocks[0]).toMatchObject({ type: 'header' });
    const all = JSON.stringify(blocks);
    expect(all).toMatch(/Root cause\* \(confidence \d+%\)/);
    expect(all).toContain('*Evidence*');
    expect(all).toContain('*Recommendations*');
    expect(all).toContain(`/console/investigations/${investigationId}`);
    // the same run the REST API sees, requested by the Slack user's e-mail, scoped to the team
    expect(await investigationCount()).toBe(before + 1);
    const status = await api('GET', `/agents/status/${investigationId}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      status: 'completed',
      context: { service: 'checkout', namespace: 'shop' },
    });
    const list = await api('GET', '/agents/investigations');
    expect(JSON.stringify(list.body)).toContain(investigationId);
  }, 40_000);

  it('runs a retried event once (same event_id, X-Slack-Retry-Num)', async () => {
    const before = await investigationCount();
    const ev = mention('investigate payments latency');
    expect((await sendEvent(ev)).status).toBe(200);
    expect(
      (await sendEvent(ev, { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' }))
        .status,
    ).toBe(200);
    await waitFor(
      () => posts(ev.event.ts).some((c) => /Investigation report/.test(textOf(c))),
      30_000,
    );
    expect(await investigationCount()).toBe(before + 1);
    expect(
      posts(ev.event.ts).filter((c) => /Investigating/.test(String(c.args['text']))),
    ).toHaveLength(1);
  }, 40_000);

  it('status and list answer in the thread; a Cancel of an ended investigation says so', async () => {
    const s = mention(`status ${investigationId}`);
    await sendEvent(s);
    await waitFor(() => posts(s.event.ts).length > 0);
    expect(textOf(posts(s.event.ts)[0] as SlackCall)).toContain(investigationId);
    const l = mention('list');
    await sendEvent(l);
    await waitFor(() => posts(l.event.ts).length > 0);
    expect(textOf(posts(l.event.ts)[0] as SlackCall)).toContain(investigationId);

    const payload = JSON.stringify({
      type: 'block_actions',
      team: { id: 'T0ACME' },
      user: { id: 'UALICE' },
      channel: { id: 'C0PAY' },
      message: { ts: '1700000001.000100', thread_ts: '1700000000.000100' },
      actions: [{ action_id: 'inquest_cancel', value: investigationId, action_ts: '1700009999.1' }],
    });
    const form = new URLSearchParams({ payload }).toString();
    const res = await post(
      'interactions',
      form,
      'application/x-www-form-urlencoded',
      signedHeaders(form),
    );
    expect(res.status).toBe(200);
    await waitFor(() => posts('1700000000.000100').length > 0);
    expect(String(posts('1700000000.000100')[0]?.args['text'])).toMatch(/Too late/);
  }, 20_000);
});

describe('Cancel button', () => {
  it('cancels a running investigation: told in the thread, the progress message ends, no report', async () => {
    tools.delayMs = 1500;
    try {
      const ev = mention('investigate checkout is slow service=checkout');
      await sendEvent(ev);
      const thread = ev.event.ts;
      const progress = await waitFor(() =>
        posts(thread).find((c) => /Investigating/.test(String(c.args['text']))),
      );
      const blocks = progress.args['blocks'] as {
        type: string;
        elements?: { action_id: string; value: string }[];
      }[];
      const id = blocks.find((b) => b.type === 'actions')?.elements?.[0]?.value ?? '';
      const payload = JSON.stringify({
        type: 'block_actions',
        team: { id: 'T0ACME' },
        user: { id: 'UALICE' },
        channel: { id: 'C0PAY' },
        message: { ts: progress.answer['ts'], thread_ts: thread },
        actions: [{ action_id: 'inquest_cancel', value: id, action_ts: '1700008888.1' }],
      });
      const form = new URLSearchParams({ payload }).toString();
      const res = await post(
        'interactions',
        form,
        'application/x-www-form-urlencoded',
        signedHeaders(form),
      );
      expect(res.status).toBe(200);
      await waitFor(() =>
        posts(thread).some((c) => /cancelled by <@UALICE>/.test(String(c.args['text']))),
      );
      await waitFor(() =>
        slack.calls.some(
          (c) =>
            c.method === 'chat.update' &&
            c.args['ts'] === progress.answer['ts'] &&
            /was cancelled/.test(String(c.args['text'])),
        ),
      );
      expect((await api('GET', `/agents/status/${id}`)).body).toMatchObject({
        status: 'cancelled',
      });
      expect(posts(thread).some((c) => /Investigation report/.test(textOf(c)))).toBe(false);
    } finally {
      tools.delayMs = 0;
    }
  }, 30_000);

  it('the served OpenAPI document lists the Slack request URLs', async () => {
    const doc = (await gatewayRequest(gw.url, 'GET', '/api/v1/openapi.json')).body as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/chat/slack/events',
        '/chat/slack/commands',
        '/chat/slack/interactions',
      ]),
    );
  });
});

describe('rate limits', () => {
  it('counts chat commands against the team like a token: past the limit the user is told, nothing starts', async () => {
    const limited = await startTestGateway(
      adminToken,
      { ...peers, INQUEST_RATE_LIMITS: 'read=1000,write=1000,trigger=2' },
      { bus, logger: silentLogger() },
    );
    try {
      const before = await investigationCount();
      const threads: string[] = [];
      for (let i = 0; i < 3; i++) {
        const ev = mention(`investigate burst ${i}`);
        threads.push(ev.event.ts);
        const body = JSON.stringify(ev);
        const res = await fetch(`${limited.url}/api/v1/chat/slack/events?node=acme`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signedHeaders(body) },
          body,
        });
        expect(res.status).toBe(200);
      }
      await waitFor(() => threads.every((t) => posts(t).length > 0), 20_000);
      const texts = threads.map((t) => String(posts(t)[0]?.args['text']));
      expect(texts.filter((t) => /Too many requests for team \*payments\*/.test(t))).toHaveLength(
        1,
      );
      await waitFor(
        () =>
          threads.filter((t) => posts(t).some((c) => /Investigation report/.test(textOf(c))))
            .length === 2,
        20_000,
      );
      expect(await investigationCount()).toBe(before + 2);
    } finally {
      await limited.stop();
    }
  }, 40_000);
});

describe('learn and ask', () => {
  it('teaches the knowledge base and answers from it with sources', async () => {
    const before = await documentCount();
    const l = mention('learn checkout: the checkout connection pool size is 50 connections');
    await sendEvent(l);
    await waitFor(() => posts(l.event.ts).length > 0);
    const reply = String(posts(l.event.ts)[0]?.args['text']);
    expect(reply).toMatch(/Learned a fact about \*checkout\*/);
    expect(reply).toMatch(/document `[^`]+`/);
    expect(await documentCount()).toBe(before + 1);

    const r = mention(
      'learn about checkout: runbook: restart checkout pods one at a time with kubectl rollout restart',
    );
    await sendEvent(r);
    await waitFor(() => posts(r.event.ts).length > 0);
    expect(String(posts(r.event.ts)[0]?.args['text'])).toMatch(
      /Learned a runbook about \*checkout\*/,
    );

    const a = mention('ask what is the checkout connection pool size? service=checkout');
    await sendEvent(a);
    await waitFor(() => posts(a.event.ts).length > 0);
    const answer = posts(a.event.ts)[0] as SlackCall;
    expect(textOf(answer)).toContain('Sources:');
    expect(textOf(answer)).toMatch(/50/);
  }, 30_000);

  it('learn with empty text stores nothing and says how', async () => {
    const before = await documentCount();
    const l = mention('learn checkout:');
    await sendEvent(l);
    await waitFor(() => posts(l.event.ts).length > 0);
    expect(String(posts(l.event.ts)[0]?.args['text'])).toMatch(/Nothing to learn/);
    expect(await documentCount()).toBe(before);
  });
});

describe('Undo button of learn', () => {
  const press = (o: {
    channel: string;
    value: string;
    messageTs: string;
    threadTs: string;
    actionTs: string;
    user?: string;
  }) => {
    const payload = JSON.stringify({
      type: 'block_actions',
      team: { id: 'T0ACME' },
      user: { id: o.user ?? 'UALICE' },
      channel: { id: o.channel },
      message: { ts: o.messageTs, thread_ts: o.threadTs },
      actions: [{ action_id: 'inquest_undo_learn', value: o.value, action_ts: o.actionTs }],
    });
    const form = new URLSearchParams({ payload }).toString();
    return post('interactions', form, 'application/x-www-form-urlencoded', signedHeaders(form));
  };
  const retrieved = async (query: string) =>
    (
      (await api('POST', '/kb/retrieve', { query, top_k: 50, min_relevance: 0 })).body as {
        results: { document_id: string }[];
      }
    ).results.map((r) => r.document_id);

  it('deletes the taught document for the same team only and edits the reply', async () => {
    const l = mention('learn payments: the ledger replica lag alarm fires above 90 seconds');
    await sendEvent(l);
    await waitFor(() => posts(l.event.ts).length > 0);
    const reply = posts(l.event.ts)[0] as SlackCall;
    const replyTs = String(reply.answer['ts']);
    const button = (
      reply.args['blocks'] as { type: string; elements?: { action_id: string; value: string }[] }[]
    ).find((b) => b.type === 'actions')?.elements?.[0];
    expect(button?.action_id).toBe('inquest_undo_learn');
    const value = button?.value ?? '';
    const documentId = value.replace(/^payments:/, '');
    expect(value).toBe(`payments:${documentId}`);
    expect(documentId).toMatch(/^doc_/);
    expect(await retrieved('ledger replica lag alarm')).toContain(documentId);
    const before = await documentCount();

    // pressed in another team's channel, or with another team's value: refused, nothing deleted
    const n = slack.calls.length;
    const foreign = { messageTs: replyTs, threadTs: l.event.ts };
    expect((await press({ ...foreign, channel: 'C0CHK', value, actionTs: '2.1' })).status).toBe(
      200,
    );
    expect(
      (
        await press({
          ...foreign,
          channel: 'C0PAY',
          value: `checkout:${documentId}`,
          actionTs: '2.2',
        })
      ).status,
    ).toBe(200);
    await waitFor(
      () => slack.calls.slice(n).filter((c) => c.method === 'chat.postEphemeral').length === 2,
    );
    for (const c of slack.calls.slice(n).filter((x) => x.method === 'chat.postEphemeral'))
      expect(String(c.args['text'])).toMatch(/does not belong to this channel/);
    expect(slack.calls.slice(n).some((c) => c.method === 'chat.update')).toBe(false);
    expect(await documentCount()).toBe(before);
    expect((await api('GET', `/kb/status?document_id=${documentId}`)).status).toBe(200);

    const m = slack.calls.length;
    expect((await press({ ...foreign, channel: 'C0PAY', value, actionTs: '2.3' })).status).toBe(
      200,
    );
    await waitFor(() => slack.calls.slice(m).some((c) => c.method === 'chat.update'));
    const update = slack.calls.slice(m).find((c) => c.method === 'chat.update') as SlackCall;
    expect(update.args).toMatchObject({ channel: 'C0PAY', ts: replyTs });
    expect(String(update.args['text'])).toMatch(/Undone by <@UALICE>/);
    expect(JSON.stringify(update.args['blocks'])).not.toContain('inquest_undo_learn');
    expect(await documentCount()).toBe(before - 1);
    expect((await api('GET', `/kb/status?document_id=${documentId}`)).status).toBe(404);
    expect(await retrieved('ledger replica lag alarm')).not.toContain(documentId);

    // a second press of the same button finds nothing left to undo
    const k = slack.calls.length;
    expect((await press({ ...foreign, channel: 'C0PAY', value, actionTs: '2.4' })).status).toBe(
      200,
    );
    await waitFor(() => slack.calls.slice(k).some((c) => c.method === 'chat.postMessage'));
    expect(
      String(slack.calls.slice(k).find((c) => c.method === 'chat.postMessage')?.args['text']),
    ).toMatch(/Not found/);
    expect(await documentCount()).toBe(before - 1);
  }, 30_000);

  it('offers no Undo when the content was already known', async () => {
    const first = mention('learn payments: settlement batches close at 23:00 UTC');
    await sendEvent(first);
    await waitFor(() => posts(first.event.ts).length > 0);
    const again = mention('learn payments: settlement batches close at 23:00 UTC');
    await sendEvent(again);
    await waitFor(() => posts(again.event.ts).length > 0);
    const reply = posts(again.event.ts)[0] as SlackCall;
    expect(String(reply.args['text'])).toMatch(/Already knew/);
    expect(JSON.stringify(reply.args['blocks'] ?? [])).not.toContain('inquest_undo_learn');
  });
});

describe('retries across gateway replicas', () => {
  it('two gateways sharing the store run an event retried to the other replica once', async () => {
    // replicas are not all-in-one: no shared bus; they share MongoDB when the test has one,
    // else the data directory's SQLite store
    const mongoUrl = process.env['INQUEST_TEST_MONGODB_URL'];
    const env = {
      ...peers,
      ...(mongoUrl
        ? { INQUEST_MONGODB_URL: `${mongoUrl.replace(/\/$/, '')}/inquest_e2e_seen_${process.pid}` }
        : {}),
    };
    const replicas = [
      await startTestGateway(adminToken, env, { logger: silentLogger() }),
      await startTestGateway(adminToken, env, { logger: silentLogger() }),
    ];
    try {
      const sendTo = async (url: string, payload: object, extra: Headers = {}) => {
        const body = JSON.stringify(payload);
        const res = await fetch(`${url}/api/v1/chat/slack/events?node=acme`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signedHeaders(body), ...extra },
          body,
        });
        return res.status;
      };
      const ev = mention('list');
      const [a, b] = replicas as [RunningGateway, RunningGateway];
      expect(await sendTo(a.url, ev)).toBe(200);
      expect(await sendTo(b.url, ev, { 'x-slack-retry-num': '1' })).toBe(200);
      expect(await sendTo(b.url, ev, { 'x-slack-retry-num': '2' })).toBe(200);
      await waitFor(() => posts(ev.event.ts).length > 0);
      // give a duplicate every chance to show up
      await new Promise((r) => setTimeout(r, 500));
      expect(posts(ev.event.ts)).toHaveLength(1);
      expect(String(posts(ev.event.ts)[0]?.args['text'])).toMatch(/investigations/);

      // a different event still runs on either replica
      const other = mention('list');
      expect(await sendTo(b.url, other)).toBe(200);
      await waitFor(() => posts(other.event.ts).length === 1);
    } finally {
      for (const r of replicas) await r.stop();
    }
  }, 30_000);
});

describe('mapping and help', () => {
  it('an unmapped channel gets a polite explanation and nothing runs', async () => {
    const before = await investigationCount();
    const ev = mention('investigate everything is down', 'C0OTHER');
    await sendEvent(ev);
    await waitFor(() => posts(ev.event.ts).length > 0);
    expect(String(posts(ev.event.ts)[0]?.args['text'])).toMatch(/not connected to an Inquest team/);
    expect(await investigationCount()).toBe(before);
    const cmd = await sendCommand('investigate everything is down', 'C0OTHER', 'random');
    expect(cmd.status).toBe(200);
    expect(cmd.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringMatching(/not connected/),
    });
    expect(await investigationCount()).toBe(before);
  });

  it('an unknown command gets a short help', async () => {
    const ev = mention('dance please');
    await sendEvent(ev);
    await waitFor(() => posts(ev.event.ts).length > 0);
    expect(String(posts(ev.event.ts)[0]?.args['text'])).toMatch(/I understand:[\s\S]*investigate/);
  });

  it('a channel named by #name maps through conversations.info', async () => {
    const ev = mention('list', 'C0CHK');
    await sendEvent(ev);
    await waitFor(() => posts(ev.event.ts).length > 0);
    expect(String(posts(ev.event.ts)[0]?.args['text'])).toMatch(/\*checkout\*/);
  });

  it('a direct message acts on the team of the workspace (slack.workspace_id)', async () => {
    const ev = mention('list', 'D0ALICE', { im: true });
    await sendEvent(ev);
    await waitFor(() => posts(ev.event.ts).length > 0);
    expect(String(posts(ev.event.ts)[0]?.args['text'])).toMatch(/\*payments\*/);
  });
});

describe('/inquest slash command', () => {
  it('acknowledges empty, posts a root message and answers in its thread', async () => {
    const n = posts().length;
    const res = await sendCommand('list');
    expect(res).toEqual({ status: 200, body: undefined });
    await waitFor(() => posts().length >= n + 2);
    const [root, reply] = posts().slice(n);
    expect(String(root?.args['text'])).toContain('/inquest list');
    expect(root?.args['thread_ts']).toBeUndefined();
    expect(reply?.args['thread_ts']).toBe(root?.answer['ts']);
    expect(String(reply?.args['text'])).toMatch(/payments/);
  });

  it('empty text gets the help as an ephemeral answer', async () => {
    const res = await sendCommand('  ');
    expect(res.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('I understand'),
    });
  });
});

describe('Approve / Reject buttons', () => {
  const press = (user: string, actionId: string, value: string, actionTs: string) => {
    const payload = JSON.stringify({
      type: 'block_actions',
      team: { id: 'T0ACME' },
      user: { id: user },
      channel: { id: 'C0PAY' },
      message: { ts: '1700000500.000100' },
      actions: [{ action_id: actionId, value, action_ts: actionTs }],
    });
    const form = new URLSearchParams({ payload }).toString();
    return post('interactions', form, 'application/x-www-form-urlencoded', signedHeaders(form));
  };

  it('only an approver decides; others get an ephemeral answer and nothing changes', async () => {
    const admin = await gatewayRequest(gw.url, 'PUT', '/api/v1/admin/nodes/payments/config', {
      token: adminToken,
      body: {
        feature_flags: { require_approval: true },
        approval: { approvers: ['alice@example.com'] },
      },
    });
    expect(admin.status).toBe(200);
    const change = await api('PUT', '/config/me', { chat_group_to_ping: 'here' });
    expect(change.status).toBe(202);
    const id = (change.body as { change_request_id: string }).change_request_id;

    const n = slack.calls.length;
    expect((await press('UBOB', 'inquest_approve', `payments:${id}`, '1.1')).status).toBe(200);
    await waitFor(() => slack.calls.slice(n).some((c) => c.method === 'chat.postEphemeral'));
    const denied = slack.calls.slice(n).find((c) => c.method === 'chat.postEphemeral');
    expect(denied?.args).toMatchObject({ user: 'UBOB', channel: 'C0PAY' });
    expect(String(denied?.args['text'])).toMatch(/not an approver/);
    const pending = await api('GET', '/config/me/pending');
    expect(JSON.stringify(pending.body)).toContain(id);

    const m = slack.calls.length;
    expect((await press('UALICE', 'inquest_approve', `payments:${id}`, '1.2')).status).toBe(200);
    await waitFor(() => slack.calls.slice(m).some((c) => c.args['channel'] === 'UDEV'));
    const after = slack.calls.slice(m);
    expect(after.find((c) => c.method === 'chat.update')?.args).toMatchObject({
      channel: 'C0PAY',
      ts: '1700000500.000100',
    });
    expect(
      String(after.find((c) => c.args['thread_ts'] === '1700000500.000100')?.args['text']),
    ).toMatch(/approved by <@UALICE>/);
    expect(String(after.find((c) => c.args['channel'] === 'UDEV')?.args['text'])).toMatch(
      /approved/,
    );
    const eff = await api('GET', '/config/me/effective');
    expect(eff.body).toMatchObject({ chat_group_to_ping: 'here' });
  }, 20_000);
});
