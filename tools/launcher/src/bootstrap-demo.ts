import type { PromiseClient } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import { type configV1, nodeLevelEnum } from '@inquest/proto';

export interface BootstrapDemoOptions {
  /** base URL of the demo tool server, registered as MCP server `demo` when given */
  demoToolServerUrl?: string;
  logger: Logger;
}

const ctx = { requestId: 'bootstrap-demo', principal: 'admin' };

/**
 * On an empty hierarchy: org `demo` with group `demo-group` and team `demo-team`, the demo tool
 * server registered as MCP server `demo`, and a read-write team token (returned so the launcher
 * prints it once). A hierarchy that already has nodes is left alone and no token is issued.
 */
export async function bootstrapDemo(
  config: PromiseClient<configV1.ConfigServiceClient>,
  opts: BootstrapDemoOptions,
): Promise<{ teamToken?: string }> {
  const existing = await config.listNodes({}, { ctx });
  if (existing.nodes.length > 0) {
    opts.logger.debug(
      { nodes: existing.nodes.length },
      'hierarchy not empty: demo bootstrap skipped',
    );
    return {};
  }
  await config.createNode(
    {
      node_id: 'demo',
      kind: 'org',
      kind_enum: nodeLevelEnum.toProto('org'),
      name: 'Demo organization',
    },
    { ctx },
  );
  await config.createNode(
    {
      node_id: 'demo-group',
      parent_id: 'demo',
      kind: 'group',
      kind_enum: nodeLevelEnum.toProto('group'),
      name: 'Demo group',
    },
    { ctx },
  );
  await config.createNode(
    {
      node_id: 'demo-team',
      parent_id: 'demo-group',
      kind: 'team',
      kind_enum: nodeLevelEnum.toProto('team'),
      name: 'Demo team',
    },
    { ctx },
  );
  await config.updateNodeConfig(
    {
      node_id: 'demo',
      changed_by: 'admin',
      patch: {
        knowledge_base: { retrieval: { strategy: 'hybrid', top_k: 5, min_relevance: 0.2 } },
        feature_flags: {
          enable_auto_mitigation: false,
          enable_write_actions: false,
          require_approval: false,
        },
        ...(opts.demoToolServerUrl
          ? {
              mcp_servers: [
                { name: 'demo', url: opts.demoToolServerUrl, timeout: 10, enabled: true },
              ],
            }
          : {}),
      },
    },
    { ctx },
  );
  await config.updateNodeConfig(
    {
      node_id: 'demo-team',
      changed_by: 'admin',
      patch: {
        chat_channel: '#demo-incidents',
        agents: { investigation_agent: { enabled: true, timeout: 120 } },
        ...(opts.demoToolServerUrl ? { mcp_servers: ['demo'] } : {}),
      },
    },
    { ctx },
  );
  const issued = await config.issueToken(
    {
      team_id: 'demo-team',
      permissions: ['read', 'write'],
      owner: 'demo@inquest.local',
      label: 'demo (all-in-one bootstrap)',
    },
    { ctx },
  );
  opts.logger.info(
    { team: 'demo-team', token_id: issued.info?.token_id },
    'demo hierarchy created',
  );
  return { teamToken: issued.token };
}

/**
 * Re-points the demo tool server entry of org `demo` at `url` when it moved (the demo tool server
 * takes a free port when its remembered one is busy). Nothing happens without that entry (a
 * hierarchy of the user's own, or one bootstrapped without the demo tool server).
 */
export async function repointDemoToolServer(
  config: PromiseClient<configV1.ConfigServiceClient>,
  url: string,
  logger: Logger,
): Promise<boolean> {
  const node = await config.getNode({ node_id: 'demo' }, { ctx }).catch(() => undefined);
  const own = (node?.config as { mcp_servers?: unknown } | undefined)?.mcp_servers;
  if (!Array.isArray(own)) return false;
  const isDemo = (s: unknown): s is { name: string; url?: unknown } =>
    typeof s === 'object' && s !== null && (s as { name?: unknown }).name === 'demo';
  const current = own.find(isDemo);
  if (!current) return false;
  if (current.url === url) return true;
  await config.updateNodeConfig(
    {
      node_id: 'demo',
      changed_by: 'admin',
      patch: { mcp_servers: own.map((s: unknown) => (isDemo(s) ? { ...s, url } : s)) },
    },
    { ctx },
  );
  logger.info({ url }, 'demo tool server re-pointed');
  return true;
}
