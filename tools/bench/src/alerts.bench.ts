/**
 * Alert intake benchmark (issue 15). The real gateway and investigation-runner started in-process
 * through their start() (all-in-one shape: in-process queue, SQLite, one event bus), gRPC
 * doubles for config-hierarchy (tokens, effective config), toolserver-proxy (the k8s demo tools)
 * and knowledge-raptor. The load generator runs in a worker thread, so its own work does not
 * sit on the services' event loop.
 *
 * 1. latency: one new alert group per Alertmanager notification, one at a time; the 202 means
 *    the alert is recorded and its investigation accepted (stored and queued)   (p99 <= 50 ms)
 * 2. storm: --storm-alerts (5000) alerts in --storm-groups (200) groups over --storm-seconds (10),
 *    one alert per notification, open loop at a fixed rate; meanwhile another credential reads
 *    GET /agents/investigations at --other-rps (20/s)
 *    -> exactly one investigation per group, every alert recorded, every notification 202,
 *       other requests p99 <= 100 ms
 *
 * Policy under test: `alerts.max_investigations_per_minute` is set to 100000 for the bench teams
 * (default 10) and INQUEST_RATE_LIMITS to alert=1000000, read=1000000: the storm measures
 * dedupe and throughput, not the caps (the caps have their own tests).
 *
 * Args: --latency=<notifications> (500) --storm-alerts=<n> (5000) --storm-groups=<n> (200)
 *       --storm-seconds=<s> (10) --other-rps=<n> (20) --connections=<n> (32)
 *       --runner-process: the investigation-runner in its own process (distributed shape: the
 *       gateway's event loop no longer runs investigations) instead of in-process (all-in-one)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { createClient } from '@inquest/grpc-kit';
import { InProcessEventBus } from '@inquest/events';
import { createLogger } from '@inquest/observability';
import { investigationStatusEnum, investigationV1 } from '@inquest/proto';
import {
  k8sTools,
  startConfigServiceDouble,
  startKnowledgeServiceDouble,
  startToolServiceDouble,
} from '@inquest/testing';
import { start as startGateway } from '@inquest/gateway-service';
import { start as startRunner } from '@inquest/investigation-runner-service';

const arg = (name: string, def: number) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : def;
};
const out = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN) : NaN;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** The load generator (a worker thread): plain CommonJS, undici from the workspace. */
const LOADGEN = `
const { parentPort, workerData } = require('node:worker_threads');
const { Agent, request } = require(workerData.undici);
const { url, mode } = workerData;
const agent = new Agent({ connections: workerData.connections, pipelining: 1 });
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function notification(group, fingerprint, i) {
  return JSON.stringify({
    version: '4', groupKey: group, status: 'firing', receiver: 'inquest',
    groupLabels: { alertname: 'BenchAlert' }, commonLabels: {}, commonAnnotations: {},
    externalURL: 'http://alertmanager.bench',
    alerts: [{ status: 'firing',
      labels: { alertname: 'BenchAlert', namespace: 'shop', service: 'checkout', severity: 'critical', instance: 'i-' + i },
      annotations: { summary: 'bench alert ' + i, runbook_url: 'https://runbooks.example/bench' },
      startsAt: new Date().toISOString(), endsAt: '0001-01-01T00:00:00Z', fingerprint }],
  });
}
async function post(token, body) {
  const t0 = now();
  const res = await request(url + '/api/v1/alerts/alertmanager', { method: 'POST', dispatcher: agent,
    headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' }, body });
  const text = await res.body.text();
  return { ms: now() - t0, status: res.statusCode, body: res.statusCode === 202 ? JSON.parse(text) : undefined };
}
async function latency() {
  const lat = []; let started = 0; let bad = 0;
  for (let i = 0; i < workerData.count; i++) {
    const r = await post(workerData.token, notification('latency-' + i, 'lat-' + i, i));
    lat.push(r.ms);
    if (r.status !== 202) bad++;
    else started += r.body.investigations.filter((x) => x.outcome === 'started').length;
  }
  return { lat, started, bad };
}
async function storm() {
  const { alerts, groups, seconds, otherRps } = workerData;
  const gap = (seconds * 1000) / alerts;
  const t0 = now();
  const pending = []; const lat = []; const statuses = {}; let started = 0; let existing = 0; let received = 0;
  const ids = new Set();
  let stop = false; const other = [];
  const otherLoop = (async () => {
    let k = 0;
    while (!stop) {
      const due = t0 + (k++ * 1000) / otherRps;
      const wait = due - now(); if (wait > 0) await sleep(wait);
      const s = now();
      const res = await request(url + '/api/v1/agents/investigations?limit=5', { dispatcher: agent,
        headers: { authorization: 'Bearer ' + workerData.otherToken } });
      await res.body.text();
      other.push({ ms: now() - s, status: res.statusCode });
    }
  })();
  for (let i = 0; i < alerts; i++) {
    const due = t0 + i * gap;
    const wait = due - now(); if (wait > 1) await sleep(wait);
    pending.push(post(workerData.token, notification('storm-group-' + (i % groups), 'storm-' + i, i)).then((r) => {
      lat.push(r.ms); statuses[r.status] = (statuses[r.status] || 0) + 1;
      if (r.body) {
        received += r.body.alerts_received;
        for (const inv of r.body.investigations) { ids.add(inv.investigation_id); if (inv.outcome === 'started') started++; else existing++; }
      }
    }, (err) => { statuses.error = (statuses.error || 0) + 1; }));
  }
  await Promise.all(pending);
  const sentMs = now() - t0;
  stop = true; await otherLoop;
  return { lat, statuses, started, existing, received, distinct: ids.size, sentMs, other };
}
(mode === 'latency' ? latency() : storm()).then((r) => parentPort.postMessage(r), (e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
`;

