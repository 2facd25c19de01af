import { createClient, type CallContext, type PromiseClient } from '@inquest/grpc-kit';
import type { EffectiveConfigSource } from '@inquest/config-client';
import { knowledgeLevelEnum, knowledgeV1, toolsV1 } from '@inquest/proto';
import type {
  ConfigSource,
  KnowledgeChunk,
  KnowledgeSource,
  LearnedPatternView,
  ToolGateway,
  ToolListing,
} from '../domain/ports';

/** The caller's request id when the run has one, else the investigation's id, else ours. */
const ctxFor = (teamId: string, requestId?: string, investigationId?: string): CallContext => ({
  requestId: requestId ?? investigationId ?? 'investigation-runner',
  teamId,
  principal: 'investigation-runner',
});

/** ConfigSource over the shared effective-config client (cached, dropped on config.changed). */
export class EffectiveConfigPort implements ConfigSource {
  constructor(private readonly effective: EffectiveConfigSource) {}

  async getEffectiveConfig(
    teamId: string,
    signal?: AbortSignal,
    requestId?: string,
  ): Promise<Record<string, unknown>> {
    return (
      await this.effective.get(teamId, {
        ...(signal ? { signal } : {}),
        ...(requestId ? { requestId } : {}),
      })
    ).config;
  }
}

/** ToolGateway over the toolserver-proxy gRPC service; aborting the signal cancels the call (and its HTTP call). */
export class GrpcToolGateway implements ToolGateway {
  constructor(
    private readonly client: PromiseClient<toolsV1.ToolServiceClient>,
    private readonly callDeadlineMs = 60_000,
  ) {}

  static connect(address: string, callDeadlineMs?: number): GrpcToolGateway {
    return new GrpcToolGateway(
      createClient(toolsV1.ToolServiceClient, address, { deadlineMs: 10_000 }),
      callDeadlineMs,
    );
  }

  async listTools(teamId: string, signal?: AbortSignal, requestId?: string): Promise<ToolListing> {
    const res = await this.client.listTools(
      { team_id: teamId, refresh: false },
      { ctx: ctxFor(teamId, requestId), signal },
    );
    return {
      tools: res.tools.map((t) => ({
        fullName: t.full_name,
        server: t.server,
        name: t.name,
        description: t.description,
        parameters: (t.parameters ?? {}) as ToolListing['tools'][number]['parameters'],
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
    requestId?: string,
  ): Promise<{ output: unknown; truncated: boolean }> {
    const res = await this.client.callTool(
      { team_id: teamId, investigation_id: investigationId, tool, parameters },
      {
        ctx: ctxFor(teamId, requestId, investigationId),
        signal,
        deadlineMs: this.callDeadlineMs,
      },
    );
    return { output: res.output ?? {}, truncated: res.truncated };
  }

  close(): void {
    this.client.close();
  }
}

/** KnowledgeSource over the knowledge-raptor gRPC service. */
export class GrpcKnowledgeSource implements KnowledgeSource {
  constructor(private readonly client: PromiseClient<knowledgeV1.KnowledgeServiceClient>) {}

  static connect(address: string): GrpcKnowledgeSource {
    // knowledge is an aid, not a requirement: short deadline, no retries
    return new GrpcKnowledgeSource(
      createClient(knowledgeV1.KnowledgeServiceClient, address, { deadlineMs: 3000, retries: 0 }),
    );
  }

  async retrieve(
    teamId: string,
    query: string,
    options: { service?: string; topK?: number; levels?: string[] },
    signal?: AbortSignal,
    requestId?: string,
  ): Promise<KnowledgeChunk[]> {
    const res = await this.client.retrieve(
      {
        team_id: teamId,
        query,
        service: options.service,
        top_k: options.topK,
        // the filter as enums and as the deprecated strings (ADR 0012)
        levels: options.levels ?? [],
        levels_enum: (options.levels ?? []).map((l) => knowledgeLevelEnum.toProto(l)),
        // the engine's lookups are not a user's searches: they must not raise usage_count
        internal: true,
      },
      { ctx: ctxFor(teamId, requestId), signal },
    );
    return res.results.map((r) => ({
      id: r.id,
      documentId: r.document_id,
      content: r.content,
      score: r.score,
      level: knowledgeLevelEnum.read(r.level_enum, r.level) ?? r.level,
      type: r.type,
      service: r.service,
      title: r.title,
    }));
  }

  async listPatterns(
    teamId: string,
    query: string,
    options: { service?: string; limit?: number },
    signal?: AbortSignal,
    requestId?: string,
  ): Promise<LearnedPatternView[]> {
    const res = await this.client.listPatterns(
      {
        team_id: teamId,
        query: query || undefined,
        service: options.service,
        limit: options.limit ?? 5,
      },
      { ctx: ctxFor(teamId, requestId), signal },
    );
    return res.patterns.map((p) => ({
      patternId: p.pattern_id,
      symptoms: p.symptoms,
      rootCause: p.root_cause,
      solution: p.solution,
      confidence: p.confidence,
      occurrences: p.occurrences,
    }));
  }

  close(): void {
    this.client.close();
  }
}
