import type { Egress, EgressResponse } from '@inquest/egress';
import {
  ToolServerError,
  type CallOptions,
  type RawToolDefinition,
  type ToolServerClient,
} from '../domain/tool-server-client';
import { egressFailure } from './egress-failure';

/** The tool-server contract of the interface spec over HTTP, through the egress guard. */
export function httpToolServerClient(
  baseUrl: string,
  egress: Egress,
  maxBodyBytes: number,
): ToolServerClient {
  const base = baseUrl.replace(/\/+$/, '');

  async function send(
    path: string,
    opts: CallOptions,
    method: 'GET' | 'POST',
    body?: unknown,
  ): Promise<EgressResponse> {
    try {
      return await egress.request(`${base}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: opts.signal,
        timeoutMs: opts.timeoutMs,
        maxBodyBytes,
      });
    } catch (err) {
      throw egressFailure(err);
    }
  }

  function parse(res: EgressResponse, what: string): unknown {
    if (res.status >= 300 && res.status < 400) {
      throw new ToolServerError(
        'bad_answer',
        `${what} answered a redirect (${res.status}); redirects are not followed`,
      );
    }
    if (res.status >= 400 && res.status < 500 && res.status !== 429 && res.status !== 408) {
      throw new ToolServerError(
        'rejected',
        `${what} answered ${res.status}${serverMessage(res)}`,
        res.status,
      );
    }
    if (res.status >= 400)
      throw new ToolServerError(
        'server_error',
        `${what} answered ${res.status}${serverMessage(res)}`,
        res.status,
      );
    try {
      return res.json();
    } catch {
      throw new ToolServerError(
        'bad_answer',
        `${what} answered ${res.status} with a body that is not JSON`,
      );
    }
  }

  return {
    async listTools(opts) {
      const body = parse(await send('/tools', opts, 'GET'), 'GET /tools');
      // Some servers wrap the list as {tools: [...]}; the contract says a bare array.
      const list = Array.isArray(body) ? body : (body as { tools?: unknown } | null)?.tools;
      if (!Array.isArray(list))
        throw new ToolServerError(
          'bad_answer',
          'GET /tools did not answer an array of tool definitions',
        );
      return list.filter(
        (t): t is RawToolDefinition => typeof t === 'object' && t !== null && !Array.isArray(t),
      );
    },
    async callTool(name, parameters, opts) {
      const res = await send(`/tools/${encodeURIComponent(name)}`, opts, 'POST', { parameters });
      const output = parse(res, `POST /tools/${name}`);
      return { output, bytes: res.body.length };
    },
    async health(opts) {
      const body = parse(await send('/health', opts, 'GET'), 'GET /health');
      const status = (body as { status?: unknown } | null)?.status;
      if (typeof status !== 'string')
        throw new ToolServerError('bad_answer', 'GET /health did not answer {status: string}');
      return status;
    },
    async close() {
      // the egress (shared) owns the connections
    },
  };
}

function serverMessage(res: EgressResponse): string {
  try {
    const body = res.json() as { error?: unknown; message?: unknown } | null;
    const err = body?.error;
    const msg =
      typeof err === 'string'
        ? err
        : typeof (err as { message?: unknown })?.message === 'string'
          ? (err as { message: string }).message
          : body?.message;
    return typeof msg === 'string' ? `: ${msg.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}
