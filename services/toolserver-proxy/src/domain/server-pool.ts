import { isDomainError } from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import type { CircuitBreaker, CircuitBreakerFactory } from './circuit-breaker';
import { ConcurrencyLimit, cancelled } from './concurrency-limit';
import type { ServerAuth } from './server-auth';
import type { ServerEntry } from './server-entry';
import { errorText, isCancel, toolServerFailure } from './server-errors';
import type { ToolProxyMetrics } from './tool-proxy-metrics';
import {
  isToolServerError,
  type CallOptions,
  type ToolServerClient,
  type ToolServerClientFactory,
} from './tool-server-client';

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

export interface ServerPoolOptions {
  /** calls in flight per server; the rest wait */
  maxConcurrencyPerServer: number;
  /** tool-server timeout when the entry has none, ms */
  defaultTimeoutMs: number;
  breaker: {
    resetTimeoutMs: number;
    volumeThreshold: number;
    errorThresholdPercentage: number;
    rollingCountTimeoutMs: number;
  };
}

export interface ServerPoolDeps {
  clientFactory: ToolServerClientFactory;
  breakers: CircuitBreakerFactory;
  auth: ServerAuth;
  metrics: ToolProxyMetrics;
  logger: Logger;
}

/** Shared state of one tool server (by transport, name and URL): breaker, limit, health, client. */
interface ServerRuntime {
  name: string;
  url: string;
  client: ToolServerClient;
  breaker: CircuitBreaker;
  limit: ConcurrencyLimit;
  healthy?: boolean;
  lastError?: string;
  checkedAt?: string;
  lastUsed: number;
  /** the entry last seen (auth and timeout for health polls) */
  entry: ServerEntry;
}

const HEALTHY_STATUSES = ['ok', 'healthy', 'up', 'pass', 'serving'];
/** servers unused for this long are not polled */
const POLL_RECENT_MS = 10 * 60_000;

/**
 * The tool servers every team shares: one client, circuit breaker, concurrency limit and health
 * record per server. Requests go through auth, the limit and the breaker, with the entry's
 * deadline, and their failures come back as domain errors.
 */
export class ServerPool {
  private readonly runtimes = new Map<string, ServerRuntime>();
  private healthTimer?: NodeJS.Timeout;

  constructor(
    private readonly deps: ServerPoolDeps,
    private readonly options: ServerPoolOptions,
  ) {}

  /** Runs one request to the entry's server behind its concurrency limit and breaker. */
  async request<T>(
    entry: ServerEntry,
    signal: AbortSignal,
    fn: (client: ToolServerClient, opts: CallOptions) => Promise<T>,
  ): Promise<T> {
    const rt = this.runtime(entry);
    const headers = await this.deps.auth.headers(entry);
    const release = await rt.limit.acquire(signal);
    try {
      if (signal.aborted) throw cancelled();
      const out = await rt.breaker.fire(() =>
        fn(rt.client, { signal, timeoutMs: this.timeoutOf(entry), headers }),
      );
      // an answer proves the server is reachable again, whatever the last poll said
      rt.healthy = true;
      rt.lastError = undefined;
      return out;
    } catch (err) {
      const mapped = toolServerFailure(rt.name, err, signal);
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

  /** The server's status; `lastError` (a listing problem) replaces the server's own last error. */
  status(entry: ServerEntry, toolCount: number, lastError?: string): ServerStatusView {
    const rt = this.runtime(entry);
    const state = rt.breaker.state;
    const view: ServerStatusView = {
      name: rt.name,
      url: rt.url,
      enabled: true,
      healthy: state !== 'open' && rt.healthy !== false && !lastError,
      breaker_state: state,
      tool_count: toolCount,
    };
    const err = lastError ?? rt.lastError;
    if (err) view.last_error = err;
    if (rt.checkedAt) view.checked_at = rt.checkedAt;
    return view;
  }

  /** The server's status after a health poll (one now if it was never polled). */
  async health(entry: ServerEntry, toolCount: number): Promise<ServerStatusView> {
    const rt = this.runtime(entry);
    if (!rt.checkedAt) await this.poll(rt);
    return this.status(entry, toolCount, rt.lastError);
  }

  /** Polls the health of every server used in the last 10 minutes, every `intervalMs`. */
  startHealthPolling(intervalMs: number): void {
    this.healthTimer = setInterval(() => {
      const cutoff = Date.now() - POLL_RECENT_MS;
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
      const headers = await this.deps.auth.headers(rt.entry);
      const status = await rt.client.health({
        signal: ac.signal,
        timeoutMs: Math.min(this.timeoutOf(rt.entry), 5_000),
        headers,
      });
      rt.healthy = HEALTHY_STATUSES.includes(status.toLowerCase());
      rt.lastError = rt.healthy
        ? undefined
        : `health status ${JSON.stringify(status.slice(0, 50))}`;
    } catch (err) {
      rt.healthy = false;
      rt.lastError = errorText(err);
    }
    rt.checkedAt = new Date().toISOString();
    this.deps.metrics.serverHealth(rt.name, rt.healthy);
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
        onStateChange: (state) => {
          this.deps.metrics.breakerState(name, state);
          if (state === 'open')
            this.deps.logger.warn({ server: name, url: entry.url }, 'tool server circuit opened');
        },
      });
      this.deps.metrics.breakerState(name, 'closed');
      rt = {
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
}
