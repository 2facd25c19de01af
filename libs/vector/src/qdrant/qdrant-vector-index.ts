import { createHash } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import { TextAnalyzer, fnv1a32 } from '../text/text-analyzer';
import {
  cosine,
  RRF_K,
  spaceKey,
  type ChunkPayload,
  type DeleteFilter,
  type IndexedChunk,
  type SearchHit,
  type SearchRequest,
  type StoredChunk,
  type VectorIndex,
  type VectorSpace,
} from '../vector-index';

export interface QdrantVectorIndexOptions {
  url: string;
  apiKey?: string;
  space: VectorSpace;
  /** collection name prefix (default `inquest_kb`) */
  prefix?: string;
  analyzer?: TextAnalyzer;
  /** BM25 parameters of the sparse term weights (IDF is applied by Qdrant) */
  k1?: number;
  b?: number;
  avgDocLength?: number;
}

type Filter = { must: Record<string, unknown>[] };

/**
 * Qdrant adapter: one collection per embedding space with a named dense vector (`dense`,
 * cosine) and a named sparse vector (`bm25`, IDF modifier). Sparse values are the BM25 term
 * saturation tf*(k1+1)/(tf+k1*(1-b+b*dl/avgdl)) of the shared analyzer's terms, so Qdrant's
 * IDF x value sum is BM25. The team is the tenant key of a payload index and is in every
 * filter. Hybrid is one Query API call: two prefetches fused by RRF (k = 60).
 */
export class QdrantVectorIndex implements VectorIndex {
  readonly backend = 'qdrant' as const;
  private readonly client: QdrantClient;
  private readonly collection: string;
  private readonly analyzer: TextAnalyzer;
  private ready?: Promise<void>;

  constructor(private readonly options: QdrantVectorIndexOptions) {
    this.client = new QdrantClient({
      url: options.url,
      apiKey: options.apiKey,
      checkCompatibility: false,
    });
    this.collection = `${options.prefix ?? 'inquest_kb'}_${spaceKey(options.space)}`;
    this.analyzer = options.analyzer ?? new TextAnalyzer();
  }

  get space(): VectorSpace {
    return this.options.space;
  }

