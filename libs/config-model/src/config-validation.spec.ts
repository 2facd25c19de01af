import { isDomainError, type DomainError } from '@inquest/errors';
import { checkPatch, referenceProblems } from './config-validation';
import { effectiveConfig } from './effective-config';
import type { JsonObject } from './json-value';

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

describe('checkPatch', () => {
  it('accepts a well-formed patch and keeps unknown top-level keys', () => {
    const patch = {
      agents: { investigation_agent: { timeout: 60, enable_extra_tools: ['knowledge_search'] } },
      mcp_servers: [
        {
          name: 'grafana',
          url: 'https://grafana.example.com/mcp',
          auth: { type: 'bearer', token: 'vault://mcp/grafana' },
        },
      ],
      knowledge_base: {
        retrieval: { strategy: 'dense', top_k: 3, min_relevance: 0.5 },
        sources: { wiki: { sync_interval: '30m' } },
      },
      custom_extension: { anything: [1, 'two'] },
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
    const err = failure({ junk: deep });
    expect(err.code).toBe('validation_error');
    expect(err.options.errors?.[0]?.error).toMatch(/deeper than 32/);
  });

  it('rejects a patch over 1 MiB', () => {
    expect(failure({ blob: 'x'.repeat(1024 * 1024 + 1) }).code).toBe('payload_too_large');
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
