import { randomBytes } from 'node:crypto';
import { implement, startGrpcServer, type AsyncHandlers, type RunningGrpcServer } from '@inquest/grpc-kit';
import { unavailable } from '@inquest/errors';
import { configV1 } from '@inquest/proto';

export interface DoubleToken {
  token: string;
  token_id: string;
  team_id: string;
  permissions: string[];
  owner: string;
  revoked?: boolean;
}

/**
 * A real gRPC ConfigService on loopback that answers VerifyToken from an in-memory token list
 * (every other method answers UNAVAILABLE). Counts VerifyToken calls so tests can see the cache.
 */
export interface ConfigDouble {
  address: string;
  verifyCalls: number;
  /** delay before VerifyToken answers (ms) */
  delayMs: number;
  issue(teamId: string, permissions: string[], owner?: string): DoubleToken;
  revoke(tokenId: string): void;
  stop(): Promise<void>;
}

export async function startConfigDouble(): Promise<ConfigDouble> {
  const tokens = new Map<string, DoubleToken>();
  const double: ConfigDouble = {
    address: '',
    verifyCalls: 0,
    delayMs: 0,
    issue(teamId, permissions, owner = `owner@${teamId}.example`) {
      const id = `tok_${randomBytes(10).toString('hex').slice(0, 20)}`;
      const t: DoubleToken = {
        token: `${id}.${randomBytes(32).toString('base64url')}`,
        token_id: id,
        team_id: teamId,
        permissions,
        owner,
      };
      tokens.set(id, t);
      return t;
    },
    revoke(tokenId) {
      const t = tokens.get(tokenId);
      if (t) t.revoked = true;
    },
    stop: async () => undefined,
  };
  const notHere = async () => {
    throw unavailable('not implemented by the test double');
  };
  const handlers = new Proxy(
    {
      verifyToken: async (req: configV1.VerifyTokenRequest): Promise<configV1.VerifyTokenResponse> => {
        double.verifyCalls++;
        if (double.delayMs) await new Promise((r) => setTimeout(r, double.delayMs));
        const id = req.token.split('.')[0] ?? '';
        const t = tokens.get(id);
        if (!t || t.revoked || t.token !== req.token) return { valid: false };
        return {
          valid: true,
          token: {
            token_id: t.token_id,
            team_id: t.team_id,
            permissions: t.permissions,
            owner: t.owner,
            created_at: new Date().toISOString(),
          },
        };
      },
    } as Record<string, unknown>,
    { get: (target, key: string) => target[key] ?? notHere },
  );
  // grpc-kit implement() walks Object.entries: list every method of the service explicitly
  const all = Object.fromEntries(
    Object.keys(configV1.ConfigServiceService).map((m) => [m, (handlers as Record<string, unknown>)[m]]),
  ) as unknown as AsyncHandlers<typeof configV1.ConfigServiceService>;
  const server: RunningGrpcServer = await startGrpcServer({
    port: 0,
    services: [
      {
        definition: configV1.ConfigServiceService,
        implementation: implement(configV1.ConfigServiceService, all),
        name: 'inquest.config.v1.ConfigService',
      },
    ],
  });
  double.address = server.address;
  double.stop = () => server.shutdown(500);
  return double;
}
