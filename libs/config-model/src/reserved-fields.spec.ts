import { reservedFieldWarnings } from './reserved-fields';

describe('reservedFieldWarnings', () => {
  it('warns once per reserved field the patch sets', () => {
    const fields = reservedFieldWarnings({
      tools: { kubernetes: { api_key: 'vault://inquest/t/k', domain: 'x', enabled: true } },
      a2a_agents: ['other'],
      feature_flags: { enable_auto_mitigation: true, require_approval: false },
      knowledge_base: { sources: { wiki: { url: 'https://wiki', sync_interval: '1h' } } },
      chat_channel: '#x',
    }).map((w) => w.field);
    expect(fields.sort()).toEqual(
      [
        'tools.kubernetes.api_key',
        'tools.kubernetes.domain',
        'a2a_agents',
        'feature_flags.enable_auto_mitigation',
      ].sort(),
    );
  });

  it('says nothing for fields with an effect and for removals', () => {
    expect(
      reservedFieldWarnings({
        tools: { kubernetes: { enabled: false, api_key: null } },
        a2a_agents: null,
        feature_flags: { enable_write_actions: true },
        knowledge_base: { sources: { git: { url: 'https://git.example.com/r.git' } } },
      }),
    ).toEqual([]);
  });
});
