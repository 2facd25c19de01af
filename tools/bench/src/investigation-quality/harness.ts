import { setMaxListeners } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createClient,
  implement,
  startGrpcServer,
  type AsyncHandlers,
  type PromiseClient,
} from '@inquest/grpc-kit';
import { createLogger } from '@inquest/observability';
import { configV1, knowledgeLevelEnum, knowledgeV1, toolsV1 } from '@inquest/proto';
import { start as startKnowledge } from '@inquest/knowledge-raptor-service';
import type { InvestigationResultRecord } from '@inquest/store';
import { start as startProxy } from '@inquest/toolserver-proxy-service';

/** A tool server registered for a team in the effective config's `mcp_servers`. */
export interface ServerRegistration {
  name: string;
  url: string;
  transport: 'mcp' | 'http';
}

/** One call the engine asked the proxy for (made or refused). */
export interface GatewayCall {
  tool: string;
  parameters: Record<string, unknown>;
  ok: boolean;
  error?: string;
  /** characters of the serialized output */
  outputChars?: number;
  /** still running when the engine returned its result (the harness waited for it) */
  late?: boolean;
}

export interface InvestigationOutcome {
  result?: InvestigationResultRecord;
  error?: string;
  toolsUsed: string[];
  calls: GatewayCall[];
  durationMs: number;
}

export interface InvestigateRequest {
  teamId: string;
  message: string;
  context: Record<string, string>;
  /** epoch ms the engine is told it is (the scenario's now); real time when absent */
  now?: number;
}

/** The runner's ToolGateway port, structurally (the engine is being rewritten; see harness README). */
interface ToolGatewayLike {
  listTools(teamId: string, signal?: AbortSignal): Promise<unknown>;
  callTool(
    teamId: string,
    investigationId: string,
    tool: string,
    parameters: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ output: unknown; truncated: boolean }>;
}

interface EngineLike {
  run(run: {
    teamId: string;
    investigationId: string;
    agent: string;
    message: string;
    context: Record<string, string>;
    effective: Record<string, unknown>;
    signal: AbortSignal;
    deadline: number;
    progress(p: unknown, toolsUsed: string[]): void;
  }): Promise<{ result: InvestigationResultRecord; toolsUsed: string[] }>;
}

type EngineCtor = new (
  tools: ToolGatewayLike,
  knowledge: unknown,
  options?: { clock?: () => number } & Record<string, unknown>,
) => EngineLike;

/**
 * The runner's DeterministicEngine. The service package exports only its composition root, so
 * the module is required from beside it: `dist/domain/...` when the bench runs built, `src/...`
 * under jest (whose module map points the package at its source).
 */
function loadDeterministicEngine(): EngineCtor {
  const root = dirname(require.resolve('@inquest/investigation-runner-service'));
  const mod = require(join(root, 'domain', 'deterministic-engine')) as {
    DeterministicEngine: EngineCtor;
  };
  return mod.DeterministicEngine;
}

/** No runbooks, incidents or learned patterns: the engine reasons from this run's evidence only. */
const EMPTY_KNOWLEDGE = {
  retrieve: async () => [],
  listPatterns: async () => [],
};

/** A runbook to teach the knowledge base (tools/bench/data/kb/runbooks.json). */
export interface RunbookDoc {
  type: string;
  service?: string;
  title: string;
  content: string;
}

const KB_TEAM = 'team-iq-runbooks';

/**
 * knowledge-raptor started in-process with the runbooks taught to one team; every run's team
 * reads that team's knowledge base. No learned patterns (nothing was learned).
 */
