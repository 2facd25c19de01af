import { createHash } from 'node:crypto';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { DomainError, isDomainError, notFound, validationError } from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import { classifyTool } from '@inquest/write-guard';
import {
  isBreakerOpen,
  type BreakerState,
  type CircuitBreaker,
  type CircuitBreakerFactory,
} from './circuit-breaker';
import { ConcurrencyLimit, cancelled } from './concurrency-limit';
import type { SecretScope } from '@inquest/secrets';
import {
  hasStringReferences,
  resolveServerEntries,
  type ServerEntry,
  type WireSecretScope,
} from './server-entry';
import {
  isToolServerError,
  ToolServerError,
  type CallOptions,
  type RawToolDefinition,
  type ToolServerClient,
  type ToolServerClientFactory,
} from './tool-server-client';
import { nameProblem, parseToolName } from './tool-name';
import { NO_TOOL_PROXY_METRICS, type ToolProxyMetrics } from './tool-proxy-metrics';
import { truncateOutput } from './truncate-output';

/** Reads a team's configuration (effective, and raw per level when references need it). */
export interface TeamConfigSource {
  /** The effective config and, by dot path, the scope each `vault://` reference in it resolves in. */
  getEffective(
    teamId: string,
    signal?: AbortSignal,
  ): Promise<{ config: Record<string, unknown>; secretScopes?: Record<string, WireSecretScope> }>;
  getRaw(
    teamId: string,
    signal?: AbortSignal,
  ): Promise<{ lineage: string[]; configs: Record<string, unknown> }>;
}

export interface SecretLookup {
  resolve(ref: string, scope: SecretScope): Promise<string>;
}

export interface ToolProxyOptions {
  /** how long a team's resolved servers and tool listings are reused, ms */
  listTtlMs: number;
  /** tool outputs above this many bytes (serialized JSON) are truncated with a marker */
  maxOutputBytes: number;
  /** calls in flight per server; the rest wait */
  maxConcurrencyPerServer: number;
  /** default tool-server timeout when the entry has none, ms */
  defaultTimeoutMs: number;
  breaker: {
    resetTimeoutMs: number;
    volumeThreshold: number;
    errorThresholdPercentage: number;
    rollingCountTimeoutMs: number;
  };
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

export interface ToolDescriptorView {
  full_name: string;
  server: string;
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface ServerStatusView {
  name: string;
  url: string;
  enabled: boolean;
  healthy: boolean;
  breaker_state: 'closed' | 'open' | 'half_open';
  last_error?: string;
  checked_at?: string;
  tool_count: number;
}

export interface CallResult {
  output: Record<string, unknown>;
  truncated: boolean;
  duration_ms: number;
  output_bytes: number;
}

interface CompiledTool {
  def: ToolDescriptorView;
  validate: ValidateFunction;
  destructive: boolean;
}

interface Listing {
  expires: number;
  tools: Map<string, CompiledTool>;
  /** tools the server offered that could not be used, with the reason */
  rejected: Map<string, string>;
}

interface TeamState {
  expires: number;
  servers: ServerEntry[];
  problems: Array<{ name: string; url: string; error: string }>;
  writeActions: boolean;
  lineage: string[];
  listings: Map<string, Listing>;
}

/** Shared state of one tool server (by name and URL): breaker, concurrency, health, client. */
interface ServerRuntime {
  key: string;
  name: string;
  url: string;
  client: ToolServerClient;
  breaker: CircuitBreaker;
  limit: ConcurrencyLimit;
  healthy?: boolean;
  lastError?: string;
  checkedAt?: string;
  lastUsed: number;
  /** the entry last seen (auth/timeout for health polls) */
  entry: ServerEntry;
}

const MAX_SCHEMA_BYTES = 64 * 1024;
const MAX_TOOLS_PER_SERVER = 500;
const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'content-type',
  'upgrade',
  'te',
  'trailer',
]);

const unavailableFor = (server: string, message: string) =>
  new DomainError('unavailable', 'data_source_unavailable', `tool server ${server}: ${message}`);

