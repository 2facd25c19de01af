import {
  credentials,
  Metadata,
  status as Status,
  makeGenericClientConstructor,
} from '@grpc/grpc-js';
import type { CallOptions, Client, ClientUnaryCall, ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { IDEMPOTENCY_LEVELS } from '@inquest/proto';
import { toMetadata, type CallContext } from './call-context';
import { fromGrpcError } from './status-mapping';

export interface RpcOptions {
  ctx?: CallContext;
  /** overrides the client's default deadline */
  deadlineMs?: number;
  /** aborting cancels the call */
  signal?: AbortSignal;
}

type UnaryFn<Req, Res> = (
  req: Req,
  md: Metadata,
  opts: Partial<CallOptions>,
  cb: (err: ServiceError | null, res: Res) => void,
) => ClientUnaryCall;

/** Promise form of a ts-proto grpc-js client: every unary method returns a promise and throws DomainError. */
export type PromiseClient<C> = {
  [
    K in keyof C as K extends keyof Client
      ? never
      : C[K] extends UnaryFn<infer _Req, infer _Res>
        ? K
        : never
  ]: C[K] extends UnaryFn<infer Req, infer Res>
    ? (req: Req, opts?: RpcOptions) => Promise<Res>
    : never;
} & { close(): void; address: string };

export interface ClientOptions {
  /** default deadline per call, ms (default 10 s) */
  deadlineMs?: number;
  /** retries on UNAVAILABLE for methods safe to repeat (default 2) */
  retries?: number;
  /**
   * which methods are safe to repeat, by gRPC path (`/pkg.Service/Method`); default: the
   * `option idempotency_level` of each method in proto/, generated at `npm run gen`. A method
   * without a level is never retried, whatever its name.
   */
  idempotency?: Readonly<Record<string, 'NO_SIDE_EFFECTS' | 'IDEMPOTENT'>>;
}

type ClientCtor<C> = {
  new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: object): C;
  service: Record<string, unknown>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Creates a promise-based client for a ts-proto service: deadlines on every call, metadata
 * propagation, bounded retries with backoff for idempotent methods, errors as DomainError.
 */
export function createClient<C extends Client>(
  Ctor: ClientCtor<C>,
  address: string,
  options: ClientOptions = {},
): PromiseClient<C> {
  const raw = new Ctor(address, credentials.createInsecure(), {
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    'grpc.keepalive_time_ms': 30000,
    // grpc-js waits 1 s (growing to 120 s) before reconnecting, failing calls fast meanwhile: a
    // peer that starts a moment later would exhaust our retries. Reconnect quickly, cap at 5 s.
    'grpc.initial_reconnect_backoff_ms': 100,
    'grpc.max_reconnect_backoff_ms': 5000,
  });
  const deadlineMs = options.deadlineMs ?? 10000;
  const retries = options.retries ?? 2;
  const idempotency = options.idempotency ?? IDEMPOTENCY_LEVELS;
  const out: Record<string, unknown> = {
    close: () => raw.close(),
    address,
  };
  for (const method of Object.keys(Ctor.service)) {
    const fn = (raw as unknown as Record<string, UnaryFn<unknown, unknown>>)[method];
    if (typeof fn !== 'function') continue;
    const path = (Ctor.service[method] as { path?: string } | undefined)?.path ?? '';
    const once = (req: unknown, opts: RpcOptions) =>
      new Promise<unknown>((resolve, reject) => {
        if (opts.signal?.aborted)
          return reject(fromGrpcError({ code: Status.CANCELLED, details: 'aborted' }));
        const deadline = new Date(Date.now() + (opts.deadlineMs ?? deadlineMs));
        const call = fn.call(raw, req, toMetadata(opts.ctx), { deadline }, (err, res) => {
          opts.signal?.removeEventListener('abort', onAbort);
          if (err) reject(err);
          else resolve(res);
        });
        const onAbort = () => call.cancel();
        opts.signal?.addEventListener('abort', onAbort, { once: true });
      });
    out[method] = async (req: unknown, opts: RpcOptions = {}) => {
      const attempts = idempotency[path] ? retries + 1 : 1;
      for (let i = 0; ; i++) {
        try {
          return await once(req, opts);
        } catch (err) {
          const code = (err as ServiceError).code;
          if (i + 1 >= attempts || code !== Status.UNAVAILABLE || opts.signal?.aborted)
            throw fromGrpcError(err);
          await sleep(50 * 2 ** i);
        }
      }
    };
  }
  return out as PromiseClient<C>;
}

const HealthClient = makeGenericClientConstructor(healthService as never, 'grpc.health.v1.Health');

/** Standard gRPC health check: resolves true when the server answers SERVING within the deadline. */
export function checkHealth(address: string, deadlineMs = 1000, service = ''): Promise<boolean> {
  const client = new HealthClient(address, credentials.createInsecure());
  return new Promise<boolean>((resolve) => {
    (
      client as unknown as Record<string, UnaryFn<{ service: string }, { status: string | number }>>
    )['check']!(
      { service },
      new Metadata(),
      { deadline: new Date(Date.now() + deadlineMs) },
      (err, res) => {
        client.close();
        resolve(!err && (res.status === 'SERVING' || res.status === 1));
      },
    );
  });
}
