import { DomainError, isDomainError, notFound } from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import type { CircuitBreakerFactory } from './circuit-breaker';
import { ServerAuth, type SecretLookup } from './server-auth';
import { errorText, unavailableFor } from './server-errors';
import { ServerPool, type ServerPoolOptions, type ServerStatusView } from './server-pool';
import type { ServerEntry } from './server-entry';
import {
  TeamToolConfigs,
  type CachedListing,
  type TeamConfigSource,
  type TeamTools,
} from './team-tools';
import { ToolCatalog, type ToolDescriptorView } from './tool-catalog';
import { NO_TOOL_PROXY_METRICS, type ToolProxyMetrics } from './tool-proxy-metrics';
import type { ToolServerClientFactory } from './tool-server-client';
import { parseToolName } from './tool-name';
import { truncateOutput } from './truncate-output';

export type { SecretLookup } from './server-auth';
export type { ServerStatusView } from './server-pool';
export type { TeamConfigSource } from './team-tools';
export type { ToolDescriptorView } from './tool-catalog';

export interface ToolProxyOptions extends ServerPoolOptions {
  /** how long a team's resolved servers and tool listings are reused, ms */
  listTtlMs: number;
  /** tool outputs above this many bytes (serialized JSON) are truncated with a marker */
  maxOutputBytes: number;
}

export const DEFAULT_TOOL_PROXY_OPTIONS: ToolProxyOptions = {
  listTtlMs: 60_000,
  maxOutputBytes: 256 * 1024,
  maxConcurrencyPerServer: 16,
  defaultTimeoutMs: 30_000,
  breaker: {
    resetTimeoutMs: 30_000,
    volumeThreshold: 5,
    errorThresholdPercentage: 50,
    rollingCountTimeoutMs: 60_000,
  },
};

export interface CallResult {
  output: Record<string, unknown>;
  truncated: boolean;
  duration_ms: number;
  output_bytes: number;
}

/** A configured server that could not be used (bad entry, unresolvable reference). */
function problemStatus(p: { name: string; url: string; error: string }): ServerStatusView {
  return {
    name: p.name,
    url: p.url,
    enabled: true,
    healthy: false,
    breaker_state: 'closed',
    last_error: p.error,
    tool_count: 0,
  };
}

/**
 * Resolves a team's tool servers from its configuration, lists their tools and calls them
 * safely: name and schema checks (ToolCatalog), write-action gate, per-server breaker,
 * concurrency limit, timeouts and auth (ServerPool), cancellation, output truncation and an
 * audit line per call.
 */
export class ToolProxy {
  private readonly teams: TeamToolConfigs;
  private readonly options: ToolProxyOptions;
  private readonly catalog = new ToolCatalog();
  private readonly pool: ServerPool;
  private readonly metrics: ToolProxyMetrics;

  constructor(
    private readonly deps: {
      config: TeamConfigSource;
      secrets: SecretLookup;
      clientFactory: ToolServerClientFactory;
      logger: Logger;
      /** one circuit breaker per tool server */
      breakers: CircuitBreakerFactory;
      metrics?: ToolProxyMetrics;
    },
    options: Partial<ToolProxyOptions> = {},
  ) {
    this.options = {
      ...DEFAULT_TOOL_PROXY_OPTIONS,
      ...options,
      breaker: { ...DEFAULT_TOOL_PROXY_OPTIONS.breaker, ...options.breaker },
    };
    this.metrics = deps.metrics ?? NO_TOOL_PROXY_METRICS;
    this.teams = new TeamToolConfigs(deps.config, this.options.listTtlMs);
    this.pool = new ServerPool(
      {
        clientFactory: deps.clientFactory,
        breakers: deps.breakers,
        auth: new ServerAuth(deps.secrets),
        metrics: this.metrics,
        logger: deps.logger,
      },
      this.options,
    );
  }

  /** Forgets a team's resolved servers and listings (config changed). */
  invalidateTeam(teamId: string, nodeId?: string): void {
    this.teams.invalidateTeam(teamId, nodeId);
  }

  invalidateAll(): void {
    this.teams.invalidateAll();
  }

  async listTools(
    teamId: string,
    refresh: boolean,
    signal: AbortSignal,
  ): Promise<{ tools: ToolDescriptorView[]; servers: ServerStatusView[] }> {
    const team = await this.teams.get(teamId, refresh);
    const tools: ToolDescriptorView[] = [];
    const servers: ServerStatusView[] = [];
    await Promise.all(
      team.servers.map(async (entry) => {
        try {
          const listing = await this.listing(team, entry, refresh, signal);
          for (const t of listing.tools.values()) tools.push(t.def);
          const rejected = [...listing.rejected.entries()].map(([n, e]) => `${n}: ${e}`);
          servers.push(
            this.pool.status(
              entry,
              listing.tools.size,
              rejected.length ? `unusable tools: ${rejected.join('; ').slice(0, 500)}` : undefined,
            ),
          );
        } catch (err) {
          servers.push(this.pool.status(entry, 0, errorText(err)));
        }
      }),
    );
    for (const p of team.problems) servers.push(problemStatus(p));
    tools.sort((a, b) => a.full_name.localeCompare(b.full_name));
    servers.sort((a, b) => a.name.localeCompare(b.name));
    return { tools, servers };
  }

