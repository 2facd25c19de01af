import type { SecretScope } from '@inquest/secrets';
import type { SourceSettings } from './sources/source-sync';

/** The team's knowledge_base settings (effective config), with defaults for anything unset. */
export interface KbSettings {
  raptor: {
    /** tokens per chunk (words and punctuation, approximated by whitespace-separated words) */
    chunk_size: number;
    cluster_threshold: number;
    max_tree_depth: number;
    /** `hashing` (local, default) or the model name of the OpenAI-compatible embeddings API */
    embedding_model: string;
  };
  retrieval: {
    strategy: 'dense' | 'sparse' | 'hybrid';
    /** none | mmr | URL of an external `/rerank` endpoint */
    reranker: string;
    /** how to call a hosted reranker: its model, and the vault reference of its API key */
    reranker_auth?: RerankerAuth;
    top_k: number;
    min_relevance: number;
    ranking: RankingSettings;
  };
  /** knowledge_base.sources: what the sync loop reads into the knowledge base */
  sources: SourceSettings[];
  /**
   * True when these are defaults standing in for an unreachable config (no answer known yet):
   * the sources are unknown, so nothing synced is removed for missing from them.
   */
  sources_unknown?: boolean;
}

/** A hosted reranker's `model` and API key (a vault reference, resolved in `scope`). */
export interface RerankerAuth {
  model?: string;
  api_key_ref?: string;
  /** where api_key_ref may point: the node that set it (config-hierarchy's secret_scopes) */
  scope?: SecretScope;
}

/** Weights of the ranking formula (see ranking.ts); extension `knowledge_base.retrieval.ranking`. */
export interface RankingSettings {
  /** share of the final score the signals may move (0 = pure relevance) */
  signal_influence: number;
  weights: Record<SignalName, number>;
}

export type SignalName =
  | 'recency'
  | 'usage'
  | 'confidence'
  | 'service_match'
  | 'symptom_match'
  | 'author_expertise'
  | 'freshness'
  | 'contextual'
  | 'feedback';

/** Weight scale: high 3, medium 2; the dynamic ones (freshness, contextual) get their weight per query. */
export const DEFAULT_WEIGHTS: Record<SignalName, number> = {
  recency: 3,
  usage: 3,
  confidence: 2,
  service_match: 3,
  symptom_match: 3,
  author_expertise: 2,
  freshness: 1,
  contextual: 1,
  feedback: 2,
};

export const DEFAULT_SETTINGS: KbSettings = {
  raptor: {
    chunk_size: 256,
    cluster_threshold: 0.1,
    max_tree_depth: 3,
    embedding_model: 'hashing',
  },
  retrieval: {
    strategy: 'hybrid',
    reranker: 'none',
    top_k: 5,
    min_relevance: 0.05,
    ranking: { signal_influence: 0.3, weights: DEFAULT_WEIGHTS },
  },
  sources: [],
};

const num = (v: unknown, ok: (n: number) => boolean, def: number) =>
  typeof v === 'number' && ok(v) ? v : def;
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * Reads knowledge_base from an effective config; invalid or missing values take the default.
 * `scopeOf` names the scope a secret reference of the config resolves in.
 */
