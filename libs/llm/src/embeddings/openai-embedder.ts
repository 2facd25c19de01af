import OpenAI from 'openai';
import { DomainError } from '@inquest/errors';
import { createCircuitBreaker, type CircuitBreaker } from '@inquest/runtime';
import { l2Normalize, type Embedder } from './embedder';

export interface OpenAiEmbedderOptions {
  /** e.g. https://api.openai.com/v1 or any OpenAI-compatible server */
  baseUrl: string;
  apiKey?: string;
  model: string;
  dimensions: number;
  /** texts per request (default 64) */
  batchSize?: number;
  /** per request, ms (default 30 s) */
  timeoutMs?: number;
  maxRetries?: number;
  /** opens after repeated failures (default: one per embedder) */
  breaker?: CircuitBreaker;
}

/** Embedder over any OpenAI-compatible `/embeddings` API (the `openai` package). */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly client: OpenAI;
  private readonly breaker: CircuitBreaker;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.breaker =
      options.breaker ??
      createCircuitBreaker({ name: 'the embeddings API', openCode: 'embeddings_unavailable' });
    this.id = `openai:${options.model}`;
    this.dimensions = options.dimensions;
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey || 'none',
      timeout: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
    });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const size = this.options.batchSize ?? 64;
    for (let i = 0; i < texts.length; i += size) {
      const batch = texts.slice(i, i + size).map((t) => (t.trim() ? t : ' '));
      const res = await this.breaker.fire(async () => {
        try {
          return await this.client.embeddings.create({
            model: this.options.model,
            input: batch,
            encoding_format: 'float',
          });
        } catch (err) {
          throw new DomainError(
            'unavailable',
            'embeddings_unavailable',
            `embeddings request failed: ${(err as Error).message}`,
            { cause: err },
          );
        }
      });
      const rows = [...res.data].sort((a, b) => a.index - b.index);
      if (rows.length !== batch.length) {
        throw new DomainError(
          'unavailable',
          'embeddings_unavailable',
          'embeddings answer has the wrong number of vectors',
        );
      }
      for (const r of rows) {
        if (r.embedding.length !== this.dimensions) {
          throw new DomainError(
            'unavailable',
            'embeddings_unavailable',
            `model ${this.options.model} returned ${r.embedding.length} dimensions, expected ${this.dimensions}`,
          );
        }
        out.push(l2Normalize(Float32Array.from(r.embedding)));
      }
    }
    return out;
  }
}
