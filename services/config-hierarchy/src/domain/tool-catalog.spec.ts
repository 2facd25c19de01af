import { diffConfigs, type JsonObject } from '@inquest/config-model';
import { toolListingCheck, type ToolCatalog, type ToolListing } from './tool-catalog';

const K8S = { name: 'k8s', url: 'http://k8s.local' };

/** The team's config after an update that sets `after`'s agent tool lists (before: none). */
function check(after: JsonObject, catalog: ToolCatalog | undefined, teamId: string | undefined) {
  return toolListingCheck({
    catalog,
    teamId,
    levels: [after],
    merged: after,
    diff: diffConfigs({ mcp_servers: after['mcp_servers'] ?? [] }, after),
  });
}

const listing = (over: Partial<ToolListing> = {}): ToolListing => ({
  servers: [{ ...K8S, answered: true }],
  tools: [
    { server: 'k8s', name: 'list_pods' },
    { server: 'k8s', name: 'get_logs' },
  ],
  ...over,
});
const catalogOf = (l: ToolListing | Error): ToolCatalog & { asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    list: async (teamId) => {
      asked.push(teamId);
      if (l instanceof Error) throw l;
      return l;
    },
  };
};
const withExtras = (...tools: string[]): JsonObject => ({
  mcp_servers: [K8S],
  agents: { k8s_agent: { enable_extra_tools: tools } },
});

describe('toolListingCheck', () => {
  it('accepts tools the server offers; refuses others with the closest name', async () => {
    const catalog = catalogOf(listing());
    const out = await check(withExtras('k8s:list_pods', 'k8s:get_log'), catalog, 'payments');
    expect(out).toEqual({
      problems: [
        {
          field: 'agents.k8s_agent.enable_extra_tools.1',
          error: 'MCP server "k8s" offers no tool "get_log" (did you mean "k8s:get_logs"?)',
        },
      ],
      warnings: [],
    });
    expect(catalog.asked).toEqual(['payments']);
  });

  it('does not ask when the update sets no tool of a configured server', async () => {
    const catalog = catalogOf(listing());
    // a built-in and a server that is not configured (referenceProblems reports that one)
    const out = await check(withExtras('knowledge_search', 'prom:query'), catalog, 'payments');
    expect(out).toEqual({ problems: [], warnings: [] });
    expect(catalog.asked).toEqual([]);
  });

  it.each<[string, ToolCatalog | undefined, string | undefined, RegExp]>([
    ['no tool service', undefined, 'payments', /no tool service is configured/],
    ['an org or group config', catalogOf(listing()), undefined, /tool lists are per team/],
    [
      'an unreachable tool service',
      catalogOf(new Error('proxy down')),
      'payments',
      /did not answer: proxy down/,
    ],
    ['a server not saved yet', catalogOf(listing({ servers: [] })), 'payments', /not saved yet/],
    [
      'a server whose URL the update changes',
      catalogOf(listing({ servers: [{ name: 'k8s', url: 'http://old.local', answered: true }] })),
      'payments',
      /changes its URL/,
    ],
    [
      'a server that did not answer',
      catalogOf(listing({ servers: [{ ...K8S, answered: false, error: 'timeout' }] })),
      'payments',
      /server did not answer: timeout/,
    ],
  ])('only warns for %s', async (_what, catalog, teamId, why) => {
    const out = await check(withExtras('k8s:nothing_like_it'), catalog, teamId);
    expect(out.problems).toEqual([]);
    expect(out.warnings).toEqual([
      { field: 'agents.k8s_agent.enable_extra_tools.0', message: expect.stringMatching(why) },
    ]);
  });
});
