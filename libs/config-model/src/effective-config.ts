import { resolveMcpServers } from './config-validation';
import { mergeLevels } from './deep-merge';
import type { JsonObject } from './json-value';

/** Identity of a team fixed by the hierarchy; always present in its effective config. */
export interface TeamIdentity {
  team_node_id: string;
  team_name: string;
  org_id: string;
}

/**
 * The effective config of a node: its lineage's own configs merged root first, string elements of
 * `mcp_servers` replaced by the entries they name, and (for a team) its fixed identity fields.
 */
export function effectiveConfig(levels: JsonObject[], identity?: TeamIdentity): JsonObject {
  const merged = mergeLevels(levels);
  if (Array.isArray(merged['mcp_servers'])) {
    merged['mcp_servers'] = resolveMcpServers(levels, merged['mcp_servers']).servers;
  }
  return identity ? { ...merged, ...identity } : merged;
}
