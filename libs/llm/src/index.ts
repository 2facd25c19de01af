// Ports and adapters of @inquest/llm are re-exported from here.
export * from './chat/index';
export * from './embeddings/index';
export * from './summarize/index';