async function runbookKnowledge(runbooks: RunbookDoc[], dir: string, configAddress: string) {
  const svc = await startKnowledge(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_DATA_DIR: join(dir, 'kb'),
      INQUEST_CONFIG_ADDR: configAddress,
      INQUEST_KB_REBUILD_DEBOUNCE_MS: '600000',
      INQUEST_LOG_LEVEL: 'silent',
    },
    {
      logger: createLogger({
        name: 'bench',
        level: 'error',
        destination: createWriteStream('/dev/null'),
      }),
    },
  );
  const kb = createClient(knowledgeV1.KnowledgeServiceClient, svc.address, { deadlineMs: 60_000 });
  for (const r of runbooks) {
    await kb.teach({
      team_id: KB_TEAM,
      content: r.content,
      type: r.type,
      service: r.service,
      title: r.title,
      tags: [],
      format: 'text',
    });
  }
  await svc.rebuildTree(KB_TEAM);
  const source = {
    async retrieve(
      _teamId: string,
      query: string,
      options: { service?: string; topK?: number; levels?: string[] },
      signal?: AbortSignal,
    ) {
      const res = await kb.retrieve(
        {
          team_id: KB_TEAM,
          query,
          service: options.service,
          top_k: options.topK,
          levels: options.levels ?? [],
          levels_enum: (options.levels ?? []).map((l) => knowledgeLevelEnum.toProto(l)),
        },
        { ctx: ctx(KB_TEAM), signal },
      );
      return res.results.map((c) => ({
        id: c.id,
        documentId: c.document_id,
        content: c.content,
        score: c.score,
        level: c.level,
        type: c.type,
        service: c.service,
        title: c.title,
      }));
    },
    listPatterns: async () => [],
  };
  return {
    source,
    async close() {
      kb.close();
      await svc.stop();
    },
  };
}

const ctx = (teamId: string, investigationId?: string) => ({
  requestId: investigationId ?? 'bench-investigation-quality',
  teamId,
  principal: 'investigation-runner',
});

/** ToolGateway over the proxy's gRPC API that records what the engine asked for. */
class RecordingToolGateway implements ToolGatewayLike {
  readonly calls = new Map<string, GatewayCall[]>();
  readonly pending = new Map<string, Set<Promise<unknown>>>();

