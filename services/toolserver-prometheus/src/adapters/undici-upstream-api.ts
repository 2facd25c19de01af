import { Agent, errors as undiciErrors, request } from 'undici';
import { ToolError } from '../domain/tool-error';
import type { UpstreamApi, UpstreamRequest } from '../domain/upstream';

/** Credentials for the upstream, resolved per call (vault values rotate; the resolver caches). */
export type UpstreamAuth =
  | { type: 'none' }
  | { type: 'bearer'; token: () => Promise<string> }
  | { type: 'basic'; username: string; password: () => Promise<string> };

export interface UndiciUpstreamOptions {
  name: 'Prometheus' | 'Alertmanager';
  baseUrl: string;
  auth: UpstreamAuth;
  timeoutMs: number;
  connectTimeoutMs?: number;
  maxResponseBytes: number;
}

function encodeParams(params: UpstreamRequest['params']): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, one);
  }
  return q.toString();
}

async function authHeader(auth: UpstreamAuth, name: string): Promise<Record<string, string>> {
  try {
    if (auth.type === 'bearer') return { authorization: `Bearer ${await auth.token()}` };
    if (auth.type === 'basic') {
      const pair = `${auth.username}:${await auth.password()}`;
      return { authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
    }
    return {};
  } catch {
    // never the secret, never the resolver's details beyond "could not"
    throw new ToolError(502, `${name} credentials could not be resolved from the secret store`);
  }
}

/** The upstream's own error text: Prometheus `{error}`, Alertmanager a JSON string or text. */
function upstreamMessage(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body === 'string') return body.trim().slice(0, 500);
    const err = (body as { error?: unknown; message?: unknown } | null)?.error;
    if (typeof err === 'string') return err.slice(0, 500);
    const msg = (body as { message?: unknown } | null)?.message;
    if (typeof msg === 'string') return msg.slice(0, 500);
  } catch {
    // not JSON
  }
  return text.trim().slice(0, 300);
}

/**
 * Prometheus / Alertmanager HTTP API over undici: a deadline on every call (the query itself
 * also gets Prometheus's `timeout` parameter), a bounded answer size, and every failure turned
 * into a ToolError with a message that says what to do.
 */
export function undiciUpstreamApi(options: UndiciUpstreamOptions): UpstreamApi {
  const base = options.baseUrl.replace(/\/+$/, '');
  const dispatcher = new Agent({
    connect: { timeout: options.connectTimeoutMs ?? 5_000 },
    keepAliveTimeout: 10_000,
    connections: 32,
  });
  const { name } = options;

  return {
    name,
    baseUrl: base,
    async call(req) {
      const headers: Record<string, string> = {
        accept: 'application/json',
        ...(await authHeader(options.auth, name)),
      };
      const encoded = encodeParams(req.params);
      let url = `${base}${req.path}`;
      let body: string | undefined;
      if (req.method === 'POST') {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = encoded;
      } else if (encoded) {
        url += `?${encoded}`;
      }
      const deadline = AbortSignal.timeout(options.timeoutMs);
      const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
      let status: number;
      let text: string;
      try {
        const res = await request(url, {
          method: req.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal,
          dispatcher,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
        status = res.statusCode;
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > options.maxResponseBytes) {
            res.body.destroy();
            throw new ToolError(
              422,
              `${name} answered more than ${Math.round(options.maxResponseBytes / 1048576)} MiB: narrow the request (add label matchers, aggregate with sum by (...), or shorten the range)`,
            );
          }
          chunks.push(chunk as Buffer);
        }
        text = Buffer.concat(chunks).toString('utf8');
      } catch (err) {
        if (err instanceof ToolError) throw err;
        if (deadline.aborted || err instanceof undiciErrors.HeadersTimeoutError)
          throw new ToolError(
            504,
            `${name} at ${base} did not answer within ${options.timeoutMs} ms`,
          );
        if (req.signal?.aborted) throw new ToolError(499, 'the call was cancelled');
        const code = (err as { code?: unknown }).code;
        throw new ToolError(
          502,
          `${name} at ${base} is unreachable (${typeof code === 'string' ? code : (err as Error).message})`,
        );
      }

      if (status >= 200 && status < 300) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new ToolError(
            502,
            `${name} at ${base}${req.path} answered ${status} with a body that is not JSON`,
          );
        }
      }
      const said = upstreamMessage(text);
      if (status === 400) throw new ToolError(400, `${name} rejected the request: ${said}`);
      if (status === 422) throw new ToolError(422, `${name} could not run the query: ${said}`);
      if (status === 401 || status === 403)
        throw new ToolError(
          502,
          `${name} at ${base} refused the configured credentials (${status}); check the tool server's auth settings`,
        );
      if (status === 404)
        throw new ToolError(502, `${name} at ${base} has no ${req.path} (404): is the URL right?`);
      if (status === 503 || status === 504)
        throw new ToolError(status, `${name} is unavailable or timed out (${status}): ${said}`);
      throw new ToolError(502, `${name} answered ${status}: ${said}`);
    },
    close: () => dispatcher.close(),
  };
}
