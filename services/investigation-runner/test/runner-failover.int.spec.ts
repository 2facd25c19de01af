/**
 * Two runner processes on a real NATS JetStream work queue: one is killed mid-investigation and
 * the investigation still ends (picked up by the other, or runner_lost once attempts are used up).
 */
import { join } from 'node:path';
import { createEventBus, Subjects, type EventBus } from '@inquest/events';
import { createClient } from '@inquest/grpc-kit';
import { silentLogger } from '@inquest/observability';
import { agentEnum, investigationV1 } from '@inquest/proto';
import {
  k8sTools,
  startConfigServiceDouble,
  startKnowledgeServiceDouble,
  startNatsServer,
  startToolServiceDouble,
  tempDir,
  untilAborted,
  waitFor,
  type ConfigServiceDouble,
  type KnowledgeServiceDouble,
  type RunningNatsServer,
  type ToolServiceDouble,
} from '@inquest/testing';
import { buildRunner, startRunnerProcess, type RunnerProcess } from './support-runner-process';

jest.setTimeout(90_000);

let nats: RunningNatsServer;
let config: ConfigServiceDouble;
let toolServer: ToolServiceDouble;
let knowledge: KnowledgeServiceDouble;
let observer: EventBus;
const root = tempDir();
let n = 0;
const finished: { subject: string; id: string; status: string }[] = [];
const procs: RunnerProcess[] = [];

beforeAll(async () => {
  buildRunner();
  nats = await startNatsServer();
  config = await startConfigServiceDouble({ unknownTeam: 'empty' });
  toolServer = await startToolServiceDouble();
  knowledge = await startKnowledgeServiceDouble();
  observer = await createEventBus({ natsUrl: nats.url, logger: silentLogger() });
  for (const subject of [
    Subjects.investigationCompleted,
    Subjects.investigationFailed,
    Subjects.investigationCancelled,
  ]) {
    await observer.subscribe(subject, async (m) => {
      const inv = (m.data as { investigation: { investigation_id: string; status: string } })
        .investigation;
      finished.push({ subject: m.subject, id: inv.investigation_id, status: inv.status });
    });
  }
});

afterEach(async () => {
  // the durable consumer is shared: runners of one scenario must not take the next one's work
  await Promise.all(procs.splice(0).map((p) => p.stop()));
});

afterAll(async () => {
  await observer?.close();
  await Promise.all([config?.stop(), toolServer?.stop(), knowledge?.stop()]);
  await nats?.stop();
});

function runnerEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    INQUEST_CONFIG_ADDR: config.address,
    INQUEST_TOOLS_ADDR: toolServer.address,
    INQUEST_KNOWLEDGE_ADDR: knowledge.address,
    INQUEST_NATS_URL: nats.url,
    // both runners share one store: a SQLite file here (MongoDB in production)
    INQUEST_DATA_DIR: dataDir,
    // short enough to fail over within the test, long enough that a runner starved of CPU for a
    // few seconds (2 cores, the whole suite running) still renews its lease in time
    INQUEST_RUNNER_LEASE_MS: '6000',
    ...extra,
  };
}

