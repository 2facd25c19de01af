import { TeamTools, TeamToolsQuery, type TeamToolServer } from '@inquest/api-contract';
import { agentsByTool, BUILTIN_TOOLS, type AgentToolCandidate } from '@inquest/config-model';
import { internal } from '@inquest/errors';
import { classifyTool } from '@inquest/write-guard';
import { defineRoute, type RouteDef } from '../http/route';
import type { GatewayDeps } from './gateway-deps';
import { err } from './route-helpers';

const BREAKER_STATES = new Set(['closed', 'open', 'half_open']);

/** GET /tools: the team's tool servers and tools, so users can pick `<server>:<tool>` names. */
export function toolsRoutes(deps: GatewayDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/tools',
      summary: "The team's tool servers and their tools",
      description:
        'Each enabled server of the effective mcp_servers with its health and circuit-breaker state, its tools with description, parameter schema, read-only/destructive marks (the rule investigations follow: MCP annotations, the read_only/destructive flags of the definition, else the name and description) and the agents that get each tool under the effective config.',
      tags: ['tools'],
      auth: 'team',
      permission: 'read',
      query: TeamToolsQuery,
      responses: {
        200: { description: 'Servers and tools', schema: TeamTools },
        503: err('toolserver-proxy or config-hierarchy unavailable'),
      },
      handler: async (req) => {
        const team = req.auth.teamId;
        if (!team) throw internal('team route without a team');
        const opts = { ctx: req.ctx, signal: req.signal };
        const [listing, effective] = await Promise.all([
          deps.clients.tools.listTools({ team_id: team, refresh: req.query.refresh }, opts),
          deps.effectiveConfig.get(team, { signal: req.signal, requestId: req.requestId }),
        ]);
        const safety = new Map(
          listing.tools.map((t) => {
            const s = classifyTool({
              name: t.name,
              description: t.description,
              annotations: t.annotations ?? undefined,
            });
            const explicit = t.annotations?.['destructiveHint'];
            return [
              t.full_name,
              {
                ...s,
                destructive: !s.readOnly && explicit !== false,
              },
            ];
          }),
        );
        const candidates: AgentToolCandidate[] = [
          ...BUILTIN_TOOLS.map((name) => ({ fullName: name, server: '', name, description: '' })),
          ...listing.tools.map((t) => ({
            fullName: t.full_name,
            server: t.server,
            name: t.name,
            description: t.description,
          })),
        ];
        const agents = agentsByTool(
          effective.config ?? {},
          candidates,
          new Set(BUILTIN_TOOLS),
          (t) => safety.get(t.fullName)?.readOnly === false,
        );
        const servers: TeamToolServer[] = listing.servers.map((s) => ({
          name: s.name,
          url: s.url,
          enabled: s.enabled,
          healthy: s.healthy,
          breaker_state: (BREAKER_STATES.has(s.breaker_state)
            ? s.breaker_state
            : 'closed') as TeamToolServer['breaker_state'],
          ...(s.last_error ? { last_error: s.last_error } : {}),
          ...(s.checked_at ? { checked_at: s.checked_at } : {}),
          tools: listing.tools
            .filter((t) => t.server === s.name)
            .map((t) => {
              const mark = safety.get(t.full_name)!;
              return {
                name: t.full_name,
                tool: t.name,
                description: t.description,
                parameters: t.parameters ?? { type: 'object', properties: {} },
                read_only: mark.readOnly,
                destructive: mark.destructive,
                safety_reason: mark.reason,
                agents: agents.get(t.full_name) ?? [],
              };
            }),
        }));
        const body: TeamTools = {
          servers,
          builtin_tools: BUILTIN_TOOLS.map((name) => ({ name, agents: agents.get(name) ?? [] })),
        };
        return { status: 200, body };
      },
    }),
  ];
}