  private ensure(): Promise<void> {
    this.ready ??= (async () => {
      const exists = await this.client.collectionExists(this.collection);
      if (!exists.exists) {
        await this.client.createCollection(this.collection, {
          vectors: { dense: { size: this.space.dimensions, distance: 'Cosine' } },
          sparse_vectors: { bm25: { modifier: 'idf' } },
        });
      }
      await this.client.createPayloadIndex(this.collection, {
        field_name: 'team_id',
        field_schema: { type: 'keyword', is_tenant: true },
        wait: true,
      });
      for (const field of ['document_id', 'level', 'chunk_id', 'tree_version']) {
        await this.client.createPayloadIndex(this.collection, {
          field_name: field,
          field_schema: 'keyword',
          wait: true,
        });
      }
      await this.client.createPayloadIndex(this.collection, {
        field_name: 'tree_layer',
        field_schema: 'integer',
        wait: true,
      });
    })().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private sparseVector(text: string): { indices: number[]; values: number[] } {
    const k1 = this.options.k1 ?? 1.2;
    const b = this.options.b ?? 0.75;
    const avgdl = this.options.avgDocLength ?? 120;
    const tf = this.analyzer.termFrequencies(text);
    let dl = 0;
    for (const n of tf.values()) dl += n;
    const byIndex = new Map<number, number>();
    for (const [term, n] of tf) {
      const w = (n * (k1 + 1)) / (n + k1 * (1 - b + (b * dl) / avgdl));
      const idx = fnv1a32(term);
      byIndex.set(idx, (byIndex.get(idx) ?? 0) + w);
    }
    return { indices: [...byIndex.keys()], values: [...byIndex.values()] };
  }

  private queryVector(text: string): { indices: number[]; values: number[] } {
    const idx = [...new Set(this.analyzer.terms(text).map(fnv1a32))];
    return { indices: idx, values: idx.map(() => 1) };
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    if (!chunks.length) return;
    await this.ensure();
    for (let i = 0; i < chunks.length; i += 256) {
      await this.client.upsert(this.collection, {
        wait: true,
        points: chunks.slice(i, i + 256).map((c) => ({
          id: pointId(c.id),
          vector: { dense: Array.from(c.vector), bm25: this.sparseVector(c.text) },
          payload: { ...c.payload, chunk_id: c.id, team_id: c.teamId } as Record<string, unknown>,
        })),
      });
    }
  }

  private filterOf(teamId: string, req?: SearchRequest['filter']): Filter {
    const must: Record<string, unknown>[] = [{ key: 'team_id', match: { value: teamId } }];
    if (req?.levels?.length) must.push({ key: 'level', match: { any: req.levels } });
    if (req?.documentIds?.length)
      must.push({ key: 'document_id', match: { any: req.documentIds } });
    return { must };
  }

  async search(req: SearchRequest): Promise<SearchHit[]> {
    await this.ensure();
    const filter = this.filterOf(req.teamId, req.filter);
    const limit = Math.max(1, req.limit);
    let res: {
      points: {
        id: string | number;
        score: number;
        payload?: Record<string, unknown> | null;
        vector?: unknown;
      }[];
    };
    if (req.mode === 'dense') {
      if (!req.vector) throw new Error('dense search needs a query vector');
      res = await this.client.query(this.collection, {
        query: Array.from(req.vector),
        using: 'dense',
        filter,
        limit,
        with_payload: true,
      });
    } else if (req.mode === 'sparse') {
      if (req.text === undefined) throw new Error('sparse search needs a query text');
      const q = this.queryVector(req.text);
      if (!q.indices.length) return [];
      res = await this.client.query(this.collection, {
        query: q,
        using: 'bm25',
        filter,
        limit,
        with_payload: true,
      });
    } else {
      if (!req.vector || req.text === undefined)
        throw new Error('hybrid search needs a vector and a text');
      const n = req.candidates ?? Math.max(limit, 50);
      const q = this.queryVector(req.text);
      const prefetch: Record<string, unknown>[] = [
        { query: Array.from(req.vector), using: 'dense', filter, limit: n },
      ];
      if (q.indices.length) prefetch.push({ query: q, using: 'bm25', filter, limit: n });
      res = await this.client.query(this.collection, {
        prefetch: prefetch as never,
        query: { rrf: { k: RRF_K } },
        filter,
        limit,
        with_payload: true,
        with_vector: ['dense'],
      });
      // the fused answer has no per-path scores: the cosine is computed from the returned vectors
      return res.points.map((p) => {
        const hit = toHit(p.payload ?? {}, p.score);
        const v = toStored({}, p.vector).vector;
        if (v) hit.similarity = cosine(req.vector!, v);
        return hit;
      });
    }
    return res.points.map((p) => toHit(p.payload ?? {}, p.score));
  }

  async delete(teamId: string, filter: DeleteFilter): Promise<void> {
    // an empty id list matches no document (filterOf would drop it and match the whole team)
    if (filter.documentIds && !filter.documentIds.length) return;
    await this.ensure();
    const f: { must: Record<string, unknown>[]; must_not?: Record<string, unknown>[] } =
      this.filterOf(teamId, {
        documentIds: filter.documentIds,
      });
    if (filter.minTreeLayer !== undefined)
      f.must.push({ key: 'tree_layer', range: { gte: filter.minTreeLayer } });
    if (filter.exceptTreeVersion !== undefined)
      f.must_not = [{ key: 'tree_version', match: { value: filter.exceptTreeVersion } }];
    await this.client.delete(this.collection, { wait: true, filter: f });
  }

  async listLayer(teamId: string, treeLayer: number, withVectors: boolean): Promise<StoredChunk[]> {
    await this.ensure();
    const out: StoredChunk[] = [];
    let offset: string | number | undefined | null = undefined;
    const filter = this.filterOf(teamId);
    filter.must.push({ key: 'tree_layer', match: { value: treeLayer } });
    do {
      const page = await this.client.scroll(this.collection, {
        filter,
        limit: 512,
        offset: offset ?? undefined,
        with_payload: true,
        with_vector: withVectors ? ['dense'] : false,
      });
      for (const p of page.points) out.push(toStored(p.payload ?? {}, p.vector));
      offset = page.next_page_offset as string | number | null | undefined;
    } while (offset !== null && offset !== undefined);
    return out;
  }

  async get(teamId: string, ids: string[]): Promise<StoredChunk[]> {
    if (!ids.length) return [];
    await this.ensure();
    const pts = await this.client.retrieve(this.collection, {
      ids: ids.map(pointId),
      with_payload: true,
      with_vector: ['dense'],
    });
    return pts
      .filter((p) => p.payload?.['team_id'] === teamId)
      .map((p) => toStored(p.payload ?? {}, p.vector));
  }

  async count(teamId: string, treeLayer?: number): Promise<number> {
    await this.ensure();
    const filter = this.filterOf(teamId);
    if (treeLayer !== undefined)
      filter.must.push({ key: 'tree_layer', match: { value: treeLayer } });
    return (await this.client.count(this.collection, { filter, exact: true })).count;
  }

  async close(): Promise<void> {
    // the REST client holds no connection that needs closing
  }
}

/** Qdrant ids are UUIDs or integers: derive a stable UUID from the chunk id. */
function pointId(id: string): string {
  const h = createHash('sha1').update(id).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function strip(payload: Record<string, unknown>): { id: string; payload: ChunkPayload } {
  const { chunk_id, team_id: _team, ...rest } = payload;
  return { id: String(chunk_id), payload: rest as unknown as ChunkPayload };
}

function toHit(payload: Record<string, unknown>, score: number): SearchHit {
  return { ...strip(payload), score };
}

function toStored(payload: Record<string, unknown>, vector: unknown): StoredChunk {
  const s: StoredChunk =
    payload['chunk_id'] === undefined
      ? { id: '', payload: payload as unknown as ChunkPayload }
      : strip(payload);
  const dense =
    vector && typeof vector === 'object' && !Array.isArray(vector)
      ? (vector as Record<string, unknown>)['dense']
      : vector;
  if (Array.isArray(dense)) s.vector = Float32Array.from(dense as number[]);
  return s;
}
