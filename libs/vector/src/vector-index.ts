/**
 * The vector index port: dense vectors plus BM25 terms for knowledge chunks, team-scoped on
 * every call. An index instance serves exactly one embedding space (model + dimensions), so
 * vectors of different models never mix: each space has its own table set or collection.
 */
import { fnv1a32 } from './text/text-analyzer';

export interface VectorSpace {
  /** the embedder's id (model + version tag) */
  model: string;
  dimensions: number;
}

/** What is stored with each vector (static facts; dynamic signals live with the documents). */
export interface ChunkPayload {
  document_id: string;
  /** L1..L4 */
  level: string;
  type: string;
  service?: string;
  tags: string[];
  author?: string;
  created_at: string;
  /** 0 for leaves (taught chunks), 1.. for RAPTOR summary layers */
  tree_layer: number;
  /** which tree build produced a summary node */
  tree_version?: string;
  title?: string;
  content: string;
  /** ids of the nodes a summary covers (empty for leaves) */
  children?: string[];
}

export interface IndexedChunk {
  /** unique within the space */
  id: string;
  teamId: string;
  vector: Float32Array;
  /** the text BM25 indexes (analyzed with the shared TextAnalyzer) */
  text: string;
  payload: ChunkPayload;
}

export type SearchMode = 'dense' | 'sparse' | 'hybrid';

export interface SearchFilter {
  levels?: string[];
  documentIds?: string[];
}

export interface SearchRequest {
  teamId: string;
  mode: SearchMode;
  /** needed for dense and hybrid */
  vector?: Float32Array;
  /** needed for sparse and hybrid */
  text?: string;
  limit: number;
  filter?: SearchFilter;
  /** candidates per path before fusion (hybrid); default max(limit, 50) */
  candidates?: number;
}

export interface SearchHit {
  id: string;
  /**
   * dense: cosine similarity; sparse: BM25; hybrid: reciprocal rank fusion
   * sum(1 / (RRF_K + rank)) over both paths (ranks from 1).
   */
  score: number;
  payload: ChunkPayload;
  /** hybrid: cosine similarity of the chunk to the query vector (when the backend knows it) */
  similarity?: number;
  /** hybrid: BM25 of the chunk (0 when the sparse pass did not return it; absent when unknown) */
  bm25?: number;
}

export interface DeleteFilter {
  documentIds?: string[];
  /** delete nodes with tree_layer >= this */
  minTreeLayer?: number;
  /** keep nodes of this tree build (used to swap a rebuilt tree in) */
  exceptTreeVersion?: string;
}

export interface StoredChunk {
  id: string;
  payload: ChunkPayload;
  vector?: Float32Array;
}

export interface VectorIndex {
  readonly backend: 'sqlite' | 'qdrant';
  readonly space: VectorSpace;
  upsert(chunks: IndexedChunk[]): Promise<void>;
  search(request: SearchRequest): Promise<SearchHit[]>;
  delete(teamId: string, filter: DeleteFilter): Promise<void>;
  /** every chunk of a team on one tree layer (for rebuilding the tree) */
  listLayer(teamId: string, treeLayer: number, withVectors: boolean): Promise<StoredChunk[]>;
  get(teamId: string, ids: string[]): Promise<StoredChunk[]>;
  count(teamId: string, treeLayer?: number): Promise<number>;
  close(): Promise<void>;
}

/** The k of reciprocal rank fusion in both backends. */
export const RRF_K = 60;

/** Fuses ranked id lists by reciprocal rank fusion (k = RRF_K). */
export function reciprocalRankFusion(lists: string[][], k = RRF_K): Map<string, number> {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1)));
  }
  return scores;
}

/** A table/collection-safe name for a space, unique per model and dimension. */
export function spaceKey(space: VectorSpace): string {
  const model = space.model
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  // a longer name keeps its head and a hash of the whole, so names differing only at the end
  // (a model id with an analyzer version appended) stay apart
  const name =
    model.length > 40
      ? `${model.slice(0, 32).replace(/_+$/, '')}_${fnv1a32(model).toString(36)}`
      : model;
  return `${name}_${space.dimensions}`;
}

/** Cosine similarity of two vectors of equal length (0 when either is all zeros). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
