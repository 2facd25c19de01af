export { l2Normalize } from './embedder';
export type { Embedder } from './embedder';
export { HashingEmbedder } from './hashing-embedder';
export type { HashingEmbedderOptions } from './hashing-embedder';
export { OpenAiEmbedder } from './openai-embedder';
export type { OpenAiEmbedderOptions } from './openai-embedder';
