import { deepMerge, type JsonObject } from '../index';

/** A valid team config for tests, with overrides deep-merged in. */
export function aTeamConfig(overrides: JsonObject = {}): JsonObject {
  return deepMerge(
    {
      chat_channel: '#payments-oncall',
      agents: {
        investigation_agent: {
          enabled: true,
          timeout: 300,
          enable_extra_tools: ['knowledge_search'],
        },
      },
      knowledge_base: { retrieval: { strategy: 'hybrid', top_k: 5, min_relevance: 0.3 } },
      feature_flags: { enable_auto_mitigation: false, require_approval: false },
    },
    overrides,
  );
}
