/**
 * Kill -9 right after the 202 of an alert notification: after a restart on the same data dir
 * the group's investigation runs to its end exactly once, and a repeat of the notification
 * links to it instead of starting another. Inquest runs the way a user starts it (launcher).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatewayRequest, waitFor, type GatewayRequestOptions } from '@inquest/testing';
import { startInquest, type RunningInquest } from './support/start-inquest';

const dataDir = mkdtempSync(join(tmpdir(), 'inquest-alerts-crash-'));
const env = {
  INQUEST_ADMIN_TOKEN: `admin.${randomBytes(24).toString('base64url')}`,
  INQUEST_RATE_LIMITS: 'read=100000,write=100000,trigger=100000,alert=100000',
};
let inquest: RunningInquest | undefined;

const api = (method: string, path: string, o: GatewayRequestOptions = {}) =>
  gatewayRequest(inquest!.url, method, `/api/v1${path}`, o);

const notification = (groupKey: string) => ({
  version: '4',
  groupKey,
  status: 'firing',
  receiver: 'inquest',
  alerts: [
    {
      status: 'firing',
      labels: { alertname: 'CrashTest', namespace: 'shop', service: 'checkout' },
      annotations: { summary: 'crash test' },
      startsAt: new Date().toISOString(),
      fingerprint: 'crash-1',
    },
  ],
});

afterAll(async () => {
  await inquest?.stop();
});

it('kill -9 after the 202: after restart the investigation runs once', async () => {
  inquest = await startInquest(env, { dataDir, timeoutMs: 90_000 });
  const admin = async (method: string, path: string, body?: unknown) =>
    (await api(method, path, { token: env.INQUEST_ADMIN_TOKEN, body })).body;
  await admin('POST', '/admin/nodes', { node_id: 'acme', parent_id: null, kind: 'org', name: 'A' });
  await admin('POST', '/admin/nodes', {
    node_id: 'shop',
    parent_id: 'acme',
    kind: 'team',
    name: 'Shop',
  });
  const token = (
    await admin('POST', '/admin/nodes/shop/tokens', {
      permissions: ['read'],
      owner: 'am@example.com',
    })
  ).token as string;

  const res = await api('POST', '/alerts/alertmanager', {
    token,
    body: notification('{}:{alertname="CrashTest"}'),
  });
  inquest.process.kill('SIGKILL');
  expect(res.status).toBe(202);
  const id = res.body.investigations[0].investigation_id as string;
  await new Promise((r) => inquest!.process.once('exit', r));

  inquest = await startInquest(env, { dataDir, timeoutMs: 90_000 });
  const done = await waitFor(async () => {
    const s = await api('GET', `/agents/status/${id}`, { token });
    return ['completed', 'failed'].includes(s.body.status) ? s.body : undefined;
  }, 60_000);
  expect(done.status).toBe('completed');

  const list = await api('GET', '/agents/investigations?limit=100', { token });
  expect(list.body.pagination.total).toBe(1);
  const again = await api('POST', '/alerts/alertmanager', {
    token,
    body: notification('{}:{alertname="CrashTest"}'),
  });
  expect(again.body.investigations).toEqual([
    expect.objectContaining({ investigation_id: id, outcome: 'existing' }),
  ]);
  const alerts = await api('GET', '/alerts', { token });
  expect(alerts.body.pagination.total).toBe(1);
  expect(alerts.body.alerts[0]).toMatchObject({ investigation_id: id, receive_count: 2 });
}, 180_000);
