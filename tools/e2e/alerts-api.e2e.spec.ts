/**
 * REST tests of the alert receivers (/alerts/*) and GET /alerts: the real gateway in front of the
 * real investigation-runner (real gRPC, real SQLite, in-process queue) sharing one in-process
 * event bus, with the shared gRPC doubles of @inquest/testing for the runner's peers. Secrets
 * come from a real secrets file.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InProcessEventBus, Subjects, type InvestigationFinishedEvent } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import {
  gatewayRequest,
  k8sTools,
  startConfigServiceDouble,
  startKnowledgeServiceDouble,
  startToolServiceDouble,
  tempDir,
  waitFor,
  type ConfigServiceDouble,
  type GatewayRequestOptions,
  type KnowledgeServiceDouble,
  type ToolServiceDouble,
} from '@inquest/testing';
import { start as startGateway } from '@inquest/gateway-service';
import { start as startRunner } from '@inquest/investigation-runner-service';
import { createClient } from '@inquest/grpc-kit';
import { alertStatusEnum, alertsV1 } from '@inquest/proto';

const INTAKE_SECRET = `intake-${randomBytes(12).toString('hex')}`;
const PD_SECRET = `pd-${randomBytes(12).toString('hex')}`;
const TEAM_A_ALERTS = {
  disabled: ['Watchdog'],
  max_investigations_per_minute: 50,
  intake_secret: 'vault://inquest/team-a/alerts#intake',
  pagerduty: { signing_secret: 'vault://inquest/team-a/alerts#pagerduty' },
};

let config: ConfigServiceDouble;
let toolServer: ToolServiceDouble;
let knowledge: KnowledgeServiceDouble;
let runner: Awaited<ReturnType<typeof startRunner>>;
let gw: Awaited<ReturnType<typeof startGateway>>;
let bus: InProcessEventBus;
let tokenA: string;
let tokenB: string;
const dataDir = tempDir();
const finished: InvestigationFinishedEvent[] = [];

const request = (method: string, path: string, o?: GatewayRequestOptions) =>
  gatewayRequest(gw.url, method, path, o);
const post = (path: string, body: unknown, o: GatewayRequestOptions = { token: tokenA }) =>
  request('POST', `/api/v1/alerts/${path}`, { ...o, body });
const listAlerts = async (token: string, query = '') =>
  (await request('GET', `/api/v1/alerts${query}`, { token })).body;
const investigationsOf = async (token: string) =>
  (await request('GET', '/api/v1/agents/investigations?limit=100', { token })).body;

let seq = 0;
function amAlert(over: Record<string, unknown> = {}, labels: Record<string, string> = {}) {
  return {
    status: 'firing',
    labels: {
      alertname: 'HighErrorRate',
      namespace: 'shop',
      app: 'checkout',
      severity: 'critical',
      ...labels,
    },
    annotations: {
      summary: 'checkout 5xx above 5%',
      runbook_url: 'https://runbooks.example/5xx',
    },
    startsAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: 'http://prometheus.example/graph',
    fingerprint: `fp-${++seq}`,
    ...over,
  };
}
function amPayload(groupKey: string, alerts: unknown[], status = 'firing') {
  return {
    version: '4',
    groupKey,
    truncatedAlerts: 0,
    status,
    receiver: 'inquest',
    groupLabels: { alertname: 'HighErrorRate' },
    commonLabels: {},
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example',
    alerts,
  };
}

beforeAll(async () => {
  config = await startConfigServiceDouble({ unknownTeam: 'empty' });
  toolServer = await startToolServiceDouble({ tools: k8sTools() });
  knowledge = await startKnowledgeServiceDouble();
  bus = new InProcessEventBus();
  const secretsFile = join(dataDir, 'test-secrets.json');
  writeFileSync(
    secretsFile,
    JSON.stringify({
      'inquest/team-a/alerts': { intake: INTAKE_SECRET, pagerduty: PD_SECRET },
      'inquest/team-b/alerts': { intake: 'team-b-secret' },
    }),
  );
  runner = await startRunner(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_TOOLS_ADDR: toolServer.address,
      INQUEST_KNOWLEDGE_ADDR: knowledge.address,
      INQUEST_DATA_DIR: dataDir,
      INQUEST_SECRETS_FILE: secretsFile,
      // tests change the team config between notifications
      INQUEST_ALERTS_CONFIG_TTL_MS: '0',
      INQUEST_LOG_LEVEL: 'silent',
    },
    { bus, logger: silentLogger() },
  );
  gw = await startGateway(
    {
      PORT: '0',
      INQUEST_HTTP_HOST: '127.0.0.1',
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_INVESTIGATION_ADDR: runner.address,
      INQUEST_RATE_LIMITS: 'read=100000,write=100000,trigger=100000,alert=100000,auth_fail=100000',
    },
    { bus, logger: silentLogger() },
  );
  await bus.subscribe(Subjects.investigationCompleted, async (msg) => {
    finished.push(msg.data);
  });
  tokenA = config.issue('team-a', ['read']).token;
  tokenB = config.issue('team-b', ['read']).token;
});

afterAll(async () => {
  await gw?.stop();
  await runner?.stop();
  await Promise.all([config?.stop(), toolServer?.stop(), knowledge?.stop()]);
  await bus?.close();
});

beforeEach(() => {
  config.effective.set('team-a', { alerts: { ...TEAM_A_ALERTS } });
  config.effective.set('team-b', {
    alerts: { intake_secret: 'vault://inquest/team-b/alerts#intake' },
  });
});

describe('POST /alerts/alertmanager', () => {
  it('starts one investigation per group, carrying the alert context; repeats link to it; resolve ends the period; a re-fire starts a new one', async () => {
    const key = `{}:{alertname="HighErrorRate",run="${randomBytes(4).toString('hex')}"}`;
    const first = amAlert();
    const res = await post('alertmanager', amPayload(key, [first]));
    expect(res.status).toBe(202);
    expect(res.body.alerts_received).toBe(1);
    expect(res.body.skipped).toEqual([]);
    expect(res.body.investigations).toHaveLength(1);
    const inv = res.body.investigations[0];
    expect(inv).toMatchObject({ alertname: 'HighErrorRate', group_key: key, outcome: 'started' });

    const status = await request('GET', `/api/v1/agents/status/${inv.investigation_id}`, {
      token: tokenA,
    });
    expect(status.status).toBe(200);
    expect(status.body.agent).toBe('planner');
    expect(status.body.context).toMatchObject({
      namespace: 'shop',
      service: 'checkout',
      severity: 'high',
      related_alert: 'HighErrorRate',
      hint: 'runbook: https://runbooks.example/5xx',
    });
    expect(status.body.context.time_window).toMatch(/^\d+m$/);
    expect(status.body.message).toContain('checkout 5xx above 5%');
    expect(status.body.alert).toMatchObject({
      source: 'alertmanager',
      alertname: 'HighErrorRate',
      group_key: key,
      severity: 'high',
      labels: expect.objectContaining({ namespace: 'shop', app: 'checkout' }),
    });

    // the sender repeats the group, with one more alert: the same investigation
    const second = amAlert();
    for (let i = 0; i < 3; i++) {
      const again = await post('alertmanager', amPayload(key, [first, second]));
      expect(again.status).toBe(202);
      expect(again.body.investigations).toEqual([
        expect.objectContaining({
          investigation_id: inv.investigation_id,
          outcome: 'existing',
          alerts: 2,
        }),
      ]);
    }
    const recorded = await listAlerts(tokenA, `?group_key=${encodeURIComponent(key)}`);
    expect(recorded.pagination.total).toBe(2);
    expect(recorded.alerts.map((a: { receive_count: number }) => a.receive_count).sort()).toEqual([
      3, 4,
    ]);
    for (const a of recorded.alerts) expect(a.investigation_id).toBe(inv.investigation_id);

    // completes and names the alert in its terminal event
    await waitFor(
      () => finished.some((f) => f.investigation?.investigation_id === inv.investigation_id),
      15_000,
    );
    const done = finished.find((f) => f.investigation?.investigation_id === inv.investigation_id)!;
    expect(done.investigation?.alert).toMatchObject({
      source: 'alertmanager',
      alertname: 'HighErrorRate',
      group_key: key,
      severity: 'high',
    });

    // resolved
    const resolved = await post(
      'alertmanager',
      amPayload(
        key,
        [
          { ...first, status: 'resolved', endsAt: new Date().toISOString() },
          { ...second, status: 'resolved', endsAt: new Date().toISOString() },
        ],
        'resolved',
      ),
    );
    expect(resolved.status).toBe(202);
    expect(resolved.body.investigations).toEqual([
      expect.objectContaining({ investigation_id: inv.investigation_id, outcome: 'resolved' }),
    ]);
    const after = await listAlerts(tokenA, `?group_key=${encodeURIComponent(key)}`);
    for (const a of after.alerts) {
      expect(a.status).toBe('resolved');
      expect(a.resolved_at).toBeDefined();
      expect(a.investigation_id).toBe(inv.investigation_id);
    }

    // a re-fire after resolution is a new firing period: a new investigation
    const refire = await post(
      'alertmanager',
      amPayload(key, [{ ...first, startsAt: new Date().toISOString() }]),
    );
    expect(refire.body.investigations).toEqual([expect.objectContaining({ outcome: 'started' })]);
    expect(refire.body.investigations[0].investigation_id).not.toBe(inv.investigation_id);
  });

  it('records a disabled alert as skipped and starts nothing', async () => {
    const before = (await investigationsOf(tokenA)).pagination.total;
    const res = await post(
      'alertmanager',
      amPayload('{}:{alertname="Watchdog"}', [amAlert({}, { alertname: 'Watchdog' })]),
    );
    expect(res.status).toBe(202);
    expect(res.body.investigations).toEqual([]);
    expect(res.body.skipped).toEqual([
      expect.objectContaining({ alertname: 'Watchdog', reason: 'disabled' }),
    ]);
    expect((await investigationsOf(tokenA)).pagination.total).toBe(before);
    const rec = await listAlerts(tokenA, '?alertname=Watchdog');
    expect(rec.alerts[0]).toMatchObject({ status: 'firing', skipped_reason: 'disabled' });
    expect(rec.alerts[0].investigation_id).toBeUndefined();
  });

  it('caps alert-started investigations per team and minute; the rest are recorded as rate_capped', async () => {
    config.effective.set('team-b', { alerts: { max_investigations_per_minute: 2 } });
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post('alertmanager', amPayload(`cap-${i}`, [amAlert()]), { token: tokenB });
      expect(res.status).toBe(202);
      outcomes.push(res.body.investigations[0]?.outcome ?? res.body.skipped[0]?.reason);
    }
    expect(outcomes).toEqual(['started', 'started', 'rate_capped', 'rate_capped']);
    const capped = await listAlerts(tokenB);
    expect(
      capped.alerts.filter((a: { skipped_reason?: string }) => a.skipped_reason === 'rate_capped'),
    ).toHaveLength(2);
  });

  it('uses the agent alerts.agent names', async () => {
    config.effective.set('team-a', { alerts: { ...TEAM_A_ALERTS, agent: 'k8s_agent' } });
    const res = await post('alertmanager', amPayload(`agent-${seq}`, [amAlert()]));
    const status = await request(
      'GET',
      `/api/v1/agents/status/${res.body.investigations[0].investigation_id}`,
      { token: tokenA },
    );
    expect(status.body.agent).toBe('k8s_agent');
  });
});

describe('other receivers', () => {
  it('grafana: starts one investigation per group', async () => {
    const body = {
      receiver: 'inquest',
      status: 'firing',
      orgId: 1,
      groupKey: `{}/{__grafana_autogenerated__="true"}:{alertname="DiskFull-${seq}"}`,
      alerts: [
        {
          status: 'firing',
          labels: { alertname: 'DiskFull', service: 'db', grafana_folder: 'infra' },
          annotations: { summary: 'disk 95% full' },
          startsAt: new Date().toISOString(),
          endsAt: '0001-01-01T00:00:00Z',
          fingerprint: `g-${++seq}`,
          panelURL: 'http://grafana.example/d/x?viewPanel=1',
        },
      ],
      version: '1',
      title: '[FIRING:1] DiskFull',
    };
    const res = await post('grafana', body);
    expect(res.status).toBe(202);
    expect(res.body.investigations).toEqual([
      expect.objectContaining({ alertname: 'DiskFull', outcome: 'started' }),
    ]);
    expect((await post('grafana', body)).body.investigations[0].outcome).toBe('existing');
  });

  it('pagerduty: a signed incident.triggered starts one, incident.resolved resolves it, other events are ignored', async () => {
    const incident = `P${randomBytes(4).toString('hex').toUpperCase()}`;
    const event = (type: string) => ({
      event: {
        id: `01${randomBytes(8).toString('hex')}`,
        event_type: type,
        resource_type: 'incident',
        occurred_at: new Date().toISOString(),
        data: {
          id: incident,
          type: 'incident',
          title: 'Checkout latency',
          html_url: `https://acme.pagerduty.com/incidents/${incident}`,
          number: 42,
          status: 'triggered',
          created_at: new Date().toISOString(),
          urgency: 'high',
          service: { id: 'PSVC', summary: 'checkout' },
          priority: { id: 'PPRI', summary: 'P1' },
        },
      },
    });
    const signed = (payload: unknown, secret = PD_SECRET) => {
      const raw = JSON.stringify(payload);
      const sig = `v1=${createHmac('sha256', secret).update(raw).digest('hex')}`;
      return request('POST', '/api/v1/alerts/pagerduty?team=team-a', {
        rawBody: raw,
        headers: {
          'content-type': 'application/json',
          'x-pagerduty-signature': `v1=${'0'.repeat(64)}, ${sig}`,
        },
      });
    };
    const res = await signed(event('incident.triggered'));
    expect(res.status).toBe(202);
    expect(res.body.investigations).toEqual([
      expect.objectContaining({ alertname: 'Checkout latency', outcome: 'started' }),
    ]);
    const id = res.body.investigations[0].investigation_id;
    const status = await request('GET', `/api/v1/agents/status/${id}`, { token: tokenA });
    expect(status.body.context).toMatchObject({ service: 'checkout', severity: 'high' });
    const ack = await signed(event('incident.acknowledged'));
    expect(ack.status).toBe(202);
    expect(ack.body).toEqual({ alerts_received: 0, investigations: [], skipped: [] });
    const resolved = await signed(event('incident.resolved'));
    expect(resolved.body.investigations).toEqual([
      expect.objectContaining({ investigation_id: id, outcome: 'resolved' }),
    ]);
  });

  it('generic: intake secret instead of a token; dedup_key groups repeats', async () => {
    const body = {
      title: 'Queue backlog',
      severity: 'warning',
      service: 'billing',
      namespace: 'payments',
      dedup_key: `backlog-${++seq}`,
      labels: { queue: 'invoices' },
    };
    const send = () =>
      request('POST', '/api/v1/alerts/generic?team=team-a', {
        body,
        headers: { 'x-inquest-intake-secret': INTAKE_SECRET },
      });
    const res = await send();
    expect(res.status).toBe(202);
    expect(res.body.investigations).toEqual([
      expect.objectContaining({ alertname: 'Queue backlog', outcome: 'started' }),
    ]);
    const status = await request(
      'GET',
      `/api/v1/agents/status/${res.body.investigations[0].investigation_id}`,
      { token: tokenA },
    );
    expect(status.body.context).toMatchObject({
      service: 'billing',
      namespace: 'payments',
      severity: 'medium',
      related_alert: 'Queue backlog',
    });
    expect((await send()).body.investigations[0].outcome).toBe('existing');
  });
});

describe('OpenAPI document', () => {
  it('documents every receiver and GET /alerts with their credentials', async () => {
    const doc = (await request('GET', '/api/v1/openapi.json')).body;
    for (const source of ['alertmanager', 'grafana', 'pagerduty', 'generic']) {
      const op = doc.paths[`/alerts/${source}`].post;
      expect(op.responses['202']).toBeDefined();
      expect(op.security).toEqual(expect.arrayContaining([{ bearer: [] }, { intakeSecret: [] }]));
      expect(op.requestBody.content['application/json'].schema).toBeDefined();
    }
    expect(doc.paths['/alerts/pagerduty'].post.security).toContainEqual({ pagerdutySignature: [] });
    expect(doc.paths['/alerts'].get.responses['200']).toBeDefined();
  });
});

describe('GET /alerts', () => {
  it('is paginated and scoped to the team', async () => {
    const a = await listAlerts(tokenA, '?limit=2');
    expect(a.alerts).toHaveLength(2);
    expect(a.pagination).toMatchObject({ limit: 2, offset: 0 });
    expect(a.pagination.total).toBeGreaterThan(2);
    const next = await listAlerts(tokenA, '?limit=2&offset=2');
    expect(next.alerts[0].alert_id).not.toBe(a.alerts[0].alert_id);
    const b = await listAlerts(tokenB);
    const idsA = new Set(
      (await listAlerts(tokenA, '?limit=100')).alerts.map((x: { alert_id: string }) => x.alert_id),
    );
    for (const x of b.alerts) expect(idsA.has(x.alert_id)).toBe(false);
    expect((await request('GET', '/api/v1/alerts?limit=0', { token: tokenA })).status).toBe(400);
    expect((await request('GET', '/api/v1/alerts?status=open', { token: tokenA })).status).toBe(
      400,
    );
    expect((await request('GET', '/api/v1/alerts')).status).toBe(401);
  });
});

// API-DECISIONS "General": every timestamp is ISO 8601 UTC with milliseconds and Z. Senders' times
// were shown as sent (Alertmanager's nanoseconds, an offset, a generic alert's "yesterday").
describe('alert times', () => {
  const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

  it('are shown in UTC with milliseconds and Z, whatever precision and offset the sender used', async () => {
    const groupKey = `times-${++seq}`;
    const res = await post(
      'alertmanager',
      amPayload(groupKey, [
        amAlert({
          startsAt: '2026-11-29T13:00:00.123456789+02:00',
          endsAt: '2026-11-29T11:30:00.5Z',
          status: 'resolved',
        }),
        amAlert({ startsAt: '2026-11-29T11:00:00.987654321Z' }, { alertname: 'Other' }),
      ]),
    );
    expect(res.status).toBe(202);
    const listed = await listAlerts(tokenA, `?group_key=${encodeURIComponent(groupKey)}`);
    const starts = listed.alerts.map((a: { starts_at?: string }) => a.starts_at).sort();
    expect(starts).toEqual(['2026-11-29T11:00:00.123Z', '2026-11-29T11:00:00.987Z']);
    const ended = listed.alerts.find((a: { ends_at?: string }) => a.ends_at);
    expect(ended.ends_at).toBe('2026-11-29T11:30:00.500Z');
    for (const a of listed.alerts) {
      expect(a.received_at).toMatch(ISO_MS_Z);
      expect(a.last_received_at).toMatch(ISO_MS_Z);
    }
    const id = res.body.investigations[0].investigation_id;
    const status = await request('GET', `/api/v1/agents/status/${id}`, { token: tokenA });
    expect(status.body.alert.starts_at).toMatch(ISO_MS_Z);

    const generic = await post('generic', {
      title: `Offset ${++seq}`,
      starts_at: '2026-11-29T07:00:00-05:00',
    });
    expect(generic.status).toBe(202);
    const g = await request(
      'GET',
      `/api/v1/agents/status/${generic.body.investigations[0].investigation_id}`,
      { token: tokenA },
    );
    expect(g.body.alert.starts_at).toBe('2026-11-29T12:00:00.000Z');
  });

  it('stored as a sender wrote them (before the intake normalized them), they are still shown in UTC with milliseconds and Z', async () => {
    const groupKey = `stored-times-${++seq}`;
    const direct = createClient(alertsV1.AlertServiceClient, runner.address);
    try {
      const res = await direct.ingestAlerts(
        {
          team_id: 'team-a',
          source: 'alertmanager',
          alerts: [
            {
              status: 'firing',
              status_enum: alertStatusEnum.toProto('firing'),
              group_key: groupKey,
              fingerprint: `stored-${seq}`,
              alertname: 'StoredTimes',
              labels: { alertname: 'StoredTimes' },
              annotations: {},
              starts_at: '2026-11-29T13:00:00.123456789+02:00',
            },
            {
              status: 'firing',
              status_enum: alertStatusEnum.toProto('firing'),
              group_key: groupKey,
              fingerprint: `stored-bad-${seq}`,
              alertname: 'StoredTimes',
              labels: { alertname: 'StoredTimes', pod: 'b' },
              annotations: {},
              starts_at: 'yesterday',
            },
          ],
        },
        { ctx: { requestId: 'req_stored_times', teamId: 'team-a' } },
      );
      const listed = await listAlerts(tokenA, `?group_key=${encodeURIComponent(groupKey)}`);
      expect(listed.alerts.map((a: { starts_at?: string }) => a.starts_at ?? null).sort()).toEqual(
        ['2026-11-29T11:00:00.123Z', null].sort(),
      );
      const id = res.groups[0]!.investigation_id!;
      const status = await request('GET', `/api/v1/agents/status/${id}`, { token: tokenA });
      expect(status.body.alert.starts_at ?? null).not.toBe('yesterday');
      if (status.body.alert.starts_at) expect(status.body.alert.starts_at).toMatch(ISO_MS_Z);
    } finally {
      direct.close();
    }
  });

  it('a generic alert whose starts_at is no ISO 8601 time is 400 invalid_request', async () => {
    for (const starts_at of [
      'yesterday',
      '2026-11-29',
      '2026-11-29T12:00:00',
      '2026-13-45T99:99:99Z',
    ]) {
      const res = await post('generic', { title: `Bad time ${++seq}`, starts_at });
      expect([starts_at, res.status, res.body.error?.code]).toEqual([
        starts_at,
        400,
        'invalid_request',
      ]);
      expect(res.body.error.message).toContain('starts_at');
    }
  });
});

describe('bad input: the right 4xx, nothing started, nothing stored', () => {
  const teamC = 'team-c';
  let tokenC: string;
  beforeAll(() => {
    tokenC = config.issue(teamC, ['read']).token;
  });
  beforeEach(() => {
    config.effective.set(teamC, {
      alerts: {
        intake_secret: 'vault://inquest/team-c/alerts#intake',
        pagerduty: { signing_secret: 'vault://inquest/team-c/alerts#pagerduty' },
      },
    });
  });
  afterEach(async () => {
    expect((await listAlerts(tokenC)).pagination.total).toBe(0);
    expect((await investigationsOf(tokenC)).pagination.total).toBe(0);
  });

  const valid: Record<string, unknown> = {
    alertmanager: amPayload('bad-input', [amAlert()]),
    grafana: { status: 'firing', alerts: [amAlert()] },
    pagerduty: {
      event: { event_type: 'incident.triggered', data: { id: 'PBAD', title: 'x' } },
    },
    generic: { title: 'x' },
  };
  const malformed: Record<string, unknown[]> = {
    alertmanager: [
      {},
      { ...amPayload('k', [amAlert()]), groupKey: '' },
      amPayload('k', []),
      amPayload('k', [{ ...amAlert(), status: 'open' }]),
      amPayload('k', [{ ...amAlert(), labels: { alertname: 5 } }]),
      { ...amPayload('k', [amAlert()]), alerts: Array.from({ length: 1001 }, () => amAlert()) },
    ],
    grafana: [{ status: 'firing' }, { status: 'firing', alerts: 'x' }, { alerts: [amAlert()] }],
    pagerduty: [{}, { event: {} }, { event: { event_type: 'incident.triggered', data: {} } }],
    generic: [{}, { title: '' }, { title: 'x', status: 'gone' }, { title: 'x', unknown_field: 1 }],
  };

  for (const source of ['alertmanager', 'grafana', 'pagerduty', 'generic']) {
    describe(source, () => {
      it('malformed payloads: 400', async () => {
        for (const body of malformed[source]!) {
          const res = await post(source, body, { token: tokenC });
          expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
        }
        const notJson = await request('POST', `/api/v1/alerts/${source}`, {
          token: tokenC,
          rawBody: '{"groupKey": ',
          headers: { 'content-type': 'application/json' },
        });
        expect(notJson.status).toBe(400);
        const array = await post(source, [valid[source]], { token: tokenC });
        expect(array.status).toBe(400);
        const text = await request('POST', `/api/v1/alerts/${source}`, {
          token: tokenC,
          rawBody: 'hello',
          headers: { 'content-type': 'text/plain' },
        });
        expect(text.status).toBe(415);
      });

      it('missing or wrong credentials: 401; another team: 401/403', async () => {
        const none = await post(source, valid[source], {});
        expect([none.status, none.body.error.code]).toEqual([401, 'unauthorized']);
        const badToken = await post(source, valid[source], {
          token: 'tok_aaaaaaaaaaaaaaaaaaaa.nope',
        });
        expect(badToken.status).toBe(401);
        const wrongSecret = await request('POST', `/api/v1/alerts/${source}?team=${teamC}`, {
          body: valid[source],
          headers: { 'x-inquest-intake-secret': 'not-the-secret' },
        });
        expect(wrongSecret.status).toBe(401);
        // team-b's intake secret does not open team-c
        const otherSecret = await request('POST', `/api/v1/alerts/${source}?team=${teamC}`, {
          body: valid[source],
          headers: { 'x-inquest-intake-secret': 'team-b-secret' },
        });
        expect(otherSecret.status).toBe(401);
        const noTeam = await request('POST', `/api/v1/alerts/${source}`, {
          body: valid[source],
          headers: { 'x-inquest-intake-secret': INTAKE_SECRET },
        });
        expect(noTeam.status).toBe(401);
        // another team's token naming this team
        const other = await post(`${source}?team=${teamC}`, valid[source], { token: tokenB });
        expect([other.status, other.body.error.code]).toEqual([403, 'forbidden']);
      });

      it('oversized bodies: 413', async () => {
        const big = '{"x":"' + 'a'.repeat(1024 * 1024 + 10) + '"}';
        const res = await request('POST', `/api/v1/alerts/${source}`, {
          token: tokenC,
          rawBody: big,
          headers: { 'content-type': 'application/json' },
        });
        expect([res.status, res.body.error.code]).toEqual([413, 'payload_too_large']);
        const sender = await request('POST', `/api/v1/alerts/${source}?team=${teamC}`, {
          rawBody: big,
          headers: { 'content-type': 'application/json', 'x-inquest-intake-secret': 'x' },
        });
        expect(sender.status).toBe(413);
      });
    });
  }

  it('pagerduty: a wrong, missing or other-body signature is 401, also next to a valid token', async () => {
    const raw = JSON.stringify(valid['pagerduty']);
    const sig = (secret: string, body = raw) =>
      `v1=${createHmac('sha256', secret).update(body).digest('hex')}`;
    for (const signature of [sig('wrong'), sig(PD_SECRET), sig('x', '{}'), 'v1=', 'garbage']) {
      const res = await request('POST', `/api/v1/alerts/pagerduty?team=${teamC}`, {
        rawBody: raw,
        headers: { 'content-type': 'application/json', 'x-pagerduty-signature': signature },
      });
      expect(res.status).toBe(401);
    }
    const withToken = await request('POST', '/api/v1/alerts/pagerduty', {
      token: tokenC,
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'x-pagerduty-signature': sig('wrong') },
    });
    expect(withToken.status).toBe(401);
  });
});