export function settingsFromConfig(
  config: unknown,
  scopeOf?: (field: string) => SecretScope | undefined,
): KbSettings {
  const kb = obj(obj(config)['knowledge_base']);
  const r = obj(kb['raptor']);
  const q = obj(kb['retrieval']);
  const rank = obj(q['ranking']);
  const w = obj(rank['weights']);
  const d = DEFAULT_SETTINGS;
  const weights = { ...DEFAULT_WEIGHTS };
  for (const k of Object.keys(weights) as SignalName[])
    weights[k] = num(w[k], (n) => n >= 0 && n <= 100, weights[k]);
  const strategy = q['strategy'];
  const model = typeof q['reranker_model'] === 'string' ? q['reranker_model'].trim() : '';
  const keyRef = typeof q['reranker_api_key'] === 'string' ? q['reranker_api_key'].trim() : '';
  const scope = keyRef ? scopeOf?.('knowledge_base.retrieval.reranker_api_key') : undefined;
  const auth: RerankerAuth = {
    ...(model ? { model } : {}),
    ...(keyRef ? { api_key_ref: keyRef } : {}),
    ...(scope ? { scope } : {}),
  };
  return {
    sources: sourcesFromConfig(obj(kb['sources']), scopeOf),
    raptor: {
      chunk_size: Math.round(
        num(r['chunk_size'], (n) => n >= 16 && n <= 8192, d.raptor.chunk_size),
      ),
      cluster_threshold: num(
        r['cluster_threshold'],
        (n) => n > 0 && n < 1,
        d.raptor.cluster_threshold,
      ),
      max_tree_depth: Math.round(
        num(r['max_tree_depth'], (n) => n >= 0 && n <= 10, d.raptor.max_tree_depth),
      ),
      embedding_model:
        typeof r['embedding_model'] === 'string' && r['embedding_model'].trim()
          ? r['embedding_model'].trim()
          : d.raptor.embedding_model,
    },
    retrieval: {
      strategy:
        strategy === 'dense' || strategy === 'sparse' || strategy === 'hybrid'
          ? strategy
          : d.retrieval.strategy,
      reranker:
        typeof q['reranker'] === 'string' && q['reranker'].trim()
          ? q['reranker'].trim()
          : d.retrieval.reranker,
      ...(model || keyRef ? { reranker_auth: auth } : {}),
      top_k: Math.round(num(q['top_k'], (n) => n >= 1 && n <= 100, d.retrieval.top_k)),
      min_relevance: num(q['min_relevance'], (n) => n >= 0 && n <= 1, d.retrieval.min_relevance),
      ranking: {
        signal_influence: num(
          rank['signal_influence'],
          (n) => n >= 0 && n <= 1,
          d.retrieval.ranking.signal_influence,
        ),
        weights,
      },
    },
  };
}

const SOURCE_KINDS = ['git', 'web', 'confluence'] as const;
const DURATION_UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const strs = (v: unknown) =>
  Array.isArray(v) ? v.map(str).filter((x): x is string => x !== undefined) : undefined;

/** `30m`, `1h`, `1d` in milliseconds; undefined when absent or malformed. */
export function durationMs(v: unknown): number | undefined {
  const m = typeof v === 'string' ? /^(\d+)\s*([smhd])$/.exec(v.trim()) : null;
  return m ? Number(m[1]) * DURATION_UNIT_MS[m[2]!]! : undefined;
}

/**
 * knowledge_base.sources: `<name>: {kind, url, ...}`; without `kind` the name says it (`git`,
 * `web`, `confluence`). A source without a URL or of an unknown kind is left out.
 */
function sourcesFromConfig(
  sources: Record<string, unknown>,
  scopeOf?: (field: string) => SecretScope | undefined,
): SourceSettings[] {
  const out: SourceSettings[] = [];
  for (const [name, raw] of Object.entries(sources)) {
    const s = obj(raw);
    const kind = str(s['kind']) ?? name;
    const url = str(s['url']);
    if (!(SOURCE_KINDS as readonly string[]).includes(kind) || !url) continue;
    const tokenRef = str(s['token']);
    const scope = tokenRef ? scopeOf?.(`knowledge_base.sources.${name}.token`) : undefined;
    const interval = durationMs(s['sync_interval']);
    out.push({
      name,
      kind: kind as SourceSettings['kind'],
      url,
      ...(str(s['branch']) ? { branch: str(s['branch']) } : {}),
      ...(strs(s['paths'])?.length ? { paths: strs(s['paths']) } : {}),
      ...(strs(s['urls'])?.length ? { urls: strs(s['urls']) } : {}),
      ...(strs(s['space_keys'])?.length ? { space_keys: strs(s['space_keys']) } : {}),
      ...(str(s['username']) ? { username: str(s['username']) } : {}),
      ...(tokenRef ? { token_ref: tokenRef } : {}),
      ...(scope ? { scope } : {}),
      ...(str(s['type']) ? { type: str(s['type'])!.toLowerCase() } : {}),
      ...(interval ? { sync_interval_ms: interval } : {}),
    });
  }
  return out;
}

/** Where the service gets a team's settings (config-hierarchy over gRPC, cached). */
export interface SettingsSource {
  get(teamId: string): Promise<KbSettings>;
}
