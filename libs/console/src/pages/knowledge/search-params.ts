// The knowledge search as kept in the URL (?q=&strategy=&top_k=&service=), so back, forward
// and shared links show the same results.
import type { RetrieveRequest } from '@inquest/client';

export type Strategy = NonNullable<RetrieveRequest['strategy']>;
export const STRATEGIES: Strategy[] = ['hybrid', 'dense', 'sparse'];

export interface SearchParams {
  query: string;
  strategy?: Strategy;
  top_k?: number;
  service?: string;
}

/** The search a URL's query string names; undefined without a query. Bad values are dropped. */
export function searchFromUrl(search: string): SearchParams | undefined {
  const p = new URLSearchParams(search);
  const query = p.get('q')?.trim();
  if (!query) return undefined;
  const strategy = p.get('strategy');
  const topK = Number(p.get('top_k'));
  const service = p.get('service')?.trim();
  return {
    query,
    ...(STRATEGIES.includes(strategy as Strategy) ? { strategy: strategy as Strategy } : {}),
    ...(Number.isInteger(topK) && topK >= 1 && topK <= 100 ? { top_k: topK } : {}),
    ...(service ? { service } : {}),
  };
}

/** The console path of a search. */
export function searchUrl(s: SearchParams): string {
  const p = new URLSearchParams({ q: s.query });
  if (s.strategy) p.set('strategy', s.strategy);
  if (s.top_k) p.set('top_k', String(s.top_k));
  if (s.service) p.set('service', s.service);
  return `/knowledge?${p.toString()}`;
}
