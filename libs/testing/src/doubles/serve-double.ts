import { unavailable } from '@inquest/errors';
import {
  implement,
  startGrpcServer,
  type AsyncHandlers,
  type GrpcServiceBinding,
  type HandlerContext,
  type RunningGrpcServer,
} from '@inquest/grpc-kit';

type ServiceDef = Parameters<typeof implement>[0];
type AnyHandler = (req: unknown, ctx: HandlerContext) => Promise<unknown>;

/** Switches every peer double has. */
export interface DoubleSwitches {
  /** while true every method answers UNAVAILABLE, as a peer that is down would */
  down: boolean;
  /** delay before every answer (ms), e.g. to see a cache hide a slow peer */
  delayMs: number;
}

/**
 * Serves a ts-proto service definition on a real gRPC server on loopback (port 0). Methods the
 * double scripts answer through `scripted`; the others answer UNAVAILABLE (a test that reaches
 * them gets a clear error, and callers see what they would see from an unreachable peer).
 * `onCall` sees every call first, so call counters include calls refused while `down`.
 */
export async function serveDouble<S extends ServiceDef>(options: {
  definition: S;
  /** fully qualified service name, e.g. inquest.config.v1.ConfigService */
  name: string;
  scripted: Partial<AsyncHandlers<S>>;
  switches: DoubleSwitches;
  onCall?: (method: string, req: unknown) => void;
}): Promise<RunningGrpcServer> {
  const { definition, name, scripted, switches, onCall } = options;
  const handlers = Object.fromEntries(
    Object.keys(definition).map((method) => {
      const fn = (scripted as Record<string, AnyHandler | undefined>)[method];
      const handler: AnyHandler = async (req, ctx) => {
        onCall?.(method, req);
        if (switches.delayMs > 0) await new Promise((r) => setTimeout(r, switches.delayMs));
        if (switches.down) throw unavailable(`${name} is down (test double)`);
        if (!fn) throw unavailable(`${name}.${method} is not scripted in the test double`);
        return fn(req, ctx);
      };
      return [method, handler];
    }),
  ) as unknown as AsyncHandlers<S>;
  return startGrpcServer({
    port: 0,
    services: [
      {
        definition: definition as unknown as GrpcServiceBinding['definition'],
        implementation: implement(definition, handlers),
        name,
      },
    ],
  });
}

/** The team a request is about, when it names one. */
export function teamOf(req: unknown): string | undefined {
  const team = (req as { team_id?: unknown } | undefined)?.team_id;
  return typeof team === 'string' ? team : undefined;
}
