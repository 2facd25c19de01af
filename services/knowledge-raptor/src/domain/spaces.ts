import type { Embedder } from '@inquest/llm';
import type { VectorIndex } from '@inquest/vector';
import type { RerankerAuth } from './knowledge-settings';

/** An embedding model and the index of its space (one per model and dimension). */
export interface EmbeddingSpace {
  embedder: Embedder;
  index: VectorIndex;
}

/** Resolves `knowledge_base.raptor.embedding_model` to its space (built lazily by main.ts). */
export interface Spaces {
  get(model: string): EmbeddingSpace;
  close(): Promise<void>;
}

/** Calls an external reranker speaking the common `/rerank` API. */
export interface ExternalReranker {
  rerank(
    url: string,
    query: string,
    documents: string[],
    topN: number,
    signal?: AbortSignal,
    /** a hosted reranker's model and API key */
    auth?: RerankerAuth,
  ): Promise<{ index: number; score: number }[]>;
}
