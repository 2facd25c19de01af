import { Webhook } from 'standardwebhooks';
import { InProcessEventBus, Subjects } from '@inquest/events';
import { createClient } from '@inquest/grpc-kit';
import { deliveryStatusEnum, notifierV1 } from '@inquest/proto';
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
  ORG_SIGNING_REF,
  SIGNING_SECRET,
} from './support/notifier-env';
import { ok, startReceiver, type Receiver } from './support/receiver';

let config: ConfigServiceDouble;
let bus: InProcessEventBus;
let svc: RunningService;
let client: ReturnType<typeof createClient<notifierV1.NotifierServiceClient>>;
const receivers: Receiver[] = [];
const dirs = [tempDir(), tempDir()];

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

const ctx = { requestId: 'test' };
const list = async (team: string) =>
  (await client.listDeliveries({ team_id: team, limit: 50, status_enum: 0 }, { ctx })).deliveries;

/** A team whose receiver is `url` (signed unless `signed` is false). */
function team(id: string, url: string, signed = true): string {
  config.effective.set(id, {
    webhooks: {
      investigation_complete: url,
      ...(signed ? { signing_secret: ORG_SIGNING_REF } : {}),
    },
  });
  config.secretScopes.set(id, ORG_SECRET_SCOPES);
  return id;
}

beforeAll(async () => {
  config = await startConfigServiceDouble();
  bus = new InProcessEventBus();
  svc = await start(notifierEnv(dirs[0]!, config.address), { bus });
  client = createClient(notifierV1.NotifierServiceClient, svc.address);
});

afterAll(async () => {
  client?.close();
  await svc?.stop();
  await bus?.close();
  await config?.stop();
  for (const r of receivers) await r.stop();
});

