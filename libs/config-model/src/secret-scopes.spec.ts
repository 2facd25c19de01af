import { effectiveConfig } from './effective-config';
import { effectiveSecretScopes, secretScopeProblems, vaultRefsIn } from './secret-scopes';

const team = { node_id: 'team-a', kind: 'team' };

describe('vaultRefsIn', () => {
  it('finds references in every field, arrays included', () => {
    expect(
      vaultRefsIn({
        webhooks: { signing_secret: 'vault://inquest/a/s' },
        mcp_servers: ['named', { name: 'g', url: 'http://g', auth: { token: 'vault://x/y' } }],
        'x-custom': { deep: ['vault://c/d'] },
        chat_channel: 'vault-ish but not a ref',
      }),
    ).toEqual([
      { field: 'webhooks.signing_secret', ref: 'vault://inquest/a/s' },
      { field: 'mcp_servers.1.auth.token', ref: 'vault://x/y' },
      { field: 'x-custom.deep.0', ref: 'vault://c/d' },
    ]);
  });
});

describe('secretScopeProblems (save time)', () => {
  it("refuses another team's path, naming the field", () => {
    const problems = secretScopeProblems(
      {
        mcp_servers: [
          {
            name: 'mine',
            url: 'http://t',
            auth: { type: 'api_key', header: 'X-Key', key: 'vault://inquest/team-b/toolkey' },
          },
        ],
        webhooks: { signing_secret: 'vault://teams/bravo/signing' },
        tokens_vault_path: { slack_bot_token: 'vault://inquest/team-a/slack' },
      },
      team,
      undefined,
    );
    expect(problems.map((p) => p.field)).toEqual([
      'mcp_servers.0.auth.key',
      'webhooks.signing_secret',
    ]);
    expect(problems[0]!.error).toMatch(/^vault reference must be under inquest\/team-a\//);
  });

  it('accepts the prefixes the org grants, {node_id} replaced', () => {
    const grants = ['shared/observability/', 'teams/{node_id}/'];
    expect(
      secretScopeProblems(
        {
          tools: { grafana: { api_key: 'vault://shared/observability/grafana' } },
          webhooks: { signing_secret: 'vault://teams/team-a/signing' },
        },
        team,
        grants,
      ),
    ).toEqual([]);
    expect(
      secretScopeProblems({ webhooks: { signing_secret: 'vault://teams/team-b/x' } }, team, grants),
    ).toEqual([
      {
        field: 'webhooks.signing_secret',
        error: expect.stringContaining(
          'or a prefix the org grants (shared/observability/, teams/team-a/)',
        ),
      },
    ]);
  });

  it('lets only an org grant prefixes, and checks what it grants', () => {
    expect(
      secretScopeProblems({ secrets: { allowed_prefixes: ['inquest/'] } }, team, undefined),
    ).toEqual([{ field: 'secrets', error: expect.stringContaining('only an org') }]);
    const org = { node_id: 'acme', kind: 'org' };
    expect(
      secretScopeProblems(
        {
          secrets: { allowed_prefixes: ['shared/', 'no-slash', '../x/', ''] },
          webhooks: { signing_secret: 'vault://shared/acme-signing' },
        },
        org,
        undefined,
      ).map((p) => p.field),
    ).toEqual([
      'secrets.allowed_prefixes.1',
      'secrets.allowed_prefixes.2',
      'secrets.allowed_prefixes.3',
    ]);
    expect(secretScopeProblems({ secrets: null }, org, ['shared/'])).toEqual([]);
  });
});

describe('effectiveSecretScopes (resolution time)', () => {
  const grafana = {
    name: 'grafana',
    url: 'http://grafana.example',
    auth: { type: 'bearer', token: 'vault://inquest/acme/grafana' },
  };
  const levels = [
    {
      secrets: { allowed_prefixes: ['shared/'] },
      mcp_servers: [grafana],
      webhooks: { signing_secret: 'vault://inquest/acme/signing' },
    },
    { tokens_vault_path: { slack_bot_token: 'vault://inquest/platform/slack' } },
    {
      mcp_servers: [
        'grafana',
        {
          name: 'own',
          url: 'http://own.example',
          auth: { type: 'api_key', header: 'X-Key', key: 'vault://inquest/team-b/toolkey' },
        },
      ],
    },
  ];
  const lineage = ['acme', 'platform', 'team-a'];

  it('resolves each reference under the node that set it', () => {
    const eff = effectiveConfig(levels);
    const scopes = effectiveSecretScopes(levels, lineage, eff);
    expect(scopes).toEqual({
      'mcp_servers.0.auth.token': { owner: 'acme', prefixes: ['inquest/acme/', 'shared/'] },
      // stored before the rule: still the team's, so it cannot reach team-b's path
      'mcp_servers.1.auth.key': { owner: 'team-a', prefixes: ['inquest/team-a/', 'shared/'] },
      'webhooks.signing_secret': { owner: 'acme', prefixes: ['inquest/acme/', 'shared/'] },
      'tokens_vault_path.slack_bot_token': {
        owner: 'platform',
        prefixes: ['inquest/platform/', 'shared/'],
      },
    });
  });

  it("a team that re-points where an ancestor's secret goes gets its own scope for it", () => {
    const org = {
      secrets: { allowed_prefixes: ['shared/'] },
      knowledge_base: {
        sources: {
          wiki: {
            kind: 'confluence',
            url: 'https://acme.atlassian.net',
            username: 'bot@acme.example',
            token: 'vault://inquest/acme/confluence',
          },
          docs: {
            kind: 'git',
            url: 'https://git.acme.example/docs.git',
            token: 'vault://shared/git',
          },
        },
        retrieval: {
          reranker: 'https://rerank.acme.example/v1/rerank',
          reranker_api_key: 'vault://inquest/acme/rerank',
        },
      },
    };
    const untouched = [org, {}, { knowledge_base: { sources: { wiki: { space_keys: ['OPS'] } } } }];
    let scopes = effectiveSecretScopes(untouched, lineage, effectiveConfig(untouched));
    expect(scopes['knowledge_base.sources.wiki.token']?.owner).toBe('acme');
    expect(scopes['knowledge_base.retrieval.reranker_api_key']?.owner).toBe('acme');

    const repointed = [
      org,
      { knowledge_base: { retrieval: { reranker: 'https://rerank.evil.example/' } } },
      {
        knowledge_base: {
          sources: {
            wiki: { url: 'https://evil.example' },
            docs: { urls: ['https://evil.example/x'] },
          },
        },
      },
    ];
    scopes = effectiveSecretScopes(repointed, lineage, effectiveConfig(repointed));
    expect(scopes['knowledge_base.sources.wiki.token']).toEqual({
      owner: 'team-a',
      prefixes: ['inquest/team-a/', 'shared/'],
    });
    // a prefix the org grants stays shared with every node: team-a may still resolve it
    expect(scopes['knowledge_base.sources.docs.token']?.owner).toBe('team-a');
    expect(scopes['knowledge_base.retrieval.reranker_api_key']?.owner).toBe('platform');
  });

  it('gives an overriding team the reference, and the scope, of its own', () => {
    const own = [
      ...levels.slice(0, 2),
      { webhooks: { signing_secret: 'vault://inquest/acme/signing' } },
    ];
    // the same path as the org's, but set by the team: it resolves under the team
    const scopes = effectiveSecretScopes(own, lineage, effectiveConfig(own));
    expect(scopes['webhooks.signing_secret']?.owner).toBe('team-a');
  });
});
