import { implement, startGrpcServer, type RunningGrpcServer } from '@inquest/grpc-kit';
import { notFound, unavailable } from '@inquest/errors';
import { configV1 } from '@inquest/proto';

export interface ConfigDouble {
  address: string;
  /** sets a team's effective config */
  set(teamId: string, config: Record<string, unknown>): void;
  /** while true, GetEffectiveConfig answers UNAVAILABLE */
  down: boolean;
  calls: number;
  stop(): Promise<void>;
}

/**
 * A real gRPC ConfigService on loopback that answers GetEffectiveConfig from a map (the rest of
 * the service is not needed by the notifier and answers UNIMPLEMENTED).
 */
export async function startConfigDouble(initial: Record<string, Record<string, unknown>> = {}): Promise<ConfigDouble> {
  const configs = new Map(Object.entries(initial));
  const state = { down: false, calls: 0 };
  const handlers = {
    getEffectiveConfig: async (req: configV1.GetEffectiveConfigRequest) => {
      double.calls++;
      if (double.down) throw unavailable('config store down');
      const config = configs.get(req.team_id);
      if (!config) throw notFound(`team ${req.team_id} not found`);
      return { config, version: 1 };
    },
  };
  const server: RunningGrpcServer = await startGrpcServer({
    port: 0,
    services: [
      {
        definition: configV1.ConfigServiceService,
        implementation: implement(configV1.ConfigServiceService, handlers as never),
        name: 'inquest.config.v1.ConfigService',
      },
    ],
  });
  const double: ConfigDouble = {
    address: server.address,
    set: (teamId, config) => void configs.set(teamId, config),
    ...state,
    stop: async () => {
      await server.shutdown(100);
    },
  };
  return double;
}
