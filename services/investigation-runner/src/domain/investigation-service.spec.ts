import { DomainError, type DomainError as DomainErrorType } from '@inquest/errors';
import { InProcessEventBus, Subjects, type InvestigationFinishedEvent } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import { SqliteInvestigationStore, type InvestigationResultRecord } from '@inquest/store';
import { toInvestigationMessage } from '../grpc/investigation-message';
import type { EngineRun, InvestigationEngine } from './engine';
import type { RunRequest } from './investigation-request';
import { InvestigationService } from './investigation-service';

const RESULT: InvestigationResultRecord = {
  summary: 'checkout pods run out of memory',
  root_cause: { description: 'memory limit too low', confidence: 0.8, evidence: ['OOMKilled'] },
  timeline: [],
  affected_systems: ['checkout'],
  recommendations: [{ priority: 'high', action: 'raise the memory limit' }],
};

function world(engineRun: (run: EngineRun) => Promise<InvestigationResultRecord>, effective = {}) {
  const store = SqliteInvestigationStore.open(':memory:');
  const bus = new InProcessEventBus();
  const runs: EngineRun[] = [];
  const engine: InvestigationEngine = {
    run: async (run) => {
      runs.push(run);
      run.progress({ current_step: 'looking', steps_completed: 1, steps_total: 2 }, [
        'k8s:list_pods',
      ]);
      return { result: await engineRun(run), toolsUsed: ['k8s:list_pods'] };
    },
  };
  const events: Array<{ subject: string; data: InvestigationFinishedEvent }> = [];
  const service = new InvestigationService({
    store,
    bus,
    config: { getEffectiveConfig: async () => effective },
    engine,
    logger: silentLogger(),
    eventMessage: toInvestigationMessage,
    runnerId: 'runner-1',
    leaseMs: 5_000,
  });
  const listen = async () => {
    for (const subject of [
      Subjects.investigationCompleted,
      Subjects.investigationFailed,
      Subjects.investigationCancelled,
    ])
      await bus.subscribe(subject, async (msg) => {
        events.push({ subject, data: msg.data });
      });
  };
  return { store, bus, service, runs, events, listen };
}

const aRequest = (over: Partial<RunRequest> = {}): RunRequest => ({
  teamId: 'payments',
  agentName: 'k8s_agent',
  message: 'checkout pods restart',
  context: { namespace: 'shop' },
  async: false,
  requestId: 'req-1',
  ...over,
});
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as DomainErrorType,
  );

describe('InvestigationService (sync runs)', () => {
  it('runs to completion and announces it once, without the lease fields', async () => {
    const w = world(async () => RESULT);
    await w.listen();
    const rec = await w.service.run(aRequest());
    expect(rec).toMatchObject({
      team_id: 'payments',
      status: 'completed',
      agent: 'k8s_agent',
      result: RESULT,
      tools_used: ['k8s:list_pods'],
      attempt: 1,
    });
    expect(rec.investigation_id).toMatch(/^inv_[0-9a-f]{24}$/);
    expect(w.runs.map((r) => [r.teamId, r.agent, r.context.namespace, r.requestId])).toEqual([
      ['payments', 'k8s_agent', 'shop', 'req-1'],
    ]);
    await new Promise((r) => setImmediate(r));
    expect(w.events.map((e) => e.subject)).toEqual([Subjects.investigationCompleted]);
    const inv = w.events[0]!.data.investigation;
    expect(inv?.investigation_id).toBe(rec.investigation_id);
    expect(inv).not.toHaveProperty('lease_owner');
    // the proto message: enums and the deprecated strings both written (3 = COMPLETED, 3 = K8S_AGENT)
    expect(inv).toMatchObject({
      status: 'completed',
      status_enum: 3,
      agent: 'k8s_agent',
      agent_enum: 3,
    });
    expect(inv?.result?.recommendations[0]).toMatchObject({ priority: 'high', priority_enum: 1 });
    expect(await w.service.get('payments', rec.investigation_id)).toMatchObject({
      status: 'completed',
    });
    expect((await failure(w.service.get('search', rec.investigation_id)))?.code).toBe('not_found');
  });

  it.each<[string, unknown, string, string]>([
    [
      'a data source failure',
      new DomainError('unavailable', 'data_source_unavailable', 'every tool server is down'),
      'data_source_unavailable',
      'every tool server is down',
    ],
    [
      'a timeout of a call',
      new DomainError('timeout', 'deadline', 'llm too slow'),
      'timeout',
      'llm too slow',
    ],
    ['anything else', new Error('bug: x is undefined'), 'internal', 'internal error'],
  ])(
    'records %s as failed with its code, never an internal message',
    async (_w, err, code, message) => {
      const w = world(() => Promise.reject(err));
      await w.listen();
      const rec = await w.service.run(aRequest());
      expect(rec).toMatchObject({ status: 'failed', error: { code, message } });
      await new Promise((r) => setImmediate(r));
      expect(w.events.map((e) => e.subject)).toEqual([Subjects.investigationFailed]);
    },
  );

  it('refuses a disabled agent and an invalid request before storing anything', async () => {
    const w = world(async () => RESULT, { agents: { k8s_agent: { enabled: false } } });
    expect((await failure(w.service.run(aRequest())))?.message).toBe(
      'agent_name k8s_agent is disabled for this team',
    );
    expect((await failure(w.service.run(aRequest({ message: '' }))))?.code).toBe('invalid_request');
    expect((await w.service.list({ teamId: 'payments', limit: 10, offset: 0 })).total).toBe(0);
    expect(w.runs).toEqual([]);
  });

  it('answers the stored investigation when started again with the same id', async () => {
    const w = world(async () => RESULT);
    const first = await w.service.run(aRequest({ investigationId: 'inv_alert_1' }));
    const again = await w.service.run(aRequest({ investigationId: 'inv_alert_1' }));
    expect(again.investigation_id).toBe('inv_alert_1');
    expect(again.status).toBe(first.status);
    expect(w.runs).toHaveLength(1);
  });

  it('cancels only what is not finished', async () => {
    const w = world(async () => RESULT);
    const done = await w.service.run(aRequest());
    expect((await failure(w.service.cancel('payments', done.investigation_id)))?.message).toBe(
      'investigation is already completed',
    );
    expect((await failure(w.service.cancel('payments', 'inv_nope')))?.code).toBe('not_found');
  });

  it('checks list paging and filters', async () => {
    const w = world(async () => RESULT);
    await w.service.run(aRequest());
    for (const bad of [
      { limit: 0, offset: 0 },
      { limit: 101, offset: 0 },
      { limit: 10, offset: -1 },
      { limit: 10, offset: 0, status: 'done' },
    ])
      expect((await failure(w.service.list({ teamId: 'payments', ...bad })))?.code).toBe(
        'invalid_request',
      );
    expect(
      (await w.service.list({ teamId: 'payments', limit: 10, offset: 0, status: 'completed' }))
        .total,
    ).toBe(1);
  });
});

describe('InvestigationService (async runs)', () => {
  it('queues the run and works it off the bus once started', async () => {
    const w = world(async () => RESULT);
    await w.listen();
    await w.service.start();
    try {
      const queued = await w.service.run(aRequest({ async: true }));
      expect(queued.status).toBe('pending');
      for (let i = 0; i < 100 && w.events.length === 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(w.events.map((e) => e.subject)).toEqual([Subjects.investigationCompleted]);
      expect(await w.service.get('payments', queued.investigation_id)).toMatchObject({
        status: 'completed',
        result: RESULT,
      });
      expect(w.runs[0]?.requestId).toBe('req-1');
    } finally {
      await w.service.stop();
    }
  });
});
