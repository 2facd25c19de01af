/**
 * Notifier benchmark (issue 8): completion-to-webhook latency against a healthy loopback
 * receiver, sustained throughput with backlog, and head-of-line isolation from a receiver that
 * always times out. The notifier runs in-process via its start() with an in-process bus (the
 * all-in-one mode), a real SQLite file, a real gRPC ConfigService and real HTTP receivers.
 *
 * Args: --rate=<deliveries per minute> (default 3000) --seconds=<sustained run> (default 30)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessEventBus, Subjects } from '@inquest/events';
import { implement, startGrpcServer } from '@inquest/grpc-kit';
import { notFound } from '@inquest/errors';
import { agentEnum, configV1, investigationStatusEnum, priorityEnum } from '@inquest/proto';
import { SqliteDeliveryStore } from '@inquest/store';
import { start } from '@inquest/notifier-service';

const arg = (name: string, def: number) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : def;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
};
const fmt = (xs: number[]) =>
  `n=${xs.length} p50=${pct(xs, 50).toFixed(1)} ms p95=${pct(xs, 95).toFixed(1)} ms p99=${pct(xs, 99).toFixed(1)} ms max=${Math.max(...xs).toFixed(1)} ms`;

interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

async function receiver(hang: boolean): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (!arrivals.has(id)) arrivals.set(id, performance.now());
      if (!hang) res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let seq = 0;
function event(teamId: string) {
  const now = new Date().toISOString();
  return {
    event_id: `evt_bench_${++seq}_${Math.random().toString(36).slice(2, 8)}`,
    occurred_at: now,
    team_id: teamId,
    investigation: {
      investigation_id: `inv_bench_${seq}`,
      team_id: teamId,
      status: 'completed',
      status_enum: investigationStatusEnum.toProto('completed'),
      agent: 'investigation_agent',
      agent_enum: agentEnum.toProto('investigation_agent'),
      message: 'bench',
      tools_used: [],
      created_at: now,
      attempt: 1,
      completed_at: now,
      result: {
        summary: 'bench',
        root_cause: { description: 'bench', confidence: 50, evidence: [] },
        timeline: [],
        affected_systems: [],
        recommendations: [
          { priority: 'high', priority_enum: priorityEnum.toProto('high'), action: 'none' },
        ],
      },
    },
  };
}

export async function run(_args: string[]): Promise<void> {
  const rate = arg('rate', 3000);
  const seconds = arg('seconds', 30);
  const dir = mkdtempSync(join(tmpdir(), 'inquest-bench-notifier-'));
  const healthy = await receiver(false);
  const hanging = await receiver(true);
  const teams: Record<string, Record<string, unknown>> = {
    healthy: { webhooks: { investigation_complete: healthy.url } },
    hanging: { webhooks: { investigation_complete: hanging.url } },
  };
  for (let i = 0; i < 10; i++)
    teams[`team-${i}`] = { webhooks: { investigation_complete: healthy.url } };
  const config = await startGrpcServer({
    port: 0,
    services: [
      {
        definition: configV1.ConfigServiceService,
        implementation: implement(configV1.ConfigServiceService, {
          getEffectiveConfig: async (req: configV1.GetEffectiveConfigRequest) => {
            const c = teams[req.team_id];
            if (!c) throw notFound('no such team');
            return { config: c, version: 1, secret_scopes: {} };
          },
        } as never),
        name: 'inquest.config.v1.ConfigService',
      },
    ],
  });
  const bus = new InProcessEventBus();
  const svc = await start(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_LOG_LEVEL: 'warn',
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_DATA_DIR: dir,
      INQUEST_EGRESS_ALLOW: '127.0.0.1',
    },
    { bus },
  );
  const sent = new Map<string, number>();
  const publish = async (team: string) => {
    const ev = event(team);
    sent.set(ev.event_id, performance.now());
    await bus.publish(Subjects.investigationCompleted, ev);
    return ev.event_id;
  };
  const latencies = (ids: string[], r: Receiver) =>
    ids.filter((id) => r.arrivals.has(id)).map((id) => r.arrivals.get(id)! - sent.get(id)!);

  try {
    // 1. latency, one event at a time (steady trickle)
    const ids1: string[] = [];
    for (let i = 0; i < 300; i++) {
      ids1.push(await publish('healthy'));
      await sleep(10);
    }
    await sleep(500);
    process.stdout.write(
      `completion -> webhook received (healthy receiver, trickle): ${fmt(latencies(ids1, healthy))}\n`,
    );

    // 2. sustained rate across 10 teams, watching the backlog
    const ids2: string[] = [];
    const intervalMs = 60_000 / rate;
    const t0 = performance.now();
    const backlog: number[] = [];
    let next = t0;
    let tick = 0;
    while (performance.now() - t0 < seconds * 1000) {
      ids2.push(await publish(`team-${tick++ % 10}`));
      next += intervalMs;
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      if (tick % Math.max(1, Math.round(rate / 60)) === 0)
        backlog.push(ids2.length - ids2.filter((id) => healthy.arrivals.has(id)).length);
    }
    const elapsed = (performance.now() - t0) / 1000;
    await sleep(1000);
    const got2 = latencies(ids2, healthy);
    process.stdout.write(
      `sustained ${rate}/min for ${elapsed.toFixed(0)} s: sent ${ids2.length}, received ${got2.length} (${((got2.length / elapsed) * 60).toFixed(0)}/min); ` +
        `backlog samples (1/s) first=${backlog[0] ?? 0} max=${Math.max(0, ...backlog)} last=${backlog.at(-1) ?? 0}; latency ${fmt(got2)}\n`,
    );

    // 3. head-of-line: a team whose receiver never answers (15 s timeout) next to a healthy one
    for (let i = 0; i < 100; i++) await publish('hanging');
    await sleep(200);
    const ids3: string[] = [];
    for (let i = 0; i < 200; i++) {
      ids3.push(await publish('healthy'));
      await sleep(10);
    }
    await sleep(500);
    process.stdout.write(
      `with 100 deliveries stuck on a hanging receiver (another team): healthy team ${fmt(latencies(ids3, healthy))}; hanging receiver got ${hanging.arrivals.size} requests\n`,
    );
    const store = SqliteDeliveryStore.open(join(dir, 'notifier.db'));
    const stuck = await store.list('hanging', { limit: 100, status: 'delivering' });
    process.stdout.write(
      `hanging team deliveries in flight at once: ${stuck.length} (lane limit 4)\n`,
    );
    await store.close();
  } finally {
    await svc.stop().catch(() => undefined);
    await bus.close();
    await config.shutdown(100);
    await healthy.close();
    await hanging.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