/**
 * Resolves a team's tool servers from its configuration, lists their tools and calls them
 * safely: name and schema checks, write-action gate, per-server breaker and concurrency limit,
 * timeouts, cancellation, output truncation and an audit line per call.
 */
export class ToolProxy {
  private readonly teams = new Map<string, Promise<TeamState>>();
  private readonly runtimes = new Map<string, ServerRuntime>();
  private readonly ajv: Ajv;
  private readonly options: ToolProxyOptions;
  private readonly metrics: ToolProxyMetrics;
  private healthTimer?: NodeJS.Timeout;

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
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: true });
    addFormats(this.ajv);
    this.metrics = deps.metrics ?? NO_TOOL_PROXY_METRICS;
  }

  /** Forgets a team's resolved servers and listings (config changed). */
  invalidateTeam(teamId: string, nodeId?: string): void {
    this.teams.delete(teamId);
    if (!nodeId) return;
    // A group or organization change reaches every team below it.
    for (const [id, p] of this.teams) {
      p.then(
        (s) => {
          if (s.lineage.includes(nodeId) && this.teams.get(id) === p) this.teams.delete(id);
        },
        () => undefined,
      );
    }
  }

  invalidateAll(): void {
    this.teams.clear();
  }

  async listTools(
    teamId: string,
    refresh: boolean,
    signal: AbortSignal,
  ): Promise<{ tools: ToolDescriptorView[]; servers: ServerStatusView[] }> {
    const team = await this.teamState(teamId, refresh, signal);
    const tools: ToolDescriptorView[] = [];
    const servers: ServerStatusView[] = [];
    await Promise.all(
      team.servers.map(async (entry) => {
        const rt = this.runtime(entry);
        try {
          const listing = await this.listing(team, entry, refresh, signal);
          for (const t of listing.tools.values()) tools.push(t.def);
          const rejected = [...listing.rejected.entries()].map(([n, e]) => `${n}: ${e}`);
          servers.push(
            this.status(
              rt,
              listing.tools.size,
              rejected.length ? `unusable tools: ${rejected.join('; ').slice(0, 500)}` : undefined,
            ),
          );
        } catch (err) {
          servers.push(this.status(rt, 0, errorText(err)));
        }
      }),
    );
    for (const p of team.problems) {
      servers.push({
        name: p.name,
        url: p.url,
        enabled: true,
        healthy: false,
        breaker_state: 'closed',
        last_error: p.error,
        tool_count: 0,
      });
    }
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
      const team = await this.teamState(req.teamId, false, signal);
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
      if (compiled.destructive && !team.writeActions) {
        throw new DomainError(
          'forbidden',
          'write_actions_disabled',
          `tool ${req.tool} changes systems (destructiveHint) and feature_flags.enable_write_actions is off for this team`,
        );
      }
      if (!compiled.validate(req.parameters)) {
        throw validationError(
          schemaErrors(compiled.validate.errors ?? []),
          `invalid parameters for ${req.tool}: ${ajvMessage(compiled.validate.errors ?? [])}`,
        );
      }
      const rt = this.runtime(entry);
      const { output, bytes } = (await this.guarded(rt, entry, signal, (opts) =>
        rt.client.callTool(tool, req.parameters, opts),
      )) as {
        output: unknown;
        bytes: number;
      };
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

  async serverHealth(teamId: string, signal: AbortSignal): Promise<ServerStatusView[]> {
    const team = await this.teamState(teamId, false, signal);
    const out = await Promise.all(
      team.servers.map(async (entry) => {
        const rt = this.runtime(entry);
        if (!rt.checkedAt) await this.poll(rt);
        return this.status(rt, team.listings.get(entry.name)?.tools.size ?? 0, rt.lastError);
      }),
    );
    for (const p of team.problems)
      out.push({
        name: p.name,
        url: p.url,
        enabled: true,
        healthy: false,
        breaker_state: 'closed',
        last_error: p.error,
        tool_count: 0,
      });
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Polls GET /health of every server used in the last 10 minutes, every `intervalMs`. */
  startHealthPolling(intervalMs: number): void {
    this.healthTimer = setInterval(() => {
      const cutoff = Date.now() - 10 * 60_000;
      for (const rt of this.runtimes.values()) if (rt.lastUsed >= cutoff) void this.poll(rt);
    }, intervalMs);
    this.healthTimer.unref();
  }

  async close(): Promise<void> {
    if (this.healthTimer) clearInterval(this.healthTimer);
    for (const rt of this.runtimes.values()) {
      rt.breaker.shutdown();
      await rt.client.close().catch(() => undefined);
    }
    this.runtimes.clear();
  }

  private async poll(rt: ServerRuntime): Promise<void> {
    const ac = new AbortController();
    try {
      const headers = await this.authHeaders(rt.entry);
      const status = await rt.client.health({
        signal: ac.signal,
        timeoutMs: Math.min(this.timeoutOf(rt.entry), 5_000),
        headers,
      });
      rt.healthy = ['ok', 'healthy', 'up', 'pass', 'serving'].includes(status.toLowerCase());
      rt.lastError = rt.healthy
        ? undefined
        : `health status ${JSON.stringify(status.slice(0, 50))}`;
    } catch (err) {
      rt.healthy = false;
      rt.lastError = errorText(err);
    }
    rt.checkedAt = new Date().toISOString();
    this.metrics.serverHealth(rt.name, rt.healthy);
  }

  private status(rt: ServerRuntime, toolCount: number, lastError?: string): ServerStatusView {
    const view: ServerStatusView = {
      name: rt.name,
      url: rt.url,
      enabled: true,
      healthy: rt.breaker.state !== 'open' && rt.healthy !== false && !lastError,
      breaker_state: rt.breaker.state,
      tool_count: toolCount,
    };
    const err = lastError ?? rt.lastError;
    if (err) view.last_error = err;
    if (rt.checkedAt) view.checked_at = rt.checkedAt;
    return view;
  }

  // Config loads are shared by concurrent callers, so one caller's cancellation must not abort them.
  private teamState(teamId: string, refresh: boolean, _signal: AbortSignal): Promise<TeamState> {
    const cached = this.teams.get(teamId);
    if (cached && !refresh) {
      return cached.then((s) => (s.expires > Date.now() ? s : this.loadTeam(teamId)));
    }
    return this.loadTeam(teamId);
  }

  private loadTeam(teamId: string): Promise<TeamState> {
    const p = (async (): Promise<TeamState> => {
      const { config: effective, secretScopes } = await this.deps.config.getEffective(teamId);
      const raw = hasStringReferences(effective)
        ? await this.deps.config.getRaw(teamId)
        : undefined;
      const { servers, problems } = resolveServerEntries(effective, raw, {
        teamId,
        ...(secretScopes ? { secretScopes } : {}),
      });
      const flags = effective.feature_flags as Record<string, unknown> | undefined;
      return {
        expires: Date.now() + this.options.listTtlMs,
        servers,
        problems,
        writeActions: flags?.enable_write_actions === true,
        lineage: raw?.lineage ?? [],
        listings: new Map(),
      };
    })();
    this.teams.set(teamId, p);
    p.catch(() => {
      if (this.teams.get(teamId) === p) this.teams.delete(teamId);
    });
    return p;
  }

  private async listing(
    team: TeamState,
    entry: ServerEntry,
    refresh: boolean,
    signal: AbortSignal,
  ): Promise<Listing> {
    const cached = team.listings.get(entry.name);
    if (cached && !refresh && cached.expires > Date.now()) return cached;
    const rt = this.runtime(entry);
    const raw = (await this.guarded(rt, entry, signal, (opts) =>
      rt.client.listTools(opts),
    )) as RawToolDefinition[];
    const listing = this.compileListing(entry.name, raw);
    team.listings.set(entry.name, listing);
    return listing;
  }

  private compileListing(server: string, raw: RawToolDefinition[]): Listing {
    const listing: Listing = {
      expires: Date.now() + this.options.listTtlMs,
      tools: new Map(),
      rejected: new Map(),
    };
    for (const def of raw.slice(0, MAX_TOOLS_PER_SERVER)) {
      const name = typeof def?.name === 'string' ? def.name : '';
      const label = name || '(unnamed)';
      const problem = nameProblem(def?.name);
      if (problem) {
        listing.rejected.set(label.slice(0, 80), problem);
        continue;
      }
      if (listing.tools.has(name)) continue;
      const params = def.parameters ?? { type: 'object', properties: {} };
      if (
        typeof params !== 'object' ||
        params === null ||
        Array.isArray(params) ||
        (params as { type?: unknown }).type !== 'object'
      ) {
        listing.rejected.set(name, 'parameters must be a JSON schema of type object');
        continue;
      }
      if (Buffer.byteLength(JSON.stringify(params)) > MAX_SCHEMA_BYTES) {
        listing.rejected.set(name, 'parameter schema is too large');
        continue;
      }
      let validate: ValidateFunction;
      try {
        validate = this.compileSchema(params as Record<string, unknown>);
      } catch (err) {
        listing.rejected.set(name, `invalid parameter schema: ${errorText(err).slice(0, 200)}`);
        continue;
      }
      const annotations =
        typeof def.annotations === 'object' &&
        def.annotations !== null &&
        !Array.isArray(def.annotations)
          ? (def.annotations as Record<string, unknown>)
          : undefined;
      const view: ToolDescriptorView = {
        full_name: `${server}:${name}`,
        server,
        name,
        description: typeof def.description === 'string' ? def.description.slice(0, 4000) : '',
        parameters: params as Record<string, unknown>,
      };
      // The contract's optional `read_only` / `destructive` flags travel as MCP annotations.
      const merged: Record<string, unknown> = { ...(annotations ?? {}) };
      if (def.read_only === true && merged['readOnlyHint'] === undefined)
        merged['readOnlyHint'] = true;
      if (def.destructive === true) merged['destructiveHint'] = true;
      if (Object.keys(merged).length) view.annotations = merged;
      // One rule for "can change something" (libs/write-guard): annotations, flags, then words.
      const safety = classifyTool({ name, description: view.description, annotations: merged });
      listing.tools.set(name, {
        def: view,
        validate,
        destructive: !safety.readOnly,
      });
    }
    return listing;
  }

  private readonly schemaCache = new Map<string, ValidateFunction>();

  private compileSchema(schema: Record<string, unknown>): ValidateFunction {
    const { $id: _id, $schema: _s, ...rest } = schema;
    const key = createHash('sha1').update(JSON.stringify(rest)).digest('hex');
    let v = this.schemaCache.get(key);
    if (!v) {
      v = this.ajv.compile(rest);
      if (this.schemaCache.size > 5_000) this.schemaCache.clear();
      this.schemaCache.set(key, v);
    }
    return v;
  }

  private runtime(entry: ServerEntry): ServerRuntime {
    const key = `${entry.transport}|${entry.name}|${entry.url}`;
    let rt = this.runtimes.get(key);
    if (!rt) {
      const name = entry.name;
      const breaker = this.deps.breakers({
        ...this.options.breaker,
        // The call was wrong, not the server: do not count it against the server.
        ignore: (err) =>
          (isToolServerError(err) && (err.failure === 'rejected' || err.failure === 'refused')) ||
          isCancel(err),
        onStateChange: (state: BreakerState) => {
          this.metrics.breakerState(name, state);
          if (state === 'open')
            this.deps.logger.warn({ server: name, url: entry.url }, 'tool server circuit opened');
        },
      });
      this.metrics.breakerState(name, 'closed');
      rt = {
        key,
        name,
        url: entry.url,
        client: this.deps.clientFactory(entry),
        breaker,
        limit: new ConcurrencyLimit(this.options.maxConcurrencyPerServer),
        lastUsed: Date.now(),
        entry,
      };
      this.runtimes.set(key, rt);
    }
    rt.entry = entry;
    rt.lastUsed = Date.now();
    return rt;
  }

  private timeoutOf(entry: ServerEntry): number {
    return entry.timeout ? entry.timeout * 1000 : this.options.defaultTimeoutMs;
  }

  private async authHeaders(entry: ServerEntry): Promise<Record<string, string>> {
    if (!entry.auth) return {};
    try {
      // No scope known: nothing to resolve under (resolveServerEntries always sets one).
      const scope = entry.authScope ?? { owner: '(unknown)', prefixes: [] };
      if (entry.auth.type === 'bearer')
        return {
          authorization: `Bearer ${await this.deps.secrets.resolve(entry.auth.token, scope)}`,
        };
      const header = entry.auth.header;
      if (!HEADER_NAME.test(header) || FORBIDDEN_HEADERS.has(header.toLowerCase())) {
        throw unavailableFor(
          entry.name,
          `auth header name ${JSON.stringify(header.slice(0, 64))} is not allowed`,
        );
      }
      return { [header]: await this.deps.secrets.resolve(entry.auth.key, scope) };
    } catch (err) {
      if (isDomainError(err) && err.code === 'data_source_unavailable') throw err;
      // The message names the reference problem only; a resolved value never reaches it.
      throw unavailableFor(
        entry.name,
        `credentials could not be resolved (${isDomainError(err) ? err.code : 'error'})`,
      );
    }
  }

  /** Runs one tool-server request behind the server's concurrency limit and breaker. */
  private async guarded(
    rt: ServerRuntime,
    entry: ServerEntry,
    signal: AbortSignal,
    fn: (opts: CallOptions) => Promise<unknown>,
  ): Promise<unknown> {
    const headers = await this.authHeaders(entry);
    const release = await rt.limit.acquire(signal);
    try {
      if (signal.aborted) throw cancelled();
      const out = await rt.breaker.fire(() =>
        fn({ signal, timeoutMs: this.timeoutOf(entry), headers }),
      );
      // an answer proves the server is reachable again, whatever the last poll said
      rt.healthy = true;
      rt.lastError = undefined;
      return out;
    } catch (err) {
      const mapped = this.toDomain(rt.name, err, signal);
      if (
        isDomainError(mapped) &&
        (mapped.code === 'data_source_unavailable' || mapped.code === 'timeout')
      ) {
        rt.healthy = false;
        rt.lastError = mapped.message;
      }
      throw mapped;
    } finally {
      release();
    }
  }

  private toDomain(server: string, err: unknown, signal: AbortSignal): unknown {
    if (isDomainError(err)) return err;
    if (signal.aborted || isCancel(err)) return cancelled();
    if (isBreakerOpen(err)) return unavailableFor(server, err.message);
    if (err instanceof ToolServerError) {
      switch (err.failure) {
        case 'timeout':
          return new DomainError('timeout', 'timeout', `tool server ${server}: ${err.message}`);
        case 'rejected':
          return new DomainError(
            err.status === 404 ? 'not_found' : 'invalid_input',
            err.status === 404 ? 'not_found' : 'tool_rejected',
            `tool server ${server}: ${err.message}`,
          );
        default:
          return unavailableFor(server, err.message);
      }
    }
    return unavailableFor(server, errorText(err));
  }
}

function isCancel(err: unknown): boolean {
  return isDomainError(err) && err.code === 'cancelled';
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function schemaErrors(errors: ErrorObject[]): Array<{ field: string; error: string }> {
  return errors.slice(0, 20).map((e) => {
    const missing =
      e.keyword === 'required'
        ? (e.params as { missingProperty?: string }).missingProperty
        : undefined;
    const extra =
      e.keyword === 'additionalProperties'
        ? (e.params as { additionalProperty?: string }).additionalProperty
        : undefined;
    const path = e.instancePath.split('/').filter(Boolean).join('.');
    const field = ['parameters', path, missing ?? extra].filter(Boolean).join('.');
    return { field, error: extra ? 'is not allowed' : (e.message ?? 'is invalid') };
  });
}

function ajvMessage(errors: ErrorObject[]): string {
  const first = schemaErrors(errors)[0];
  return first ? `${first.field} ${first.error}` : 'invalid';
}
