import { Server, ServerCredentials, status as GrpcStatus } from '@grpc/grpc-js';
import type {
  ServerUnaryCall,
  ServiceDefinition,
  UntypedServiceImplementation,
  sendUnaryData,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { Counter, Histogram, type Registry } from 'prom-client';
import { startMetricsServer, type Logger } from '@inquest/observability';
import { fromMetadata, type CallContext } from './call-context';
import { toGrpcStatus } from './status-mapping';

/** What an async handler receives besides the request. */
export interface HandlerContext extends CallContext {
  /** aborted when the caller cancels or its deadline passes */
  signal: AbortSignal;
}

type UnaryDef = {
  requestDeserialize: (b: Buffer) => unknown;
  responseSerialize: (v: never) => Buffer;
};
type ReqOf<D> = D extends { requestDeserialize: (b: Buffer) => infer R } ? R : never;
type ResOf<D> = D extends { responseSerialize: (v: infer R) => Buffer } ? R : never;

/** Async handlers for every method of a ts-proto service definition. */
export type AsyncHandlers<S> = {
  [K in keyof S]: (req: ReqOf<S[K]>, ctx: HandlerContext) => Promise<ResOf<S[K]>>;
};

/**
 * Adapts async handlers to grpc-js: the returned promise becomes the answer, a thrown domain
 * error becomes a gRPC status with its machine code in metadata, unexpected errors are logged
 * and answered INTERNAL without details.
 */
export function implement<S extends Record<string, UnaryDef>>(
  _definition: S,
  handlers: AsyncHandlers<S>,
  logger?: Logger,
): UntypedServiceImplementation {
  const impl: UntypedServiceImplementation = {};
  for (const [name, fn] of Object.entries(handlers) as [
    string,
    (r: unknown, c: HandlerContext) => Promise<unknown>,
  ][]) {
    impl[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const ac = new AbortController();
      call.on('cancelled', () => ac.abort(new Error('call cancelled')));
      const ctx: HandlerContext = { ...fromMetadata(call.metadata), signal: ac.signal };
      fn(call.request, ctx).then(
        (res) => callback(null, res),
        (err: unknown) => {
          const st = toGrpcStatus(err);
          if (st.code === 13 /* INTERNAL */) {
            logger?.error(
              { err, method: name, request_id: ctx.requestId },
              'unhandled error in gRPC handler',
            );
          }
          callback(st, null);
        },
      );
    };
  }
  return impl;
}

export interface GrpcServiceBinding {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  /** fully qualified name reported by the health service, e.g. inquest.config.v1.ConfigService */
  name: string;
}

export interface RunningGrpcServer {
  port: number;
  address: string;
  server: Server;
  health: HealthImplementation;
  /** where GET /metrics answers, when a metrics port was given */
  metricsAddress?: string;
  /** Graceful: stops accepting, waits for in-flight calls up to graceMs, then forces. */
  shutdown(graceMs?: number): Promise<void>;
}

export interface StartGrpcServerOptions {
  host?: string;
  /** 0 picks a free port */
  port: number;
  services: GrpcServiceBinding[];
  logger?: Logger;
  /**
   * counts and times every call into this registry: inquest_grpc_server_handled_total{method,
   * code} and inquest_grpc_server_handling_seconds{method}
   */
  metrics?: Registry;
  /** when set (and `metrics` given), GET /metrics answers on this port of the same host */
  metricsPort?: number;
}

/** Starts a gRPC server with the standard health service; every bound service reports SERVING. */
export async function startGrpcServer(options: StartGrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024 });
  const status: Record<string, 'SERVING'> = { '': 'SERVING' };
  for (const s of options.services) status[s.name] = 'SERVING';
  const health = new HealthImplementation(status);
  health.addToServer(server);
  const instrument = options.metrics ? grpcMetrics(options.metrics) : undefined;
  for (const s of options.services)
    server.addService(
      s.definition,
      instrument ? instrument(s.definition, s.implementation) : s.implementation,
    );
  const host = options.host ?? '127.0.0.1';
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host}:${options.port}`, ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    );
  });
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  options.logger?.info(
    { address, services: options.services.map((s) => s.name) },
    'gRPC server listening',
  );
  const metricsServer =
    options.metrics && options.metricsPort !== undefined
      ? await startMetricsServer({
          registry: options.metrics,
          port: options.metricsPort,
          host,
          logger: options.logger,
        })
      : undefined;
  return {
    port,
    address,
    server,
    health,
    metricsAddress: metricsServer?.address,
    shutdown: async (graceMs = 5000) => {
      await metricsServer?.close();
      await new Promise<void>((resolve) => {
        for (const name of Object.keys(status)) health.setStatus(name, 'NOT_SERVING');
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/** Wraps every unary handler of a service to count and time its calls by method and status. */
function grpcMetrics(registry: Registry) {
  const handled = new Counter({
    name: 'inquest_grpc_server_handled_total',
    help: 'gRPC calls answered, by method and status code',
    labelNames: ['method', 'code'],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'inquest_grpc_server_handling_seconds',
    help: 'time to answer a gRPC call, by method',
    labelNames: ['method'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return (
    definition: ServiceDefinition,
    impl: UntypedServiceImplementation,
  ): UntypedServiceImplementation => {
    const out: UntypedServiceImplementation = {};
    for (const [name, fn] of Object.entries(impl)) {
      // the wire name, e.g. inquest.knowledge.v1.KnowledgeService/Retrieve
      const method = (definition[name]?.path ?? name).replace(/^\//, '');
      out[name] = ((call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
        const end = seconds.startTimer({ method });
        (fn as (c: typeof call, cb: typeof callback) => void)(call, (err, res) => {
          end();
          const code = err ? ((err as { code?: number }).code ?? 2) : 0;
          handled.inc({ method, code: GrpcStatus[code] ?? String(code) });
          callback(err, res);
        });
      }) as UntypedServiceImplementation[string];
    }
    return out;
  };
}
