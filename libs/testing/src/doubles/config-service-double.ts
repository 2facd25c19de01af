import { randomBytes } from 'node:crypto';
import { notFound } from '@inquest/errors';
import { configV1 } from '@inquest/proto';
import { serveDouble, teamOf, type DoubleSwitches } from './serve-double';

type Config = Record<string, unknown>;

/** What GetRawConfig answers for a team: its lineage (root first) and each node's own config. */
export interface RawTeamConfig {
  lineage: string[];
  configs: Record<string, Config>;
}

/** A team token the double verifies. */
export interface DoubleToken {
  token: string;
  token_id: string;
  team_id: string;
  permissions: string[];
  owner: string;
  /** ISO 8601; VerifyToken answers invalid from then on, as config-hierarchy does */
  expires_at?: string;
  revoked?: boolean;
}

export type ConfigMethod = keyof typeof configV1.ConfigServiceService;

export interface ConfigCall {
  method: ConfigMethod;
  /** the team the request named (absent for VerifyToken) */
  teamId?: string;
}

export interface ConfigServiceDoubleOptions {
  /** effective config per team to start with */
  effective?: Record<string, Config>;
  /**
   * What GetEffectiveConfig/GetRawConfig answer for a team the test did not configure:
   * 'not_found' (default, as config-hierarchy answers for an unknown team) or an empty config.
   */
  unknownTeam?: 'not_found' | 'empty';
}

export interface ConfigServiceDouble extends DoubleSwitches {
  address: string;
  /** GetEffectiveConfig answers per team */
  effective: Map<string, Config>;
  /** GetRawConfig answers per team; default: the team alone with its effective config */
  raw: Map<string, RawTeamConfig>;
  /**
   * GetEffectiveConfig `secret_scopes` per team (dot path of a vault:// reference -> scope);
   * default none, so consumers fall back to the team's own prefix.
   */
  secretScopes: Map<string, Record<string, configV1.SecretScope>>;
  /**
   * GetNode answers by node id. A team with an effective or raw config, or with an issued token,
   * is a known team node without being listed here; any other id is not_found.
   */
  nodes: Map<string, configV1.Node>;
  /** every call in order (including calls refused while `down`) */
  calls: ConfigCall[];
  /** number of calls of one method */
  count(method: ConfigMethod): number;
  /** a valid team token (VerifyToken answers valid until it is revoked) */
  issue(
    teamId: string,
    permissions: string[],
    owner?: string,
    options?: { expiresAt?: string },
  ): DoubleToken;
  revoke(tokenId: string): void;
  stop(): Promise<void>;
}

/**
 * A real gRPC ConfigService (config-hierarchy's contract) on loopback serving what a test sets:
 * effective and raw configs per team and team tokens for VerifyToken. Every other method answers
 * UNAVAILABLE.
 */
export async function startConfigServiceDouble(
  options: ConfigServiceDoubleOptions = {},
): Promise<ConfigServiceDouble> {
  const tokens = new Map<string, DoubleToken>();
  const missing = (teamId: string) => {
    if (options.unknownTeam === 'empty') return undefined;
    throw notFound(`team ${teamId} not found`);
  };
  const double: ConfigServiceDouble = {
    address: '',
    down: false,
    delayMs: 0,
    effective: new Map(Object.entries(options.effective ?? {})),
    raw: new Map(),
    secretScopes: new Map(),
    nodes: new Map(),
    calls: [],
    count: (method) => double.calls.filter((c) => c.method === method).length,
    issue(teamId, permissions, owner = `owner@${teamId}.example`, options = {}) {
      const id = `tok_${randomBytes(10).toString('hex')}`;
      const t: DoubleToken = {
        token: `${id}.${randomBytes(32).toString('base64url')}`,
        token_id: id,
        team_id: teamId,
        permissions,
        owner,
        ...(options.expiresAt ? { expires_at: options.expiresAt } : {}),
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

  const server = await serveDouble({
    definition: configV1.ConfigServiceService,
    name: 'inquest.config.v1.ConfigService',
    switches: double,
    onCall: (method, req) => {
      const teamId = teamOf(req);
      double.calls.push({
        method: method as ConfigMethod,
        ...(teamId === undefined ? {} : { teamId }),
      });
    },
    scripted: {
      getEffectiveConfig: async (req) => {
        const config = double.effective.get(req.team_id) ?? missing(req.team_id) ?? {};
        return { config, version: 1, secret_scopes: double.secretScopes.get(req.team_id) ?? {} };
      },
      getNode: async (req) => {
        const known = [...tokens.values()].some((t) => t.team_id === req.node_id);
        const node =
          double.nodes.get(req.node_id) ??
          (known || double.effective.has(req.node_id) || double.raw.has(req.node_id)
            ? {
                node_id: req.node_id,
                parent_id: 'org',
                kind: 'team',
                kind_enum: configV1.NodeLevel.NODE_LEVEL_TEAM,
                name: req.node_id,
                org_id: 'org',
                created_at: new Date(0).toISOString(),
              }
            : undefined);
        if (!node) throw notFound(`node ${req.node_id} not found`);
        return { node, config: double.effective.get(req.node_id) ?? {}, version: 1 };
      },
      getRawConfig: async (req) => {
        const raw = double.raw.get(req.team_id);
        if (raw) return { versions: {}, ...raw };
        const own = double.effective.get(req.team_id) ?? missing(req.team_id) ?? {};
        return { lineage: [req.team_id], configs: { [req.team_id]: own }, versions: {} };
      },
      verifyToken: async (req) => {
        const t = tokens.get(req.token.split('.')[0] ?? '');
        if (!t || t.revoked || t.token !== req.token) return { valid: false };
        if (t.expires_at && Date.parse(t.expires_at) <= Date.now()) return { valid: false };
        return {
          valid: true,
          token: {
            token_id: t.token_id,
            team_id: t.team_id,
            permissions: t.permissions,
            owner: t.owner,
            created_at: new Date().toISOString(),
            ...(t.expires_at ? { expires_at: t.expires_at } : {}),
          },
        };
      },
    },
  });
  double.address = server.address;
  double.stop = () => server.shutdown(200);
  return double;
}
