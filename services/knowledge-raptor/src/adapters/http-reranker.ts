import type { Egress } from '@inquest/egress';
import { unavailable } from '@inquest/errors';
import type { ExternalReranker } from '../domain/spaces';

/**
 * The common `/rerank` API (Cohere, Jina, TEI, vLLM): POST {query, documents, top_n} answering
 * {results: [{index, relevance_score}]} (TEI answers a bare array of {index, score}). Goes
 * through the egress guard like every call to a user-supplied URL.
 */
export class HttpReranker implements ExternalReranker {
  constructor(
    private readonly egress: Egress,
    private readonly timeoutMs = 5000,
  ) {}

  async rerank(
    url: string,
    query: string,
    documents: string[],
    topN: number,
    signal?: AbortSignal,
  ) {
    const res = await this.egress.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, documents, top_n: topN, return_documents: false }),
      signal,
      timeoutMs: this.timeoutMs,
    });
    if (res.status < 200 || res.status > 299) throw unavailable(`reranker answered ${res.status}`);
    const body = res.json() as { results?: unknown } | unknown[];
    const rows = (Array.isArray(body) ? body : (body as { results?: unknown }).results) as
      { index?: number; relevance_score?: number; score?: number }[] | undefined;
    if (!Array.isArray(rows)) throw unavailable('reranker answer has no results');
    return rows
      .filter((r) => typeof r.index === 'number')
      .map((r) => ({ index: r.index!, score: Number(r.relevance_score ?? r.score ?? 0) }));
  }
}
