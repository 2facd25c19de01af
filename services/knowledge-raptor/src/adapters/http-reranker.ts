import type { Egress } from '@inquest/egress';
import { unavailable } from '@inquest/errors';
import { createCircuitBreaker, type CircuitBreaker } from '@inquest/runtime';
import type { SecretResolver } from '@inquest/secrets';
import type { RerankerAuth } from '../domain/knowledge-settings';
import type { ExternalReranker } from '../domain/spaces';

/**
 * The common `/rerank` API (Cohere, Jina, TEI, vLLM): POST {query, documents, top_n} answering
 * {results: [{index, relevance_score}]} (TEI answers a bare array of {index, score}). A hosted
 * reranker gets `model` in the body and `Authorization: Bearer <key>`, the key resolved from its
 * vault reference in the scope of the node that set it. Goes through the egress guard like every
 * call to a user-supplied URL. Each reranker URL has its own circuit breaker: one that keeps
 * failing is left alone for a while instead of costing every query its timeout.
 */
export class HttpReranker implements ExternalReranker {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(
    private readonly egress: Egress,
    private readonly secrets?: SecretResolver,
    private readonly timeoutMs = 5000,
  ) {}

  async rerank(
    url: string,
    query: string,
    documents: string[],
    topN: number,
    signal?: AbortSignal,
    auth?: RerankerAuth,
  ) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (auth?.api_key_ref) {
      if (!this.secrets || !auth.scope) throw unavailable('no secret store for the reranker key');
      headers['authorization'] =
        `Bearer ${await this.secrets.resolve(auth.api_key_ref, auth.scope)}`;
    }
    return this.breakerOf(url).fire(
      () => this.call(url, query, documents, topN, headers, signal, auth),
      signal,
    );
  }

  private breakerOf(url: string): CircuitBreaker {
    let b = this.breakers.get(url);
    if (!b) {
      // URLs come from team config: bound the map instead of growing with every edit
      if (this.breakers.size >= 100) {
        for (const old of this.breakers.values()) old.shutdown();
        this.breakers.clear();
      }
      b = createCircuitBreaker({ name: `reranker ${url}`, openCode: 'reranker_unavailable' });
      this.breakers.set(url, b);
    }
    return b;
  }

  private async call(
    url: string,
    query: string,
    documents: string[],
    topN: number,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
    auth: RerankerAuth | undefined,
  ) {
    const res = await this.egress.request(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        ...(auth?.model ? { model: auth.model } : {}),
        query,
        documents,
        top_n: topN,
        return_documents: false,
      }),
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