async function scenario(
  maxAttempts: string,
): Promise<{ id: string; client: ReturnType<typeof clientOf> }> {
  const dataDir = join(root, `shared-${++n}`);
  toolServer.tools = k8sTools();
  toolServer.calls.length = 0;
  let first = true;
  // the first tool call (whichever tool runner A calls first) hangs: A dies in it; runner B's
  // calls all answer (the engine calls several tools at once, in no fixed order)
  for (const tool of toolServer.tools) {
    const answer = tool.handler;
    tool.handler = (p, ctx) => {
      if (first) {
        first = false;
        return untilAborted(ctx.signal);
      }
      return answer(p, ctx);
    };
  }
  const a = await startRunnerProcess(
    runnerEnv(dataDir, { INQUEST_RUNNER_MAX_ATTEMPTS: maxAttempts, INQUEST_RUNNER_ID: `a-${n}` }),
  );
  procs.push(a);
  const client = clientOf(a.address);
  const { investigation } = await client.runInvestigation({
    team_id: 'team-a',
    agent_name: 'k8s_agent',
    agent_name_enum: agentEnum.toProto('k8s_agent'),
    message: 'checkout pods keep restarting',
    context: { namespace: 'shop' },
    async: true,
  });
  const id = investigation!.investigation_id;
  await waitFor(() => toolServer.calls.some((c) => c.investigationId === id), 15_000);
  a.kill();
  const b = await startRunnerProcess(
    runnerEnv(dataDir, { INQUEST_RUNNER_MAX_ATTEMPTS: maxAttempts, INQUEST_RUNNER_ID: `b-${n}` }),
  );
  procs.push(b);
  return { id, client: clientOf(b.address) };
}

const clientOf = (address: string) =>
  createClient(investigationV1.InvestigationServiceClient, address, { deadlineMs: 10_000 });

describe('runner failover on NATS JetStream', () => {
  it('another runner picks up an investigation whose runner was killed', async () => {
    const { id, client } = await scenario('3');
    const done = await waitFor(async () => {
      const inv = (await client.getInvestigation({ team_id: 'team-a', investigation_id: id }))
        .investigation;
      return inv?.status === 'completed' ? inv : undefined;
    }, 30_000);
    expect(done.attempt).toBe(2);
    expect(done.result?.root_cause?.description).toMatch(/OOM/);
    await new Promise((r) => setTimeout(r, 500));
    expect(finished.filter((f) => f.id === id)).toEqual([
      { subject: Subjects.investigationCompleted, id, status: 'completed' },
    ]);
    client.close();
  });

  it('fails with runner_lost when the attempts are used up', async () => {
    const { id, client } = await scenario('1');
    const failed = await waitFor(async () => {
      const inv = (await client.getInvestigation({ team_id: 'team-a', investigation_id: id }))
        .investigation;
      return inv?.status === 'failed' ? inv : undefined;
    }, 30_000);
    expect(failed.error?.code).toBe('runner_lost');
    await new Promise((r) => setTimeout(r, 500));
    expect(finished.filter((f) => f.id === id).map((f) => f.subject)).toEqual([
      Subjects.investigationFailed,
    ]);
    client.close();
  });
});

describe('cancellation in a runner process', () => {
  // Regression: knowledge lookups still in flight when a cancel aborted the tool rounds rejected
  // with nobody listening, and the unhandled rejection ended the whole process.
  it('a cancel while knowledge lookups are in flight does not end the process', async () => {
    const dataDir = join(root, `cancel-${++n}`);
    toolServer.tools = k8sTools();
    toolServer.tools[0]!.handler = (_p, ctx) => untilAborted(ctx.signal);
    knowledge.delayMs = 1000;
    try {
      const p = await startRunnerProcess(runnerEnv(dataDir, { INQUEST_RUNNER_ID: `c-${n}` }));
      procs.push(p);
      const client = clientOf(p.address);
      const { investigation } = await client.runInvestigation({
        team_id: 'team-a',
        agent_name: 'k8s_agent',
        agent_name_enum: agentEnum.toProto('k8s_agent'),
        message: 'checkout pods keep restarting',
        context: { namespace: 'shop' },
        async: true,
      });
      const id = investigation!.investigation_id;
      await waitFor(() => toolServer.calls.some((c) => c.investigationId === id), 15_000);
      const c = await client.cancelInvestigation({ team_id: 'team-a', investigation_id: id });
      expect(c.investigation?.status).toBe('cancelled');
      await new Promise((r) => setTimeout(r, 2000));
      expect(p.child.exitCode).toBeNull();
      expect(p.child.signalCode).toBeNull();
      client.close();
    } finally {
      knowledge.delayMs = 0;
    }
  });
});
