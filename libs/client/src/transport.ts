import {
  InquestError,
  NetworkError,
  RequestTimeoutError,
  errorFromResponse,
  isInquestError,
} from './errors';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /** First backoff delay for 502/503/504 and network errors (default 500 ms), doubled per retry. */
  baseDelayMs?: number;
  /** Cap of one backoff delay (default 8000 ms). */
  maxDelayMs?: number;
  /** A 429 asking to wait longer than this is not retried but thrown (default 60000 ms). */
  maxRetryAfterMs?: number;
}

export interface TransportOptions {
  /** Service address, with or without the `/api/v1` prefix: `http://localhost:8080`. */
  baseUrl: string;
  /** `<token_id>.<secret>`, `admin.<secret>` or an OIDC JWT. */
  token?: string;
  /** Team for team-scoped endpoints when calling with an admin token (`X-Inquest-Team`). */
  team?: string;
  /** Defaults to the global fetch (Node 20, browsers). */
  fetch?: FetchLike;
  /** Per-attempt timeout (default 30000 ms; 0 for none). */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Injected for tests; defaults to a timer that honours the abort signal. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0,1) (default Math.random); tests pass a constant. */
  random?: () => number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
  /** Overrides the client's X-Inquest-Team for this call. */
  team?: string;
  headers?: Record<string, string>;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** Outside /api/v1 (healthz, readyz). */
  unversioned?: boolean;
  /** Send no Authorization header (openapi.json, health). */
  noAuth?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** Waits `ms`, rejecting with the signal's reason when it aborts first. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = (): void => {
      clearTimeout(t);
      reject(abortReason(signal!));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortReason(signal: AbortSignal): unknown {
  if (signal.reason !== undefined) return signal.reason;
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  return err;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);

/** Splits a base URL into origin-ish root and the versioned API root. */
function roots(baseUrl: string): { root: string; api: string } {
  const trimmed = baseUrl.replace(/\/+$/, '');
  const api = /\/api\/v1$/.test(trimmed) ? trimmed : `${trimmed}/api/v1`;
  return { root: api.replace(/\/api\/v1$/, ''), api };
}

/** The HTTP layer: auth headers, JSON, typed errors, timeouts, retries. */
export class Transport {
  private readonly root: string;
  private readonly api: string;
  private readonly fetchImpl: FetchLike;
  private readonly retry: Required<RetryOptions>;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly options: TransportOptions) {
    if (!options.baseUrl) throw new TypeError('InquestClient: baseUrl is required');
    ({ root: this.root, api: this.api } = roots(options.baseUrl));
    const f = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (!f) throw new TypeError('InquestClient: no fetch available; pass options.fetch');
    // Calling a detached global fetch throws "Illegal invocation" in browsers.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.retry = {
      maxRetries: options.retry?.maxRetries ?? 3,
      baseDelayMs: options.retry?.baseDelayMs ?? 500,
      maxDelayMs: options.retry?.maxDelayMs ?? 8000,
      maxRetryAfterMs: options.retry?.maxRetryAfterMs ?? 60_000,
    };
    this.sleep = options.sleep ?? abortableSleep;
    this.random = options.random ?? Math.random;
  }

  get baseUrl(): string {
    return this.api;
  }

  url(req: ApiRequest): string {
    const base = req.unversioned ? this.root : this.api;
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined && v !== null) params.append(k, String(v));
    }
    const qs = params.toString();
    return `${base}${req.path}${qs ? `?${qs}` : ''}`;
  }

  async request<T>(req: ApiRequest, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = this.url(req);
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers };
    if (!req.noAuth && this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    const team = opts.team ?? this.options.team;
    if (team && !req.noAuth) headers['x-inquest-team'] = team;
    let payload: string | undefined;
    if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(req.body);
    }
    Object.assign(headers, opts.headers);

    for (let attempt = 0; ; attempt++) {
      let delay: number | undefined;
      try {
        return await this.once<T>(url, req.method, headers, payload, opts);
      } catch (err) {
        if (!isInquestError(err) || attempt >= this.retry.maxRetries || opts.signal?.aborted)
          throw err;
        delay = this.retryDelay(err, req.method, attempt);
        if (delay === undefined) throw err;
      }
      await this.sleep(delay, opts.signal);
    }
  }

  /** Milliseconds to wait before the next attempt, or undefined when the error is final. */
  private retryDelay(err: InquestError, method: string, attempt: number): number | undefined {
    if (err.status === 429) {
      // rate_limited answers were refused before doing anything: safe for every method.
      const seconds = err.retryAfter ?? 1;
      const ms = Math.max(0, seconds * 1000);
      return ms > this.retry.maxRetryAfterMs ? undefined : ms;
    }
    const retriable =
      RETRY_STATUSES.has(err.status) ||
      // No answer at all: the request may have been applied, so only repeat idempotent ones.
      ((err.code === 'network_error' || err.code === 'timeout') && IDEMPOTENT.has(method));
    if (!retriable) return undefined;
    const exp = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** attempt);
    // "Equal jitter": at least half the exponential delay, so retries still spread out.
    return Math.round(exp / 2 + (this.random() * exp) / 2);
  }

  private async once<T>(
    url: string,
    method: string,
    headers: Record<string, string>,
    payload: string | undefined,
    opts: RequestOptions,
  ): Promise<ApiResponse<T>> {
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    const controller = new AbortController();
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    const outer = opts.signal;
    const onAbort = (): void => controller.abort(outer ? abortReason(outer) : undefined);
    if (outer?.aborted) onAbort();
    outer?.addEventListener('abort', onAbort, { once: true });
    try {
      let res: Response;
      try {
        res = await this.fetchImpl(url, {
          method,
          headers,
          body: payload,
          signal: controller.signal,
        });
      } catch (err) {
        throw this.transportError(err, timedOut, outer, url, timeoutMs);
      }
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        throw this.transportError(err, timedOut, outer, url, timeoutMs);
      }
      let body: unknown = undefined;
      if (text.length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      if (!res.ok) throw errorFromResponse(res.status, body, res.headers);
      if (res.status !== 204 && typeof body === 'string') {
        throw new InquestError({
          code: 'invalid_response',
          message: `Expected JSON from ${method} ${url}, got: ${body.slice(0, 120)}`,
          status: res.status,
          requestId: res.headers.get('x-request-id') ?? undefined,
          body,
        });
      }
      return { status: res.status, body: body as T, headers: res.headers };
    } finally {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
  }

  private transportError(
    err: unknown,
    timedOut: boolean,
    outer: AbortSignal | undefined,
    url: string,
    timeoutMs: number,
  ): unknown {
    // The caller's own abort is not a client failure: surface their reason unchanged.
    if (outer?.aborted) return abortReason(outer);
    if (timedOut) {
      return new RequestTimeoutError({
        code: 'timeout',
        message: `No answer from ${url} within ${timeoutMs} ms`,
        cause: err,
      });
    }
    const cause = (err as { cause?: { code?: string; message?: string } } | null)?.cause;
    const detail =
      cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
    return new NetworkError({
      code: 'network_error',
      message: `Cannot reach the Inquest API at ${url} (${detail})`,
      cause: err,
    });
  }
}
