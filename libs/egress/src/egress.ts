import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Socket } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import {
  buildAddressPolicy,
  deniedReason,
  isHostAllowed,
  refusalReason,
  type AddressPolicy,
} from './address-policy';
import { EgressError, isEgressError } from './egress-error';

export interface EgressOptions {
  /** CIDRs, single addresses and host names exempt from the private-address refusal. */
  allow?: string[];
  connectTimeoutMs?: number;
  /** Whole-request deadline (connect + headers + body); default 30 s. */
  timeoutMs?: number;
  /** Largest response body accepted; default 5 MiB. */
  maxBodyBytes?: number;
  /** DNS resolution (all addresses of a name); defaults to the system resolver. */
  lookup?: HostLookup;
}

export interface EgressRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBodyBytes?: number;
}

export interface EgressResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
  json(): unknown;
}

export interface Egress {
  /** Calls a user-supplied URL. Never follows redirects: a 3xx is returned as is. */
  request(url: string, init?: EgressRequestInit): Promise<EgressResponse>;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT = 30_000;
const DEFAULT_CONNECT_TIMEOUT = 10_000;

type ConnectOpts = Parameters<ReturnType<typeof buildConnector>>[0];
type ConnectCallback = Parameters<ReturnType<typeof buildConnector>>[1];

/**
 * Resolves the host itself, refuses forbidden addresses, then connects to the checked address
 * (pinned: a second DNS answer cannot swap it). undici would skip a `lookup` hook for literal
 * IPs, so the check lives in the connector, and the connected socket's peer is checked again.
 */
function guardedConnector(policy: AddressPolicy, connectTimeoutMs: number, resolve: HostLookup) {
  const base = buildConnector({ timeout: connectTimeoutMs });
  return (opts: ConnectOpts, callback: ConnectCallback): void => {
    const hostname = opts.hostname.replace(/^\[|\]$/g, '');
    const hostAllowed = !isIP(hostname) && isHostAllowed(hostname, policy);
    const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
    resolveChecked(hostname, policy, hostAllowed, resolve, port).then(
      (ip) => {
        base({ ...opts, hostname: ip }, (err, socket) => {
          if (err || !socket) {
            callback(wrapConnectError(err, opts.hostname), null);
            return;
          }
          const peer = (socket as Socket).remoteAddress;
          const peerPort = (socket as Socket).remotePort ?? port;
          const reason = !peer
            ? 'unknown peer'
            : hostAllowed
              ? deniedReason(peer, policy, peerPort)
              : refusalReason(peer, policy, peerPort);
          if (reason) {
            socket.destroy();
            callback(
              new EgressError(
                'egress_refused',
                `connection to ${opts.hostname} refused: ${reason}`,
              ),
              null,
            );
            return;
          }
          callback(null, socket);
        });
      },
      (err: unknown) => callback(err as Error, null),
    );
  };
}

export type HostLookup = (hostname: string) => Promise<string[]>;

const systemLookup: HostLookup = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

async function resolveChecked(
  hostname: string,
  policy: AddressPolicy,
  hostAllowed: boolean,
  resolve: HostLookup,
  port: number,
): Promise<string> {
  let addresses: string[];
  if (isIP(hostname)) {
    addresses = [hostname];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch (err) {
      throw new EgressError('connect_failed', `cannot resolve ${hostname}`, { cause: err });
    }
  }
  if (hostAllowed) {
    // an allowed name is not checked against the ranges, but a `!` entry refuses it still
    for (const address of addresses) {
      const denied = deniedReason(address, policy, port);
      if (denied) throw new EgressError('egress_refused', `${hostname} is not allowed: ${denied}`);
    }
    const first = addresses[0];
    if (!first) throw new EgressError('connect_failed', `${hostname} resolved to no address`);
    return first;
  }
  // Any refused answer means the name points somewhere internal; refusing outright also keeps a
  // rebinding name from hiding a private answer behind a public one.
  for (const address of addresses) {
    const reason = refusalReason(address, policy, port);
    if (reason)
      throw new EgressError(
        'egress_refused',
        `${hostname} is not allowed: ${reason}${allowHint(address, port, policy)}`,
      );
  }
  const first = addresses[0];
  if (!first) throw new EgressError('connect_failed', `${hostname} resolved to no address`);
  return first;
}

/**
 * What an operator adds to `INQUEST_EGRESS_ALLOW` to reach a refused address on this port (the
 * address and port only, least privilege), when such an entry would open it: never for a cloud
 * metadata address, nor for an address no entry of that form opens.
 */
function allowHint(address: string, port: number, policy: AddressPolicy): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(bare)) return '';
  // a `!` entry outweighs any allow entry: there is nothing to add
  if (deniedReason(bare, policy, port)) return '';
  const entry = isIP(bare) === 6 ? `[${bare}]:${port}` : `${bare}:${port}`;
  let opens = false;
  try {
    opens = refusalReason(address, buildAddressPolicy([entry]), port) === null;
  } catch {
    opens = false;
  }
  return opens && !/metadata/.test(refusalReason(address, { cidrs: [], hosts: [] }) ?? '')
    ? ` (an operator can allow it by adding ${entry} to INQUEST_EGRESS_ALLOW)`
    : '';
}

