import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { conflict, invalidRequest, isDomainError, notFound } from '@inquest/errors';
import {
  Subjects,
  eventEnvelope,
  type EventBus,
  type EventMessage,
  type InvestigationFinishedEvent,
  type InvestigationRequestedEvent,
  type Subscription,
} from '@inquest/events';
import type { Logger } from '@inquest/observability';
import type { InvestigationRecord, InvestigationStore, ProgressRecord } from '@inquest/store';
import { agentConfigOf, type AgentName } from './agents';
import type { InvestigationEngine } from './engine';
import { validateRunRequest, type RunRequest } from './investigation-request';
import type { ConfigSource } from './ports';

export const FAILURE_CODES = [
  'data_source_unavailable',
  'llm_unavailable',
  'timeout',
  'runner_lost',
  'internal',
] as const;

/** Why a run's AbortSignal fired: only a timeout is written (as failed); the others write nothing. */
export class RunAborted extends Error {
  constructor(readonly why: 'cancelled' | 'timeout' | 'lease_lost' | 'shutdown') {
    super(`investigation ${why}`);
    this.name = 'RunAborted';
  }
}

export interface InvestigationServiceOptions {
  store: InvestigationStore;
  bus: EventBus;
  config: ConfigSource;
  engine: InvestigationEngine;
  logger: Logger;
  /**
   * The event's form of a record (the gRPC edge's encoder: the proto message, with its enums and
   * the deprecated strings both set).
   */
  eventMessage: (r: InvestigationRecord) => InvestigationFinishedEvent['investigation'];
  /** unique per runner process */
  runnerId: string;
  /** lease length; renewed every third of it (default 15 s) */
  leaseMs?: number;
  /** claims of one investigation before it fails with runner_lost (default 3) */
  maxAttempts?: number;
  /** async investigations this runner works on at once (default 8) */
  concurrency?: number;
  /** how often to look for lapsed leases (default leaseMs) */
  sweepIntervalMs?: number;
  /**
   * all-in-one mode (in-process queue): running investigations found at start belong to a dead
   * process and are taken over at once; pending ones are queued again.
   */
  takeOverOnStart?: boolean;
}

export interface ListRequest {
  teamId: string;
  limit: number;
  offset: number;
  status?: string;
  agent?: string;
}

const STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'];
const DURABLE = 'investigation-runner';
const PROGRESS_INTERVAL_MS = 250;

/**
 * The investigation lifecycle: validate and store requests, run them (sync in the caller's
 * call, async through the work queue), hold and renew a lease while running, cancel, recover
 * after crashes, and emit exactly one terminal event per investigation (the winner of the
 * store's conditional transition emits it).
 */
