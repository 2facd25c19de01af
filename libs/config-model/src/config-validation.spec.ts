import { isDomainError, validationError, type DomainError } from '@inquest/errors';
import { checkPatchShape, patchProblems, referenceProblems } from './config-validation';
import { agentSettings } from './agent-settings';
import { closestName } from './did-you-mean';
import { effectiveConfig } from './effective-config';
import type { JsonObject } from './json-value';

/** What an update checks of a patch on its own: its shape, then the type of every field. */
function checkPatch(patch: unknown): JsonObject {
  const checked = checkPatchShape(patch);
  const types = patchProblems(checked);
  if (types.length) throw validationError(types);
  return checked;
}

function failure(patch: unknown): DomainError {
  try {
    checkPatch(patch);
  } catch (err) {
    if (isDomainError(err)) return err;
    throw err;
  }
  throw new Error('expected checkPatch to throw');
}

const fields = (err: DomainError) => (err.options.errors ?? []).map((e) => e.field);

describe('checkPatchShape then patchProblems', () => {
  it('accepts a well-formed patch and keeps top-level x- keys as custom data', () => {
    const patch = {
      agents: { investigation_agent: { timeout: 60, enable_extra_tools: ['knowledge_search'] } },
      mcp_servers: [
        {
          name: 'grafana',
          url: 'https://grafana.example.com/mcp',
          auth: { type: 'bearer', token: 'vault://inquest/payments/grafana' },
        },
      ],
      knowledge_base: {
        retrieval: { strategy: 'dense', top_k: 3, min_relevance: 0.5 },
        sources: { wiki: { sync_interval: '30m' } },
      },
      'x-custom': { anything: [1, 'two'], nested: { free: true } },
    };
    expect(checkPatch(patch)).toBe(patch);
  });

  it.each([[null], [[1, 2]], ['text'], [42]])(
    'rejects a non-object body %p as invalid_request',
    (body) => {
      expect(failure(body).code).toBe('invalid_request');
    },
  );

  it.each(['team_name', 'org_id', 'team_node_id'])(
    'rejects immutable field %s as invalid_field',
    (f) => {
      const err = failure({ chat_channel: '#x', [f]: 'new' });
      expect(err.code).toBe('invalid_field');
      expect(err.options.field).toBe(f);
    },
  );

  it('reports every failure at once with its path', () => {
    const err = failure({
      agents: {
        investigation_agent: { timeout: -5 },
        code_fix_agent: { timeout: 1.5, enabled: 'yes' },
      },
      knowledge_base: {
        retrieval: { strategy: 'fuzzy', top_k: 0, min_relevance: 1.5 },
        sources: { wiki: { sync_interval: 'hourly' } },
      },
      webhooks: { investigation_complete: 'ftp://example.com/hook' },
      tools: { datadog: { api_key: 'plain-text-key' } },
      tokens_vault_path: { github: 'ghp_plaintext' },
      mcp_servers: [
        { name: 'a', url: '/relative', auth: { type: 'bearer', token: 'secret' } },
        {
          name: 'b',
          url: 'https://b.example.com',
          auth: { type: 'api_key', header: 'X-Key', key: 'raw' },
        },
        { name: 'c', url: 'https://c.example.com', auth: { type: 'basic' } },
        42,
      ],
      feature_flags: { require_approval: 'true' },
    });
    expect(err.code).toBe('validation_error');
    expect(fields(err).sort()).toEqual(
      [
        'agents.investigation_agent.timeout',
        'agents.code_fix_agent.timeout',
        'agents.code_fix_agent.enabled',
        'knowledge_base.retrieval.strategy',
        'knowledge_base.retrieval.top_k',
        'knowledge_base.retrieval.min_relevance',
        'knowledge_base.sources.wiki.sync_interval',
        'webhooks.investigation_complete',
        'tools.datadog.api_key',
        'tokens_vault_path.github',
        'mcp_servers.0.url',
        'mcp_servers.0.auth.token',
        'mcp_servers.1.auth.key',
        'mcp_servers.2.auth.type',
        'mcp_servers.3',
        'feature_flags.require_approval',
      ].sort(),
    );
  });

  it('reports unknown keys anywhere at their path, with the closest known key', () => {
    const err = failure({
      agentz: {},
      agents: { planer: { timeout: 10 }, planner: { timeuot: 10 }, k8s_agent: { zzz: 1 } },
      feature_flags: { require_aproval: true },
      knowledge_base: { retrieval: { stratgy: 'dense', ranking: { weights: { recncy: 1 } } } },
      tools: { kubernetes: { namespace: 'x' } },
      mcp_servers: [{ name: 'a', url: 'https://a.example.com', timout: 3 }],
      webhooks: { config_chnage: 'https://hooks.example.com' },
      xcustom: 1,
    });
    expect(err.code).toBe('validation_error');
    const byField = Object.fromEntries((err.options.errors ?? []).map((e) => [e.field, e.error]));
    expect(byField).toEqual({
      agentz: 'unknown key "agentz" (did you mean "agents"?)',
      'agents.planer': 'unknown agent "planer" (did you mean "planner"?)',
      'agents.planner.timeuot': 'unknown key "timeuot" (did you mean "timeout"?)',
      'agents.k8s_agent.zzz': 'unknown key "zzz"',
      'feature_flags.require_aproval':
        'unknown feature flag "require_aproval" (did you mean "require_approval"?)',
      'knowledge_base.retrieval.stratgy': 'unknown key "stratgy" (did you mean "strategy"?)',
      'knowledge_base.retrieval.ranking.weights.recncy':
        'unknown ranking signal "recncy" (did you mean "recency"?)',
      'tools.kubernetes.namespace': expect.stringMatching(/^unknown key "namespace"/),
      'mcp_servers.0.timout': 'unknown key "timout" (did you mean "timeout"?)',
      'webhooks.config_chnage': expect.stringMatching(/^unknown key "config_chnage"/),
      xcustom: expect.stringMatching(/^unknown key "xcustom"/),
    });
  });

  it('reports an unknown key even beside a value of the wrong type', () => {
    const err = failure({ chat_channel: 5, agentz: 1 });
    expect(fields(err).sort()).toEqual(['agentz', 'chat_channel']);
  });

  it('rejects prototype keys at any depth', () => {
    const err = failure(
      JSON.parse('{"agents": {"__proto__": {"x": 1}}, "constructor": {"prototype": 1}}'),
    );
    expect(err.code).toBe('validation_error');
    expect(fields(err).sort()).toEqual(['agents.__proto__', 'constructor']);
  });

  it('rejects nesting deeper than 32 levels', () => {
    let deep: JsonObject = { leaf: 1 };
    for (let i = 0; i < 40; i++) deep = { n: deep };
    const err = failure({ 'x-junk': deep });
    expect(err.code).toBe('validation_error');
    expect(err.options.errors?.[0]?.error).toMatch(/deeper than 32/);
  });

  it('rejects a patch over 1 MiB', () => {
    expect(failure({ 'x-blob': 'x'.repeat(1024 * 1024 + 1) }).code).toBe('payload_too_large');
  });
});

