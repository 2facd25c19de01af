import { join } from 'node:path';
import { HashingEmbedder, OpenAiEmbedder, type Embedder } from '@inquest/llm';
import type { Logger } from '@inquest/observability';
import {
  QdrantVectorIndex,
  SqliteVectorIndex,
  spaceKey,
  type TextAnalyzer,
  type VectorIndex,
} from '@inquest/vector';
import type { EmbeddingSpace, Spaces } from '../domain/spaces';

export interface ModelSpacesOptions {
  dataDir: string;
  analyzer: TextAnalyzer;
  logger: Logger;
  qdrantUrl?: string;
  qdrantApiKey?: string;
  embeddingsBaseUrl?: string;
  embeddingsApiKey?: string;
  /** dimensions of API models when the name carries none (`model@1024` sets it per model) */
  embeddingsDimensions: number;
  /** embedded store: postings one BM25 query may rank, rarest terms first (0 = no limit) */
  sparsePostingBudget?: number;
}

/**
 * `hashing` (or anything starting with it) is the local HashingEmbedder (768 dimensions);
 * another name is a model of the OpenAI-compatible embeddings API at INQUEST_EMBEDDINGS_BASE_URL
 * (falls back to hashing, with a warning, when no API is configured). Each model gets its own
 * index (tables or collection), so vectors of different models never mix.
 */
export class ModelSpaces implements Spaces {
  private readonly spaces = new Map<string, EmbeddingSpace>();
  private readonly warned = new Set<string>();

  constructor(private readonly o: ModelSpacesOptions) {}

  get(model: string): EmbeddingSpace {
    const key = this.resolveName(model);
    let s = this.spaces.get(key);
    if (!s) {
      const embedder = this.embedder(key);
      // the analyzer shapes the stored BM25 terms (and the hashing embedder's features): a new
      // analyzer version is a new space, filled again at start (catchUpIndexes)
      const model = embedder.id.includes(this.o.analyzer.version)
        ? embedder.id
        : `${embedder.id}+${this.o.analyzer.version}`;
      const space = { model, dimensions: embedder.dimensions };
      const index: VectorIndex = this.o.qdrantUrl
        ? new QdrantVectorIndex({
            url: this.o.qdrantUrl,
            apiKey: this.o.qdrantApiKey,
            space,
            analyzer: this.o.analyzer,
          })
        : SqliteVectorIndex.open({
            file: join(this.o.dataDir, 'knowledge-vectors.db'),
            space,
            analyzer: this.o.analyzer,
            sparsePostingBudget: this.o.sparsePostingBudget,
          });
      s = { embedder, index };
      this.spaces.set(key, s);
      this.o.logger.info(
        { model: embedder.id, space: spaceKey(space), backend: index.backend },
        'embedding space opened',
      );
    }
    return s;
  }

  private resolveName(model: string): string {
    const m = model.trim();
    if (!m || m.toLowerCase().startsWith('hashing')) return 'hashing';
    if (!this.o.embeddingsBaseUrl) {
      if (!this.warned.has(m)) {
        this.warned.add(m);
        this.o.logger.warn(
          { model: m },
          'embedding model configured but INQUEST_EMBEDDINGS_BASE_URL is not set; using hashing embeddings',
        );
      }
      return 'hashing';
    }
    return m;
  }

  private embedder(name: string): Embedder {
    if (name === 'hashing') {
      const a = this.o.analyzer;
      return new HashingEmbedder({
        dimensions: 768,
        tokenize: (t) => a.terms(t),
        tokenizerVersion: a.version,
      });
    }
    const at = /^(.*)@(\d{2,5})$/.exec(name);
    return new OpenAiEmbedder({
      baseUrl: this.o.embeddingsBaseUrl!,
      apiKey: this.o.embeddingsApiKey,
      model: at ? at[1]! : name,
      dimensions: at ? Number(at[2]) : this.o.embeddingsDimensions,
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.spaces.values()].map((s) => s.index.close()));
    this.spaces.clear();
  }
}
