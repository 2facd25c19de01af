/**
 * Alert intake end to end with real parts: Inquest started the way a user starts it (the
 * launcher, all-in-one), a real `prometheus` whose rules fire, and a real
 * `prometheus-alertmanager` routing to /api/v1/alerts/alertmanager with the team token in
 * `http_config.authorization`. The team's completion webhook is a loopback receiver.
 * Needs `npm run build` first and the Debian packages prometheus and prometheus-alertmanager.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  gatewayRequest,
  startAlertmanager,
  startPrometheus,
  waitFor,
  type GatewayRequestOptions,
} from '@inquest/testing';
import { startInquest, type RunningInquest } from './support/start-inquest';

const FIRING = 'InquestE2ECheckoutErrors';
const DISABLED = 'InquestE2EWatchdog';
const ENDING = 'InquestE2EShortLived';

interface Received {
  body: Record<string, unknown>;
  at: number;
}

let inquest: RunningInquest;
let am: Awaited<ReturnType<typeof startAlertmanager>>;
let prom: Awaited<ReturnType<typeof startPrometheus>>;
let receiver: Server;
let receiverUrl: string;
const webhooks: Received[] = [];
let token: string;

const api = (method: string, path: string, o: GatewayRequestOptions = {}) =>
  gatewayRequest(inquest.url, method, `/api/v1${path}`, o);
const admin = async (method: string, path: string, body?: unknown) => {
  const res = await api(method, path, { token: inquest.adminToken, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
};
interface AlertItem {
  alertname: string;
  status: string;
  labels: Record<string, string>;
  investigation_id?: string;
  skipped_reason?: string;
  receive_count: number;
  received_at: string;
}
const alertsNamed = async (name: string): Promise<AlertItem[]> =>
  (await api('GET', `/alerts?alertname=${name}&limit=100`, { token })).body.alerts as AlertItem[];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        webhooks.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), at: Date.now() });
      } catch {
        // not JSON: not ours
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const addr = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hook`;

  inquest = await startInquest(
    // the test polls; rate limits are not what it is about
    // the webhook receiver and tool servers of this test listen on loopback, which all-in-one
    // allows by default (its own ports aside)
    { INQUEST_RATE_LIMITS: 'read=100000,write=100000,trigger=100000,alert=100000' },
    { dataDir: mkdtempSync(join(tmpdir(), 'inquest-alerts-e2e-')), timeoutMs: 90_000 },
  );
  await admin('POST', '/admin/nodes', {
    node_id: 'acme',
    parent_id: null,
    kind: 'org',
    name: 'Acme',
  });
  await admin('POST', '/admin/nodes', {
    node_id: 'checkout',
    parent_id: 'acme',
    kind: 'team',
    name: 'Checkout',
  });
  await admin('PUT', '/admin/nodes/checkout/config', {
    webhooks: { investigation_complete: receiverUrl },
    alerts: { disabled: [DISABLED], max_investigations_per_minute: 20 },
  });
  token = (
    await admin('POST', '/admin/nodes/checkout/tokens', {
      permissions: ['read'],
      owner: 'alertmanager@example.com',
    })
  ).token as string;

  am = await startAlertmanager({
    config: {
      route: {
        receiver: 'inquest',
        group_by: ['alertname'],
        group_wait: '0s',
        group_interval: '1s',
        // Alertmanager repeats each firing group every 2 s: repeats must not start more
        repeat_interval: '2s',
      },
      receivers: [
        {
          name: 'inquest',
          webhook_configs: [
            {
              url: `${inquest.apiUrl}/alerts/alertmanager`,
              send_resolved: true,
              http_config: { authorization: { type: 'Bearer', credentials: token } },
            },
          ],
        },
      ],
    },
  });
  const endsAt = Math.floor(Date.now() / 1000) + 25;
  prom = await startPrometheus({
    alertmanagerUrl: am.url,
    rules: [
      {
        name: 'inquest-e2e',
        rules: [
          {
            alert: FIRING,
            expr: 'vector(1)',
            labels: { severity: 'critical', namespace: 'shop', service: 'checkout' },
            annotations: {
              summary: 'checkout answers 5xx',
              description: 'checkout 5xx ratio above 5% for 5 minutes',
              runbook_url: 'https://runbooks.example/checkout-5xx',
            },
          },
          { alert: DISABLED, expr: 'vector(1)', labels: { severity: 'none' } },
          {
            // fires until `endsAt`, then resolves
            alert: ENDING,
            expr: `vector(1) and on() (vector(time()) < ${endsAt})`,
            labels: { severity: 'warning', app: 'payments-api' },
            annotations: { summary: 'short-lived' },
          },
        ],
      },
    ],
  });
}, 120_000);

afterAll(async () => {
  await prom?.stop();
  await am?.stop();
  await inquest?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('Prometheus -> Alertmanager -> Inquest', () => {
  it('starts the investigation within seconds, with the alert labels in its context, and the completion webhook names the alert', async () => {
    await waitFor(async () => (await alertsNamed(FIRING)).some((a) => a.investigation_id), 45_000);
    const [alert] = await alertsNamed(FIRING);
    const inv = (await api('GET', `/agents/status/${alert!.investigation_id}`, { token }))
      .body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    // recorded and accepted in one request: created within a second of the first receipt
    expect(Date.parse(inv.created_at) - Date.parse(alert!.received_at)).toBeLessThan(1000);
    expect(inv.agent).toBe('planner');
    expect(inv.context).toMatchObject({
      namespace: 'shop',
      service: 'checkout',
      severity: 'high',
      related_alert: FIRING,
      hint: 'runbook: https://runbooks.example/checkout-5xx',
    });
    expect(inv.message).toContain('checkout 5xx ratio above 5%');
    expect(alert!.labels).toMatchObject({ alertname: FIRING, namespace: 'shop' });

    await waitFor(
      () =>
        webhooks.some(
          (w) =>
            w.body['event'] === 'investigation_complete' &&
            w.body['investigation_id'] === alert!.investigation_id,
        ),
      60_000,
    );
    const hook = webhooks.find((w) => w.body['investigation_id'] === alert!.investigation_id)!;
    expect(hook.body['alert']).toMatchObject({
      alertname: FIRING,
      source: 'alertmanager',
      severity: 'high',
      labels: expect.objectContaining({ namespace: 'shop', service: 'checkout' }),
    });
  }, 120_000);

  it('repeats of the same group start one investigation', async () => {
    await waitFor(async () => ((await alertsNamed(FIRING))[0]?.receive_count ?? 0) >= 3, 30_000);
    const alerts = await alertsNamed(FIRING);
    expect(alerts).toHaveLength(1);
    const list = (await api('GET', '/agents/investigations?limit=100', { token })).body
      .investigations as { investigation_id: string; message: string }[];
    expect(list.filter((i) => i.message.includes(FIRING))).toHaveLength(1);
  }, 60_000);

  it('a disabled alert starts nothing and is recorded as skipped', async () => {
    await waitFor(async () => (await alertsNamed(DISABLED)).length > 0, 30_000);
    const [rec] = await alertsNamed(DISABLED);
    expect(rec!.skipped_reason).toBe('disabled');
    expect(rec!.investigation_id).toBeUndefined();
    const list = (await api('GET', '/agents/investigations?limit=100', { token })).body
      .investigations as { message: string }[];
    expect(list.some((i) => i.message.includes(DISABLED))).toBe(false);
  }, 60_000);

  it('records the resolution, linked to the investigation', async () => {
    await waitFor(async () => (await alertsNamed(ENDING))[0]?.status === 'resolved', 90_000);
    const [rec] = await alertsNamed(ENDING);
    expect(rec!.investigation_id).toMatch(/^inv_/);
    const inv = (await api('GET', `/agents/status/${rec!.investigation_id}`, { token })).body;
    expect(inv.context).toMatchObject({ service: 'payments-api', severity: 'medium' });
  }, 120_000);
});