export class InvestigationService {
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly active = new Map<string, AbortController>();
  private readonly running = new Set<Promise<unknown>>();
  private subs: Subscription[] = [];
  private sweeper?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly o: InvestigationServiceOptions) {
    this.leaseMs = o.leaseMs ?? 15_000;
    this.maxAttempts = o.maxAttempts ?? 3;
  }

  /** Subscribes to the work queue and cancellations, recovers what a crash left, starts the sweeper. */
  async start(): Promise<void> {
    this.subs.push(
      await this.o.bus.subscribe(Subjects.investigationRequested, (msg) => this.onRequested(msg), {
        durable: DURABLE,
        concurrency: this.o.concurrency ?? 8,
        ackWaitMs: this.leaseMs,
        maxDeliver: this.maxAttempts * 5,
        backoffMs: [Math.max(200, Math.floor(this.leaseMs / 2)), this.leaseMs],
      }),
    );
    this.subs.push(
      await this.o.bus.subscribe(Subjects.investigationCancelled, async (msg) => {
        const id = msg.data.investigation?.investigation_id;
        if (id) this.active.get(id)?.abort(new RunAborted('cancelled'));
      }),
    );
    await this.recover();
    const every = this.o.sweepIntervalMs ?? this.leaseMs;
    this.sweeper = setInterval(() => {
      this.sweep().catch((err: unknown) => this.o.logger.warn({ err }, 'lease sweep failed'));
    }, every);
    this.sweeper.unref();
  }

  /** Stops taking work; runs in progress are abandoned (their lease lapses and another runner resumes them). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweeper) clearInterval(this.sweeper);
    for (const s of this.subs) await s.unsubscribe().catch(() => undefined);
    this.subs = [];
    for (const ac of this.active.values()) ac.abort(new RunAborted('shutdown'));
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((r) => setTimeout(r, 5000).unref()),
    ]);
  }

  /** `effective`: the team's effective config when the caller already holds it */
  async run(req: RunRequest, effective?: Record<string, unknown>): Promise<InvestigationRecord> {
    const valid = validateRunRequest(req);
    if (valid.investigationId) {
      const existing = await this.o.store.getById(valid.investigationId);
      if (existing) return existing;
    }
    effective ??= await this.o.config.getEffectiveConfig(valid.teamId, undefined, req.requestId);
    const agentCfg = agentConfigOf(effective, valid.agentName);
    if (!agentCfg.enabled)
      throw invalidRequest(`agent_name ${valid.agentName} is disabled for this team`);
    const record: InvestigationRecord = {
      investigation_id: valid.investigationId ?? `inv_${randomBytes(12).toString('hex')}`,
      team_id: valid.teamId,
      status: 'pending',
      agent: valid.agentName,
      message: valid.message,
      context: valid.context,
      async: valid.async,
      tools_used: [],
      created_at: new Date().toISOString(),
      attempt: 0,
      requested_by: valid.requestedBy,
    };
    if (valid.alert) record.alert = valid.alert;
    if (valid.investigationId) {
      try {
        await this.o.store.create(record);
      } catch (err) {
        // created by a concurrent start of the same alert group: that one is the investigation
        const existing = await this.o.store.getById(record.investigation_id);
        if (existing) return existing;
        throw err;
      }
    } else {
      await this.o.store.create(record);
    }
    if (valid.async) {
      await this.enqueue(record, `${record.investigation_id}.requested`, req.requestId);
      return record;
    }
    const claim = await this.o.store.claim(
      record.investigation_id,
      this.o.runnerId,
      this.leaseMs,
      this.maxAttempts,
    );
    if (claim.kind !== 'claimed')
      return (await this.o.store.getById(record.investigation_id)) ?? record;
    return this.track(this.execute(claim.record, effective, undefined, req.requestId));
  }

  async get(teamId: string, id: string): Promise<InvestigationRecord> {
    const rec = await this.o.store.get(teamId, id);
    if (!rec) throw notFound('investigation not found');
    return rec;
  }

  async list(req: ListRequest): Promise<{ items: InvestigationRecord[]; total: number }> {
    if (!Number.isInteger(req.limit) || req.limit < 1 || req.limit > 100)
      throw invalidRequest('limit must be an integer from 1 to 100');
    if (!Number.isInteger(req.offset) || req.offset < 0)
      throw invalidRequest('offset must be a non-negative integer');
    if (req.status && !STATUSES.includes(req.status))
      throw invalidRequest(`status must be one of ${STATUSES.join(', ')}`);
    return this.o.store.list(req);
  }

  async cancel(teamId: string, id: string): Promise<InvestigationRecord> {
    const rec = await this.o.store.cancel(teamId, id, new Date().toISOString());
    if (!rec) {
      const existing = await this.o.store.get(teamId, id);
      if (!existing) throw notFound('investigation not found');
      throw conflict(`investigation is already ${existing.status}`);
    }
    this.active.get(id)?.abort(new RunAborted('cancelled'));
    await this.emitFinished(rec);
    return rec;
  }

  /** Exactly once per investigation: called only by the winner of a terminal transition. */
  private async emitFinished(rec: InvestigationRecord): Promise<void> {
    const subject =
      rec.status === 'completed'
        ? Subjects.investigationCompleted
        : rec.status === 'failed'
          ? Subjects.investigationFailed
          : Subjects.investigationCancelled;
    const event = {
      ...eventEnvelope(rec.team_id, `${rec.investigation_id}.${rec.status}`),
      investigation: this.o.eventMessage(rec),
    };
    try {
      await this.o.bus.publish(subject, event, { msgId: event.event_id });
    } catch (err) {
      this.o.logger.error(
        { err, investigation_id: rec.investigation_id },
        'could not publish the terminal event',
      );
    }
  }

  private async enqueue(
    rec: InvestigationRecord,
    msgId: string,
    requestId?: string,
  ): Promise<void> {
    await this.o.bus.publish(
      Subjects.investigationRequested,
      {
        ...eventEnvelope(rec.team_id, msgId),
        investigation_id: rec.investigation_id,
        ...(requestId ? { request_id: requestId } : {}),
      },
      { msgId },
    );
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.running.add(p);
    void p.finally(() => this.running.delete(p)).catch(() => undefined);
    return p;
  }

  private async onRequested(msg: EventMessage<InvestigationRequestedEvent>): Promise<void> {
    const id = msg.data?.investigation_id;
    if (typeof id !== 'string' || !id) {
      msg.term();
      return;
    }
    if (this.stopped) throw new Error('runner stopping');
    const outcome = await this.o.store.claim(id, this.o.runnerId, this.leaseMs, this.maxAttempts);
    switch (outcome.kind) {
      case 'missing':
      case 'terminal':
        return;
      case 'busy':
        // another runner holds a live lease; look again later (it may die)
        throw new Error('investigation busy');
      case 'exhausted':
        await this.failRunnerLost(outcome.record);
        return;
      case 'claimed':
        await this.track(
          this.execute(
            outcome.record,
            undefined,
            msg,
            typeof msg.data?.request_id === 'string' ? msg.data.request_id : undefined,
          ),
        );
    }
  }

  private async failRunnerLost(rec: InvestigationRecord): Promise<void> {
    const done = await this.o.store.finish(rec.investigation_id, undefined, {
      status: 'failed',
      at: new Date().toISOString(),
      error: {
        code: 'runner_lost',
        message: `the runner working on it stopped and its ${rec.attempt} attempt(s) are used up`,
      },
    });
    if (done) await this.emitFinished(done);
  }

  /** Runs a claimed investigation to its end; answers the stored record afterwards. */
  private async execute(
    rec: InvestigationRecord,
    effective?: Record<string, unknown>,
    msg?: EventMessage,
    requestId?: string,
  ): Promise<InvestigationRecord> {
    const id = rec.investigation_id;
    const ac = new AbortController();
    // one signal is shared by every concurrent tool call, retrieval and LLM request of the run
    setMaxListeners(256, ac.signal);
    this.active.set(id, ac);
    const startedMs = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const renew = setInterval(
      () => {
        msg?.working();
        this.o.store.renewLease(id, this.o.runnerId, this.leaseMs).then(
          (ok) => {
            if (!ok) ac.abort(new RunAborted('lease_lost'));
          },
          (err: unknown) =>
            this.o.logger.warn({ err, investigation_id: id }, 'lease renewal failed'),
        );
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    let progressChain: Promise<unknown> = Promise.resolve();
    // progress is written at most every PROGRESS_INTERVAL_MS (the latest step wins): a fast
    // investigation costs one write, a slow one shows each step within a fraction of a second
    let latest: [ProgressRecord, string[]] | undefined;
    let flushTimer: NodeJS.Timeout | undefined;
    let lastWrite = 0;
    const flush = () => {
      flushTimer = undefined;
      const p = latest;
      if (!p || ac.signal.aborted) return;
      lastWrite = Date.now();
      progressChain = progressChain
        .then(() => this.saveProgress(rec, p[0], p[1]))
        .catch(() => undefined);
    };
    try {
      const eff =
        effective ?? (await this.o.config.getEffectiveConfig(rec.team_id, ac.signal, requestId));
      const timeoutMs = agentConfigOf(eff, rec.agent).timeoutSeconds * 1000;
      timer = setTimeout(() => ac.abort(new RunAborted('timeout')), timeoutMs);
      const outcome = await this.o.engine.run({
        teamId: rec.team_id,
        investigationId: id,
        agent: rec.agent as AgentName,
        message: rec.message,
        context: rec.context,
        effective: eff,
        ...(requestId ? { requestId } : {}),
        signal: ac.signal,
        deadline: startedMs + timeoutMs,
        progress: (p: ProgressRecord, used: string[]) => {
          if (ac.signal.aborted) return;
          latest = [p, used];
          if (!flushTimer)
            flushTimer = setTimeout(
              flush,
              Math.max(0, lastWrite + PROGRESS_INTERVAL_MS - Date.now()),
            );
        },
      });
      if (ac.signal.aborted) throw ac.signal.reason;
      if (flushTimer) clearTimeout(flushTimer);
      await progressChain;
      const done = await this.o.store.finish(id, this.o.runnerId, {
        status: 'completed',
        at: new Date().toISOString(),
        result: outcome.result,
        tools_used: outcome.toolsUsed,
        duration_seconds: this.durationSince(rec),
      });
      if (done) await this.emitFinished(done);
    } catch (err) {
      const why =
        ac.signal.aborted && ac.signal.reason instanceof RunAborted
          ? ac.signal.reason.why
          : undefined;
      if (why === 'cancelled' || why === 'lease_lost' || why === 'shutdown') {
        this.o.logger.info({ investigation_id: id, why }, 'investigation run stopped');
      } else {
        let code = 'internal';
        let message = 'internal error';
        if (why === 'timeout') {
          code = 'timeout';
          message = 'the investigation did not finish within the agent timeout';
        } else if (isDomainError(err) && (FAILURE_CODES as readonly string[]).includes(err.code)) {
          code = err.code;
          message = err.message;
        } else if (isDomainError(err) && err.kind === 'timeout') {
          code = 'timeout';
          message = err.message;
        } else {
          this.o.logger.error({ err, investigation_id: id }, 'investigation failed unexpectedly');
        }
        if (flushTimer) clearTimeout(flushTimer);
        await progressChain;
        const done = await this.o.store.finish(id, this.o.runnerId, {
          status: 'failed',
          at: new Date().toISOString(),
          error: { code, message },
          duration_seconds: this.durationSince(rec),
        });
        if (done) await this.emitFinished(done);
      }
    } finally {
      clearInterval(renew);
      if (timer) clearTimeout(timer);
      if (flushTimer) clearTimeout(flushTimer);
      if (this.active.get(id) === ac) this.active.delete(id);
    }
    return msg ? rec : ((await this.o.store.getById(id)) ?? rec);
  }

  private durationSince(rec: InvestigationRecord): number {
    const start = rec.started_at ? Date.parse(rec.started_at) : Date.parse(rec.created_at);
    return Math.max(0, Math.round(Date.now() - start) / 1000);
  }

  private async saveProgress(
    rec: InvestigationRecord,
    p: ProgressRecord,
    used: string[],
  ): Promise<void> {
    const ok = await this.o.store.updateProgress(rec.investigation_id, this.o.runnerId, p, used);
    if (!ok) return;
    await this.o.bus
      .publish(Subjects.investigationProgress(rec.investigation_id), {
        ...eventEnvelope(rec.team_id),
        investigation_id: rec.investigation_id,
        progress: p,
      })
      .catch(() => undefined);
  }

  /** On start: pending ones are queued again; running ones are taken over (all-in-one) or left to the sweeper. */
  async recover(): Promise<void> {
    const unfinished = await this.o.store.listUnfinished();
    for (const rec of unfinished) {
      if (rec.status === 'pending') {
        await this.enqueue(rec, `${rec.investigation_id}.recover.${Date.now()}`);
      } else if (this.o.takeOverOnStart && rec.lease_owner !== this.o.runnerId) {
        // the previous all-in-one process is gone: its lease is void even if not yet lapsed
        const now = Math.max(Date.now(), (rec.lease_expires_at ?? 0) + 1);
        const outcome = await this.o.store.claim(
          rec.investigation_id,
          this.o.runnerId,
          this.leaseMs,
          this.maxAttempts,
          now,
        );
        if (outcome.kind === 'exhausted') await this.failRunnerLost(outcome.record);
        else if (outcome.kind === 'claimed')
          void this.track(this.execute(outcome.record)).catch(() => undefined);
      }
    }
    if (unfinished.length)
      this.o.logger.info({ count: unfinished.length }, 'recovered unfinished investigations');
    await this.sweep();
  }

  /** Running investigations whose lease lapsed go back to the queue, or fail once their attempts are used up. */
  async sweep(): Promise<void> {
    if (this.stopped) return;
    const now = Date.now();
    for (const rec of await this.o.store.listUnfinished()) {
      if (rec.status !== 'running' || (rec.lease_expires_at ?? 0) > now) continue;
      if (rec.attempt >= this.maxAttempts) await this.failRunnerLost(rec);
      else await this.enqueue(rec, `${rec.investigation_id}.retry.${rec.attempt}`);
    }
  }
}
