export { RRF_K, cosine, reciprocalRankFusion, spaceKey } from './vector-index';
export type {
  VectorIndex,
  VectorSpace,
  ChunkPayload,
  IndexedChunk,
  SearchMode,
  SearchFilter,
  SearchRequest,
  SearchHit,
  DeleteFilter,
  StoredChunk,
} from './vector-index';
export {
  TextAnalyzer,
  loadOpsVocabulary,
  rawTokens,
  stem,
  fnv1a32,
  CONCEPT_PREFIX,
} from './text/text-analyzer';
export type { Vocabulary, VocabularyConcept } from './text/text-analyzer';
export { SqliteVectorIndex } from './sqlite/sqlite-vector-index';
export type { SqliteVectorIndexOptions } from './sqlite/sqlite-vector-index';
export { QdrantVectorIndex } from './qdrant/qdrant-vector-index';
export type { QdrantVectorIndexOptions } from './qdrant/qdrant-vector-index';