describe('agentSettings', () => {
  it('reads code_fix_agent for coding_agent only', () => {
    const agents = { code_fix_agent: { timeout: 30, enabled: false }, planner: { timeout: 5 } };
    expect(agentSettings(agents, 'coding_agent')).toEqual({ timeout: 30, enabled: false });
    expect(agentSettings(agents, 'planner')).toEqual({ timeout: 5 });
    expect(agentSettings(agents, 'k8s_agent')).toEqual({});
  });

  it("lets the agent's own name win key by key over its alias", () => {
    const agents = {
      code_fix_agent: { timeout: 30, prompt: 'fix it' },
      coding_agent: { timeout: 10 },
    };
    expect(agentSettings(agents, 'coding_agent')).toEqual({ timeout: 10, prompt: 'fix it' });
  });

  it('reads nothing from values that are not objects', () => {
    expect(agentSettings(undefined, 'coding_agent')).toEqual({});
    expect(agentSettings({ code_fix_agent: 'x', coding_agent: [1] }, 'coding_agent')).toEqual({});
  });
});

describe('closestName', () => {
  it.each([
    ['planer', 'planner'],
    ['timeuot', 'timeout'],
    ['AGENTS', 'agents'],
    ['enable-write-actions', 'enable_write_actions'],
    ['zzz', undefined],
  ])('%s -> %s', (input, expected) => {
    expect(
      closestName(input, ['planner', 'timeout', 'agents', 'enable_write_actions', 'tools']),
    ).toBe(expected);
  });
});

describe('referenceProblems', () => {
  const org = {
    mcp_servers: [
      { name: 'grafana', url: 'https://grafana.example.com' },
      { name: 'off', url: 'https://off.example.com', enabled: false },
    ],
  };

  it('resolves server names at the same or any ancestor level, nearest first', () => {
    const team = { mcp_servers: ['grafana', { name: 'local', url: 'http://local:9000' }, 'local'] };
    expect(referenceProblems([org, {}, team], effectiveConfig([org, {}, team]))).toEqual([]);
    const eff = effectiveConfig([org, team]);
    expect((eff['mcp_servers'] as { name: string }[]).map((s) => s.name)).toEqual([
      'grafana',
      'local',
      'local',
    ]);
  });

  it('reports unknown server names and unknown or disabled tools', () => {
    const team = {
      mcp_servers: ['grafana', 'off', 'missing'],
      agents: {
        investigation_agent: {
          enable_extra_tools: [
            'grafana:query',
            'off:query',
            'nope:x',
            'bogus',
            'similar_incidents',
          ],
          disable_default_tools: ['learned_patterns', 'unknown_tool'],
        },
      },
    };
    const problems = referenceProblems([org, team], { ...org, ...team });
    expect(problems.map((p) => p.field).sort()).toEqual(
      [
        'mcp_servers.2',
        'agents.investigation_agent.enable_extra_tools.1',
        'agents.investigation_agent.enable_extra_tools.2',
        'agents.investigation_agent.enable_extra_tools.3',
        'agents.investigation_agent.disable_default_tools.1',
      ].sort(),
    );
  });
});
