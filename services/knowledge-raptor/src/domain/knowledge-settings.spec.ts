import { DEFAULT_SETTINGS, settingsFromConfig } from './knowledge-settings';

describe('knowledge settings', () => {
  it('reads knowledge_base and keeps defaults for missing or invalid values', () => {
    const s = settingsFromConfig({
      knowledge_base: {
        raptor: {
          chunk_size: 128,
          cluster_threshold: 2,
          embedding_model: 'text-embedding-3-small',
        },
        retrieval: {
          strategy: 'dense',
          top_k: 0,
          min_relevance: 0.3,
          reranker: 'mmr',
          ranking: { weights: { usage: 0 } },
        },
      },
    });
    expect(s.raptor).toEqual({
      chunk_size: 128,
      cluster_threshold: 0.1,
      max_tree_depth: 3,
      embedding_model: 'text-embedding-3-small',
    });
    expect(s.retrieval).toMatchObject({
      strategy: 'dense',
      top_k: 5,
      min_relevance: 0.3,
      reranker: 'mmr',
    });
    expect(s.retrieval.ranking.weights.usage).toBe(0);
    expect(settingsFromConfig(null)).toEqual(DEFAULT_SETTINGS);
    expect(
      settingsFromConfig({ knowledge_base: { retrieval: { strategy: 'magic' } } }).retrieval
        .strategy,
    ).toBe('hybrid');
  });
});
