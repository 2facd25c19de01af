import { start as startGateway } from '@inquest/gateway-service';
import type { ServiceDeps } from '@inquest/runtime';
import { gatewayRequest } from '@inquest/testing';

export type RunningGateway = Awaited<ReturnType<typeof startGateway>>;

/**
 * The real gateway on a free loopback port in front of the given peers (`INQUEST_CONFIG_ADDR`,
 * `INQUEST_TOOLS_ADDR`, ...), with rate limits out of the way of tests that send many requests.
 */
export function startTestGateway(
  adminToken: string,
  peers: Record<string, string>,
  deps: ServiceDeps,
): Promise<RunningGateway> {
  return startGateway(
    {
      PORT: '0',
      INQUEST_HTTP_HOST: '127.0.0.1',
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_ADMIN_TOKEN: adminToken,
      INQUEST_RATE_LIMITS: 'read=100000,write=100000,trigger=100000',
      ...peers,
    },
    deps,
  );
}

/** Admin calls through the gateway that build a hierarchy and issue team tokens, failing loudly. */
export function hierarchyAdmin(gatewayUrl: string, adminToken: string) {
  const admin = (method: string, path: string, body?: unknown) =>
    gatewayRequest(gatewayUrl, method, `/api/v1${path}`, {
      token: adminToken,
      ...(body === undefined ? {} : { body }),
    });
  return {
    /** creates nodes in order: `[node_id, parent_id (null for an org), kind]` */
    async createNodes(nodes: readonly (readonly [string, string | null, string])[]): Promise<void> {
      for (const [node_id, parent_id, kind] of nodes) {
        const res = await admin('POST', '/admin/nodes', {
          node_id,
          parent_id,
          kind,
          name: node_id,
        });
        if (res.status !== 201)
          throw new Error(`creating node ${node_id}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    },
    /** a team token (`<token_id>.<secret>`) owned by `owner` */
    async issueToken(
      teamId: string,
      owner: string,
      permissions: string[] = ['read', 'write'],
    ): Promise<string> {
      const res = await admin('POST', `/admin/nodes/${teamId}/tokens`, { permissions, owner });
      if (res.status !== 201)
        throw new Error(`issuing a token for ${teamId}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token as string;
    },
  };
}