  /** Waits (bounded) for the calls of an investigation still in flight; marks them late. */
  async settle(investigationId: string, timeoutMs: number): Promise<void> {
    const inFlight = [...(this.pending.get(investigationId) ?? [])];
    if (!inFlight.length) return;
    const done = new Set((this.calls.get(investigationId) ?? []).filter((c) => c.ok || c.error));
    for (const c of this.calls.get(investigationId) ?? []) if (!done.has(c)) c.late = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(inFlight),
      new Promise((r) => (timer = setTimeout(r, timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  constructor(private readonly client: PromiseClient<toolsV1.ToolServiceClient>) {}

  async listTools(teamId: string, signal?: AbortSignal) {
    const res = await this.client.listTools(
      { team_id: teamId, refresh: false },
      { ctx: ctx(teamId), signal },
    );
    return {
      tools: res.tools.map((t) => ({
        fullName: t.full_name,
        server: t.server,
        name: t.name,
        description: t.description,
        parameters: (t.parameters ?? {}) as Record<string, unknown>,
        // as the runner's own adapter (peer-clients.ts) passes them: the engine judges read-only
        // tools by their annotations first
        ...(t.annotations ? { annotations: t.annotations as Record<string, unknown> } : {}),
      })),
      servers: res.servers.map((s) => ({
        name: s.name,
        enabled: s.enabled,
        healthy: s.healthy,
        breakerState: s.breaker_state,
      })),
    };
  }

  async callTool(
    teamId: string,
    investigationId: string,
    tool: string,
    parameters: Record<string, unknown>,
    signal?: AbortSignal,
  ) {
    const list = this.calls.get(investigationId) ?? [];
    this.calls.set(investigationId, list);
    const call: GatewayCall = { tool, parameters, ok: false };
    list.push(call);
    const pending = this.pending.get(investigationId) ?? new Set();
    this.pending.set(investigationId, pending);
    const p = this.client.callTool(
      { team_id: teamId, investigation_id: investigationId, tool, parameters },
      { ctx: ctx(teamId, investigationId), signal, deadlineMs: 30_000 },
    );
    pending.add(p);
    try {
      const res = await p;
      call.ok = true;
      call.outputChars = JSON.stringify(res.output ?? {}).length;
      return { output: res.output ?? {}, truncated: res.truncated };
    } catch (err) {
      call.error = err instanceof Error ? err.message : String(err);
      throw err;
    } finally {
      pending.delete(p);
    }
  }
}

export interface Harness {
  /** registers the servers for a (fresh) team; returns the team's effective config */
  register(teamId: string, servers: ServerRegistration[]): Record<string, unknown>;
  investigate(req: InvestigateRequest): Promise<InvestigationOutcome>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** feature_flags.enable_write_actions of every team (default true: the proxy lets write tools through, so only the engine's own restraint keeps it read-only) */
  writeActions?: boolean;
  /** per-run budget, ms (default 60 000) */
  deadlineMs?: number;
  /** teach these to a knowledge-raptor started in-process; default: an empty knowledge source */
  runbooks?: RunbookDoc[];
}

/**
 * The real toolserver-proxy started in-process with a config-hierarchy double whose effective
 * config registers each team's tool servers, and the runner's DeterministicEngine calling tools
 * through it over gRPC.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  // a run's many calls (engine, proxy, gRPC) all listen on signals derived from its own: without
  // this node warns of a leak on every run (process-wide; the harness only runs in bench and test)
  setMaxListeners(100);
  const Engine = loadDeterministicEngine();
  const configs = new Map<string, Record<string, unknown>>();
  const config = await startGrpcServer({
    port: 0,
    services: [
      {
        definition: configV1.ConfigServiceService,
        name: 'inquest.config.v1.ConfigService',
        implementation: implement(configV1.ConfigServiceService, {
          async getEffectiveConfig(req: { team_id: string }) {
            return {
              config: JSON.parse(JSON.stringify(configs.get(req.team_id) ?? {})) as Record<
                string,
                unknown
              >,
              version: 1,
              secret_scopes: {},
            };
          },
          async getRawConfig(req: { team_id: string }) {
            return {
              lineage: [req.team_id],
              configs: { [req.team_id]: configs.get(req.team_id) ?? {} },
            };
          },
        } as unknown as AsyncHandlers<typeof configV1.ConfigServiceService>),
      },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'inquest-bench-iq-'));
  const proxy = await startProxy(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_EGRESS_ALLOW: '127.0.0.0/8',
      INQUEST_DATA_DIR: dir,
      INQUEST_TOOLS_HEALTH_INTERVAL_MS: '600000',
    },
    {
      logger: createLogger({
        name: 'bench',
        level: 'error',
        destination: createWriteStream(process.env['BENCH_LOG'] ?? '/dev/null'),
      }),
    },
  );
  const knowledge = options.runbooks?.length
    ? await runbookKnowledge(options.runbooks, dir, config.address)
    : undefined;
  const client = createClient(toolsV1.ToolServiceClient, proxy.address, { deadlineMs: 10_000 });
  const gateway = new RecordingToolGateway(client);
  const writeActions = options.writeActions ?? true;
  const deadlineMs = options.deadlineMs ?? 60_000;
  let seq = 0;

  return {
    register(teamId, servers) {
      const effective = {
        mcp_servers: servers.map((s) => ({ name: s.name, url: s.url, transport: s.transport })),
        feature_flags: { enable_write_actions: writeActions },
      };
      configs.set(teamId, effective);
      return effective;
    },
    async investigate(req) {
      const investigationId = `inv_iq_${process.pid}_${++seq}`;
      const effective = configs.get(req.teamId) ?? {};
      const engine = new Engine(gateway, knowledge?.source ?? EMPTY_KNOWLEDGE, {
        ...(req.now !== undefined ? { clock: () => req.now! } : {}),
      });
      const abort = new AbortController();
      // every tool call of the run listens on it
      setMaxListeners(0, abort.signal);
      const timer = setTimeout(
        () => abort.abort(new Error('bench: run exceeded its budget')),
        deadlineMs + 30_000,
      );
      const t0 = performance.now();
      const outcome: InvestigationOutcome = { toolsUsed: [], calls: [], durationMs: 0 };
      try {
        const out = await engine.run({
          teamId: req.teamId,
          investigationId,
          agent: 'planner',
          message: req.message,
          context: req.context,
          effective,
          signal: abort.signal,
          deadline: Date.now() + deadlineMs,
          progress: () => undefined,
        });
        outcome.result = out.result;
        outcome.toolsUsed = out.toolsUsed;
      } catch (err) {
        const e = err as { code?: string; message?: string };
        outcome.error = `${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`;
      } finally {
        clearTimeout(timer);
      }
      outcome.durationMs = performance.now() - t0;
      // calls the engine left running would otherwise be cut when the server stops
      await gateway.settle(investigationId, 5_000);
      outcome.calls = gateway.calls.get(investigationId) ?? [];
      gateway.calls.delete(investigationId);
      gateway.pending.delete(investigationId);
      return outcome;
    },
    async close() {
      client.close();
      await knowledge?.close();
      await proxy.stop();
      await config.shutdown(100);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