/** The runner as its own process (distributed shape); in-process queue, its own SQLite. */
function spawnRunner(
  env: Record<string, string>,
): Promise<{ address: string; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      [require.resolve('@inquest/investigation-runner-service')],
      {
        env: { PATH: process.env['PATH'] ?? '', INQUEST_LOG_LEVEL: 'info', ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let buf = '';
    const onData = (b: Buffer) => {
      buf += b.toString();
      const m = /"address":"([^"]+)".*gRPC server listening/.exec(buf);
      if (!m) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolve({
        address: m[1]!,
        stop: () =>
          new Promise<void>((r) => {
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`runner exited (${code}): ${buf.slice(-2000)}`)));
  });
}

function runWorker<T>(data: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const w = new Worker(LOADGEN, {
      eval: true,
      workerData: { ...data, undici: require.resolve('undici') },
    });
    w.once('message', (m: T & { error?: string }) => {
      void w.terminate();
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
    w.once('error', reject);
  });
}

export async function run(): Promise<void> {
  const latencyCount = arg('latency', 500);
  const stormAlerts = arg('storm-alerts', 5000);
  const stormGroups = arg('storm-groups', 200);
  const stormSeconds = arg('storm-seconds', 10);
  const otherRps = arg('other-rps', 20);
  const connections = arg('connections', 32);
  const logger = createLogger({ name: 'bench', level: 'error' });
  const dataDir = mkdtempSync(join(tmpdir(), 'inquest-alerts-bench-'));
  const bench = { alerts: { max_investigations_per_minute: 100_000 } };
  const config = await startConfigServiceDouble({
    effective: { 'team-latency': bench, 'team-storm': bench, 'team-other': {} },
  });
  const tools = await startToolServiceDouble({ tools: k8sTools() });
  const knowledge = await startKnowledgeServiceDouble();
  const bus = new InProcessEventBus();
  const runnerEnv = {
    INQUEST_GRPC_PORT: '0',
    INQUEST_CONFIG_ADDR: config.address,
    INQUEST_TOOLS_ADDR: tools.address,
    INQUEST_KNOWLEDGE_ADDR: knowledge.address,
    INQUEST_DATA_DIR: dataDir,
  };
  const ownProcess = process.argv.includes('--runner-process');
  const runner = ownProcess
    ? await spawnRunner(runnerEnv)
    : await startRunner({ ...runnerEnv, INQUEST_LOG_LEVEL: 'error' }, { bus, logger });
  const gw = await startGateway(
    {
      PORT: '0',
      INQUEST_HTTP_HOST: '127.0.0.1',
      INQUEST_LOG_LEVEL: 'error',
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_INVESTIGATION_ADDR: runner.address,
      INQUEST_RATE_LIMITS: 'read=1000000,write=1000000,trigger=1000000,alert=1000000',
    },
    { bus, logger },
  );
  const investigations = createClient(investigationV1.InvestigationServiceClient, runner.address, {
    deadlineMs: 30_000,
  });
  const countOf = async (team: string, status?: string) =>
    (
      await investigations.listInvestigations(
        {
          team_id: team,
          limit: 1,
          offset: 0,
          status,
          status_enum: investigationStatusEnum.toProto(status),
          agent_enum: 0,
        },
        { ctx: { requestId: 'bench', teamId: team, principal: 'bench' } },
      )
    ).total;
  try {
    out(
      `machine: ${availableParallelism()} CPUs, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at start (other work on the machine shows in the tails)`,
    );
    out(
      `shape: ${ownProcess ? 'investigation-runner in its own process (--runner-process)' : 'all-in-one: gateway and investigation-runner in one process'}`,
    );
    out(
      `config: alerts.max_investigations_per_minute=100000 (default 10), INQUEST_RATE_LIMITS alert=1000000 read=1000000; deterministic engine on the k8s tool double`,
    );
    // warm-up: connections, prepared statements, JIT
    await runWorker({
      mode: 'latency',
      url: gw.url,
      token: config.issue('team-other', ['read']).token,
      count: 50,
      connections: 1,
    });

    const lat = await runWorker<{ lat: number[]; started: number; bad: number }>({
      mode: 'latency',
      url: gw.url,
      token: config.issue('team-latency', ['read']).token,
      count: latencyCount,
      connections: 1,
    });
    const p99 = pct(lat.lat, 99);
    out(
      `\n1. alert received -> investigation accepted (${latencyCount} notifications, one new group each, sequential)`,
    );
    out(
      `   p50 ${ms(pct(lat.lat, 50))}  p95 ${ms(pct(lat.lat, 95))}  p99 ${ms(p99)}  max ${ms(Math.max(...lat.lat))}  started ${lat.started}/${latencyCount}  non-202 ${lat.bad}`,
    );
    out(`   target p99 <= 50 ms: ${verdict(p99 <= 50 && lat.started === latencyCount)}`);
    // let the latency phase's investigations finish before the storm
    for (
      let i = 0;
      i < 120 &&
      (await countOf('team-latency', 'pending')) + (await countOf('team-latency', 'running')) > 0;
      i++
    )
      await sleep(500);

    const cpu0 = process.cpuUsage();
    const storm = await runWorker<{
      lat: number[];
      statuses: Record<string, number>;
      started: number;
      existing: number;
      received: number;
      distinct: number;
      sentMs: number;
      other: { ms: number; status: number }[];
    }>({
      mode: 'storm',
      url: gw.url,
      token: config.issue('team-storm', ['read']).token,
      otherToken: config.issue('team-other', ['read']).token,
      alerts: stormAlerts,
      groups: stormGroups,
      seconds: stormSeconds,
      otherRps,
      connections,
    });
    const cpu = process.cpuUsage(cpu0);
    const created = await countOf('team-storm');
    const listRes = await fetch(`${gw.url}/api/v1/alerts?limit=1`, {
      headers: { authorization: `Bearer ${config.issue('team-storm', ['read']).token}` },
    });
    const alertsRecorded = ((await listRes.json()) as { pagination: { total: number } }).pagination
      .total;
    const otherLat = storm.other.map((o) => o.ms);
    const otherBad = storm.other.filter((o) => o.status !== 200).length;
    const accepted = storm.statuses['202'] ?? 0;
    out(
      `\n2. storm: ${stormAlerts} alerts in ${stormGroups} groups over ${stormSeconds} s (one alert per notification, open loop, ${connections} connections)`,
    );
    out(
      `   sent in ${(storm.sentMs / 1000).toFixed(1)} s; answers ${JSON.stringify(storm.statuses)}; alerts_received ${storm.received}`,
    );
    out(
      `   notification latency p50 ${ms(pct(storm.lat, 50))}  p99 ${ms(pct(storm.lat, 99))}  max ${ms(Math.max(...storm.lat))}`,
    );
    out(
      `   investigations: started ${storm.started}, linked repeats ${storm.existing}, distinct ids ${storm.distinct}, stored for the team ${created} (target exactly ${stormGroups}: ${verdict(created === stormGroups && storm.started === stormGroups && storm.distinct === stormGroups)})`,
    );
    out(
      `   alerts recorded ${alertsRecorded} of ${stormAlerts}, every notification 202: ${verdict(alertsRecorded === stormAlerts && accepted === stormAlerts && storm.received === stormAlerts)}`,
    );
    out(
      `   other requests during the storm (GET /agents/investigations, ${otherRps}/s, ${storm.other.length} requests, non-200 ${otherBad}): p50 ${ms(pct(otherLat, 50))}  p99 ${ms(pct(otherLat, 99))}  (target p99 <= 100 ms: ${verdict(pct(otherLat, 99) <= 100 && otherBad === 0)})`,
    );
    out(
      `   CPU of this process during the storm (gateway${ownProcess ? '' : ', runner and its investigations'}, doubles, load generator): ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, ${((cpu.user + cpu.system) / 1000 / stormAlerts).toFixed(2)} ms per notification`,
    );
    out(`   load average after the storm: ${loadavg()[0]!.toFixed(1)}`);
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      const open =
        (await countOf('team-storm', 'pending')) + (await countOf('team-storm', 'running'));
      if (open === 0) break;
      await sleep(500);
    }
    out(
      `   afterwards: ${await countOf('team-storm', 'completed')} of ${created} storm investigations completed, ${await countOf('team-storm', 'failed')} failed`,
    );
  } finally {
    investigations.close();
    await gw.stop();
    await runner.stop();
    await Promise.all([config.stop(), tools.stop(), knowledge.stop()]);
    await bus.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
