import { z } from 'zod';

/** One tool of a team's tool server, as GET /tools shows it. */
export const TeamTool = z.object({
  name: z.string().describe('`<server>:<tool>`: the name agents configs use'),
  tool: z.string().describe('The name on the tool server'),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()).describe('JSON schema of the parameters'),
  read_only: z
    .boolean()
    .describe(
      'The tool cannot change anything (MCP annotations, the definition flags read_only/destructive, else its name and description); investigations call only these',
    ),
  destructive: z
    .boolean()
    .describe(
      'The tool may change or destroy something (not read-only, unless destructiveHint is false)',
    ),
  safety_reason: z.string().describe('Why it is judged so, for people'),
  agents: z
    .array(z.string())
    .describe('Agents that get the tool under the effective config (never a tool that writes)'),
});
export type TeamTool = z.infer<typeof TeamTool>;

/** One enabled tool server of the team with its health and tools. */
export const TeamToolServer = z.object({
  name: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  healthy: z.boolean(),
  breaker_state: z.enum(['closed', 'open', 'half_open']).describe('Circuit breaker of the server'),
  last_error: z.string().optional(),
  checked_at: z.string().optional().describe('ISO 8601 UTC of the last health check'),
  tools: z.array(TeamTool),
});
export type TeamToolServer = z.infer<typeof TeamToolServer>;

/** GET /tools */
export const TeamTools = z.object({
  servers: z.array(TeamToolServer).describe('Each enabled server of the effective mcp_servers'),
  builtin_tools: z
    .array(z.object({ name: z.string(), agents: z.array(z.string()) }))
    .describe('Built-in tools (knowledge base), with the agents that get them'),
});
export type TeamTools = z.infer<typeof TeamTools>;

export const TeamToolsQuery = z.object({
  refresh: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .default(false)
    .describe('List the servers again instead of the cached lists'),
});
export type TeamToolsQuery = z.infer<typeof TeamToolsQuery>;