  async callTool(
    req: {
      teamId: string;
      investigationId?: string;
      tool: string;
      parameters: Record<string, unknown>;
    },
    signal: AbortSignal,
  ): Promise<CallResult> {
    const started = performance.now();
    const audit = {
      audit: 'tool_call',
      team_id: req.teamId,
      investigation_id: req.investigationId,
      tool: req.tool,
    };
    let outcome = 'ok';
    let server = '';
    try {
      const { server: serverName, tool } = parseToolName(req.tool);
      server = serverName;
      const team = await this.teams.get(req.teamId);
      const entry = team.servers.find((s) => s.name === serverName);
      if (!entry) {
        const problem = team.problems.find((p) => p.name === serverName);
        throw problem
          ? unavailableFor(serverName, problem.error)
          : notFound(
              `unknown tool server ${serverName} (not configured or not enabled for this team)`,
            );
      }
      const listing = await this.listing(team, entry, false, signal);
      const compiled = listing.tools.get(tool);
      if (!compiled) {
        const why = listing.rejected.get(tool);
        if (why)
          throw new DomainError(
            'invalid_input',
            'invalid_request',
            `tool ${req.tool} cannot be used: ${why}`,
          );
        throw notFound(`unknown tool ${req.tool}`);
      }
      // Investigations only read, whatever the team's flags (API-DECISIONS): the engines call
      // only reads, and this second gate refuses a write an engine would still send.
      if (compiled.destructive && req.investigationId) {
        throw new DomainError(
          'forbidden',
          'write_actions_disabled',
          `tool ${req.tool} changes systems: investigations only read, they never run it`,
        );
      }
      if (compiled.destructive && !team.writeActions) {
        throw new DomainError(
          'forbidden',
          'write_actions_disabled',
          `tool ${req.tool} changes systems (destructiveHint) and feature_flags.enable_write_actions is off for this team`,
        );
      }
      this.catalog.checkParameters(compiled, req.parameters);
      const { output, bytes } = await this.pool.request(entry, signal, (client, opts) =>
        client.callTool(tool, req.parameters, opts),
      );
      let obj =
        typeof output === 'object' && output !== null && !Array.isArray(output)
          ? (output as Record<string, unknown>)
          : { value: output };
      let truncated = false;
      if (
        bytes > this.options.maxOutputBytes ||
        Buffer.byteLength(JSON.stringify(obj)) > this.options.maxOutputBytes
      ) {
        obj = truncateOutput(obj, this.options.maxOutputBytes, bytes);
        truncated = true;
      }
      const duration = Math.round(performance.now() - started);
      Object.assign(audit, { output_bytes: bytes, truncated });
      return { output: obj, truncated, duration_ms: duration, output_bytes: bytes };
    } catch (err) {
      outcome = isDomainError(err) ? err.code : 'internal';
      Object.assign(audit, { error: errorText(err).slice(0, 300) });
      throw err;
    } finally {
      const duration = performance.now() - started;
      this.metrics.toolCall(server, outcome, duration / 1000);
      this.deps.logger.info(
        { ...audit, server, outcome, duration_ms: Math.round(duration) },
        'tool call',
      );
    }
  }

  /**
   * Each server's health (polled now if never before). The caller's signal is not passed on: the
   * team's config load is shared and a health poll carries its own short deadline.
   */
  async serverHealth(teamId: string, _signal: AbortSignal): Promise<ServerStatusView[]> {
    const team = await this.teams.get(teamId);
    const out = await Promise.all(
      team.servers.map((entry) =>
        this.pool.health(entry, team.listings.get(entry.name)?.tools.size ?? 0),
      ),
    );
    for (const p of team.problems) out.push(problemStatus(p));
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Polls GET /health of every server used in the last 10 minutes, every `intervalMs`. */
  startHealthPolling(intervalMs: number): void {
    this.pool.startHealthPolling(intervalMs);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async listing(
    team: TeamTools,
    entry: ServerEntry,
    refresh: boolean,
    signal: AbortSignal,
  ): Promise<CachedListing> {
    const cached = team.listings.get(entry.name);
    if (cached && !refresh && cached.expires > Date.now()) return cached;
    const raw = await this.pool.request(entry, signal, (client, opts) => client.listTools(opts));
    const listing: CachedListing = {
      ...this.catalog.compile(entry.name, raw),
      expires: Date.now() + this.options.listTtlMs,
    };
    team.listings.set(entry.name, listing);
    return listing;
  }
}
