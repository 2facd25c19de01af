import type { PromiseClient } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import type { configV1 } from '@inquest/proto';

const ctx = { requestId: 'launcher-register-tool-server', principal: 'admin' };

export interface ToolServerRegistration {
  /** server entry name, e.g. `prometheus` */
  name: string;
  url: string;
  /** seconds; default 30 */
  timeout?: number;
  /** how the proxy authenticates to it: a `vault://` reference under the team's own prefix */
  auth?: { type: 'bearer'; token: string };
}

/**
 * Registers (or re-points: the in-process server gets a new port at every start) a tool server,
 * with its `auth` when given, in a team's own `mcp_servers`, keeping every other entry of that
 * list. Nothing happens when the team does not exist (INQUEST_DEMO=0, or a hierarchy of the
 * user's own).
 */
export async function registerToolServer(
  config: PromiseClient<configV1.ConfigServiceClient>,
  teamId: string,
  entry: ToolServerRegistration,
  logger: Logger,
): Promise<boolean> {
  const node = await config.getNode({ node_id: teamId }, { ctx }).catch(() => undefined);
  if (!node?.node) {
    logger.info({ team: teamId, server: entry.name }, 'team not found: tool server not registered');
    return false;
  }
  const own = (node.config as { mcp_servers?: unknown } | undefined)?.mcp_servers;
  const others = (Array.isArray(own) ? own : []).filter(
    (s: unknown) =>
      s !== entry.name && (typeof s !== 'object' || (s as { name?: unknown })?.name !== entry.name),
  );
  const wanted = {
    name: entry.name,
    url: entry.url,
    timeout: entry.timeout ?? 30,
    enabled: true,
    ...(entry.auth ? { auth: entry.auth } : {}),
  };
  const current = (Array.isArray(own) ? own : []).find(
    (s: unknown) => typeof s === 'object' && (s as { name?: unknown })?.name === entry.name,
  );
  if (current && JSON.stringify(current) === JSON.stringify(wanted)) return true;
  await config.updateNodeConfig(
    { node_id: teamId, changed_by: 'admin', patch: { mcp_servers: [...others, wanted] } },
    { ctx },
  );
  logger.info({ team: teamId, server: entry.name, url: entry.url }, 'tool server registered');
  return true;
}

/**
 * Whether a team's investigations read the named tool server: its effective `mcp_servers` has
 * that name, as a reference or as an entry not turned off. False when the team does not exist.
 */
export async function teamUsesToolServer(
  config: PromiseClient<configV1.ConfigServiceClient>,
  teamId: string,
  name: string,
): Promise<boolean> {
  const eff = await config.getEffectiveConfig({ team_id: teamId }, { ctx }).catch(() => undefined);
  const servers = (eff?.config as { mcp_servers?: unknown } | undefined)?.mcp_servers;
  return (Array.isArray(servers) ? servers : []).some((s: unknown) =>
    typeof s === 'string'
      ? s === name
      : typeof s === 'object' &&
        s !== null &&
        (s as { name?: unknown }).name === name &&
        (s as { enabled?: unknown }).enabled !== false,
  );
}

/**
 * Turns off a tool server this launcher registered in a team's own `mcp_servers` (the entry of
 * that name whose bearer token is `tokenRef`) when this start does not run it: its port is gone,
 * and the entry would only answer "unreachable". `registerToolServer` turns it on again at the
 * next start that runs it. True when an entry was turned off.
 */
export async function turnOffStaleToolServer(
  config: PromiseClient<configV1.ConfigServiceClient>,
  teamId: string,
  name: string,
  tokenRef: string,
  logger: Logger,
): Promise<boolean> {
  const node = await config.getNode({ node_id: teamId }, { ctx }).catch(() => undefined);
  const own = (node?.node && (node.config as { mcp_servers?: unknown } | undefined))?.mcp_servers;
  if (!Array.isArray(own)) return false;
  const ours = (s: unknown): s is Record<string, unknown> =>
    typeof s === 'object' &&
    s !== null &&
    (s as { name?: unknown }).name === name &&
    (s as { auth?: { token?: unknown } }).auth?.token === tokenRef &&
    (s as { enabled?: unknown }).enabled !== false;
  if (!own.some(ours)) return false;
  await config.updateNodeConfig(
    {
      node_id: teamId,
      changed_by: 'admin',
      patch: { mcp_servers: own.map((s: unknown) => (ours(s) ? { ...s, enabled: false } : s)) },
    },
    { ctx },
  );
  logger.info({ team: teamId, server: name }, 'tool server not running: turned off');
  return true;
}
