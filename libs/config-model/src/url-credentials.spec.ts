import { urlCredentialProblems } from './url-credentials';

describe('urlCredentialProblems', () => {
  it('refuses URLs with user:pass@ (or a user alone) wherever they are, naming the field', () => {
    expect(
      urlCredentialProblems({
        webhooks: { investigation_complete: 'https://hook:s3cret@hooks.example.com/x' },
        mcp_servers: [{ name: 'g', url: 'http://admin@grafana.example.com/mcp' }],
        knowledge_base: { sources: { wiki: { url: 'HTTPS://u:p@wiki.example.com' } } },
        'x-notes': ['ftp://a:b@files.example.com/'],
      }).map((p) => p.field),
    ).toEqual([
      'webhooks.investigation_complete',
      'mcp_servers.0.url',
      'knowledge_base.sources.wiki.url',
      'x-notes.0',
    ]);
  });

  it('accepts plain URLs, an @ after the host, e-mails and vault references', () => {
    expect(
      urlCredentialProblems({
        webhooks: { investigation_complete: 'https://hooks.example.com/x?to=a@b.example' },
        mcp_servers: [{ name: 'g', url: 'https://grafana.example.com/@team/mcp' }],
        approval: { approvers: ['lead@example.com'] },
        tokens_vault_path: { slack_bot_token: 'vault://inquest/team-a/slack@v2' },
      }),
    ).toEqual([]);
  });
});