describe('notifier webhooks', () => {
  it('delivers a signed investigation_complete a receiver verifies with standardwebhooks', async () => {
    const r = await receiver();
    const t = team('t-signed', r.url);
    const ev = completedEvent(t);
    await bus.publish(Subjects.investigationCompleted, ev);
    await waitFor(() => r.received.length === 1);
    const got = r.received[0]!;
    const verified = new Webhook(SIGNING_SECRET).verify(got.body, got.headers) as Record<
      string,
      unknown
    >;
    expect(verified).toEqual({
      event: 'investigation_complete',
      investigation_id: ev.investigation.investigation_id,
      summary: ev.investigation.result.summary,
      root_cause: ev.investigation.result.root_cause,
      // the REST/webhook form: the proto's priority_enum stays inside
      recommendations: [{ priority: 'high', action: 'restart checkout pods' }],
      team_id: t,
      status: 'completed',
      agent: 'investigation_agent',
      completed_at: ev.investigation.completed_at,
    });
    expect(got.headers['webhook-id']).toBe(ev.event_id);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    // a tampered body fails verification, so the check above can fail
    expect(() =>
      new Webhook(SIGNING_SECRET).verify(got.body.replace('completed', 'failed'), got.headers),
    ).toThrow();
    const [d] = await waitFor(async () => {
      const ds = await list(t);
      return ds[0]?.status === 'delivered' ? ds : undefined;
    });
    expect(d).toMatchObject({
      event: 'investigation_complete',
      event_id: ev.event_id,
      channel: 'webhook',
      target: r.url,
      status: 'delivered',
      status_enum: deliveryStatusEnum.toProto('delivered'),
      attempts: 1,
      last_status_code: 204,
    });
    // the status filter as the enum (a gateway built before it sends only the string)
    const byStatus = async (status: 'delivered' | 'failed') =>
      (
        await client.listDeliveries(
          { team_id: t, limit: 50, status_enum: deliveryStatusEnum.toProto(status) },
          { ctx },
        )
      ).deliveries.map((x) => x.delivery_id);
    expect(await byStatus('delivered')).toEqual([d!.delivery_id]);
    expect(await byStatus('failed')).toEqual([]);
  });

  it('sends no signature without a signing secret, and nothing for a team without a receiver', async () => {
    const r = await receiver();
    const t = team('t-unsigned', r.url, false);
    config.effective.set('t-none', { chat_channel: '#x' });
    await bus.publish(Subjects.investigationCompleted, completedEvent('t-none'));
    await bus.publish(Subjects.investigationCompleted, completedEvent(t));
    await waitFor(() => r.received.length === 1);
    expect(r.received[0]!.headers['webhook-signature']).toBeUndefined();
    expect(r.received[0]!.headers['webhook-id']).toBeDefined();
    expect(await list('t-none')).toEqual([]);
  });

  it("never signs with another team's secret: a reference outside the node scope stops the delivery", async () => {
    const r = await receiver();
    // Saved before the rule (config-hierarchy refuses it now): team A names team B's secret.
    config.effective.set('t-forger', {
      webhooks: {
        investigation_complete: r.url,
        signing_secret: 'vault://inquest/team-b/signing',
      },
    });
    // Whatever scope the config names, it is team A's own: B's path lies outside it.
    config.secretScopes.set('t-forger', {
      'webhooks.signing_secret': { owner_node_id: 't-forger', prefixes: ['inquest/t-forger/'] },
    });
    config.effective.set('t-forger-2', {
      webhooks: { investigation_complete: r.url, signing_secret: 'vault://inquest/team-b/signing' },
    });
    await bus.publish(Subjects.investigationCompleted, completedEvent('t-forger'));
    await bus.publish(Subjects.investigationCompleted, completedEvent('t-forger-2'));
    for (const t of ['t-forger', 't-forger-2']) {
      const [d] = await waitFor(async () => {
        const ds = await list(t);
        return ds[0]?.status === 'stopped' ? ds : undefined;
      });
      expect(d).toMatchObject({ attempts: 1, last_error: expect.stringContaining('refused') });
    }
    // nothing sent: neither signed with B's secret nor unsigned
    expect(r.received).toEqual([]);
  });

  it('retries a 500 then succeeds, with the same webhook-id on every attempt', async () => {
    const r = await receiver((_q, res, nth) => res.writeHead(nth <= 2 ? 500 : 200).end('ok'));
    const t = team('t-500', r.url);
    const ev = completedEvent(t);
    await bus.publish(Subjects.investigationCompleted, ev);
    await waitFor(() => r.acceptedIds().length === 1);
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([
      ev.event_id,
      ev.event_id,
      ev.event_id,
    ]);
    for (const x of r.received)
      expect(() => new Webhook(SIGNING_SECRET).verify(x.body, x.headers)).not.toThrow();
    // x4 growth from 50 ms with +/-20% jitter: 40..60 ms, then 160..240 ms
    const gap1 = r.received[1]!.at - r.received[0]!.at;
    const gap2 = r.received[2]!.at - r.received[1]!.at;
    expect(gap1).toBeGreaterThanOrEqual(35);
    expect(gap2).toBeGreaterThanOrEqual(150);
    const [d] = await waitFor(async () =>
      (await list(t))[0]?.status === 'delivered' ? list(t) : undefined,
    );
    expect(d).toMatchObject({ attempts: 3, last_status_code: 200 });
  });

  it('treats a redirect as a failure and never follows it to a refused address', async () => {
    const target = await receiver();
    const r = await receiver((_q, res) =>
      res.writeHead(302, { location: `http://localhost:${target.port}/x` }).end(),
    );
    const t = team('t-redirect', r.url);
    await bus.publish(Subjects.investigationCompleted, completedEvent(t));
    await waitFor(() => r.received.length >= 3);
    const [d] = await list(t);
    expect(d).toMatchObject({ status: 'pending', last_status_code: 302 });
    expect(d!.last_error).toContain('redirect');
    expect(target.received).toHaveLength(0);
  });

  it('stops at once on 410 Gone', async () => {
    const r = await receiver((_q, res) => res.writeHead(410).end());
    const t = team('t-410', r.url);
    await bus.publish(Subjects.investigationCompleted, completedEvent(t));
    const [d] = await waitFor(async () =>
      (await list(t))[0]?.status === 'stopped' ? list(t) : undefined,
    );
    expect(d).toMatchObject({ attempts: 1, last_status_code: 410 });
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(1);
  });

  it('honours Retry-After on 503 instead of the 50 ms schedule', async () => {
    const r = await receiver((_q, res, nth) =>
      nth === 1 ? res.writeHead(503, { 'retry-after': '1' }).end() : res.writeHead(200).end(),
    );
    const t = team('t-retry-after', r.url);
    await bus.publish(Subjects.investigationCompleted, completedEvent(t));
    await waitFor(() => r.acceptedIds().length === 1, 5000);
    expect(r.received[1]!.at - r.received[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('retries after a closed connection and a hanging receiver (timeout), then delivers', async () => {
    const r = await receiver((req, res, nth) => {
      if (nth === 1) req.socket.destroy();
      else if (nth === 2)
        return; // hang: never answer
      else res.writeHead(200).end();
    });
    const t = team('t-flaky', r.url);
    const ev = completedEvent(t);
    await bus.publish(Subjects.investigationCompleted, ev);
    await waitFor(() => r.acceptedIds().length === 1, 8000);
    expect(r.acceptedIds()).toEqual([ev.event_id]);
    const [d] = await waitFor(async () =>
      (await list(t))[0]?.status === 'delivered' ? list(t) : undefined,
    );
    expect(d!.attempts).toBe(3);
  });

  it('delivers to a slow receiver within the timeout', async () => {
    const r = await receiver((_q, res) => setTimeout(() => res.writeHead(200).end(), 400));
    const t = team('t-slow', r.url);
    await bus.publish(Subjects.investigationCompleted, completedEvent(t));
    const [d] = await waitFor(
      async () => ((await list(t))[0]?.status === 'delivered' ? list(t) : undefined),
      5000,
    );
    expect(d!.attempts).toBe(1);
  });

  it('survives a receiver answering a huge body (bounded read, retried, no crash)', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const r = await receiver((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      let sent = 0;
      const pump = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent >= 50) res.end();
        else res.once('drain', pump);
      };
      res.on('error', () => undefined);
      pump();
    });
    const t = team('t-huge', r.url);
    await bus.publish(Subjects.investigationCompleted, completedEvent(t));
    await waitFor(() => r.received.length >= 2, 5000);
    const [d] = await list(t);
    expect(d!.last_error).toContain('body_too_large');
    // the service still works for others
    const okr = await receiver(ok);
    await bus.publish(
      Subjects.investigationCompleted,
      completedEvent(team('t-after-huge', okr.url)),
    );
    await waitFor(() => okr.acceptedIds().length === 1);
  });

  it('gives up after INQUEST_WEBHOOK_MAX_ATTEMPTS, then redelivers on request with the same webhook-id', async () => {
    const myBus = new InProcessEventBus();
    const svc3 = await start(
      notifierEnv(dirs[1]!, config.address, { INQUEST_WEBHOOK_MAX_ATTEMPTS: '3' }),
      { bus: myBus },
    );
    const c3 = createClient(notifierV1.NotifierServiceClient, svc3.address);
    try {
      let failing = true;
      const r = await receiver((_q, res) => res.writeHead(failing ? 500 : 200).end());
      const t = team('t-giveup', r.url);
      const ev = completedEvent(t);
      await myBus.publish(Subjects.investigationCompleted, ev);
      const [d] = await waitFor(async () => {
        const ds = (await c3.listDeliveries({ team_id: t, limit: 10, status_enum: 0 }, { ctx }))
          .deliveries;
        return ds[0]?.status === 'failed' ? ds : undefined;
      }, 8000);
      expect(d!.attempts).toBe(3);
      expect(d!.last_error).toContain('gave up after 3 attempts');
      expect(r.received).toHaveLength(3);
      await expect(
        c3.redeliver({ team_id: 'other-team', delivery_id: d!.delivery_id }, { ctx }),
      ).rejects.toMatchObject({ code: 'not_found' });
      failing = false;
      const again = (await c3.redeliver({ team_id: t, delivery_id: d!.delivery_id }, { ctx }))
        .delivery!;
      expect(again).toMatchObject({
        redelivery_of: d!.delivery_id,
        status: 'pending',
        attempts: 0,
        event_id: ev.event_id,
      });
      await waitFor(() => r.acceptedIds().length === 1);
      expect(r.acceptedIds()).toEqual([ev.event_id]);
      await expect(
        c3.redeliver({ team_id: t, delivery_id: 'dlv_nope' }, { ctx }),
      ).rejects.toMatchObject({ code: 'not_found' });
    } finally {
      c3.close();
      await svc3.stop();
      await myBus.close();
    }
  });

  it('records the event but keeps its ack until the config service answers', async () => {
    const r = await receiver();
    const t = team('t-config-down', r.url);
    config.down = true;
    const before = config.count('getEffectiveConfig');
    await bus.publish(Subjects.investigationCompleted, completedEvent(t));
    // the gRPC client's own retries (3 calls) fail too; the event stays unacknowledged
    await waitFor(() => config.count('getEffectiveConfig') >= before + 3);
    await new Promise((res) => setTimeout(res, 150));
    expect(await list(t)).toEqual([]);
    config.down = false;
    // the bus redelivers the event (backoff 500 ms) and the webhook follows
    await waitFor(() => r.acceptedIds().length === 1, 8000);
  });

  it('validates list arguments', async () => {
    await expect(
      client.listDeliveries({ team_id: 'x', limit: 5, status: 'bogus', status_enum: 0 }, { ctx }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