function wrapConnectError(err: Error | null, host: string): Error {
  if (isEgressError(err)) return err;
  const code = (err as { code?: string } | null)?.code;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new EgressError('timeout', `connecting to ${host} timed out`, { cause: err });
  }
  return new EgressError(
    'connect_failed',
    `cannot connect to ${host}: ${err?.message ?? 'unknown error'}`,
    {
      cause: err,
    },
  );
}

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EgressError('invalid_url', 'not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new EgressError('invalid_url', `unsupported scheme ${parsed.protocol}`);
  }
  if (parsed.username || parsed.password) {
    throw new EgressError('invalid_url', 'credentials in the URL are not allowed');
  }
  return parsed;
}

function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  // destroying undici's body emits an abort error that nobody else listens for
  body.on('error', () => undefined);
  body.destroy();
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** The only way to call a user-supplied URL: SSRF guard, deadlines, body size bound. */
export function createEgress(options: EgressOptions = {}): Egress {
  const policy = buildAddressPolicy(options.allow ?? []);
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT;
  const defaultMaxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const agent = new Agent({
    connect: guardedConnector(
      policy,
      options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT,
      options.lookup ?? systemLookup,
    ),
    keepAliveTimeout: 4_000,
  });

  async function doRequest(url: string, init: EgressRequestInit = {}): Promise<EgressResponse> {
    const parsed = parseUrl(url);
    const timeoutMs = init.timeoutMs ?? defaultTimeout;
    const maxBody = init.maxBodyBytes ?? defaultMaxBody;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new EgressError('timeout', `no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = (): void => controller.abort(init.signal?.reason);
    if (init.signal?.aborted) onAbort();
    else init.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await request(parsed, {
        dispatcher: agent,
        method: (init.method ?? 'GET').toUpperCase() as 'GET',
        headers: init.headers,
        body: init.body,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBody) {
        discard(res.body);
        throw new EgressError(
          'body_too_large',
          `answer of ${declared} bytes exceeds ${maxBody} bytes`,
        );
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        size += buf.length;
        if (size > maxBody) {
          discard(res.body);
          throw new EgressError('body_too_large', `answer exceeds ${maxBody} bytes`);
        }
        chunks.push(buf);
      }
      const body = Buffer.concat(chunks, size);
      return {
        status: res.statusCode,
        headers: flattenHeaders(res.headers),
        body,
        text: () => body.toString('utf8'),
        json: () => JSON.parse(body.toString('utf8')) as unknown,
      };
    } catch (err) {
      if (isEgressError(err)) throw err;
      if (timedOut)
        throw new EgressError('timeout', `no complete answer within ${timeoutMs} ms`, {
          cause: err,
        });
      const code = (err as { code?: string }).code;
      if (
        code === 'UND_ERR_HEADERS_TIMEOUT' ||
        code === 'UND_ERR_BODY_TIMEOUT' ||
        code === 'UND_ERR_CONNECT_TIMEOUT'
      ) {
        throw new EgressError('timeout', `no complete answer within ${timeoutMs} ms`, {
          cause: err,
        });
      }
      const cause = (err as { cause?: unknown }).cause;
      if (isEgressError(cause)) throw cause;
      if (init.signal?.aborted) throw err;
      throw new EgressError(
        'connect_failed',
        `request to ${parsed.host} failed: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    request: doRequest,
    close: () => agent.close(),
  };
}
